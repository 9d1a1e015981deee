"""Battles: building the ``Engagement``, settling it, and applying the ``Outcome``
(docs/rules/campaign.md §12).

The campaign never fights a battle itself.  It builds a ``bellum.engagement.Engagement``
from the forces in the space and hands it to a *resolver* — any function
``(Engagement, Dice) -> Outcome``.  The default is the battleboard's auto-resolve
(``battleboard.resolve.autoplay`` + ``outcome``) with the campaign's own dice; a window
may instead play the battle on the battleboard or the tactical engine and hand the
``Outcome`` back inside the deciding action (``campaign.actions``).  ``apply_outcome``
then applies every line of it: losses, disruption, promotions, reconstitution, leaders
killed, captured or executed, captured fleets, fratricide, bonus stratagems, and the
loser's retreat.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from bellum.dice import Dice
from bellum.engagement import (
    FRATRICIDE_BLOCK,
    KILLED,
    STANDING,
    Engagement,
    ForceLeader,
    ForceUnit,
    Outcome,
    Side,
    SideForce,
)
from bellum.errors import RuleError
from bellum.events import Event
from campaign.map import roman_world
from campaign.rules.common import counted, event, force_name, leader_name, loss_text, place_name, tidy
from campaign.rules.presence import blocked, enemy_troops_at, land_links
from campaign.rules.siege import ground, mobile_ground, take_captive
from campaign.state import SIDE_NAMES, SIDES, CampaignState, enemy
from campaign.tables import tables
from campaign.units import Force, Unit, catalogue, engagement_leader, engagement_unit

#: the battle hook: whatever settles an engagement
Resolver = Callable[[Engagement, Dice], Outcome]


def fratricide_points(state: CampaignState, eng: Engagement, out: Outcome) -> int:
    """The Fratricide a battle adds (campaign.md §21.3): per side, the SP of its Roman heavy
    infantry (kinds marked ``fratricide``) whose fate is killed, plus SP a surviving unit was
    worn down by, in whole blocks of 5 — never more blocks than the battle engine itself
    reports killed (``heavy_infantry_killed``: a tactical battle's worn-down SP may include
    prisoners).  Only a battle between the two Roman sides counts."""
    sides = {eng.sides[k].faction for k in ("A", "B")}
    if {state.allegiance(f) for f in sides} != set(SIDES):
        return 0
    cat = catalogue()
    units = {u.id: u for f in state.forces.values() for u in f.units}
    killed = {"A": 0, "B": 0}
    for fate in out.units:
        unit = units.get(fate.id)
        if unit is None or not cat.kind(unit.kind).fratricide:
            continue
        if fate.fate in KILLED:
            killed[fate.side] += unit.strength
        elif fate.fate in ("survived", "fled_returned", "reconstituted") and 0 < fate.strength < unit.strength:
            killed[fate.side] += unit.strength - fate.strength
    return FRATRICIDE_BLOCK * sum(
        min(killed[k] // FRATRICIDE_BLOCK, out.heavy_infantry_killed.get(k, 0)) for k in ("A", "B")
    )


def auto_resolve(eng: Engagement, dice: Dice) -> Outcome:
    """The battleboard's auto-resolve with the campaign's dice (battleboard.md §14)."""
    from battleboard.resolve import ROUTE

    return ROUTE.resolve(eng, dice)


# --------------------------------------------------------------------------- where battles are


def field_battles(state: CampaignState) -> list[str]:
    """Spaces where the active side must fight a field battle this combat phase: both
    sides have troops that can take the field there (§12.1).  Troops facing only a
    city's civis besiege it instead (§11.2)."""
    side = state.active
    foe = enemy(side)
    cmap = roman_world()
    out = []
    places = sorted({f.location for f in state.forces_of(side) if mobile_ground(f)})
    for p in places:
        if p in state.fought or not cmap.is_land(p):
            continue
        if any(mobile_ground(f) for f in state.side_forces_at(p, foe)):
            out.append(p)
    return out


def naval_contacts(state: CampaignState) -> list[str]:
    """Spaces where both sides have fleets: the active side may offer a mutual naval
    battle (004 case (a); §9.4)."""
    side = state.active
    foe = enemy(side)
    out = []
    places = sorted({f.location for f in state.forces_of(side) if f.fleets()})
    for p in places:
        if p in state.fought:
            continue
        if any(f.fleets() for f in state.side_forces_at(p, foe)):
            out.append(p)
    return out


