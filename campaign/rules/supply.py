"""Supply, forage and pillage, sea supply and its interception, winter (docs/rules/campaign.md §10, §13).

In its supply phase each of the active side's forces on land is in **land supply** when
it stands in a city or off-map region its side holds and no enemy troops are there, or
can trace a path of at most ``trace`` movement points to one through spaces free of
enemy troops and enemy cities (§10.1).  A force in a port that is not in land supply
may draw **sea supply** (§10.2; reference: sea supply feeds a besieged or coastal
force), unless the enemy cuts it: an enemy force with fleets in the port or in a sea
zone it opens onto may declare the cut, and if the supplied side has fleets there a
naval battle decides (004 case (b)); without fleets the supply is simply cut.  Ships at
sea are victualled the same way, from a friendly port within ``ship_base`` sea points, and an
enemy squadron beside them may cut it; out of supply they waste on the ``at_sea`` row
(§10.1, §10.3; BC 3.15: Bibulus' blockading squadrons off a coast Caesar held).  A force
with no supply forages on the forage table (pillage in enemy country helps), a besieged
garrison suffers siege attrition instead (§11.2).  Supplied forces rally from
disruption.  In winter turns every force not in a friendly city rolls for winter
attrition, and supplied units in friendly cities recover strength in winter quarters
(§13; reference: "winter turns bring attrition"; 004: a horde "attritioned away in winter").
"""

from __future__ import annotations

import heapq
from dataclasses import replace

from bellum.dice import Dice
from bellum.engagement import Engagement, Outcome
from bellum.errors import RuleError
from bellum.events import Event
from campaign.decisions import CutSupplyDecision, EscortDecision
from campaign.map import roman_world
from campaign.rules.battle import Resolver, apply_outcome, check_outcome, naval_engagement, retreat_sea
from campaign.rules.common import event, force_name, inflict, loss_text, place_name, share, tidy
from campaign.rules.presence import enemy_troops_at, land_links
from campaign.rules.siege import ground, siege_attrition, under_siege
from campaign.state import CampaignState, enemy
from campaign.tables import Result, read, tables
from campaign.units import Force, catalogue


def source(state: CampaignState, side: str, place: str) -> bool:
    """A supply source: a city or off-map region ``side`` holds with no enemy troops in it."""
    s = roman_world().spaces.get(place)
    if s is None or s.kind == "region":
        return False
    return state.owner_side(place) == side and not enemy_troops_at(state, side, place)


def land_supplied(state: CampaignState, side: str, place: str) -> bool:
    """§10.1: a source within ``trace`` movement points over land."""
    cmap = roman_world()
    if not cmap.is_land(place):
        return False
    if source(state, side, place):
        return True
    if enemy_troops_at(state, side, place):
        return False
    budget = tables().supply.trace
    best = {place: 0}
    heap = [(0, place)]
    foe = enemy(side)
    while heap:
        cost, node = heapq.heappop(heap)
        if cost > best.get(node, 1 << 30):
            continue
        for lk in land_links(node):
            new = cost + lk.cost
            if new > budget or new >= best.get(lk.b, 1 << 30):
                continue
            if source(state, side, lk.b):
                return True
            if enemy_troops_at(state, side, lk.b):
                continue
            if cmap.spaces[lk.b].kind == "city" and state.owner_side(lk.b) == foe:
                continue
            best[lk.b] = new
            heapq.heappush(heap, (new, lk.b))
    return False


def sea_supply_possible(state: CampaignState, side: str, place: str) -> bool:
    """§10.2: a port, and the side holds another port free of enemy troops to ship from."""
    cmap = roman_world()
    s = cmap.spaces.get(place)
    if s is None or not s.port:
        return False
    return any(p != place and source(state, side, p) for p in cmap.ports())


def cutters(state: CampaignState, side: str, place: str) -> list[str]:
    """Enemy forces with fleets that can cut sea supply to ``place`` (§10.2): in the port,
    or within ``supply.cut_reach`` sea points of it — across the convoys' way in — and not
    shut in a port of ``side``."""
    return fleets_within(state, enemy(side), place, tables().supply.cut_reach)


