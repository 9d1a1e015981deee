"""A plain screen of texts, boxes and buttons, shared by the save dialog, the load screen and
the end-of-war screen (``loadscreen``, ``victory``): the layout is built again only when what
it shows changes (``invalidate``), drawn from one text batch; buttons are the kernel's
``Button``, pressed by a click, by their key (``press``) or by the keyboard."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import arcade
from pyglet.graphics import Batch

from bellum.view.widgets import Button
from campaign.view.mapview import SANS, SERIF, rgba
from campaign.view.palette import BG_BOTTOM, BG_TOP, GOLD, INK, PARCHMENT

DIM = (96, 80, 66, 255)
WARN = (150, 40, 30, 255)
BUTTON = (92, 60, 48, 255)
BUTTON_OFF = (160, 150, 136, 255)
BUTTON_INK = rgba(PARCHMENT)
BUTTON_H = 30
INK_RGBA = rgba(INK)
Rect = tuple[float, float, float, float, tuple[int, int, int, int]]


class Screen(arcade.View):
    """Texts, filled boxes and buttons; subclasses fill them in ``build``."""

    def __init__(self) -> None:
        super().__init__()
        self.batch = Batch()
        self.texts: list[arcade.Text] = []
        self.rects: list[Rect] = []
        self.outlines: list[Rect] = []
        self.buttons: list[Button] = []
        self._built: tuple[int, int] | None = None

    # ------------------------------------------------------------------ building
    def invalidate(self) -> None:
        self._built = None

    def ensure_built(self) -> None:
        size = (self.window.width, self.window.height)
        if self._built != size:
            self.batch = Batch()
            self.texts, self.rects, self.outlines, self.buttons = [], [], [], []
            self.build()
            self._built = size

    def build(self) -> None:
        """Fill ``texts``, ``rects`` and ``buttons`` for the window's size."""

    def text(
        self,
        text: str,
        x: float,
        y: float,
        color: Any = INK_RGBA,
        size: float = 11,
        *,
        width: float | None = None,
        bold: bool = False,
        serif: bool = False,
        anchor_x: str = "left",
        italic: bool = False,
    ) -> arcade.Text:
        """A text whose top is at ``y`` (wrapped at ``width`` when given)."""
        t = arcade.Text(
            text,
            x,
            y,
            color,
            size,
            font_name=SERIF if serif else SANS,
            bold=bold,
            italic=italic,
            anchor_x=anchor_x,
            anchor_y="top",
            multiline=width is not None,
            width=int(width) if width is not None else None,
            batch=self.batch,
        )
        self.texts.append(t)
        return t

    def box(self, left: float, bottom: float, right: float, top: float, color: Any, outline: Any = None) -> None:
        self.rects.append((left, right, bottom, top, color))
        if outline is not None:
            self.outlines.append((left, right, bottom, top, outline))

    def button(
        self,
        key: str,
        label: str,
        left: float,
        bottom: float,
        width: float,
        run: Callable[[], Any] | None,
        *,
        enabled: bool = True,
    ) -> Button:
        b = Button(key, label, left, bottom, width, BUTTON_H, run=run, enabled=enabled and run is not None)
        self.buttons.append(b)
        self.box(left, bottom, left + width, bottom + BUTTON_H, BUTTON if b.enabled else BUTTON_OFF)
        ink = BUTTON_INK if b.enabled else (236, 230, 220, 255)
        t = arcade.Text(
            label,
            left + width / 2,
            bottom + BUTTON_H / 2,
            ink,
            11,
            font_name=SANS,
            anchor_x="center",
            anchor_y="center",
            batch=self.batch,
        )
        self.texts.append(t)
        return b

    def panel(self, left: float, bottom: float, right: float, top: float) -> None:
        """A parchment panel with a shadow and a dark border."""
        self.box(left + 5, bottom - 5, right + 5, top - 5, (20, 10, 12, 140))
        self.box(left, bottom, right, top, rgba(PARCHMENT, 252), outline=rgba(BG_TOP))

    # ------------------------------------------------------------------ drawing
    def draw_backdrop(self) -> None:
        """What lies under the panels: the menu's dark red by default."""
        self.clear(color=rgba(BG_BOTTOM))
        w, h = self.window.width, self.window.height
        arcade.draw_lrbt_rectangle_filled(0, w, h - 70, h, rgba(BG_TOP))
        arcade.draw_lrbt_rectangle_filled(0, w, h - 74, h - 70, rgba(GOLD))

    def on_draw(self) -> None:
        self.ensure_built()
        self.draw_backdrop()
        # a window dragged very small turns some boxes inside out: those are not drawn
        for left, right, bottom, top, color in self.rects:
            if left <= right and bottom <= top:
                arcade.draw_lrbt_rectangle_filled(left, right, bottom, top, color)
        for left, right, bottom, top, color in self.outlines:
            if left <= right and bottom <= top:
                arcade.draw_lrbt_rectangle_outline(left, right, bottom, top, color, 2)
        self.draw_extra()
        self.batch.draw()

    def draw_extra(self) -> None:
        """Anything drawn between the boxes and the texts (a picture)."""

    # ------------------------------------------------------------------ input
    def button_at(self, x: float, y: float) -> Button | None:
        self.ensure_built()
        for b in self.buttons:
            if b.hit(x, y):
                return b
        return None

    def press(self, key: str) -> bool:
        """Press the button ``key`` as a click would; False if there is none or it is off."""
        self.ensure_built()
        for b in self.buttons:
            if b.key == key and b.enabled and b.run is not None:
                b.run()
                self.invalidate()
                return True
        return False

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        b = self.button_at(x, y)
        if b is not None and b.enabled and b.run is not None:
            b.run()
            self.invalidate()
        return None

    def on_resize(self, width: int, height: int) -> bool | None:
        self.invalidate()
        return None
