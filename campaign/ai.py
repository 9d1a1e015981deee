"""The campaign AI, for either side (docs/rules/campaign.md §14.2; docs/BALANCE.md).

``CampaignAI().choose(state)`` returns one action from ``campaign.engine.legal_actions``
— the AI never builds an action the generator did not offer.  It is deterministic: the
same state gives the same choice (its only chance is the battleboard's odds, run on
their own fixed seeds, never on the game's dice).

How it plays:
- **Stratagems**: keeps Military stratagems for marches and battles, then takes
  Political ones (the Res Publica and recruiting run on them), an Agent now and then; a
  side without a Supreme Leader takes a Political one first, to claim the succession.
- **Res Publica**: rolls its own party's table while its Political Requirement is not
  safely met and it has Political stratagems to spare — every one of them when it would win
  but for that Requirement, or late in the war; always claims a lost succession; its
  Tribune vetoes the enemy's results (§16.3: never the holder of Rome's).  In the last
  year it keeps Political stratagems for the tables, and the Senate works them until
  Caesar holds no marker (``GUARD_TURN``).
- **Recruiting**: assassins for the enemy's Supreme Leader, tribute for client states
  and neutral towns, legions where its armies stand, training of recruits, leaders for
  leaderless troops, colonies once it is strong, bribes and subversion of enemy
  garrisons and armies; a side with (nearly) no field army left **rebuilds** — legions,
  and a general to lead them, before anything else.
- **Movement**: joins leaderless troops to armies (never marching them into an enemy army's
  space: a battle nobody chose) and small armies to the main one;
  **concentrates** — two armies join, or one marches to the other, to meet an enemy army
  stronger than either; marches (or sails) each army toward the most valuable enemy
  places it can take — Rome, the income cities, provincial capitals — weighed by the
  distance it can really march (round the spaces of powers at peace); **hunts enemy
  armies it outnumbers** and marches into their space only when the real battleboard
  odds (``battleboard.resolve.odds``) favour it — from 47 BC farther, against armies up to
  1.4 times its size, at slightly lower odds: the war seeks its decision; values Rome above all
  once its Political Requirement is met without it; keeps away from armies it would lose
  to; keeps to supply and, in winter, to friendly cities.  **Fratricide care** (§21): the
  attack bar rises as fratricide nears its limit, and a battle likely to pass the limit is
  refused — reckoned with a wide margin for the battles still to come, a narrow one in the
  last year, whose battles decide the cities and Rome the war is judged on (BALANCE run 50).
- **Combat**: fights the battles it must with a stratagem or two, storms when the
  storm table gives even odds, offers battle at sea when its fleets are stronger.
- **Decisions**: intercepts and cuts supply with stronger fleets, accepts battle at sea
  when stronger, commits stratagems to the battles it must defend.
"""

from __future__ import annotations

from functools import cache, lru_cache

import networkx as nx

from bellum.engagement import Engagement
from campaign import actions as A
from campaign import ai_sea
from campaign.engine import legal_actions
from campaign.map import roman_world
from campaign.rules import naval, politics, supply
from campaign.rules.battle import land_engagement
from campaign.rules.clients import world_tables
from campaign.rules.siege import ground_sp, mobile_ground, storm_chance
from campaign.rules.supply import land_supplied, sea_supply_possible
from campaign.rules.victory import cities_held, political_requirement
from campaign.state import SIDES, CampaignState, enemy
from campaign.units import Force, catalogue

