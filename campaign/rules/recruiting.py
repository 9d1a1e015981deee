"""Recruiting: legions and other counters, a city's civis, leaders and legates, colonies
and training (docs/rules/campaign.md §17; reference: Stratagems, Sides and units).

Everything here is done in the active side's recruiting phase by a Roman leader
standing in a city his side holds with no enemy troops in it, and costs one stratagem
and one of that leader's plays (§15.3).  When several leaders there could play it, the
one with the most plays left does (then the higher-rated, then by id): a player never
needs to name him.

- ``Recruit(city, kind)`` (Political): one counter of a kind Rome recruits (legion,
  auxiliaries, cavalry, engineers, fleet) from the side's builds pool, at full strength
  and at the kind's recruit discipline (R) — in a colony a legion is raised at the
  colony discipline (V), one a colony a half-turn.  Legions are levied only in Rome, a
  provincial capital or a colony (anywhere while the side holds the Dictator); fleets
  only in a port.  ``Recruit(city, "civis")`` raises a civis where the city has none,
  or brings a weakened one back to full strength.
- ``RecruitLeader(leader, city)`` (Political): a leader from the side's pool arrives in
  the city as a force of his own.
- ``FoundColony(city)`` (Political): a colony site becomes a colony; a veteran legion
  (V or I, at least 3 SP) is settled there and leaves play.
- ``Train(unit)`` (Military): an R unit becomes V (not one raised this half-turn).
- ``FormGuard(unit)`` (Political, played by the Supreme Leader): a full imperator legion
  with him becomes his Guard.
"""

from __future__ import annotations

import math

from bellum.errors import RuleError
from bellum.events import Event
from campaign import actions as A
from campaign.map import roman_world
from campaign.rules.common import event, leader_name, place_name, possessive, tidy
from campaign.rules.stratagems import play, plays_left
from campaign.state import SIDE_NAMES, CampaignState, enemy
from campaign.tables import tables
from campaign.units import Force, Unit, catalogue

#: what ``Recruit`` may raise besides the Roman kinds with a recruit discipline
CIVIS = "civis"
_NUMERALS = ((100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))
_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def roman_numeral(n: int) -> str:
    out = ""
    for value, letters in _NUMERALS:
        while n >= value:
            out += letters
            n -= value
    return out


def _numeral_value(text: str) -> int:
    """The value of a Roman numeral, 0 if ``text`` is not one."""
    if not text or any(c not in _VALUES for c in text):
        return 0
    total = 0
    for a, b in zip(text, (*text[1:], ""), strict=True):
        v = _VALUES[a]
        total += -v if b and _VALUES[b] > v else v
    return total if roman_numeral(total) == text else 0


def unit_name(state: CampaignState, side: str, kind: str, city: str) -> str:
    """The name a newly raised counter bears (§17.1).  A legion takes the next numeral
    after the highest its side's legions bear, skipping any numeral a legion on the map
    already has — each army numbered its new legions on from its own, as Caesar's levies
    of 49–48 BC ran past his Gallic XIV; anything else is named for its kind and the city
    that raised it ("Cavalry of Capua")."""
    if kind != "legion":
        return f"{catalogue().kind(kind).name} of {place_name(city)}"
    used: set[int] = set()
    mine = 0
    for f in state.forces.values():
        for u in f.units:
            parts = u.name.split()
            n = _numeral_value(parts[1]) if len(parts) >= 2 and parts[0] == "Legio" else 0
            if n:
                used.add(n)
                if state.allegiance(f.side) == side:
                    mine = max(mine, n)
    n = mine + 1
    while n in used:
        n += 1
    return f"Legio {roman_numeral(n)}"


def recruit_kinds() -> list[str]:
    cat = catalogue()
    return sorted(k for k, spec in cat.kinds.items() if spec.recruit is not None and "roman" in spec.nations)


def safe_city(state: CampaignState, side: str, city: str) -> bool:
    """A city ``side`` holds with no enemy units in it (§17)."""
    cmap = roman_world()
    if not cmap.is_land(city) or cmap.spaces[city].kind != "city" or state.owner_side(city) != side:
        return False
    return not any(f.units for f in state.side_forces_at(city, enemy(side)))


