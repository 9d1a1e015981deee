"""Option ``pursuit-regroup`` (001 10.43): the regroup-box pursuit return (docs/rules/tactical.md §8.5)."""

from __future__ import annotations

import pytest

from bellum.dice import Dice
from bellum.errors import RuleError
from tactical.actions import parse_action
from tactical.engine import apply
from tactical.legal import legal_actions
from tactical.state import State
from tests.tactical.helpers import position, unit


def _rode_off(options: list[str], leader_hex: str = "0610", rng: int = 4) -> State:
    """A1 (HC), activated as a leaderless group, routs B1 and pursues off the map (rolls 9, 0, 9);
    then its activation ends."""
    raw = position(
        [
            unit("A1", "A", "0607", utype="HC", size=4, tq=5, ma=8),
            unit("B1", "B", "0606", facing=6, utype="LI", size=3, tq=4, ma=7),
            unit("B2", "B", "1202", facing=6),
        ],
        [
            {"id": "LA1", "side": "A", "hex": leader_hex, "initiative": 5, "range": rng, "overall": True},
            {"id": "LA2", "side": "A", "hex": "1112", "initiative": 9, "range": 1},
            {"id": "LB1", "side": "B", "hex": "1102", "initiative": 5, "range": 4},
        ],
        rules="sgboh",
        sequence={"side": "A", "phase": "move", "group": ["A1"]},
        columns=12,
        rows=12,
    )
    raw.options = frozenset(options)
    s = raw
    for text in ("designate A1 B1", "resolve", "shock A1 B1 pursue"):
        s, _ = apply(s, parse_action(text), Dice.forced([9, 0, 9]) if text.startswith("shock") else Dice.forced([]))
    assert s.units["A1"].status == "off_map"
    s, _ = apply(s, parse_action("pass"), Dice.forced([]))
    assert s.units["A1"].status == "off_map"  # the group's activation was not the overall commander's
    return s


def test_without_the_option_the_pursuer_waits_for_continuity() -> None:
    s = _rode_off([])
    assert not s.regrouping
    s, _ = apply(s, parse_action("continuity LA2"), Dice.forced([0]))
    assert s.units["A1"].on_map  # 003 §8.3: a Continuity roll of 0-1 brings it back


def test_with_the_option_continuity_zero_does_not_bring_it_back() -> None:
    s = _rode_off(["pursuit-regroup"], leader_hex="0612", rng=1)
    assert s.regrouping == {"A1"}
    s, _ = apply(s, parse_action("continuity LA1"), Dice.forced([0]))
    assert s.units["A1"].status == "off_map"  # 10.43 replaces the Continuity 0-1 return
    s, _ = apply(s, parse_action("pass"), Dice.forced([]))
    # the overall commander's activation ends: A1 marches back, but far from LA1 (range 1)
    u = s.units["A1"]
    assert u.on_map and s.regrouping == {"A1"}
    where = u.hex
    s, _ = apply(s, parse_action("continuity LA2"), Dice.forced([0]))
    assert s.units["A1"].hex == where and s.regrouping == {"A1"}
    # LA2 is not the overall commander: A1 takes no orders and stays where it is
    assert not any(getattr(a, "unit", None) == "A1" for a in legal_actions(s))
    with pytest.raises(RuleError, match="returning from pursuit"):
        apply(s, parse_action("move A1 face:2"), Dice.forced([]))
    s, _ = apply(s, parse_action("pass"), Dice.forced([]))
    assert s.units["A1"].hex == where


def test_the_march_goes_on_at_each_overall_commander_activation() -> None:
    s = _rode_off(["pursuit-regroup"], leader_hex="0612", rng=1)
    s, _ = apply(s, parse_action("continuity LA1"), Dice.forced([3]))
    s, _ = apply(s, parse_action("pass"), Dice.forced([]))
    first = s.units["A1"].hex
    grid = s.field.grid
    lead = s.leaders["LA1"].hex
    # LA2 (not the overall commander) goes: nothing moves A1
    for text, roll in (("continuity LA2", [9]), ("pass", []), ("pass", []), ("pass", [])):
        s, _ = apply(s, parse_action(text), Dice.forced(roll))
        assert s.units["A1"].hex == first
    # A went three times, B's free go was declined: A rolls again, for its overall commander
    s, _ = apply(s, parse_action("continuity LA1"), Dice.forced([2]))
    s, _ = apply(s, parse_action("pass"), Dice.forced([]))
    u = s.units["A1"]
    assert grid.distance(u.hex, lead) <= 1 and not s.regrouping and u.status == "disordered"
    assert grid.distance(first, lead) > 1
    enemies = [e for e in s.units.values() if e.on_map and e.side == "B"]
    assert all(grid.distance(u.hex, e.hex) > 1 for e in enemies)
