"""The campaign AI at sea (docs/AI.md §Campaign at sea; campaign.md §14.2).

Every naval decision is taken on the odds of the real resolver: the naval battle the
decision would bring on is built by the rules (``naval.interception_engagement``,
``naval.mutual_engagement``, ``supply.convoy_engagement``) and auto-resolved on the
battleboard ``SEA_ODDS_BATTLES`` times on dice fixed by the turn — the resolver whose
odds the window shows a person (over more battles).  The AI

- **intercepts** a voyage when its interceptor would win the battle at sea
  (``FIGHT_IF``), against the AI and a person alike — keeping ``KEEP_MILITARY`` Military
  stratagems for its battles unless the voyage carries an army;
- **cuts** the enemy's sea supply when nothing can contest it, or when it would win
  ``CUT_IF`` of the convoy battles against every escort the enemy could send, or when the
  fight is expected to cost it less, beyond what it costs the enemy, than the hunger the cut
  inflicts (``hunger``: siege attrition or forage by the rules' own tables);
- **fights for its own convoys** (004 case (b)) with the escort that gives the best odds,
  when they reach ``ESCORT_IF`` (``STARVING_IF`` for a besieged port) or the fight is
  expected to cost it less, beyond what it costs the enemy, than going hungry, and concedes
  the cut otherwise;
- **offers** a mutual battle at sea when the odds reach ``OFFER_IF`` and **accepts** one
  at ``HOLD_IF`` (always off its own besieged port) or when it would cost the enemy more;
- **builds fleets** where its armies stand on the coast while its fleets are fewer than
  ``FLEET_SHARE`` of the enemy's (the Adriatic crossing, Hispania, Africa, the East);
- **stations its squadrons** (led forces that are mostly ships) where the war at sea is:
  off enemy ports it besieges or whose troops live on sea supply (the blockade), with its
  own forces that live on sea supply (the escort), across the sea lanes an enemy army
  with ships may take (the watch), against enemy squadrons it outguns (the hunt), and above
  all on the waters of a port under siege, to keep or to close its sea — and in friendly
  harbours for the winter; ships lying together gather into one squadron.
"""

from __future__ import annotations

from bellum.engagement import Engagement
from campaign import actions as A
from campaign.map import roman_world
from campaign.rules import naval, supply
from campaign.rules.common import share
from campaign.rules.siege import under_siege
from campaign.state import CampaignState, enemy
from campaign.tables import tables
from campaign.units import Force, catalogue

#: battleboard battles played for the odds of a sea fight (the window plays more for a person)
SEA_ODDS_BATTLES = 6
#: intercept at these odds of winning …
FIGHT_IF = 0.6
#: … offer battle at sea at these …
OFFER_IF = 0.45
#: … accept battle at these — one battle in six: refusing leaves the enemy the sea there,
#: and ships lying at sea beside his live on a supply he may cut (§10.2) — (the ships of a
#: besieged port accept whatever the odds: refusing gives up the port, Massilia in 49 BC) …
HOLD_IF = 0.16
#: … fight for a convoy at these (a besieged port that loses its sea starves: at ``STARVING_IF``) …
ESCORT_IF = 0.4
STARVING_IF = 0.2
#: … and cut supply against the enemy's best escort at these
CUT_IF = 0.25
#: an interception spends a Military stratagem: the AI keeps this many for its battles
#: unless the voyage carries an army of ``ARMY_AFLOAT`` SP or more
KEEP_MILITARY = 2
ARMY_AFLOAT = 8
#: build fleets while the side's fleets are under this share of the enemy's (the Senate
#: holds the sea and means to keep it: BC 3.5–3.8; Caesar builds to parity, as he built
#: the fleet that beat Massilia's at Arelate, BC 1.36, 2.3–2.7 — at 0.8 his squadrons were
#: outgunned wherever they met the Senate's and every sea battle was declined: BALANCE run 50) …
FLEET_SHARE = {"caesarian": 1.0, "senatorial": 1.3}
#: … and at least this many, once it has an army on the coast
FLEET_FLOOR = 6
#: a squadron: ships alone, or a led force with fleets and fewer ground SP than this
SQUADRON_GROUND = 6
#: station values (campaign.md §14.2)
BLOCKADE = 9.0
ESCORT = 8.0
#: a port under siege: its own side's ships come to keep its sea open, the besiegers' to close it
RELIEVE_PORT = 14.0
CLOSE_PORT = 12.0
WATCH = 5.0
HUNT = 6.0
WINTER_HARBOUR = 6.0
WINTER_AT_SEA = -8.0
OUTGUNNED = -10.0
#: a squadron is outgunned where the enemy's ships there outnumber its own by this ratio,
#: or those around it (the place and the waters it opens onto) by ``OUTGUN_AROUND``
OUTGUN_RATIO = 1.7
OUTGUN_AROUND = 2.4
#: value lost per sea movement point between a station and where the squadron is going
SEA_DISTANCE_COST = 0.5
#: a fleet raised in any port while the side wants fleets …
FLEET_BASE = 4.0
#: … more near a theatre of the war at sea (a port under siege, troops on sea supply) …
FLEET_THEATRE = 2.0
#: … within this many sea points
THEATRE_REACH = 6.0