def max_commit(state: CampaignState, side: str, place: str) -> int:
    """Military stratagems a side may commit to a battle: what it holds, up to the best
    rating among its leaders there (reference: a leader plays up to his rating)."""
    cat = catalogue()
    ratings = [cat.leader(ld).rating for f in state.side_forces_at(place, side) for ld in f.leaders]
    return min(state.stratagems[side]["military"], max(ratings, default=0))


def spend(state: CampaignState, side: str, kind: str, n: int) -> None:
    if n > state.stratagems[side][kind]:
        raise RuleError(f"You hold only {state.stratagems[side][kind]} {kind.capitalize()} stratagems.")
    state.stratagems[side][kind] -= n
    state.expended[side][kind] += n


# --------------------------------------------------------------------------- the engagement


def terrain_of(place: str, defenders_city: bool) -> str:
    """The battleboard a space gives (battleboard.md §4; campaign.md §12.2)."""
    cmap = roman_world()
    if cmap.is_sea(place):
        return "sea"
    s = cmap.spaces[place]
    if s.mountain_pass:
        return "pass"
    if s.kind == "city" and defenders_city:
        return "city"
    if s.terrain in ("hills", "mountains", "forest"):
        return "hills"
    if s.rivers:
        return "river"
    if s.port:
        return "coast"
    return "field"


def _leaders(forces: list[Force], side: Side, state: CampaignState) -> list[ForceLeader]:
    sup = set(v for v in state.supreme.values() if v)
    return [engagement_leader(ld, side, supreme=ld in sup) for f in forces for ld in f.leaders]


def land_engagement(state: CampaignState, place: str, a_n: int, b_n: int) -> Engagement:
    """The field battle in ``place``: the active side is A (§12.2)."""
    cat = catalogue()
    side = state.active
    foe = enemy(side)
    fa = [f for f in state.side_forces_at(place, side) if ground(f)]
    fb = [f for f in state.side_forces_at(place, foe) if ground(f)]
    units = [engagement_unit(u, "A") for f in fa for u in f.units if not cat.kind(u.kind).is_fleet]
    units += [engagement_unit(u, "B") for f in fb for u in f.units if not cat.kind(u.kind).is_fleet]
    defenders_city = state.owner_side(place) == foe
    return Engagement(
        id=f"t{state.turn}-{place}-{state.next_id}",
        where=place,
        turn=state.date(),
        kind="land",
        terrain=terrain_of(place, defenders_city),
        trigger="battle",
        active="A",
        sides={
            "A": SideForce(faction=side, superiority_stratagems=a_n),
            "B": SideForce(faction=foe, superiority_stratagems=b_n),
        },
        units=units,
        leaders=_leaders(fa, "A", state) + _leaders(fb, "B", state),
    )


def naval_engagement(
    state: CampaignState,
    place: str,
    a_forces: list[Force],
    b_forces: list[Force],
    trigger: Literal["mutual", "supply", "interception"],
) -> Engagement:
    """A naval battle (004 Setup): each side's fleets and the ground units aboard them
    (in a port, ground units ashore do not fight at sea)."""
    cat = catalogue()
    side = state.active
    foe = enemy(side)

    def afloat(f: Force, s: Side) -> list[ForceUnit]:
        return [engagement_unit(u, s) for u in f.units if cat.kind(u.kind).is_fleet or u.aboard is not None]

    units = [u for f in a_forces for u in afloat(f, "A")] + [u for f in b_forces for u in afloat(f, "B")]
    port = roman_world().is_land(place)
    return Engagement(
        id=f"t{state.turn}-{place}-{state.next_id}",
        where=place,
        turn=state.date(),
        kind="naval",
        terrain="sea",
        trigger=trigger,
        active="A",
        sides={
            "A": SideForce(
                faction=side,
                friendly_port=port and state.owner_side(place) == side,
                free_fleet_counters=state.free_fleet_counters(side),
            ),
            "B": SideForce(
                faction=foe,
                friendly_port=port and state.owner_side(place) == foe,
                free_fleet_counters=state.free_fleet_counters(foe),
            ),
        },
        units=units,
        leaders=_leaders(a_forces, "A", state) + _leaders(b_forces, "B", state),
    )


