"""Occupation, sieges and storms (docs/rules/campaign.md §11).

A force that ends its move in an enemy space with no enemy troops takes it (§11.1).  A
force in an enemy city that still holds enemy troops (its civis) besieges it: no field
battle is fought against the walls, the garrison loses strength to siege attrition in
its supply phase when it has no supply (reference: "besieged garrisons without supply
suffer attrition"; 004: the garrison "whittled down"), and the besieger may storm it in
its combat phase if it has engineers (reference: "engineers (needed to storm cities)";
004: Afranius takes the colony by storm, Cornificius Syracusa and Rhodus).  A city whose
garrison is gone changes owner, and leaders inside are taken (§12.5).
"""

from __future__ import annotations

from bellum.dice import Dice
from bellum.errors import RuleError
from bellum.events import Event
from campaign.map import roman_world
from campaign.rules.common import event, force_name, inflict, leader_name, loss_text, place_name, possessive, tidy
from campaign.state import SIDE_NAMES, CampaignState, enemy
from campaign.tables import tables
from campaign.units import Force, catalogue


def ground(force: Force) -> list[str]:
    cat = catalogue()
    return [u.id for u in force.units if not cat.kind(u.kind).is_fleet]


def mobile_ground(force: Force) -> list[str]:
    cat = catalogue()
    return [u.id for u in force.units if not cat.kind(u.kind).is_fleet and cat.kind(u.kind).mobile]


def ground_sp(state: CampaignState, side: str, place: str) -> int:
    cat = catalogue()
    return sum(u.strength for f in state.side_forces_at(place, side) for u in f.units if not cat.kind(u.kind).is_fleet)


def under_siege(state: CampaignState, city: str) -> str | None:
    """The side besieging ``city``, if any: the city's owner has troops in it, the enemy
    has troops there too, and the owner has no field army there to fight a battle (§11.2)."""
    owner = state.owner_side(city)
    if owner is None or roman_world().spaces[city].kind != "city":
        return None
    foe = enemy(owner)
    if not any(ground(f) for f in state.side_forces_at(city, owner)):
        return None
    if not any(ground(f) for f in state.side_forces_at(city, foe)):
        return None
    return foe


def _contested(state: CampaignState) -> set[str]:
    """Land spaces where ground troops of both sides stand."""
    cmap = roman_world()
    sides_at: dict[str, set[str]] = {}
    for f in state.forces.values():
        side = state.allegiance(f.side)
        if side is not None and ground(f):
            sides_at.setdefault(f.location, set()).add(side)
    return {p for p, sides in sides_at.items() if len(sides) == 2 and cmap.is_land(p)}


def update_sieges(state: CampaignState) -> list[Event]:
    """Keep ``state.sieges`` true after an action (campaign.md §11.2): a siege begins when
    a city's garrison is shut in by enemy troops and has no field army of its own there
    (only a battle could decide that); it goes on while troops of both sides stand in the
    city — a relieving army's battle does not end it unless the besiegers are driven off —
    and ends when the city falls or the besiegers leave (the siege is lifted)."""
    cmap = roman_world()
    contested = _contested(state)
    events: list[Event] = []
    for city in sorted(contested - set(state.sieges)):
        owner = state.owner_side(city)
        if owner is None or cmap.spaces[city].kind != "city":
            continue
        if any(mobile_ground(f) for f in state.side_forces_at(city, owner)):
            continue  # a field army is there: a battle, not a siege
        besieger = enemy(owner)
        state.sieges[city] = (besieger, state.turn)
        names = sorted(
            force_name(f) for f in state.side_forces_at(city, besieger) if ground(f) and f.commander is not None
        )
        text = (
            f"{names[0]} lays siege to {place_name(city)}."
            if names
            else (f"{SIDE_NAMES[besieger]} lay siege to {place_name(city)}.")
        )
        events.append(event(state, "siege_begun", text, place=city, side=besieger))
    for city in sorted(set(state.sieges) - contested):
        besieger, began = state.sieges.pop(city)
        state.starving = tuple(p for p in state.starving if p != city)  # it starved *this* siege
        if state.owner_side(city) != besieger:
            text = f"The siege of {place_name(city)} is lifted."
            events.append(event(state, "siege_lifted", text, place=city, began=began, side=besieger))
    return events


def stray_ships(state: CampaignState) -> list[Event]:
    """Ships with no troops of their own side cannot lie in a port where troops of another
    side stand in a city that side holds (a port that changed hands by a bribe, a revolt or
    a tribute while they lay in it): they put to sea in the first zone it opens onto
    (campaign.md §11.1)."""
    cmap = roman_world()
    events: list[Event] = []
    for f in sorted(state.forces.values(), key=lambda g: g.id):
        side = state.allegiance(f.side)
        place = f.location
        if side is None or not f.fleets() or ground(f) or not cmap.is_land(place) or not cmap.spaces[place].port:
            continue
        owner = state.owner_side(place)
        if owner in (None, side) or any(ground(g) for g in state.side_forces_at(place, side)):
            continue
        if any(ground(g) for g in state.side_forces_at(place, owner)):
            events += flee_to_sea(state, place, side)
    return events