def ground_sp(force: Force) -> int:
    cat = catalogue()
    return sum(u.strength for u in force.units if not cat.kind(u.kind).is_fleet)


def fleet_sp(forces: list[Force]) -> int:
    return sum(u.strength for f in forces for u in f.fleets())


def loose_fleets(force: Force) -> bool:
    """Ships with no leader and no troops, free to move once a leader takes them over."""
    cat = catalogue()
    return force.commander is None and bool(force.units) and all(cat.kind(u.kind).is_fleet for u in force.units)


def joins(src: Force, dst: Force) -> bool:
    """Whether squadron ``src`` should join ``dst`` where both lie: ships gather into one
    squadron — under a leader when one of them has one, else the smaller into the larger."""
    if not is_squadron(dst):
        return False
    if (src.commander is None) != (dst.commander is None):
        return dst.commander is not None
    return (fleet_sp([src]), src.id) < (fleet_sp([dst]), dst.id)


def is_squadron(force: Force) -> bool:
    """A force of ships: led with few troops aboard, or ships alone."""
    if not force.fleets():
        return False
    return loose_fleets(force) or (force.commander is not None and ground_sp(force) < SQUADRON_GROUND)


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


def costs_them_more(got: dict[str, float], me: str) -> bool:
    """Whether a sea fight is expected to cost the enemy more SP than ``me`` (side A or B
    of the odds) — worth fighting for a convoy or accepting even when it may not be won."""
    them = "B" if me == "A" else "A"
    return got[f"{me}_lost"] < got[f"{them}_lost"]


def choose_intercept(state: CampaignState, legal: list[A.Action]) -> A.Action | None:
    """The interception with the best odds, when they reach ``FIGHT_IF`` — and, unless the
    voyage carries an army, only while Military stratagems are to spare."""
    p = state.pending
    assert p is not None
    mover = state.forces.get(p.data["force"])
    afloat = ground_sp(mover) if mover is not None else 0
    if afloat < ARMY_AFLOAT and state.stratagems[p.actor]["military"] < KEEP_MILITARY:
        return None
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
        # every escort fights together (supply.convoy_engagement): the odds are the same
        got = sea_odds(state, supply.convoy_engagement(state, a.place, guards[0], a.force))
        if got["B"] >= CUT_IF or got["B_lost"] - got["A_lost"] < hunger(state, a.place):
            return a
    return None


def choose_escort(state: CampaignState, legal: list[A.Action]) -> A.Action | None:
    """The escort with the best odds of seeing the convoys through, at ``ESCORT_IF`` or
    better — ``STARVING_IF`` for a besieged port, which starves without them."""
    best: tuple[float, A.Action] | None = None
    for a in legal:
        if isinstance(a, A.Escort):
            eng = supply.convoy_engagement(state, a.place, a.force, state.cuts[a.place])
            got = sea_odds(state, eng)
            win = got["A"]
            need = STARVING_IF if a.place in state.sieges else ESCORT_IF
            cheaper = got["A_lost"] - got["B_lost"] < hunger(state, a.place)
            if (win >= need or cheaper) and (best is None or win > best[0]):
                best = (win, a)
    return best[1] if best else None


def hunger(state: CampaignState, place: str) -> float:
    """The SP the active side expects to lose at ``place`` in this supply phase if its sea
    supply there is cut — what fighting for the convoys may cost and still be worth it:
    siege attrition for a besieged garrison (§11.2), else forage (§10.3), each read from
    the rules' own tables over every roll of the d10."""
    side = state.active
    if roman_world().is_sea(place):
        return sum(
            share(f.strength(), r.loss) / 10
            for f in state.side_forces_at(place, side)
            for r in (supply.adrift_result(state, roll) for roll in range(10))
            if r.kind != "ok"
        )
    at = [f for f in state.side_forces_at(place, side) if ground_sp(f)]
    if under_siege(state, place) == enemy(side):
        rows = tables().siege.attrition
        return min(sum(rows[r] for r in range(10)) / 10, float(sum(ground_sp(f) for f in at)))
    lost = 0.0
    for f in at:
        for roll in range(10):
            res = supply.forage_result(state, f, roll)
            if res.kind != "ok":
                lost += share(f.strength(), res.loss) / 10
    return lost


def accept_battle(state: CampaignState) -> bool:
    """Accept a mutual battle at sea when the odds reach ``HOLD_IF`` or the fight costs the
    enemy more — and always in the waters of a port of ours the enemy besieges: its sea is
    its life (§11.2; Massilia's fleet fought Brutus twice, BC 1.56–58, 2.3–7)."""
    p = state.pending
    assert p is not None and p.kind == "naval_offer"
    place = p.data["place"]
    cmap = roman_world()
    for city, (besieger, _) in state.sieges.items():
        if besieger == state.active and cmap.spaces[city].port and (place == city or place in cmap.seas_of(city)):
            return True
    got = sea_odds(state, naval.mutual_engagement(state, place))
    return got["B"] >= HOLD_IF or costs_them_more(got, "B")


