"""The campaign AI at sea (docs/AI.md §Campaign at sea; campaign.md §14.2).

Every naval decision is taken on the odds of the real resolver: the naval battle the
decision would bring on is built by the rules (``naval.interception_engagement``,
``naval.mutual_engagement``, ``supply.convoy_engagement``) and auto-resolved on the
battleboard ``SEA_ODDS_BATTLES`` times on dice fixed by the turn — the same odds the
window shows a person.  The AI

- **intercepts** a voyage when its interceptor would win the battle at sea
  (``FIGHT_IF``), against the AI and a person alike;
- **cuts** the enemy's sea supply when nothing can contest it, or when it would hold its
  own against the strongest escort the enemy could send (``HOLD_IF``);
- **fights for its own convoys** (004 case (b)) with the escort that gives the best odds,
  when they reach ``HOLD_IF``, and concedes the cut otherwise;
- **offers** a mutual battle at sea when the odds reach ``OFFER_IF`` and **accepts** one
  at ``HOLD_IF`` (a near-even fight for the sea is worth it to the side that needs it);
- **builds fleets** where its armies stand on the coast while its fleets are fewer than
  ``FLEET_SHARE`` of the enemy's (the Adriatic crossing, Hispania, Africa, the East);
- **stations its squadrons** (led forces that are mostly ships) where the war at sea is:
  off enemy ports it besieges or whose troops live on sea supply (the blockade), with its
  own forces that live on sea supply (the escort), across the sea lanes an enemy army
  with ships may take (the watch), against enemy squadrons it outguns (the hunt) — and in
  friendly harbours for the winter.
"""

from __future__ import annotations

from functools import cache

import networkx as nx

from bellum.engagement import Engagement
from campaign import actions as A
from campaign.map import roman_world
from campaign.rules import naval, supply
from campaign.state import CampaignState, enemy
from campaign.units import Force, catalogue

#: battleboard battles played for the odds of a sea fight (the window's number too)
SEA_ODDS_BATTLES = 6
#: intercept at these odds of winning …
FIGHT_IF = 0.5
#: … offer battle at sea at these …
OFFER_IF = 0.45
#: … accept battle, fight for a convoy and cut supply against an escort at these
HOLD_IF = 0.4
#: build fleets while the side's fleets are under this share of the enemy's …
FLEET_SHARE = 0.8
#: … and at least this many, once it has an army on the coast
FLEET_FLOOR = 3
#: a squadron: a led force with fleets and fewer ground SP than this
SQUADRON_GROUND = 6
#: station values (campaign.md §14.2)
BLOCKADE = 9.0
ESCORT = 8.0
WATCH = 5.0
HUNT = 7.0
WINTER_HARBOUR = 6.0
WINTER_AT_SEA = -8.0
OUTGUNNED = -10.0
#: value lost per sea movement point between a station and where the squadron is going
SEA_DISTANCE_COST = 0.5


def ground_sp(force: Force) -> int:
    cat = catalogue()
    return sum(u.strength for u in force.units if not cat.kind(u.kind).is_fleet)


def fleet_sp(forces: list[Force]) -> int:
    return sum(u.strength for f in forces for u in f.fleets())


def is_squadron(force: Force) -> bool:
    return force.commander is not None and bool(force.fleets()) and ground_sp(force) < SQUADRON_GROUND


_odds_cache: dict[tuple[object, ...], dict[str, float]] = {}


def sea_odds(state: CampaignState, eng: Engagement) -> dict[str, float]:
    """The battleboard auto-resolve odds of ``eng`` (``battleboard.resolve.odds``) on dice
    fixed by the turn; kept for identical engagements."""
    from battleboard.resolve import odds

    key = (
        state.turn,
        eng.trigger,
        eng.where,
        tuple((u.id, u.side, u.strength, u.discipline) for u in eng.units),
        tuple((ld.id, ld.side) for ld in eng.leaders),
    )
    got = _odds_cache.get(key)
    if got is None:
        if len(_odds_cache) > 4096:
            _odds_cache.clear()
        got = _odds_cache[key] = odds(eng, SEA_ODDS_BATTLES, seed=1 + state.turn)
    return got


