"""Pixel geometry of the pointy-top hex map (``cases/FORMAT.md``): hex centres, corners,
facing vertices and hexside midpoints in world pixels, and pixel -> hex.

Row 01 is the top of the map; even rows are shifted half a hex to the right.  World
``y`` grows upward, so row ``r`` sits at ``(rows - r) * 1.5 * size``.  A facing ``f``
(clock 12, 2, 4, 6, 8, 10) is the vertex at ``90 - 60 f`` degrees; direction ``d``
(NE, E, SE, SW, W, NW) the hexside whose midpoint is at ``60 - 60 d`` degrees.
"""

from __future__ import annotations

import math

from tactical.hexes import Grid

SQRT3 = math.sqrt(3.0)


class HexLayout:
    """World-pixel layout of one grid with hexes of circumradius ``size``."""

    def __init__(self, grid: Grid, size: float = 36.0) -> None:
        self.grid = grid
        self.size = size
        self.width = SQRT3 * size  # flat-to-flat
        self.centres: list[tuple[float, float]] = [self._centre(i) for i in range(grid.size)]

    def _centre(self, index: int) -> tuple[float, float]:
        c, r = self.grid.col_row(index)
        x = self.width * ((c - 1) + (0.5 if r % 2 == 0 else 0.0)) + self.width / 2
        y = (self.grid.rows - r) * 1.5 * self.size + self.size
        return x, y

    @property
    def extent(self) -> tuple[float, float]:
        """World width and height of the whole map."""
        return self.width * (self.grid.columns + 0.5), 1.5 * self.size * (self.grid.rows - 1) + 2 * self.size

    def centre(self, index: int) -> tuple[float, float]:
        return self.centres[index]

    def corners(self, index: int, scale: float = 1.0) -> list[tuple[float, float]]:
        x, y = self.centres[index]
        r = self.size * scale
        return [
            (x + r * math.cos(math.radians(90 - 60 * k)), y + r * math.sin(math.radians(90 - 60 * k))) for k in range(6)
        ]

    def vertex(self, index: int, facing: int, scale: float = 1.0) -> tuple[float, float]:
        x, y = self.centres[index]
        a = math.radians(90 - 60 * facing)
        return x + self.size * scale * math.cos(a), y + self.size * scale * math.sin(a)

    def side_mid(self, index: int, direction: int, scale: float = 1.0) -> tuple[float, float]:
        x, y = self.centres[index]
        a = math.radians(60 - 60 * direction)
        d = self.width / 2 * scale
        return x + d * math.cos(a), y + d * math.sin(a)

    def side_ends(self, index: int, direction: int) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two corners of hexside ``direction`` (between facings ``direction`` and ``+1``)."""
        return self.vertex(index, direction), self.vertex(index, (direction + 1) % 6)

    def hex_at(self, x: float, y: float) -> int:
        """The hex under world point (x, y), or -1 off the map (nearest centre within the hex)."""
        rows, cols = self.grid.rows, self.grid.columns
        r_guess = rows - round((y - self.size) / (1.5 * self.size))
        best, best_d = -1, float("inf")
        for r in (r_guess - 1, r_guess, r_guess + 1):
            if not 1 <= r <= rows:
                continue
            shift = 0.5 if r % 2 == 0 else 0.0
            c_guess = round((x - self.width / 2) / self.width - shift) + 1
            for c in (c_guess - 1, c_guess, c_guess + 1):
                if not 1 <= c <= cols:
                    continue
                i = (r - 1) * cols + (c - 1)
                cx, cy = self.centres[i]
                d = (cx - x) ** 2 + (cy - y) ** 2
                if d < best_d:
                    best, best_d = i, d
        if best < 0 or best_d > self.size**2:
            return -1
        return best

    def nearest_facing(self, index: int, x: float, y: float) -> int:
        """The facing vertex of hex ``index`` nearest the world point (x, y)."""
        cx, cy = self.centres[index]
        ang = math.degrees(math.atan2(y - cy, x - cx))
        return round((90 - ang) / 60) % 6
