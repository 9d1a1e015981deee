"""Naval movement, interception and mutual naval battles (docs/rules/campaign.md §9).

A led force with fleets (or ships alone, under their own captains) sails through sea zones
its fleets can carry (two ground units a fleet, campaign.md §4.3); what they cannot
carry stays ashore as a garrison.  A voyage may be intercepted by an enemy force with
fleets and a leader lying in a sea zone on the route or in the port of arrival, if the
enemy spends a Military stratagem (reference; 004 case (c)): it must first find the
moving fleets (the interception table), and then a naval battle decides whether the
voyage goes on (004 Victory).  Fleets that broke through sail on regardless (004 Escape).
Two forces with fleets in one space may fight a naval battle when both agree (004 (a)).
"""

from __future__ import annotations

import heapq
from functools import cache

from bellum.dice import Dice
from bellum.engagement import Engagement, Outcome
from bellum.errors import RuleError
from bellum.events import Event
from campaign.decisions import InterceptDecision, NavalOfferDecision
from campaign.map import roman_world
from campaign.rules.battle import Resolver, apply_outcome, check_outcome, naval_engagement, retreat_sea, spend
from campaign.rules.common import counted, event, force_name, place_name, possessive, tidy
from campaign.rules.presence import blocked
from campaign.rules.siege import occupy
from campaign.state import CampaignState, enemy, side_title
from campaign.tables import tables
from campaign.units import Force, catalogue


@cache
def _sea_links(place: str) -> tuple[tuple[str, int], ...]:
    cmap = roman_world()
    return tuple((lk.b, lk.cost) for lk in cmap.links(place, ("sea_lane",)))


def sea_allowance(state: CampaignState) -> int:
    m = tables().movement
    return m.sea_winter if state.winter() else m.sea


def can_sail(state: CampaignState, force: Force) -> bool:
    """A led force with a fleet, or ships alone under their own captains, in a port or at
    sea, that has not moved this phase (§9.1)."""
    if state.phase != "movement" or state.pending is not None or state.allegiance(force.side) != state.active:
        return False
    if not force.fleets() or state.spent.get(force.id, 0):
        return False
    cat = catalogue()
    if force.commander is None and not all(cat.kind(u.kind).is_fleet for u in force.units):
        return False
    cmap = roman_world()
    if cmap.is_land(force.location) and not cmap.spaces[force.location].port:
        return False
    return all(catalogue().kind(u.kind).mobile for u in force.units)


def voyages(state: CampaignState, force: Force) -> dict[str, tuple[int, tuple[str, ...]]]:
    """Every port or sea zone the force may sail to: place → (cost, path through sea zones)."""
    if not can_sail(state, force):
        return {}
    cmap = roman_world()
    side = state.active

    budget = sea_allowance(state)
    start = force.location
    best: dict[str, int] = {start: 0}
    out: dict[str, tuple[int, tuple[str, ...]]] = {}
    heap: list[tuple[int, str, tuple[str, ...]]] = [(0, start, (start,))]
    while heap:
        cost, node, path = heapq.heappop(heap)
        if best.get(node, 1 << 30) < cost:
            continue
        if node != start:
            out[node] = (cost, path)
        if cmap.is_land(node) and node != start:
            continue  # a voyage ends in the first port it enters
        for nxt, c in _sea_links(node):
            new = cost + c
            if new > budget or nxt == start:
                continue
            if cmap.is_land(nxt) and blocked(state, side, nxt):
                continue
            if new < best.get(nxt, 1 << 30):
                best[nxt] = new
                heapq.heappush(heap, (new, nxt, (*path, nxt)))
    return out


def embark(state: CampaignState, force_id: str) -> list[Event]:
    """Load the force's ground units onto its fleets, two a fleet, legions and the
    strongest first; what cannot be carried stays ashore as a leaderless garrison (§9.1)."""
    cat = catalogue()
    f = state.forces[force_id]
    fleets = [u for u in f.units if cat.kind(u.kind).is_fleet]
    room = {u.id: cat.kind(u.kind).capacity - sum(1 for x in f.units if x.aboard == u.id) for u in fleets}
    ashore = [u for u in f.units if not cat.kind(u.kind).is_fleet and u.aboard is None]
    ashore.sort(key=lambda u: (u.kind != "legion", -u.strength, u.id))
    placed: dict[str, str] = {}
    left = []
    for u in ashore:
        slot = next((fid for fid in sorted(room, key=lambda k: (-room[k], k)) if room[fid] > 0), None)
        if slot is None or not cat.kind(u.kind).embark:
            left.append(u.id)
            continue
        room[slot] -= 1
        placed[u.id] = slot
    units = tuple(u.model_copy(update={"aboard": placed[u.id]}) if u.id in placed else u for u in f.units)
    events: list[Event] = []
    if left:
        stay = tuple(u for u in units if u.id in left)
        units = tuple(u for u in units if u.id not in left)
        gid = state.new_id(f"{force_id}_rear")
        state.forces[gid] = Force(
            id=gid, side=f.side, location=f.location, units=stay, name=f"{f.label()} (left ashore)"
        )
        state.spent[gid] = 1 << 10
        events.append(
            event(
                state,
                "left_ashore",
                f"{counted(len(stay), 'unit')} of {force_name(f)} cannot be carried and stay at "
                f"{place_name(f.location)}.",
                force=gid,
            )
        )
    state.forces[force_id] = f.model_copy(update={"units": units})
    return events


