"""What one frame of the battleboard window is made of: sprites, shapes and texts, rebuilt
from the model after each action and drawn in a few batched calls.  Every text is kept
(``texts``) so tests can check by their boxes that none is cut or overlaps another."""

from __future__ import annotations

from typing import Any

import arcade
from arcade import shape_list
from pyglet.graphics import Batch


class Canvas:
    """A frame's sprites, highlight shapes and texts (one pyglet batch)."""

    def __init__(self) -> None:
        self.sprites: arcade.SpriteList[arcade.SpriteSolidColor] = arcade.SpriteList()
        self.shapes: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        self.batch = Batch()
        self.texts: list[arcade.Text] = []

    def box(self, x: float, y: float, w: float, h: float, color: Any) -> None:
        """A filled rectangle centred on (x, y)."""
        color = tuple(color) if len(color) == 4 else (*color, 255)
        self.sprites.append(arcade.SpriteSolidColor(max(1, int(w)), max(1, int(h)), x, y, color))

    def frame(self, x: float, y: float, w: float, h: float, color: Any, border: float = 2) -> None:
        self.shapes.append(shape_list.create_rectangle_outline(x, y, w, h, color, border))

    def fill(self, x: float, y: float, w: float, h: float, color: Any) -> None:
        self.shapes.append(shape_list.create_rectangle_filled(x, y, w, h, color))

    def text(
        self, text: str, x: float, y: float, color: Any, size: float, *, center: bool = False, bold: bool = False
    ) -> arcade.Text:
        """One line: left and baseline at (x, y), or centred on it."""
        t = arcade.Text(
            text,
            round(x),
            round(y),  # whole pixels: small letters drawn between rows lose a stroke
            color,
            size,
            batch=self.batch,
            anchor_x="center" if center else "left",
            anchor_y="center" if center else "baseline",
            bold=bold,
        )
        self.texts.append(t)
        return t

    def para(
        self, text: str, x: float, top: float, width: float, color: Any, size: float, *, bold: bool = False
    ) -> arcade.Text:
        """A paragraph wrapped inside ``width`` with its top at ``top`` (its bottom: ``top - content_height``)."""
        t = arcade.Text(
            text,
            x,
            top,
            color,
            size,
            width=int(width),
            multiline=True,
            batch=self.batch,
            anchor_y="top",
            bold=bold,
        )
        self.texts.append(t)
        return t

    def draw(self) -> None:
        self.shapes.draw()
        self.sprites.draw()
        self.batch.draw()