def take_captive(state: CampaignState, leader: str, captor: str, dice: Dice) -> Event:
    """A leader taken by the enemy: the captor executes him on a low roll, else holds him
    (§12.5; 004: Antonius "captured and executed"; Caesar's clemency gives a low threshold)."""
    t = tables().battle.execution
    threshold = getattr(t, captor, t.other) if captor in ("caesarian", "senatorial") else t.other
    for fid, f in list(state.forces.items()):
        if leader in f.leaders:
            state.forces[fid] = f.model_copy(update={"leaders": tuple(x for x in f.leaders if x != leader)})
    roll = dice.d10(f"execution {leader}")
    side = next((s for s, sup in state.supreme.items() if sup == leader), None)
    if side is not None:
        state.supreme[side] = None
    name = leader_name(leader)
    if roll < threshold:
        state.dead = (*state.dead, leader)
        return event(
            state, "executed", f"{name} is captured and executed by {SIDE_NAMES.get(captor, captor)}.", leader=leader
        )
    state.captives[leader] = captor
    return event(state, "captured", f"{name} is captured by {SIDE_NAMES.get(captor, captor)} and held.", leader=leader)


def flee_to_sea(state: CampaignState, place: str, side: str) -> list[Event]:
    """Fleets of ``side`` in a port that falls put to sea in the first zone it touches."""
    cmap = roman_world()
    events: list[Event] = []
    seas = cmap.seas_of(place) if cmap.spaces[place].port else []
    for f in state.side_forces_at(place, side):
        if f.units and not ground(f) and seas:
            state.forces[f.id] = f.model_copy(update={"location": seas[0]})
            name = force_name(f)
            ships = name if name.endswith("ships") else f"{possessive(name)} ships"
            events.append(
                event(
                    state,
                    "flee",
                    f"{ships} put to sea from {cmap.name(place)}.",
                    force=f.id,
                    place=seas[0],
                )
            )
    return events


def occupy(state: CampaignState, place: str, side: str, dice: Dice | None = None) -> list[Event]:
    """A force of ``side`` has come to ``place``: if no enemy troops are there, enemy
    leaders alone are taken, enemy ships put to sea, and an enemy space changes hands (§11.1)."""
    cmap = roman_world()
    foe = enemy(side)
    events: list[Event] = []
    if any(ground(f) for f in state.side_forces_at(place, foe)):
        return events
    if cmap.is_land(place):
        events.extend(flee_to_sea(state, place, foe))
    if dice is not None:
        for f in state.side_forces_at(place, foe):
            if not f.units:
                for ld in f.leaders:
                    events.append(take_captive(state, ld, side, dice))
    tidy(state)
    if cmap.is_land(place) and state.owner_side(place) == foe:
        events.append(capture(state, place, side, "occupy"))
    return events


def capture(state: CampaignState, place: str, side: str, how: str) -> Event:
    cmap = roman_world()
    before = state.owners[place]
    state.owners[place] = side
    state.starving = tuple(p for p in state.starving if p != place)
    who, name = SIDE_NAMES[side], cmap.name(place)
    text = {
        "occupy": f"{who} occupy {name}.",  # event() opens the sentence with a capital
        "storm": f"{name} falls to {who}.",
        "siege": f"{name}, starved out, surrenders to {who}.",
    }[how]
    kind = "city" if cmap.spaces[place].kind == "city" else "region"
    return event(
        state,
        "capture",
        text,
        place=place,
        side=side,
        before=before,
        how=how,
        space_kind=kind,
    )


def storm_targets(state: CampaignState) -> list[tuple[str, str]]:
    """(city, force) pairs the active side may storm now: a led force with engineers in a
    besieged enemy city (§11.3)."""
    side = state.active
    out: list[tuple[str, str]] = []
    if state.phase != "combat" or state.pending is not None:
        return out
    for f in state.forces_of(side):
        if f.commander is None or not f.can_storm() or f.location in state.fought:
            continue
        if under_siege(state, f.location) == side:
            foe = enemy(side)
            if any(mobile_ground(g) for g in state.side_forces_at(f.location, foe)):
                continue  # a field army is there: it must be beaten first
            out.append((f.location, f.id))
    return out