def interceptors(state: CampaignState, force_id: str, path: tuple[str, ...]) -> list[str]:
    """Enemy forces that may try to intercept a voyage along ``path`` (§9.2): led forces
    with fleets lying in a sea zone on the route or in the port of arrival, or in a port
    (not the one it sails from) that opens onto a sea zone on the route — they put out
    from harbour."""
    foe = enemy(state.active)
    if state.stratagems[foe]["military"] < 1:
        return []
    out = []
    for f in state.forces_of(foe):
        if f.commander is not None and f.fleets() and battle_place(f.location, path) is not None:
            out.append(f.id)
    return sorted(out)


def battle_place(where: str, path: tuple[str, ...]) -> str | None:
    """Where a force at ``where`` meets a voyage along ``path``: its own space when that is
    on the route (past the start), else the first sea zone of the route its port opens
    onto (a sortie from harbour), else None."""
    if where in path[1:]:
        return where
    cmap = roman_world()
    if where == path[0] or not cmap.is_land(where) or not cmap.spaces[where].port:
        return None
    seas = set(cmap.seas_of(where))
    return next((z for z in path[1:] if z in seas), None)


def sail(state: CampaignState, force_id: str, to: str, path: tuple[str, ...]) -> list[Event]:
    """Declare a voyage: embark, then either ask the enemy whether he intercepts or sail."""
    force = state.forces.get(force_id)
    if force is None:
        raise RuleError(f"There is no force {force_id!r}.")
    legal = voyages(state, force)
    if to not in legal or legal[to][1] != path:
        raise RuleError(f"{force_name(force)} cannot sail to {place_name(to)} that way.")
    events = embark(state, force_id)
    state.spent[force_id] = 1 << 10
    options = interceptors(state, force_id, path)
    if options:
        state.pending = InterceptDecision(enemy(state.active), force_id, to, path, tuple(options))
        return events
    return events + arrive(state, force_id, path, None)


def arrive(state: CampaignState, force_id: str, path: tuple[str, ...], dice: Dice | None) -> list[Event]:
    """The voyage ends: in a port the troops go ashore; an enemy port with no troops falls."""
    cmap = roman_world()
    f = state.forces[force_id]
    to = path[-1]
    ashore = cmap.is_land(to)
    units = tuple(u.model_copy(update={"aboard": None}) if ashore and u.aboard else u for u in f.units)
    state.forces[force_id] = f.model_copy(update={"location": to, "units": units})
    verb = "sails" if ashore else "puts to sea"
    text = f"{force_name(f)} {verb} from {cmap.name(path[0])} to {cmap.name(to)}."
    events = [event(state, "sail", text, force=force_id, path=list(path), side=state.active)]
    if ashore and any(u.aboard is None and not catalogue().kind(u.kind).is_fleet for u in units):
        events.extend(occupy(state, to, state.active, dice))  # a port falls to troops landed, not to ships
    tidy(state)
    return events


def interception_engagement(state: CampaignState, interceptor: str) -> Engagement:
    """The naval battle an interception by ``interceptor`` would fight once the fleet is
    found (the pending voyage's force is side A)."""
    p = state.pending
    assert isinstance(p, InterceptDecision)
    icp = state.forces[interceptor]
    place = battle_place(icp.location, p.path) or icp.location
    return naval_engagement(state, place, [state.forces[p.force]], [icp], "interception")


def mutual_engagement(state: CampaignState, place: str) -> Engagement:
    """The mutual naval battle at ``place``: every fleet of both sides there (004 (a));
    the active side is A."""
    side, foe = state.active, enemy(state.active)
    a = [f for f in state.side_forces_at(place, side) if f.fleets()]
    b = [f for f in state.side_forces_at(place, foe) if f.fleets()]
    return naval_engagement(state, place, a, b, "mutual")


