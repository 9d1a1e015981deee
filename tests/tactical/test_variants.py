"""001 set-up variants (docs/rules/tactical.md §9): the rout-bid method."""

from __future__ import annotations

import pytest

from bellum.errors import InputError
from bellum.tomlio import validate
from tactical.models import PositionIn, build_state
from tactical.variants import apply_rout_bid, parse_rout_bid, roman_kind
from tests.tactical.helpers import position, unit


def _legion_army(n: int, tq: int) -> list[dict[str, object]]:
    kinds = ("hastati", "principes", "triarii")
    return [
        unit(
            f"{kinds[k % 3]}-{k}",
            "B",
            f"{2 + k % 25:02d}{2 + k // 25:02d}",
            6,
            "LG",
            5,
            tq=tq,
            roman=True,
            group="I Legion",
        )
        for k in range(n)
    ]


def test_001_worked_example() -> None:
    """001: 350 TQ points at 35 % (level 123), a bid of 80 → (350 − 80) × 0.35 = 94.5 → 95."""
    state = position(_legion_army(50, 7))
    state.withdrawal["B"] = 123
    lines = apply_rout_bid(state, "B", 80)
    assert state.withdrawal["B"] == 95
    gone = 50 - sum(1 for u in state.units.values() if u.side == "B")
    assert gone == 12  # 12 × 7 = 84 ≥ 80 (the last unit carries it past the bid)
    assert "withdrawal level 95 (was 123)" in lines[-1]


def test_removal_goes_by_the_order_and_by_legion() -> None:
    units = [
        unit(
            f"{leg}-{kind}",
            "B",
            f"{col}{row:02d}",
            6,
            "SK" if kind == "velites" else "LG",
            5,
            roman=True,
            group=f"{leg} Legion",
        )
        for col, leg in (("05", "I"), ("09", "II"))
        for row, kind in enumerate(("hastati", "principes", "triarii", "velites"), start=2)
    ]
    state = position(units)
    state.withdrawal["B"] = 20
    apply_rout_bid(state, "B", 13)
    # no cohorts: triarii of I, triarii of II (6 + 6), then the velites of I (2)
    assert sorted(k for k in state.units) == ["I-hastati", "I-principes", "II-hastati", "II-principes", "II-velites"]
    assert roman_kind(state.units["II-velites"]) == "velites"


@pytest.mark.parametrize("bad", ["rout-bid:B", "rout-bid:C:10", "rout-bid:B:0", "rout-bid:B:x"])
def test_bad_bids_are_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_rout_bid(bad)
    raw = {"rules": "simple-spqr", "options": [bad], "units": [unit("A1", "A", "1010")], "withdrawal": {"B": 10}}
    with pytest.raises(InputError):
        build_state(validate(PositionIn, raw, "test"), "test")


def test_a_bid_needs_roman_units_and_a_level() -> None:
    raw = {
        "rules": "simple-spqr",
        "options": ["rout-bid:B:5"],
        "units": [unit("B1", "B", "1010")],
        "withdrawal": {"B": 10},
    }
    with pytest.raises(InputError, match="no Roman legion units"):
        build_state(validate(PositionIn, raw, "test"), "test")
