"""The replay viewer driven as a person uses it: keys and clicks, forward and back through a
campaign turn and through a battle fought inside it, checked on real screenshots (issue 17)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import arcade
import pytest

from bellum.cli import main
from bellum.errors import InputError
from bellum.replay import Replay, load_replay
from tests.conftest import keep_screen, render
from tests.pbem.helpers import Game


@pytest.fixture(scope="module")
def game_file(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    home = os.environ["BELLUM_HOME"]
    g = Game(tmp_path_factory.mktemp("replay"))
    g.start()
    g.until_battle()
    yield g.files[-1]
    os.environ["BELLUM_HOME"] = home


def ink(image: Any, box: tuple[int, int, int, int]) -> int:
    """How many pixels in ``box`` (left, top, right, bottom, image coordinates) are light text."""
    crop = image.convert("RGB").crop(box)
    return sum(1 for p in crop.getdata() if sum(p) > 520)


def coloured(image: Any, box: tuple[int, int, int, int]) -> int:
    """How many pixels in ``box`` are strongly red or purple (the sides' counters)."""
    crop = image.convert("RGB").crop(box)
    return sum(1 for r, g, b in crop.getdata() if r > 100 and r - g > 60)


def press(view: Any, key: int) -> None:
    view.on_key_press(key, 0)


def click_button(view: Any, label: str) -> None:
    b = next(b for b in view.buttons if b.label.startswith(label))
    view.on_mouse_press(int(b.left + b.width / 2), int(b.bottom + 10), arcade.MOUSE_BUTTON_LEFT, 0)


def test_replay_steps_through_a_campaign_turn_and_a_battle(window: Any, game_file: Path, tmp_path: Path) -> None:
    from bellum.view.replay import replay_view
    from campaign.view.replay import CampaignReplayView

    replay: Replay = load_replay(game_file)
    view = replay_view(replay)
    assert isinstance(view, CampaignReplayView)  # the campaign is replayed on its map
    start = render(window, view)
    assert replay.index == 0
    assert "The start of the game" in [t.text for t in view.texts]
    # one action forward with the arrow, one more with the button, one back
    press(view, arcade.key.RIGHT)
    render(window, view)
    click_button(view, "Action ▶")
    render(window, view)
    assert replay.index == 2
    press(view, arcade.key.LEFT)
    render(window, view)
    assert replay.index == 1
    # a whole turn forward: the end of the first turn with actions; the map shows its state
    first_turn = replay.turn
    press(view, arcade.key.DOWN)
    press(view, arcade.key.DOWN)
    press(view, arcade.key.DOWN)
    render(window, view)
    assert replay.turn == first_turn + 3 and replay.index > 1
    assert view.game.state is replay.frame.state
    shot = render(window, view)
    keep_screen(shot, "replay-campaign.png", tmp_path)
    assert ink(shot, (0, 0, 1280, 38)) > 200  # the top bar: the date, the step
    assert shot.tobytes() != start.tobytes()  # the forces moved
    # type a turn number and Enter: jump there; then back a turn with the button
    press(view, arcade.key.KEY_4)
    press(view, arcade.key.ENTER)
    render(window, view)
    assert replay.turn == 4
    click_button(view, "◀ Turn")
    render(window, view)
    assert replay.turn == 3
    # to the battle, and open it with B
    frame = replay.battle_frames()[0]
    replay.index = frame
    shot = render(window, view)
    assert any(b.label.startswith("Open ") for b in view.buttons)
    keep_screen(shot, "replay-campaign-battle-step.png", tmp_path)
    press(view, arcade.key.B)
    battle = window.current_view
    assert battle is not view and battle.replay.engine == "battleboard"
    shot = render(window, battle)
    assert battle.replay.index == 0
    press(battle, arcade.key.RIGHT)
    press(battle, arcade.key.RIGHT)
    render(window, battle)
    press(battle, arcade.key.DOWN)
    shot = render(window, battle)
    keep_screen(shot, "replay-battle.png", tmp_path)
    assert battle.replay.turn >= 1
    assert coloured(shot, (950, 60, 1280, 500)) > 2000  # the board with its units in their sides' colours
    # to the end of the battle: the winner is told; then back, and Esc to the campaign
    press(battle, arcade.key.END)
    render(window, battle)
    assert any("Winner" in t.text for t in battle.texts)
    press(battle, arcade.key.LEFT)
    render(window, battle)
    assert battle.replay.index == len(battle.replay.frames) - 2
    press(battle, arcade.key.ESCAPE)
    assert window.current_view is view
    assert replay.index == frame


def test_the_text_replay_jumps_by_its_list_of_turns(window: Any, game_file: Path) -> None:
    from bellum.view.replay import ReplayView

    replay = load_replay(game_file)
    view = ReplayView(replay)
    render(window, view)
    bottom, top, turn = view.turn_rows[3]
    view.on_mouse_press(40, int((bottom + top) / 2), arcade.MOUSE_BUTTON_LEFT, 0)
    assert replay.turn == turn == 3
    shot = render(window, view)
    assert ink(shot, (316, 60, 940, 400)) > 400  # the step: what was done and what came of it


def test_a_step_without_battle_says_so(window: Any, game_file: Path) -> None:
    from bellum.view.replay import replay_view

    view = replay_view(load_replay(game_file))
    render(window, view)
    press(view, arcade.key.B)
    render(window, view)
    assert window.current_view is view
    assert view.message == "no battle was fought in this step"


def test_replay_of_a_save_and_refusals(tmp_path: Path) -> None:
    from bellum.session import Session
    from campaign.ai import CampaignAI
    from campaign.engine import CampaignEngine

    s = Session(CampaignEngine(), "49bc", 5)
    ai = CampaignAI()
    while s.state.turn < 2:
        s.play(ai.choose(s.state))
    path = s.save(tmp_path / "war.toml")
    replay = load_replay(path)
    assert len(replay.frames) == len(s.actions) + 1
    assert replay.turns[0] == "January 49 BC" and len(replay.turns) >= 2
    bad = tmp_path / "bad.toml"
    bad.write_text('[pbem]\nformat = "bellum-civile-pbem"\n')
    with pytest.raises(InputError):
        load_replay(bad)
    assert main(["replay", str(tmp_path / "missing.toml")]) == 2


def test_replay_of_a_tactical_battle_save(window: Any, tmp_path: Path) -> None:
    """A battle's log: a tactical battle saved by ``bellum battle --save``, stepped move by move."""
    from bellum.session import Session
    from bellum.view.replay import ReplayView
    from tactical.ai import TacticalAI
    from tactical.game import TacticalEngine

    s = Session(TacticalEngine(), "pharsalus", 4)
    ai = TacticalAI(1)
    for _ in range(25):
        s.play(ai.choose(s.state))
    path = s.save(tmp_path / "battle.toml")
    replay = load_replay(path)
    assert replay.engine == "tactical" and len(replay.frames) == 26
    view = ReplayView(replay)
    press(view, arcade.key.END)
    shot = render(window, view)
    assert replay.index == 25 and any("Side" in t.text for t in view.texts)
    press(view, arcade.key.UP)
    render(window, view)
    assert replay.index < 25
    assert ink(shot, (316, 60, 940, 300)) > 200


def test_a_tactical_battle_inside_the_campaign_is_fought_again_and_stepped(window: Any, tmp_path: Path) -> None:
    from bellum.view.replay import replay_view

    home = os.environ["BELLUM_HOME"]
    try:
        g = Game(tmp_path, seed="tac", battles="tactical")
        g.start()
        g.until_battle()
    finally:
        os.environ["BELLUM_HOME"] = home
    replay = load_replay(g.files[-1])
    view = replay_view(replay)
    replay.index = next(i for i in replay.battle_frames() if replay.frames[i].battles[0][0].startswith("Battle of"))
    render(window, view)
    press(view, arcade.key.B)
    battle = window.current_view
    assert battle is not view and battle.replay.engine == "tactical"
    assert len(battle.replay.frames) > 10 and len(battle.replay.turns) > 2
    press(battle, arcade.key.DOWN)
    press(battle, arcade.key.RIGHT)
    shot = render(window, battle)
    keep_screen(shot, "replay-tactical-battle.png", tmp_path)
    assert battle.replay.turn >= 1
    press(battle, arcade.key.END)
    render(window, battle)
    assert any("Winner" in t.text for t in battle.texts)
    press(battle, arcade.key.ESCAPE)
    assert window.current_view is view
