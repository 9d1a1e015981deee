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
from arcade import shape_list
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
        self._frame: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        self._view_key: tuple[float, ...] | None = None

    def rect(self) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) on the screen."""
        left, right, bottom, top = self.view.bounds
        h = WIDTH * (top - bottom) / (right - left)
        return LEFT, BOTTOM, LEFT + WIDTH, BOTTOM + h

    def set_ground(self, image: Image.Image, key: int) -> None:
        """The ground picture (the map's owners): shrunk once per change of owners."""
        if self._ground == key:
            return
        self._ground = key
        x0, y0, x1, _ = self.rect()
        left, right, bottom, _ = self.view.bounds
        gl, gr, gb, gt = self.view.geo.bounds
        sx = (x1 - x0) / (right - left)
        w, h = (gr - gl) * sx, (gt - gb) * sx
        small = image.resize((max(1, round(w * 2)), max(1, round(h * 2))), Image.Resampling.BOX)
        tex = arcade.Texture(small.convert("RGBA"), hash=f"campaign-minimap-{key}")
        sprite = arcade.Sprite(tex)
        sprite.width, sprite.height = (gr - gl) * sx, (gt - gb) * sx
        sprite.center_x = x0 + ((gl + gr) / 2 - left) * sx
        sprite.center_y = y0 + ((gb + gt) / 2 - bottom) * sx
        self.sprites = arcade.SpriteList()
        self.sprites.append(sprite)

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
        """The minimap and the view's rectangle (HUD camera)."""
        if not self.shown:
            return
        x0, y0, x1, y1 = self.rect()
        arcade.draw_lrbt_rectangle_filled(x0 - 2, x1 + 2, y0 - 2, y1 + 2, (*PARCHMENT, 255))
        self.sprites.draw()
        r = self.view_rect()
        if r[2] > r[0] and r[3] > r[1]:
            arcade.draw_lrbt_rectangle_outline(r[0], r[2], r[1], r[3], (*GOLD, 255), 2)
            arcade.draw_lrbt_rectangle_outline(r[0] - 1, r[2] + 1, r[1] - 1, r[3] + 1, (*BG_TOP, 200), 1)
        arcade.draw_lrbt_rectangle_outline(x0 - 2, x1 + 2, y0 - 2, y1 + 2, (*BG_TOP, 255), 1.5)
