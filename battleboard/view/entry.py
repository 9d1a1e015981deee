"""The main menu's entry for the battleboard: pick a scenario (``battleboard.view.choose``), then fight it."""

from __future__ import annotations

import arcade

from battleboard.view.choose import BoardBattles
from bellum.view.picker import BattlePicker

LABEL = "Battleboard"
BLURB = "Land and sea battles on squares: Pharsalus, a mountain pass, Nova Carthago, Massilia."


class ScenarioPicker(BattlePicker):
    """``scenarios/battleboard/*.toml`` with their notes; the person picks the side they play."""

    def __init__(self, menu: arcade.View) -> None:
        super().__init__(menu, BoardBattles())


def launch(window: arcade.Window, menu_view: arcade.View) -> None:
    window.show_view(ScenarioPicker(menu_view))
