"""Marches over land: the movement allowance, where a force may go, the March Table
(docs/rules/campaign.md §8).

A led force spends up to its movement allowance of map cost points in its side's
movement phase (§8.1); a force with no leader moves by road only, at a smaller
allowance.  It may not enter a space where a power not at war with it has a force,
and it stops when it enters a space holding enemy troops or a city the enemy owns
(§8.3: no passing through).  A barbarian horde on the move may be attacked: a force
may march into its space, stops there and clashes with it (§8.3, §19.4).  Every
cross-country edge is rolled on the March Table by the terrain of the space entered
(§8.2; reference: "scatter" results; 004: Antipater lost in the desert); a Military
stratagem spent on the march improves every roll.
"""

from __future__ import annotations

import heapq
import itertools

from bellum.dice import Dice
from bellum.errors import RuleError
from bellum.events import Event
from campaign.map import Link, roman_world
from campaign.rules.clients import clash
from campaign.rules.common import event, force_name, inflict, loss_text, place_name, possessive, share, tidy
from campaign.rules.presence import blocked, enemy_troops_at, has_ground_troops, horde_at, land_links
from campaign.rules.siege import occupy
from campaign.state import CampaignState, enemy
from campaign.tables import Result, read, tables
from campaign.units import Force, catalogue


def allowance(state: CampaignState, force: Force) -> int:
    """Movement points a force may spend marching this phase (§8.1)."""
    m = tables().movement
    if force.commander is None:
        return m.leaderless
    return m.land_winter if state.winter() else m.land


def stops(state: CampaignState, side: str, place: str) -> bool:
    """Entering this space ends the march: enemy troops, a horde on the move, or a city
    the enemy owns (§8.3)."""
    if enemy_troops_at(state, side, place) or horde_at(state, place) is not None:
        return True
    space = roman_world().spaces[place]
    return space.kind == "city" and state.owner_side(place) == enemy(side)


def can_march(state: CampaignState, force: Force) -> bool:
    if state.allegiance(force.side) != state.active or state.phase != "movement" or state.pending is not None:
        return False
    if force.location not in roman_world().spaces:
        return False
    cat = catalogue()
    if any(not cat.kind(u.kind).mobile for u in force.units):
        return False
    if not force.units and not force.leaders:
        return False
    if force.units and all(cat.kind(u.kind).is_fleet for u in force.units):
        return False
    return state.spent.get(force.id, 0) < allowance(state, force)


def destinations(state: CampaignState, force: Force) -> dict[str, tuple[int, tuple[str, ...]]]:
    """Every space the force may march to now: space → (cost, path from its location).
    The cheapest path, fewest cross-country edges on ties (§8.1)."""
    if not can_march(state, force):
        return {}
    side = state.active
    start = force.location
    budget = allowance(state, force) - state.spent.get(force.id, 0)
    fresh = state.spent.get(force.id, 0) == 0
    roads_only = False
    best: dict[str, tuple[int, int]] = {start: (0, 0)}
    out: dict[str, tuple[int, tuple[str, ...]]] = {}
    heap: list[tuple[int, int, str, tuple[str, ...]]] = [(0, 0, start, (start,))]
    while heap:
        cost, cc, node, path = heapq.heappop(heap)
        if best.get(node, (1 << 30, 0)) < (cost, cc):
            continue
        if node != start:
            out[node] = (cost, path)
            if stops(state, side, node):
                continue
        for lk in land_links(node):
            if roads_only and lk.kind != "road":
                continue
            new = cost + lk.cost
            if new > budget and not (fresh and node == start):
                continue
            if lk.b == start or blocked(state, side, lk.b):
                continue
            key = (new, cc + (lk.kind == "cross_country"))
            if key < best.get(lk.b, (1 << 30, 0)):
                best[lk.b] = key
                heapq.heappush(heap, (new, key[1], lk.b, (*path, lk.b)))
    return out


def check_path(state: CampaignState, force: Force, path: tuple[str, ...]) -> int:
    """The cost of a proposed march, or ``RuleError`` saying why it is not allowed."""
    cmap = roman_world()
    if not can_march(state, force):
        raise RuleError(f"{force_name(force)} cannot march now.")
    if len(path) < 2 or path[0] != force.location:
        raise RuleError(f"A march of {force_name(force)} must start from {place_name(force.location)}.")
    side = state.active
    budget = allowance(state, force) - state.spent.get(force.id, 0)
    fresh = state.spent.get(force.id, 0) == 0
    total = 0
    for i, (a, b) in enumerate(itertools.pairwise(path)):
        if b not in cmap.spaces or a not in cmap.spaces:
            raise RuleError(f"{b} is not a land space an army can march to.")
        lk = cmap.link(a, b)
        if lk is None or lk.kind == "sea_lane":
            raise RuleError(f"There is no road or track from {cmap.name(a)} to {cmap.name(b)}.")
        if blocked(state, side, b):
            raise RuleError(f"{cmap.name(b)} is held by a power at peace with {side}s; it cannot be entered.")
        if i > 0 and stops(state, side, a):
            raise RuleError(f"The march must stop at {cmap.name(a)}: the enemy is there.")
        total += lk.cost
        if total > budget and not (fresh and i == 0):
            raise RuleError(f"{force_name(force)} has not the movement left to reach {cmap.name(b)}.")
    if len(set(path)) != len(path):
        raise RuleError("A march may not pass the same space twice.")
    return total


