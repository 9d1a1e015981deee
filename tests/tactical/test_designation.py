"""Shock designation before resolution (003 §8.3; docs/rules/tactical.md §8.2): the engine, the
legal-action generator's designation steps and previews of designated shocks."""

from __future__ import annotations

import pytest

from bellum.dice import Dice
from bellum.errors import RuleError
from tactical.actions import Designate, Fire, Move, Pass, Rally, Resolve, Shock, parse_action
from tactical.combat import trim_designations
from tactical.engine import apply
from tactical.legal import legal_actions
from tactical.odds import shock_odds
from tactical.state import State
from tests.tactical.helpers import position, unit


def _two_fights(**kw: object) -> State:
    # A1 (1009) faces B1 (1008); A2 (1209) faces B2 (1208); all HI
    return position(
        [
            unit("A1", "A", "1009", **kw),
            unit("A2", "A", "1209"),
            unit("B1", "B", "1008", facing=6),
            unit("B2", "B", "1208", facing=6),
        ],
        rules="sgboh",
        sequence={"side": "A", "phase": "move"},
    )


def _play(state: State, *texts: str, dice: list[int] | None = None) -> State:
    d = Dice.forced(dice or [])
    for t in texts:
        state, _ = apply(state, parse_action(t), d)
    return state


def test_move_phase_offers_designations_not_shocks() -> None:
    acts = legal_actions(_two_fights())
    assert Designate(("A1",), "B1") in acts and Designate(("A2",), "B2") in acts
    assert not any(isinstance(a, Shock | Resolve) for a in acts)


def test_designation_ends_move_fire_and_must_be_resolved() -> None:
    s = _play(_two_fights(), "designate A1 B1")
    assert s.seq.phase == "shock" and s.designating and s.designations == [(("A1",), "B1")]
    acts = legal_actions(s)
    assert set(acts) == {Designate(("A2",), "B2"), Resolve()}
    for text in ("move A2 1108", "pass", "shock A1 B1", "rally A1"):
        with pytest.raises(RuleError):
            _play(s, text)
    with pytest.raises(RuleError, match="already designated"):
        _play(s, "designate A1 B2")


def test_resolution_in_the_players_order_as_designated() -> None:
    s = _play(_two_fights(), "designate A1 B1", "designate A2 B2", "resolve")
    assert not s.designating
    assert set(legal_actions(s)) == {Shock(("A1",), "B1"), Shock(("A2",), "B2")}
    with pytest.raises(RuleError, match="may not change"):
        _play(s, "shock A1,A2 B1")
    with pytest.raises(RuleError, match="designate"):
        _play(s, "designate A2 B1")
    with pytest.raises(RuleError, match="resolved"):
        _play(s, "pass")
    # B2 first, then B1: the player chooses the order (003 §8.3)
    s = _play(s, "shock A2 B2", dice=[5])
    assert s.designations == [(("A1",), "B1")]
    assert legal_actions(s) == [Shock(("A1",), "B1")]
    s = _play(s, "shock A1 B1", dice=[5])
    assert s.designations == [] and Pass() in legal_actions(s)


def test_designating_a_designated_defender_adds_attackers() -> None:
    s = position(
        [
            unit("A1", "A", "1009"),
            unit("A2", "A", "1108", facing=10),
            unit("B1", "B", "1008", facing=6),
        ],
        rules="sgboh",
        sequence={"side": "A", "phase": "move"},
    )
    s = _play(s, "designate A1 B1", "designate A2 B1", "resolve")
    assert s.designations == [(("A1", "A2"), "B1")]
    assert legal_actions(s) == [Shock(("A1", "A2"), "B1")]
    s = _play(s, "shock A2,A1 B1", dice=[5])
    assert {"A1", "A2"} <= s.fought


def test_engaged_units_must_be_designated_before_resolution() -> None:
    s = position(
        [
            unit("A1", "A", "1009"),
            unit("A2", "A", "1209", engaged=True),
            unit("B1", "B", "1008", facing=6),
            unit("B2", "B", "1208", facing=6, engaged=True),
        ],
        rules="sgboh",
        sequence={"side": "A", "phase": "move"},
    )
    assert Pass() not in legal_actions(s)
    s = _play(s, "designate A1 B1")
    assert Resolve() not in legal_actions(s)
    with pytest.raises(RuleError, match="A2 is engaged"):
        _play(s, "resolve")
    s = _play(s, "designate A2 B2", "resolve")
    assert len(s.designations) == 2


def test_a_combat_made_impossible_is_called_off() -> None:
    s = _play(_two_fights(), "designate A1 B1", "designate A2 B2", "resolve")
    s.units["B2"].status = "eliminated"
    s.units["B2"].hex = -1
    events: list = []
    trim_designations(s, events)
    assert s.designations == [(("A1",), "B1")]
    assert [e.kind for e in events] == ["shock_called_off"]
    s.units["A1"].status = "routed"
    trim_designations(s, events)
    assert s.designations == [] and Pass() in legal_actions(s)


def test_a_designated_routed_defender_is_still_cut_down() -> None:
    s = _play(_two_fights(), "designate A1 B1", "resolve")
    s.units["B1"].status = "routed"
    trim_designations(s, [])
    s = _play(s, "shock A1 B1")
    assert s.units["B1"].status == "eliminated"


def test_preview_before_designation_equals_the_resolution_odds() -> None:
    s = _two_fights()
    before = shock_odds(s, Shock(("A1",), "B1"))
    during = shock_odds(_play(s, "designate A1 B1"), Shock(("A1",), "B1"))
    after = shock_odds(_play(s, "designate A1 B1", "designate A2 B2", "resolve"), Shock(("A1",), "B1"))
    assert before == during == after and sum(before.values()) == 1
    assert Designate(("A1",), "B1").as_shock() == Shock(("A1",), "B1")


def test_notation_round_trip() -> None:
    for a in (Designate(("A1", "A2"), "B1"), Resolve()):
        assert parse_action(a.notation()) == a
    for bad in ("designate A1", "designate , B1", "resolve now"):
        with pytest.raises(RuleError):
            parse_action(bad)


def test_fire_and_moves_end_with_the_first_designation() -> None:
    s = position(
        [
            unit("A1", "A", "1009"),
            unit("A3", "A", "0511", utype="LI", ma=7, missile="J"),
            unit("B1", "B", "1008", facing=6),
            unit("B3", "B", "0510", facing=6),
        ],
        rules="sgboh",
        sequence={"side": "A", "phase": "move"},
    )
    assert any(isinstance(a, Fire) for a in legal_actions(s))
    s = _play(s, "designate A1 B1")
    assert not any(isinstance(a, Fire | Move | Rally) for a in legal_actions(s))


def test_both_units_of_a_roman_stack_may_be_designated() -> None:
    """000 §6.6: two Roman units may share a hex; either may be the defender (003 §8.3)."""
    s = position(
        [
            unit("A1", "A", "1009"),
            unit("B1", "B", "1008", facing=6, utype="LG", roman=True, group="III Legion"),
            unit("B2", "B", "1008", facing=6, utype="LG", roman=True, group="III Legion"),
        ],
        rules="simple-spqr",
        sequence={"side": "A", "phase": "move"},
    )
    acts = legal_actions(s)
    assert Designate(("A1",), "B1") in acts and Designate(("A1",), "B2") in acts
