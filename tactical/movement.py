"""Movement: the cost model (what a step costs and whether it is allowed) and the
one search over (hex, facing) states that every caller uses.

The search and the cost rules are separate (Wesnoth's ``pathfind`` and
``cost_calculator``): ``MoveCosts`` knows the rules for one unit in one
position, ``reachable`` is one Dijkstra (a bucket queue over small integer
costs) over its ``successors``.  The legal-move generator (UI highlights, AI),
and the validator (``walk_path`` in ``tactical.engine``) both go through
``MoveCosts.successors``, so they cannot disagree.

Movement points are counted in half points (``tables.HALF``).
Rules implemented here (docs/rules/tactical.md §4):

* a unit enters only its frontal hexes (000 §6.32, §7.1; 003 §7.1);
* facing change costs by class: 1 MP per vertex for non-Roman foot and all
  cavalry, 1 MP whatever the turn for Roman legionary and alae foot, nothing for
  skirmishers (000 §7.12; 002 Change Facing), and not in an enemy ZOC (000 §7.12);
* terrain, hexside and elevation costs (002 TEC as ``data/terrain.toml``;
  000 §6.21, §6.24); no entry into prohibited terrain (000 §6.23);
* no entry into a hex holding an enemy combat unit (000 §6.62); passing through
  a friendly combat unit costs +1 MP (003 §6.92) and a unit may end its move
  stacked only where the stacking rules allow (000 §6.61, Roman manipular
  stacking §6.6, same facing §6.66);
* entering a frontal hex of an enemy with an equal or higher MA ends the move
  (003 §7.2, 000 §7.2);
* cavalry may not move adjacent to an enemy elephant (003 §9.15);
* a double-sized phalanx moves forward with both halves, pays the dearer of the
  two hexes (000 §6.42), pivots one half around the other (front-to-flank /
  wheel, clear terrain only, 2 MP: 003 §6.3-6.4, 000 §6.43, §6.45) and reverses
  face for 3 MP (000 §6.44); in column it moves short end first into its frontal
  hex or the two beside it and may not turn (000 §6.46-6.47);
* leaders move with cavalry costs (000 §6.14), have no facing, pay +1 MP to enter
  a hex holding a friendly combat unit (000 §6.64) and have MA 16 (000 §4.1).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import pairwise
from operator import attrgetter
from typing import Any

from tactical.hexes import frontal_dirs, vertex_turns
from tactical.state import Leader, State, Unit, frontal_hexes, turn_once
from tactical.tables import CLASS_INDEX, HALF, NO, TERRAIN_INDEX, move_tables

#: a path token: ("hex", index) — a hex entered (a double unit's new ``hex``, a
#: column's new front), or ("face", f) — a facing change (a phalanx's pivot or
#: reverse is written as the facing it ends with)
Token = tuple[str, int]

_CLEAR = TERRAIN_INDEX["clear"]
_ROUGH = TERRAIN_INDEX["rough"]
_COLUMN_MA = 6  # 000 §6.46


def movement_allowance(unit: Unit) -> int:
    """MA in whole points: printed, a phalanx 4 (003 §6.3-6.4, 000 §6.41), in column 6 (000 §6.46)."""
    if unit.column:
        return _COLUMN_MA
    if unit.type == "PH":
        return min(unit.ma, 4)
    return unit.ma


def organisation(group: str) -> str:
    """The Roman organisation of a unit's group name: its leading numeral (000 §6.63:
    the I Legion and the I Ala share a border colour), else the whole name."""
    head = group.split()[0] if group.split() else ""
    if head and all(ch in "IVXLC" for ch in head.upper()):
        return head.upper()
    return group


def roman_foot(unit: Unit) -> bool:
    """Roman legionary or alae foot (000 §7.12, §6.6): a Roman unit on foot that is not a skirmisher."""
    return unit.roman and not unit.mounted and not unit.skirmisher


PositionIndex = tuple[set[int], set[int], set[int], set[int], set[int], dict[int, list[Unit]], dict[Any, Any]]
#: what the position index's fingerprint reads of each unit and leader
_PLACE = attrgetter("hex", "hex2", "facing", "status", "column", "ma")
_HEX = attrgetter("hex")


class Fingerprint(tuple[tuple[tuple[int, int, int, str, bool, int], ...], tuple[int, ...]]):
    """Every unit's (hex, second hex, facing, status, column, MA) and every leader's hex: what
    ``position_index`` depends on.  Its hash is worked out once, so the searches of one
    position that share it look the index up without hashing every unit again."""

    _hash: int | None = None

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = self._hash = tuple.__hash__(self)
        return h


def fingerprint(state: State) -> Fingerprint:
    """The position's ``Fingerprint``."""
    return Fingerprint((tuple(map(_PLACE, state.units.values())), tuple(map(_HEX, state.leaders.values()))))


