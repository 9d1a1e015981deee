"""The events phase: the Historical Events table (docs/rules/campaign.md §20).

Every turn opens with one roll of 2d6 on the table in ``campaign/data/world.toml``
(reference: "one roll on a Historical Events table" each turn).  Before the roll, towns
that stand alone with a side's army submit to it (§20.3); after it, stirring hordes
move (§19.4).  Nothing here asks a player anything, so the phase stays one ``Pass``.

The results (design; the sources name revolts, activations of client states, barbarian
hordes, and random events snatching Italian cities away — 004):
- ``quiet`` — nothing happens;
- ``horde`` — a horde placed beyond the frontier stirs (§19.4);
- ``client`` — a client state picked by die is activated (§19.2);
- ``revolt`` — a province picked by die rises against the side holding most of its
  cities: that side's cities there without field troops fall away (go neutral, their
  civis scattered), at most ``revolt_max`` of them (004: the Hispanic revolt);
- ``justice`` — the provincials of a province picked by die accuse their governor: the
  side holding its capital gives up a Political stratagem to settle it, else the
  capital falls away unless field troops hold it (after Q. Cassius in Hispania, BAlex
  48–64);
- ``reforms`` — the citizens of Rome demand reforms: the side holding Rome loses a Res
  Publica marker unless it holds the Tribune, and the other side gains a Political
  stratagem (after the agitations of Caelius in 48 and Dolabella in 47: Dio 42.22–33);
- ``wavering`` — 1 to ``wavering_max`` towns of Italy held by the holder of Rome, none
  with field troops, go over to the other side (004: Italian cities snatched away).
"""

from __future__ import annotations

from bellum.dice import Dice
from bellum.events import Event
from campaign.map import roman_world
from campaign.rules.clients import activate, move_hordes, rouse, world_tables
from campaign.rules.common import event, place_name, set_strengths, tidy
from campaign.rules.siege import mobile_ground
from campaign.scenario import BARBARIAN
from campaign.state import SIDE_NAMES, SIDES, CampaignState, enemy
from campaign.units import catalogue


def events_phase(state: CampaignState, dice: Dice) -> list[Event]:
    """The whole events phase on ``state`` (a copy the caller owns): submission, the
    roll and its result, the hordes' march."""
    out = submission(state)
    a, b = dice.d6("events 1"), dice.d6("events 2")
    entry = world_tables().events.result(a + b)
    out.append(
        event(state, "historical_event", f"Historical event ({a + b}): {entry.title}.", roll=a + b, result=entry.kind)
    )
    out += resolve_event(state, entry.kind, entry.target, entry.options, dice)
    out += move_hordes(state, dice)
    return out


def resolve_event(state: CampaignState, kind: str, target: str, options: tuple[str, ...], dice: Dice) -> list[Event]:
    """Apply one result of the table (§20.2)."""
    if kind == "quiet":
        return []
    if kind == "horde":
        return rouse(state, target)
    if kind == "reforms":
        return reforms(state)
    pick = options[dice.roll(len(options), f"{kind} pick") - 1] if len(options) > 1 else options[0]
    if kind == "client":
        return activate(state, pick, dice)
    if kind == "revolt":
        return revolt(state, pick)
    if kind == "justice":
        return justice(state, pick)
    if kind == "wavering":
        return wavering(state, pick, dice)
    raise ValueError(f"unknown event kind {kind!r}")


# --------------------------------------------------------------------------- the results


def _held_by_field_troops(state: CampaignState, place: str, side: str) -> bool:
    return any(mobile_ground(f) for f in state.side_forces_at(place, side))


def fall_away(state: CampaignState, place: str, why: str) -> Event:
    """A side's city goes neutral: its civis scatters (its SP recorded as lost), §20.2."""
    cat = catalogue()
    before = state.owners[place]
    side = state.owner_side(place)
    losses: dict[str, int] = {}
    for f in list(state.forces_at(place)):
        if state.allegiance(f.side) != side:
            continue
        fixed = {u.id: u.strength for u in f.units if not cat.kind(u.kind).mobile}
        if fixed:
            losses.update(fixed)
            set_strengths(state, f.id, {u.id: 0 if u.id in fixed else u.strength for u in f.units})
    tidy(state)
    state.owners[place] = "neutral"
    state.starving = tuple(p for p in state.starving if p != place)
    who = SIDE_NAMES.get(side or before, before)
    return event(
        state,
        "revolt",
        f"{place_name(place)} {why} and is lost to {who}.",
        place=place,
        before=before,
        losses=losses,
    )


def revolt(state: CampaignState, province: str) -> list[Event]:
    """A province rises against the side holding most of its cities (§20.2)."""
    cmap = roman_world()
    cities = [c for c in cmap.in_province(province) if cmap.spaces[c].kind == "city"]
    held = {s: [c for c in cities if state.owner_side(c) == s] for s in SIDES}
    side = max(SIDES, key=lambda s: (len(held[s]), s == SIDES[1]))
    name = _province_name(province)
    if not held[side]:
        return [event(state, "revolt_none", f"Unrest in {name} comes to nothing.", province=province)]
    rising = [c for c in held[side] if not _held_by_field_troops(state, c, side) and c != "roma"]
    rising = rising[: world_tables().events.revolt_max]
    if not rising:
        held_down = f"{name} stirs, but {SIDE_NAMES[side]}' armies hold it down."
        return [event(state, "revolt_none", held_down, province=province)]
    return [fall_away(state, c, f"rises in the revolt of {name}") for c in rising]


