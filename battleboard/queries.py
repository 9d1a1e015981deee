"""The battleboard's chance and its queries of a position (docs/rules/battleboard.md): the
``Chance`` every roll goes through (combat results may be forced for the rules cases),
where units and leaders stand, what is lost, where a unit may move or fire, whether an army
may leave the field; and the two small steps every rule takes (``log_event``, ``lift_off``).
Nothing here changes the game but those two.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from functools import lru_cache

from battleboard.model import Action, Board, Config, Leader, State, Unit, other
from bellum.dice import Dice
from bellum.errors import DiceError
from bellum.events import Event

BOARDING_MODES = ("phalanx", "wedge", "quincunx")  # 004 Combat: Boarding
DISC_ORDER = {"I": 0, "V": 1, "R": 2, "B": 3, "M": 4}


class MissingResultError(DiceError):
    """A combat-table result was needed but none was forced."""

    def __init__(self, label: str, row: tuple[str, ...] = (), low: int = 0, mod: int = 0) -> None:
        self.label = label
        self.row = row
        self.low = low
        self.mod = mod
        super().__init__(f"a combat result was needed ({label}) but no forced result was given")


class Chance:
    """Dice plus, for rules cases and odds, forced combat-table results (FORMAT.md)."""

    __slots__ = ("actions", "dice", "drawn", "results", "used")

    def __init__(self, dice: Dice, results: Iterable[str] | None = None, *, record: list[Action] | None = None) -> None:
        self.dice = dice
        #: every action played with this chance, when asked for (a headless battle's save)
        self.actions = record
        self.results: deque[str] | None = None if results is None else deque(results)
        self.used = 0
        self.drawn: list[str] = []  # every combat result so far, for the log

    def combat(self, row: tuple[str, ...], low: int, mod: int, label: str) -> str:
        """One attack roll on a combat-table row (§8.2)."""
        self.used += 1
        if self.results is not None:
            if not self.results:
                raise MissingResultError(label, row, low, mod)
            r = self.results.popleft()
        else:
            i = self.dice.d10(label) + mod - low
            if i < 0:
                i = 0
            elif i >= len(row):
                i = len(row) - 1
            r = row[i]
        self.drawn.append(r)
        return r


# --------------------------------------------------------------------------
# queries
# --------------------------------------------------------------------------
def on_board(u: Unit) -> bool:
    return u.status == "active" and u.square is not None


def active_ground(s: State, fleet: Unit) -> Unit | None:
    """The fleet's active ground unit: the first passenger that is not an impeditus (004 Passengers)."""
    for pid in fleet.cargo:
        p = s.units[pid]
        if p.kind != "impeditus":
            return p
    return None


def unit_square(s: State, u: Unit) -> int | None:
    """Where a unit is: its own square, or its fleet's square for passengers."""
    if u.square is not None:
        return u.square
    if u.aboard is not None and u.status == "active":
        return s.units[u.aboard].square
    return None


def leader_square(s: State, ld: Leader) -> int | None:
    if ld.aboard is not None:
        return s.units[ld.aboard].square
    return ld.square


def leaders_with(s: State, u: Unit) -> list[Leader]:
    """Leaders standing with a land unit or aboard a fleet (§3.3)."""
    if s.naval:
        return [ld for ld in s.leaders.values() if ld.status == "active" and ld.aboard == u.id]
    return [
        ld
        for ld in s.leaders.values()
        if ld.status == "active" and ld.square is not None and ld.square == u.square and ld.side == u.side
    ]


def fights(s: State, u: Unit) -> bool:
    return s.cfg.tables.units.kinds[u.kind].rolls > 0


def present(s: State, side: str) -> bool:
    """Has ``side`` anything left to fight with on the board (§11.1)?"""
    if s.naval:  # at sea only fleets stand on the board, every one of them active
        units = s.units
        return any(units[uid].side == side for uid in s.grid.values())
    for u in s.units.values():
        if u.side == side and u.kind != "impeditus":
            st = u.status
            if st == "reserve" or (st == "active" and u.square is not None):
                return True
    return False