def choose_offer(state: CampaignState, legal: list[A.Action]) -> A.Action | None:
    """Offer battle at sea where the odds reach ``FIGHT_IF``."""
    for a in legal:
        if isinstance(a, A.OfferNaval) and sea_odds(state, naval.mutual_engagement(state, a.place))["A"] >= OFFER_IF:
            return a
    return None


# --------------------------------------------------------------------------- fleets


def fleets_wanted(state: CampaignState, side: str) -> bool:
    """Whether ``side`` should build a fleet: fewer than its ``FLEET_SHARE`` of the
    enemy's fleets, or fewer than ``FLEET_FLOOR``."""
    cat = catalogue()
    mine = sum(1 for f in state.forces_of(side) for u in f.units if cat.kind(u.kind).is_fleet)
    theirs = sum(1 for f in state.forces_of(enemy(side)) for u in f.units if cat.kind(u.kind).is_fleet)
    return mine < max(FLEET_FLOOR, FLEET_SHARE.get(side, 1.0) * theirs)


def fleet_recruit_value(state: CampaignState, side: str, city: str, ports: list[str] | None = None) -> float:
    """How much a fleet raised at ``city`` is worth while the side wants fleets: ``FLEET_BASE``
    in any port, ``FLEET_THEATRE`` more near a theatre of the war at sea (a port under siege,
    troops living on sea supply), most where a led army stands on the coast with too few
    ships to carry it.  ``ports``: ``theatres(state, side)`` when the caller weighs several
    ports of one state (worked out once)."""
    if not fleets_wanted(state, side):
        return 0.0
    cat = catalogue()
    best = FLEET_BASE
    if any(sea_dist(city, port) <= THEATRE_REACH for port in (theatres(state, side) if ports is None else ports)):
        best += FLEET_THEATRE
    for f in state.side_forces_at(city, side):
        if f.commander is None:
            continue
        carried = sum(1 for u in f.units if not cat.kind(u.kind).is_fleet and cat.kind(u.kind).embark)
        room = 2 * len(f.fleets())
        want = (5.0 if f.fleets() else 6.5) if room < carried else 3.5
        best = max(best, want)
    return best


def _fed_by_sea(state: CampaignState, side: str) -> list[str]:
    """The ports where ``side``'s troops live on sea supply (not its ships at sea)."""
    cmap = roman_world()
    return [p for p in supply.needs_sea(state, side) if not cmap.is_sea(p)]


def theatres(state: CampaignState, side: str) -> list[str]:
    """The ports where the war at sea is fought for ``side``: every port under siege, and
    the ports where either side's troops live on sea supply."""
    cmap = roman_world()
    out = {c for c in state.sieges if cmap.spaces[c].port}
    out.update(_fed_by_sea(state, side))
    out.update(_fed_by_sea(state, enemy(side)))
    return sorted(out)


# --------------------------------------------------------------------------- stations


def sea_dist(a: str, b: str) -> float:
    """Sea-lane cost between two ports or sea zones (99 when none joins them)."""
    d = roman_world().sea_distance(a, b)
    return 99.0 if d == float("inf") else d


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
            value = CLOSE_PORT if besieger == side else RELIEVE_PORT
            out += [(w, value) for w in waters(city)]
    for port in _fed_by_sea(state, foe):
        out += [(w, BLOCKADE) for w in waters(port)]
    # the escort: our troops living on sea supply
    for port in _fed_by_sea(state, side):
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
    #: the waters of a port under siege are held even against stronger ships: that is the fight
    held = any(g == d and v >= CLOSE_PORT for g, v in goals)
    mine = fleet_sp([f]) + fleet_sp([g for g in state.side_forces_at(d, side) if g.id != f.id])
    theirs = fleet_sp(state.side_forces_at(d, foe))
    near = {d, *(cmap.seas_of(d) if cmap.is_land(d) else [])}
    around = sum(fleet_sp(state.side_forces_at(p, foe)) for p in near)
    if theirs > mine * OUTGUN_RATIO or around > mine * OUTGUN_AROUND:
        score += 0.0 if held else OUTGUNNED
    if state.winter():
        if cmap.is_sea(d):
            score += WINTER_AT_SEA
        elif state.owner_side(d) == side:
            score += WINTER_HARBOUR
    return score


def main_squadron(state: CampaignState, side: str) -> Force | None:
    """``side``'s largest squadron (by fleet SP, then by id)."""
    squadrons = [f for f in state.forces_of(side) if is_squadron(f)]
    return max(squadrons, key=lambda f: (fleet_sp([f]), f.id), default=None)


def squadron_move(state: CampaignState, f: Force, options: list[A.March | A.Sail]) -> A.March | A.Sail | None:
    """The best station for squadron ``f`` among its moves, when better than staying; a
    squadron with nowhere to be makes for its side's main squadron, to fight beside it."""
    side = state.allegiance(f.side) or f.side
    goals = stations(state, side)
    main = main_squadron(state, side)
    if not goals and main is not None and main.id != f.id:
        goals = [(main.location, 0.0)]
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
