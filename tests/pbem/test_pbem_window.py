"""A game by e-mail in the campaign window: the receiving player plays his part with keys
and dialogs, the other side is neither shown to a person nor played by the computer, and
the next turn file is written when the decision passes to the other computer (issue 17)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import arcade

from bellum import pbem
from tests.conftest import keep_screen, render
from tests.pbem.helpers import Game


def test_the_window_plays_one_turn_and_writes_the_next_file(window: Any, tmp_path: Path) -> None:
    from campaign.view.game import CampaignGame
    from campaign.view.play import CampaignView

    home = os.environ["BELLUM_HOME"]
    try:
        g = Game(tmp_path, seed="window")
        g.start()
        g.step()
        g.step()
        doc, _ = pbem.read_turn_file(g.files[-1])
        me = doc.pbem.to_play
        g.as_side(me)
        session = pbem.open_turn_file(g.files[-1])
        game = CampaignGame(session, frozenset({me}))
        game.send_to = tmp_path / "reply.toml"
        assert game.remote == frozenset(s for s in ("caesarian", "senatorial") if s != me)
        assert not game.ais  # nobody here plays the other side
        view = CampaignView(game)
        first = render(window, view)
        # the Save and Load buttons: the turn files are the save
        view.save()
        assert "turn files are the save" in game.message
        assert not game.load() and "turn file you received" in game.message
        for _ in range(300):
            if session.written is not None:
                break
            if view.dialog is not None:
                run = next(r for _label, r, _note in view.dialog.options if r is not None)
                run()
            else:
                before = game.version
                view.on_key_press(arcade.key.ENTER, 0)
                if game.version == before and game.phase_options():
                    game.decide(game.phase_options()[0].action)
            view.on_update(1 / 60)
        assert session.written == tmp_path / "reply.toml"
        shot = render(window, view)
        assert view.dialog is not None and view.dialog.title == "Your turn is done"
        assert any(str(session.written) in line for line in view.dialog.lines)
        keep_screen(shot, "pbem-turn-sent.png", tmp_path)
        assert first.size == shot.size
        view.close_dialog()
        view.on_update(1 / 60)
        assert not game.ai_to_act() and not game.human_to_act()
        # the other player accepts the file the window wrote
        other = next(iter(game.remote))
        g.as_side(other)
        again = pbem.open_turn_file(session.written)
        assert again.checksum() == session.checksum()
        assert again.me == other
    finally:
        os.environ["BELLUM_HOME"] = home


def test_a_battle_fought_move_by_move_in_the_window(window: Any, tmp_path: Path) -> None:
    from campaign.pbem import PlayedBattle
    from campaign.view.pbem_battle import PbemBattleView
    from campaign.view.play import CampaignView, pbem_game

    home = os.environ["BELLUM_HOME"]
    try:
        g = Game(tmp_path, seed="battle", battles="played")
        g.start()
        session = g.until_receiver_fights(PlayedBattle)
        game = pbem_game(session, str(tmp_path / "reply.toml"))
        view = CampaignView(game)
        render(window, view)
        assert view.dialog is not None and view.dialog.title.startswith("Your turn")
        view.dialog.options[0][1]()  # type: ignore[misc]
        view.close_dialog()
        view.on_update(1 / 60)
        battle = window.current_view
        assert isinstance(battle, PbemBattleView) and battle.human_to_act()
        shot = render(window, battle)
        keep_screen(shot, "pbem-battle.png", tmp_path)
        moves = 0
        while window.current_view is battle and moves < 200:
            battle.press("ai")  # the window's "computer move" button, for this side only
            assert not battle.message, battle.message
            moves += 1
        assert moves >= 1 and window.current_view is view
        view.on_update(1 / 60)
        assert session.written == tmp_path / "reply.toml"
        other = next(iter(game.remote))
        g.as_side(other)
        again = pbem.open_turn_file(session.written)
        assert again.checksum() == session.checksum()
    finally:
        os.environ["BELLUM_HOME"] = home


def test_a_tactical_battle_fought_move_by_move_in_the_window(window: Any, tmp_path: Path) -> None:
    """``--battles played-tactical``: the tactical window on the battle, this side's moves only."""
    from campaign.pbem import PlayedTacticalBattle
    from campaign.view.play import CampaignView, pbem_game

    home = os.environ["BELLUM_HOME"]
    try:
        g = Game(tmp_path, seed="tac", battles="played-tactical")
        g.start()
        session = g.until_receiver_fights(PlayedTacticalBattle)
        game = pbem_game(session, str(tmp_path / "reply.toml"))
        view = CampaignView(game)
        render(window, view)
        assert view.dialog is not None
        view.close_dialog()
        view.on_update(1 / 60)
        battle = window.current_view
        assert battle is not view and hasattr(battle, "ai_step") and battle.legal()
        shot = render(window, battle)
        keep_screen(shot, "pbem-tactical-battle.png", tmp_path)
        moves = 0
        while window.current_view is battle and moves < 300:
            assert battle.ai_step(), battle.message  # the window's computer move, for this side only
            battle.on_update(1 / 60)
            moves += 1
        assert window.current_view is view
        view.on_update(1 / 60)
        assert session.written == tmp_path / "reply.toml"
        g.as_side(next(iter(game.remote)))
        assert pbem.open_turn_file(session.written).checksum() == session.checksum()
    finally:
        os.environ["BELLUM_HOME"] = home
