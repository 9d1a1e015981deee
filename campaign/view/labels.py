"""Names on the map that never overlap (issue 15, level-of-detail labels).

Every label wishes for a few boxes (beside its marker on the right, then on the left,
above, below); labels are placed in priority order, each in the first of its boxes that
touches no box already placed nor an obstacle (the force counters), and a label with no
free box stays hidden.  A label that ``must`` show (an off-map region's name inside its
box) takes its first box whatever it touches.

Boxes are (left, bottom, right, top) in pixels of the map at the current zoom, measured
from the world's origin (world units times the zoom): panning moves them all alike, so
the answer only changes with the zoom or what is on the map.  Pure: no arcade.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Box = tuple[float, float, float, float]

#: the side of the grid's cells (pixels) that index placed boxes
CELL = 64.0


@dataclass(slots=True)
class Wish:
    """A label to place: the boxes it may take, best first."""

    key: int
    priority: int
    boxes: Sequence[Box]
    must: bool = False


def overlaps(a: Box, b: Box) -> bool:
    """Whether two boxes share any area (touching edges do not count)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def beside(x: float, y: float, w: float, h: float, gap: float) -> list[Box]:
    """The boxes of a ``w`` x ``h`` label beside a marker at (x, y) whose half-size is ``gap``:
    right, left, above, below."""
    return [
        (x + gap, y - h / 2, x + gap + w, y + h / 2),
        (x - gap - w, y - h / 2, x - gap, y + h / 2),
        (x - w / 2, y + gap * 0.7, x + w / 2, y + gap * 0.7 + h),
        (x - w / 2, y - gap * 0.7 - h, x + w / 2, y - gap * 0.7),
    ]


class _Grid:
    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], list[Box]] = {}

    @staticmethod
    def keys(b: Box) -> list[tuple[int, int]]:
        return [
            (i, j)
            for i in range(math.floor(b[0] / CELL), math.floor(b[2] / CELL) + 1)
            for j in range(math.floor(b[1] / CELL), math.floor(b[3] / CELL) + 1)
        ]

    def free(self, b: Box) -> bool:
        return not any(overlaps(b, o) for k in self.keys(b) for o in self.cells.get(k, ()))

    def add(self, b: Box) -> None:
        for k in self.keys(b):
            self.cells.setdefault(k, []).append(b)


def place(wishes: Iterable[Wish], obstacles: Iterable[Box] = ()) -> dict[int, Box | None]:
    """Each wish's box (None: hidden), placing the wishes by priority (lower first; equal
    priorities in the order given).  No two placed boxes overlap unless both ``must``."""
    grid = _Grid()
    for b in obstacles:
        grid.add(b)
    labels = _Grid()
    out: dict[int, Box | None] = {}
    for wish in sorted(wishes, key=lambda w: w.priority):
        chosen: Box | None = None
        if wish.must and wish.boxes:
            chosen = wish.boxes[0]
        else:
            chosen = next((b for b in wish.boxes if labels.free(b) and grid.free(b)), None)
        if chosen is not None:
            labels.add(chosen)
        out[wish.key] = chosen
    return out