def fleets_held(s: State, side: str) -> int:
    """Fleets a naval force holds now, captured ones included (004 Panic)."""
    units = s.units  # every unit on the grid is on the board; at sea they are all fleets
    return sum(1 for uid in s.grid.values() if units[uid].side == side and units[uid].kind == "fleet")


def victory_lost(u: Unit) -> bool:
    """Does this unit count as lost by its owner for victory (§11.2, 004 Victory, 004 Escape)?"""
    if u.status in ("eliminated", "sunk", "drowned", "captured", "broken_through"):
        return True
    if u.status == "escaped":
        return not u.returns
    return u.side != u.owner  # a ship held by the enemy


def really_lost(u: Unit) -> bool:
    """Lost for the campaign: like ``victory_lost`` but broken-through ships sail on (a ship
    of one's own that the enemy captured is lost wherever it sails)."""
    if u.side != u.owner:
        return True
    return u.status != "broken_through" and victory_lost(u)


_LOST = frozenset({"eliminated", "sunk", "drowned", "captured", "broken_through"})
_LOST_HERE = frozenset({"eliminated", "sunk", "drowned", "captured"})


def sp_lost(s: State, side: str, *, for_victory: bool = True) -> int:
    """SP ``side`` has lost: ``victory_lost`` (or ``really_lost``) units' strength, the two
    tests written out in one pass (the AI and the end of every battle ask it)."""
    total = 0
    if for_victory:
        for u in s.units.values():
            if u.owner == side:
                st = u.status
                if st in _LOST or (not u.returns if st == "escaped" else u.side != side):
                    total += u.strength
        return total
    for u in s.units.values():
        if u.owner == side:
            st = u.status
            if u.side != side or (st in _LOST_HERE or (st == "escaped" and not u.returns)):
                total += u.strength
    return total


def scores(s: State) -> dict[str, int]:
    """SP each side has eliminated or captured (§11.2)."""
    return {"A": sp_lost(s, "B"), "B": sp_lost(s, "A")}


def land_lost(s: State, side: str) -> int:
    """SP a land force has lost for panic: eliminated, captured or fled (§10.1)."""
    return sum(
        u.strength
        for u in s.units.values()
        if u.owner == side and (u.status in ("eliminated", "captured", "escaped", "drowned", "sunk"))
    )