#: value of an enemy place (§14.2)
VALUE_ROME = 16.0
VALUE_INCOME = 6.0
VALUE_CAPITAL = 4.0
VALUE_CITY = 2.0
VALUE_REGION = 0.5
#: battleboard battles played to estimate the odds of an attack
ODDS_BATTLES = 4
#: attack when the odds of winning are at least this (docs/BALANCE.md: tuned toward one
#: major battle every four turns)
ATTACK_IF = 0.4
#: hunt an enemy army when our force (and friends with it) outnumbers it this much
HUNT_RATIO = 1.0
#: the value of hunting an enemy army: a base plus this much per enemy SP
HUNT_BASE = 10.0
HUNT_PER_SP = 0.8
#: … within this many movement points (by the roads it may march): an army far away will
#: have moved on long before it is reached
HUNT_RANGE = 24.0
#: from this turn on (January 47 BC) the war seeks its decision: armies hunt enemy armies
#: within LATE_HUNT_RANGE that they match LATE_HUNT_RATIO to 1
LATE_HUNT_TURN = 16
LATE_HUNT_RANGE = 40.0
LATE_HUNT_RATIO = 0.7
#: … and attack at this much lower odds
LATE_ATTACK_EASE = 0.07
#: keep away from an enemy army this much stronger than us
DANGER_RATIO = 1.8
OBJECTIVES = 10
#: the distance the AI reckons for a voyage between land spaces with no road between them
SEA_DETOUR = 12.0
#: value lost per movement point between a place and an objective
DISTANCE_COST = 0.4
#: at most this many battleboard odds a side computes in one movement phase
ODDS_BUDGET = 6
#: small armies join the main one
SMALL_ARMY = 8
#: … but no army grows past this by joining: more troops wait for a leader of their own
ARMY_CAP = 45
#: armies of a side concentrate against an enemy army within this many movement points
#: that is stronger than either alone: those in one space join (up to CONCENTRATE_CAP) …
CONCENTRATE_RANGE = 8.0
CONCENTRATE_CAP = 45
#: … and one next to a friend that together would match the enemy marches to it
CONCENTRATE_PULL = 8.0
#: while a side holds fewer than the Triumph's cities + this margin, a city is worth …
CITY_MARGIN = 4
#: … this much more
CITY_NEED = 3.0
#: a goal another army has already taken is worth this share to the next
CLAIMED = 0.35
#: from this share of the fratricide limit on, attacks need better odds …
FRATRICIDE_CARE = 0.45
#: … up to this much more at the limit
FRATRICIDE_BAR = 0.6
#: a side whose field armies are under this share of the enemy's recruits before politics
WEAK_SHARE = 0.7
#: refuse a battle likely to push fratricide past the limit (both sides, whoever is winning)
FRATRICIDE_GUARD = True
#: the share of the full legions on the field a battle is expected to kill (beaten armies
#: withdraw, break and are taken rather than die to the last man: battleboard.md §10.4–§12.3)
#: — reckoned high, a margin for the battles the enemy forces on us afterwards (BALANCE run 48)
FRATRICIDE_SHARE = 0.6
#: in the last year (from ``GUARD_TURN``, January 45 BC) the margin for the battles still to
#: come is small — a few turns, not years — so the guard reckons this share instead …
FRATRICIDE_SHARE_LAST = 0.25
#: … and the bar rises by at most this much at the limit: the war's last battles are
#: fought for the cities and Rome the judgement of January 44 BC counts (BALANCE run 50)
FRATRICIDE_BAR_LAST = 0.2
#: a side whose led field armies together have under this many SP, or under REBUILD_SHARE
#: of the enemy's, rebuilds: legions and leaders come before everything else (§17)
REBUILD_SP = 15
REBUILD_SHARE = 0.4
#: from this turn on (the last year and a quarter) a side failing its Political Requirement
#: spends every Political stratagem on the Res Publica
LATE_TURN = 30
#: the spoils of a victory are taken as Agents up to this many held (§12.4)
SPOILS_AGENTS = 2
#: a side holding Rome, the Triumph's cities and a Supreme Leader but failing its Political
#: Requirement works its party's table with every Political stratagem, from any turn (§21.1)
POLITICS_FIRST = True
#: a side meeting its Political Requirement without Rome values Rome this much more
ROME_NEED = 16.0
#: in the last year (from this turn, January 45 BC) a side not rebuilding keeps this many
#: Political stratagems in hand for the Res Publica — its Requirement is judged when the war
#: ends (§21.2) — and the Senate works the tables until Caesar holds no marker at all
GUARD_TURN = 32
GUARD_POLITICAL = 3
#: a client state's forces keep within this many movement points of its capital
CLIENT_RANGE = 16.0
#: march to relieve a besieged city of the side with this much of the besiegers' SP …
RELIEF_RATIO = 1.0
#: … for this value (plus the city's)
RELIEF_BASE = 9.0
#: fall upon a horde on the move (§19.4) with this much more SP than it has …
HORDE_RATIO = 1.5
#: … for this value (plus HUNT_PER_SP per horde SP): it would sack the side's cities
HORDE_BASE = 8.0


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
    return SEA_DETOUR  # across the sea: a voyage of a few turns


@lru_cache(maxsize=2048)
def _reach(closed: frozenset[str], source: str) -> dict[str, float]:
    """Land cost from ``source`` to every space, never entering a ``closed`` one."""
    land = roman_world()._land

    def cost(u: str, v: str, data: dict[str, int]) -> float | None:
        return None if v in closed else data["cost"]

    return {k: float(v) for k, v in nx.single_source_dijkstra_path_length(land, source, weight=cost).items()}


def road(closed: frozenset[str], a: str, b: str) -> float:
    """The distance from ``a`` to ``b`` by the roads an army may march — round the
    ``closed`` spaces of powers at peace (§8.3); with no road open, a voyage (``dist``'s
    sea crossing) or the whole network's distance, whichever is longer."""
    if a == b or not closed:
        return dist(a, b)
    if b not in distances() or a not in distances():
        return dist(a, b)
    got = _reach(closed, b).get(a)
    return got if got is not None else max(SEA_DETOUR, dist(a, b))


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


