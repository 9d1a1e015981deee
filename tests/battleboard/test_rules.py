"""The legal-action generator and the validator agree; geometry; set-up validation."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battleboard.cases import snapshot_of
from battleboard.model import OFF, Action
from battleboard.position import Position, build_state
from battleboard.resolve import state_from_engagement
from battleboard.rules import apply, check, legal_actions
from bellum.dice import Dice
from bellum.errors import InputError, RuleError
from tests.battleboard.helpers import land_engagement, naval_engagement


def state(units: list[dict[str, Any]], **battle: Any) -> Any:
    return build_state(Position.model_validate({"battle": battle, "units": units}), "test")


def test_board_geometry() -> None:
    s = state(
        [{"id": "A1", "side": "A", "kind": "legion", "strength": 5, "square": "a1"}] * 1
        + [{"id": "B1", "side": "B", "kind": "legion", "strength": 5, "square": "i8"}]
    )
    b = s.cfg.board
    assert (b.columns, b.rows) == (9, 8)
    assert b.name(b.parse("c2") or 0) == "c2"
    assert b.parse("j1") is None and b.parse("a9") is None and b.parse("2c") is None
    a1 = b.parse("a1")
    assert a1 is not None
    assert sorted(b.name(n) for n in b.neighbors[a1]) == ["a2", "b1"]  # no diagonals
    assert sorted(b.name(f) for f, _ in b.lines2[a1]) == ["a3", "c1"]


def test_every_generated_action_validates() -> None:
    for eng in (land_engagement(6, "river"), naval_engagement(3, "interception")):
        s = state_from_engagement(eng)
        dice = Dice(4)
        for _ in range(60):
            acts = legal_actions(s)
            if not acts:
                break
            for a in acts:
                check(s, a)  # never raises for a generated action
            s, _, _ = apply(s, acts[len(acts) // 2], dice)


@settings(max_examples=60, deadline=None)
@given(
    unit=st.sampled_from(["A1", "A2", "B1", "Caesar", "nobody"]),
    to=st.integers(-1, 80),
    verb=st.sampled_from(["move", "attack", "stratagem", "double", "command"]),
    mode=st.sampled_from(["phalanx", "fire", "wedge", "ram", "testudo"]),
)
def test_refusals_are_one_sentence_and_touch_nothing(unit: str, to: int, verb: str, mode: str) -> None:
    s = state(
        [
            {"id": "A1", "side": "A", "kind": "legion", "strength": 5, "square": "c3"},
            {"id": "A2", "side": "A", "kind": "auxiliary", "strength": 2, "square": "e3"},
            {"id": "B1", "side": "B", "kind": "legion", "strength": 5, "square": "c6"},
        ]
    )
    a = Action(verb, unit, OFF if to < 0 else to, "B1", mode, effect="rally")
    before = snapshot_of(s)
    if a in legal_actions(s, unit):
        return
    with pytest.raises(RuleError) as why:
        apply(s, a, Dice.forced([]))
    assert str(why.value) and "\n" not in str(why.value)
    assert snapshot_of(s) == before


def test_double_move_from_the_second_turn() -> None:
    units = [
        {"id": "A1", "side": "A", "kind": "legion", "strength": 5, "square": "c1"},
        {"id": "B1", "side": "B", "kind": "legion", "strength": 5, "square": "c8"},
    ]
    with pytest.raises(RuleError, match="second turn"):
        check(state(units), Action("double"))
    check(state(units, turn=2), Action("double"))


def test_deployment_rows_and_order() -> None:
    s = state_from_engagement(land_engagement(4))
    assert s.phase == "deploy" and s.side == "B"  # the superior side (A) sets up last
    mine = [u.id for u in s.units.values() if u.side == "B"]
    b = s.cfg.board
    with pytest.raises(RuleError, match="deployment rows"):
        check(s, Action("deploy", side="B", placements=((mine[0], b.parse("c4") or 0),)))
    with pytest.raises(RuleError, match="sets up now"):
        check(s, Action("deploy", side="A", placements=()))
    s, _, _ = apply(s, legal_actions(s)[0], Dice(1))
    assert s.side == "A" and s.phase == "deploy"
    s, _, _ = apply(s, legal_actions(s)[0], Dice(1))
    assert s.phase == "command" and s.side == "A" and s.turn == 1


def test_reserves_enter_on_the_home_row() -> None:
    s = state(
        [
            {"id": "A1", "side": "A", "kind": "legion", "strength": 5, "square": "c1"},
            {"id": "A2", "side": "A", "kind": "legion", "strength": 5},
            {"id": "B1", "side": "B", "kind": "legion", "strength": 5, "square": "c8"},
        ]
    )
    assert s.units["A2"].status == "reserve"
    entries = [a for a in legal_actions(s, "A2") if a.verb == "move"]
    assert entries and all(s.cfg.board.row(a.to or 0) == 0 for a in entries)
    s2, _, _ = apply(s, entries[0], Dice(1))
    assert s2.units["A2"].status == "active"


@pytest.mark.parametrize(
    ("units", "words"),
    [
        (
            [{"id": "A1", "side": "A", "kind": "fleet", "strength": 2, "square": "a1"}],
            "cannot stand on a square in a land battle",
        ),
        (
            [
                {"id": "A1", "side": "A", "kind": "legion", "strength": 5, "square": "a1"},
                {"id": "A1", "side": "B", "kind": "legion", "strength": 5, "square": "a8"},
            ],
            "used twice",
        ),
        (
            [
                {"id": "A1", "side": "A", "kind": "legion", "strength": 5, "square": "a1"},
                {"id": "B1", "side": "B", "kind": "legion", "strength": 5, "square": "a1"},
            ],
            "already holds",
        ),
        ([{"id": "A1", "side": "A", "kind": "legion", "strength": 5, "aboard": "X"}], "not a fleet"),
    ],
)
def test_bad_positions(units: list[dict[str, Any]], words: str) -> None:
    with pytest.raises(InputError, match=words):
        state(units)


def test_too_many_passengers_for_the_fleets() -> None:
    units = [
        {"id": "F1", "side": "A", "kind": "fleet", "strength": 2, "square": "a1"},
        *({"id": f"P{i}", "side": "A", "kind": "legion", "strength": 5} for i in range(3)),
        {"id": "G1", "side": "B", "kind": "fleet", "strength": 2, "square": "a6"},
    ]
    with pytest.raises(InputError, match="carry at most 2"):
        build_state(Position.model_validate({"battle": {"kind": "naval"}, "units": units}), "test")