def player_at(state: CampaignState, side: str, city: str) -> str | None:
    """The Roman leader of ``side`` in ``city`` who plays (most plays left, then rating, id)."""
    cat = catalogue()
    here = [
        ld
        for f in state.side_forces_at(city, side)
        for ld in f.leaders
        if cat.leader(ld).nation == "roman" and plays_left(state, ld) > 0
    ]
    if not here:
        return None
    return sorted(here, key=lambda ld: (-plays_left(state, ld), -cat.leader(ld).rating, ld))[0]


def cities_with_players(state: CampaignState, side: str) -> list[str]:
    places = sorted({f.location for f in state.forces_of(side) if f.leaders})
    return [c for c in places if safe_city(state, side, c) and player_at(state, side, c) is not None]


def in_play(state: CampaignState, side: str, kind: str) -> int:
    return sum(
        1 for f in state.forces.values() if f.side == side for u in f.units if u.kind == kind and u.nation == "roman"
    )


def builds_left(state: CampaignState, side: str, kind: str) -> int | None:
    """Counters of ``kind`` left in ``side``'s builds pool (None: not limited; §5.4)."""
    limit = state.counter_mix.get(side, {}).get(kind)
    return None if limit is None else max(0, limit - in_play(state, side, kind))


def civis_of(state: CampaignState, city: str) -> tuple[Force, Unit] | None:
    for f in state.forces_at(city):
        for u in f.units:
            if u.kind == CIVIS:
                return f, u
    return None


def _player_force(state: CampaignState, side: str, city: str, leader: str) -> Force:
    f = state.leader_force(leader)
    assert f is not None and f.location == city and state.allegiance(f.side) == side
    return f


def volunteers_port(state: CampaignState, side: str) -> str | None:
    """Where volunteers gather for ``side`` (§16.2): the port of Italia it holds with no
    enemy troops in it nearest to Rome (by the map's coordinates; then by id)."""
    cmap = roman_world()
    rome = cmap.spaces["roma"]
    ports = [
        s
        for s in cmap.data.space
        if s.province == "italia" and s.port and s.kind == "city" and safe_city(state, side, s.id)
    ]
    best = min(ports, key=lambda s: (math.dist((s.lon, s.lat), (rome.lon, rome.lat)), s.id), default=None)
    return None if best is None else best.id


def raise_volunteers(state: CampaignState, side: str, n: int) -> list[Event]:
    """``n`` recruit legions from ``side``'s builds pool gather as a force of their own at
    its ``volunteers_port`` (the Populares' volunteers, §16.2; 004's campaign report: four recruit
    legions of volunteers at Brundisium) — none without a port or
    counters."""
    port = volunteers_port(state, side)
    left = builds_left(state, side, "legion")
    n = n if left is None else min(n, left)
    if port is None or n < 1:
        why = "they have no port of Italia to gather in" if port is None else "no legion counter is left for them"
        text = f"Volunteers come forward for {SIDE_NAMES[side]}, but {why}."
        return [event(state, "volunteers", text, side=side)]
    spec = catalogue().kind("legion")
    assert spec.recruit is not None
    fid = f"volunteers_{state.next_id}"
    force = Force(id=fid, side=side, location=port, units=(), name="Volunteers")
    for _ in range(n):
        uid = f"raised_legion_{state.next_id}"
        state.next_id += 1
        # each legion takes the numeral after the last (unit_name reads the forces on the map)
        name = unit_name(state, side, "legion", port)
        unit = Unit(id=uid, kind="legion", discipline=spec.recruit, strength=spec.strength, nation="roman", name=name)
        force = force.model_copy(update={"units": (*force.units, unit)})
        state.forces[fid] = force
    units = force.units
    names = ", ".join(u.name for u in units)
    return [
        event(
            state,
            "volunteers",
            f"Volunteers gather at {place_name(port)} for {SIDE_NAMES[side]}: {names} (legion, R).",
            side=side,
            place=port,
            n=n,
            gains={u.id: u.strength for u in units},
        )
    ]


