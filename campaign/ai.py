"""The campaign AI, for either side (docs/rules/campaign.md §14.2).

``CampaignAI().choose(state)`` returns one action from ``campaign.engine.legal_actions``
— the AI never builds an action the generator did not offer.  It is deterministic: the
same state gives the same choice (its only chance is the battleboard's odds, run on
their own fixed seeds, never on the game's dice).

What it does: joins leaderless troops to the nearest army and concentrates weak armies
on strong ones; marches (or sails) each army toward the most valuable enemy places it
can take — Rome, the income cities, provincial capitals — weighed by distance; attacks
an enemy army only when the real battleboard odds favour it, and stays out of reach of
armies it would lose to; keeps to supply and, in winter, to friendly cities; storms
when the storm table gives even odds; intercepts, cuts supply and accepts battle at sea
when its fleets are the stronger.
"""

from __future__ import annotations

from functools import cache

import networkx as nx

from campaign import actions as A
from campaign.engine import legal_actions
from campaign.map import roman_world
from campaign.rules.battle import land_engagement, max_commit
from campaign.rules.siege import ground_sp, mobile_ground, storm_chance
from campaign.rules.supply import land_supplied, sea_supply_possible
from campaign.state import CampaignState, enemy
from campaign.units import Force, catalogue

#: value of an enemy place (§14.2)
VALUE_ROME = 12.0
VALUE_INCOME = 6.0
VALUE_CAPITAL = 4.0
VALUE_CITY = 2.0
VALUE_REGION = 0.5
#: battleboard battles played to estimate the odds of an attack
ODDS_BATTLES = 4
ATTACK_IF = 0.6
OBJECTIVES = 10
#: value lost per movement point between a place and an objective
DISTANCE_COST = 0.4


@cache
def distances() -> dict[str, dict[str, int]]:
    """Land cost between every two land spaces (the march network's shortest paths)."""
    cmap = roman_world()
    return {a: dict(d) for a, d in nx.all_pairs_dijkstra_path_length(cmap._land, weight="cost")}


def dist(a: str, b: str) -> float:
    if a == b:
        return 0.0
    d = distances().get(a, {}).get(b)
    if d is not None:
        return float(d)
    return 12.0  # across the sea: a voyage of a few turns


def place_value(place: str) -> float:
    s = roman_world().spaces[place]
    if place == "roma":
        return VALUE_ROME
    if s.income:
        return VALUE_INCOME
    if s.capital:
        return VALUE_CAPITAL
    if s.kind == "city":
        return VALUE_CITY
    return VALUE_REGION


def field_sp(force: Force) -> int:
    cat = catalogue()
    return sum(u.strength for u in force.units if not cat.kind(u.kind).is_fleet and cat.kind(u.kind).mobile)


def fleet_sp(forces: list[Force]) -> int:
    return sum(u.strength for f in forces for u in f.fleets())


