"""Hex geometry exactly as cases/FORMAT.md fixes it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tactical.hexes import (
    FACING_CLOCK,
    Grid,
    flank_dirs,
    frontal_dirs,
    hex2_dir,
    rear_dirs,
    vertex_turns,
)
from tactical.state import frontal_hexes, make_unit

G = Grid.make(30, 20)
NAMES = ("NE", "E", "SE", "SW", "W", "NW")
# FORMAT.md's neighbour table
ODD = {"E": (1, 0), "W": (-1, 0), "NE": (0, -1), "NW": (-1, -1), "SE": (0, 1), "SW": (-1, 1)}
EVEN = {"E": (1, 0), "W": (-1, 0), "NE": (1, -1), "NW": (0, -1), "SE": (1, 1), "SW": (0, 1)}


@pytest.mark.parametrize("hex_id", ["1005", "1006", "0101", "3020", "1510"])
def test_neighbours_follow_the_format_table(hex_id: str) -> None:
    c, r = int(hex_id[:2]), int(hex_id[2:])
    table = EVEN if r % 2 == 0 else ODD
    i = G.index(hex_id)
    for d, name in enumerate(NAMES):
        dc, dr = table[name]
        cc, rr = c + dc, r + dr
        want = f"{cc:02d}{rr:02d}" if 1 <= cc <= 30 and 1 <= rr <= 20 else None
        got = G.neighbour(i, d)
        assert (G.hex_id(got) if got >= 0 else None) == want, (hex_id, name)


def test_frontal_flank_rear_per_format() -> None:
    named = {
        12: (("NW", "NE"), ("W", "E"), ("SW", "SE")),
        2: (("NE", "E"), ("NW", "SE"), ("W", "SW")),
        4: (("E", "SE"), ("NE", "SW"), ("NW", "W")),
        6: (("SE", "SW"), ("E", "W"), ("NE", "NW")),
        8: (("SW", "W"), ("SE", "NW"), ("E", "NE")),
        10: (("W", "NW"), ("SW", "NE"), ("SE", "E")),
    }
    for f, clock in enumerate(FACING_CLOCK):
        front, flank, rear = named[clock]
        assert {NAMES[d] for d in frontal_dirs(f)} == set(front)
        assert {NAMES[d] for d in flank_dirs(f)} == set(flank)
        assert {NAMES[d] for d in rear_dirs(f)} == set(rear)


def test_hex2_quarter_turn_clockwise() -> None:
    want = {12: "E", 2: "SE", 4: "SW", 6: "W", 8: "NW", 10: "NE"}
    for f, clock in enumerate(FACING_CLOCK):
        assert NAMES[hex2_dir(f)] == want[clock]


def test_double_sized_front_is_three_hexes() -> None:
    u = make_unit("P", "A", "PH", 10, 7, 4, G.index("1010"), 0, hex2=G.index("1110"))
    got = {G.hex_id(h) for h in frontal_hexes(G, u)}
    # NW of 1010, NE of 1010 (= NW of 1110), NE of 1110
    assert got == {"1009", "1109", "1209"}


def test_ids_round_trip_and_bad_ids() -> None:
    for i in range(G.size):
        assert G.index(G.hex_id(i)) == i
    for bad in ("101", "abcd", "3121", "0000", "1021"):
        with pytest.raises(ValueError):
            G.index(bad)


def _bfs(a: int, b: int) -> int:
    seen = {a}
    frontier = [a]
    d = 0
    while b not in seen:
        d += 1
        frontier = [j for h in frontier for j in G.neighbours(h) if j not in seen and not seen.add(j)]  # type: ignore[func-returns-value]
    return d


@given(st.integers(0, G.size - 1), st.integers(0, G.size - 1))
def test_distance_is_the_step_count(a: int, b: int) -> None:
    assert G.distance(a, b) == G.distance(b, a) == _bfs(a, b)


@given(st.integers(0, G.size - 1), st.integers(0, G.size - 1))
def test_line_runs_from_one_end_to_the_other(a: int, b: int) -> None:
    line = G.line(a, b)
    assert line[0] == (a,) and line[-1] == (b,)
    assert len(line) == G.distance(a, b) + 1
    for k, cell in enumerate(line):
        for h in cell:
            if h >= 0:
                assert G.distance(a, h) == k


def test_vertex_turns() -> None:
    assert vertex_turns(0, 3) == 3
    assert vertex_turns(0, 5) == 1
    assert vertex_turns(4, 1) == 3
    assert vertex_turns(2, 2) == 0