def check_outcome(eng: Engagement, out: Outcome) -> None:
    """An outcome handed in from outside must belong to this engagement."""
    if out.engagement != eng.id:
        raise RuleError(f"That battle result is for engagement {out.engagement}, not {eng.id}.")
    if {f.id for f in out.units} != {u.id for u in eng.units}:
        raise RuleError("That battle result does not account for exactly the units that fought.")


# --------------------------------------------------------------------------- the outcome


def apply_outcome(
    state: CampaignState, eng: Engagement, out: Outcome, dice: Dice, title: str, *, relief: bool = False
) -> list[Event]:
    """Apply a battle's ``Outcome`` to ``state`` (a copy the caller owns), §12.3–§12.6."""
    fratricide = fratricide_points(state, eng, out)  # before the units are removed
    sides: dict[Side, str] = {"A": eng.sides["A"].faction, "B": eng.sides["B"].faction}
    updates, removed, moved, losses = _unit_fates(state, out, sides)
    _write_unit_fates(state, updates, removed, {m[0] for m in moved})
    events = _man_prizes(state, out, moved, eng.where, sides)
    events += _leader_fates(state, out, sides, dice)
    state.fratricide += fratricide
    events.insert(0, _battle_event(state, eng, out, title, relief, losses, fratricide, sides))
    for p in out.promotions:
        events.append(
            event(
                state, "promotion", f"{_unit_label(state, p.id)} is promoted from {p.before} to {p.after}.", unit=p.id
            )
        )
    events += _spoils(state, out, sides)
    state.next_id += 1
    tidy(state)
    return events


_Updates = dict[str, dict[str, object]]


def _unit_fates(
    state: CampaignState, out: Outcome, sides: dict[Side, str]
) -> tuple[_Updates, set[str], list[tuple[str, str]], dict[str, int]]:
    """What happens to each unit that fought (§12.3): the changes to those still standing,
    the ids removed, the ships taken into the enemy's service (unit, to side), and the SP lost."""
    cat = catalogue()
    where = {u.id: fid for fid, f in state.forces.items() for u in f.units}
    captured = {c.id: c for c in out.captured_fleets}
    losses: dict[str, int] = {}
    updates: _Updates = {}
    removed: set[str] = set()
    moved: list[tuple[str, str]] = []
    for fate in out.units:
        fid = where.get(fate.id)
        if fid is None:
            continue
        unit = state.forces[fid].unit(fate.id)
        if fate.fate in STANDING:
            upd: dict[str, object] = {"disrupted": fate.flipped}
            if fate.discipline != unit.discipline and fate.discipline in cat.kind(unit.kind).disciplines:
                upd["discipline"] = fate.discipline
            if 0 < fate.strength < unit.strength:  # worn down but standing (a tactical battle, §12.7)
                upd["strength"] = fate.strength
                losses[fate.id] = unit.strength - fate.strength
            updates[fate.id] = upd
        elif fate.fate == "captured" and fate.id in captured and captured[fate.id].converted:
            moved.append((fate.id, sides[captured[fate.id].to_side]))
        else:
            removed.add(fate.id)
            losses[fate.id] = unit.strength
    return updates, removed, moved, losses


def _write_unit_fates(state: CampaignState, updates: _Updates, removed: set[str], moved: set[str]) -> None:
    """The forces of the units that fought, with the standing ones changed and the others gone
    (a ship's passengers whose ship is gone are no longer aboard)."""
    where = {u.id: fid for fid, f in state.forces.items() for u in f.units}
    for fid in {where[i] for i in (*updates, *removed, *moved) if i in where}:
        f = state.forces[fid]
        units = tuple(
            u.model_copy(update=updates[u.id]) if u.id in updates else u
            for u in f.units
            if u.id not in removed and u.id not in moved
        )
        ids = {u.id for u in units}
        units = tuple(
            u if u.aboard is None or u.aboard in ids else u.model_copy(update={"aboard": None}) for u in units
        )
        state.forces[fid] = f.model_copy(update={"units": units})