class CampaignAI:
    """A deterministic player for either side."""

    def __init__(self, odds_battles: int = ODDS_BATTLES) -> None:
        self.odds_battles = odds_battles
        self._done: dict[tuple[int, str], set[str]] = {}
        self._odds: dict[tuple[int, str, str, int], float] = {}

    # -- the entry point ------------------------------------------------------
    def choose(self, state: CampaignState) -> A.Action:
        legal = legal_actions(state)
        if not legal:
            raise ValueError("there is nothing to do")
        p = state.pending
        if p is not None:
            return self._decide(state, legal)
        if state.phase == "movement":
            return self._move(state, legal)
        if state.phase == "combat":
            return self._combat(state, legal)
        return legal[0]

    # -- decisions for the reactive side ---------------------------------------
    def _decide(self, state: CampaignState, legal: list[A.Action]) -> A.Action:
        p = state.pending
        assert p is not None
        me = p.actor
        if p.kind == "intercept":
            mover = state.forces[p.data["force"]]
            theirs = fleet_sp([mover])
            best = None
            for a in legal:
                if isinstance(a, A.Intercept):
                    mine = fleet_sp([state.forces[a.force]])
                    if mine >= theirs and (best is None or mine > best[0]):
                        best = (mine, a)
            return best[1] if best else A.Decline()
        if p.kind == "cut_supply":
            for a in legal:
                if isinstance(a, A.CutSupply):
                    mine = fleet_sp([state.forces[a.force]])
                    theirs = fleet_sp(state.side_forces_at(a.place, enemy(me)))
                    if mine >= theirs:
                        return a
            return A.Decline()
        if p.kind == "naval_offer":
            place = p.data["place"]
            mine = fleet_sp(state.side_forces_at(place, me))
            theirs = fleet_sp(state.side_forces_at(place, enemy(me)))
            return A.Accept() if mine * 5 > theirs * 6 else A.Decline()
        commits = [a for a in legal if isinstance(a, A.Commit)]
        return commits[min(1, len(commits) - 1)]

    # -- combat -------------------------------------------------------------------
    def _combat(self, state: CampaignState, legal: list[A.Action]) -> A.Action:
        side = state.active
        battles = [a for a in legal if isinstance(a, A.Battle)]
        if battles:
            place = battles[0].place
            n = min(1, max_commit(state, side, place))
            return A.Battle(place, n)
        best: tuple[float, A.Action] | None = None
        for a in legal:
            if isinstance(a, A.Storm):
                chance = storm_chance(state, a.city, a.force, a.stratagem)
                if chance >= 0.5 and (best is None or chance > best[0]):
                    best = (chance - (0.05 if a.stratagem else 0), a)
        if best is not None:
            return best[1]
        for a in legal:
            if isinstance(a, A.OfferNaval):
                mine = fleet_sp(state.side_forces_at(a.place, side))
                theirs = fleet_sp(state.side_forces_at(a.place, enemy(side)))
                if mine * 10 >= theirs * 13:
                    return a
        return A.EndPhase()

    # -- movement -----------------------------------------------------------------
    def _move(self, state: CampaignState, legal: list[A.Action]) -> A.Action:
        side = state.active
        done = self._done.setdefault((state.turn, side), set())
        by_force: dict[str, list[A.Action]] = {}
        for a in legal:
            if isinstance(a, A.March | A.Sail):
                by_force.setdefault(a.force, []).append(a)
        # concentrate: leaderless troops join a led army where they stand
        for a in legal:
            if isinstance(a, A.Merge):
                src, dst = state.forces[a.force], state.forces[a.into]
                if src.commander is None and dst.commander is not None and mobile_ground(src):
                    return a
                if src.commander and dst.commander and field_sp(src) < field_sp(dst) and field_sp(src) < 8:
                    return a
        forces = sorted(
            (state.forces[fid] for fid in by_force if fid not in done),
            key=lambda f: (-field_sp(f), f.id),
        )
        ctx = _Context(state, side)
        for f in forces:
            done.add(f.id)
            stay = self._score(ctx, f, f.location, sea=False)
            best: tuple[float, A.March | A.Sail] | None = None
            for a in by_force[f.id]:
                assert isinstance(a, A.March | A.Sail)
                if isinstance(a, A.March) and a.stratagem:
                    continue
                sea = isinstance(a, A.Sail)
                sc = self._score(ctx, f, a.to, sea=sea) - (1.0 if sea else 0.0)
                if best is None or sc > best[0]:
                    best = (sc, a)
            if best is not None and best[0] > stay + 0.1:
                act = best[1]
                boosted = A.March(act.force, act.to, act.path, True) if isinstance(act, A.March) else None
                if (
                    boosted in by_force[f.id]
                    and state.stratagems[side]["military"] >= 2
                    and f.commander
                    and field_sp(f) >= 10
                ):
                    act = boosted
                return act
        return A.EndPhase()

    def _score(self, ctx: _Context, f: Force, d: str, sea: bool) -> float:
        cmap = roman_world()
        state, side = ctx.state, ctx.side
        if cmap.is_sea(d):
            return -5.0
        mine = field_sp(f)
        if f.commander is None:
            # leaderless: go to the nearest led army of the side
            targets = [g.location for g in ctx.armies if g.id != f.id]
            return -min((dist(d, t) for t in targets), default=0.0)
        score = -20.0
        # objectives: enemy places, weighted by value and distance
        for o, v, garrison in ctx.objectives(f):
            if garrison and not f.can_storm() and (cmap.spaces[o].port or mine <= 2 * garrison):
                v *= 0.3  # a siege it can neither storm nor starve (sea supply)
            score = max(score, v - DISTANCE_COST * dist(d, o))
        if state.owner_side(d) == ctx.foe and ctx.garrison.get(d, 0) == 0 and not ctx.field.get(d):
            score += place_value(d)
        # concentration: a weak army moves toward the strongest friendly one
        if mine < 8 and ctx.armies:
            big = max(ctx.armies, key=lambda g: (field_sp(g), g.id))
            if big.id != f.id:
                score += 6.0 / (1.0 + dist(d, big.location))
        # battle and danger
        enemy_here = ctx.field.get(d, 0)
        if enemy_here:
            p = self._win_chance(state, f, d)
            score += 10.0 + place_value(d) if p >= ATTACK_IF else -50.0
        for loc, sp in ctx.field.items():
            if loc != d and dist(d, loc) <= 4 and sp > 1.2 * (mine + ctx.friendly.get(d, 0)):
                score -= 3.0 * sp / max(1, mine)
        # supply and winter
        if not land_supplied(state, side, d) and not sea_supply_possible(state, side, d):
            score -= 6.0 if state.winter() else 3.0
        if state.winter() and cmap.spaces[d].kind == "city" and state.owner_side(d) == side:
            score += 3.0
        return score

    def _win_chance(self, state: CampaignState, f: Force, d: str) -> float:
        """The battleboard's odds that ``f`` wins a battle it would fight at ``d``."""
        mine = field_sp(f) + sum(field_sp(g) for g in state.side_forces_at(d, state.active))
        theirs = ground_sp(state, enemy(state.active), d)
        if mine < 0.7 * theirs:
            return 0.0
        if mine >= 3 * theirs:
            return 1.0
        key = (state.turn, f.id, d, mine)
        if key not in self._odds:
            from battleboard.resolve import odds

            s = state.copy()
            s.forces[f.id] = f.model_copy(update={"location": d})
            eng = land_engagement(s, d, 0, 0)
            self._odds[key] = odds(eng, self.odds_battles, seed=1 + state.turn)["A"]
        return self._odds[key]


