"""Battleboard battles save and load like the other engines (issue 22): scenario, seed, dice,
the action log and a checksum; loading replays the log and refuses drift, foreign battles
and actions with fields the game does not know — from ``bellum board`` and from the window."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import arcade
import pytest
import tomli_w

from battleboard.game import BattleboardEngine, decode_action, encode_action, load
from battleboard.resolve import autoplay
from battleboard.rules import legal_actions
from bellum.dice import Dice
from bellum.errors import InputError
from bellum.paths import scenario_files
from bellum.saves import read_save
from bellum.session import Session
from bellum.tomlio import read_toml
from tests.conftest import render

SCENARIOS = [p.stem for p in scenario_files("battleboard")]


def _bellum(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bellum", *args],
        capture_output=True,
        text=True,
        timeout=120,  # a guard against a hang, not a measurement
        cwd=cwd,
        env={**os.environ, "ARCADE_HEADLESS": "1"},
    )


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_action_the_ai_plays_is_saved_and_replays(name: str, tmp_path: Path) -> None:
    """``autoplay`` records the AI's whole turns action by action; the log replays through
    the rules (each action checked again) to the same state and dice."""
    engine = BattleboardEngine()
    for seed in (1, 7):
        played: list[Any] = []
        dice = Dice(seed)
        final = autoplay(load(name)[1], dice, record=played)
        session = Session.replay(engine, name, seed, [encode_action(a) for a in played])
        assert session.state.phase == "over" and session.dice.state() == dice.state()
        assert engine.encode_state(session.state) == engine.encode_state(final)
        save = session.save(tmp_path / f"{name}-{seed}.toml")
        again = Session.load(engine, save)
        assert again.checksum() == session.checksum() and again.actions == session.actions


def test_actions_round_trip_and_unknown_fields_are_refused() -> None:
    engine = BattleboardEngine()
    session = Session(engine, "sea-interception", 2)
    for a in legal_actions(session.state)[:3]:
        assert decode_action(encode_action(a)) == a
    with pytest.raises(ValueError, match="turbo: is not a key this file may have"):
        decode_action({"verb": "end_turn", "turbo": True})
    with pytest.raises(ValueError, match="to: "):
        decode_action({"verb": "move", "unit": "X", "to": "14"})  # no coercion of text to a square
    with pytest.raises(ValueError, match="capture: "):
        decode_action({"verb": "attack", "unit": "X", "target": "Y", "capture": 1})


def test_the_headless_command_saves_and_continues_a_battle(tmp_path: Path) -> None:
    first = _bellum(
        "board", "field-pharsalus", "--ai", "both", "--headless", "--seed", "3", "--save", "s.toml", cwd=tmp_path
    )
    assert first.returncode == 0, first.stderr
    data = read_save(tmp_path / "s.toml", "battleboard")
    assert data.scenario == "field-pharsalus" and data.seed == 3 and data.actions
    assert oct((tmp_path / "s.toml").stat().st_mode & 0o777) != "0o600"  # an ordinary file, not a private temp
    again = _bellum("board", "field-pharsalus", "--ai", "both", "--headless", "--load", "s.toml", cwd=tmp_path)
    assert again.returncode == 0 and again.stdout.splitlines()[-1] == first.stdout.splitlines()[-1]
    other = _bellum("board", "mountain-pass", "--ai", "both", "--headless", "--load", "s.toml", cwd=tmp_path)
    assert other.returncode == 2 and other.stderr.strip().splitlines() == [
        "bellum: s.toml: save.scenario: is a save of field-pharsalus, not of mountain-pass"
    ]


def test_an_edited_battleboard_save_is_refused_in_one_sentence(tmp_path: Path) -> None:
    engine = BattleboardEngine()
    played: list[Any] = []
    autoplay(load("mountain-pass")[1], Dice(4), record=played)
    session = Session.replay(engine, "mountain-pass", 4, [encode_action(a) for a in played])
    path = session.save(tmp_path / "m.toml")
    raw = read_toml(path)
    raw["actions"][2]["speed"] = 3  # a field no action has
    bad = tmp_path / "bad.toml"
    bad.write_text(tomli_w.dumps(raw))
    with pytest.raises(InputError, match=r"actions\[2\]: is not a valid action \(speed: is not a key"):
        Session.load(engine, bad)
    raw = read_toml(path)
    raw["actions"][0], raw["actions"][1] = raw["actions"][1], raw["actions"][0]
    bad.write_text(tomli_w.dumps(raw))
    with pytest.raises(InputError, match=r"actions\[0\]: cannot be replayed"):
        Session.load(engine, bad)


def test_a_scenario_with_lax_types_is_refused(tmp_path: Path) -> None:
    """Issue 22: ``strength = true`` was read as 1, ids with a tab, a newline or a BOM passed."""
    text = (Path(str(scenario_files("battleboard")[0]))).read_text()
    for old, new, words in [
        ("strength = 5", "strength = true", "valid integer"),
        ("strength = 5", 'strength = "5"', "valid integer"),
        ('id = "X"', 'id = "X\\t"', "is not an id"),
        ('id = "X"', 'id = "\\ufeffX"', "is not an id"),
        ('id = "X"', 'id = "X\\nY"', "is not an id"),
    ]:
        assert old in text, old
        bad = tmp_path / "bad.toml"
        bad.write_text(text.replace(old, new, 1))
        with pytest.raises(InputError, match=words) as got:
            load(str(bad))
        assert "\n" not in str(got.value) and "\t" not in str(got.value)
        load.cache_clear()


@pytest.mark.window
def test_the_window_saves_and_loads_a_battle(window: Any, tmp_path: Path) -> None:
    """F5 saves the battle in the window, F9 brings it back (positions, dice, log, undo
    cleared); a save of another battle is refused on the panel and changes nothing."""
    from battleboard.view.window import battle_view, new_session

    sc, _ = load("field-pharsalus")
    session = new_session("field-pharsalus", 6)
    view = battle_view(sc, session.state, "B", 6, session=session, save_path=tmp_path / "b.toml")
    render(window, view)
    assert {"save", "load"} <= {b.key for b in view.buttons}
    for _ in range(40):  # the AI plays both sides a while
        view.press("ai")
        if view.state.turn >= 2:
            break
    saved_units = BattleboardEngine().encode_state(view.state)
    saved_dice = view.dice.state()
    view.on_key_press(arcade.key.F5, 0)
    assert view.message == "Saved to b.toml." and (tmp_path / "b.toml").exists()
    for _ in range(6):
        view.press("ai")
    assert BattleboardEngine().encode_state(view.state) != saved_units
    view.on_key_press(arcade.key.F9, 0)
    assert view.message == "Loaded."
    assert BattleboardEngine().encode_state(view.state) == saved_units and view.dice.state() == saved_dice
    image = render(window, view)
    image.save(tmp_path / "loaded.png")
    assert any(t.text == "Loaded." for t in view._texts)
    # the battle goes on from the loaded position, through the loaded session
    view.press("ai")
    assert view.standalone is not None and len(view.standalone.actions) > len(read_save(tmp_path / "b.toml").actions)
    # a save of another battle: one sentence on the panel, nothing changes
    other = Session(BattleboardEngine(), "mountain-pass", 1).save(tmp_path / "other.toml")
    before = BattleboardEngine().encode_state(view.state)
    assert not view.load(other)
    assert "is a save of mountain-pass, not of field-pharsalus" in view.message
    assert BattleboardEngine().encode_state(view.state) == before


@pytest.mark.window
def test_a_campaign_battle_is_not_saved_on_its_own(window: Any, tmp_path: Path) -> None:
    from battleboard.view.battle import BattleView

    view = BattleView(load("field-pharsalus")[1].clone(), title="A campaign battle")
    render(window, view)
    assert "save" not in {b.key for b in view.buttons}
    view.on_key_press(arcade.key.F5, 0)
    assert "saved with its campaign" in view.message


@pytest.mark.window
def test_f5_saves_in_the_players_folder_as_it_is_at_save_time(
    window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a file named, F5 writes the battle into the player's saves folder, worked out
    when it saves ($BELLUM_HOME set after the game started is honoured)."""
    from battleboard.view.window import battle_view, new_session

    sc, _ = load("field-pharsalus")
    session = new_session("field-pharsalus", 6)
    view = battle_view(sc, session.state, "B", 6, session=session)
    render(window, view)
    monkeypatch.setenv("BELLUM_HOME", str(tmp_path / "home"))
    view.on_key_press(arcade.key.F5, 0)
    assert (tmp_path / "home" / "saves" / "battleboard" / "field-pharsalus.toml").is_file(), view.message
    assert view.message == "Saved to field-pharsalus.toml."