def intercept(
    state: CampaignState, interceptor: str, dice: Dice, resolver: Resolver, given: Outcome | None
) -> list[Event]:
    """The reactive side intercepts (§9.2–§9.3)."""
    p = state.pending
    assert isinstance(p, InterceptDecision)
    if interceptor not in p.options:
        raise RuleError("That force cannot intercept this voyage.")
    mover = p.force
    path = p.path
    state.pending = None
    foe = enemy(state.active)
    spend(state, foe, "military", 1)
    t = tables().interception
    cat = catalogue()
    icp = state.forces[interceptor]
    place = battle_place(icp.location, path) or icp.location
    need = t.need + (t.destination if icp.location == path[-1] else 0) + (t.winter if state.winter() else 0)
    if place != icp.location:
        need += t.sortie
    if icp.commander and cat.leader(icp.commander).role == "admiral":
        need += t.admiral
    roll = dice.d10(f"interception by {interceptor}")
    name_i, name_m = force_name(icp), force_name(state.forces[mover])
    if roll < need:
        return [
            event(
                state,
                "interception",
                f"{name_i} puts out to intercept {name_m} in {place_name(place)} but does not find the fleet.",
                place=place,
                found=False,
            ),
            *arrive(state, mover, path, dice),
        ]
    events = [
        event(
            state,
            "interception",
            f"{name_i} intercepts {possessive(name_m)} fleet in {place_name(place)}.",
            place=place,
            found=True,
        )
    ]
    eng = naval_engagement(state, place, [state.forces[mover]], [icp], "interception")
    out = given if given is not None else resolver(eng, dice)
    check_outcome(eng, out)
    events += apply_outcome(state, eng, out, dice, f"Sea fight off {place_name(place)}")
    # fleets that broke through sail on as a force of their own (004 Escape)
    if mover in state.forces and out.continuing_fleets and not out.movement_continues:
        f = state.forces[mover]
        through = set(out.continuing_fleets) & {u.id for u in f.units}
        if through:
            carried = {u.id for u in f.units if u.aboard in through}
            go = tuple(u for u in f.units if u.id in through or u.id in carried)
            stay = tuple(u for u in f.units if u not in go)
            gid = state.new_id(f"{mover}_escaped")
            state.forces[mover] = f.model_copy(update={"units": stay})
            state.forces[gid] = Force(id=gid, side=f.side, location=f.location, units=go, name=f"{f.label()} (escaped)")
            state.spent[gid] = 1 << 10
            events += arrive(state, gid, path, dice)
    if mover in state.forces and state.forces[mover].units:
        if out.movement_continues:
            events += arrive(state, mover, path, dice)
        else:
            events.append(event(state, "voyage_stopped", f"{possessive(name_m)} voyage is stopped.", force=mover))
            if roman_world().is_sea(state.forces[mover].location):
                events += retreat_sea(state, [mover], state.forces[mover].location, state.active)
    if out.loser_retreats and out.winner == "A" and interceptor in state.forces and place == icp.location:
        events += retreat_sea(state, [interceptor], icp.location, foe)  # a sortie ends back in harbour
    tidy(state)
    return events


def decline_interception(state: CampaignState, dice: Dice) -> list[Event]:
    p = state.pending
    assert isinstance(p, InterceptDecision)
    state.pending = None
    return arrive(state, p.force, p.path, dice)


def offer_naval(state: CampaignState, place: str) -> list[Event]:
    from campaign.rules.battle import naval_contacts

    if place not in naval_contacts(state):
        raise RuleError(f"There is no enemy fleet to fight at {place_name(place)}.")
    state.pending = NavalOfferDecision(enemy(state.active), place)
    return [
        event(
            state,
            "naval_offer",
            f"{side_title(state.active)} offer battle at sea off {place_name(place)}.",
            place=place,
        )
    ]


def mutual_battle(state: CampaignState, dice: Dice, resolver: Resolver, given: Outcome | None) -> list[Event]:
    """Both agree: a naval battle with every fleet of both sides in the space (004 (a))."""
    p = state.pending
    assert isinstance(p, NavalOfferDecision)
    place = p.place
    state.pending = None
    side, foe = state.active, enemy(state.active)
    a = [f for f in state.side_forces_at(place, side) if f.fleets()]
    b = [f for f in state.side_forces_at(place, foe) if f.fleets()]
    eng = mutual_engagement(state, place)
    out = given if given is not None else resolver(eng, dice)
    check_outcome(eng, out)
    state.fought = (*state.fought, place)
    events = apply_outcome(state, eng, out, dice, f"Battle at sea off {place_name(place)}")
    if out.loser_retreats and out.winner is not None:
        loser = foe if out.winner == "A" else side
        fids = [f.id for f in a + b if f.id in state.forces and state.allegiance(f.side) == loser]
        events += retreat_sea(state, fids, place, loser)
    tidy(state)
    return events


def refuse_naval(state: CampaignState) -> list[Event]:
    p = state.pending
    assert isinstance(p, NavalOfferDecision)
    state.pending = None
    state.fought = (*state.fought, p.place)
    return [event(state, "naval_refused", f"The enemy keeps to harbour off {place_name(p.place)}.")]
