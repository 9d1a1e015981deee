"""The battleboard AI, for either side, land and naval.

It only ever plays actions from ``rules.legal_actions`` and weighs attacks with the
exact odds of the real resolver (``battleboard.odds``).  ``choose`` picks one action
(the window's AI opponent); ``play_turn`` plays a whole player turn in place (the
auto-resolve), asking the generator one unit at a time so it stays fast, and weighs each
decision of the turn by playing its options out to the end of the battle (the look-ahead,
``search_turn``, at the end of this module); ``base_turn`` is the same turn by the AI's own
reading alone, the look-ahead's player in its play-outs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from battleboard.actions import Attack, Command, Double, EndTurn, Move, Withdraw
from battleboard.combat import Arms, arms
from battleboard.legal import _boarding_modes
from battleboard.model import OFF, Action, Config, State, Unit, other
from battleboard.odds import expectations
from battleboard.queries import nearest_distances
from battleboard.rules import (
    Chance,
    Setup,
    active_ground,
    attack_setup,
    first_setup_action,
    legal_actions,
    may_withdraw,
    move_destinations,
    on_board,
    play,
    scores,
    setup_of,
)
from bellum.dice import Dice
from bellum.events import Event

FLIP_WEIGHT = 0.45  # a disrupted unit is most of the way to being lost
CAPTURE_BONUS = 1.0  # a captured ship is also a ship gained
#: the share of what an enemy unit threatens to take next turn that destroying it is worth
#: (issue 19: 0.3-0.5 measured best over 100 seeds a side; the sea-interception's moving side
#: won 71 of 100 battles against random instead of 61, the supply battle's B 91 instead of 86)
THREAT_WEIGHT = 0.5


def unit_value(s: State, u: Unit) -> float:
    """What losing ``u`` costs its side: a ship takes all aboard with it."""
    if u.kind == "fleet":
        value = u.strength
        for p in u.cargo:
            value += s.units[p].strength
        return value
    return float(u.strength)


def attack_value(s: State, a: Action) -> float:
    """Expected SP gained minus expected SP lost, over the exact outcome distribution."""
    setup, uids = attack_setup(s, a)
    att_dead, att_flip, defs = expectations(setup)
    units = s.units
    total = 0.0
    for uid, (dead, flip) in zip(uids[1:], defs, strict=True):
        val = unit_value(s, units[uid])
        total += dead * val + flip * FLIP_WEIGHT * val
    if a.capture and s.naval and a.mode not in ("ram", "fire"):  # a ship taken is also a ship gained
        total += defs[-1][0] * CAPTURE_BONUS * units[uids[-1]].strength
    cost = unit_value(s, units[uids[0]])  # a ship risks all aboard; a boarding unit only itself
    return total - att_dead * cost - att_flip * FLIP_WEIGHT * cost


class _Lookups:
    """What the AI's weighing reads of a battle's ``Config`` over and over, laid out once
    (kept in ``Config.cache``): each kind's movement, attack rolls and the distance to the
    enemy its units want (2 for a unit that fires, not a fleet; else 1), how far its attacks
    reach (2 for a kind that fires, §8.1; else only the squares alongside), and for each
    column the part of the wanted square's key a square adds (``_pick_move``)."""

    __slots__ = ("_far", "col_keys", "movement", "rolls", "strike", "want", "want_keys")

    def __init__(self, cfg: Config) -> None:
        kinds = cfg.tables.units.kinds
        self.movement = {k: spec.movement for k, spec in kinds.items()}
        self.rolls = {k: spec.rolls for k, spec in kinds.items()}
        self.want = {k: 2 if ("fire" in spec.modes and k != "fleet") else 1 for k, spec in kinds.items()}
        self.strike = {k: 2 if "fire" in spec.modes else 1 for k, spec in kinds.items()}
        cols = cfg.board.columns
        n = cols * cfg.board.rows
        #: per column: abs(q % cols - col) * 1024 + q for every square q
        self.col_keys = tuple(tuple(abs(q % cols - col) * 1024 + q for q in range(n)) for col in range(cols))
        #: per wanted distance: abs(d - want) * 65536 for every distance d (``keys_for``)
        self.want_keys: dict[int, tuple[int, ...]] = {}
        self._far = cols + cfg.board.rows + 100  # above any distance (99 with no enemy)

    def keys_for(self, want: int) -> tuple[int, ...]:
        """``abs(d - want) * 65536`` for every distance ``d`` a square can be from the enemy."""
        found = self.want_keys.get(want)
        if found is None:
            found = self.want_keys[want] = tuple(abs(d - want) * 65536 for d in range(self._far))
        return found


def _lookups(cfg: Config) -> _Lookups:
    found = cfg.cache.get(_Lookups)
    if found is None:
        found = cfg.cache[_Lookups] = _Lookups(cfg)
    assert isinstance(found, _Lookups)
    return found


def _distance_map(s: State, side: str) -> list[int]:
    """Steps (Manhattan) from every square to the nearest enemy unit (99 with none).

    Its side's units' moves (``moves_of``) will need the squares next to an enemy: worked out
    here from the same enemies when the position has none kept (``State.adj_cache``, the very
    set ``moves_of`` builds; ``play`` drops it whenever who stands where may change)."""
    units = s.units
    enemies = [sq for sq, uid in s.grid.items() if units[uid].side != side]
    board = s.cfg.board
    if side not in s.adj_cache:
        neighbors = board.neighbors
        adj: set[int] = set()
        for sq in enemies:
            adj.update(neighbors[sq])
        s.adj_cache[side] = adj
    return nearest_distances(board, enemies)


def _enemy_reach(s: State, side: str) -> int:
    movement = _lookups(s.cfg).movement
    units = s.units  # every unit on the grid is on the board
    reach = 0
    for uid in s.grid.values():
        u = units[uid]
        if u.side != side:
            m = movement[u.kind]
            if m > reach:
                reach = m
    return reach


class Mood(NamedTuple):
    """What a side's moves hang on that changes only when units leave the board: whether it
    runs for the enemy edge (``_running``), has panicked, and is behind on the score."""

    running: bool
    panicked: bool
    behind: bool

    def leaving(self, u: Unit) -> bool:
        """Does ``u`` want to leave the field (a panicked side, the unit disrupted or the side behind)?"""
        return self.panicked and (u.flipped or self.behind)


