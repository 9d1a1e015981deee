"""Rule options chosen for a game (the options screen) reach the engine's state, replace the
scenario's own, are written into the save and come back with it (issue 16 item 4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from battleboard.game import BattleboardEngine
from battleboard.options import CHOICES as BOARD_CHOICES
from bellum.errors import InputError
from bellum.saves import read_save
from bellum.session import Session
from bellum.settings import Settings, load_settings, save_settings
from tactical.game import TacticalEngine
from tactical.options import CHOICES, option_ids, split
from tactical.state import OPTIONS


def test_every_tactical_option_has_a_choice_with_its_source() -> None:
    assert option_ids() == OPTIONS
    for c in CHOICES:
        assert c.source and c.line and len(c.values) >= 2
    assert any(w.startswith("rout-bid:") for c in CHOICES for w, _ in c.values)


@pytest.mark.parametrize("option", sorted(OPTIONS))
def test_each_tactical_toggle_reaches_the_state(option: str) -> None:
    off = Session(TacticalEngine(), "munda", 1, [])
    on = Session(TacticalEngine(), "munda", 1, [option])
    assert option in on.state.options and option not in off.state.options


def test_ruleset_and_rout_bid_reach_the_state() -> None:
    plain = Session(TacticalEngine(), "munda", 1)
    s = Session(TacticalEngine(), "munda", 1, ["rules:sgboh", "rout-bid:A:40"])
    assert plain.state.ruleset == "charts-v1" and s.state.ruleset == "sgboh"
    assert len(s.state.units) < len(plain.state.units)  # the bid took Roman units off
    assert s.state.withdrawal["A"] < plain.state.withdrawal["A"]


def test_battleboard_toggle_reaches_the_state() -> None:
    assert [c.key for c in BOARD_CHOICES] == ["light-l-as-b"]
    s = Session(BattleboardEngine(), "field-pharsalus", 1, ["light-l-as-b"])
    assert s.state.cfg.options == frozenset({"light-l-as-b"})
    assert Session(BattleboardEngine(), "field-pharsalus", 1).state.cfg.options == frozenset()


def test_options_survive_a_save_and_load(tmp_path: Path) -> None:
    s = Session(TacticalEngine(), "zela", 4, ["rules:simple-spqr", "no-pilum", "pursuit-regroup"])
    for _ in range(3):
        s.play(s.legal_actions()[0])
    path = s.save(tmp_path / "t.toml")
    assert read_save(path).options == ["rules:simple-spqr", "no-pilum", "pursuit-regroup"]
    back = Session.load(TacticalEngine(), path)
    assert back.options == s.options
    assert back.state.ruleset == "simple-spqr" and {"no-pilum", "pursuit-regroup"} <= back.state.options
    b = Session(BattleboardEngine(), "mountain-pass", 2, ["light-l-as-b"])
    back_b = Session.load(BattleboardEngine(), b.save(tmp_path / "b.toml"))
    assert back_b.state.cfg.options == frozenset({"light-l-as-b"})


def test_a_save_without_options_keeps_the_scenarios(tmp_path: Path) -> None:
    s = Session(TacticalEngine(), "zela", 4)
    path = s.save(tmp_path / "t.toml")
    assert "options" not in path.read_text().split("[dice]")[0]
    assert Session.load(TacticalEngine(), path).options is None


def test_bad_options_are_one_sentence() -> None:
    with pytest.raises(InputError, match="not an option"):
        Session(TacticalEngine(), "zela", 1, ["no-such-rule"])
    with pytest.raises(InputError, match="not a ruleset"):
        Session(TacticalEngine(), "zela", 1, ["rules:nope"])
    with pytest.raises(InputError, match="not a battleboard option"):
        Session(BattleboardEngine(), "mountain-pass", 1, ["no-pilum"])
    assert split(["rules:sgboh", "no-pilum"]) == ("sgboh", ["no-pilum"])


def test_settings_file_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    assert load_settings(path) == Settings()
    chosen = Settings(tactical=["no-pilum", "rules:sgboh"], battleboard=["light-l-as-b"], speed="fast")
    save_settings(chosen, path)
    assert load_settings(path) == chosen
    path.write_text('speed = "warp"\n')
    with pytest.raises(InputError, match="speed"):
        load_settings(path)


def test_a_replay_of_a_save_plays_under_its_options(tmp_path: Path) -> None:
    from bellum.replay import from_save

    s = Session(TacticalEngine(), "zela", 4, ["rules:sgboh", "routed-count"])
    for _ in range(4):
        s.play(s.legal_actions()[0])
    replay = from_save(s.save(tmp_path / "t.toml"))
    first = replay.frames[0].state
    assert first.ruleset == "sgboh" and "routed-count" in first.options


def test_a_rout_bid_a_battle_cannot_take_is_one_sentence_naming_it() -> None:
    with pytest.raises(InputError, match="rout bid took off units a special rule of this battle needs"):
        Session(TacticalEngine(), "pharsalus", 1, ["rout-bid:A:40"])
    with pytest.raises(InputError, match="no Roman legion units"):
        Session(TacticalEngine(), "gaugamela", 1, ["rout-bid:A:40"])