def moves_of(s: State, u: Unit) -> list[int]:
    """Squares a unit may end its move on this player turn (§7, 004 Movement): a search outward
    from its square, step by step (its first step's squares, then its second's, ...), each
    square in the order first reached — the generator's order of its moves."""
    cfg = s.cfg
    if u.status == "reserve":
        kinds = cfg.tables.units.kinds
        spec = kinds[u.kind]
        board = cfg.board
        feats = cfg.tables.boards.features
        home = board.home_row(u.side)
        return [
            home * board.columns + c
            for c in range(board.columns)
            if home * board.columns + c not in s.grid
            and spec.cls in feats[board.feature[home * board.columns + c]].passable
        ]
    start = u.square
    if start is None:
        return []
    movers = cfg.cache.get(_MOVERS)
    if movers is None:
        movers = cfg.cache[_MOVERS] = {}
    found = movers.get(u.kind)
    if found is None:
        found = movers[u.kind] = _Mover(cfg, u.kind)
    ma = found.movement
    if u.captured:
        ma = cfg.tables.units.captured_fleet_movement
    elif s.double_now:
        ma *= 2
    grid = s.grid
    steps = found.steps
    if ma <= 1:
        return [n for n in steps[start] if n not in grid] if ma == 1 else []
    units = s.units
    side = u.side
    enemy_adj = s.adj_cache.get(side)
    if enemy_adj is None:
        neighbors = cfg.board.neighbors
        enemy_adj = set()
        for sq, uid in grid.items():
            if units[uid].side != side:
                enemy_adj.update(neighbors[sq])
        s.adj_cache[side] = enemy_adj
    stop = found.stop
    # the first step: where it may stop, and (a bit each) the squares it may go on from — not
    # an enemy's square, nor one that ends a move (§2.3 terrain, §7.2 contact)
    out: list[int] = []
    onward = 0
    for n, bit in found.firsts[start]:
        occ = grid.get(n)
        if occ is None:
            out.append(n)
        elif units[occ].side != side:
            continue
        if not stop[n] and n not in enemy_adj:
            onward |= bit
    if not onward:
        return out
    # the second step: the squares first reached from those, in the search's order, hang
    # only on the board and which first squares it may go on from (``_Mover.second``)
    far = found.seconds.get(start * 16 + onward)
    if far is None:
        far = found.second(start, onward)
    if ma == 2:
        out += [n for n in far if n not in grid]
        return out
    seen = {start, *steps[start], *far}
    frontier: list[int] = []
    for n in far:
        occ = grid.get(n)
        if occ is None:
            out.append(n)
        elif units[occ].side != side:
            continue  # an enemy's square stays closed for the whole search
        if stop[n] or n in enemy_adj:
            continue
        frontier.append(n)
    for _ in range(ma - 3):
        nxt: list[int] = []
        for sq in frontier:
            for n in steps[sq]:  # the squares of its class's terrain (§2.3)
                if n in seen:
                    continue
                seen.add(n)
                occ = grid.get(n)
                if occ is None:
                    out.append(n)
                elif units[occ].side != side:
                    continue
                if stop[n] or n in enemy_adj:
                    continue  # §2.3 terrain, §7.2 contact
                nxt.append(n)
        frontier = nxt
    for sq in frontier:  # the last step: where it may stop, going no further
        for n in steps[sq]:
            if n not in seen:
                seen.add(n)
                if n not in grid:
                    out.append(n)
    return out


class _Mover:
    """What ``moves_of`` reads of a unit kind, laid out once a battle (``Config.cache``): its
    movement, its class's steps (``Config.steps``) and squares that end a move, each square's
    first steps with a bit each (at most 4: a square has 4 neighbours), and the second steps'
    squares by (square, which first steps it may go on from) as they are met."""

    __slots__ = ("firsts", "movement", "seconds", "steps", "stop")

    def __init__(self, cfg: Config, kind: str) -> None:
        spec = cfg.tables.units.kinds[kind]
        self.movement = spec.movement
        self.steps = cfg.steps(spec.cls)
        self.stop = cfg.terrain(spec.cls)[1]
        self.firsts = tuple(tuple((n, 1 << k) for k, n in enumerate(nb)) for nb in self.steps)
        self.seconds: dict[int, tuple[int, ...]] = {}

    def second(self, start: int, onward: int) -> tuple[int, ...]:
        """The squares first reached on the second step from ``start``, going on only from its
        first squares whose bits are in ``onward``, in the search's order (the board is static)."""
        steps = self.steps
        first = steps[start]
        seen = {start, *first}
        out: list[int] = []
        for k, n1 in enumerate(first):
            if onward >> k & 1:
                for n in steps[n1]:
                    if n not in seen:
                        seen.add(n)
                        out.append(n)
        found = self.seconds[start * 16 + onward] = tuple(out)
        return found


#: ``Config.cache`` key of each kind's ``_Mover``
_MOVERS = "moves of kinds"


def may_leave(s: State, u: Unit) -> str | None:
    """Why ``u`` may not move off the board now, or None if it may (§7.4, 004 Escape)."""
    board = s.cfg.board
    if u.square is None:
        return f"{u.id} is not on the board"
    row = board.row(u.square)
    if row == board.home_row(u.side):
        if u.side not in s.panicked:
            return f"{u.id} may not leave by its own edge before its force has panicked (004 Escape, §7.4)"
        if s.cfg.kind == "land" and u.moved:
            return f"{u.id} has already moved this turn"
        return None
    if row == board.home_row(other(u.side)):
        if s.naval and s.cfg.trigger == "interception" and u.side == s.active_side and u.kind == "fleet":
            if u.moved:
                return f"breaking through off the enemy edge takes {u.id}'s whole move (004 Escape)"
            return None
        return f"{u.id} may not leave by the enemy's edge (004 Escape, §7.4)"
    return f"{u.id} is not on a home-edge row and cannot leave the board"


