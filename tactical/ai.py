"""The tactical AI (issue 5 §3): one ``choose(state)`` per decision, for either side, under the
full rules (docs/AI.md explains the policy and its measurements).

How it plays an activation:

- **Designation** (Activate / Continuity, 003 §3.2): every leader the generator offers is
  valued by the work his units can still do — units that can reach an enemy this activation
  or are engaged count most, then units that can rest off their hits — for the best order
  group (003 §4.2: one group per activation), times his Continuity odds ((Initiative + 1) / 10).
  Routed units in his range cost (their mandatory rally roll eliminates a routed unit on 4–9,
  003 §10.27).  It passes only when no leader has anything to do.
- **Leader move** (003 §4.2: before his units act): to the hex that brings most of the chosen
  group within his Command Range, stacked with a front-line unit where he adds +1 to its shock.
- **Unit moves**, one unit at a time, nearest the enemy first, each by its own search
  (``movement.reachable``), never the whole legal list.  An end (hex, facing) scores its
  attack (the shock DRM total from ``combat.shock_drms`` on the hypothetical position, read
  through the Shock Results chart), a routed enemy in front to cut down, flanks covered by
  friends, no enemy front on its flank or rear, facing the nearest enemy, and closing the
  distance.  Missile troops move into range but not into contact and fire; skirmishers with a
  target within a hit and run fire that way (003 §9.3).  Disordered units and units with many
  hits step back out of contact, and units with hits not next to an enemy stay to rally them
  off (003 §10.27).
- **Shocks** (003 §8.3: all designated before any is resolved): the attacker/defender options
  the generator would offer are ranked by the chart reading, and each defender's best is scored
  by its expected exchange from the exact odds (``tactical.odds.shock_odds``, combats of up to
  ``EXACT_ATTACKERS`` units): rout points and unit losses inflicted minus those suffered.
  Options are designated greedily,
  best first, while the exchange favours the attacker; engaged units that must attack
  (003 §7.3) go where they do best.  Designated combats are then resolved best first.
- **Rally**: units that rested remove their missile hits (003 §10.27), then the activation ends.
- **Reactions** (the defending side's decisions, docs/rules/tactical.md §8.13): before a shock,
  every option the generator offers — declining, reaction fire at each attacker — is scored by
  its expected exchange from the exact odds (``tactical.odds.shock_odds`` with that choice),
  and cavalry retreats before combat (003 §8.3) when even the best of them loses more than
  ``RBC_LOSS``; after a hit and run the target always fires back (it costs nothing, 003 §9.3).
  As an enemy moves up: a unit turns to face it (003 §7.16) when the shock it could then take
  — the real modifiers (``combat.shock_drms``) read through the Shock Results chart — weighed
  by the chance of the turning roll (a failure disorders) is clearly better than standing; a
  unit withdraws (000 §6.5) when the shock it faces is bad enough to pay the withdrawal's
  disorder chance (cavalry and skirmishers seen from the front pay none), to the hex farthest
  from the mover beside friends, mounted archers firing as they go; a leader alone withdraws to
  a friendly unit rather than be ridden down (000 §4.31).

Every action is checked against the rules engine (a dry run with no dice) before it is
returned; the one legal-action generator is asked only for designations and as a fallback.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from bellum.dice import Dice
from bellum.errors import DiceError, MissingRollError, RuleError
from tactical import charts, special
from tactical.actions import (
    Action,
    Activate,
    Continuity,
    Decline,
    Designate,
    Fire,
    Move,
    Pass,
    Rally,
    React,
    Reaction,
    Resolve,
    Shock,
    Start,
)
from tactical.combat import (
    engaged_must_attack,
    fire_check,
    hit_and_run_check,
    hit_and_run_zone,
    plan_shock,
    shock_drms,
    shock_reactions,
)
from tactical.command import check_command, in_range, order_key
from tactical.engine import apply, check_may_move, pending_mover
from tactical.hexes import CLOCK_FACING, flank_dirs
from tactical.legal import legal_actions
from tactical.movement import movement_allowance, reachable
from tactical.odds import fire_odds, shock_odds
from tactical.rout import rout_value
from tactical.state import State, Unit, frontal_hexes
from tactical.state import other as other_side

#: chance of a routed unit being eliminated by its mandatory rally roll (003 §10.27, New Rally
#: Table: a routed unit rolls on the TQ 1 row, 4-9 fails); used to value a leader's activation
ROUTED_RALLY_LOSS = 0.6


# -- valuing units and outcomes ---------------------------------------------------------------
def unit_loss(unit: Unit, status: str | None = None, hits: int | None = None) -> float:
    """How much of a unit is lost, in rout points: all of its rout value (003 §10.4) when it is
    eliminated, most of it when routed, a share for disorder, a reduced side and missile hits
    (more hits than its TQ eliminate it, 003 §8.15)."""
    rv = rout_value(unit)
    st = unit.status if status is None else status
    h = unit.missile_hits if hits is None else hits
    if st == "eliminated":
        return float(rv)
    if st == "off_map":
        return 0.2 * rv
    loss = {"routed": 0.7, "disordered": 0.15}.get(st, 0.0) * rv
    if unit.reduced:
        loss += 0.25 * rv
    if st != "routed" and h > 0:
        share = min(1.0, h / (unit.tq + 1))
        loss += 0.8 * rv * share**1.5
    return min(loss, float(rv))


def outcome_value(state: State, side: str, odds: dict[Any, Fraction]) -> float:
    """Expected exchange of a resolution for ``side``: the enemy's losses minus its own (in rout
    points, ``unit_loss``), a leader lost counting 4, over the exact outcome distribution."""
    total = 0.0
    for (_result, changed, hits, leaders), p in odds.items():
        new: dict[str, list[Any]] = {}
        for uid, status, _eng in changed:
            new.setdefault(uid, [status, None])[0] = status
        for uid, h in hits:
            new.setdefault(uid, [None, h])[1] = h
        v = 0.0
        for uid, (status, h) in new.items():
            u = state.units[uid]
            delta = unit_loss(u, status, h) - unit_loss(u)
            v += delta if u.side != side else -delta
        for lid in leaders:
            v += 4.0 if state.leaders[lid].side != side else -4.0
        total += float(p) * v
    return total


def _band_table(ruleset: str) -> dict[int, float]:
    """A quick reading of the Shock Results chart by modified roll (for ranking move ends, never
    for the decision to attack): the defender's expected loss minus the attacker's, for units of
    TQ 6 with no hits (charts-v1, 002 Shock Results; or 003 §8.3's result lines)."""
    table: dict[int, float] = {}
    for m in range(-8, 25):
        if ruleset == "charts-v1":
            row = charts.shock_result_v1(m)
            table[m] = _v1_effect_value(row.defender.unreduced) - _v1_effect_value(row.attacker.unreduced)
        else:
            res = charts.shock_result(ruleset, m).result
            table[m] = {
                "attacker_routs": -4.0,
                "attacker_disordered": -1.0,
                "no_effect": 0.0,
                "defender_disordered": 1.0,
                "defender_disordered_retreats": 1.5,
                "defender_routs": 4.0,
            }.get(res, 0.0)
    return table


def _v1_effect_value(eff: Any) -> float:
    kind = eff.kind
    if kind == "none":
        return 0.0
    hit = 0.45
    if kind == "hits":
        return float(eff.hits) * hit + (0.2 if eff.retreat else 0.0)
    if kind == "reduce":
        return 2.0
    if kind == "rout":
        return 4.0
    if kind == "check":
        fail = sum(1 for r in range(10) if r + eff.add > 6) / 10
        return fail * (4.0 if eff.fail == "rout" else 2.0) + (1 - fail) * (float(eff.hits) * hit + 0.2)
    return 0.0


_BANDS: dict[str, dict[int, float]] = {}


def band_value(ruleset: str, total: int) -> float:
    table = _BANDS.get(ruleset)
    if table is None:
        table = _BANDS[ruleset] = _band_table(ruleset)
    expected = 0.0
    for face in range(10):
        expected += table[max(-8, min(24, face + total))]
    return expected / 10


def _dry_run(state: State, action: Action) -> bool:
    """Whether the engine accepts ``action`` now (no die is rolled: a roll it needs means the
    checks before it passed)."""
    try:
        apply(state, action, Dice.forced([]))
    except MissingRollError:
        return True
    except RuleError:
        return False
    return True


# -- the position, read once per decision -----------------------------------------------------
@dataclass(slots=True)
class _Enemy:
    """What the enemy's position gives, cached while it does not change: where its units are,
    the hexes their fronts cover, and each hex's distance to the nearest enemy unit (``near``:
    fighting units only, routed ones left out; ``near_any``: every unit)."""

    enemies: list[Unit]
    enemy_at: dict[int, Unit]
    #: hex -> enemy units (not routed) whose front covers it
    fronts: dict[int, list[Unit]]
    near: list[int]
    near_any: list[int]


def distance_field(nbr: Sequence[int], size: int, sources: Iterable[int]) -> list[int]:
    """Hex steps from every hex to the nearest of ``sources`` (a breadth-first search)."""
    dist = [99] * size
    frontier = []
    for h in sources:
        if dist[h] != 0:
            dist[h] = 0
            frontier.append(h)
    d = 0
    while frontier:
        d += 1
        nxt = []
        for h in frontier:
            base = h * 6
            for k in range(6):
                j = nbr[base + k]
                if j >= 0 and dist[j] > d:
                    dist[j] = d
                    nxt.append(j)
        frontier = nxt
    return dist


@dataclass(slots=True)
class _View:
    state: State
    side: str
    enemy: _Enemy
    friend_at: dict[int, Unit]

    @property
    def enemy_at(self) -> dict[int, Unit]:
        return self.enemy.enemy_at

    @property
    def fronts(self) -> dict[int, list[Unit]]:
        return self.enemy.fronts

    def near(self, h: int, *, fighting: bool = True) -> int:
        return (self.enemy.near if fighting else self.enemy.near_any)[h]


def _enemy_key(state: State, side: str) -> tuple[Any, ...]:
    return (side, tuple((u.hex, u.hex2, u.facing, u.status) for u in state.units.values() if u.side != side))


def _enemy_view(state: State, side: str) -> _Enemy:
    grid = state.field.grid
    enemies: list[Unit] = []
    enemy_at: dict[int, Unit] = {}
    fronts: dict[int, list[Unit]] = {}
    fighting: list[int] = []
    for u in state.units.values():
        if not u.on_map or u.side == side:
            continue
        enemies.append(u)
        for h in u.hexes():
            enemy_at[h] = u
        if u.status != "routed":
            fighting.extend(u.hexes())
            for h in frontal_hexes(grid, u):
                fronts.setdefault(h, []).append(u)
    size = grid.size
    return _Enemy(
        enemies,
        enemy_at,
        fronts,
        distance_field(grid.nbr, size, fighting),
        distance_field(grid.nbr, size, enemy_at),
    )


@dataclass(slots=True)
class _Memory:
    """What the AI decided earlier in the same activation."""

    key: tuple[Any, ...]
    order: str | None = None
    leader_considered: bool = False
    done: set[str] = field(default_factory=set)
    rest: set[str] = field(default_factory=set)
    fired: set[str] = field(default_factory=set)
    queue: list[Designate] = field(default_factory=list)
    planned: bool = False
    value: dict[str, float] = field(default_factory=dict)


class TacticalAI:
    """A player for either side; ``choose(state)`` returns one legal action.

    It rolls no dice, so its play depends on the position and the activation's history only;
    ``seed`` is kept for the callers that pass one (the battle window, the campaign).

    ``threshold``: the least expected exchange (rout points) for which a voluntary shock is
    designated.  ``exact_top``: how many attack options per defender are scored with the exact
    odds after a quick reading of the chart ranks them.
    """

    def __init__(self, seed: int = 0, *, threshold: float = 0.05, exact_top: int = 1) -> None:
        self.seed = seed
        self.threshold = threshold
        self.exact_top = exact_top
        self._serial = 0
        self._mem: _Memory | None = None
        self._odds_cache: dict[Any, float] = {}
        self._enemy_cache: tuple[Any, _Enemy] | None = None
        #: the hex the unit being moved starts from (``_best_move``; its end hexes are scored)
        self._mover_start = -1

    def _view(self, state: State, side: str) -> _View:
        key = _enemy_key(state, side)
        if self._enemy_cache is None or self._enemy_cache[0] != key:
            self._enemy_cache = (key, _enemy_view(state, side))
        friend_at = {h: u for u in state.units.values() if u.on_map and u.side == side for h in u.hexes()}
        return _View(state, side, self._enemy_cache[1], friend_at)

    # -- entry point ----------------------------------------------------------------------
    def choose(self, state: State) -> Action:
        if state.reacting is not None:
            return self._react(state)
        phase = state.seq.phase
        if phase == "start":
            return Start()
        if phase in ("activation", "continuity"):
            action = self._designate_leader(state)
            self._serial += 1
            return action
        step = self._activation_step(state)
        if step is not None and _dry_run(state, step):
            return step
        return self._fallback(state)

    def _fallback(self, state: State) -> Action:
        acts = legal_actions(state)
        for kind in (Pass, Resolve):
            for a in acts:
                if isinstance(a, kind):
                    return a
        for a in acts:
            if isinstance(a, Shock | Designate):
                return a
        return acts[0]

    # -- designation of a leader ----------------------------------------------------------
    def _designate_leader(self, state: State) -> Action:
        acts = legal_actions(state)
        best: Action | None = None
        best_value = 0.0
        for a in acts:
            if not isinstance(a, Activate | Continuity):
                continue
            work, _ = self._leader_work(state, a.leader, a.group)
            odds = 1.0
            if isinstance(a, Continuity):
                odds = (state.leaders[a.leader].initiative + 1) / 10 if a.leader is not None else 0.2
            value = odds * work
            if value > best_value:
                best, best_value = a, value
        if best is not None:
            return best
        return next((a for a in acts if isinstance(a, Pass)), acts[0])

    def _leader_work(self, state: State, lid: str | None, group: tuple[str, ...] | None) -> tuple[float, str | None]:
        """What an activation of ``lid`` (or a leaderless group) can achieve, and the order group
        that achieves most (003 §4.2)."""
        side = state.seq.side
        view = self._view(state, side)
        held = self._held(state, side)
        leader = state.leaders[lid] if lid is not None else None
        per_group: dict[str | None, float] = {}
        rally = 0.0
        for u in state.units.values():
            if u.side != side or not u.on_map:
                continue
            if group is not None:
                if u.id not in group:
                    continue
            elif leader is not None and not in_range(state, leader, u):
                continue
            if u.status == "routed":
                near = view.near(u.hex)
                rally -= ROUTED_RALLY_LOSS * rout_value(u) * (0.3 if near <= 2 else 1.0)
                continue
            if u.status == "disordered":
                rally += 0.3 * rout_value(u) / 6
            key: str | None = None
            if leader is not None and not u.double_depth:
                try:
                    key = order_key(state, leader, u)
                except RuleError:
                    key = "-"
            w = self._unit_work(view, u, u.id in held)
            if key == "-":
                continue
            per_group[key] = per_group.get(key, 0.0) + w
        if not per_group:
            return rally, None
        key = max(per_group, key=lambda k: per_group[k])
        return per_group[key] + rally, key

    def _held(self, state: State, side: str) -> set[str]:
        """The side's units a scenario rule holds in place (``tactical.special.refuse_move``)."""
        if not special.active(state):
            return set()
        return {u.id for u in state.units.values() if u.side == side and u.on_map and special.refuse_move(state, u)}

    def _unit_work(self, view: _View, u: Unit, held: bool = False) -> float:
        d = view.near(u.hex, fighting=False)
        if u.engaged:
            return 1.0
        if u.missile_hits >= 2 and d > 1:
            return 0.6
        if held:
            front = frontal_hexes(view.state.field.grid, u)
            return 1.0 if any(j in view.enemy_at for j in front) else 0.0
        reach = movement_allowance(u) + (3 if u.missile else 1)
        if d <= reach:
            return 1.5
        return 0.4

    # -- one step of an activation --------------------------------------------------------
    def _memory(self, state: State) -> _Memory:
        seq = state.seq
        key = (self._serial, seq.side, seq.leader, seq.group, seq.streak)
        if self._mem is None or self._mem.key != key:
            self._mem = _Memory(key)
            if len(self._odds_cache) > CACHE_SIZE:
                self._odds_cache.clear()
        return self._mem

    def _activation_step(self, state: State) -> Action | None:
        mem = self._memory(state)
        seq = state.seq
        if seq.phase == "move":
            if mem.order is None and seq.leader is not None:
                _, mem.order = self._leader_work(state, seq.leader, None)
            if not mem.leader_considered:
                mem.leader_considered = True
                act = self._leader_move(state, mem)
                if act is not None:
                    return act
            act = self._next_unit(state, mem)
            if act is not None:
                return act
            act = self._next_fire(state, mem)
            if act is not None:
                return act
            if not mem.planned:
                self._plan_shocks(state, mem)
            if mem.queue:
                return mem.queue.pop(0)
            return self._rally_or_pass(state, mem)
        if seq.phase == "shock":
            if state.designating:
                if not mem.planned:
                    self._plan_shocks(state, mem)
                while mem.queue:
                    d = mem.queue.pop(0)
                    if _dry_run(state, d):
                        return d
                must = engaged_must_attack(state)
                if must:
                    d2 = self._forced(state, must[0])
                    if d2 is not None:
                        return d2
                return Resolve()
            if state.designations:
                return self._next_resolution(state, mem)
            return self._rally_or_pass(state, mem)
        return self._rally_or_pass(state, mem)

    # -- leader ---------------------------------------------------------------------------
    def _leader_move(self, state: State, mem: _Memory) -> Action | None:
        seq = state.seq
        if seq.leader is None or seq.leader_done:
            return None
        leader = state.leaders[seq.leader]
        try:
            check_may_move(state, leader)
        except RuleError:
            return None
        view = self._view(state, seq.side)
        held = self._held(state, seq.side)
        grid = state.field.grid
        mine = []
        for u in state.units.values():
            if u.side != seq.side or not u.on_map or u.status == "routed" or u.engaged:
                continue
            try:
                if not u.double_depth and order_key(state, leader, u) != mem.order:
                    continue
            except RuleError:
                continue
            mine.append((u, self._unit_work(view, u, u.id in held)))
        if not mine:
            return None
        reach = reachable(state, leader)
        best_node, best_score = reach.costs.start, None
        for node in reach.ends():
            h = node // 6
            here = view.friend_at.get(h)
            if here is None and node != reach.costs.start:
                continue  # he goes from unit to unit: alone near the enemy he is caught (000 §4.31)
            score = sum(w for u, w in mine if grid.distance(h, u.hex) <= leader.range)
            if here is not None:
                score += 0.5 if view.near(h) == 1 else 0.2
            score -= 0.001 * reach.dist[node]
            if best_score is None or score > best_score + 1e-9:
                best_node, best_score = node, score
        if best_node == reach.costs.start:
            return None
        return Move(leader.id, reach.notations([best_node])[best_node])

    # -- units ----------------------------------------------------------------------------
    def _eligible(self, state: State, mem: _Memory) -> list[Unit]:
        seq = state.seq
        out = []
        leader = state.leaders.get(seq.leader) if seq.leader is not None else None
        for u in state.units.values():
            if u.side != seq.side or not u.on_map or u.id in mem.done:
                continue
            if u.status == "routed" or u.engaged or u.id in state.moved or u.id in state.fought:
                continue
            if leader is not None and seq.order is None and mem.order is not None and not u.double_depth:
                try:
                    if order_key(state, leader, u) != mem.order:
                        continue
                except RuleError:
                    continue
            try:
                check_may_move(state, u)
            except RuleError:
                continue
            out.append(u)
        return out

    def _next_unit(self, state: State, mem: _Memory) -> Action | None:
        side = state.seq.side
        view = self._view(state, side)
        units = self._eligible(state, mem)
        units.sort(key=lambda u: (view.near(u.hex, fighting=False), u.id))
        for u in units:
            mem.done.add(u.id)
            act = self._unit_action(state, view, mem, u)
            if act is not None:
                return act
        return None

    def _unit_action(self, state: State, view: _View, mem: _Memory, u: Unit) -> Action | None:
        d = view.near(u.hex, fighting=False)
        weak = u.status == "disordered" or (u.missile_hits >= 2 and u.missile_hits >= u.tq // 2)
        if u.missile is not None and u.status == "full" and u.type in ("SK", "SK*", "LI", "LC"):
            hr = self._hit_and_run(state, u)
            if hr is not None:
                mem.fired.add(u.id)
                return hr
        if weak or (u.missile_hits >= 2 and d > 1):
            if d > 2 or (d == 2 and u.missile_hits < u.tq // 2):
                # out of reach of a blow: stay and rally (003 §10.27)
                if u.status == "full" and u.missile_hits > 0:
                    mem.rest.add(u.id)
                return None
            return self._best_move(state, view, u, self._score_withdraw)
        if u.missile is not None and (u.skirmisher or u.type == "LC"):
            return self._best_move(state, view, u, self._score_missile)
        return self._best_move(state, view, u, self._score_fighter)

    def _best_move(self, state: State, view: _View, u: Unit, scorer: Any) -> Action | None:
        reach = reachable(state, u)
        start = reach.costs.start
        self._mover_start = u.hex
        scratch = state.copy()
        su = scratch.units[u.id]
        best_node, best = start, None
        for node in reach.ends():
            s = scorer(scratch, view, su, node)
            s -= 0.01 * reach.dist[node]
            if best is None or s > best + 1e-9:
                best_node, best = node, s
        su.hex, su.facing = u.hex, u.facing
        if best_node == start:
            return None
        return Move(u.id, reach.notations([best_node])[best_node])

    def _front(self, state: State, h: int, f: int) -> tuple[int, int]:
        nbr = state.field.grid.nbr
        return nbr[h * 6 + (f + 5) % 6], nbr[h * 6 + f]

    def _score_fighter(self, scratch: State, view: _View, su: Unit, node: int) -> float:
        h, f = divmod(node, 6)
        grid = scratch.field.grid
        nbr = grid.nbr
        front = self._front(scratch, h, f)
        targets = {view.enemy_at[j].id: view.enemy_at[j] for j in front if j in view.enemy_at}
        score = 0.0
        if targets:
            su.hex, su.facing = h, f
            best = -9.0
            for t in targets.values():
                if t.status == "routed":
                    best = max(best, 1.5 * rout_value(t))
                    continue
                if charts.attack_refusal(scratch.ruleset, su.type, t.type) is not None:
                    continue
                st = scratch.units[t.id]
                try:
                    total = sum(shock_drms(scratch, [su], st, su).values())
                except (RuleError, AssertionError):
                    continue
                threat = band_value(scratch.ruleset, total)
                if self._would_withdraw(scratch, view, su, st, threat):
                    # it steps back as we come within two hexes (000 §6.5): no shock, only the
                    # disorder its withdrawal may cost it
                    cost = 1.0 if st.status == "full" else ROUT_COST
                    gain = self._withdraw_disorder_chance(scratch, su, st) * cost
                    best = max(best, 0.5 * gain * (rout_value(t) / 6) + 0.2)
                    continue
                best = max(best, threat * (rout_value(t) / 6) + 0.5)
            score += best if best > -9.0 else -1.0
        else:
            d = view.near(h)
            score -= 0.5 * d
            fd = min((view.near(j) for j in front if j >= 0), default=99)
            score += 0.3 if fd < d else -0.6
        # an enemy front on our flank or rear
        for e in view.fronts.get(h, ()):
            if e.id not in targets:
                score -= 1.2
        # friends beside us keep the line
        for dd in flank_dirs(f):
            j = nbr[h * 6 + dd]
            if j >= 0 and j in view.friend_at and view.friend_at[j].id != su.id:
                score += 0.35
        return score

    def _would_withdraw(self, scratch: State, view: _View, su: Unit, target: Unit, threat: float) -> bool:
        """Whether ``target`` may withdraw as ``su`` comes up (000 §6.51: a higher MA, not
        engaged, not double-sized or a chariot, the mover not within two hexes of it before the
        move) and would, as this AI answers (``_withdraw_gain``: the shock it avoids against the
        withdrawal's disorder, ``WITHDRAW_GAIN``)."""
        if target.engaged or target.double or target.type == "CH" or target.status == "routed":
            return False
        if movement_allowance(target) <= movement_allowance(su):
            return False
        start = self._mover_start
        if start < 0 or scratch.field.grid.distance(start, target.hex) <= 2:
            return False
        cost = 1.0 if target.status == "full" else ROUT_COST
        return threat - self._withdraw_disorder_chance(scratch, su, target) * cost > WITHDRAW_GAIN

    def _score_missile(self, scratch: State, view: _View, su: Unit, node: int) -> float:
        h, f = divmod(node, 6)
        assert su.missile is not None
        rng = charts.missile_range(su.missile)
        d = view.near(h, fighting=False)
        score = 0.0
        if d <= 1:
            front = self._front(scratch, h, f)
            if su.type == "LC" and any(j in view.enemy_at and view.enemy_at[j].status == "routed" for j in front):
                return 2.0
            score -= 2.5
        elif d <= rng:
            fd = min((view.near(j, fighting=False) for j in self._front(scratch, h, f) if j >= 0), default=99)
            score += 1.5 if fd < d else 0.3
        else:
            score -= 0.5 * (d - rng)
        if h in view.fronts:
            score -= 1.5
        return score

    def _score_withdraw(self, scratch: State, view: _View, su: Unit, node: int) -> float:
        h, _ = divmod(node, 6)
        d = view.near(h, fighting=False)
        score = float(min(d, 4))
        if h in view.fronts:
            score -= 3.0
        return score

    # -- missile fire ---------------------------------------------------------------------
    def _fire_value(self, state: State, action: Fire) -> float:
        key = ("fire", action, _fingerprint(state, (action.unit, action.target)))
        hit = self._odds_cache.get(key)
        if hit is None:
            try:
                local = _local(state, state.units[action.target])
                # a light horse's hit and run starts up to 4 MP off (003 §9.41): beyond the
                # local radius, so the firer is kept in the position too
                local.units.setdefault(action.unit, state.units[action.unit])
                hit = outcome_value(state, state.seq.side, fire_odds(local, action))
            except (RuleError, DiceError):
                hit = -99.0
            self._odds_cache[key] = hit
        return hit

    def _best_target(self, state: State, u: Unit, *, hit_and_run: bool) -> Fire | None:
        """The target whose exact fire odds (``tactical.odds.fire_odds``) do most, among the two
        the quick reading ranks first: nearest (the hit number falls with range, 002 Missile
        chart), then the one nearest elimination by hits (003 §8.15)."""
        grid = state.field.grid
        zone = hit_and_run_zone(state, u) if hit_and_run else None
        valid: list[tuple[int, float, str]] = []
        for e in state.units.values():
            if not e.on_map or e.side == u.side:
                continue
            d = min(grid.distance(a, b) for a in u.hexes() for b in e.hexes())
            if d > 6:
                continue
            try:
                if zone is not None:
                    hit_and_run_check(state, u, e, zone)
                else:
                    fire_check(state, u, e)
            except RuleError:
                continue
            valid.append((d, -(e.missile_hits + 1) / (e.tq + 1), e.id))
        best: Fire | None = None
        best_v = 0.0
        for _d, _h, eid in sorted(valid)[:2]:
            action = Fire(u.id, eid, hit_and_run=hit_and_run)
            v = self._fire_value(state, action)
            if v > best_v:
                best, best_v = action, v
        return best

    def _hit_and_run(self, state: State, u: Unit) -> Action | None:
        if u.id in state.moved or u.id in state.fired:
            return None
        return self._best_target(state, u, hit_and_run=True)

    def _next_fire(self, state: State, mem: _Memory) -> Action | None:
        seq = state.seq
        for u in sorted(state.units.values(), key=lambda x: x.id):
            if u.side != seq.side or not u.on_map or u.missile is None or u.id in state.fired:
                continue
            if u.id in mem.fired or u.status != "full" or u.engaged:
                continue
            mem.fired.add(u.id)
            try:
                check_command(state, u)
            except RuleError:
                continue
            best = self._best_target(state, u, hit_and_run=False)
            if best is not None and _dry_run(state, best):
                return best
        return None

    # -- shocks ---------------------------------------------------------------------------
    def _shock_value(self, state: State, atts: tuple[str, ...], defender: str) -> float:
        key = ("shock", atts, defender, _fingerprint(state, (*atts, defender)))
        hit = self._odds_cache.get(key)
        if hit is None:
            hit = self._quick(state, atts, defender)
            if len(atts) <= EXACT_ATTACKERS and hit > -99.0 and _leaders_in(state, (*atts, defender)) <= EXACT_LEADERS:
                try:
                    local = _local(state, state.units[defender])
                    hit = outcome_value(state, state.seq.side, shock_odds(local, Shock(atts, defender)))
                    hit = min(hit, self._answered(state, local, Shock(atts, defender)))
                except DiceError:
                    pass  # too many dice to enumerate: the chart reading stands
            self._odds_cache[key] = hit
        return hit

    def _answered(self, state: State, local: State, shock: Shock) -> float:
        """The shock's worth after the defender's best answer (docs/rules/tactical.md §8.13):
        reaction fire at each attacker (003 §8.2, with ``reduce_hits`` where offered) by the
        exact odds, a retreat before combat (003 §8.3) spending the attack for nothing.  The
        defender chooses, so the attacker counts the answer worst for it (+inf when none)."""
        worst = float("inf")
        for r in shock_reactions(local, shock):
            if r.rbc is not None:
                worst = min(worst, 0.0)
                continue
            trial = dataclasses.replace(shock, reaction_fire=r.fire, reduce_hits=r.reduce_hits)
            try:
                worst = min(worst, outcome_value(state, state.seq.side, shock_odds(local, trial)))
            except RuleError:
                continue
        return worst

    def _options(self, state: State) -> dict[str, list[str]]:
        """Defender -> the attackers that may shock it now (003 §8.3)."""
        seq = state.seq
        grid = state.field.grid
        taken = {a for atts, _ in state.designations for a in atts}
        out: dict[str, list[str]] = {}
        enemy_at: dict[int, Unit] = {}
        for e in state.units.values():
            if e.on_map and e.side != seq.side:
                for h in e.hexes():
                    enemy_at[h] = e
        for u in sorted(state.units.values(), key=lambda x: x.id):
            if u.side != seq.side or not u.on_map or u.status == "routed" or u.id in state.fought or u.id in taken:
                continue
            seen: set[str] = set()
            for j in frontal_hexes(grid, u):
                foe = enemy_at.get(j)
                if foe is None or foe.id in seen:
                    continue
                seen.add(foe.id)
                try:
                    plan_shock(state, Shock((u.id,), foe.id))
                except RuleError:
                    continue
                out.setdefault(foe.id, []).append(u.id)
        return out

    def _plan_shocks(self, state: State, mem: _Memory) -> None:
        """Greedy designation (003 §8.3): the options with the best expected exchange first."""
        mem.planned = True
        options = self._options(state)
        candidates: list[tuple[float, tuple[str, ...], str]] = []
        for d, atts in options.items():
            combos: set[tuple[str, ...]] = {(a,) for a in atts}
            if len(atts) > 1:
                combos.add(tuple(atts))
            if len(atts) > 2:
                combos.update((a, b) for i, a in enumerate(atts) for b in atts[i + 1 :])
            quick = {c: self._quick(state, c, d) for c in combos}
            ranked = sorted(combos, key=lambda c: (-quick[c], c))
            for c in ranked[: self.exact_top]:
                if quick[c] < QUICK_FLOOR:
                    break  # the chart alone says it is a losing exchange: no need for the exact odds
                candidates.append((self._shock_value(state, c, d), c, d))
        candidates.sort(key=lambda x: (-x[0], x[2], x[1]))
        used: set[str] = set()
        chosen: dict[str, tuple[str, ...]] = {}
        for v, c, d in candidates:
            if v < self.threshold:
                break
            if d in chosen or used & set(c):
                continue
            chosen[d] = c
            used.update(c)
            mem.value[d] = v
        # engaged units that must attack (003 §7.3): their best defender
        must = {u.id for u in engaged_must_attack(state)} - used
        for uid in sorted(must):
            best_d, best_v = None, -1e9
            for d, atts in options.items():
                if uid not in atts:
                    continue
                c = (*chosen.get(d, ()), uid)
                v = self._shock_value(state, c, d) - mem.value.get(d, 0.0)
                if v > best_v:
                    best_d, best_v = d, v
            if best_d is not None:
                chosen[best_d] = (*chosen.get(best_d, ()), uid)
                used.add(uid)
                mem.value[best_d] = mem.value.get(best_d, 0.0) + best_v
        mem.queue = [Designate(c, d) for d, c in sorted(chosen.items(), key=lambda kv: -mem.value.get(kv[0], 0.0))]

    def _quick(self, state: State, atts: tuple[str, ...], defender: str) -> float:
        try:
            plan = plan_shock(state, Shock(atts, defender))
        except RuleError:
            return -99.0
        if plan.defender.status == "routed":
            return 10.0
        return band_value(state.ruleset, plan.total) - 0.1 * len(atts)

    def _forced(self, state: State, unit: Unit) -> Designate | None:
        options = self._options(state)
        best: Designate | None = None
        best_v = -1e9
        for d, atts in options.items():
            if unit.id not in atts:
                continue
            v = self._quick(state, (unit.id,), d)
            if v > best_v:
                best, best_v = Designate((unit.id,), d), v
        return best

    def _next_resolution(self, state: State, mem: _Memory) -> Action:
        pending = sorted(state.designations, key=lambda ad: -mem.value.get(ad[1], 0.0))
        atts, d = pending[0]
        return Shock(tuple(atts), d)

    # -- rally and the end of the activation -----------------------------------------------
    def _rally_or_pass(self, state: State, mem: _Memory) -> Action:
        if not state.designations:
            grid = state.field.grid
            for uid in sorted(mem.rest):
                u = state.units[uid]
                if not u.on_map or u.status != "full" or u.missile_hits <= 0 or uid in state.rallied:
                    continue
                if uid in state.moved or uid in state.fought or uid in state.fired:
                    continue
                if any(
                    e.on_map and e.side != u.side and grid.distance(e.hex, u.hex) <= 1 for e in state.units.values()
                ):
                    continue
                act = Rally(uid)
                if _dry_run(state, act):
                    mem.rest.discard(uid)
                    return act
                mem.rest.discard(uid)
        return Pass()

    # -- the defender's decisions (docs/rules/tactical.md §8.13) -----------------------------------
    def _react(self, state: State) -> Action:
        p = state.reacting
        assert p is not None
        reacts = [a for a in legal_actions(state) if isinstance(a, React)]
        if not reacts:
            return Decline()
        if p.kind == "fire":
            return reacts[0]  # return fire costs the target nothing (003 §9.3)
        if p.kind == "shock":
            return self._shock_reaction(state, p.action, reacts)
        if p.kind == "rampage":
            return self._rampage_reaction(state, state.units[p.action.elephant], reacts)
        return self._move_reaction(state, pending_mover(state, p), reacts)

    def _rampage_reaction(self, state: State, elephant: Unit, reacts: list[React]) -> Action:
        """Withdraw before a rampage (000 §6.51) the unit that gains most: its chance of being
        disordered by the rampage's roll (over its TQ, 003 §9.14) against the withdrawal's own
        disorder chance (000 §6.52), a rout costing ``ROUT_COST`` for a unit already disordered;
        only to an end beyond the rampage's two hexes."""
        grid = state.field.grid
        best: Action = Decline()
        best_v = 0.0
        by_unit: dict[str, list[Reaction]] = {}
        for a in reacts:
            r = a.reaction
            if r is None or r.withdraw is None:
                continue
            end = grid.index(r.withdraw[-1])
            if min(grid.distance(end, h) for h in elephant.hexes()) > 2:
                by_unit.setdefault(r.unit, []).append(r)
        for uid, options in sorted(by_unit.items()):
            unit = state.units[uid]
            cost = 1.0 if unit.status == "full" else ROUT_COST
            trampled = max(0.0, (9 - unit.tq) / 10) * cost
            v = trampled - self._withdraw_disorder_chance(state, elephant, unit) * cost
            if v > best_v + 1e-9:
                best, best_v = React(reaction=self._withdraw_to(state, elephant, options)), v
        return best

    def _shock_reaction(self, state: State, shock: Shock, reacts: list[React]) -> Action:
        """The option with the best expected exchange for the defender (exact odds); a retreat
        before combat when even that loses more than ``RBC_LOSS`` rout points."""
        side = state.acting
        local = _local(state, state.units[shock.defender])

        def value(r: React | None) -> float | None:
            trial = dataclasses.replace(
                shock,
                reaction_fire=r.fire if r else None,
                retreat_before_combat=None,
                reduce_hits=r.reduce_hits if r else False,
            )
            try:
                return outcome_value(state, side, shock_odds(local, trial))
            except (RuleError, DiceError):
                return None

        best: Action = Decline()
        best_v = value(None)
        if best_v is None:
            best_v = 0.0
        for r in reacts:
            if r.rbc is not None:
                continue
            v = value(r)
            if v is not None and v > best_v + 1e-9:
                best, best_v = r, v
        retreats = [r for r in reacts if r.rbc is not None]
        if retreats and best_v < -RBC_LOSS:
            return max(retreats, key=lambda r: self._rbc_score(state, shock, r))
        return best

    def _rbc_score(self, state: State, shock: Shock, r: React) -> tuple[int, int, str]:
        grid = state.field.grid
        end = grid.index((r.rbc or ("",))[-1])
        side = state.acting
        foe = min(grid.distance(end, h) for a in shock.attackers for h in state.units[a].hexes())
        friends = sum(1 for u in state.units.values() if u.on_map and u.side == side and grid.distance(end, u.hex) == 1)
        return (foe, friends, r.notation())

    def _move_reaction(self, state: State, mover: Unit, reacts: list[React]) -> Action:
        best: Action = Decline()
        best_v = 0.0
        by_unit: dict[str, list[Reaction]] = {}
        for a in reacts:
            if a.reaction is not None:
                by_unit.setdefault(a.reaction.unit, []).append(a.reaction)
        for uid, options in sorted(by_unit.items()):
            for o in options:
                if o.face is not None:
                    v = self._facing_gain(state, mover, o)
                    if v > max(best_v, FACE_GAIN):
                        best, best_v = React(reaction=o), v
            withdrawals = [o for o in options if o.withdraw is not None]
            if withdrawals:
                v = self._withdraw_gain(state, mover, uid)
                if v > max(best_v, WITHDRAW_GAIN):
                    best, best_v = React(reaction=self._withdraw_to(state, mover, withdrawals)), v
        return best

    def _threat(self, state: State, mover: Unit, unit: Unit) -> float:
        """What a shock by ``mover`` on ``unit`` would give the mover as the position stands:
        the real modifiers (``combat.shock_drms``) read through the Shock Results chart."""
        if charts.attack_refusal(state.ruleset, mover.type, unit.type) is not None:
            return 0.0  # it may not attack this unit at all (003 §9.3, §9.15, matrix NA)
        try:
            return band_value(state.ruleset, sum(shock_drms(state, [mover], unit, mover).values()))
        except RuleError:
            return 0.0

    def _facing_gain(self, state: State, mover: Unit, r: Reaction) -> float:
        """How much turning (003 §7.16) lowers the mover's shock, counting the failed roll that
        disorders the unit (cavalry turning to face infantry need not roll)."""
        unit = state.units[r.unit]
        now = self._threat(state, mover, unit)
        turned = state.copy()
        turned.units[r.unit].facing = CLOCK_FACING[r.face or 12]
        failed = state.copy()
        failed.units[r.unit].status = "disordered"
        p = 1.0 if unit.cavalry and not mover.mounted else min(1.0, (unit.tq + 1) / 10)
        after = p * self._threat(turned, turned.units[mover.id], turned.units[r.unit])
        after += (1 - p) * self._threat(failed, failed.units[mover.id], failed.units[r.unit])
        return now - after

    def _withdraw_gain(self, state: State, mover: Unit, uid: str) -> float:
        """The shock the withdrawal avoids, less its disorder chance (000 §6.52; 003 §6.7); a
        leader alone withdraws from mounted enemies (000 §4.31: caught on 3-9)."""
        ld = state.leaders.get(uid)
        if ld is not None:
            alone = not any(u.side == ld.side for u in state.units_at(ld.hex))
            return 2.0 if alone and mover.mounted and state.spqr else 0.0
        unit = state.units[uid]
        threat = self._threat(state, mover, unit)
        p_dis = self._withdraw_disorder_chance(state, mover, unit)
        # a unit already disordered routs on the withdrawal's disorder (docs/rules/tactical.md §4.8)
        return threat - p_dis * (1.0 if unit.status == "full" else ROUT_COST)

    def _withdraw_disorder_chance(self, state: State, mover: Unit, unit: Unit) -> float:
        """The chance that withdrawing from ``mover`` disorders ``unit`` (000 §6.52; 003 §6.7)."""
        if unit.mounted:
            return 0.0
        if state.spqr:
            if unit.skirmisher:
                return 0.0 if self._from_front(state, mover, unit) else 1.0  # 000 §6.52 exception
            return (9 - unit.tq) / 10 if unit.roman and unit.type in ("LG", "CO") else 1.0
        return max(0.0, min(1.0, (9 - unit.tq + (0 if self._from_front(state, mover, unit) else 2)) / 10))

    def _from_front(self, state: State, mover: Unit, unit: Unit) -> bool:
        grid = state.field.grid
        front = set(frontal_hexes(grid, unit))
        near = min(grid.distance(h, m) for h in front for m in mover.hexes()) if front else 9
        return near < min(grid.distance(unit.hex, m) for m in mover.hexes())

    def _withdraw_to(self, state: State, mover: Unit, options: list[Reaction]) -> Reaction:
        """The end farthest from the mover, beside friends; mounted archers fire as they go."""
        grid = state.field.grid
        side = other_side(mover.side)

        def score(r: Reaction) -> tuple[int, int, bool, str]:
            end = grid.index((r.withdraw or ("",))[-1])
            far = min(grid.distance(end, h) for h in mover.hexes())
            friends = sum(1 for u in state.units.values() if u.on_map and u.side == side and end in u.hexes())
            beside = sum(
                1 for u in state.units.values() if u.on_map and u.side == side and grid.distance(end, u.hex) == 1
            )
            return (far + 3 * friends, beside, r.fire, r.notation())

        return max(options, key=score)


#: how far from a combat units are kept in the position its odds are computed on
LOCAL_RADIUS = 5
#: a voluntary shock whose quick chart reading is below this is not considered further
QUICK_FLOOR = -0.8
#: combats with more attackers than this are scored by the chart reading alone (each attacker
#: may roll its own check, so the exact enumeration grows tenfold per attacker)
EXACT_ATTACKERS = 2
#: combats with more leaders stacked with their units than this keep the chart reading (each
#: leader's casualty roll follows every other die: three leaders cost a thousand times more)
EXACT_LEADERS = 1
#: the exact-odds cache is emptied when it grows past this many entries
CACHE_SIZE = 4000
#: cavalry retreats before combat (003 §8.3) when the best stand loses more rout points than this
RBC_LOSS = 0.1
#: a reaction facing change (chart units, ``band_value``) must lower the mover's shock this much
FACE_GAIN = 0.15
#: a withdrawal (chart units) must avoid this much more than its disorder costs
WITHDRAW_GAIN = 0.5
#: what a rout costs in the same chart units as a disorder (1): a disordered unit withdrawing
ROUT_COST = 3.0


def _local(state: State, defender: Unit) -> State:
    """The position around a combat: the units within ``LOCAL_RADIUS`` hexes of the defender,
    everything else as it is.  A shock or fire reaches no further (a retreat is one hex, a rout
    half the MA, 003 §10.21), so its exact odds are the same and far cheaper to enumerate."""
    grid = state.field.grid
    centre = defender.hex
    units = {
        uid: u
        for uid, u in state.units.items()
        if u.on_map and min(grid.distance(centre, h) for h in u.hexes()) <= LOCAL_RADIUS
    }
    return dataclasses.replace(state, units=units, cache={})


def _leaders_in(state: State, ids: Iterable[str]) -> int:
    """How many leaders stand with the units ``ids`` (each rolls for casualties, 003 §8.3)."""
    hexes = {h for uid in ids for h in state.units[uid].hexes()}
    return sum(1 for ld in state.leaders.values() if ld.on_map and ld.hex in hexes)


def _fingerprint(state: State, ids: Iterable[str]) -> tuple[Any, ...]:
    """What a combat's odds depend on: the units' places, statuses and hits, and the leaders
    with them (a cache key within one activation)."""
    out: list[Any] = []
    for uid in ids:
        u = state.units[uid]
        out.append((uid, u.hex, u.hex2, u.facing, u.status, u.missile_hits, u.engaged, u.tq))
    hexes = {h for uid in ids for h in state.units[uid].hexes()}
    out.append(tuple(sorted(ld.id for ld in state.leaders.values() if ld.on_map and ld.hex in hexes)))
    out.append(state.seq.side)
    return tuple(out)
