"""The battleboard's state: plain, fast dataclasses with an explicit ``clone``.

Squares are integers ``row * columns + column`` (0-based, row 0 = side A's home
edge); ``Board.name`` / ``Board.parse`` convert to the case notation (``"c2"``).
docs/rules/battleboard.md §2–§3.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from battleboard.actions import OFF as OFF
from battleboard.actions import Action as Action
from battleboard.tables import Tables

#: statuses a unit can have (FORMAT.md, plus ``reserve`` for units waiting to enter, §4.2)
GONE = frozenset({"eliminated", "sunk", "drowned", "captured", "escaped", "broken_through"})


def other(side: str) -> str:
    return "B" if side == "A" else "A"


@dataclass(frozen=True, slots=True)
class Board:
    """The static board: size, the feature of every square, adjacency and firing lines."""

    terrain: str
    kind: str  # land | naval
    columns: int
    rows: int
    deploy_rows: int
    feature: tuple[str, ...]
    neighbors: tuple[tuple[int, ...], ...]
    #: per square: (square two steps away in a straight line, the square between)
    lines2: tuple[tuple[tuple[int, int], ...], ...]

    @classmethod
    def build(
        cls, terrain: str, kind: str, columns: int, rows: int, deploy_rows: int, features: dict[int, str], base: str
    ) -> Board:
        n = columns * rows
        feature = tuple(features.get(i, base) for i in range(n))
        neighbors: list[tuple[int, ...]] = []
        lines2: list[tuple[tuple[int, int], ...]] = []
        for i in range(n):
            r, c = divmod(i, columns)
            nb: list[int] = []
            l2: list[tuple[int, int]] = []
            for dc, dr in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                c1, r1 = c + dc, r + dr
                if 0 <= c1 < columns and 0 <= r1 < rows:
                    nb.append(r1 * columns + c1)
                    c2, r2 = c + 2 * dc, r + 2 * dr
                    if 0 <= c2 < columns and 0 <= r2 < rows:
                        l2.append((r2 * columns + c2, r1 * columns + c1))
            neighbors.append(tuple(nb))
            lines2.append(tuple(l2))
        return cls(terrain, kind, columns, rows, deploy_rows, feature, tuple(neighbors), tuple(lines2))

    def name(self, sq: int) -> str:
        r, c = divmod(sq, self.columns)
        return f"{chr(ord('a') + c)}{r + 1}"

    def parse(self, name: str) -> int | None:
        """The square named ``name`` ("c2"), or None if it is not on this board."""
        if not isinstance(name, str) or len(name) < 2 or not name[0].isalpha() or not name[1:].isdigit():
            return None
        c = ord(name[0].lower()) - ord("a")
        r = int(name[1:]) - 1
        if 0 <= c < self.columns and 0 <= r < self.rows:
            return r * self.columns + c
        return None

    def row(self, sq: int) -> int:
        return sq // self.columns

    def col(self, sq: int) -> int:
        return sq % self.columns

    def home_row(self, side: str) -> int:
        return 0 if side == "A" else self.rows - 1

    def deploy_squares(self, side: str) -> list[int]:
        """The side's set-up squares, the row nearest the enemy first, centre outwards (§4.2)."""
        rows = range(self.deploy_rows - 1, -1, -1) if side == "A" else range(self.rows - self.deploy_rows, self.rows)
        mid = (self.columns - 1) / 2
        cols = sorted(range(self.columns), key=lambda c: (abs(c - mid), c))
        return [r * self.columns + c for r in rows for c in cols]

    def distance(self, a: int, b: int) -> int:
        ra, ca = divmod(a, self.columns)
        rb, cb = divmod(b, self.columns)
        return abs(ra - rb) + abs(ca - cb)