def position_index(state: State, side: str, my_ma: int, known: Fingerprint | None = None) -> PositionIndex:
    """Where the enemies of ``side`` stand and what their fronts cover, for a mover of MA
    ``my_ma``: (enemy hexes, every enemy front, fronts of enemies with MA >= my_ma, hexes next
    to enemy elephants, enemy leaders' hexes, friendly units by hex).

    Cached on the battlefield (shared by every copy of the state), keyed by a fingerprint of
    every unit's and leader's place and status (``known``: the caller's ``fingerprint`` of this
    very position), so a state changed since (as ``apply`` changes its copy step by step)
    never reads a stale entry.  The sets are shared, by every MA too but the fronts that stop
    it: ``MoveCosts`` never changes them.  The last item keeps the search's slot costs of
    this position (``_slot_costs``), made when first asked.
    """
    cache = state.field.index_cache
    fp = known
    if fp is None:
        # the position of the last caller without a fingerprint, if the same: its hash is known
        fp = fingerprint(state)
        last = cache.get(Fingerprint)
        if last is not None and last == fp:
            fp = last
        else:
            cache[Fingerprint] = fp
    key = (side, my_ma, fp)
    hit = cache.get(key)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    if len(cache) > 128:
        cache.clear()
    base = cache.get((side, fp))
    if base is None:
        base = cache[(side, fp)] = _side_index(state, side)
    enemy, zoc_any, el_adj, leaders, friends, memo, fronts = base
    zoc_stop: set[int] = set()
    for ma, front in fronts:
        if ma >= my_ma:
            zoc_stop.update(front)
    result: PositionIndex = (enemy, zoc_any, zoc_stop, el_adj, leaders, friends, memo)
    cache[key] = result
    return result


def _side_index(state: State, side: str) -> tuple[Any, ...]:
    """``position_index`` for every MA at once: the fronts that stop a mover are kept with the
    enemies' MAs, (MA, front) for each enemy not routed."""
    grid = state.field.grid
    enemy: set[int] = set()
    zoc_any: set[int] = set()
    el_adj: set[int] = set()
    fronts: list[tuple[int, tuple[int, ...]]] = []
    friends: dict[int, list[Unit]] = {}
    for u in state.units.values():
        if not u.on_map:
            continue
        if u.side != side:
            hexes = u.hexes()
            enemy.update(hexes)
            if u.status != "routed":
                z = frontal_hexes(grid, u)
                zoc_any.update(z)
                fronts.append((movement_allowance(u), z))
            if u.type == "EL":
                for h in hexes:
                    el_adj.update(grid.neighbours(h))
        else:
            for h in u.hexes():
                friends.setdefault(h, []).append(u)
    leaders = {ld.hex for ld in state.leaders.values() if ld.on_map and ld.side != side}
    memo: dict[Any, Any] = {}
    return (enemy, zoc_any, el_adj, leaders, friends, memo, fronts)