def storm_modifier(state: CampaignState, city: str, force: Force, stratagem: bool) -> int:
    t = tables().storm
    cat = catalogue()
    side = state.active
    engineers = sum(1 for u in force.units if cat.kind(u.kind).storms)
    mod = min(engineers, t.max_engineers) * t.engineers
    if stratagem:
        mod += t.stratagem
    mine = sum(u.strength for u in force.units if not cat.kind(u.kind).is_fleet)
    theirs = ground_sp(state, enemy(side), city)
    if mine >= 4 * theirs:
        mod += t.odds_4
    elif mine >= 2 * theirs:
        mod += t.odds_2
    best = {u.discipline for g in state.side_forces_at(city, enemy(side)) for u in g.units}
    if best & {"I", "V"}:
        mod += t.veteran_garrison
    if city in state.starving:
        mod += t.starving
    return mod


def storm(state: CampaignState, city: str, force_id: str, stratagem: bool, dice: Dice) -> list[Event]:
    """A storm (§11.3): d10 + modifiers against the table's need."""
    if (city, force_id) not in storm_targets(state):
        raise RuleError("That force cannot storm that city now (it needs a leader, engineers and a siege).")
    side = state.active
    if stratagem:
        if state.stratagems[side]["military"] < 1:
            raise RuleError("You hold no Military stratagem to spend on the storm.")
        state.stratagems[side]["military"] -= 1
        state.expended[side]["military"] += 1
    t = tables().storm
    force = state.forces[force_id]
    name = force_name(force)
    roll = dice.d10(f"storm {city}") + storm_modifier(state, city, force, stratagem)
    state.fought = (*state.fought, city)
    events: list[Event] = []
    if roll >= t.need:
        foe = enemy(side)
        losses: dict[str, int] = {}
        taken: list[str] = []
        for g in state.side_forces_at(city, foe):
            if not ground(g):
                continue
            for u in g.units:
                losses[u.id] = u.strength
            taken.extend(g.leaders)
            state.forces[g.id] = g.model_copy(update={"units": ()})
        own = inflict(state, force_id, t.taken)
        events.append(
            event(
                state,
                "storm",
                f"{name} storms {place_name(city)}: the walls are carried and the garrison ({loss_text(losses)}) is "
                f"put to the sword, for {loss_text(own)} lost.",
                place=city,
                force=force_id,
                success=True,
                losses={**losses, **own},
            )
        )
        for ld in taken:
            events.append(take_captive(state, ld, side, dice))
        tidy(state)
        events.extend(flee_to_sea(state, city, foe))
        events.append(capture(state, city, side, "storm"))
    else:
        lost = t.repulse[max(0, min(9, roll))]
        own = inflict(state, force_id, lost)
        events.append(
            event(
                state,
                "storm",
                f"{name} storms {place_name(city)} and is thrown back from the walls with {loss_text(own)} lost.",
                place=city,
                force=force_id,
                success=False,
                losses=own,
            )
        )
    tidy(state)
    return events


def storm_chance(state: CampaignState, city: str, force_id: str, stratagem: bool) -> float:
    """The exact chance a storm succeeds (the table read over all ten faces)."""
    mod = storm_modifier(state, city, state.forces[force_id], stratagem)
    return sum(1 for r in range(10) if r + mod >= tables().storm.need) / 10


def siege_attrition(state: CampaignState, city: str, side: str, dice: Dice) -> list[Event]:
    """The besieged garrison of ``side`` in ``city`` has no supply: it loses SP by the
    siege table (§11.2); a garrison reduced to nothing surrenders the city."""
    roll = dice.d10(f"siege {city}")
    sp = tables().siege.attrition[roll]
    events: list[Event] = []
    if sp <= 0:
        return [
            event(state, "siege", f"The garrison of {place_name(city)} holds out under siege.", place=city, losses={})
        ]
    losses: dict[str, int] = {}
    for _ in range(sp):
        forces = [f for f in state.side_forces_at(city, side) if ground(f)]
        if not forces:
            break
        target = max(forces, key=lambda f: (f.strength(), f.id))
        for k, v in inflict(state, target.id, 1).items():
            losses[k] = losses.get(k, 0) + v
    if city not in state.starving:
        state.starving = (*state.starving, city)
    events.append(
        event(
            state,
            "siege",
            f"The besieged garrison of {place_name(city)} loses {loss_text(losses)} to hunger and sickness.",
            place=city,
            losses=losses,
        )
    )
    foe = enemy(side)
    if not any(ground(f) for f in state.side_forces_at(city, side)):
        for f in state.side_forces_at(city, side):
            for ld in f.leaders:
                events.append(take_captive(state, ld, foe, dice))
        tidy(state)
        events.extend(flee_to_sea(state, city, side))
        events.append(capture(state, city, foe, "siege"))
    tidy(state)
    return events