def ship_supply_possible(state: CampaignState, side: str, place: str) -> bool:
    """§10.1: ships at sea are victualled from a port ``side`` holds, free of enemy troops,
    within ``supply.ship_base`` sea points of them (galleys carry water and food for days,
    not weeks: BC 3.15, Bibulus' squadrons off a coast Caesar held)."""
    cmap = roman_world()
    reach = tables().supply.ship_base
    return any(source(state, side, p) and cmap.sea_distance(place, p) <= reach for p in cmap.ports())


def needs_sea(state: CampaignState, side: str) -> list[str]:
    """Ports where ``side`` has troops that only sea supply can feed, and the sea zones
    where its ships lie victualled from a port in reach (§10.2)."""
    out = set()
    cmap = roman_world()
    for f in state.forces_of(side):
        if cmap.is_sea(f.location):
            if ship_supply_possible(state, side, f.location):
                out.add(f.location)
        elif ground(f) and not land_supplied(state, side, f.location) and sea_supply_possible(state, side, f.location):
            out.add(f.location)
    return sorted(out)


def open_supply_phase(state: CampaignState) -> None:
    """At the start of a supply phase the enemy may declare sea-supply cuts (§10.2)."""
    state.cuts = {}
    state.escorts = {}
    options = tuple((p, c) for p in needs_sea(state, state.active) for c in cutters(state, state.active, p))
    if options:
        state.pending = CutSupplyDecision(enemy(state.active), options)


def escorts(state: CampaignState, side: str, place: str) -> list[str]:
    """Forces of ``side`` with fleets that can fight for the sea supply to ``place`` (§10.2):
    in the port, or within ``supply.escort_reach`` sea points of it — on the convoys' way in —
    and not shut in an enemy port."""
    return fleets_within(state, side, place, tables().supply.escort_reach)


def fleets_within(state: CampaignState, side: str, place: str, reach: int) -> list[str]:
    """Forces of ``side`` with fleets within ``reach`` sea points of ``place`` — in ``place``
    itself, at sea, or in a port ``side`` holds (ships in another side's port are shut in)."""
    cmap = roman_world()
    out = []
    for f in state.forces_of(side):
        if not f.fleets() or cmap.sea_distance(f.location, place) > reach:
            continue
        if cmap.is_land(f.location) and f.location != place and state.owner_side(f.location) != side:
            continue
        out.append(f.id)
    return sorted(out)


def _take_option(state: CampaignState, place: str, force: str, refusal: str) -> None:
    """A (place, force) answer to the waiting cut or escort decision: refused unless
    offered; the place's other options go, and the decision waits on for the rest."""
    p = state.pending
    assert isinstance(p, CutSupplyDecision | EscortDecision)
    if (place, force) not in p.options:
        raise RuleError(refusal)
    rest = tuple(o for o in p.options if o[0] != place)
    state.pending = replace(p, options=rest) if rest else None


def cut(state: CampaignState, place: str, force: str) -> list[Event]:
    _take_option(state, place, force, "That force cannot cut sea supply there.")
    state.cuts[place] = force
    f = state.forces[force]
    events = [
        event(state, "cut_declared", f"{force_name(f)} moves to cut the sea lanes to {place_name(place)}.", place=place)
    ]
    if state.pending is None:
        after_cuts(state)
    return events


def after_cuts(state: CampaignState) -> None:
    """The enemy has declared his cuts: the supplied side now decides, cut by cut, whether
    to concede it or fight for its convoys with fleets in reach (004 case (b): a naval
    battle unless the supplied side concedes)."""
    state.pending = None
    options = tuple((p, f) for p in sorted(state.cuts) for f in escorts(state, state.active, p))
    if options:
        state.pending = EscortDecision(state.active, options)


def convoy_group(state: CampaignState, place: str, escort: str) -> list[str]:
    """The active side's ships that fight for the convoys to ``place``: ``escort`` leading,
    every other force of its side that could escort joining (the convoys gather their
    escorts on the way in)."""
    return [escort, *(f for f in escorts(state, state.active, place) if f != escort)]


def convoy_engagement(state: CampaignState, place: str, escort: str, cutter: str) -> Engagement:
    """The convoy battle off ``place``: the ``convoy_group`` against the enemy's ``cutter``
    (004 case (b); the supplied side is A)."""
    group = convoy_group(state, place, escort)
    return naval_engagement(state, place, [state.forces[f] for f in group], [state.forces[cutter]], "supply")