def march_roll(state: CampaignState, force: Force, terrain: str, stratagem: bool, dice: Dice) -> Result:
    """One roll on the March Table (§8.2)."""
    t = tables().march
    mod = (t.modifiers.stratagem if stratagem else 0) + (t.modifiers.winter if state.winter() else 0)
    if force.commander and catalogue().leader(force.commander).discipline == "I":
        mod += t.modifiers.imperator
    roll = dice.d10(f"march {force.id} into {terrain}")
    result = read(t.rows.row(terrain), roll + mod)
    assert isinstance(result, Result)
    return result


def do_march(state: CampaignState, force_id: str, path: tuple[str, ...], stratagem: bool, dice: Dice) -> list[Event]:
    """Carry out a march on ``state`` (a copy the caller owns); §8.1–§8.3."""
    cmap = roman_world()
    force = state.forces.get(force_id)
    if force is None:
        raise RuleError(f"There is no force {force_id!r}.")
    check_path(state, force, path)
    side = state.active
    if stratagem:
        _spend_stratagem(state, path, side)
    name = force_name(force)
    events: list[Event] = leave_fleets(state, force_id)
    here = path[0]
    spent = state.spent.get(force_id, 0)
    ended = False
    walked = [here]
    roads: list[str] = []
    for b in path[1:]:
        lk = cmap.link(here, b)
        assert lk is not None
        spent += lk.cost
        if lk.kind == "cross_country":
            stop = _cross_country(state, force_id, name, here, b, stratagem, dice, events)
            if stop:
                ended = True
                walked = [] if stop == "scatter" else walked
                break
            roads.append("across country")
        else:
            roads.append(_road_phrase(lk))
        here = b
        walked.append(b)
    if force_id in state.forces:
        state.forces[force_id] = state.forces[force_id].model_copy(update={"location": here})
    if len(walked) > 1:
        events.insert(
            0,
            event(
                state,
                "march",
                f"{name} marches from {cmap.name(path[0])} to {cmap.name(walked[-1])} {_by(roads)}.",
                force=force_id,
                path=list(walked),
                side=side,
            ),
        )
    state.spent[force_id] = allowance(state, force) if ended or stops(state, side, here) else spent
    events += _arrive(state, force_id, name, here, side, dice)
    tidy(state)
    return events


def _spend_stratagem(state: CampaignState, path: tuple[str, ...], side: str) -> None:
    """A Military stratagem spent on a march across country (§8.2)."""
    cmap = roman_world()
    if not any(cmap.link(a, b).kind == "cross_country" for a, b in itertools.pairwise(path)):  # type: ignore[union-attr]
        raise RuleError("A Military stratagem helps only a march that goes cross-country.")
    if state.stratagems[side]["military"] < 1:
        raise RuleError("You hold no Military stratagem to spend on the march.")
    state.stratagems[side]["military"] -= 1
    state.expended[side]["military"] += 1


def _cross_country(
    state: CampaignState,
    force_id: str,
    name: str,
    here: str,
    to: str,
    stratagem: bool,
    dice: Dice,
    events: list[Event],
) -> str:
    """One step across country from ``here`` to ``to`` (§8.2): the march roll, its events added
    to ``events``; ``"scatter"`` or ``"halt"`` when the march ends here, ``""`` when it goes on."""
    cmap = roman_world()
    res = march_roll(state, state.forces[force_id], cmap.spaces[to].terrain, stratagem, dice)
    if res.kind == "scatter":
        events.extend(_scatter(state, force_id, here, to, res.loss, dice))
        return "scatter"
    if res.kind == "halt":
        lost = inflict(state, force_id, share(state.forces[force_id].strength(), res.loss))
        events.append(
            event(
                state,
                "march_halt",
                f"{possessive(name)} march is halted before {cmap.name(to)}"
                + (f"; the hard going costs {loss_text(lost)}." if lost else "."),
                force=force_id,
                place=here,
                losses=lost,
            )
        )
        return "halt"
    if res.kind == "loss":
        lost = inflict(state, force_id, share(state.forces[force_id].strength(), res.loss))
        events.append(
            event(
                state,
                "march_attrition",
                f"{name} loses {loss_text(lost)} to the march across country to {cmap.name(to)}.",
                force=force_id,
                place=to,
                losses=lost,
            )
        )
    return ""