def why_not_recruit(state: CampaignState, side: str, city: str, kind: str) -> str | None:
    """Why ``side`` cannot raise ``kind`` in ``city`` now, or None when it can (§17.1)."""
    cmap = roman_world()
    if state.stratagems[side]["political"] < 1:
        return "You hold no Political stratagem."
    if not safe_city(state, side, city):
        return f"You can recruit only in a city you hold with no enemy troops in it, not {place_name(city)}."
    if player_at(state, side, city) is None:
        return f"No leader of yours in {place_name(city)} has a stratagem left to play."
    if kind == CIVIS:
        have = civis_of(state, city)
        if have is not None and (
            state.allegiance(have[0].side) != side or have[1].strength >= catalogue().kind(CIVIS).strength
        ):
            return f"{place_name(city)} already has its civis at full strength."
        return None
    if kind not in recruit_kinds():
        return f"Rome does not recruit {kind} with a stratagem."
    left = builds_left(state, side, kind)
    if left is not None and left < 1:
        return f"Every {kind} counter of your counter mix is in play."
    space = cmap.spaces[city]
    if kind == "legion":
        colony = city in state.colonies
        if colony and f"colony:{city}" in state.raised:
            return f"The colony of {place_name(city)} has raised its legion this turn."
        if not (city == "roma" or space.capital or colony or state.republic.get("dictator") == side):
            return "Legions are levied only in Rome, a provincial capital or a colony (anywhere by a Dictator)."
    if catalogue().kind(kind).is_fleet and not space.port:
        return f"{place_name(city)} is no port."
    return None


def recruit(state: CampaignState, city: str, kind: str) -> list[Event]:
    side = state.active
    if state.phase != "recruiting":
        raise RuleError("Recruiting is done in the recruiting phase.")
    why = why_not_recruit(state, side, city, kind)
    if why:
        raise RuleError(why)
    cat = catalogue()
    leader = player_at(state, side, city)
    assert leader is not None
    play(state, side, "political", leader)
    if kind == CIVIS:
        return _raise_civis(state, side, city, leader)
    spec = cat.kind(kind)
    colony = kind == "legion" and city in state.colonies
    discipline = spec.colony if colony and spec.colony else spec.recruit
    assert discipline is not None
    uid = f"raised_{kind}_{state.next_id}"
    state.next_id += 1
    name = unit_name(state, side, kind, city)
    unit = Unit(id=uid, kind=kind, discipline=discipline, strength=spec.strength, nation="roman", name=name)
    f = _player_force(state, side, city, leader)
    state.forces[f.id] = f.model_copy(update={"units": (*f.units, unit)})
    state.raised = (*state.raised, uid, *((f"colony:{city}",) if colony else ()))
    where = f"the colony of {place_name(city)}" if colony else place_name(city)
    return [
        event(
            state,
            "recruit",
            f"{leader_name(leader)} raises {name} ({spec.name.lower()}, {discipline}, {spec.strength} SP) in {where}.",
            side=side,
            place=city,
            unit=uid,
            unit_kind=kind,
            gains={uid: spec.strength},
        )
    ]


def _raise_civis(state: CampaignState, side: str, city: str, leader: str) -> list[Event]:
    full = catalogue().kind(CIVIS).strength
    have = civis_of(state, city)
    if have is not None:
        f, u = have
        gain = full - u.strength
        units = tuple(x.model_copy(update={"strength": full}) if x.id == u.id else x for x in f.units)
        state.forces[f.id] = f.model_copy(update={"units": units})
        return [
            event(
                state,
                "recruit",
                f"{leader_name(leader)} brings the civis of {place_name(city)} back to strength.",
                side=side,
                place=city,
                unit=u.id,
                unit_kind=CIVIS,
                gains={u.id: gain},
            )
        ]
    sp = tables().recruiting.civis_strength
    uid = f"raised_civis_{state.next_id}"
    fid = f"{city}_civis_{state.next_id}"
    state.next_id += 1
    state.forces[fid] = Force(
        id=fid,
        side=side,
        location=city,
        units=(
            Unit(
                id=uid,
                kind=CIVIS,
                discipline=catalogue().kind(CIVIS).discipline,
                strength=sp,
                nation="roman",
                name=f"Civis of {place_name(city)}",
            ),
        ),
    )
    state.raised = (*state.raised, uid)
    return [
        event(
            state,
            "recruit",
            f"{leader_name(leader)} arms the citizens of {place_name(city)} ({sp} SP).",
            side=side,
            place=city,
            unit=uid,
            unit_kind=CIVIS,
            gains={uid: sp},
        )
    ]