def escort(state: CampaignState, place: str, force: str) -> list[Event]:
    """The supplied side sends ``force`` to fight for the convoys to ``place``."""
    _take_option(state, place, force, "That force cannot fight for the sea supply there.")
    state.escorts[place] = force
    f = state.forces[force]
    return [
        event(
            state,
            "escort_declared",
            f"{force_name(f)} puts out to see the convoys through to {place_name(place)}.",
            place=place,
        )
    ]


def forage_result(state: CampaignState, force: Force, roll: int) -> Result:
    t = tables().supply
    mod = t.winter if state.winter() else 0
    side = state.allegiance(force.side)
    if side is not None and state.owner_side(force.location) == enemy(side):
        mod += t.pillage
    sp = force.strength()
    if sp > t.huge_army:
        mod -= 2
    elif sp > t.big_army:
        mod -= 1
    res = read(t.forage.row(roman_world().spaces[force.location].terrain), roll + mod)
    assert isinstance(res, Result)
    return res


def resolve_supply(
    state: CampaignState, dice: Dice, resolver: Resolver, outcomes: tuple[Outcome, ...] = ()
) -> list[Event]:
    """The active side's supply phase (§10, §11.2, §13).  A convoy battle (§10.2) whose
    result is among ``outcomes`` (fought on the battleboard or the tactical engine) takes
    it; any other is fought by ``resolver``."""
    side = state.active
    cmap = roman_world()
    events, cut_places = _sea_lanes(state, dice, resolver, {o.engagement: o for o in outcomes})
    state.cuts = {}
    state.escorts = {}
    sieges_done: set[str] = set()
    winter = state.winter()
    for fid in sorted(f.id for f in state.forces_of(side)):
        f = state.forces.get(fid)
        if f is None or not f.units:
            continue
        place = f.location
        if cmap.is_sea(place):
            supplied = place not in cut_places and ship_supply_possible(state, side, place)
        else:
            supplied = land_supplied(state, side, place) or (
                place not in cut_places and sea_supply_possible(state, side, place)
            )
        if supplied:
            events += _rally(state, fid)
            if winter and source(state, side, place):
                events += _quarters(state, fid)
        elif cmap.is_sea(place):
            events += _adrift(state, f, dice)
        elif ground(f):
            events += _out_of_supply(state, f, sieges_done, dice)
        f = state.forces.get(fid)
        if winter and f is not None and f.units and not (cmap.is_land(place) and source(state, side, place)):
            events += _winter(state, fid, dice)
    tidy(state)
    return events


def _sea_lanes(
    state: CampaignState, dice: Dice, resolver: Resolver, given: dict[str, Outcome]
) -> tuple[list[Event], set[str]]:
    """The declared cuts of the sea supply (§10.2): conceded, or fought for in a convoy battle
    (its result taken from ``given`` by engagement id, else from ``resolver``); the events and
    the places whose sea supply is cut."""
    side = state.active
    foe = enemy(side)
    events: list[Event] = []
    cut_places: set[str] = set()
    for place, cutter in sorted(state.cuts.items()):
        guard = state.forces.get(state.escorts.get(place, ""))
        mine = [guard] if guard is not None and guard.fleets() else []
        c = state.forces.get(cutter)
        if c is None or not c.fleets():
            continue
        if not mine:
            cut_places.add(place)
            events.append(
                event(state, "supply_cut", f"{force_name(c)} cuts the sea supply of {place_name(place)}.", place=place)
            )
            continue
        group = [*convoy_group(state, place, mine[0].id), cutter]
        eng = convoy_engagement(state, place, mine[0].id, cutter)
        out = given.pop(eng.id, None) or resolver(eng, dice)
        check_outcome(eng, out)
        events += apply_outcome(state, eng, out, dice, f"Convoy battle off {place_name(place)}")
        if not out.supply_passes:
            cut_places.add(place)
        if out.loser_retreats and out.winner is not None:
            loser = foe if out.winner == "A" else side
            fids = [f for f in group if f in state.forces and state.allegiance(state.forces[f].side) == loser]
            events += retreat_sea(state, fids, place, loser)
    if given:
        raise RuleError(f"No convoy battle {sorted(given)[0]} is fought in this supply phase.")
    return events, cut_places