# --------------------------------------------------------------------------- decisions


def choose_intercept(state: CampaignState, legal: list[A.Action]) -> A.Action | None:
    """The interception with the best odds, when they reach ``FIGHT_IF``."""
    best: tuple[float, A.Action] | None = None
    for a in legal:
        if isinstance(a, A.Intercept):
            win = sea_odds(state, naval.interception_engagement(state, a.force))["B"]
            if win >= FIGHT_IF and (best is None or win > best[0]):
                best = (win, a)
    return best[1] if best else None


def choose_cut(state: CampaignState, legal: list[A.Action]) -> A.Action | None:
    """A cut nothing can contest, else one the cutter would hold against the enemy's best
    escort (``HOLD_IF``)."""
    for a in legal:
        if not isinstance(a, A.CutSupply):
            continue
        guards = supply.escorts(state, state.active, a.place)
        if not guards:
            return a
        worst = min(sea_odds(state, supply.convoy_engagement(state, a.place, g, a.force))["B"] for g in guards)
        if worst >= HOLD_IF:
            return a
    return None


def choose_escort(state: CampaignState, legal: list[A.Action]) -> A.Action | None:
    """The escort with the best odds of seeing the convoys through, at ``HOLD_IF`` or better."""
    best: tuple[float, A.Action] | None = None
    for a in legal:
        if isinstance(a, A.Escort):
            eng = supply.convoy_engagement(state, a.place, a.force, state.cuts[a.place])
            win = sea_odds(state, eng)["A"]
            if win >= HOLD_IF and (best is None or win > best[0]):
                best = (win, a)
    return best[1] if best else None


def accept_battle(state: CampaignState) -> bool:
    """Accept a mutual battle at sea when the odds reach ``HOLD_IF``."""
    p = state.pending
    assert p is not None and p.kind == "naval_offer"
    return sea_odds(state, naval.mutual_engagement(state, p.data["place"]))["B"] >= HOLD_IF


def choose_offer(state: CampaignState, legal: list[A.Action]) -> A.Action | None:
    """Offer battle at sea where the odds reach ``FIGHT_IF``."""
    for a in legal:
        if isinstance(a, A.OfferNaval) and sea_odds(state, naval.mutual_engagement(state, a.place))["A"] >= OFFER_IF:
            return a
    return None


# --------------------------------------------------------------------------- fleets


def fleets_wanted(state: CampaignState, side: str) -> bool:
    """Whether ``side`` should build a fleet: fewer than ``FLEET_SHARE`` of the enemy's
    fleets, or fewer than ``FLEET_FLOOR``."""
    cat = catalogue()
    mine = sum(1 for f in state.forces_of(side) for u in f.units if cat.kind(u.kind).is_fleet)
    theirs = sum(1 for f in state.forces_of(enemy(side)) for u in f.units if cat.kind(u.kind).is_fleet)
    return mine < max(FLEET_FLOOR, FLEET_SHARE * theirs)


def fleet_recruit_value(state: CampaignState, side: str, city: str) -> float:
    """How much a fleet raised at ``city`` is worth: most where a led army stands on the
    coast and has too few ships to carry it, while the side wants fleets."""
    if not fleets_wanted(state, side):
        return 0.0
    cat = catalogue()
    best = 0.0
    for f in state.side_forces_at(city, side):
        if f.commander is None:
            continue
        carried = sum(1 for u in f.units if not cat.kind(u.kind).is_fleet and cat.kind(u.kind).embark)
        room = 2 * len(f.fleets())
        want = (5.0 if f.fleets() else 6.5) if room < carried else 3.5
        best = max(best, want)
    return best


# --------------------------------------------------------------------------- stations


@cache
def _sea_graph() -> nx.Graph:
    cmap = roman_world()
    g = nx.Graph()
    for u, v, d in cmap.graph.edges(data=True):
        if d["kind"] == "sea_lane":
            g.add_edge(u, v, cost=d["cost"])
    return g


