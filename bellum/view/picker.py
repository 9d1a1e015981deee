"""A scenario list shared by the engines' menu entries: ↑ ↓ and Enter (against the AI)
or H (hotseat), or a click; Esc goes back to the menu.  A subclass says how to open
the chosen scenario (``opener(path, hotseat)``, which raises ``InputError`` for a bad file)."""

from __future__ import annotations

from collections.abc import Callable

import arcade

from bellum.errors import InputError

GOLD = (222, 184, 96)
INK = (236, 222, 190)
ERROR = (250, 140, 120)


class ScenarioPicker(arcade.View):
    def __init__(
        self, menu: arcade.View, paths: list[str], names: list[str], opener: Callable[[str, bool], arcade.View]
    ) -> None:
        super().__init__()
        self.opener = opener
        self.menu = menu
        self.paths = paths
        self.selected = 0
        self.error = ""
        self.texts = [arcade.Text(n, 0, 0, INK, 18, anchor_x="center") for n in names]
        self.head = arcade.Text(
            "Choose a battle  (Enter: against the AI · H: hotseat · Esc: back)", 0, 0, GOLD, 20, anchor_x="center"
        )
        self.err = arcade.Text("", 0, 0, ERROR, 12, anchor_x="center")

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
            view = self.opener(self.paths[self.selected], hotseat)
        except InputError as bad:
            self.error = str(bad)
            return
        self.window.show_view(view)

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
