"""The tactical Engine under a bellum Session: first player, undo, save/load with replay."""

from __future__ import annotations

from pathlib import Path

import pytest

from bellum.errors import RuleError
from bellum.session import Session
from tactical.actions import Activate, Move, Pass
from tactical.ai import TacticalAI
from tactical.game import TacticalEngine


def _session(seed: int = 3) -> Session:  # type: ignore[type-arg]
    return Session(TacticalEngine(), "pharsalus", seed)


def test_scenario_fixes_the_first_side() -> None:
    s = _session()
    assert s.state.seq.side == "A"
    assert s.state.seq.phase == "activation"


def test_actions_round_trip_through_notation() -> None:
    eng = TacticalEngine()
    s = _session()
    for a in s.legal_actions()[:5]:
        assert eng.decode_action(eng.encode_action(a)) == a


def test_undo_only_within_an_activation() -> None:
    s = _session()
    s.play(Activate(leader="Caesar"))
    assert not s.can_undo()  # the designation opened the activation
    move = next(a for a in s.legal_actions() if isinstance(a, Move) and a.unit == "X-1")
    before = s.checksum()
    s.play(move)
    assert s.can_undo()
    s.undo()
    assert s.checksum() == before
    s.play(Pass())
    with pytest.raises(RuleError):
        s.undo()


def test_save_and_load_mid_battle(tmp_path: Path) -> None:
    s = _session(5)
    ai = TacticalAI(5)
    for _ in range(25):
        s.play(ai.choose(s.state))
    path = s.save(tmp_path / "battle.json")
    loaded = Session.load(TacticalEngine(), path)
    assert loaded.checksum() == s.checksum()
    assert loaded.actions == s.actions


def test_illegal_action_changes_nothing() -> None:
    s = _session()
    before = s.checksum()
    with pytest.raises(RuleError):
        s.play(Activate(leader="Pompeius"))
    assert s.checksum() == before


def test_save_and_load_in_the_middle_of_designation(tmp_path: Path) -> None:
    """The save's checksum covers the Shock segment's designations (003 §8.3): a game saved
    with a combat designated and designation still open replays to the same pending combats."""
    s = _session(7)
    ai = TacticalAI(7)
    for _ in range(600):
        if s.state.designations and s.state.designating:
            break
        s.play(ai.choose(s.state))
    assert s.state.designations and s.state.designating, "the AI never designated a shock"
    path = s.save(tmp_path / "designating.json")
    loaded = Session.load(TacticalEngine(), path)
    assert loaded.checksum() == s.checksum()
    assert loaded.state.designations == s.state.designations
    assert loaded.state.designating
    assert loaded.legal_actions() == s.legal_actions()
    # what is designated, whether designation is open and who is in the regroup box are all
    # in the encoded state, so a save that lost any of them would drift from its checksum
    eng = TacticalEngine()
    base = eng.encode_state(s.state)
    for change in ("designations", "designating", "regrouping"):
        other = s.state.copy()
        if change == "designations":
            other.designations = [*other.designations[1:], (("X-1",), "Y-1")]
        elif change == "designating":
            other.designating = False
        else:
            other.regrouping = {"X-1"}
        assert eng.encode_state(other) != base, change
