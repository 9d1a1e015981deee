"""The main menu: title, the entries for what exists, keyboard and mouse."""

from __future__ import annotations

import argparse

import arcade

from bellum import __version__
from bellum.view.app import HEIGHT, WIDTH, MenuEntry, available_entries, launch

BG_TOP = (52, 18, 30)
BG_BOTTOM = (22, 10, 16)
GOLD = (222, 184, 96)
PARCHMENT = (236, 222, 190)
INK = (48, 30, 24)
PURPLE = (104, 40, 86)
RED = (150, 32, 36)

BUTTON_W, BUTTON_H, BUTTON_GAP = 420, 54, 16
#: the room kept under the last button for the blurb and the footer
BLURB_ROOM = 74


class MenuView(arcade.View):
    """The first screen.  ``selected`` is the highlighted entry (keyboard or mouse)."""

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[MenuEntry] = available_entries()
        self.selected = 0
        self.title = arcade.Text("BELLVM  CIVILE", 0, 0, GOLD, 64, anchor_x="center", bold=True)
        self.subtitle = arcade.Text(
            "Caesar against the Senate  ·  49–45 BC", 0, 0, PARCHMENT, 20, anchor_x="center", italic=True
        )
        self.labels = [arcade.Text(e.label, 0, 0, INK, 22, anchor_x="center", bold=True) for e in self.entries]
        self.blurb = arcade.Text("", 0, 0, PARCHMENT, 15, anchor_x="center")
        self.footer = arcade.Text(
            f"v{__version__}   ·   ↑ ↓ choose   ·   Enter open   ·   Esc quit",
            0,
            0,
            (170, 150, 130),
            12,
            anchor_x="center",
        )

    # -- layout -------------------------------------------------------
    def pitch(self) -> tuple[float, float]:
        """(button height, distance from one button's top to the next): the usual size, or
        smaller so that every entry, the blurb and the footer fit under the title."""
        room = self.window.height * 0.56 - BLURB_ROOM
        n = max(1, len(self.entries))
        step = min(BUTTON_H + BUTTON_GAP, room / n)
        return min(BUTTON_H, step * BUTTON_H / (BUTTON_H + BUTTON_GAP)), step

    def button_box(self, index: int) -> tuple[float, float, float, float]:
        """(left, right, bottom, top) of entry ``index`` in window pixels."""
        cx = self.window.width / 2
        height, step = self.pitch()
        top = self.window.height * 0.56 - index * step
        return cx - BUTTON_W / 2, cx + BUTTON_W / 2, top - height, top

    def entry_at(self, x: float, y: float) -> int | None:
        for i in range(len(self.entries)):
            left, right, bottom, top = self.button_box(i)
            if left <= x <= right and bottom <= y <= top:
                return i
        return None

    # -- drawing ------------------------------------------------------
    def on_draw(self) -> None:
        self.clear()
        w, h = self.window.width, self.window.height
        arcade.draw_lrbt_rectangle_filled(0, w, 0, h, BG_BOTTOM)
        arcade.draw_lrbt_rectangle_filled(0, w, h * 0.62, h, BG_TOP)
        arcade.draw_lrbt_rectangle_filled(0, w, h * 0.62 - 4, h * 0.62, GOLD)
        arcade.draw_lrbt_rectangle_filled(w * 0.2, w * 0.8, h * 0.75 - 2, h * 0.75, RED)
        self.title.position = (w / 2, h * 0.80)
        self.title.draw()
        self.subtitle.position = (w / 2, h * 0.68)
        self.subtitle.draw()
        for i, label in enumerate(self.labels):
            left, right, bottom, top = self.button_box(i)
            chosen = i == self.selected
            if chosen:
                arcade.draw_lrbt_rectangle_filled(left - 6, right + 6, bottom - 6, top + 6, GOLD)
            arcade.draw_lrbt_rectangle_filled(left, right, bottom, top, PARCHMENT if chosen else (196, 178, 146))
            arcade.draw_lrbt_rectangle_outline(left, right, bottom, top, PURPLE, 2)
            label.position = (w / 2, bottom + (top - bottom) / 2 - 9)
            label.draw()
        if self.entries:
            self.blurb.text = self.entries[self.selected].blurb
            _, _, bottom, _ = self.button_box(len(self.entries) - 1)
            self.blurb.position = (w / 2, bottom - 34)
            self.blurb.draw()
        self.footer.position = (w / 2, 18)
        self.footer.draw()

    # -- input --------------------------------------------------------
    def on_key_press(self, symbol: int, modifiers: int) -> None:
        if symbol in (arcade.key.DOWN, arcade.key.S):
            self.selected = (self.selected + 1) % len(self.entries)
        elif symbol in (arcade.key.UP, arcade.key.W):
            self.selected = (self.selected - 1) % len(self.entries)
        elif symbol in (arcade.key.ENTER, arcade.key.RETURN, arcade.key.SPACE):
            self.activate(self.selected)
        elif symbol == arcade.key.ESCAPE:
            self.window.close()

    def on_mouse_motion(self, x: float, y: float, dx: float, dy: float) -> None:
        hit = self.entry_at(x, y)
        if hit is not None:
            self.selected = hit

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        hit = self.entry_at(x, y)
        if hit is not None:
            self.selected = hit
            self.activate(hit)

    def activate(self, index: int) -> None:
        launch(self.entries[index], self.window, self)


def shot_view(args: argparse.Namespace) -> arcade.View:
    return MenuView()


def run_menu() -> None:
    """Open the game window on the main menu and run until it is closed."""
    window = arcade.Window(WIDTH, HEIGHT, "Bellum Civile", resizable=True, antialiasing=False)
    window.show_view(MenuView())
    arcade.run()