class CampaignAI:
    """A deterministic player for either side."""

    def __init__(self, odds_battles: int = ODDS_BATTLES, attack_if: float = ATTACK_IF) -> None:
        self.odds_battles = odds_battles
        self.attack_if = attack_if
        self._done: dict[tuple[int, str], set[str]] = {}
        self._odds: dict[tuple[int, str, str, int, int], float] = {}
        self._budget: dict[tuple[int, str], int] = {}
        self._missions: dict[tuple[int, str], dict[str, tuple[str, float]]] = {}

    # -- the entry point ------------------------------------------------------
    def choose(self, state: CampaignState) -> A.Action:
        legal = legal_actions(state)
        if not legal:
            raise ValueError("there is nothing to do")
        if state.pending is not None:
            return self._decide(state, legal)
        if state.phase == "movement":
            return self._move(state, legal)
        if state.phase == "combat":
            return self._combat(state, legal)
        if state.phase == "stratagems":
            return self._stratagems(state, legal)
        if state.phase == "res_publica":
            return self._res_publica(state, legal)
        if state.phase == "recruiting":
            return self._recruiting(state, legal)
        return legal[0]

    # -- decisions for the reactive side ---------------------------------------
    def _decide(self, state: CampaignState, legal: list[A.Action]) -> A.Action:
        p = state.pending
        assert p is not None
        decline = next((a for a in legal if isinstance(a, A.Decline)), legal[-1])
        if p.kind == "intercept":
            return ai_sea.choose_intercept(state, self._sea_options(state, legal)) or decline
        if p.kind == "cut_supply":
            return ai_sea.choose_cut(state, legal) or decline
        if p.kind == "escort":
            return ai_sea.choose_escort(state, self._sea_options(state, legal)) or decline
        if p.kind == "naval_offer":
            accept = next((a for a in legal if isinstance(a, A.Accept)), None)
            if accept is None or self.sea_fight_ends_the_war(state, naval.mutual_engagement(state, p.data["place"])):
                return decline
            return accept if ai_sea.accept_battle(state) else decline
        if p.kind == "spoils":
            return self._spoils(state, legal)
        if p.kind == "veto":
            # the Tribune negates every enemy result it may (one a turn)
            return next((a for a in legal if isinstance(a, A.Veto)), decline)
        commits = [a for a in legal if isinstance(a, A.Commit)]
        if commits:
            return commits[min(2, len(commits) - 1)]
        return decline

    def _spoils(self, state: CampaignState, legal: list[A.Action]) -> A.Action:
        """The spoils of a victory (campaign.md §12.4): Agents while the enemy's Supreme
        Leader is within their reach and the side holds fewer than ``SPOILS_AGENTS`` —
        Caesar's answer to Pompeius after his great victory in 004's report — else
        Military stratagems for the next battle."""
        p = state.pending
        assert p is not None
        side = p.actor
        target = state.supreme.get(enemy(side))
        reach = target is not None and target in politics.assassination_targets(state, side, need_agent=False)
        want = "agent" if reach and state.stratagems[side]["agent"] < SPOILS_AGENTS else "military"
        return next((a for a in legal if isinstance(a, A.Take) and a.kind == want), legal[0])

    # -- the political phases ----------------------------------------------------
    def _stratagems(self, state: CampaignState, legal: list[A.Action]) -> A.Action:
        side = state.active
        held = state.stratagems[side]
        takes = {a.kind: a for a in legal if isinstance(a, A.Take)}
        if not takes:
            return _pass(legal)
        if not state.supreme.get(side) and held["political"] < 1 and "political" in takes:
            return takes["political"]  # the succession is claimed with one (§17.6)
        late = state.turn >= LATE_TURN and not political_requirement(state, side)
        if (rebuilding(state, side) or late or only_politics_wanting(state, side)) and held["military"] >= 1:
            order = ["political", "military", "agent"]
        elif held["military"] < 2:
            order = ["military", "political", "agent"]
        elif held["agent"] < 1 and held["political"] >= 4 and state.turn % 4 == 0:
            order = ["agent", "political", "military"]
        elif held["political"] <= held["military"] + 2:
            order = ["political", "military", "agent"]
        else:
            order = ["military", "political", "agent"]
        for kind in order:
            if kind in takes:
                return takes[kind]
        return _pass(legal)

    def _res_publica(self, state: CampaignState, legal: list[A.Action]) -> A.Action:
        side = state.active
        claims = [a for a in legal if isinstance(a, A.Claim)]
        if claims:
            return claims[0]
        rolls = [a for a in legal if isinstance(a, A.Politics)]
        if not rolls:
            return _pass(legal)
        rp = state.res_publica
        mine, theirs = rp.get(side, 0), rp.get(enemy(side), 0)
        # Caesar needs 4 markers; the Senate 2 while Caesar holds at most 1 (§21)
        # — in the last year the Senate works until Caesar holds none, a margin for his rolls
        floor = 0 if state.turn >= GUARD_TURN else 1
        want = mine < 5 if side == SIDES[0] else (mine < 3 or theirs > floor)
        # an army much weaker than the enemy's keeps its Political stratagems for recruiting
        weak = _field_total(state, side) < WEAK_SHARE * _field_total(state, enemy(side))
        late = state.turn >= LATE_TURN and not political_requirement(state, side)
        need = 1 if late or only_politics_wanting(state, side) else (4 if weak else 2)
        if not want or state.stratagems[side]["political"] < need:
            return _pass(legal)
        party = "populares" if side == SIDES[0] else "optimates"
        return next((a for a in rolls if a.table == party), rolls[0])

    def _recruiting(self, state: CampaignState, legal: list[A.Action]) -> A.Action:
        side = state.active
        foe = enemy(side)
        cmap = roman_world()
        held = state.stratagems[side]
        armies = {f.location: f for f in state.forces_of(side) if f.commander and field_sp(f) > 0}
        mine_sp = sum(field_sp(f) for f in state.forces_of(side))
        their_sp = sum(field_sp(f) for f in state.forces_of(foe))
        rebuild = rebuilding(state, side)
        sea_war: list[str] | None = None  # the theatres of the war at sea, once for every port
        best: tuple[float, int, A.Action] | None = None
        for i, a in enumerate(legal):
            score = 0.0
            if isinstance(a, A.Assassinate):
                score = 4.5 if a.leader == state.supreme.get(foe) else 2.0
            elif isinstance(a, A.Tribute):
                if a.target in state.clients:
                    score = 8.0 if state.clients[a.target] == "neutral" else 5.0
                else:
                    score = 1.5 + place_value(a.target) * 0.4
            elif isinstance(a, A.Recruit):
                if a.kind in ("legion",):
                    score = 6.0 + (3.0 if a.city in armies else 0.0) + (2.0 if their_sp > mine_sp else 0.0)
                    score += 5.0 if rebuild else 0.0
                elif a.kind == "civis":
                    score = 2.0 + (2.0 if cmap.spaces[a.city].capital or a.city == "roma" else 0.0)
                elif a.kind in ("cavalry", "auxiliary"):
                    score = 3.0 + (1.0 if a.city in armies else 0.0)
                elif catalogue().kind(a.kind).is_fleet:
                    if sea_war is None:
                        sea_war = ai_sea.theatres(state, side)
                    score = ai_sea.fleet_recruit_value(state, side, a.city, sea_war)
                else:
                    score = 1.0
            elif isinstance(a, A.Train):
                score = 4.0 if held["military"] >= 3 else 0.0
            elif isinstance(a, A.RecruitLeader):
                leaderless = [
                    f
                    for f in state.forces_of(side)
                    if f.commander is None and (field_sp(f) >= 4 or ai_sea.loose_fleets(f))
                ]
                score = 5.0 if any(f.location == a.city for f in leaderless) else 0.5
                if rebuild and not armies and (a.city == "roma" or cmap.spaces[a.city].capital):
                    score = 7.0  # a general to raise and lead the new army
            elif isinstance(a, A.FoundColony):
                score = 3.5 if mine_sp > their_sp else 1.0
            elif isinstance(a, A.Bribe):
                if politics.garrison(state, foe, a.city):
                    # a rising is a siege weapon (campaign.md §18.2): only with our troops at
                    # the gates, best against a starving garrison
                    besieging = ground_sp(state, side, a.city) > 0
                    score = (3.5 if a.city in state.starving else 3.0) if besieging else 0.0
                else:
                    score = 3.0 + place_value(a.city) * 0.3
            elif isinstance(a, A.Subvert):
                score = 3.0
            if score > 0 and (best is None or score > best[0]):
                best = (score, -i, a)
        # keep a Political stratagem in hand for the next Res Publica phase unless rich
        if best is None or best[0] < 3.0 or (held["political"] <= 1 and best[0] < 6.0 and not rebuild):
            return _pass(legal)
        # in the last year, more: the Res Publica decides the Requirement at the end (§21.2)
        guard = state.turn >= GUARD_TURN and not rebuild and held["political"] <= GUARD_POLITICAL
        if guard and not isinstance(best[2], (A.Train, A.Assassinate)):
            return _pass(legal)
        return best[2]

    # -- combat -------------------------------------------------------------------
    def _combat(self, state: CampaignState, legal: list[A.Action]) -> A.Action:
        battles = [a for a in legal if isinstance(a, A.Battle)]
        if battles:
            place = battles[0].place
            options = [a for a in battles if a.place == place]
            return options[min(2, len(options) - 1)]
        best: tuple[float, A.Action] | None = None
        for a in legal:
            if isinstance(a, A.Storm):
                chance = storm_chance(state, a.city, a.force, a.stratagem)
                if chance >= 0.5 and (best is None or chance > best[0]):
                    best = (chance - (0.05 if a.stratagem else 0), a)
        if best is not None:
            return best[1]
        offer = ai_sea.choose_offer(state, self._sea_options(state, legal))
        if offer is not None:
            return offer
        return next((a for a in legal if isinstance(a, A.EndPhase)), legal[-1])

    # -- movement -----------------------------------------------------------------
    def _move(self, state: CampaignState, legal: list[A.Action]) -> A.Action:
        side = state.active
        done = self._done.setdefault((state.turn, side), set())
        by_force: dict[str, list[A.March | A.Sail]] = {}
        for a in legal:
            if isinstance(a, A.March | A.Sail):
                by_force.setdefault(a.force, []).append(a)
        ctx = _Context(state, side)
        # concentrate: leaderless troops join a led army where they stand; small armies
        # join bigger ones; two armies facing an enemy army stronger than either join
        for a in legal:
            if isinstance(a, A.Merge):
                src, dst = state.forces[a.force], state.forces[a.into]
                if ai_sea.is_squadron(src):
                    if ai_sea.joins(src, dst):
                        return a  # ships join ships: one stronger squadron (a leader's, if any)
                    continue
                if src.commander is None and dst.commander is not None and mobile_ground(src):
                    if field_sp(dst) < ARMY_CAP:
                        return a
                    continue  # the army is big enough: these troops wait for a leader of their own
                if not (src.commander and dst.commander) or (field_sp(src), src.id) >= (field_sp(dst), dst.id):
                    continue
                together = field_sp(src) + field_sp(dst)
                if field_sp(src) < SMALL_ARMY and together <= ARMY_CAP:
                    return a
                threat = ctx.threat(dst.location)
                if field_sp(dst) < threat <= together and together <= CONCENTRATE_CAP:
                    return a  # together they match an enemy army neither could meet alone
        forces = sorted(
            (state.forces[fid] for fid in by_force if fid not in done),
            key=lambda f: (-field_sp(f), f.id),
        )
        key = (state.turn, side)
        if key not in self._missions:
            self._missions[key] = missions(ctx)
        ctx.missions = self._missions[key]
        for f in forces:
            done.add(f.id)
            if ai_sea.is_squadron(f) and not ctx.missions.get(f.id):
                sq = ai_sea.squadron_move(state, f, by_force[f.id])
                if sq is not None:
                    return sq
                continue
            stay = self._score(ctx, f, f.location)
            best: tuple[float, A.March | A.Sail] | None = None
            for a in by_force[f.id]:
                if isinstance(a, A.March) and a.stratagem:
                    continue
                sea = isinstance(a, A.Sail)
                sc = self._score(ctx, f, a.to) - (1.0 if sea else 0.0)
                if best is None or sc > best[0]:
                    best = (sc, a)
            if best is not None and best[0] > stay + 0.1:
                act = best[1]
                boosted = A.March(act.force, act.to, act.path, True) if isinstance(act, A.March) else None
                if (
                    boosted in by_force[f.id]
                    and state.stratagems[side]["military"] >= 3
                    and f.commander
                    and field_sp(f) >= 10
                ):
                    act = boosted
                return act
        return next((a for a in legal if isinstance(a, A.EndPhase)), legal[-1])

    def _score(self, ctx: _Context, f: Force, d: str) -> float:
        cmap = roman_world()
        state, side = ctx.state, ctx.side
        if cmap.is_sea(d):
            return -5.0
        mine = field_sp(f)
        home = ctx.homes.get(f.side)
        if home is not None and dist(home, d) > CLIENT_RANGE:
            return -100.0  # client kings fight near home
        if f.side == "parthia" and f.commander and catalogue().leader(f.commander).role == "monarch" and d != home:
            return -100.0  # the King of Kings stays back; his satraps lead (004)
        if f.commander is None:
            # leaderless: go to the nearest led army of the side — never into an enemy army's
            # space: troops with no general seek no battle, and nobody would have weighed its
            # odds or its blood (BALANCE run 50)
            if ctx.field.get(d):
                return -100.0
            targets = [g.location for g in ctx.armies if g.id != f.id]
            return -min((ctx.dist(d, t) for t in targets), default=0.0)
        score = -20.0
        # its mission (an enemy place or army, shared out among the armies), else the best
        # of its objectives
        mission = ctx.missions.get(f.id)
        goals = [mission] if mission is not None else ctx.goals(f)
        for o, v in goals:
            score = max(score, v - DISTANCE_COST * ctx.dist(d, o))
        if state.owner_side(d) == ctx.foe and ctx.garrison.get(d, 0) == 0 and not ctx.field.get(d):
            score += place_value(d) + (ctx.bonus if cmap.spaces[d].kind == "city" else 0.0)
        if d in ctx.open:
            score += place_value(d) + ctx.bonus  # it submits at the next events phase
        # hold Rome when nobody else does
        if d == "roma" and state.owner_side(d) == side and not ctx.friendly.get("roma") and f.location == "roma":
            score += 4.0
        # concentration: a weak army moves toward the strongest friendly one (not too big)
        if mine < SMALL_ARMY and ctx.armies:
            big = max(ctx.armies, key=lambda g: (field_sp(g), g.id))
            if big.id != f.id and field_sp(big) < ARMY_CAP:
                score += 6.0 / (1.0 + dist(d, big.location))
        # … and an army facing an enemy army stronger than itself marches to a friend nearby
        # when together they would match it
        friend = ctx.partner(f)
        if friend is not None:
            score += CONCENTRATE_PULL / (1.0 + ctx.dist(d, friend.location))
        # a horde on the move: fall on it when strong enough, else keep out of its way
        horde = ctx.hordes.get(d, 0)
        if horde:
            if mine + ctx.friendly.get(d, 0) >= HORDE_RATIO * horde:
                score += HORDE_BASE + HUNT_PER_SP * horde
            else:
                score -= 30.0
        # battle and danger
        enemy_here = ctx.field.get(d, 0)
        if enemy_here:
            fight = self.would_fight(state, f, d)
            score += 10.0 + place_value(d) + HUNT_PER_SP * enemy_here if fight else -50.0
        for loc, sp in ctx.field.items():
            if loc != d and dist(d, loc) <= 4 and sp > DANGER_RATIO * (mine + ctx.friendly.get(d, 0)):
                score -= 3.0 * sp / max(1, mine)
        # supply and winter
        if not land_supplied(state, side, d) and not sea_supply_possible(state, side, d):
            score -= 6.0 if state.winter() else 3.0
        if state.winter() and cmap.spaces[d].kind == "city" and state.owner_side(d) == side:
            score += 3.0
        return score

    def would_fight(self, state: CampaignState, f: Force, d: str) -> bool:
        """Whether ``f`` would march into the enemy army at ``d``: the battleboard's odds
        reach the bar and the battle is not likely to end the war unwon (§21)."""
        if self._win_chance(state, f, d) < self.bar(state):
            return False
        return not (FRATRICIDE_GUARD and self.would_end_the_war(state, f, d))

    def bar(self, state: CampaignState) -> float:
        """The odds an attack needs: ``attack_if``, rising as fratricide nears the limit
        that ends the war with no winner (§21) — bloodshed grows costly for everyone; in the
        last year by less (``FRATRICIDE_BAR_LAST``): few turns remain for the blood to mount."""
        limit = world_tables().victory.fratricide_limit
        over = max(0.0, (state.fratricide - FRATRICIDE_CARE * limit) / ((1 - FRATRICIDE_CARE) * limit))
        ease = LATE_ATTACK_EASE if state.turn >= LATE_HUNT_TURN else 0.0
        rise = FRATRICIDE_BAR_LAST if state.turn >= GUARD_TURN else FRATRICIDE_BAR
        return min(0.95, self.attack_if - ease + rise * over)

    def would_end_the_war(self, state: CampaignState, f: Force, d: str) -> bool:
        """Whether a battle of ``f`` at ``d`` would likely push fratricide past its limit
        (§21) — an end with no winner that neither side seeks, even one that would lose if
        the war ended now: the consuls (§16.5), a beaten champion (§16.6) and the tables may
        still turn the war (BALANCE.md run 45).
        The estimate: ``FRATRICIDE_SHARE`` of the legions' SP of both sides die — a margin
        for the battles still to come — and in the last year (``GUARD_TURN`` on), with only
        months left for them, ``FRATRICIDE_SHARE_LAST``.  Every legion's SP count, not only
        full legions': worn legions killed add up in blocks of 5 too (§21.5)."""
        side = state.active
        theirs = sum(_legion_sp(g) for g in state.side_forces_at(d, enemy(side)))
        ours = _legion_sp(f) + sum(_legion_sp(g) for g in state.side_forces_at(d, side) if g.id != f.id)
        return _bleeds_white(state, theirs + ours)

    def sea_fight_ends_the_war(self, state: CampaignState, eng: Engagement) -> bool:
        """The same guard for a fight at sea (an interception, a convoy battle, a mutual
        battle): the legions aboard both sides' ships drown with them (004: passengers sink
        with their fleet), reckoned as on land."""
        return FRATRICIDE_GUARD and _bleeds_white(
            state, sum(u.strength for u in eng.units if u.kind in ("legion", "guard"))
        )

    def _sea_options(self, state: CampaignState, legal: list[A.Action]) -> list[A.Action]:
        """``legal`` without the sea fights the guard refuses (§21): interceptions, escorts
        and offers whose battle would likely end the war unwon."""
        out: list[A.Action] = []
        for a in legal:
            if isinstance(a, A.Intercept):
                eng = naval.interception_engagement(state, a.force)
            elif isinstance(a, A.Escort):
                eng = supply.convoy_engagement(state, a.place, a.force, state.cuts[a.place])
            elif isinstance(a, A.OfferNaval):
                eng = naval.mutual_engagement(state, a.place)
            else:
                out.append(a)
                continue
            if not self.sea_fight_ends_the_war(state, eng):
                out.append(a)
        return out

    def _win_chance(self, state: CampaignState, f: Force, d: str) -> float:
        """The battleboard's odds that ``f`` (with friends already there) wins a battle at
        ``d`` — the real resolver, on its own seeds; SP ratios settle the clear cases and
        stand in once the phase's budget of odds is spent."""
        side = state.active
        mine = field_sp(f) + sum(field_sp(g) for g in state.side_forces_at(d, side) if g.id != f.id)
        theirs = ground_sp(state, enemy(side), d)
        if mine < 0.7 * theirs:
            return 0.0
        if mine >= 2.5 * theirs:
            return 1.0
        key = (state.turn, f.id, d, mine, theirs)
        if key not in self._odds:
            spent = self._budget.get((state.turn, side), 0)
            if spent >= ODDS_BUDGET:
                return 1.0 if mine >= 1.5 * theirs else 0.0
            self._budget[(state.turn, side)] = spent + 1
            from battleboard.resolve import odds

            s = state.copy()
            s.forces[f.id] = f.model_copy(update={"location": d})
            eng = land_engagement(s, d, 0, 0)
            got = odds(eng, self.odds_battles, seed=1 + state.turn)
            # a draw that costs the enemy more than us counts half a win
            edge = 0.5 * got["draw"] if got["B_lost"] > got["A_lost"] else 0.0
            self._odds[key] = got["A"] + edge
        return self._odds[key]


