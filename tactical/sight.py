"""Line of sight between two hexes (for missile fire, 003 §8.1, 000 §8.13 "8.16").

The seeds keep the Standard line-of-sight rule without its text; the project's
reading (docs/rules/tactical.md §1.4): the line runs centre to centre; a hex in
between blocks it if it holds a combat unit, is woods or a town, or stands higher
than both ends.  Where the line runs exactly along a hexside it is blocked only
if the hexes on both sides block.
"""

from __future__ import annotations

from tactical.state import State
from tactical.tables import TERRAIN_INDEX

_BLOCKING_TERRAIN = frozenset({TERRAIN_INDEX["woods"], TERRAIN_INDEX["town"]})


def blocks(state: State, index: int, top: int, occupied: set[int]) -> bool:
    field = state.field
    return index in occupied or field.terrain[index] in _BLOCKING_TERRAIN or field.level[index] > top


def line_of_sight(state: State, a: int, b: int) -> bool:
    """Whether ``a`` sees ``b`` (either way: the rule is symmetric)."""
    grid = state.field.grid
    top = max(state.field.level[a], state.field.level[b])
    occupied = {h for u in state.units.values() if u.on_map for h in u.hexes()}
    return not any(all(h < 0 or blocks(state, h, top, occupied) for h in cell) for cell in grid.line(a, b)[1:-1])