def mood(s: State, side: str) -> Mood:
    panicked = side in s.panicked
    behind = False
    if panicked:
        sc = scores(s)
        behind = sc[side] < sc[other(side)]
    return Mood(_running(s, side), panicked, behind)


def _wants_to_leave(s: State, u: Unit) -> bool:
    return mood(s, u.side).leaving(u)


def _fleet_power(s: State, side: str) -> float:
    """The strength a naval force fights with now: its fleets on the board and all aboard."""
    return sum(unit_value(s, u) for u in s.units.values() if u.side == side and u.kind == "fleet" and on_board(u))


def _running(s: State, side: str) -> bool:
    """Under interception the moving (active) side makes for the enemy edge (004 Escape) — but
    a ship broken through counts as lost for victory (docs/rules/battleboard.md §13.11-13.12)
    while a won battle lets the whole force sail on: so it runs only when it cannot expect to
    win — clearly outmatched at sea (``RUN_RATIO``), or panicked."""
    if not (s.naval and s.cfg.trigger == "interception" and side == s.active_side):
        return False
    if side in s.panicked:
        return True
    return _fleet_power(s, side) < RUN_RATIO * _fleet_power(s, other(side))


#: an intercepted force stands and fights unless its fleets with all aboard fall under this
#: share of the enemy's (issue 19: at 1.0 it ran as soon as it fell behind, and every ship
#: broken through is a ship lost for victory; at 0.7 the moving side of sea-interception won
#: 76 of 100 battles against random instead of 71)
RUN_RATIO = 0.7


def should_withdraw(s: State) -> bool:
    """A panicked land force that is losing withdraws rather than fight to the last (§10.4, §15)."""
    if may_withdraw(s) is not None:
        return False
    sc = scores(s)
    return sc[s.side] < sc[other(s.side)]


