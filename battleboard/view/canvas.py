"""What one frame of the battleboard window is made of: sprites, shapes and texts, rebuilt
from the model after each action and drawn in a few batched calls.  Every text of the
frame is listed (``texts``) so tests can check by their boxes that none is cut or overlaps
another.

Laying out a text is the costly part of a frame (pyglet lays out glyphs on the CPU), so
texts are kept from one frame to the next: ``begin`` opens a frame, a text asked for again
with the same words, width, size and colour is the one already laid out (moved to its new
place), and ``end`` drops the texts the new frame no longer asks for.
"""

from __future__ import annotations

from typing import Any

import arcade
from arcade import shape_list
from pyglet.graphics import Batch

_Key = tuple[Any, ...]


class Canvas:
    """A frame's sprites, highlight shapes and texts (one pyglet batch, texts kept between frames)."""

    def __init__(self) -> None:
        self.sprites: arcade.SpriteList[arcade.SpriteSolidColor] = arcade.SpriteList()
        self.shapes: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        self.batch = Batch()
        self.texts: list[arcade.Text] = []  # this frame's, in the order asked for
        self._kept: dict[_Key, list[arcade.Text]] = {}  # this frame's, by what they look like
        self._free: dict[_Key, list[arcade.Text]] = {}  # the last frame's, not yet asked for

    def begin(self) -> None:
        """A new frame: no sprites or shapes yet; the last frame's texts wait to be asked for."""
        self.sprites = arcade.SpriteList()
        self.shapes = shape_list.ShapeElementList()
        self.texts = []
        for key, texts in self._kept.items():
            self._free.setdefault(key, []).extend(texts)
        self._kept = {}

    def end(self) -> None:
        """Drop the texts this frame did not ask for."""
        for texts in self._free.values():
            for t in texts:
                t.label.delete()
        self._free = {}

    def drop(self, t: arcade.Text) -> None:
        """Take back a text asked for in this frame (it did not fit)."""
        self.texts.remove(t)
        for texts in self._kept.values():
            if t in texts:
                texts.remove(t)
        t.label.delete()

    def box(self, x: float, y: float, w: float, h: float, color: Any) -> None:
        """A filled rectangle centred on (x, y)."""
        color = tuple(color) if len(color) == 4 else (*color, 255)
        self.sprites.append(arcade.SpriteSolidColor(max(1, int(w)), max(1, int(h)), x, y, color))

    def frame(self, x: float, y: float, w: float, h: float, color: Any, border: float = 2) -> None:
        self.shapes.append(shape_list.create_rectangle_outline(x, y, w, h, color, border))

    def fill(self, x: float, y: float, w: float, h: float, color: Any) -> None:
        self.shapes.append(shape_list.create_rectangle_filled(x, y, w, h, color))

    def _get(self, key: _Key, make: Any, x: float, y: float) -> arcade.Text:
        """The text that looks like ``key``: one kept from the last frame (moved to (x, y)) or a new one."""
        free = self._free.get(key)
        if free:
            t = free.pop()
            if (t.x, t.y) != (x, y):
                t.position = (x, y)
        else:
            t = make()
        self._kept.setdefault(key, []).append(t)
        self.texts.append(t)
        return t

    def text(
        self, text: str, x: float, y: float, color: Any, size: float, *, center: bool = False, bold: bool = False
    ) -> arcade.Text:
        """One line: left and baseline at (x, y), or centred on it."""
        x, y = round(x), round(y)  # whole pixels: small letters drawn between rows lose a stroke
        key = ("line", text, tuple(color), size, center, bold)
        return self._get(
            key,
            lambda: arcade.Text(
                text,
                x,
                y,
                color,
                size,
                batch=self.batch,
                anchor_x="center" if center else "left",
                anchor_y="center" if center else "baseline",
                bold=bold,
            ),
            x,
            y,
        )

    def para(
        self, text: str, x: float, top: float, width: float, color: Any, size: float, *, bold: bool = False
    ) -> arcade.Text:
        """A paragraph wrapped inside ``width`` with its top at ``top`` (its bottom: ``top - content_height``)."""
        key = ("para", text, int(width), tuple(color), size, bold)
        return self._get(
            key,
            lambda: arcade.Text(
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
            ),
            x,
            top,
        )

    def draw(self) -> None:
        self.shapes.draw()
        self.sprites.draw()
        self.batch.draw()