def _bleeds_white(state: CampaignState, legion_sp: int) -> bool:
    """Whether a battle with ``legion_sp`` SP of legions on the field, both sides together,
    would likely push fratricide past its limit: ``FRATRICIDE_SHARE`` of them killed — in
    the last year (``GUARD_TURN`` on) ``FRATRICIDE_SHARE_LAST``."""
    share = FRATRICIDE_SHARE_LAST if state.turn >= GUARD_TURN else FRATRICIDE_SHARE
    return state.fratricide + share * legion_sp > world_tables().victory.fratricide_limit


def _legion_sp(force: Force) -> int:
    """The SP of Roman heavy infantry (legions, Guards): what fratricide counts (§21.5) —
    a worn legion's too, since the killed SP of a side add up in blocks of 5."""
    return sum(u.strength for u in force.units if u.kind in ("legion", "guard"))


def rebuilding(state: CampaignState, side: str) -> bool:
    """Whether ``side`` has (nearly) no field army left and must raise one (§14.2): its led
    armies together under ``REBUILD_SP``, or under ``REBUILD_SHARE`` of the enemy's."""
    led = sum(field_sp(f) for f in state.forces_of(side) if f.commander)
    theirs = sum(field_sp(f) for f in state.forces_of(enemy(side)) if f.commander)
    return led < REBUILD_SP or led < REBUILD_SHARE * theirs