def _pick_move(s: State, u: Unit, dist: list[int], reach: int, md: Mood | None = None) -> Action | None:
    """The move ``u`` wants (or None to stay), from the generator's moves (``move_destinations``)."""
    if md is None:
        md = mood(s, u.side)
    cfg = s.cfg
    board = cfg.board
    cols = board.columns
    sq0 = u.square
    leaving = md.panicked and (u.flipped or md.behind)  # md.leaving(u)
    enemy_home = board.rows - 1 if u.side == "A" else 0  # board.home_row(other(u.side))
    look = cfg.cache.get(_Lookups)
    if look is None:
        look = _lookups(cfg)
    want = look.want[u.kind]
    superior_waits = s.side == s.superior and not s.double_used and not s.double_now
    if sq0 is not None and sq0 // cols != enemy_home and not md.running and not leaving:
        # cheap reasons to stay put, before asking the generator for the unit's moves
        cur0 = dist[sq0]
        if cur0 == want or (cur0 <= 1 and want == 1) or (u.flipped and cur0 > 1 and s.turn > 1):
            return None
        if superior_waits and cur0 == reach + 2:
            return None
    squares, can_leave = move_destinations(s, u)
    if can_leave:
        assert sq0 is not None
        if (sq0 // cols == enemy_home and md.running) or leaving:
            return Move(u.id, OFF)  # break through (004 Escape) when it cannot expect to win
    if not squares:
        return None
    if md.running:
        cur = abs(sq0 // cols - enemy_home) if sq0 is not None else 99
        to = min(squares, key=lambda q: (abs(q // cols - enemy_home), dist[q] <= 1, q))
        return Move(u.id, to) if abs(to // cols - enemy_home) < cur else None
    cur = dist[sq0] if sq0 is not None else 99
    if sq0 is not None and (cur == want or (cur <= 1 and want == 1)):
        return None  # already where it wants to be
    if u.flipped and sq0 is not None and cur > 1 and s.turn > 1:
        return None  # a disrupted unit holds back
    if leaving:
        home = board.home_row(u.side)
        return Move(u.id, min(squares, key=lambda q: (abs(q // cols - home), q)))
    if superior_waits and sq0 is not None:
        # hold just outside the enemy's reach until the double move can strike first (§5.5)
        safe = reach + 2
        if cur == safe:
            return None
        if cur > safe:
            want = safe
    to = _toward(look, squares, dist, want, look.col_keys[(sq0 if sq0 is not None else 0) % cols])
    if sq0 is not None and abs(dist[to] - want) >= abs(cur - want):
        return None
    return Move(u.id, to)


def _toward(look: _Lookups, squares: list[int], dist: list[int], want: int, keys: tuple[int, ...]) -> int:
    """The square of ``squares`` nearest to ``want`` steps from the enemy, then nearest its own
    file (``keys``: ``_Lookups.col_keys`` of the unit's column) so the line holds together, then
    the least: (abs(dist[q] - want), abs(q % cols - col), q) least, as one number (q < 1024,
    columns < 64): (abs(dist[q] - want) * 64 + abs(q % cols - col)) * 1024 + q, its file's part
    from the table, the distance's part from a table too (``_Lookups.keys_for``)."""
    wkeys = look.want_keys.get(want)
    if wkeys is None:
        wkeys = look.keys_for(want)
    return min([wkeys[dist[q]] + keys[q] for q in squares]) % 1024


def _unit_order(s: State, side: str) -> list[Unit]:
    """Front units first, so the line advances without blocking itself (units in reserve last;
    a stable sort: the order listed among equals)."""
    cfg = s.cfg
    cols = cfg.board.columns
    found = cfg.cache.get(_Listed)
    if found is not None and found[0] is s.units:
        units = found[1]
    else:
        units = _listed(s)
        cfg.cache[_Listed] = (s.units, units)
    # (in reserve, sign * row, place listed) as one number: rows < 64, units listed < 4096; a
    # unit with a square is active on the board (every rule takes a unit off its square before
    # it is lost or leaves: ``lift_off``), one in reserve has none
    sign = -1 if side == "A" else 1
    keyed = []
    for i, u in enumerate(units):
        if u.side == side:
            sq = u.square
            if sq is not None:
                keyed.append((64 + sign * (sq // cols)) * 4096 + i)
            elif u.status == "reserve":
                keyed.append(192 * 4096 + i)
    keyed.sort()
    return [units[k % 4096] for k in keyed]


class _Listed:
    """``Config.cache`` key of the units that may take a place in the unit order, for the
    battle's units (by identity): ``_listed``."""


def _listed(s: State) -> list[Unit]:
    """The units that may take a place in the unit order, in the order listed: every unit on
    land; at sea the fleets alone (troops are aboard, never on a square or in reserve)."""
    if s.naval:
        return [u for u in s.units.values() if u.kind == "fleet"]
    return list(s.units.values())


def _best_attack(
    s: State, u: Unit, threats: dict[str, float] | None = None, sure: float | None = None
) -> tuple[Action | None, float]:
    """``u``'s attack worth most by ``_value`` (if above 0.05), or None; ``threats`` keeps
    ``_threat`` by unit while the position stands.  With ``sure`` the caller asks of the value
    only whether it is above ``sure``: a fleet's may then be a bound on the same side
    (``_settle``)."""
    if threats is None:
        threats = {}
    if s.naval and u.kind == "fleet":
        return _best_fleet_attack(s, u, active_ground(s, u), threats, sure)
    # a unit whose command failed has no attacks (the generator lists none: ``_unit_actions``)
    acts = [] if u.failed else [a for a in legal_actions(s, u.id, "attack") if a.verb == "attack"]
    best: Action | None = None
    best_v = 0.05
    for a in acts:
        v = _value(s, a, threats)
        if v > best_v:
            best, best_v = a, v
    return best, best_v


def _best_fleet_attack(
    s: State, f: Unit, g: Unit | None, threats: dict[str, float], sure: float | None = None
) -> tuple[Action | None, float]:
    """``_best_attack`` of fleet ``f`` at sea (``g``: its active ground unit, aboard it): the
    generator's attacks (``legal._fleet_actions``, then ``legal._boarding_actions`` — those
    that capture) behind the same gates and in the same order, each weighed as ``_value``
    weighs it from its set-up as ``setup_of`` makes it (``combat.Arms``' set-ups at sea); only the best is
    built as an action (a test checks all of it against the generator and ``_value``).
    With ``sure`` one attack may wait for its target's threat (``_settle``)."""
    sq = f.square
    if sq is None or s.phase not in ("move", "combat"):  # the generator lists no attack
        return None, 0.05
    units = s.units
    side = s.side
    near, far = _enemies_near(s, sq, side)
    if (not near and not far) or f.attacked or f.captured_now:  # neither it nor its troops attack
        return None, 0.05
    k = arms(s.cfg)
    bonus = k.fleet_bonus(s, f)
    best: tuple[str, str, str, bool] | None = None  # the attack so far, built at the end
    best_v = 0.05
    lazy = sure is not None
    wait: _Waiting | None = None
    if f.side == side and f.status == "active" and not f.failed:
        att = (k.att_disc[f.discipline] + bonus, f.flipped, False)
        cost = unit_value(s, f)
        for t in near:  # ``_weigh`` of a ram (its one defender on the board), written out
            setup = k.ram(att, t)
            att_dead, att_flip, ((dead, flip),) = expectations(setup)
            val = t.strength
            for p in t.cargo:
                val += units[p].strength
            threat = 0.0
            waits = False
            if dead > 0:
                found = threats.get(t.id)
                if found is not None:
                    threat = found
                elif lazy:
                    waits = True  # weighed with its threat 0 for now
                else:
                    threat = threats[t.id] = _threat(s, t)
            v = dead * (val + THREAT_WEIGHT * threat) + flip * FLIP_WEIGHT * val  # (0.0 plus it: itself)
            v = v - att_dead * cost - att_flip * FLIP_WEIGHT * cost
            if waits:
                lazy = False
                wait = ((f.id, t.id, "ram", False), setup, (t,), False, cost, v, t, best)
            elif v > best_v:
                best, best_v = (f.id, t.id, "ram", False), v
        for t in near + far:
            d = active_ground(s, t)
            if d is not None:
                setup = k.fire(f, att, d)
                if d.square is None:  # ``_weigh`` of its one defender, troops aboard: no threat
                    att_dead, att_flip, ((dead, flip),) = expectations(setup)
                    sp = float(d.strength)
                    v = dead * sp + flip * FLIP_WEIGHT * sp  # (sp + THREAT_WEIGHT * 0.0: sp)
                    v = v - att_dead * cost - att_flip * FLIP_WEIGHT * cost
                else:
                    v = _weigh(s, setup, (d,), False, cost, threats)[0]
                if v > best_v:
                    best, best_v = (f.id, t.id, "fire", False), v
    if g is not None and g.side == side and g.status == "active" and not g.failed:
        best, best_v, wait = _boardings(s, k, g, bonus, near, threats, lazy, best, best_v, wait)
    if wait is not None:
        assert sure is not None
        return _settle(s, threats, sure, wait, best, best_v)
    return (None if best is None else Attack(*best)), best_v


def _boardings(
    s: State,
    k: Arms,
    g: Unit,
    bonus: int,
    near: list[Unit],
    threats: dict[str, float],
    lazy: bool,
    best: tuple[str, str, str, bool] | None,
    best_v: float,
    wait: _Waiting | None,
) -> tuple[tuple[str, str, str, bool] | None, float, _Waiting | None]:
    """``_best_fleet_attack``'s boardings by its troops ``g`` (those that capture), in the
    generator's order: the best so far and the attack waiting for its target's threat, after
    them."""
    modes = _boarding_modes(s, g.kind)
    if modes:
        att = (k.att_disc[g.discipline] + bonus, g.flipped, False)
        cost = float(g.strength)  # unit_value: a boarding unit risks only itself
        for t in near:
            for mode in modes:
                setup, defenders = k.boarding(s, g, att, t, mode)
                v, dep = _weigh(s, setup, defenders, True, cost, threats, lazy)
                if dep is not None:
                    lazy = False
                    wait = ((g.id, t.id, mode, True), setup, defenders, True, cost, v, dep, best)
                elif v > best_v:
                    best, best_v = (g.id, t.id, mode, True), v
    return best, best_v, wait


def _enemies_near(s: State, sq: int, side: str) -> tuple[list[Unit], list[Unit]]:
    """The enemies of ``side`` alongside square ``sq``, and those two squares off in a straight
    line with nothing between, in the board's order (``legal._fleet_actions``' targets)."""
    units = s.units
    grid = s.grid
    board = s.cfg.board
    near: list[Unit] = []
    for n in board.neighbors[sq]:
        tid = grid.get(n)
        if tid is not None and units[tid].side != side:
            near.append(units[tid])
    far: list[Unit] = []
    for q, mid in board.lines2[sq]:
        tid = grid.get(q)
        if tid is not None and mid not in grid and units[tid].side != side:
            far.append(units[tid])
    return near, far


#: an attack waiting for its target's threat: its fields, set-up, defenders, whether it
#: captures, what the attacker risks, its value with that threat 0, the target, and the best
#: attack before it
_Waiting = tuple[
    tuple[str, str, str, bool], Setup, tuple[Unit, ...], bool, float, float, Unit, tuple[str, str, str, bool] | None
]


def _settle(
    s: State,
    threats: dict[str, float],
    sure: float,
    wait: _Waiting,
    best: tuple[str, str, str, bool] | None,
    best_v: float,
) -> tuple[Action | None, float]:
    """The choice between the attack that waited for its target's threat and the best of the
    others (the first listed of equal values wins).  A value grows with the threat (every
    step of its sum rounds the same way), so when its value with the threat 0 already beats
    the others and is above ``sure`` — all the caller asks of it — the threat cannot change
    the choice or the answer and is not worked out; else it is, and the value made exact."""
    fields, setup, defenders, capture, cost, v, dep, before = wait
    first = best is before  # no better attack listed after the waiting one
    if v > sure and (v > best_v if first else v >= best_v):
        return Attack(*fields), v
    if dep.id not in threats:  # (a later attack on the same ship may have worked it out)
        threats[dep.id] = _threat(s, dep)
    v = _weigh(s, setup, defenders, capture, cost, threats)[0]
    if v > best_v if first else v >= best_v:
        return Attack(*fields), v
    return (None if best is None else Attack(*best)), best_v


def _weigh(
    s: State,
    setup: Setup,
    defenders: tuple[Unit, ...],
    capture: bool,
    cost: float,
    threats: dict[str, float],
    lazy: bool = False,
) -> tuple[float, Unit | None]:
    """``_value`` at sea of an attack with this set-up and these defenders (in the set-up's
    order; ``capture``: a boarding that takes the ship), the attacker risking ``cost``: the
    same sums in the same order.  (A unit off the board threatens nothing: ``_threat`` 0.0.)
    Returns (the value, None) — or, ``lazy``, when a defender's threat is not yet in
    ``threats``: (the value with that threat 0, that defender)."""
    att_dead, att_flip, defs = expectations(setup)
    units = s.units
    total = 0.0
    unknown: Unit | None = None
    for d, (dead, flip) in zip(defenders, defs, strict=True):
        val: float
        if d.kind == "fleet":  # unit_value(s, d), written out
            val = d.strength
            for p in d.cargo:
                val += units[p].strength
        else:
            val = float(d.strength)
        threat = 0.0
        if dead > 0 and d.square is not None:
            found = threats.get(d.id)
            if found is not None:
                threat = found
            elif lazy and unknown is None:
                unknown = d
            else:
                threat = threats[d.id] = _threat(s, d)
        total += dead * (val + THREAT_WEIGHT * threat) + flip * FLIP_WEIGHT * val
    if capture:  # a ship taken is also a ship gained
        total += defs[-1][0] * CAPTURE_BONUS * defenders[-1].strength
    return total - att_dead * cost - att_flip * FLIP_WEIGHT * cost, unknown


def _threat(s: State, e: Unit) -> float:
    """The SP enemy ship ``e`` can expect to take with its best attack from where it lies (one
    ply: what sinking or taking it spares its enemies): its ram or its troops' boarding of an
    adjacent ship, or its fire at the troops aboard a ship in range (004 Combat).  (The best
    of its attacks' takings, each worked out as it comes: the largest is the same in any
    order; each set-up made as ``setup_of`` makes it, ``combat.Arms``.)"""
    sq = e.square
    if sq is None or e.status != "active":
        return 0.0
    units = s.units
    grid = s.grid
    side = e.side
    k = arms(s.cfg)
    bonus = k.fleet_bonus(s, e)
    att = (k.att_disc[e.discipline] + bonus, e.flipped, False)
    g = active_ground(s, e)
    g_att = None
    if g is not None and k.rolls[g.kind] > 0:  # troops that fight board
        g_att = (k.att_disc[g.discipline] + bonus, g.flipped, False)
    best = 0.0
    board = s.cfg.board
    # the enemies alongside: rammed, boarded, fired at (``fire_targets``' first squares); a
    # ram's or a fire's one defender's taking is ``_taken``'s sum of one term, written out
    for n in board.neighbors[sq]:
        tid = grid.get(n)
        if tid is None:
            continue
        t = units[tid]
        if t.side == side:
            continue
        dead = expectations(k.ram(att, t))[2][0][0]
        if dead:
            val = t.strength  # unit_value(s, t), written out
            for p in t.cargo:
                val += units[p].strength
            lost = dead * val
            if lost > best:
                best = lost
        if g_att is not None and g is not None:
            lost = _taken(s, *k.boarding(s, g, g_att, t, "phalanx"))  # a boarding that captures
            if lost > best:
                best = lost
        d = active_ground(s, t)
        if d is not None:
            dead = expectations(k.fire(e, att, d))[2][0][0]
            if dead:
                lost = dead * float(d.strength)
                if lost > best:
                    best = lost
    # two squares off in a straight line with nothing between (``fire_targets``' others)
    for far, mid in board.lines2[sq]:
        tid = grid.get(far)
        if tid is not None and mid not in grid:
            t = units[tid]
            if t.side != side:
                d = active_ground(s, t)
                if d is not None:
                    dead = expectations(k.fire(e, att, d))[2][0][0]
                    if dead:
                        lost = dead * float(d.strength)
                        if lost > best:
                            best = lost
    return best


def _taken(s: State, setup: Setup, defenders: tuple[Unit, ...]) -> float:
    """The SP an attack with this set-up on these defenders (in its order) can expect to
    destroy (by the exact odds)."""
    defs = expectations(setup)[2]
    units = s.units
    lost = 0.0
    for d, (dead, _) in zip(defenders, defs, strict=True):
        if dead:
            if d.kind == "fleet":  # unit_value(s, d), written out
                val = d.strength
                for p in d.cargo:
                    val += units[p].strength
                lost += dead * val
            else:
                lost += dead * float(d.strength)
    return lost


def _value(s: State, a: Action, threats: dict[str, float]) -> float:
    """What the AI weighs an attack by: ``attack_value`` (the exchange by the exact odds) plus,
    for each defender it may destroy, ``THREAT_WEIGHT`` of what that defender threatens to
    take next turn (``_threat``: one ply of the enemy's answer) — a ship that would fire again
    at the legions aboard is worth more than its own 2 SP."""
    setup, uids = setup_of(s, a.unit, a.target, a.mode)  # attack_setup(s, a)
    att_dead, att_flip, defs = expectations(setup)
    units = s.units
    naval = s.naval
    total = 0.0
    for uid, (dead, flip) in zip(uids[1:], defs, strict=True):
        d = units[uid]
        val: float
        if d.kind == "fleet":  # unit_value(s, d), written out
            val = d.strength
            for p in d.cargo:
                val += units[p].strength
        else:
            val = float(d.strength)
        if dead > 0 and naval:  # on land it changed nothing measured (issue 19)
            threat = threats.get(uid)
            if threat is None:
                threat = threats[uid] = _threat(s, d)
            total += dead * (val + THREAT_WEIGHT * threat) + flip * FLIP_WEIGHT * val
        else:
            total += dead * (val + THREAT_WEIGHT * 0.0) + flip * FLIP_WEIGHT * val
    if a.capture and naval and a.mode not in ("ram", "fire"):  # a ship taken is also a ship gained
        total += defs[-1][0] * CAPTURE_BONUS * units[uids[-1]].strength
    cost = unit_value(s, units[uids[0]])  # a ship risks all aboard; a boarding unit only itself
    return total - att_dead * cost - att_flip * FLIP_WEIGHT * cost


def _should_double(s: State, side: str, dist: list[int] | None = None) -> bool:
    if s.side != s.superior or s.double_used or s.moved_any or s.phase != "move" or s.turn < 2:
        return False
    if dist is None:
        dist = _distance_map(s, side)
    units = s.units  # every unit on the grid is on the board, and every one on the board is there
    near = min((dist[sq] for sq, uid in s.grid.items() if units[uid].side == side), default=99)
    return near >= 4


def _stratagems(s: State, side: str, chance: Chance, ev: list[Event] | None) -> None:
    for ld in list(s.leaders.values()):
        if ld.side != side or ld.status != "active":
            continue
        for a in legal_actions(s, ld.id, "stratagem"):
            if a.verb == "stratagem" and a.effect == "rally":
                play(s, a, chance, ev)
                break


class Plan(NamedTuple):
    """How the rest of a player turn is played after the command check: ``double`` and
    ``withdraw`` None to decide as the AI reads the position, or the choice already made
    (``search_turn`` plays out a decision, then the rest of the turn by a plan)."""

    double: bool | None = None
    withdraw: bool | None = None


BASE = Plan()
_COMMAND = Command()  # actions are immutable: one of each serves every turn
_END_TURN = EndTurn()


def play_turn(s: State, chance: Chance, ev: list[Event] | None = None, rollouts: int | None = None) -> None:
    """Play the phasing side's whole player turn in place (set-up phases: one action): each
    decision weighed by ``rollouts`` play-outs (``search_turn``, default ``ROLLOUTS``; 0: the
    AI's own reading alone, ``base_turn``)."""
    n = ROLLOUTS if rollouts is None else rollouts
    if n <= 0 or chance.results is not None:  # forced combat results (rules cases): no play-outs
        base_turn(s, chance, ev)
    elif not _open_turn(s, chance, ev):
        search_turn(s, chance, ev, n)


def base_turn(s: State, chance: Chance, ev: list[Event] | None = None) -> None:
    """The phasing side's whole player turn by the AI's own reading, no play-outs (the
    play-outs' own player, and ``play_turn`` with no rollouts)."""
    if not _open_turn(s, chance, ev):
        play_plan(s, chance, ev, BASE)


def _open_turn(s: State, chance: Chance, ev: list[Event] | None) -> bool:
    """A turn's opening, the same for both players: a set-up phase's one action, or the
    command check; True when that is the whole turn (set-up, or the battle is over)."""
    if s.phase in ("allocate", "deploy"):
        play(s, first_setup_action(s), chance, ev)  # what ``choose`` takes: the generator's first
        return True
    if s.phase == "command":
        play(s, _COMMAND, chance, ev)
    return s.phase == "over"


def play_plan(
    s: State,
    chance: Chance,
    ev: list[Event] | None,
    plan: Plan,
    no_move: frozenset[str] = frozenset(),
    no_attack: frozenset[str] = frozenset(),
) -> None:
    """Play the rest of the phasing side's turn (from its movement phase) by ``plan``; the
    units in ``no_move`` do not move, those in ``no_attack`` do not attack (their choice was
    made)."""
    side = s.side
    # distances to the enemy stay valid all turn: enemies never move in one's own turn
    if (plan.withdraw if plan.withdraw is not None else should_withdraw(s)) and may_withdraw(s) is None:
        play(s, Withdraw(), chance, ev)
        if s.phase == "over":
            return
    dist = _distance_map(s, side)
    if (plan.double if plan.double is not None else _should_double(s, side, dist)) and _may_double(s):
        play(s, Double(), chance, ev)
    if s.phase == "move":
        _base_moves(s, chance, ev, dist, no_move)
        if s.phase == "over":
            return
    _stratagems(s, side, chance, ev)
    _attacks(s, chance, ev, dist, no_attack)
    if s.phase != "over":
        play(s, _END_TURN, chance, ev)


def _may_double(s: State) -> bool:
    """May the side declare its double move now (§5.5, as the generator offers it)?"""
    return s.phase == "move" and s.side == s.superior and not s.double_used and not s.moved_any and s.turn >= 2


def _base_moves(
    s: State, chance: Chance, ev: list[Event] | None, dist: list[int], skip: frozenset[str] = frozenset()
) -> None:
    """Each unit's move by ``_pick_move`` (but those of the units in ``skip``), front units
    first.  Its commonest case — a unit on the board, not on the enemy's home row, its side
    neither running nor leaving the field — is written out here with what stays the same all
    the phase worked out once: the same tests in the same order, the same choice."""
    side = s.side
    md = mood(s, side)
    cfg = s.cfg
    cols = cfg.board.columns
    enemy_home = cfg.board.rows - 1 if side == "A" else 0
    look = _lookups(cfg)
    wants = look.want
    col_keys = look.col_keys
    late = s.turn > 1
    # the enemy's reach matters only to a side holding out of it for its double move (§5.5)
    superior_waits = s.side == s.superior and not s.double_used and not s.double_now
    reach = _enemy_reach(s, side) if superior_waits else 0
    safe = reach + 2
    contact_holds = side not in s.panicked and not s.naval
    running, panicked, behind = md
    want_keys = look.want_keys
    lost_any = False  # only a unit gone can change others' fates in the phase (panic)
    for u in _unit_order(s, side):  # (at sea: fleets alone)
        if u.failed or u.moved or (skip and u.id in skip):
            continue  # no moves listed (``move_destinations``), or its choice made: it stays
        if lost_any and u.status not in ("active", "reserve"):
            continue
        sq0 = u.square
        if sq0 is not None and contact_holds and dist[sq0] <= 1:
            continue  # in contact: it stays and fights
        if sq0 is None or running or sq0 // cols == enemy_home or (panicked and (u.flipped or behind)):
            a = _pick_move(s, u, dist, reach, md)
            if a is None:
                continue
        else:
            cur = dist[sq0]
            want = wants[u.kind]
            if cur == want or (cur <= 1 and want == 1) or (u.flipped and cur > 1 and late):
                continue  # where it wants to be, or a disrupted unit holding back
            if superior_waits:
                if cur == safe:
                    continue  # just outside the enemy's reach until the double move (§5.5)
                if cur > safe:
                    want = safe
            squares = move_destinations(s, u, leave=False)[0]  # it leaves only running or leaving the field
            if not squares:
                continue
            wkeys = want_keys.get(want)  # ``_toward``, written out
            if wkeys is None:
                wkeys = look.keys_for(want)
            keys = col_keys[sq0 % cols]
            to = min([wkeys[dist[q]] + keys[q] for q in squares]) % 1024
            if abs(dist[to] - want) >= abs(cur - want):
                continue
            a = Move(u.id, to)
        play(s, a, chance, ev)
        if s.phase != "move":
            return  # the battle is over
        if a.to == OFF:
            md = mood(s, side)  # a unit gone changes the score, the fleets and panic
            running, panicked, behind = md
            contact_holds = side not in s.panicked and not s.naval
            lost_any = True


def _attacks(
    s: State, chance: Chance, ev: list[Event] | None, dist: list[int], skip: frozenset[str] = frozenset()
) -> None:
    """Every unit's best attack (``_best_attack``), but those of the units in ``skip``."""
    side = s.side
    reach = _lookups(s.cfg).strike  # 1, or 2 for a kind that fires
    threats: dict[str, float] = {}  # what each enemy threatens, until an attack changes it
    for u in _unit_order(s, side):
        if s.phase == "over":
            return
        if u.id in skip or not on_board(u) or (s.naval and u.kind != "fleet"):
            continue
        if u.square is not None and dist[u.square] > reach[u.kind]:
            continue  # nothing within reach of its attacks (enemies only leave during one's own turn)
        a, v = _best_attack(s, u, threats, 1.0)  # of v only whether it is above 1.0
        if a is None:
            continue
        if v > 1.0:
            _inspire(s, u, chance, ev)
        play(s, a, chance, ev)
        threats = {}


def _inspire(s: State, u: Unit, chance: Chance, ev: list[Event] | None) -> None:
    """A leader with ``u`` (aboard it, or on its square) inspires it, if he may (§9.2)."""
    for ld in list(s.leaders.values()):
        if (
            ld.side == u.side
            and ld.status == "active"
            and (ld.aboard == u.id or (ld.square is not None and ld.square == u.square))
        ):
            for a in legal_actions(s, ld.id, "stratagem"):
                if a.effect == "inspire":
                    play(s, a, chance, ev)
                    return


def choose(s: State) -> Action:
    """One good legal action for the side to act (the window's AI opponent)."""
    acts = legal_actions(s)
    if not acts:
        raise ValueError("the battle is over: there is nothing to choose")
    if s.phase in ("allocate", "deploy", "command"):
        return acts[0]
    side = s.side
    if should_withdraw(s):
        return Withdraw()
    if _should_double(s, side):
        return Double()
    if s.phase == "move":
        dist = _distance_map(s, side)
        reach = _enemy_reach(s, side)
        for u in _unit_order(s, side):
            if u.moved or (s.naval and u.kind != "fleet"):
                continue
            a = _pick_move(s, u, dist, reach)
            if a is not None:
                return a
    for a in acts:
        if a.verb == "stratagem" and a.effect == "rally":
            return a
    best: Action | None = None
    best_v = 0.05
    threats: dict[str, float] = {}
    for u in _unit_order(s, side):
        if on_board(u) and not (s.naval and u.kind != "fleet"):
            a, v = _best_attack(s, u, threats)
            if a is not None and v > best_v:
                best, best_v = a, v
    return best if best is not None else EndTurn()


# --------------------------------------------------------------------------
# the look-ahead (issue 19 item 4)
# --------------------------------------------------------------------------
# Each decision of a turn played out to the end of the battle (docs/AI.md, the look-ahead).
#
# After its command check (and the rules' own order of a turn) the AI takes its decisions one
# at a time — withdraw or not (§10.4), the double move now or not (§5.5), then each unit's
# move (front units first), then each unit's attack — and weighs each decision's few options
# by playing them out on copies of the position with the real rules: the option, the rest of
# the turn by the AI's own reading (``play_plan``, the units already decided keeping their
# choice), then both sides by the AI's own reading (``base_turn``) to the end of the battle.
# Every option is played out on the same ``ROLLOUTS`` dice.  A play-out is worth, to the
# side, 1 for a win, 0 for a draw and −1 for a loss, plus ``SP_WEIGHT`` a strength point of
# the final margin.  The AI's own reading is kept unless another option is better by more than
# ``MARGIN`` (fewer play-outs than a decision needs are noisy: without the margin the search
# lost battles its own reading wins).
#
# At sea (issue 19 item 4) a play-out stops at the end of the enemy's reply (``SEA_HORIZON``)
# and is worth ``STANDING_SP`` a strength point of the margin then (``standing``, a disrupted
# fleet counting ``FLIP_WEIGHT`` of all aboard as lost), and each option is played out
# ``SEA_ROLLOUT_FACTOR`` times as often: played to the end, the intercepted side lost almost
# every play-out whatever it chose, and the look-ahead found nothing.
#
# The options: a unit's move as the AI reads it, staying put, and one square for each distance
# from the enemy it can reach (nearest its own file), at most ``MOVE_OPTIONS``, breaking
# through (004 Escape) when it may; its attack as the AI reads it, no attack, and the best
# others by the AI's weighing, at most ``ATTACK_OPTIONS`` + 1.  A turn spends at most
# ``TURN_WORK`` play-outs a unit on the board; the decisions left then go by the AI's own
# reading, and so does every decision while more than ``SEARCH_UNITS`` units are on the board.
#
# The play-outs' dice are seeded from the battle's dice as they stand (their seed and how many
# were rolled), never drawn from them: the battle's rolls are those of the actions played,
# and the same position on the same dice always gives the same choice (saves and replays).

#: play-outs of each option, on the same dice for every option
ROLLOUTS = 8
#: at sea each option is played out this many times more, each play-out only to the end of
#: the enemy's ``SEA_HORIZON``-th reply (the comment above; three short play-outs cost what
#: one long one did)
SEA_ROLLOUT_FACTOR = 3
SEA_HORIZON = 1
#: a strength point of a stopped play-out's margin (``standing``)
STANDING_SP = 0.1
#: a strength point of the final margin, beside a win's 1
SP_WEIGHT = 0.02
#: another option replaces the AI's own reading only when better by more than this (0.15:
#: at 0 the supply battle's sides fell from 20 to 16 and 17 wins in 20 against random)
MARGIN = 0.15
#: options weighed for a unit's move, and attacks beside "none"
MOVE_OPTIONS = 5
ATTACK_OPTIONS = 4
#: a player turn's play-outs times the units on the board (the front units' decisions first):
#: a bigger battle weighs fewer decisions, each of its play-outs being longer
TURN_WORK = 6_000
#: how the rest of the turn is played after an option: as the AI reads it, the double move
#: and the withdrawal already decided
_FINISH = Plan(double=False, withdraw=False)
#: battles with more units on the board than this are played by the AI's own reading (the
#: play-outs of a big battle are long: the campaign's auto-resolve stays affordable)
SEARCH_UNITS = 16
_MASK = (1 << 64) - 1
_STEP = 104_729
_ACTION_LIMIT = 2_000


def standing(s: State, side: str) -> float:
    """A play-out stopped before the battle's end (at sea, ``SEA_HORIZON``): ``STANDING_SP``
    a strength point of the margin so far, each disrupted fleet on the board counting
    ``FLIP_WEIGHT`` of itself and all aboard as lost (a battle not over is worth no win)."""
    sc = scores(s)
    margin = float(sc[side] - sc[other(side)])
    for u in s.units.values():
        if u.flipped and u.kind == "fleet" and u.status == "active":
            v = FLIP_WEIGHT * unit_value(s, u)
            margin += -v if u.side == side else v
    return STANDING_SP * margin


def worth(s: State, side: str) -> float:
    """A played-out battle's result for ``side`` (the look-ahead's comment above)."""
    sc = scores(s)
    margin = sc[side] - sc[other(side)]
    won = 1.0 if s.winner == side else -1.0 if s.winner == other(side) else 0.0
    return won + SP_WEIGHT * margin


class _Search:
    """One player turn's decisions: the play-outs' dice and what is decided so far."""

    def __init__(self, s: State, chance: Chance, rollouts: int) -> None:
        dice = chance.dice
        base = (dice.seed * 1_000_003 + dice.counter * 7_919) & _MASK
        self.seeds = [(base + i * _STEP) & _MASK for i in range(rollouts)]
        self.side = s.side
        self.left = TURN_WORK // max(1, len(s.grid))
        self.no_move: frozenset[str] = frozenset()
        self.no_attack: frozenset[str] = frozenset()

    def pick(self, s: State, options: list[Action | None], unit: str = "", attack: bool = False) -> Action | None:
        """The best of ``options`` (the first is the AI's own reading; None: the unit stays,
        or makes no attack, or the side does not withdraw or double)."""
        cost = len(options) * len(self.seeds)
        if len(options) < 2 or cost > self.left:
            return options[0]
        self.left -= cost
        best_i, best_v = 0, -99.0
        for i, opt in enumerate(options):
            no_move, no_attack = self.no_move, self.no_attack
            if opt is None and unit:
                if attack:
                    no_attack = no_attack | {unit}
                else:
                    no_move = no_move | {unit}
            total = 0.0
            for seed in self.seeds:
                t = s.clone()
                ch = Chance(Dice(seed, record=False))
                if opt is not None:
                    play(t, opt, ch)
                if t.phase != "over" and t.side == self.side:
                    play_plan(t, ch, None, _FINISH, no_move, no_attack)
                total += _play_out(t, ch, self.side)
            v = total / len(self.seeds) + (MARGIN if i == 0 else 0.0)
            if v > best_v:
                best_i, best_v = i, v
        return options[best_i]


def _play_out(t: State, ch: Chance, side: str) -> float:
    """Both sides by the AI's own reading (``base_turn``) to the battle's end — at sea only to
    the end of the enemy's ``SEA_HORIZON``-th turn — and what that is worth to ``side``."""
    replies = 0
    n = 0
    while t.phase != "over" and n < _ACTION_LIMIT:
        if t.side == side:
            if t.naval and replies >= SEA_HORIZON > 0:
                return standing(t, side)
        else:
            replies += 1
        base_turn(t, ch)
        n += 1
    return worth(t, side)


def _move_options(s: State, u: Unit, dist: list[int], reach: int) -> list[Action | None]:
    squares, can_leave = move_destinations(s, u)
    if not squares and not can_leave:
        return []
    mine = _pick_move(s, u, dist, reach, mood(s, u.side))
    opts: list[Action | None] = [mine]
    if mine is not None:
        opts.append(None)
    if can_leave and not (mine is not None and mine.to == OFF):
        opts.append(Move(u.id, OFF))
    cols = s.cfg.board.columns
    col = (u.square if u.square is not None else 0) % cols
    by_distance: dict[int, int] = {}  # one square per distance from the enemy, nearest its file
    for q in sorted(squares, key=lambda q: (abs(q % cols - col), q)):
        by_distance.setdefault(min(dist[q], 5), q)
    for q in sorted(by_distance.values(), key=lambda q: (dist[q], q)):
        if len(opts) >= MOVE_OPTIONS:
            break
        if mine is None or mine.to != q:
            opts.append(Move(u.id, q))
    return opts


def _attack_options(s: State, u: Unit) -> list[Action | None]:
    acts: list[Action] = [a for a in legal_actions(s, u.id, "attack") if a.verb == "attack"]
    if s.naval:
        g = active_ground(s, u)
        if g is not None:
            acts.extend(a for a in legal_actions(s, g.id, "attack") if a.verb == "attack" and a.capture)
    if not acts:
        return []
    threats: dict[str, float] = {}
    mine, _ = _best_attack(s, u, threats)
    opts: list[Action | None] = [mine]
    if mine is not None:
        opts.append(None)
    ranked = sorted(range(len(acts)), key=lambda j: (-_value(s, acts[j], threats), j))
    for j in ranked[:ATTACK_OPTIONS]:
        if acts[j] != mine:
            opts.append(acts[j])
    return opts


def search_turn(s: State, chance: Chance, ev: list[Event] | None = None, rollouts: int = ROLLOUTS) -> None:
    """Play the phasing side's turn from its movement phase, each decision by play-outs."""
    side = s.side
    if len(s.grid) > SEARCH_UNITS:
        play_plan(s, chance, ev, Plan())
        return
    look = _Search(s, chance, rollouts * SEA_ROLLOUT_FACTOR if s.naval else rollouts)
    dist = _distance_map(s, side)
    if s.phase == "move" and may_withdraw(s) is None:
        opts: list[Action | None] = [Withdraw(), None] if should_withdraw(s) else [None, Withdraw()]
        if look.pick(s, opts) is not None:
            play(s, Withdraw(), chance, ev)
            if s.phase == "over":
                return
    if s.phase == "move" and s.side == s.superior and not s.double_used and not s.moved_any and s.turn >= 2:
        opts = [Double(), None] if _should_double(s, side, dist) else [None, Double()]
        if look.pick(s, opts) is not None:
            play(s, Double(), chance, ev)
    if s.phase == "move":
        reach = _enemy_reach(s, side)
        for u in _unit_order(s, side):
            if s.phase != "move":
                break
            if u.status not in ("active", "reserve") or (s.naval and u.kind != "fleet"):
                continue
            opts = _move_options(s, u, dist, reach)
            if not opts:
                continue
            a = look.pick(s, opts, u.id)
            if a is None:
                look.no_move = look.no_move | {u.id}
                continue
            play(s, a, chance, ev)
            if s.phase == "over":
                return
    _stratagems(s, side, chance, ev)
    for u in _unit_order(s, side):
        if s.phase == "over":
            return
        if not on_board(u) or (s.naval and u.kind != "fleet"):
            continue
        opts = _attack_options(s, u)
        if not opts:
            continue
        a = look.pick(s, opts, u.id, attack=True)
        look.no_attack = look.no_attack | {u.id}
        if a is None:
            continue
        if _value(s, a, {}) > 1.0:
            _inspire(s, u, chance, ev)
        play(s, a, chance, ev)
    if s.phase != "over":
        play(s, EndTurn(), chance, ev)


# --------------------------------------------------------------------------- the window's AI


def _position(s: State) -> tuple[object, ...]:
    """What a plan depends on: everything of the battle but its caches."""
    return (
        s.units,
        s.leaders,
        s.grid,
        s.side,
        s.phase,
        s.turn,
        s.stratagems,
        s.panicked,
        s.double_used,
        s.double_now,
        s.moved_any,
        s.winner,
        s.allocations,
        s.deployed,
    )


class Planner:
    """The look-ahead AI one action at a time — the window's opponent, the same player as
    ``play_turn``.  The side's whole turn is played by ``play_turn`` on a copy of the battle
    with a copy of the battle's own dice, and its actions are handed out one by one while the
    battle follows the plan (position by position); anything else — an undo, a load, dice
    forced by a test — plans the turn again from where the battle stands.  No die is
    looked at in advance: the play-outs roll dice of their own (``search_turn``), and the
    copy rolls exactly what the battle will roll for the same actions."""

    def __init__(self, dice: Callable[[], Dice], rollouts: int | None = None) -> None:
        self.dice = dice
        self.rollouts = rollouts
        self._plan: list[tuple[tuple[object, ...], Action]] = []

    def __call__(self, s: State) -> Action:
        if self._plan and self._plan[0][0] == _position(s):
            return self._plan.pop(0)[1]
        self._plan = self._make(s)
        if not self._plan:
            return choose(s)
        return self._plan.pop(0)[1]

    def _make(self, s: State) -> list[tuple[tuple[object, ...], Action]]:
        """The side's turn from ``s`` as (position before, action) pairs."""
        real = self.dice()
        t = s.clone()
        plan: list[tuple[tuple[object, ...], Action]] = []

        class Record(list[Action]):
            """The copy's record: each action with the position it is played from."""

            def append(self, a: Action, /) -> None:
                plan.append((_position(t.clone()), a))
                super().append(a)

        chance = Chance(Dice(real.seed, counter=real.counter, record=False), record=Record())
        play_turn(t, chance, None, self.rollouts)
        return plan