@cache
def sea_distances() -> dict[str, dict[str, float]]:
    """Sea-lane cost between every two ports or sea zones."""
    return {
        a: {b: float(c) for b, c in d.items()}
        for a, d in nx.all_pairs_dijkstra_path_length(_sea_graph(), weight="cost")
    }


def sea_dist(a: str, b: str) -> float:
    if a == b:
        return 0.0
    return sea_distances().get(a, {}).get(b, 99.0)


def stations(state: CampaignState, side: str) -> list[tuple[str, float]]:
    """Where ``side``'s squadrons are wanted now, with the value of each place."""
    cmap = roman_world()
    foe = enemy(side)
    out: list[tuple[str, float]] = []

    def waters(port: str) -> list[str]:
        return [port, *cmap.seas_of(port)]

    # the blockade: enemy ports we besiege, enemy troops living on sea supply
    for city, (besieger, _) in state.sieges.items():
        if cmap.spaces[city].port:
            value = BLOCKADE if besieger == side else ESCORT
            out += [(w, value) for w in waters(city)]
    for port in supply.needs_sea(state, foe):
        out += [(w, BLOCKADE) for w in waters(port)]
    # the escort: our troops living on sea supply
    for port in supply.needs_sea(state, side):
        out += [(w, ESCORT) for w in waters(port)]
    # the watch: the sea lanes out of ports where enemy armies with ships stand
    for f in state.forces_of(foe):
        if f.commander is not None and f.fleets() and ground_sp(f) >= SQUADRON_GROUND and cmap.is_land(f.location):
            out += [(w, WATCH) for w in cmap.seas_of(f.location)]
    # the hunt: enemy ships at sea, or in a port where troops hold them (ships alone in a
    # port put to sea when a force lands, §11.1)
    for f in state.forces_of(foe):
        if f.fleets() and (cmap.is_sea(f.location) or any(ground_sp(g) for g in state.side_forces_at(f.location, foe))):
            out.append((f.location, HUNT))
    return out


def station_score(state: CampaignState, f: Force, d: str, goals: list[tuple[str, float]]) -> float:
    """The worth of squadron ``f`` ending its move at ``d``."""
    cmap = roman_world()
    side = state.allegiance(f.side) or f.side
    foe = enemy(side)
    score = max((v - SEA_DISTANCE_COST * sea_dist(d, g) for g, v in goals), default=0.0)
    mine = fleet_sp([f]) + fleet_sp([g for g in state.side_forces_at(d, side) if g.id != f.id])
    theirs = fleet_sp(state.side_forces_at(d, foe))
    near = {d, *(cmap.seas_of(d) if cmap.is_land(d) else [])}
    around = sum(fleet_sp(state.side_forces_at(p, foe)) for p in near)
    if theirs > mine * 1.3 or around > mine * 1.8:
        score += OUTGUNNED
    if state.winter():
        if cmap.is_sea(d):
            score += WINTER_AT_SEA
        elif state.owner_side(d) == side:
            score += WINTER_HARBOUR
    if cmap.is_land(d) and state.owner_side(d) == foe and not any(g.units for g in state.side_forces_at(d, foe)):
        score += 2.0  # an undefended enemy port falls to a landing
    return score


def squadron_move(state: CampaignState, f: Force, options: list[A.March | A.Sail]) -> A.March | A.Sail | None:
    """The best station for squadron ``f`` among its moves, when better than staying."""
    side = state.allegiance(f.side) or f.side
    goals = stations(state, side)
    stay = station_score(state, f, f.location, goals)
    best: tuple[float, A.March | A.Sail] | None = None
    for a in options:
        if not isinstance(a, A.Sail):
            continue
        sc = station_score(state, f, a.to, goals)
        if best is None or sc > best[0]:
            best = (sc, a)
    if best is not None and best[0] > stay + 0.5:
        return best[1]
    return None
