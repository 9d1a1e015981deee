"""The main menu's entry for tactical battles: pick a scenario, then fight it."""

from __future__ import annotations

from pathlib import Path

import arcade

from bellum.paths import scenario_files
from bellum.view.picker import ScenarioPicker as _Picker
from tactical.view.app import battle_view
from tactical.view.play import DEMO

LABEL = "Tactical battle"
BLURB = "Great Battles of History on hexes: eight battles, the Bagradas to Munda, Cannae, Gaugamela."


class ScenarioPicker(_Picker):
    """``scenarios/tactical/*.toml`` (or the demo field while there are none); the AI plays
    side B unless hotseat."""

    def __init__(self, menu: arcade.View) -> None:
        paths = [str(p) for p in scenario_files("tactical")] or [DEMO]
        names = [p if p == DEMO else Path(p).stem for p in paths]
        super().__init__(menu, paths, [n.replace("-", " ").title() for n in names], self.make_view)

    def make_view(self, path: str, hotseat: bool) -> arcade.View:
        return battle_view(path, ai_sides=() if hotseat else ("B",), menu=self.menu)


def launch(window: arcade.Window, menu_view: arcade.View) -> None:
    window.show_view(ScenarioPicker(menu_view))
