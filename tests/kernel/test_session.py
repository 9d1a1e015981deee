"""Session: undo refuses dice, saves replay exactly, drift is caught."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from bellum.dice import Dice
from bellum.errors import InputError, RuleError
from bellum.events import Event
from bellum.saves import read_save, write_save
from bellum.session import Session


@dataclass(frozen=True)
class Race:
    """A toy engine for the session tests: two runners, 'step' (no dice) or 'dash' (a d6)."""

    pos: tuple[int, int] = (0, 0)
    turn: int = 0


class RaceEngine:
    name = "battleboard"

    def __init__(self, drift: bool = False) -> None:
        self.drift = drift

    def new_state(self, scenario: str, dice: Dice) -> Race:
        if scenario != "race":
            raise InputError(scenario, "", "no such scenario")
        return Race()

    def legal_actions(self, state: Race) -> Sequence[str]:
        return [] if max(state.pos) >= 20 else ["step", "dash"]

    def apply(self, state: Race, action: str, dice: Dice) -> tuple[Race, list[Event]]:
        if action not in self.legal_actions(state):
            raise RuleError(f"{action!r} is not possible now.")
        gain = 1 if action == "step" else dice.d6("dash")
        if self.drift:
            gain += 1
        pos = list(state.pos)
        pos[state.turn] += gain
        return replace(state, pos=(pos[0], pos[1]), turn=1 - state.turn), [Event(action, f"runner moves {gain}")]

    def encode_action(self, action: str) -> dict[str, Any]:
        return {"do": action}

    def decode_action(self, raw: dict[str, Any]) -> str:
        return str(raw["do"])

    def encode_state(self, state: Race) -> dict[str, Any]:
        return {"pos": list(state.pos), "turn": state.turn}

    def may_undo(self, before: Race, after: Race) -> bool:
        return True


def test_illegal_action_changes_nothing() -> None:
    s = Session(RaceEngine(), "race", 3)
    s.play("dash")
    snapshot = (s.state, s.dice.state(), len(s.dice.rolls), list(s.actions), len(s.log))
    with pytest.raises(RuleError):
        s.play("fly")
    assert (s.state, s.dice.state(), len(s.dice.rolls), list(s.actions), len(s.log)) == snapshot


def test_undo_without_dice_and_refusal_with_dice() -> None:
    s = Session(RaceEngine(), "race", 3)
    s.play("step")
    assert s.can_undo()
    s.undo()
    assert s.state == Race() and s.actions == [] and len(s.log) == 0
    s.play("dash")
    assert not s.can_undo()
    with pytest.raises(RuleError, match="A die was rolled"):
        s.undo()


def test_save_load_replays_to_the_same_game(tmp_path: Path) -> None:
    s = Session(RaceEngine(), "race", 11)
    for a in ["dash", "step", "dash", "dash", "step"]:
        s.play(a)
    path = s.save(tmp_path / "race.toml")
    back = Session.load(RaceEngine(), path)
    assert back.state == s.state and back.dice.state() == s.dice.state()
    assert back.log.to_list() == s.log.to_list()
    # and the continuation is the same game
    s.play("dash")
    back.play("dash")
    assert back.state == s.state


def test_drifting_replay_is_refused(tmp_path: Path) -> None:
    s = Session(RaceEngine(), "race", 11)
    for a in ["dash", "step"]:
        s.play(a)
    path = s.save(tmp_path / "race.toml")
    with pytest.raises(InputError, match="drift"):
        Session.load(RaceEngine(drift=True), path)


def test_unreplayable_action_is_refused(tmp_path: Path) -> None:
    s = Session(RaceEngine(), "race", 1)
    s.play("step")
    path = s.save(tmp_path / "race.toml")
    data = read_save(path)
    data.actions.append({"do": "fly"})
    write_save(path, data)
    with pytest.raises(InputError, match=r"actions\[1\]"):
        Session.load(RaceEngine(), path)