def can_leave(s: State, u: Unit) -> bool:
    """``may_leave(s, u) is None`` without writing the reason out (the generator asks it for
    every unit it lists moves for)."""
    sq = u.square
    if sq is None:
        return False
    board = s.cfg.board
    row = sq // board.columns
    side = u.side
    if row == (0 if side == "A" else board.rows - 1):  # its own edge
        return side in s.panicked and not (u.moved and s.cfg.kind == "land")
    if row == (board.rows - 1 if side == "A" else 0):  # the enemy's edge
        return (
            s.naval and s.cfg.trigger == "interception" and side == s.active_side and u.kind == "fleet" and not u.moved
        )
    return False


def may_withdraw(s: State) -> str | None:
    """Why the side to play may not withdraw from the field now, or None if it may (§10.4)."""
    if s.naval:
        return "a fleet leaves a naval battle ship by ship, by its own edge (004 Escape)"
    if s.phase != "move":
        return "an army withdraws in its movement phase (§10.4)"
    if s.side not in s.panicked:
        return f"side {s.side} may not withdraw before its force has panicked (§10.4)"
    if s.moved_any:
        return "the withdrawal must be ordered before any unit moves (§10.4)"
    return None


def fire_targets(s: State, sq: int, side: str) -> list[int]:
    """Squares a Fire attack from ``sq`` reaches: adjacent, or two in a straight line with
    nothing between (§8.1, 004 Combat: Missile Fire)."""
    board = s.cfg.board
    grid = s.grid
    units = s.units
    out: list[int] = []
    for n in board.neighbors[sq]:
        uid = grid.get(n)
        if uid is not None and units[uid].side != side:
            out.append(n)
    for far, mid in board.lines2[sq]:
        uid = grid.get(far)
        if uid is not None and mid not in grid and units[uid].side != side:
            out.append(far)
    return out


def can_act(s: State, u: Unit) -> bool:
    return u.side == s.side and u.status == "active" and not u.failed


def log_event(ev: list[Event] | None, kind: str, text: str, **data: object) -> None:
    if ev is not None:
        ev.append(Event(kind, text, dict(data)))


def lift_off(s: State, u: Unit) -> None:
    if u.square is not None:
        s.grid.pop(u.square, None)
        u.square = None


@lru_cache(maxsize=64)
def _byte_masks(columns: int, rows: int) -> tuple[tuple[int, ...], int, int, int]:
    """For ``nearest_distances`` on a board of this size: each square's byte (bit ``8 *
    square``), a 1 in every square's byte, and the same without the first column and without
    the last column."""
    n = columns * rows
    bit = tuple(1 << (8 * q) for q in range(n))
    ones = sum(bit)
    not_first = sum(bit[q] for q in range(n) if q % columns != 0)
    not_last = sum(bit[q] for q in range(n) if q % columns != columns - 1)
    return bit, ones, not_first, not_last


def nearest_distances(board: Board, squares: Iterable[int]) -> list[int]:
    """Steps (Manhattan) from every square of ``board`` to the nearest of ``squares`` (99 for
    every square when there are none).

    A breadth-first spread from all of them at once, with the board held as one integer, a
    byte per square: each step adds every square next to one reached; a square's distance is
    the number of steps that had not reached it, summed byte by byte (at most 54 < 256, no
    carry), read back as the integer's bytes."""
    bit, ones, not_first, not_last = _byte_masks(board.columns, board.rows)
    reached = 0
    for q in squares:
        reached |= bit[q]
    n = len(bit)
    if not reached:
        return [99] * n
    row = 8 * board.columns
    total = 0
    while reached != ones:
        total += ones ^ reached
        reached |= (
            ((reached << 8) & not_first) | ((reached >> 8) & not_last) | ((reached << row) & ones) | (reached >> row)
        )
    return list(total.to_bytes(n, "little"))
