"""Where the camera opens: both battle lines in view (issue 16).

The opening frame is worked out from the model alone (no arcade here), so a test can check it
against the projected positions of the units.

The rule, written down:

* A side's **front rank** is, in each file (a hex-wide lane running from one army's centre
  toward the other's), its unit nearest the enemy.
* The camera opens at the largest zoom step, up to 1.0, at which every unit on the map fits
  the map area (with a margin of a hex and a half); failing that, both front ranks.
* When that zoom would be too small to read a counter (under ``LEGIBLE``), it takes the
  largest step at which the armies' whole depth fits (failing that, the front ranks' depth:
  both lines, top to bottom) and centres across on the front rank of the side to act,
  without going past the ends of the lines; the minimap shows the rest.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tactical.state import State, Unit
from tactical.view.geometry import HexLayout

#: the smallest zoom at which a counter's figures can still be read
LEGIBLE = 0.55


def _centroid(points: Sequence[tuple[float, float]]) -> tuple[float, float]:
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)


def front_ranks(state: State, layout: HexLayout) -> dict[str, list[Unit]]:
    """Each side's front rank (see the module's rule); empty when a side has no unit on the map."""
    on_map = {side: [u for u in state.units.values() if u.on_map and u.side == side] for side in ("A", "B")}
    if not on_map["A"] or not on_map["B"]:
        return {side: [] for side in on_map}
    ca = _centroid([layout.centre(u.hex) for u in on_map["A"]])
    cb = _centroid([layout.centre(u.hex) for u in on_map["B"]])
    length = math.hypot(cb[0] - ca[0], cb[1] - ca[1]) or 1.0
    ax, ay = (cb[0] - ca[0]) / length, (cb[1] - ca[1]) / length
    out: dict[str, list[Unit]] = {}
    for side, sign in (("A", 1.0), ("B", -1.0)):
        foremost: dict[int, tuple[float, Unit]] = {}
        for u in on_map[side]:
            x, y = layout.centre(u.hex)
            ahead = sign * (x * ax + y * ay)
            lane = round((-x * ay + y * ax) / layout.width)  # the file across the line it stands in
            if lane not in foremost or ahead > foremost[lane][0]:
                foremost[lane] = (ahead, u)
        out[side] = sorted((u for _a, u in foremost.values()), key=lambda u: u.id)
    return out


def _box(points: Sequence[tuple[float, float]], margin: float) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin


def opening_frame(
    state: State, layout: HexLayout, area: tuple[float, float], zooms: Sequence[float]
) -> tuple[float, float, float] | None:
    """``(zoom, world x, world y)`` of the opening camera for a map area of ``area`` pixels
    (width, height), or None when there are not two sides on the map."""
    ranks = front_ranks(state, layout)
    if not ranks["A"] or not ranks["B"]:
        return None
    margin = layout.size * 1.6
    front = _box([layout.centre(h) for side in ("A", "B") for u in ranks[side] for h in u.hexes()], margin)
    armies = _box([layout.centre(h) for u in state.units.values() if u.on_map for h in u.hexes()], margin)
    steps = sorted((z for z in zooms if z <= 1.0), reverse=True) or [min(zooms, default=1.0)]
    for x0, y0, x1, y1 in (armies, front):  # all of it in view, at a legible zoom
        z = next((z for z in steps if (x1 - x0) * z <= area[0] and (y1 - y0) * z <= area[1]), 0.0)
        if z >= LEGIBLE:
            return z, (x0 + x1) / 2, (y0 + y1) / 2
    acting = state.seq.side if state.seq.side in ranks else "A"
    across = _centroid([layout.centre(u.hex) for u in ranks[acting]])[0]
    for x0, y0, x1, y1 in (armies, front):  # the lines' whole depth, across on the side to act
        z = next((z for z in steps if (y1 - y0) * z <= area[1]), 0.0)
        if z >= LEGIBLE or (x0, y0, x1, y1) == front:
            z = z or steps[-1]
            half = area[0] / 2 / z
            if front[2] - front[0] <= 2 * half:  # the whole front fits across: centre it
                cx = (front[0] + front[2]) / 2
            else:  # not past the ends of the lines
                cx = min(max(across, front[0] + half), front[2] - half)
            return z, cx, (y0 + y1) / 2
    return None