def only_politics_wanting(state: CampaignState, side: str) -> bool:
    """Whether ``side`` would win but for its Political Requirement (§21.1): it holds Rome,
    the Triumph's cities and a Supreme Leader — then every Political stratagem goes to its
    party's table (``POLITICS_FIRST``)."""
    if not POLITICS_FIRST or political_requirement(state, side):
        return False
    if state.owner_side("roma") != side or not state.supreme.get(side):
        return False
    return cities_held(state, side) >= world_tables().victory.other_cities


def _field_total(state: CampaignState, side: str) -> int:
    return sum(field_sp(f) for f in state.forces_of(side))


def _pass(legal: list[A.Action]) -> A.Action:
    return next((a for a in legal if isinstance(a, A.Pass)), legal[-1])


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
        # victory (§21.1): while the side holds too few cities for a Triumph, every city
        # is worth more; towns of no side are taken by standing in them (§20.1)
        short = cities_held(state, side) < world_tables().victory.other_cities + CITY_MARGIN
        self.bonus = CITY_NEED if short else 0.0
        blocked = {f.location for f in state.forces.values() if f.units and state.allegiance(f.side) is None}
        #: spaces no army of the side may enter (§8.3): its distances go round them
        self.closed = frozenset(
            f.location
            for f in state.forces.values()
            if f.units and state.allegiance(f.side) is None and f.id not in state.roused and cmap.is_land(f.location)
        )
        #: a side meeting its Political Requirement without Rome needs Rome above all (§21.1)
        self.rome_need = ROME_NEED if political_requirement(state, side) and state.owner_side("roma") != side else 0.0
        self.targets = [
            (p, place_value(p) + self.bonus + (self.rome_need if p == "roma" else 0.0))
            for p in cmap.land_spaces()
            if cmap.spaces[p].kind == "city"
            and (state.owner_side(p) == self.foe or (state.owners.get(p) == "neutral" and p not in blocked))
        ]
        self.open = {p for p, _ in self.targets if state.owners.get(p) == "neutral"}
        self._cache: dict[str, list[tuple[str, float, int]]] = {}
        self.homes = {c.id: c.capital for c in world_tables().clients}
        #: hordes on the move (§19.4): where they stand and their SP
        self.hordes: dict[str, int] = {}
        for fid in state.roused:
            h = state.forces.get(fid)
            if h is not None and cmap.is_land(h.location):
                self.hordes[h.location] = self.hordes.get(h.location, 0) + h.strength()
        self.missions: dict[str, tuple[str, float]] = {}
        late = state.turn >= LATE_HUNT_TURN
        self.hunt_range = LATE_HUNT_RANGE if late else HUNT_RANGE
        self.hunt_ratio = LATE_HUNT_RATIO if late else HUNT_RATIO

    def dist(self, a: str, b: str) -> float:
        """Distance by the roads the side's armies may march (``road``)."""
        return road(self.closed, a, b)

    def threat(self, place: str) -> int:
        """The strongest enemy field army within ``CONCENTRATE_RANGE`` of ``place``."""
        return max((sp for loc, sp in self.field.items() if dist(place, loc) <= CONCENTRATE_RANGE), default=0)

    def partner(self, f: Force) -> Force | None:
        """The friendly army ``f`` should join: ``f`` faces a stronger enemy army nearby,
        and this friend (the strongest within range, bigger than ``f``) would make the two
        a match for it."""
        mine = field_sp(f)
        if f.commander is None or mine == 0:
            return None
        threat = self.threat(f.location)
        if threat <= mine:
            return None
        near = [
            g
            for g in self.armies
            if g.id != f.id
            and g.side == f.side
            and (field_sp(g), g.id) > (mine, f.id)
            and dist(f.location, g.location) <= CONCENTRATE_RANGE / 2
        ]
        if not near:
            return None
        g = max(near, key=lambda g: (field_sp(g), g.id))
        together = mine + field_sp(g)
        return g if together >= threat and together <= CONCENTRATE_CAP else None

    def goals(self, f: Force) -> list[tuple[str, float]]:
        """The places worth marching to for ``f``, with their values: enemy cities (a siege
        it can neither storm nor starve counts little) and enemy armies it outnumbers."""
        cmap = roman_world()
        mine = field_sp(f)
        out = []
        for o, v, garrison in self.objectives(f):
            # a walled city: stormed by an army with engineers, else starved — inland, or a
            # port whose sea the army's own ships can close (§11.2, §10.2)
            starve = not cmap.spaces[o].port or bool(f.fleets())
            if garrison and not f.can_storm() and (not starve or mine <= 2 * garrison):
                v *= 0.3  # a siege it can neither storm nor starve
            out.append((o, v))
        # relief: a city of ours under siege, when the army can match the besiegers (§11.4)
        for city, (besieger, _) in self.state.sieges.items():
            if besieger == self.foe and mine >= SMALL_ARMY:
                them = self.field.get(city, 0) + self.garrison.get(city, 0)
                if mine + self.friendly.get(city, 0) >= RELIEF_RATIO * them:
                    out.append((city, RELIEF_BASE + place_value(city)))
        if mine >= SMALL_ARMY:
            for loc, sp in self.field.items():
                near = self.dist(f.location, loc) <= self.hunt_range
                if sp and near and mine + self.friendly.get(loc, 0) >= self.hunt_ratio * sp:
                    out.append((loc, HUNT_BASE + HUNT_PER_SP * sp))
            for loc, sp in self.hordes.items():
                if mine >= HORDE_RATIO * sp:
                    out.append((loc, HORDE_BASE + HUNT_PER_SP * sp))
        return out

    def objectives(self, f: Force) -> list[tuple[str, float, int]]:
        """The few enemy cities most worth this army's while, from where it stands."""
        got = self._cache.get(f.id)
        if got is None:
            ranked = sorted(self.targets, key=lambda t: (DISTANCE_COST * self.dist(f.location, t[0]) - t[1], t[0]))
            got = [(p, v, self.garrison.get(p, 0)) for p, v in ranked[:OBJECTIVES]]
            self._cache[f.id] = got
        return got