def _man_prizes(
    state: CampaignState, out: Outcome, moved: list[tuple[str, str]], place: str, sides: dict[Side, str]
) -> list[Event]:
    """Captured squadrons the captor mans join his strongest force there, or a new one (004)."""
    cat = catalogue()
    events: list[Event] = []
    for uid, captor in moved:
        fate = next(x for x in out.units if x.id == uid)
        nation = "roman" if captor in ("caesarian", "senatorial") else captor
        discipline = fate.discipline if fate.discipline in cat.kind("fleet").disciplines else "R"
        prize = Unit(id=uid, kind="fleet", discipline=discipline, strength=fate.strength, nation=nation)
        mine = state.side_forces_at(place, captor)
        target = max(mine, key=lambda f: (bool(f.commander), f.strength(), f.id)) if mine else None
        if target is None:
            fid = state.new_id(f"prize_{captor}")
            state.forces[fid] = Force(id=fid, side=captor, location=place, units=(prize,))
        else:
            state.forces[target.id] = target.model_copy(update={"units": (*target.units, prize)})
        events.append(
            event(state, "prize", f"The {sides_name(captor)} man a captured squadron.", unit=uid, side=captor)
        )
    return events


def _leader_fates(state: CampaignState, out: Outcome, sides: dict[Side, str], dice: Dice) -> list[Event]:
    """Leaders killed, drowned or executed leave the game; captured ones are the enemy's (§12.5)."""
    events: list[Event] = []
    for lf in out.leaders:
        foe_side = sides["B" if lf.side == "A" else "A"]
        if lf.fate in ("killed", "drowned", "executed"):
            for fid, f in list(state.forces.items()):
                if lf.id in f.leaders:
                    state.forces[fid] = f.model_copy(update={"leaders": tuple(x for x in f.leaders if x != lf.id)})
            state.dead = (*state.dead, lf.id)
            for s, sup in list(state.supreme.items()):
                if sup == lf.id:
                    state.supreme[s] = None
            verb = {"killed": "falls in the battle", "drowned": "drowns with his ship", "executed": "is cut down"}[
                lf.fate
            ]
            events.append(event(state, "leader_killed", f"{leader_name(lf.id)} {verb}.", leader=lf.id))
        elif lf.fate == "captured":
            events.append(take_captive(state, lf.id, foe_side, dice))
    return events


def _battle_event(
    state: CampaignState,
    eng: Engagement,
    out: Outcome,
    title: str,
    relief: bool,
    losses: dict[str, int],
    fratricide: int,
    sides: dict[Side, str],
) -> Event:
    """The chronicle line of the battle, carrying the whole engagement and its outcome."""
    lost = out.strength_lost
    if out.winner is None:
        verdict = f"{title}: a bloody draw"
    else:
        loser: Side = "B" if out.winner == "A" else "A"
        verdict = f"{title}: {_commander(eng, out.winner)} defeats {_commander(eng, loser)}"
    text = f"{verdict}; {SIDE_NAMES[sides['A']]} lose {lost['A']} SP, {SIDE_NAMES[sides['B']]} {lost['B']} SP."
    spared = _spared(eng, out)
    if spared:
        text = f"{text[:-1]}; {spared}."
    return event(
        state,
        "battle",
        text,
        place=eng.where,
        engagement=eng.id,
        battle_kind=eng.kind,
        trigger=eng.trigger,
        engine=out.engine,
        relief=relief,
        winner=None if out.winner is None else sides[out.winner],
        lost={sides[k]: v for k, v in lost.items()},
        engaged={sides[k]: sum(u.strength for u in eng.units if u.side == k) for k in ("A", "B")},
        losses=losses,
        fratricide=fratricide,
        # the whole engagement and its outcome, for the after-action report
        # (bellum.report, campaign.chronicle.battle_reports)
        report={"engagement": eng.model_dump(mode="json"), "outcome": out.model_dump(mode="json")},
    )


