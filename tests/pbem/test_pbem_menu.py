"""Games by e-mail and replays from the main menu, driven with keys (issue 17)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import arcade

from bellum import pbem
from bellum.view.menu import MenuView
from tests.conftest import keep_screen, render
from tests.pbem.helpers import Game


def test_start_play_and_replay_from_the_menu(window: Any, tmp_path: Path) -> None:
    from campaign.view.pbem_entry import PbemPicker
    from campaign.view.play import CampaignView
    from campaign.view.replay import CampaignReplayView

    home = os.environ["BELLUM_HOME"]
    try:
        g = Game(tmp_path, seed="menu")
        g.start()
        g.step()
        g.step()  # turn file 2: the Senatorials to play
        g.as_side("senatorial")
        menu = MenuView()
        render(window, menu)
        index = next(i for i, e in enumerate(menu.entries) if e.label.startswith("Play by e-mail"))
        for _ in range(index):
            menu.on_key_press(arcade.key.DOWN, 0)
        menu.on_key_press(arcade.key.ENTER, 0)
        picker = window.current_view
        assert isinstance(picker, PbemPicker)
        # a new game: its first file is written into the e-mail folder and listed
        picker.on_key_press(arcade.key.ENTER, 0)
        assert picker.note.startswith("Written: ") and not picker.error
        assert any(label.endswith("sent to the Senatorials") for _, label in picker.rows)
        # the file received from the Caesarians, put into the folder, is listed and played
        received = pbem.folder() / "from-caesar.toml"
        shutil.copy(g.files[-1], received)
        picker.refresh()
        row = next(i for i, (key, _) in enumerate(picker.rows) if key == f"file:{received}")
        while picker.selected != row:
            picker.on_key_press(arcade.key.DOWN, 0)
        shot = render(window, picker)
        keep_screen(shot, "pbem-menu.png", tmp_path)
        picker.on_key_press(arcade.key.R, 0)
        replay = window.current_view
        assert isinstance(replay, CampaignReplayView) and replay.replay.turns[0].startswith("0. Caesarians")
        replay.on_key_press(arcade.key.ESCAPE, 0)
        assert window.current_view is picker
        picker.on_key_press(arcade.key.ENTER, 0)
        view = window.current_view
        assert isinstance(view, CampaignView) and view.game.remote == frozenset({"caesarian"})
        render(window, view)
        assert view.dialog is not None and view.dialog.title == "Your turn: The Senatorials"
        # a damaged file is refused in the picker's message line, nothing opened
        window.show_view(picker)
        (pbem.folder() / "damaged.toml").write_text(received.read_text()[:500])
        picker.refresh()
        picker.selected = next(i for i, (key, _) in enumerate(picker.rows) if key.endswith("damaged.toml"))
        picker.on_key_press(arcade.key.ENTER, 0)
        assert window.current_view is picker and "damaged.toml" in picker.error
    finally:
        os.environ["BELLUM_HOME"] = home