class _Context:
    """What the AI's scoring needs to know once per decision."""

    def __init__(self, state: CampaignState, side: str) -> None:
        cmap = roman_world()
        self.state = state
        self.side = side
        self.foe = enemy(side)
        self.armies = [f for f in state.forces_of(side) if f.commander is not None and field_sp(f) > 0]
        self.field: dict[str, int] = {}
        self.friendly: dict[str, int] = {}
        self.garrison: dict[str, int] = {}
        for f in state.forces.values():
            who = state.allegiance(f.side)
            if who == self.foe and cmap.is_land(f.location):
                if mobile_ground(f):
                    self.field[f.location] = self.field.get(f.location, 0) + field_sp(f)
                self.garrison[f.location] = self.garrison.get(f.location, 0) + sum(u.strength for u in f.units)
            elif who == side:
                self.friendly[f.location] = self.friendly.get(f.location, 0) + field_sp(f)
        self.targets = [
            (p, place_value(p))
            for p in cmap.land_spaces()
            if state.owner_side(p) == self.foe and cmap.spaces[p].kind == "city"
        ]
        self._cache: dict[str, list[tuple[str, float, int]]] = {}

    def objectives(self, f: Force) -> list[tuple[str, float, int]]:
        """The few enemy cities most worth this army's while, from where it stands."""
        got = self._cache.get(f.id)
        if got is None:
            ranked = sorted(self.targets, key=lambda t: (DISTANCE_COST * dist(f.location, t[0]) - t[1], t[0]))
            got = [(p, v, self.garrison.get(p, 0)) for p, v in ranked[:OBJECTIVES]]
            self._cache[f.id] = got
        return got


def play_turns(session: object, turns: int, ais: dict[str, CampaignAI | None] | None = None) -> None:
    """Let the AI play ``session`` (a ``bellum.session.Session`` of the campaign) until
    ``turns`` more turns have begun; sides mapped to None are not the AI's (then stop)."""
    from bellum.session import Session

    assert isinstance(session, Session)
    ai = CampaignAI()
    players = ais or {"caesarian": ai, "senatorial": ai}
    end = session.state.turn + turns
    while session.state.turn < end:
        player = players.get(session.state.actor)
        if player is None:
            return
        session.play(player.choose(session.state))
