"""The main menu's entry for the battleboard: pick a scenario, then fight it."""

from __future__ import annotations

import arcade

from battleboard.scenario import load_scenario
from battleboard.view.window import battle_view
from bellum.errors import InputError
from bellum.paths import SCENARIOS

LABEL = "Battleboard"
BLURB = "Land and sea battles on squares: Pharsalus, a mountain pass, Nova Carthago, Massilia."


class ScenarioPicker(arcade.View):
    """A list of ``scenarios/battleboard``; ↑ ↓ and Enter, or a click; Esc back to the menu."""

    def __init__(self, menu: arcade.View) -> None:
        super().__init__()
        self.menu = menu
        self.paths = sorted((SCENARIOS / "battleboard").glob("*.toml"))
        self.selected = 0
        self.error = ""
        self.texts = [arcade.Text(p.stem, 0, 0, (236, 222, 190), 18, anchor_x="center") for p in self.paths]
        self.head = arcade.Text(
            "Choose a battle  (Enter: against the AI · H: hotseat)", 0, 0, (222, 184, 96), 20, anchor_x="center"
        )
        self.err = arcade.Text("", 0, 0, (250, 140, 120), 12, anchor_x="center")

    def row_y(self, i: int) -> float:
        return float(self.window.height * 0.7 - i * 44)

    def on_draw(self) -> None:
        self.clear(color=(24, 20, 18))
        cx = self.window.width / 2
        self.head.position = (cx, self.window.height * 0.82)
        self.head.draw()
        for i, t in enumerate(self.texts):
            y = self.row_y(i)
            if i == self.selected:
                arcade.draw_lrbt_rectangle_filled(cx - 260, cx + 260, y - 12, y + 28, (84, 66, 52))
            t.position = (cx, y)
            t.draw()
        self.err.text = self.error
        self.err.position = (cx, 40)
        self.err.draw()

    def open(self, hotseat: bool = False) -> None:
        if not self.paths:
            return
        try:
            sc, state = load_scenario(str(self.paths[self.selected]))
        except InputError as bad:
            self.error = str(bad)
            return
        self.window.show_view(battle_view(sc, state, "none" if hotseat else "B", 1, menu=self.menu))

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        if symbol == arcade.key.ESCAPE:
            self.window.show_view(self.menu)
        elif symbol == arcade.key.DOWN and self.paths:
            self.selected = (self.selected + 1) % len(self.paths)
        elif symbol == arcade.key.UP and self.paths:
            self.selected = (self.selected - 1) % len(self.paths)
        elif symbol in (arcade.key.ENTER, arcade.key.RETURN):
            self.open()
        elif symbol == arcade.key.H:
            self.open(hotseat=True)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        for i in range(len(self.paths)):
            if self.row_y(i) - 12 <= y <= self.row_y(i) + 28:
                self.selected = i
                self.open()


def launch(window: arcade.Window, menu_view: arcade.View) -> None:
    window.show_view(ScenarioPicker(menu_view))
