"""The main menu's entry for the battleboard: pick a scenario, then fight it."""

from __future__ import annotations

import arcade

from battleboard.scenario import load_scenario
from battleboard.view.window import battle_view, new_session
from bellum.paths import scenario_files
from bellum.view.picker import ScenarioPicker as _Picker

LABEL = "Battleboard"
BLURB = "Land and sea battles on squares: Pharsalus, a mountain pass, Nova Carthago, Massilia."


class ScenarioPicker(_Picker):
    """``scenarios/battleboard/*.toml``; the AI plays side B unless hotseat."""

    def __init__(self, menu: arcade.View) -> None:
        paths = scenario_files("battleboard")
        super().__init__(menu, [str(p) for p in paths], [p.stem for p in paths], self.make_view)

    def make_view(self, path: str, hotseat: bool) -> arcade.View:
        sc, state = load_scenario(path)
        return battle_view(sc, state, "none" if hotseat else "B", 1, menu=self.menu, session=new_session(path, 1))


def launch(window: arcade.Window, menu_view: arcade.View) -> None:
    window.show_view(ScenarioPicker(menu_view))
