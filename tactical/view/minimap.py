"""The minimap (issue 16): the whole field in the panel, each hex in its terrain's colour,
each unit a dot of its side's colour, and the map area's view as a gold rectangle.  A click
on it brings that place to the middle of the map area.

The ground is drawn once (PIL); the units are drawn over a copy of it when the model changes
(a few hundred dots), and the picture is one sprite.
"""

from __future__ import annotations

import arcade
from arcade import shape_list
from PIL import Image, ImageDraw

from tactical.state import State
from tactical.view import palette as P
from tactical.view.geometry import HexLayout
from tactical.view.terrain import terrain_colour


class Minimap:
    """The field scaled into ``box`` (left, bottom, right, top in window pixels)."""

    def __init__(self, state: State, layout: HexLayout) -> None:
        self.layout = layout
        self.box = (0.0, 0.0, 1.0, 1.0)
        self.scale = 1.0
        self._ground: Image.Image | None = None
        self._field = state.field
        self.sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._units_key: object = None
        self._version = 0

    def place(self, box: tuple[float, float, float, float], state: State) -> None:
        """Fit the field into ``box`` (keeping its proportions, centred) and draw it."""
        mw, mh = self.layout.extent
        k = min((box[2] - box[0]) / mw, (box[3] - box[1]) / mh)
        w, h = mw * k, mh * k
        left, bottom = box[0] + ((box[2] - box[0]) - w) / 2, box[1] + ((box[3] - box[1]) - h) / 2
        if (left, bottom, left + w, bottom + h) == self.box and self._ground is not None:
            return
        self.box, self.scale = (left, bottom, left + w, bottom + h), k
        self._ground = self._draw_ground(max(1, round(w)), max(1, round(h)))
        self._units_key = None
        self.sync(state)

    def _draw_ground(self, w: int, h: int) -> Image.Image:
        img = Image.new("RGBA", (w, h), (60, 52, 40, 255))
        d = ImageDraw.Draw(img)
        k = self.scale
        for i in range(self._field.grid.size):
            pts = [(x * k, h - y * k) for x, y in self.layout.corners(i)]
            d.polygon(pts, fill=terrain_colour(self._field, i))
        return img

    def sync(self, state: State) -> None:
        """Redraw the unit dots when any unit moved, changed or left the map."""
        key = tuple((u.id, u.hex, u.status) for u in state.units.values())
        if key == self._units_key or self._ground is None:
            return
        self._units_key = key
        img = self._ground.copy()
        d = ImageDraw.Draw(img)
        k, h = self.scale, img.height
        r = max(1.5, self.layout.size * 0.55 * k)
        for u in state.units.values():
            if not u.on_map:
                continue
            x, y = self.layout.centre(u.hex)
            fill = P.SIDE_FILL.get(u.side, (200, 200, 200)) if u.status != "routed" else (226, 214, 196)
            d.rectangle((x * k - r, h - y * k - r, x * k + r, h - y * k + r), fill=fill)
        self._version += 1
        tex = arcade.Texture(img, hash=f"tac-minimap-{id(self)}-{self._version}")
        sprite = arcade.Sprite(tex)
        sprite.position = ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)
        self.sprites = arcade.SpriteList()
        self.sprites.append(sprite)

    def inside(self, x: float, y: float) -> bool:
        return self.box[0] <= x <= self.box[2] and self.box[1] <= y <= self.box[3]

    def world_at(self, x: float, y: float) -> tuple[float, float]:
        """The world point under window point (x, y) of the minimap."""
        return (x - self.box[0]) / self.scale, (y - self.box[1]) / self.scale

    def view_rect(self, corners: tuple[tuple[float, float], tuple[float, float]]) -> tuple[float, float, float, float]:
        """The map area's view (two opposite world corners) in minimap pixels, clipped to it."""
        (x0, y0), (x1, y1) = corners
        left, bottom, right, top = self.box
        k = self.scale

        def clip(v: float, lo: float, hi: float) -> float:
            return min(max(v, lo), hi)

        return (
            clip(left + min(x0, x1) * k, left, right),
            clip(bottom + min(y0, y1) * k, bottom, top),
            clip(left + max(x0, x1) * k, left, right),
            clip(bottom + max(y0, y1) * k, bottom, top),
        )

    def draw(self, corners: tuple[tuple[float, float], tuple[float, float]]) -> None:
        self.sprites.draw()
        left, bottom, right, top = self.box
        edge: shape_list.ShapeElementList[shape_list.Shape] = shape_list.ShapeElementList()
        edge.append(
            shape_list.create_rectangle_outline(
                (left + right) / 2, (bottom + top) / 2, right - left, top - bottom, P.PANEL_EDGE, 1
            )
        )
        vl, vb, vr, vt = self.view_rect(corners)
        edge.append(
            shape_list.create_rectangle_outline((vl + vr) / 2, (vb + vt) / 2, vr - vl, vt - vb, (255, 236, 120, 255), 2)
        )
        edge.draw()