def _arrive(state: CampaignState, force_id: str, name: str, here: str, side: str, dice: Dice) -> list[Event]:
    """Where the march ends: a horde there is attacked (§19.4), then the space occupied."""
    events: list[Event] = []
    horde = horde_at(state, here)
    if horde is not None and force_id in state.forces and has_ground_troops(state.forces[force_id]):
        events.append(
            event(
                state,
                "horde_attack",
                f"{name} falls upon the barbarians at {roman_world().name(here)}.",
                force=force_id,
                place=here,
                horde=horde,
                side=side,
            )
        )
        events.extend(clash(state, horde, dice))  # §19.4: the horde clash table
    if force_id in state.forces:
        events.extend(occupy(state, here, side, dice))
    return events


def leave_fleets(state: CampaignState, force_id: str) -> list[Event]:
    """Fleets do not march: a force marching from a port leaves its ships there as a
    squadron of their own (§8.1)."""
    f = state.forces[force_id]
    fleets = tuple(u for u in f.fleets())
    if not fleets:
        return []
    rest = tuple(u.model_copy(update={"aboard": None}) if u.aboard else u for u in f.units if u not in fleets)
    state.forces[force_id] = f.model_copy(update={"units": rest})
    sid = state.new_id(f"{force_id}_ships")
    state.forces[sid] = Force(
        id=sid, side=f.side, location=f.location, units=fleets, name=f"{possessive(f.label())} ships"
    )
    state.spent[sid] = 1 << 10
    return []


def _road_phrase(lk: Link) -> str:
    if lk.kind == "strait":
        return f"across the strait ({lk.name})" if lk.name else "across the strait"
    return f"by the {lk.name}" if lk.name else "by road"


def _by(roads: list[str]) -> str:
    out: list[str] = []
    for r in roads:
        if not out or out[-1] != r:
            out.append(r)
    if len(out) == 1:
        return out[0]
    return ", ".join(out[:-1]) + " and " + out[-1]


def _scatter(state: CampaignState, force_id: str, here: str, target: str, pct: int, dice: Dice) -> list[Event]:
    """A scatter result (§8.2): the force strays into a space next to the one it marched
    from, chosen by a die among those it may enter (not the one it aimed at), and loses
    ``pct`` percent of its strength; its march ends."""
    cmap = roman_world()
    side = state.active
    options = [lk.b for lk in land_links(here) if lk.b != target and not blocked(state, side, lk.b)]
    force = state.forces[force_id]
    dest = here
    if options:
        dest = options[dice.d10(f"scatter {force_id}") % len(options)]
    lost = inflict(state, force_id, share(force.strength(), pct))
    if force_id in state.forces:
        state.forces[force_id] = state.forces[force_id].model_copy(update={"location": dest})
    terrain = cmap.spaces[dest].terrain
    where = (
        f"into the {terrain} of {cmap.name(dest)}"
        if terrain in ("desert", "mountains", "marsh", "forest")
        else f"to {cmap.name(dest)}"
    )
    text = f"{possessive(force_name(force))} march on {cmap.name(target)} goes astray {where}" + (
        f", losing {loss_text(lost)}." if lost else "."
    )
    return [event(state, "scatter", text, force=force_id, place=dest, target=target, losses=lost)]


def merge(state: CampaignState, force_id: str, into: str) -> list[Event]:
    """Two forces of a side in one space become one (§8.4)."""
    cat = catalogue()
    a = state.forces.get(force_id)
    b = state.forces.get(into)
    if a is None or b is None or force_id == into:
        raise RuleError("Name two different forces to join.")
    side = state.active
    if state.allegiance(a.side) != side or state.allegiance(b.side) != side or a.side != b.side:
        raise RuleError("Only forces of the same owner can be joined.")
    if a.location != b.location:
        raise RuleError(f"{a.label()} and {b.label()} are not in the same place.")
    if any(not cat.kind(u.kind).mobile for u in (*a.units, *b.units)):
        raise RuleError("A city's civis stays in its own garrison; it cannot join an army.")
    who, whom = force_name(a), force_name(b)
    leaders = b.leaders + a.leaders
    sup = {v for v in state.supreme.values() if v}
    commander = max(leaders, key=lambda ld: (ld in sup, cat.leader(ld).rating, -leaders.index(ld))) if leaders else None
    merged = b.model_copy(update={"units": b.units + a.units, "leaders": leaders, "commander": commander})
    del state.forces[force_id]
    state.forces[into] = merged
    state.spent[into] = max(state.spent.get(into, 0), state.spent.pop(force_id, 0))
    tidy(state)
    return [
        event(
            state,
            "merge",
            f"{who} joins {whom} at {place_name(b.location)}.",
            force=force_id,
            into=into,
        )
    ]
