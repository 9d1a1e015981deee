"""Hex geometry of the GBoH battlefield, exactly as ``cases/FORMAT.md`` fixes it.

Pointy-top hexes in horizontal rows; a hex id is ``"CCRR"`` (column, row, both
from 01); even-numbered rows are shifted half a hex to the right.  Internally a
hex is one integer ``index = (row - 1) * columns + (column - 1)``; ids appear
only at the edges (cases, saves, the UI).

Directions are numbered clockwise from north-east: ``NE=0, E=1, SE=2, SW=3,
W=4, NW=5``.  A facing is a vertex, stored as ``0..5`` for the clock hours
``12, 2, 4, 6, 8, 10``.  A unit facing ``f`` has frontal hexes in directions
``f-1`` and ``f``, flank hexes ``f-2`` and ``f+1`` and rear hexes ``f-3`` and
``f+2`` (all mod 6) — FORMAT.md's table, written as arithmetic.

A column (``000 §6.46``) faces a hexside instead of a vertex; we write that
facing as the odd clock hour of the hexside (``1, 3, 5, 7, 9, 11`` for NE, E,
SE, SW, W, NW), which is the direction index.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

NE, E, SE, SW, W, NW = range(6)
DIRECTION_NAMES = ("NE", "E", "SE", "SW", "W", "NW")
#: clock hour of each vertex facing 0..5
FACING_CLOCK = (12, 2, 4, 6, 8, 10)
CLOCK_FACING = {c: i for i, c in enumerate(FACING_CLOCK)}
#: clock hour of each hexside direction 0..5 (column facings, 000 §6.46)
SIDE_CLOCK = (1, 3, 5, 7, 9, 11)
CLOCK_SIDE = {c: i for i, c in enumerate(SIDE_CLOCK)}

# (dc, dr) per direction for odd rows and even rows (FORMAT.md neighbour table)
_ODD = ((0, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (-1, -1))
_EVEN = ((1, -1), (1, 0), (1, 1), (0, 1), (-1, 0), (0, -1))

_HEX_ID = re.compile(r"^\d{4}$")


def frontal_dirs(facing: int) -> tuple[int, int]:
    """The two directions of a single-hex unit's frontal hexes (FORMAT.md)."""
    return ((facing - 1) % 6, facing)


def flank_dirs(facing: int) -> tuple[int, int]:
    return ((facing - 2) % 6, (facing + 1) % 6)


def rear_dirs(facing: int) -> tuple[int, int]:
    return ((facing - 3) % 6, (facing + 2) % 6)


def hex2_dir(facing: int) -> int:
    """Direction from ``hex`` to ``hex2`` of a double-sized unit: a quarter-turn clockwise."""
    return (facing + 1) % 6


def vertex_turns(a: int, b: int) -> int:
    """How many vertices a unit pivots to go from facing ``a`` to ``b`` (0–3)."""
    d = (b - a) % 6
    return min(d, 6 - d)


@dataclass(frozen=True, slots=True)
class Grid:
    """A rectangular hex map: neighbour table and distances over integer indices."""

    columns: int
    rows: int
    #: neighbour index per ``index * 6 + direction``; -1 off the map
    nbr: tuple[int, ...] = field(repr=False, compare=False, default=())
    #: axial (q, r) per index, for distances and lines
    axial: tuple[tuple[int, int], ...] = field(repr=False, compare=False, default=())
    #: the ``CCRR`` id of every index
    ids: tuple[str, ...] = field(repr=False, compare=False, default=())

    @classmethod
    def make(cls, columns: int, rows: int) -> Grid:
        if not (1 <= columns <= 99 and 1 <= rows <= 99):
            raise ValueError("a map has 1–99 columns and 1–99 rows")
        nbr: list[int] = []
        axial: list[tuple[int, int]] = []
        for r in range(1, rows + 1):
            for c in range(1, columns + 1):
                axial.append((c - (r + 1) // 2, r))
                table = _EVEN if r % 2 == 0 else _ODD
                for dc, dr in table:
                    cc, rr = c + dc, r + dr
                    nbr.append((rr - 1) * columns + (cc - 1) if 1 <= cc <= columns and 1 <= rr <= rows else -1)
        ids = tuple(f"{c:02d}{r:02d}" for r in range(1, rows + 1) for c in range(1, columns + 1))
        return cls(columns, rows, tuple(nbr), tuple(axial), ids)

    @property
    def size(self) -> int:
        return self.columns * self.rows

    # -- ids at the edges -------------------------------------------------
    def index(self, hex_id: str) -> int:
        """The index of ``"CCRR"``; ValueError if malformed or off the map."""
        if not isinstance(hex_id, str) or not _HEX_ID.match(hex_id):
            raise ValueError(f"{hex_id!r} is not a hex id of the form CCRR")
        c, r = int(hex_id[:2]), int(hex_id[2:])
        if not (1 <= c <= self.columns and 1 <= r <= self.rows):
            raise ValueError(f"hex {hex_id} is off the {self.columns}×{self.rows} map")
        return (r - 1) * self.columns + (c - 1)

    def hex_id(self, index: int) -> str:
        return self.ids[index]

    def col_row(self, index: int) -> tuple[int, int]:
        r, c = divmod(index, self.columns)
        return c + 1, r + 1

    # -- relations ------------------------------------------------------------
    def neighbour(self, index: int, direction: int) -> int:
        return self.nbr[index * 6 + direction]

    def neighbours(self, index: int) -> Iterator[int]:
        base = index * 6
        for d in range(6):
            j = self.nbr[base + d]
            if j >= 0:
                yield j

    def direction(self, a: int, b: int) -> int:
        """The direction from ``a`` to its neighbour ``b``; -1 if not adjacent."""
        base = a * 6
        for d in range(6):
            if self.nbr[base + d] == b:
                return d
        return -1

    def distance(self, a: int, b: int) -> int:
        q1, r1 = self.axial[a]
        q2, r2 = self.axial[b]
        dq, dr = q1 - q2, r1 - r2
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def on_edge(self, index: int) -> bool:
        c, r = self.col_row(index)
        return c in (1, self.columns) or r in (1, self.rows)

    def line(self, a: int, b: int) -> list[tuple[int, ...]]:
        """The hexes a straight line from ``a`` to ``b`` crosses, in order.

        Each entry is a tuple of one hex, or of two hexes where the line runs
        exactly along their common hexside (then either may block, per the
        usual GBoH line-of-sight convention: it is blocked only if both do).
        """
        n = self.distance(a, b)
        if n == 0:
            return [(a,)]
        q1, r1 = self.axial[a]
        q2, r2 = self.axial[b]
        out: list[tuple[int, ...]] = []
        for i in range(n + 1):
            t = i / n
            q = q1 + (q2 - q1) * t
            r = r1 + (r2 - r1) * t
            lo = self._axial_index(*_cube_round(q + 1e-6, r + 1e-6))
            hi = self._axial_index(*_cube_round(q - 1e-6, r - 1e-6))
            out.append((lo,) if lo == hi else (lo, hi))
        return out

    def _axial_index(self, q: int, r: int) -> int:
        c = q + (r + 1) // 2
        if not (1 <= c <= self.columns and 1 <= r <= self.rows):
            return -1
        return (r - 1) * self.columns + (c - 1)


def _cube_round(q: float, r: float) -> tuple[int, int]:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return int(rq), int(rr)


def facing_from_clock(hour: int) -> int:
    if hour not in CLOCK_FACING:
        raise ValueError(f"facing {hour!r} is not one of 12, 2, 4, 6, 8, 10")
    return CLOCK_FACING[hour]
