"""The main menu's entry for tactical battles: pick a scenario, then fight it."""

from __future__ import annotations

import arcade

from bellum.errors import InputError
from bellum.paths import SCENARIOS
from tactical.view.app import battle_view
from tactical.view.play import DEMO

LABEL = "Tactical battle"
BLURB = "Great Battles of History on hexes: Pharsalus, Thapsus, Munda, Cannae, Gaugamela."

GOLD = (222, 184, 96)
INK = (236, 222, 190)


class ScenarioPicker(arcade.View):
    """``scenarios/tactical/*.toml`` (or the demo field while there are none): ↑ ↓ and
    Enter (against the AI, which plays side B) or H (hotseat), or a click; Esc back."""

    def __init__(self, menu: arcade.View) -> None:
        super().__init__()
        self.menu = menu
        found = sorted(str(p) for p in (SCENARIOS / "tactical").glob("*.toml"))
        self.paths: list[str] = found or [DEMO]
        self.selected = 0
        self.error = ""
        names = [p if p == DEMO else p.rsplit("/", 1)[-1][:-5] for p in self.paths]
        self.texts = [arcade.Text(n.replace("-", " ").title(), 0, 0, INK, 18, anchor_x="center") for n in names]
        self.head = arcade.Text(
            "Choose a battle  (Enter: against the AI · H: hotseat · Esc: back)", 0, 0, GOLD, 20, anchor_x="center"
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
        try:
            view = battle_view(self.paths[self.selected], ai_sides=() if hotseat else ("B",), menu=self.menu)
        except InputError as bad:
            self.error = str(bad)
            return
        self.window.show_view(view)

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        if symbol == arcade.key.ESCAPE:
            self.window.show_view(self.menu)
        elif symbol == arcade.key.DOWN:
            self.selected = (self.selected + 1) % len(self.paths)
        elif symbol == arcade.key.UP:
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