# --------------------------------------------------------------------------- leaders


def recruitable_leaders(state: CampaignState, side: str) -> list[str]:
    """Leaders in ``side``'s pool who may come into play this year (§17.2)."""
    cat = catalogue()
    year = state.year_bc()
    out = []
    for ld in state.pool.get(side, ()):
        card = cat.leader(ld)
        if ld in state.dead or ld in state.captives or state.leader_force(ld) is not None:
            continue
        if card.available_from is not None and year > card.available_from:
            continue
        out.append(ld)
    return out


def recruit_leader(state: CampaignState, leader: str, city: str) -> list[Event]:
    side = state.active
    if state.phase != "recruiting":
        raise RuleError("Leaders are recruited in the recruiting phase.")
    if leader not in recruitable_leaders(state, side):
        raise RuleError(f"{leader_name(leader)} is not in your pool of leaders, or not yet of age.")
    if state.stratagems[side]["political"] < 1:
        raise RuleError("You hold no Political stratagem.")
    if city not in cities_with_players(state, side):
        raise RuleError(f"No leader of yours in {place_name(city)} can play a stratagem to call him there.")
    player = player_at(state, side, city)
    assert player is not None
    play(state, side, "political", player)
    state.pool[side] = tuple(x for x in state.pool[side] if x != leader)
    fid = state.new_id(leader)
    state.forces[fid] = Force(id=fid, side=side, location=city, commander=leader, leaders=(leader,))
    return [
        event(
            state,
            "recruit_leader",
            f"{leader_name(leader)} joins {SIDE_NAMES[side]} at {place_name(city)}.",
            side=side,
            leader=leader,
            place=city,
        )
    ]


# --------------------------------------------------------------------------- colonies


def settlers(state: CampaignState, side: str, city: str) -> Unit | None:
    """The veteran legion a colony at ``city`` would settle: V before I, the weakest
    first (at least the table's SP), then by id (§17.3)."""
    need = tables().recruiting.colony_legion_sp
    cands = [
        u
        for f in state.side_forces_at(city, side)
        for u in f.units
        if u.kind == "legion" and u.discipline in ("V", "I") and u.strength >= need and u.nation == "roman"
    ]
    if not cands:
        return None
    return sorted(cands, key=lambda u: (u.discipline == "I", u.strength, u.id))[0]


def why_not_colony(state: CampaignState, side: str, city: str) -> str | None:
    cmap = roman_world()
    if state.stratagems[side]["political"] < 1:
        return "You hold no Political stratagem."
    if not cmap.is_land(city) or not cmap.spaces[city].colony_site:
        return f"{place_name(city)} is no site for a colony."
    if city in state.colonies:
        return f"{place_name(city)} is a colony already."
    if not safe_city(state, side, city):
        return f"A colony is founded only in a city you hold with no enemy troops in it, not {place_name(city)}."
    if player_at(state, side, city) is None:
        return f"No leader of yours in {place_name(city)} has a stratagem left to play."
    if settlers(state, side, city) is None:
        return "A colony needs a veteran legion (V or I) there to settle."
    return None


def found_colony(state: CampaignState, city: str) -> list[Event]:
    side = state.active
    if state.phase != "recruiting":
        raise RuleError("Colonies are founded in the recruiting phase.")
    why = why_not_colony(state, side, city)
    if why:
        raise RuleError(why)
    leader = player_at(state, side, city)
    unit = settlers(state, side, city)
    assert leader is not None and unit is not None
    play(state, side, "political", leader)
    for fid, f in list(state.forces.items()):
        if any(u.id == unit.id for u in f.units):
            units = tuple(u for u in f.units if u.id != unit.id)
            state.forces[fid] = f.model_copy(update={"units": units})
    state.colonies = (*state.colonies, city)
    tidy(state)
    return [
        event(
            state,
            "colony",
            f"{leader_name(leader)} founds a colony at {place_name(city)}, settling the veterans of {unit.label()}.",
            side=side,
            place=city,
            losses={unit.id: unit.strength},
        )
    ]