@dataclass(frozen=True, slots=True)
class Config:
    """What does not change during a battle."""

    tables: Tables
    board: Board
    kind: str  # land | naval
    trigger: str  # land: battle | storm; naval: mutual | supply | interception (004)
    options: frozenset[str]
    max_turns: int
    #: derived lookups (terrain per unit class, modifiers), filled on first use
    cache: dict[Any, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)

    def terrain(self, cls: str) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
        """Per square: may a unit of ``cls`` enter it, and does entering end its move (§2.3)."""
        key = ("terrain", cls)
        found = self.cache.get(key)
        if found is None:
            feats = self.tables.boards.features
            enter = tuple(cls in feats[f].passable for f in self.board.feature)
            stop = tuple(feats[f].ends_move for f in self.board.feature)
            found = self.cache[key] = (enter, stop)
        return found

    def steps(self, cls: str) -> tuple[tuple[int, ...], ...]:
        """Per square: its neighbours a unit of ``cls`` may enter, in the board's order."""
        key = ("steps", cls)
        found = self.cache.get(key)
        if found is None:
            enter = self.terrain(cls)[0]
            found = self.cache[key] = tuple(tuple(n for n in nb if enter[n]) for nb in self.board.neighbors)
        return found


@dataclass(slots=True)
class Unit:
    id: str
    side: str  # who controls it now (a captured ship changes side)
    owner: str  # whose it was when the battle began
    kind: str
    discipline: str
    strength: int
    square: int | None = None
    flipped: bool = False
    status: str = "active"
    aboard: str | None = None  # passengers: the fleet carrying them
    cargo: list[str] = field(default_factory=list)  # fleets: ground units aboard, in order (§13.5)
    captured: bool = False  # a ship captured in this battle (004 Combat: Boarding)
    captor: str | None = None  # the ground unit holding a captured ship
    captured_now: bool = False  # captured this player turn: may not attack
    moved: bool = False
    attacked: bool = False
    failed: bool = False  # failed its command check this player turn (§6.1)
    inspired: bool = False  # §9.2
    returns: bool = False  # fled and comes back after the battle (§10.3)
    kills: int = 0  # enemy units it eliminated (§12.2)
    name: str = ""

    def clone(self) -> Unit:
        return Unit(
            self.id,
            self.side,
            self.owner,
            self.kind,
            self.discipline,
            self.strength,
            self.square,
            self.flipped,
            self.status,
            self.aboard,
            list(self.cargo),
            self.captured,
            self.captor,
            self.captured_now,
            self.moved,
            self.attacked,
            self.failed,
            self.inspired,
            self.returns,
            self.kills,
            self.name,
        )


@dataclass(slots=True)
class Leader:
    id: str
    side: str
    rating: int
    discipline: str = "V"
    square: int | None = None
    aboard: str | None = None
    status: str = "active"  # active | killed | captured | drowned | eliminated | escaped
    plays: int = 0
    moved: bool = False
    name: str = ""

    def clone(self) -> Leader:
        return Leader(
            self.id,
            self.side,
            self.rating,
            self.discipline,
            self.square,
            self.aboard,
            self.status,
            self.plays,
            self.moved,
            self.name,
        )


@dataclass(slots=True)
class State:
    cfg: Config
    units: dict[str, Unit]
    leaders: dict[str, Leader]
    grid: dict[int, str]  # square -> id of the unit (land unit or fleet) on it
    side: str
    phase: str  # allocate | deploy | command | move | combat | over
    turn: int
    superior: str
    active_side: str  # the campaign's Active Player
    original_fleets: dict[str, int]
    original_sp: dict[str, int]
    stratagems: dict[str, int]
    panicked: list[str] = field(default_factory=list)
    double_used: bool = False
    double_now: bool = False
    moved_any: bool = False
    winner: str | None = None
    end_reason: str = ""
    allocations: dict[str, Action] = field(default_factory=dict)
    deployed: list[str] = field(default_factory=list)
    #: squares next to the enemies of each side, cached until the grid or a side changes
    adj_cache: dict[str, set[int]] = field(default_factory=dict)
    naval: bool = False  # set from cfg.kind after construction

    def __post_init__(self) -> None:
        self.naval = self.cfg.kind == "naval"

    def clone(self) -> State:
        return State(
            self.cfg,
            {k: u.clone() for k, u in self.units.items()},
            {k: ld.clone() for k, ld in self.leaders.items()},
            dict(self.grid),
            self.side,
            self.phase,
            self.turn,
            self.superior,
            self.active_side,
            dict(self.original_fleets),
            dict(self.original_sp),
            dict(self.stratagems),
            list(self.panicked),
            self.double_used,
            self.double_now,
            self.moved_any,
            self.winner,
            self.end_reason,
            dict(self.allocations),
            list(self.deployed),
        )

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def first_side(self) -> str:
        return self.superior
