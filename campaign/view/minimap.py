"""The minimap (issue 15): the whole map small in a corner, the view's rectangle on it; a
click on it moves the camera there, ``M`` hides or shows it.

It sits at the bottom of the window right of the legend, over the Sahara at the
whole-map zoom (no space of the game there).  It is drawn into the still frame with the
HUD and again on each panning frame (its rectangle moves with the camera); it is not one
of the HUD's copied boxes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import arcade
from PIL import Image

from campaign.view.palette import BG_TOP, GOLD, PARCHMENT

if TYPE_CHECKING:
    from campaign.view.mapview import MapView

WIDTH = 200.0
LEFT, BOTTOM = 246.0, 10.0


class Minimap:
    """The corner map of a ``MapView``."""

    def __init__(self, view: MapView) -> None:
        self.view = view
        self.shown = True
        self.sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._ground: Any = None
        self._view_bars: list[arcade.SpriteSolidColor] = []
        self._view_key: tuple[float, ...] | None = None

    def rect(self) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) on the screen."""
        left, right, bottom, top = self.view.bounds
        h = WIDTH * (top - bottom) / (right - left)
        return LEFT, BOTTOM, LEFT + WIDTH, BOTTOM + h

    def set_ground(self, image: Image.Image, key: int) -> None:
        """The ground picture (the map's owners): shrunk once per change of owners.  The
        whole minimap is one sprite list (its paper, the ground, its frame and the view's
        rectangle as thin bars), drawn in one call."""
        if self._ground == key:
            return
        self._ground = key
        x0, y0, x1, y1 = self.rect()
        left, right, bottom, _ = self.view.bounds
        gl, gr, gb, gt = self.view.geo.bounds
        sx = (x1 - x0) / (right - left)
        w, h = (gr - gl) * sx, (gt - gb) * sx
        small = image.resize((max(1, round(w * 2)), max(1, round(h * 2))), Image.Resampling.BOX)
        tex = arcade.Texture(small.convert("RGBA"), hash=f"campaign-minimap-{key}")
        ground = arcade.Sprite(tex)
        ground.width, ground.height = w, h
        ground.center_x = x0 + ((gl + gr) / 2 - left) * sx
        ground.center_y = y0 + ((gb + gt) / 2 - bottom) * sx
        self.sprites = arcade.SpriteList()
        self.sprites.append(_bar(x0 - 2, y0 - 2, x1 + 2, y1 + 2, PARCHMENT))
        self.sprites.append(ground)
        for edge in _frame(x0 - 2, y0 - 2, x1 + 2, y1 + 2, 1.5):
            self.sprites.append(_bar(*edge, BG_TOP))
        self._view_bars = [_bar(0, 0, 1, 1, GOLD) for _ in range(4)]
        for bar in self._view_bars:
            self.sprites.append(bar)
        self._view_key = None

    def to_world(self, x: float, y: float) -> tuple[float, float]:
        x0, y0, x1, y1 = self.rect()
        left, right, bottom, top = self.view.bounds
        return left + (x - x0) / (x1 - x0) * (right - left), bottom + (y - y0) / (y1 - y0) * (top - bottom)

    def to_screen(self, wx: float, wy: float) -> tuple[float, float]:
        x0, y0, x1, y1 = self.rect()
        left, right, bottom, top = self.view.bounds
        return x0 + (wx - left) / (right - left) * (x1 - x0), y0 + (wy - bottom) / (top - bottom) * (y1 - y0)

    def hit(self, x: float, y: float) -> bool:
        x0, y0, x1, y1 = self.rect()
        return self.shown and x0 <= x <= x1 and y0 <= y <= y1

    def click(self, x: float, y: float) -> bool:
        """Centre the camera on the world point under (x, y) if it is on the minimap."""
        if not self.hit(x, y):
            return False
        self.view.camera.position = self.to_world(x, y)
        self.view._clamp()
        return True

    def view_rect(self) -> tuple[float, float, float, float]:
        """The window's view on the minimap (left, bottom, right, top; screen pixels)."""
        v = self.view
        a = self.to_screen(*v.screen_to_world(0, 0))
        b = self.to_screen(*v.screen_to_world(v.window.width, v.window.height))
        x0, y0, x1, y1 = self.rect()
        return max(x0, a[0]), max(y0, a[1]), min(x1, b[0]), min(y1, b[1])

    def draw(self) -> None:
        """The minimap and the view's rectangle (HUD camera): one sprite list."""
        if not self.shown:
            return
        r = self.view_rect()
        if r != self._view_key:
            self._view_key = r
            visible = r[2] > r[0] and r[3] > r[1]
            for bar, edge in zip(self._view_bars, _frame(*r, 2.0), strict=True):
                bar.visible = visible
                if visible:
                    bar.width, bar.height = max(1.0, edge[2] - edge[0]), max(1.0, edge[3] - edge[1])
                    bar.position = ((edge[0] + edge[2]) / 2, (edge[1] + edge[3]) / 2)
        self.sprites.draw()


def _frame(x0: float, y0: float, x1: float, y1: float, t: float) -> list[tuple[float, float, float, float]]:
    """The four bars (left, bottom, right, top) of a rectangle's outline ``t`` thick."""
    return [(x0, y0, x1, y0 + t), (x0, y1 - t, x1, y1), (x0, y0, x0 + t, y1), (x1 - t, y0, x1, y1)]


def _bar(x0: float, y0: float, x1: float, y1: float, color: tuple[int, int, int]) -> arcade.SpriteSolidColor:
    bar = arcade.SpriteSolidColor(max(1, round(x1 - x0)), max(1, round(y1 - y0)), color=(*color, 255))
    bar.position = ((x0 + x1) / 2, (y0 + y1) / 2)
    return bar
