"""The main menu's entry for tactical battles: pick a scenario (``tactical.view.choose``), then fight it."""

from __future__ import annotations

import arcade

from bellum.view.picker import BattlePicker
from tactical.view.choose import TacticalBattles

LABEL = "Tactical battle"
BLURB = "Great Battles of History on hexes: eight battles, the Bagradas to Munda, Cannae, Gaugamela."


class ScenarioPicker(BattlePicker):
    """``scenarios/tactical/*.toml`` with their notes; the person picks the side they play."""

    def __init__(self, menu: arcade.View) -> None:
        super().__init__(menu, TacticalBattles())


def launch(window: arcade.Window, menu_view: arcade.View) -> None:
    window.show_view(ScenarioPicker(menu_view))
