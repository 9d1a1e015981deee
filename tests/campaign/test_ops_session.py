"""Sessions, saves, the headless command and the AI (docs/rules/campaign.md §14)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bellum.cli import main
from bellum.errors import InputError
from bellum.session import Session
from campaign import actions as A
from campaign.ai import CampaignAI, play_turns
from campaign.chronicle import lines
from campaign.engine import CampaignEngine, legal_actions
from tests.campaign.test_ops_sequence import army, fresh


def test_save_and_load_round_trip_mid_campaign(tmp_path: Path) -> None:
    """campaign.md §14.1: a save replays exactly (Session checks the checksum)."""
    engine = CampaignEngine()
    s = Session(engine, "49bc", 4)
    play_turns(s, 3)
    ai = CampaignAI()
    for _ in range(7):  # stop in the middle of a side's turn
        s.play(ai.choose(s.state))
    path = s.save(tmp_path / "mid.toml")
    back = Session.load(engine, path)
    assert back.checksum() == s.checksum()
    assert back.dice.state() == s.dice.state()
    assert [e.text for e in back.log] == [e.text for e in s.log]


def test_a_save_whose_replay_drifts_is_refused(tmp_path: Path) -> None:
    """campaign.md §14.1: a replay that does not reach the saved state is refused."""
    engine = CampaignEngine()
    s = Session(engine, "49bc", 2)
    play_turns(s, 1)
    path = s.save(tmp_path / "g.toml")
    text = path.read_text().replace("seed = 2", "seed = 3", 1)
    path.write_text(text)
    with pytest.raises(InputError):
        Session.load(engine, path)


def test_headless_run_prints_the_chronicle_and_a_summary(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """campaign.md §14.1: one chronicle line per march, battle, siege and storm."""
    save = tmp_path / "run.toml"
    code = main(["campaign", "--ai", "both", "--turns", "2", "--seed", "1", "--headless", "--save", str(save)])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert any(" BC — " in line and "marches from" in line for line in out)
    assert out[-1] == f"Saved to {save}."
    assert "cities" in out[-2]
    code = main(["campaign", "--headless", "--turns", "1", "--load", str(save)])
    assert code == 0 and capsys.readouterr().out.startswith(f"Loaded {save}")


def test_a_bad_load_file_is_one_sentence_and_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("this is not = = toml")
    code = main(["campaign", "--headless", "--load", str(bad)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and str(bad) in err[0]
    code = main(["campaign", "--headless", "--load", str(tmp_path / "missing.toml")])
    assert code == 2 and "no such file" in capsys.readouterr().err


def test_without_a_display_the_window_command_refuses_in_one_sentence(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARCADE_HEADLESS", "1")
    assert main(["campaign", "--turns", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--headless" in err[0]


def test_the_ai_only_plays_legal_actions_and_is_deterministic() -> None:
    """campaign.md §14.2: the AI picks from the one legal-action generator."""
    engine = CampaignEngine()
    runs = []
    for _ in range(2):
        s = Session(engine, "49bc", 9)
        ai = CampaignAI()
        while s.state.turn < 3:
            action = ai.choose(s.state)
            assert action in legal_actions(s.state)
            s.play(action)
        runs.append((s.checksum(), lines(s.log)))
    assert runs[0] == runs[1]


def test_the_ai_does_not_attack_an_army_it_cannot_beat() -> None:
    """campaign.md §14.2: fights only when the battleboard odds favour it."""
    s = fresh(keep=[])
    s.forces["weak"] = army("weak", "caesarian", "ravenna", [("legion", "R", 3)], ("curio",))
    s.forces["strong"] = army(
        "strong", "senatorial", "ariminum", [("legion", "V", 5), ("legion", "V", 5), ("legion", "V", 5)], ("pompeius",)
    )
    action = CampaignAI().choose(s)
    assert not (isinstance(action, A.March) and action.to == "ariminum")


def test_the_ai_attacks_an_army_it_can_crush() -> None:
    s = fresh(keep=[])
    s.forces["strong"] = army(
        "strong", "caesarian", "ravenna", [("legion", "I", 5), ("legion", "V", 5), ("legion", "V", 5)], ("caesar",)
    )
    s.forces["weak"] = army("weak", "senatorial", "ariminum", [("legion", "R", 2)], ("lentulus",))
    action = CampaignAI().choose(s)
    assert isinstance(action, A.March) and action.to == "ariminum"