def justice(state: CampaignState, province: str) -> list[Event]:
    """Provincials accuse the governor of the side holding the province's capital (§20.2)."""
    cmap = roman_world()
    capitals = [c for c in cmap.in_province(province) if cmap.spaces[c].capital]
    name = _province_name(province)
    if not capitals:
        return []
    cap = capitals[0]
    side = state.owner_side(cap)
    if side not in SIDES:
        return [event(state, "justice", f"The provincials of {name} have no Roman governor to accuse.")]
    if state.stratagems[side]["political"] > 0:
        state.stratagems[side]["political"] -= 1
        state.expended[side]["political"] += 1
        return [
            event(
                state,
                "justice",
                f"The provincials of {name} demand justice; {SIDE_NAMES[side]} spend a Political "
                "stratagem to settle the case.",
                side=side,
                province=province,
            )
        ]
    if _held_by_field_troops(state, cap, side):
        return [
            event(
                state,
                "justice",
                f"The provincials of {name} demand justice, but {SIDE_NAMES[side]}' troops keep order.",
                side=side,
                province=province,
            )
        ]
    return [fall_away(state, cap, f"rises against {SIDE_NAMES[side]}' governor")]


def reforms(state: CampaignState) -> list[Event]:
    """The citizens of Rome demand reforms (§20.2)."""
    side = state.owner_side("roma")
    if side not in SIDES:
        return [event(state, "reforms", "The citizens demand reforms, but no party holds Rome to answer them.")]
    other = enemy(side)
    tribune = getattr(state, "republic", {}).get("tribune")
    texts = []
    if tribune == side:
        texts.append(f"{SIDE_NAMES[side]}' Tribune answers the crowd")
    elif state.res_publica.get(side, 0) > 0:
        state.res_publica[side] -= 1
        texts.append(f"{SIDE_NAMES[side]} lose a Res Publica marker")
    else:
        texts.append(f"{SIDE_NAMES[side]} have no standing to lose")
    state.stratagems[other]["political"] += 1
    texts.append(f"{SIDE_NAMES[other]} gain a Political stratagem from the unrest")
    return [
        event(
            state,
            "reforms",
            f"The citizens of Rome demand reforms: {'; '.join(texts)}.",
            side=side,
            res_publica=dict(state.res_publica),
        )
    ]


def wavering(state: CampaignState, province: str, dice: Dice) -> list[Event]:
    """Towns of Italy held by the holder of Rome waver and go over (§20.2; 004)."""
    cmap = roman_world()
    side = state.owner_side("roma")
    if side not in SIDES:
        return []
    other = enemy(side)
    towns = [
        c
        for c in cmap.in_province(province)
        if cmap.spaces[c].kind == "city"
        and c != "roma"
        and state.owner_side(c) == side
        and not _held_by_field_troops(state, c, side)
    ]
    if not towns:
        return [event(state, "wavering", f"The towns of {_province_name(province)} stay loyal to {SIDE_NAMES[side]}.")]
    n = min(len(towns), dice.roll(world_tables().events.wavering_max, "wavering towns"))
    out: list[Event] = []
    for _ in range(n):
        town = towns.pop(dice.roll(len(towns), "wavering town") - 1)
        # the town's civis goes over with it (its garrison force is its own, §7.5)
        for f in list(state.side_forces_at(town, side)):
            if f.units and all(not catalogue().kind(u.kind).mobile for u in f.units) and not f.leaders:
                state.forces[f.id] = f.model_copy(update={"side": other})
        state.owners[town] = other
        out.append(
            event(
                state,
                "wavering",
                f"{place_name(town)} goes over to {SIDE_NAMES[other]}.",
                place=town,
                side=other,
            )
        )
    return out


def submission(state: CampaignState) -> list[Event]:
    """Neutral towns that one side's army stands in alone submit to it (§20.3).

    A city of no side (a free town, a city that revolted or was sacked) where a side has
    field troops and no other power has a force goes over to that side."""
    cmap = roman_world()
    out: list[Event] = []
    for place in sorted({f.location for f in state.forces.values()}):
        if not cmap.is_land(place) or cmap.spaces[place].kind != "city" or state.owners.get(place) != "neutral":
            continue
        here = state.forces_at(place)
        sides = {state.allegiance(f.side) for f in here if f.units}
        if len(sides) != 1 or None in sides or any(f.side == BARBARIAN for f in here):
            continue
        (side,) = sides
        assert side is not None
        if not any(mobile_ground(f) for f in here):
            continue
        state.owners[place] = side
        out.append(
            event(
                state,
                "capture",
                f"{place_name(place)} opens its gates to {SIDE_NAMES[side]}.",
                place=place,
                side=side,
                before="neutral",
                how="submission",
                space_kind="city",
            )
        )
    return out


def _province_name(province: str) -> str:
    cmap = roman_world()
    return next((p.name for p in cmap.data.province if p.id == province), province)