def missions(ctx: _Context) -> dict[str, tuple[str, float]]:
    """Share the side's goals out among its armies, the strongest choosing first: a goal
    another army has taken is worth ``CLAIMED`` as much again, so armies open several
    theatres instead of all marching on the same city (§14.2)."""
    out: dict[str, tuple[str, float]] = {}
    claimed: dict[str, int] = {}
    for f in sorted(ctx.armies, key=lambda g: (-field_sp(g), g.id)):
        best: tuple[float, str, float] | None = None
        for o, v in ctx.goals(f):
            v *= CLAIMED ** claimed.get(o, 0)
            net = v - DISTANCE_COST * ctx.dist(f.location, o)
            if best is None or net > best[0]:
                best = (net, o, v)
        if best is not None:
            out[f.id] = (best[1], best[2])
            claimed[best[1]] = claimed.get(best[1], 0) + 1
    return out


def play_turns(session: object, turns: int, ais: dict[str, CampaignAI | None] | None = None) -> None:
    """Let the AI play ``session`` (a ``bellum.session.Session`` of the campaign) until
    ``turns`` more turns have begun or the war is over; sides mapped to None are not the
    AI's (then stop)."""
    from bellum.session import Session

    assert isinstance(session, Session)
    ai = CampaignAI()
    players = ais or {"caesarian": ai, "senatorial": ai}
    end = session.state.turn + turns
    while session.state.turn < end and not session.state.result:
        player = players.get(session.state.actor)
        if player is None:
            return
        session.play(player.choose(session.state))