def _spoils(state: CampaignState, out: Outcome, sides: dict[Side, str]) -> list[Event]:
    """The winner's bonus stratagems, by the SP the enemy lost (§12.4)."""
    if out.winner is None:
        return []
    t = tables().battle
    enemy_lost = out.strength_lost["B" if out.winner == "A" else "A"]
    bonus = min(t.bonus_max, enemy_lost // t.bonus_per_sp)
    if not bonus:
        return []
    won = sides[out.winner]
    state.spoils[won] = state.spoils.get(won, 0) + bonus
    return [
        event(
            state,
            "bonus",
            f"{SIDE_NAMES[won]} win {counted(bonus, 'bonus stratagem')} from the victory, "
            "to take as Military stratagems or Agents.",
            side=won,
            n=bonus,
        )
    ]


def sides_name(side: str) -> str:
    return SIDE_NAMES.get(side, side).removeprefix("the ")


def _commander(eng: Engagement, side: Side) -> str:
    leaders = [ld for ld in eng.leaders if ld.side == side]
    if not leaders:
        return SIDE_NAMES.get(eng.sides[side].faction, eng.sides[side].faction)
    best = max(leaders, key=lambda ld: (ld.supreme, ld.rating))
    return leader_name(best.id)


def _spared(eng: Engagement, out: Outcome) -> str:
    """The part of a land battle's losses that did not die (battleboard.md §10.3, §12.3):
    "of the Caesarians, 5 SP were taken prisoner and 3 SP scattered in flight"."""
    if eng.kind != "land":
        return ""
    strength = {u.id: u.strength for u in eng.units}
    clauses = []
    for k in ("A", "B"):
        taken = sum(strength[f.id] for f in out.units if f.side == k and f.fate == "captured")
        fled = sum(strength[f.id] for f in out.units if f.side == k and f.fate == "fled_lost")
        parts = ([f"{taken} SP were taken prisoner"] if taken else []) + (
            [f"{fled} SP scattered in flight"] if fled else []
        )
        if parts:
            clauses.append(f"of {SIDE_NAMES.get(eng.sides[k].faction, eng.sides[k].faction)}, " + " and ".join(parts))
    return "; ".join(clauses)


def _unit_label(state: CampaignState, uid: str) -> str:
    for f in state.forces.values():
        for u in f.units:
            if u.id == uid:
                return u.label()
    return uid


# --------------------------------------------------------------------------- retreats


def retreat_land(state: CampaignState, place: str, side: str, dice: Dice) -> list[Event]:
    """The beaten side's field forces leave ``place`` (§12.6): each goes to the first
    space next door, by preference one its side owns, a city, then by id, that holds no
    enemy troops and no neutral force.  A force with nowhere to go surrenders: its units
    are lost and its leaders taken.  A city's civis stays and is besieged."""
    cmap = roman_world()
    foe = enemy(side)
    events: list[Event] = []

    options = [
        lk.b for lk in land_links(place) if not blocked(state, side, lk.b) and not enemy_troops_at(state, side, lk.b)
    ]
    options.sort(key=lambda p: (state.owner_side(p) != side, cmap.spaces[p].kind != "city", p))
    for f in state.side_forces_at(place, side):
        if not mobile_ground(f) and (f.units or not f.leaders):
            continue
        if options:
            dest = options[0]
            state.forces[f.id] = f.model_copy(update={"location": dest})
            state.spent[f.id] = 1 << 10
            events.append(
                event(
                    state,
                    "retreat",
                    f"{force_name(f)} retreats from {cmap.name(place)} to {cmap.name(dest)}.",
                    force=f.id,
                    place=dest,
                )
            )
        else:
            lost = {u.id: u.strength for u in f.units}
            state.forces[f.id] = f.model_copy(update={"units": ()})
            events.append(
                event(
                    state,
                    "surrender",
                    f"{force_name(f)} is cut off at {cmap.name(place)} and surrenders ({loss_text(lost)}).",
                    force=f.id,
                    losses=lost,
                )
            )
            for ld in f.leaders:
                events.append(take_captive(state, ld, foe, dice))
    tidy(state)
    return events


def retreat_sea(state: CampaignState, forces: list[str], place: str, side: str) -> list[Event]:
    """Beaten ships leave ``place``: to a port of their side next to it, else to a sea zone
    free of enemy ships, else they stay (§9.5)."""
    cmap = roman_world()
    foe = enemy(side)
    events: list[Event] = []
    near = cmap.neighbours(place, ("sea_lane",))
    if cmap.is_land(place):
        near = cmap.seas_of(place)
    ports = [p for p in near if cmap.is_land(p) and state.owner_side(p) == side and not state.side_forces_at(p, foe)]
    zones = [z for z in near if cmap.is_sea(z) and not any(f.fleets() for f in state.side_forces_at(z, foe))]
    dest = (ports + zones + [None])[0]
    for fid in forces:
        f = state.forces.get(fid)
        if f is None or not f.units or dest is None:
            continue
        if any(u.aboard is None and not catalogue().kind(u.kind).is_fleet for u in f.units):
            continue  # troops ashore do not put to sea
        state.forces[fid] = f.model_copy(update={"location": dest})
        state.spent[fid] = 1 << 10
        events.append(
            event(
                state,
                "retreat",
                f"{force_name(f)} falls back from {place_name(place)} to {place_name(dest)}.",
                force=fid,
                place=dest,
            )
        )
    return events