def _out_of_supply(state: CampaignState, f: Force, sieges_done: set[str], dice: Dice) -> list[Event]:
    """Ground troops out of supply: a besieged city suffers its siege attrition once (§11.2);
    a force in the field forages, or pillages enemy land (§13)."""
    place, foe = f.location, enemy(state.active)
    if under_siege(state, place) == foe:
        if place in sieges_done:
            return []
        sieges_done.add(place)
        return siege_attrition(state, place, state.active, dice)
    res = forage_result(state, f, dice.d10(f"forage {f.id}"))
    if res.kind == "ok":
        return []
    lost = inflict(state, f.id, share(f.strength(), res.loss))
    verb = "pillages" if state.owner_side(place) == foe else "forages"
    return [
        event(
            state,
            "forage",
            f"{force_name(f)} {verb} around {roman_world().name(place)} and finds too little: {loss_text(lost)} lost.",
            force=f.id,
            place=place,
            losses=lost,
        )
    ]


def adrift_result(state: CampaignState, roll: int) -> Result:
    """§10.3: the ``supply.at_sea`` row for ships at sea without supply (winter modifier
    as for forage)."""
    t = tables().supply
    res = read(t.at_sea, roll + (t.winter if state.winter() else 0))
    assert isinstance(res, Result)
    return res


def _adrift(state: CampaignState, f: Force, dice: Dice) -> list[Event]:
    """A force at sea out of supply loses SP on the ``at_sea`` row, ships and passengers alike."""
    res = adrift_result(state, dice.d10(f"adrift {f.id}"))
    if res.kind == "ok":
        return []
    lost = inflict(state, f.id, share(f.strength(), res.loss), fleets=True)
    if not lost:
        return []
    return [
        event(
            state,
            "adrift",
            f"{force_name(f)} runs short of water in {roman_world().name(f.location)}: {loss_text(lost)} lost.",
            force=f.id,
            place=f.location,
            losses=lost,
        )
    ]


def _rally(state: CampaignState, fid: str) -> list[Event]:
    f = state.forces[fid]
    if not any(u.disrupted for u in f.units):
        return []
    units = tuple(u.model_copy(update={"disrupted": False}) if u.disrupted else u for u in f.units)
    state.forces[fid] = f.model_copy(update={"units": units})
    return []


def _quarters(state: CampaignState, fid: str) -> list[Event]:
    """Winter quarters (§13.2): supplied units in a friendly city regain strength."""
    w = tables().winter
    cat = catalogue()
    f = state.forces[fid]
    gains: dict[str, int] = {}
    units = []
    for u in f.units:
        full = cat.kind(u.kind).strength
        k = cat.kind(u.kind)
        if k.mobile and u.strength < full and u.discipline in w.quarters_disciplines and w.quarters_gain:
            g = min(w.quarters_gain, full - u.strength)
            gains[u.id] = g
            u = u.model_copy(update={"strength": u.strength + g})
        units.append(u)
    if not gains:
        return []
    state.forces[fid] = f.model_copy(update={"units": tuple(units)})
    return [
        event(
            state,
            "quarters",
            f"{force_name(f)} rebuilds in winter quarters at {place_name(f.location)} (+{sum(gains.values())} SP).",
            force=fid,
            gains=gains,
        )
    ]


def _winter(state: CampaignState, fid: str, dice: Dice) -> list[Event]:
    """Winter attrition (§13.1)."""
    w = tables().winter
    f = state.forces[fid]
    cmap = roman_world()
    side = state.allegiance(f.side)
    at_sea = cmap.is_sea(f.location)
    mod = w.at_sea if at_sea else (w.friendly if side is not None and state.owner_side(f.location) == side else 0)
    res = read(w.results, dice.d10(f"winter {fid}") + mod)
    assert isinstance(res, Result)
    if res.kind == "ok":
        return []
    lost = inflict(state, fid, share(f.strength(), res.loss), fleets=at_sea)
    if not lost:
        return []
    where = "storms at sea" if at_sea else f"the winter at {cmap.name(f.location)}"
    return [event(state, "winter", f"{force_name(f)} loses {loss_text(lost)} to {where}.", force=fid, losses=lost)]


def barbarians_and_others_winter(state: CampaignState, dice: Dice) -> list[Event]:
    """Forces of no side (barbarian hordes) suffer winter too, in the last side's supply
    phase of a winter turn (§13.1; 004: the horde on the Danube)."""
    events: list[Event] = []
    for fid in sorted(f.id for f in state.forces.values() if f.side == "barbarian"):
        events += _winter(state, fid, dice)
    tidy(state)
    return events