# --------------------------------------------------------------------------- training


def trainable(state: CampaignState, side: str) -> list[str]:
    """Units ``side`` may train now (§17.4)."""
    if state.stratagems[side]["military"] < 1:
        return []
    cat = catalogue()
    out = []
    for city in cities_with_players(state, side):
        for f in state.side_forces_at(city, side):
            for u in f.units:
                spec = cat.kind(u.kind)
                if (
                    u.discipline == "R"
                    and "V" in spec.disciplines
                    and spec.mobile
                    and not u.disrupted
                    and u.id not in state.raised
                ):
                    out.append(u.id)
    return sorted(out)


def train(state: CampaignState, unit_id: str) -> list[Event]:
    side = state.active
    if state.phase != "recruiting":
        raise RuleError("Troops are trained in the recruiting phase.")
    if unit_id not in trainable(state, side):
        raise RuleError("That unit cannot be trained now: an R unit not raised this turn, led, in a safe city.")
    f = next(f for f in state.forces.values() if any(u.id == unit_id for u in f.units))
    leader = player_at(state, side, f.location)
    assert leader is not None
    play(state, side, "military", leader)
    units = tuple(u.model_copy(update={"discipline": "V"}) if u.id == unit_id else u for u in f.units)
    state.forces[f.id] = f.model_copy(update={"units": units})
    state.raised = (*state.raised, unit_id)
    return [
        event(
            state,
            "train",
            f"{leader_name(leader)} drills {f.unit(unit_id).label()} into a veteran unit.",
            side=side,
            unit=unit_id,
        )
    ]


# --------------------------------------------------------------------------- the Guard


def guard_candidates(state: CampaignState, side: str) -> list[str]:
    """Imperator legions at full strength with ``side``'s Supreme Leader, while a Guard
    counter is left in the builds pool and he has a play (§17.5)."""
    sup = state.supreme.get(side)
    if not sup or state.stratagems[side]["political"] < 1 or plays_left(state, sup) < 1:
        return []
    left = builds_left(state, side, "guard")
    if left is not None and left < 1:
        return []
    f = state.leader_force(sup)
    if f is None or state.allegiance(f.side) != side:
        return []
    full = catalogue().kind("legion").strength
    return sorted(
        u.id
        for u in f.units
        if u.kind == "legion" and u.discipline == "I" and u.strength == full and u.nation == "roman"
    )


def form_guard(state: CampaignState, unit_id: str) -> list[Event]:
    """The Supreme Leader makes an imperator legion his Guard (reference: Guards are made
    from an imperator legion; a Guard protects against assassination, §2.6, §18.4)."""
    side = state.active
    if state.phase != "recruiting":
        raise RuleError("A Guard is formed in the recruiting phase.")
    if unit_id not in guard_candidates(state, side):
        raise RuleError("Only a full imperator legion with your Supreme Leader can become his Guard.")
    sup = state.supreme[side]
    assert sup is not None
    play(state, side, "political", sup)
    f = state.leader_force(sup)
    assert f is not None
    units = tuple(u.model_copy(update={"kind": "guard"}) if u.id == unit_id else u for u in f.units)
    state.forces[f.id] = f.model_copy(update={"units": units})
    return [
        event(
            state,
            "guard",
            f"{f.unit(unit_id).label()} becomes {possessive(leader_name(sup))} Guard.",
            side=side,
            unit=unit_id,
        )
    ]


# --------------------------------------------------------------------------- the generator


def legal(state: CampaignState) -> list[A.Action]:
    side = state.active
    out: list[A.Action] = []
    cities = cities_with_players(state, side)
    if state.stratagems[side]["political"] >= 1:
        for city in cities:
            for kind in [*recruit_kinds(), CIVIS]:
                if why_not_recruit(state, side, city, kind) is None:
                    out.append(A.Recruit(city, kind))
            if why_not_colony(state, side, city) is None:
                out.append(A.FoundColony(city))
        for ld in recruitable_leaders(state, side):
            for city in cities:
                out.append(A.RecruitLeader(ld, city))
    out += [A.Train(u) for u in trainable(state, side)]
    out += [A.FormGuard(u) for u in guard_candidates(state, side)]
    return out
