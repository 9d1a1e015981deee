"""Line of sight (docs/rules/tactical.md §1.4)."""

from __future__ import annotations

from tactical.sight import line_of_sight
from tests.tactical.helpers import position, unit


def test_clear_ground_sees() -> None:
    st = position([unit("A1", "A", "1010")])
    g = st.field.grid
    assert line_of_sight(st, g.index("1010"), g.index("1006"))


def test_woods_unit_and_hill_block() -> None:
    g_ids = ("1010", "1008", "1006")
    for kw in ({"terrain": {"1008": "woods"}}, {"level": {"1008": 1}}):
        st = position([unit("A1", "A", g_ids[0])], **kw)
        g = st.field.grid
        assert not line_of_sight(st, g.index("1010"), g.index("1006")), kw
    st = position([unit("A1", "A", "1010"), unit("A2", "A", "1008")])
    g = st.field.grid
    assert not line_of_sight(st, g.index("1010"), g.index("1006"))


def test_a_hill_no_higher_than_an_end_does_not_block() -> None:
    st = position([unit("A1", "A", "1010")], level={"1008": 1, "1010": 1})
    g = st.field.grid
    assert line_of_sight(st, g.index("1010"), g.index("1006"))


def test_adjacent_always_sees() -> None:
    st = position([unit("A1", "A", "1010"), unit("B1", "B", "1009")], terrain={"1009": "woods"})
    g = st.field.grid
    assert line_of_sight(st, g.index("1010"), g.index("1009"))