class MoveCosts:
    """The cost rules for one unit (or leader) in one position."""

    __slots__ = (
        "all_friends",
        "cls",
        "double",
        "el_adj",
        "enemy",
        "enemy_leaders",
        "friends",
        "is_leader",
        "leave_check",
        "ma2",
        "mover",
        "nbr",
        "no_entry",
        "slots_memo",
        "start",
        "start_turn",
        "state",
        "static",
        "t",
        "zoc_any",
        "zoc_stop",
    )

    def __init__(
        self,
        state: State,
        mover: Unit | Leader,
        origin: int | None = None,
        start_hex: int | None = None,
        known: Fingerprint | None = None,
    ) -> None:
        """``origin``: the node the move started from, when the mover is part-way along a path
        (leaving an enemy front one started in is free; entering one ends the move);
        ``start_hex``: the hex the move began in (for option ``leaving-zoc``); ``known``: the
        position's ``fingerprint`` when the caller has it."""
        self.state = state
        self.mover = mover
        self.t = move_tables()
        grid = state.field.grid
        self.nbr = grid.nbr
        self.is_leader = isinstance(mover, Leader)
        if isinstance(mover, Leader):
            # 000 §6.14 leaders use cavalry costs; sgboh uses 002's Leaders column (the same numbers)
            self.cls = CLASS_INDEX["cavalry" if state.spqr else "leader"]
            self.ma2 = mover.ma * HALF
            self.double = False
            side = mover.side
            my_ma = mover.ma
        else:
            self.cls = mover.move_class()
            self.ma2 = movement_allowance(mover) * HALF
            self.double = mover.hex2 >= 0
            side = mover.side
            my_ma = movement_allowance(mover)
        self.static = state.field.enter_costs(self.cls)
        index = position_index(state, side, my_ma, known)
        self.enemy, self.zoc_any, self.zoc_stop, self.el_adj, self.enemy_leaders = index[:5]
        friends = self.all_friends = index[5]
        self.slots_memo = index[6]
        if isinstance(mover, Unit) and mover.on_map:
            # the mover is not its own friend
            friends = dict(friends)
            for h in mover.hexes():
                rest = [u for u in friends.get(h, ()) if u.id != mover.id]
                if rest:
                    friends[h] = rest
                else:
                    friends.pop(h, None)
        self.friends = friends
        self.start_turn = False
        self.leave_check = False
        #: hexes closed to this move by a rule rather than by a unit (001 7.23)
        self.no_entry: set[int] = set()
        if "leaving-zoc" in state.options and isinstance(mover, Unit) and not self.double:
            self._leaving_zoc(state, mover, mover.hex if start_hex is None else start_hex, my_ma)
        if origin is not None:
            self.start = origin
        elif self.is_leader:
            self.start = mover.hex * 6
        else:
            assert isinstance(mover, Unit)
            self.start = mover.hex * 6 + mover.facing

    def _leaving_zoc(self, state: State, mover: Unit, start_hex: int, my_ma: int) -> None:
        """001 7.23 (option ``leaving-zoc``): a unit that begins in the front of enemies none faster
        than itself may turn there before moving; if one of them has its very MA, it may not move
        next to any enemy after leaving, and infantry make a TQ check as they leave."""
        grid = state.field.grid
        covering = [
            u
            for u in state.units.values()
            if u.on_map and u.side != mover.side and u.status != "routed" and start_hex in frontal_hexes(grid, u)
        ]
        if not covering or any(movement_allowance(u) > my_ma for u in covering):
            return
        self.start_turn = True
        if any(movement_allowance(u) == my_ma for u in covering):
            self.leave_check = mover.foot
            for u in state.units.values():
                if u.on_map and u.side != mover.side:
                    for h in u.hexes():
                        self.no_entry.update(j for j in grid.neighbours(h) if j != start_hex)

    # -- single rules -----------------------------------------------------------
    def enter(self, i: int, d: int) -> int:
        """Cost (half MP) to step from ``i`` in direction ``d`` with every rule applied, or NO."""
        j = self.nbr[i * 6 + d]
        if j < 0:
            return NO
        c = self.static[i * 6 + d]
        if c >= NO or j in self.enemy or j in self.enemy_leaders or j in self.no_entry:
            return NO
        if self.is_leader:
            if j in self.friends:
                c += self.t.leader_enter_occupied  # 000 §6.64
            return c
        mover = self.mover
        assert isinstance(mover, Unit)
        if mover.cavalry and j in self.el_adj:
            return NO  # 003 §9.15
        if j in self.friends:
            c += self.t.pass_through  # 003 §6.92
        return c

    def face_cost(self, i: int, f: int, g: int) -> int:
        """Cost to pivot a single-hex unit in ``i`` from facing ``f`` to ``g`` (000 §7.12), or NO."""
        if f == g or self.is_leader or self.double:
            return NO
        if i in self.zoc_any and not (self.start_turn and i * 6 + f == self.start):
            return NO
        mover = self.mover
        assert isinstance(mover, Unit)
        if mover.column:
            return NO
        if mover.skirmisher:
            return self.t.skirmisher_face
        if roman_foot(mover) and self.state.spqr:
            return self.t.roman_any
        per = self.t.facing[self.cls]
        return NO if per >= NO else per * vertex_turns(f, g)

    def stops(self, node: int) -> bool:
        """The move ends here: it entered an enemy's front with equal or higher MA (003 §7.2)."""
        if node == self.start or self.is_leader:
            return False
        if self.start_turn and node // 6 == self.start // 6:
            return False  # turning in the hex it starts in (001 7.23)
        i = node // 6
        if i in self.zoc_stop:
            return True
        if self.double:
            return any(h in self.zoc_stop for h in self.hexes_of(node))
        return False

    def hexes_of(self, node: int) -> tuple[int, ...]:
        i, f = divmod(node, 6)
        if self.double:
            mover = self.mover
            assert isinstance(mover, Unit)
            back = (f + 3) % 6 if mover.column else (f + 1) % 6
            return (i, self.nbr[i * 6 + back])
        return (i,)

    def may_end(self, node: int) -> bool:
        """A legal place to finish: stacking allows it (000 §6.61, §6.6, §6.66; 003 §6.91)."""
        if self.is_leader:
            return True
        mover = self.mover
        assert isinstance(mover, Unit)
        for h in self.hexes_of(node):
            here = self.friends.get(h)
            if not here:
                continue
            if not self._may_stack(mover, here, node % 6):
                return False
        return True

    def stack_facing(self, h: int) -> int:
        """The facing a single-hex unit may end with in ``h``, held by friends: the facing of
        the one it may stack with (``_may_stack``), or -1 (no facing: it may only pass)."""
        mover = self.mover
        assert isinstance(mover, Unit)
        here = self.friends[h]
        return here[0].facing if self._may_stack(mover, here, here[0].facing) else -1

    def _may_stack(self, mover: Unit, here: list[Unit], facing: int) -> bool:
        """Roman manipular stacking (000 §6.6): two Roman foot units of one organisation,
        or Roman velites with one Roman foot unit, may share a hex, facing alike."""
        if not self.state.spqr or len(here) != 1 or mover.double:
            return False
        other = here[0]
        if other.double or not other.roman or other.mounted or not mover.roman or mover.mounted:
            return False
        if other.facing != facing:
            return False
        if mover.skirmisher or other.skirmisher:
            return not (mover.skirmisher and other.skirmisher)
        return organisation(mover.group) == organisation(other.group)

    def token(self, prev: int, cur: int) -> Token:
        """The path token of the step from node ``prev`` to node ``cur``."""
        if prev // 6 == cur // 6 or (self.double and self._is_pivot(prev, cur)):
            return ("face", cur % 6)
        return ("hex", cur // 6)

    def _is_pivot(self, prev: int, cur: int) -> bool:
        mover = self.mover
        return isinstance(mover, Unit) and not mover.column and prev % 6 != cur % 6

    # -- the move generator -------------------------------------------------------
    def successors(self, node: int) -> list[tuple[int, int, Token]]:
        """Every single step from ``node``: (next node, cost, token)."""
        if self.stops(node):
            return []
        i, f = divmod(node, 6)
        out: list[tuple[int, int, Token]] = []
        nbr = self.nbr
        if self.is_leader:
            for d in range(6):
                c = self.enter(i, d)
                if c < NO:
                    out.append((nbr[i * 6 + d] * 6, c, ("hex", nbr[i * 6 + d])))
            return out
        mover = self.mover
        assert isinstance(mover, Unit)
        if mover.column:
            return self._column_successors(i, f)
        if self.double:
            return self._double_successors(i, f)
        for d in frontal_dirs(f):
            c = self.enter(i, d)
            if c < NO:
                j = nbr[i * 6 + d]
                out.append((j * 6 + f, c, ("hex", j)))
        if i not in self.zoc_any or (self.start_turn and node == self.start):
            for g in range(6):
                if g != f:
                    c = self.face_cost(i, f, g)
                    if c < NO:
                        out.append((i * 6 + g, c, ("face", g)))
        return out

    def _double_successors(self, i: int, f: int) -> list[tuple[int, int, Token]]:
        nbr = self.nbr
        t = self.t
        i2 = nbr[i * 6 + (f + 1) % 6]
        out: list[tuple[int, int, Token]] = []
        # forward: both halves step the same way (000 §6.43), the dearer hex is paid (000 §6.42)
        for d in frontal_dirs(f):
            a, b = nbr[i * 6 + d], nbr[i2 * 6 + d]
            if a < 0 or b < 0:
                continue
            ca, cb = self.enter(i, d), self.enter(i2, d)
            if ca < NO and cb < NO:
                out.append((a * 6 + f, max(ca, cb), ("hex", a)))
        # pivots (front-to-flank / wheel): one half enters a frontal hex, the other turns in place;
        # clear terrain only, 2 MP (003 §6.3-6.4; 000 §6.43, §6.45)
        j = nbr[i * 6 + f]  # hex2 swings forward around hex: facing one vertex anticlockwise
        if j >= 0 and self._wheel_ok(i, i2, j, f):
            out.append((i * 6 + (f - 1) % 6, t.wheel_per_hex + self._pass(j), ("face", (f - 1) % 6)))
        k = nbr[i2 * 6 + (f - 1) % 6]  # hex swings forward around hex2: facing one vertex clockwise
        if k >= 0 and self._wheel_ok(i2, i, k, f):
            out.append((k * 6 + (f + 1) % 6, t.wheel_per_hex + self._pass(k), ("face", (f + 1) % 6)))
        # reverse face: 3 MP, not in an enemy ZOC or rough terrain (000 §6.44)
        terr = self.state.field.terrain
        if (
            i not in self.zoc_any
            and i2 not in self.zoc_any
            and terr[i] != _ROUGH
            and terr[i2] != _ROUGH
            and self._stack_free(i)
            and self._stack_free(i2)
        ):
            out.append((i2 * 6 + (f + 3) % 6, t.reverse_phalanx, ("face", (f + 3) % 6)))
        return out

    def _pass(self, j: int) -> int:
        return self.t.pass_through if j in self.friends else 0

    def _stack_free(self, h: int) -> bool:
        return h not in self.friends

    def _wheel_ok(self, pivot: int, swing: int, into: int, f: int) -> bool:
        field = self.state.field
        if into in self.enemy or into in self.enemy_leaders:
            return False
        if field.terrain[into] != _CLEAR or field.terrain[pivot] != _CLEAR or field.terrain[swing] != _CLEAR:
            return False
        lv = field.level
        if lv[into] != lv[pivot] or lv[swing] != lv[pivot]:
            return False
        return field.hexside(swing, into) is None and field.hexside(pivot, into) is None

    def _column_successors(self, i: int, f: int) -> list[tuple[int, int, Token]]:
        """A column moves short end first into its frontal hex or the two beside it, keeping its
        orientation (000 §6.47); the rear half follows."""
        nbr = self.nbr
        rear = nbr[i * 6 + (f + 3) % 6]
        out: list[tuple[int, int, Token]] = []
        for d in ((f - 1) % 6, f, (f + 1) % 6):
            a = nbr[i * 6 + d]
            if a < 0:
                continue
            ca = self.enter(i, d)
            if ca >= NO:
                continue
            if d != f:
                cb = self.enter(rear, d)
                if cb >= NO:
                    continue
                ca = max(ca, cb)
            out.append((a * 6 + f, ca, ("hex", a)))
        return out


@dataclass(slots=True)
class Reach:
    """Every (hex, facing) a mover can reach this activation, with least cost and a path."""

    costs: MoveCosts
    #: the node each node was reached from (-1 for the start), in the order they were reached
    parent: dict[int, int]
    #: the nodes in the order the search settled them (each after its parent)
    order: list[int] = dataclasses.field(default_factory=list)
    #: for each cost ``c`` (half MP), how many nodes of ``order`` cost ``c`` or less
    settled: list[int] = dataclasses.field(default_factory=list)
    #: ``dist`` lists the nodes in the order they were settled (single-hex units), else in
    #: the order they were reached (the AI breaks ties by this order)
    by_settling: bool = False
    _dist: dict[int, int] | None = None

    @property
    def dist(self) -> dict[int, int]:
        """Every reachable node with its least cost (made when first asked: the move generator
        reads only ``parent`` and ``order``)."""
        if self._dist is None:
            order, dist, done = self.order, {}, 0
            for c, upto in enumerate(self.settled):
                for n in order[done:upto]:
                    dist[n] = c
                done = upto
            self._dist = dist if self.by_settling else {n: dist[n] for n in self.parent}
        return self._dist

    def ends(self) -> list[int]:
        """Nodes the mover may finish on (stacking allowed), the start included."""
        return [n for n in self.dist if self.costs.may_end(n)]

    def cost(self, node: int) -> int:
        return self.dist[node]

    def notations(self, nodes: Iterable[int]) -> dict[int, tuple[str, ...]]:
        """The written path (``cases/FORMAT.md``) to each of ``nodes``, built once over the
        search tree: each node's path is its parent's plus one step (facing changes merged)."""
        from tactical.hexes import FACING_CLOCK, SIDE_CLOCK

        ids = self.costs.state.field.grid.ids
        mover = self.costs.mover
        clock = SIDE_CLOCK if isinstance(mover, Unit) and mover.column else FACING_CLOCK
        merge = not self.costs.double
        token = self.costs.token
        parent = self.parent
        paths: dict[int, tuple[str, ...]] = {}
        last_face: dict[int, bool] = {}

        def build(node: int) -> tuple[str, ...]:
            chain = []
            cur = node
            while cur not in paths:
                chain.append(cur)
                prev = parent[cur]
                if prev < 0:
                    paths[cur] = ()
                    last_face[cur] = False
                    chain.pop()
                    break
                cur = prev
            for n in reversed(chain):
                p = parent[n]
                kind, v = token(p, n)
                base = paths[p]
                if kind == "face":
                    step = f"face:{clock[v]}"
                    paths[n] = (*base[:-1], step) if merge and last_face[p] else (*base, step)
                    last_face[n] = True
                else:
                    paths[n] = (*base, ids[v])
                    last_face[n] = False
            return paths[node]

        return {n: build(n) for n in nodes}

    def end_paths(self) -> list[tuple[int, tuple[str, ...]]]:
        """Every node the mover may finish on other than its start, with its written path, in
        the order the search settled them — ``notations(ends())`` in one pass over the tree."""
        return self._end_paths(True)

    def end_path_list(self) -> list[tuple[str, ...]]:
        """``end_paths`` without the nodes: the paths alone (what the move generator needs)."""
        return self._end_paths(False)

    def _end_paths(self, with_nodes: bool) -> list[Any]:
        from tactical.hexes import FACING_CLOCK, SIDE_CLOCK

        costs = self.costs
        ids = costs.state.field.grid.ids
        mover = costs.mover
        clock = SIDE_CLOCK if isinstance(mover, Unit) and mover.column else FACING_CLOCK
        faces = [f"face:{clock[v]}" for v in range(6)]
        merge = not costs.double
        plain = not costs.double and not (isinstance(mover, Unit) and mover.column)
        parent = self.parent
        friends = costs.friends
        may_end = costs.may_end
        paths: dict[int, tuple[str, ...]] = {}
        last_face: dict[int, bool] = {}
        out: list[Any] = []
        order = self.order or sorted(self.dist, key=lambda n: self.dist[n])
        if plain:
            # a single-hex unit or a leader: a step within one hex is a facing change, and
            # consecutive facing changes are written as one: a turn's path is its ``stem`` (the
            # path before the facing changes that end it) and its facing (the hot path of
            # legal_actions: one concatenation of prepared one-word tuples a node)
            steps = _one_word(ids)
            turns = [(face,) for face in faces]
            stem: dict[int, tuple[str, ...]] = {}
            # the friends' hexes, each with the facing ending there is allowed with (made when
            # first met; a leader ends anywhere)
            held: dict[int, int | None] = {} if costs.is_leader else dict.fromkeys(friends)
            nodes = iter(order)
            for n in nodes:  # the start, first settled: the only node without a parent
                paths[n] = stem[n] = ()
                break
            for n in nodes:
                p = parent[n]
                h = n // 6
                if p // 6 == h:
                    base = stem[n] = stem[p]
                    path = base + turns[n % 6]
                else:
                    path = stem[n] = paths[p] + steps[h]
                paths[n] = path
                if h in held:
                    # a friend's hex: the one facing it may be stacked with there (``may_end``)
                    facing = held.get(h)
                    if facing is None:
                        facing = held[h] = costs.stack_facing(h)
                    if n % 6 != facing:
                        continue
                out.append((n, path) if with_nodes else path)
            return out
        for n in order:
            p = parent[n]
            if p < 0:
                paths[n] = ()
                last_face[n] = False
                continue
            base = paths[p]
            face = costs.token(p, n)[0] == "face"
            if face:
                step = faces[n % 6]
                path = (*base[:-1], step) if merge and last_face[p] else (*base, step)
            else:
                path = (*base, ids[n // 6])
            paths[n] = path
            last_face[n] = face
            if may_end(n):
                out.append((n, path) if with_nodes else path)
        return out

    def tokens(self, node: int) -> list[Token]:
        """The least-cost path to ``node`` as tokens; consecutive facing changes merged into one."""
        chain = [node]
        while self.parent[chain[-1]] >= 0:
            chain.append(self.parent[chain[-1]])
        chain.reverse()
        out: list[Token] = []
        for prev, cur in pairwise(chain):
            out.append(self.costs.token(prev, cur))
        if self.costs.double:
            return out
        merged: list[Token] = []
        for tok in out:
            if tok[0] == "face" and merged and merged[-1][0] == "face":
                merged[-1] = tok
            else:
                merged.append(tok)
        return merged


@functools.cache
def _one_word(ids: tuple[str, ...]) -> tuple[tuple[str], ...]:
    """Each hex id of a map as a path of one word."""
    return tuple((h,) for h in ids)


def reachable(state: State, mover: Unit | Leader, costs: MoveCosts | None = None) -> Reach:
    """Every (hex, facing) the mover can reach within its MA, with least cost and a path.

    One Dijkstra over (hex, facing) nodes (``node = hex * 6 + facing``; ``search``).  The
    static part of every step (terrain, hexsides, elevation, facing costs by class) is read
    from the map's step table (``Battlefield.node_steps``); what the position adds (friends
    to pass through, hexes closed by enemies, no turning in an enemy front) is one list of
    slot costs built once per position and side (``_slot_costs``).  Double-sized units and
    columns, whose steps depend on two hexes at once, take their steps from
    ``MoveCosts.successors``.  A property test proves the result equal to networkx's
    Dijkstra over the graph of ``MoveCosts.successors``.
    """
    mc = costs or MoveCosts(state, mover)
    parent, order, settled = search(mc)
    single = isinstance(mover, Unit) and not mover.double and not mover.column
    return Reach(mc, parent, order, settled, single)


class _RuleSteps(dict[int, tuple[tuple[int, int, int], ...]]):
    """The steps of a double-sized unit or a column, asked of the cost model node by node."""

    def __init__(self, mc: MoveCosts) -> None:
        super().__init__()
        self.successors = mc.successors

    def __missing__(self, node: int) -> tuple[tuple[int, int, int], ...]:
        steps = self[node] = tuple((0, cost, nxt) for nxt, cost, _tok in self.successors(node))
        return steps


_NO_SLOTS = [0]
_NO_STOPS: frozenset[int] = frozenset()
#: node of each search key (``key // 2``, ``turn_once``), by number of nodes
_NODE_OF: dict[int, list[int]] = {}
#: spare least-cost lists by number of nodes and cost cap, every entry at the cap: a search
#: takes one and gives it back as it found it (a list of the map's nodes costs a third of a
#: search to make, and reads three times faster than a bytearray)
_SPARE: dict[tuple[int, int], list[list[int]]] = {}


def search(mc: MoveCosts) -> tuple[dict[int, int], list[int], list[int]]:
    """Dijkstra over ``mc``'s mover: the node each node was reached from (-1 for the start),
    the order in which nodes were settled (a node always after its parent) and, for each cost
    ``c`` from 0 to the MA, how many nodes were settled at ``c`` or less (``order`` by cost).

    Costs are small integers (half MP), so the priority queue is an array of buckets (Dial's
    algorithm).  A step's cost is its static cost plus ``slots[slot]``; a node of ``stop`` (in
    the front of an enemy it may not leave, 003 §7.2) is settled but not left."""
    mover = mc.mover
    ma2 = mc.ma2
    field = mc.state.field
    #: the step tables by the budget left: a step dearer than what is left is not in them
    by_budget: list[Any]
    if mc.is_leader:
        by_budget = field.steps_by_budget(mc.cls, (), True, ma2)
        cheapest = field.cheapest_step(mc.cls, (), True)
        slots = _slot_costs(mc, "leader")
        stop: Any = _NO_STOPS
        if mc.no_entry:  # (only units have rules closing hexes today)
            slots = slots.copy()
            for j in mc.no_entry:
                slots[j] = NO
    elif mc.double or (isinstance(mover, Unit) and mover.column):
        by_budget = [_RuleSteps(mc)] * (ma2 + 1)
        slots, stop, cheapest = _NO_SLOTS, _NO_STOPS, 0  # (the rules' costs, not known before)
    else:
        assert isinstance(mover, Unit)
        turns = _turns(mc, mover)
        by_budget = field.steps_by_budget(mc.cls, turns, False, ma2)
        cheapest = field.cheapest_step(mc.cls, turns, False)
        slots, stop, changed = _unit_slots(mc, mover)
        try:
            if turn_once(turns):
                return _dijkstra_keyed(mc, by_budget, slots, stop, cheapest)
            return _dijkstra(mc, by_budget, slots, stop, cheapest)
        finally:
            for j, old in reversed(changed):  # the position's shared slot costs, as they were
                slots[j] = old
    return _dijkstra(mc, by_budget, slots, stop, cheapest)


def _dijkstra(
    mc: MoveCosts, by_budget: list[Any], slots: list[int], stop: Any, cheapest: int
) -> tuple[dict[int, int], list[int], list[int]]:
    """The search proper (``search``): the buckets hold nodes.  ``cheapest``: what the
    mover's cheapest step costs (nothing: ``_popped``; with less left, no step at all)."""
    start = mc.start
    ma2 = mc.ma2
    cap = ma2 + 1  # an unreached node's cost: anything within the MA improves on it
    best, spare = _least_costs(len(mc.nbr), cap)
    best[start] = 0
    parent: dict[int, int] = {start: -1}
    order = [start]
    settled: list[int] = []
    buckets: list[list[int]] = [[] for _ in range(cap)]
    for nxt, nc in _first_steps(mc, by_budget, slots):
        if nc < best[nxt]:
            best[nxt] = nc
            parent[nxt] = start
            buckets[nc].append(nxt)
    last = ma2 - cheapest  # the last cost from which a step can still be afforded
    for c in range(cap):
        bucket = buckets[c]
        if c > last:
            # nothing to afford from here: the bucket's nodes are only settled
            order += [node for node in reversed(bucket) if best[node] == c]
            settled.append(len(order))
            continue
        steps = by_budget[ma2 - c]
        for node in reversed(bucket) if cheapest else _popped(bucket):
            if best[node] != c:
                continue
            order.append(node)  # (a method call: Python 3.11 appends in line)
            if node in stop:
                continue
            for j, sc, nxt in steps[node]:
                nc = c + sc + slots[j]
                if nc < best[nxt]:
                    best[nxt] = nc
                    parent[nxt] = node
                    buckets[nc].append(nxt)
        settled.append(len(order))
    for node in parent:
        best[node] = cap
    spare.append(best)
    return parent, order, settled


def _dijkstra_keyed(
    mc: MoveCosts, by_budget: list[Any], slots: list[int], stop: Any, cheapest: int
) -> tuple[dict[int, int], list[int], list[int]]:
    """``_dijkstra`` for a mover that never gains by turning twice in a row (``turn_once``):
    the buckets hold search keys, ``node * 2`` for a node entered from another hex or the
    start, ``node * 2 + 1`` for a node reached by turning, whose steps leave the turns out.
    The same pushes and pops in the same order, fewer steps tried (a Roman cohort tries
    two fifths fewer)."""
    start = mc.start
    ma2 = mc.ma2
    cap = ma2 + 1
    size = len(mc.nbr)
    node_of = _NODE_OF.get(size)
    if node_of is None:
        node_of = _NODE_OF[size] = [k >> 1 for k in range(size * 2)]
    best, spare = _least_costs(size, cap)
    best[start] = 0
    parent: dict[int, int] = {start: -1}
    order = [start]
    settled: list[int] = []
    buckets: list[list[int]] = [[] for _ in range(cap)]
    if mc.start_turn:
        first = [(nxt, nc, nxt * 2) for nxt, nc in _first_steps(mc, by_budget, slots)]
    else:
        first = [(nxt, sc + slots[j], key) for j, sc, nxt, key in by_budget[ma2][start * 2]]
    for nxt, nc, key in first:
        if nc < best[nxt]:
            best[nxt] = nc
            parent[nxt] = start
            buckets[nc].append(key)
    last = ma2 - cheapest
    for c in range(cap):
        bucket = buckets[c]
        if c > last:
            order += [node_of[key] for key in reversed(bucket) if best[node_of[key]] == c]
            settled.append(len(order))
            continue
        steps = by_budget[ma2 - c]
        for key in reversed(bucket) if cheapest else _popped(bucket):
            node = node_of[key]
            if best[node] != c:
                continue
            order.append(node)
            if node in stop:
                continue
            for j, sc, nxt, nkey in steps[key]:
                nc = c + sc + slots[j]
                if nc < best[nxt]:
                    best[nxt] = nc
                    parent[nxt] = node
                    buckets[nc].append(nkey)
        settled.append(len(order))
    for node in parent:
        best[node] = cap
    spare.append(best)
    return parent, order, settled


def _popped(bucket: list[int]) -> Iterator[int]:
    """A bucket's entries, last in first out, taking in those added while it is read (a step
    costing nothing adds to the bucket being read).  Where every step costs something, the
    bucket does not grow while it is read, and reading it backwards is the same order."""
    while bucket:
        yield bucket.pop()


def _least_costs(size: int, cap: int) -> tuple[list[int], list[list[int]]]:
    """A list of ``size`` costs, each ``cap``, and the spares to give it back to, as found."""
    spare = _SPARE.get((size, cap))
    if spare is None:
        spare = _SPARE[(size, cap)] = []
    return (spare.pop() if spare else [cap] * size), spare


def _first_steps(mc: MoveCosts, by_budget: list[Any], slots: list[int]) -> list[tuple[int, int]]:
    """The start's steps as (node, cost).  The start never stops; where it may turn in an
    enemy front (001 7.23: to any facing, the other facings of its hex may not turn) its
    steps are the rules' own."""
    if mc.start_turn:
        return [(nxt, cost) for nxt, cost, _tok in mc.successors(mc.start)]
    return [(step[2], step[1] + slots[step[0]]) for step in by_budget[mc.ma2][mc.start]]


def _turns(mc: MoveCosts, unit: Unit) -> tuple[tuple[int, int], ...]:
    """A single-hex unit's facing changes as (vertices clockwise, cost): skirmishers and Roman
    foot turn to any facing at one price, others a vertex at a time by class (000 §7.12)."""
    t = mc.t
    if unit.skirmisher:
        return tuple((k, t.skirmisher_face) for k in range(1, 6))
    if roman_foot(unit) and mc.state.spqr:
        return tuple((k, t.roman_any) for k in range(1, 6))
    per = t.facing[mc.cls]
    return () if per >= NO else ((1, per), (5, per))


def _slot_costs(mc: MoveCosts, kind: str) -> list[int]:
    """What the position adds to each step of a ``kind`` ("unit" or "leader") of ``mc``'s side,
    by slot (``Battlefield.node_steps``): NO into an enemy unit's or leader's hex, passing
    through a friendly unit (000 §6.64 for leaders, 003 §6.92 for units), and NO for a facing
    change in an enemy front (000 §7.12).  Built once per position and side (cached with the
    position index, shared: the caller copies it before changing it)."""
    memo = mc.slots_memo
    slots = memo.get(kind)
    if slots is None:
        size = mc.state.field.grid.size
        slots = [0] * (2 * size)
        extra = mc.t.leader_enter_occupied if kind == "leader" else mc.t.pass_through
        for j in mc.all_friends:
            slots[j] = extra
        for j in mc.enemy:
            slots[j] = NO
        for j in mc.enemy_leaders:
            slots[j] = NO
        if kind == "unit":
            for j in mc.zoc_any:
                slots[size + j] = NO
        memo[kind] = slots
    return slots


def _unit_slots(mc: MoveCosts, unit: Unit) -> tuple[list[int], Any, list[tuple[int, int]]]:
    """The slot costs and stopping nodes of one single-hex unit: its side's, with its own hex
    holding only the friends beside it, hexes next to enemy elephants closed to cavalry
    (003 §9.15) and those a rule closes (001 7.23).  The side's list is changed in place;
    the changes are returned as (slot, old cost) for the caller to undo."""
    slots = _slot_costs(mc, "unit")
    changed: list[tuple[int, int]] = []
    h = unit.hex
    if slots[h] < NO:
        changed.append((h, slots[h]))
        slots[h] = mc.t.pass_through if h in mc.friends else 0
    closed = list(mc.no_entry)
    if unit.cavalry:
        closed.extend(mc.el_adj)
    for j in closed:
        changed.append((j, slots[j]))
        slots[j] = NO
    memo = mc.slots_memo  # (shared by every MA: the stopping nodes are by MA)
    stop = memo.get(("stop", mc.ma2))
    if stop is None:
        stop = memo[("stop", mc.ma2)] = frozenset(i * 6 + f for i in mc.zoc_stop for f in range(6))
    if mc.start_turn and h in mc.zoc_stop:
        stop = stop - {h * 6 + f for f in range(6)}  # turning in the hex it starts in (001 7.23)
    return slots, stop, changed


def legal_destinations(state: State, mover: Unit | Leader) -> dict[int, int]:
    """Every legal final (hex, facing) node with its least cost: what the UI highlights."""
    reach = reachable(state, mover)
    return {n: reach.dist[n] for n in reach.ends()}


def mp_text(half: int) -> int | float:
    """Half points back to movement points for reports (an int when whole)."""
    return half // HALF if half % HALF == 0 else half / HALF


def hexes_within(state: State, centre: int, radius: int) -> Iterable[int]:
    grid = state.field.grid
    for i in range(grid.size):
        if grid.distance(centre, i) <= radius:
            yield i
