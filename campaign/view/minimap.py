"""The minimap (issue 15): the whole map small in a corner, the view's rectangle on it; a
click on it moves the camera there, ``M`` hides or shows it.

It sits in the bottom left corner (right of the map's legend while that shows), over the
ocean and the Sahara at the whole-map zoom (no space of the game there).  It is drawn once into a framebuffer of its
own; a frame copies it (the still frame, and each panning frame since its rectangle moves
with the camera) and clears four thin bars for the view's rectangle.
"""

from __future__ import annotations

from typing import Any

import arcade
from PIL import Image
from pyglet import gl

from campaign.view.palette import BG_TOP, GOLD, PARCHMENT

WIDTH = 200.0
LEFT, BOTTOM = 10.0, 10.0


class Minimap:
    """The corner map of a ``MapView``."""

    def __init__(self, view: Any) -> None:
        #: the ``campaign.view.mapview.MapView`` it belongs to (typed loosely: mapview imports this module)
        self.view = view
        self.shown = True
        self.sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._ground: int | None = None
        self._fbo: Any = None
        self._drawn: tuple[int | None, int] | None = None
        #: the squares of the forces (``set_forces``), drawn over the ground
        self.marks: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._marks_key = 0
        self._placed: tuple[tuple[float, float, tuple[int, int, int], int], ...] = ()

    def rect(self) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) on the screen: the bottom left corner, or right of the
        map's legend while it shows."""
        left, right, bottom, top = self.view.bounds
        h = WIDTH * (top - bottom) / (right - left)
        x0 = self.view.legend_rect()[2] + 10 if self.view.legend_visible() else LEFT
        return x0, BOTTOM, x0 + WIDTH, BOTTOM + h

    def set_ground(self, image: Image.Image, key: int) -> None:
        """The ground picture (the map's owners): shrunk once per change of owners.  The
        minimap is drawn from these sprites (its paper, the ground, its frame) into its own
        framebuffer, in that framebuffer's pixels."""
        if self._ground == key:
            return
        self._ground = key
        rx0, ry0, rx1, ry1 = self.rect()
        x0, y0 = 2.0, 2.0  # in the minimap's own framebuffer
        x1, y1 = x0 + rx1 - rx0, y0 + ry1 - ry0
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
        self._place_marks()

    def set_forces(self, forces: list[tuple[float, float, tuple[int, int, int], int]]) -> None:
        """The forces to show: (world x, world y, ink, strength) — one square per side and
        space, the strengths of a side's forces there added; its side grows with the square
        root of the strength (3 px for a lone leader, 9 px at 50 SP)."""
        merged: dict[tuple[float, float, tuple[int, int, int]], int] = {}
        for wx, wy, ink, sp in forces:
            merged[(wx, wy, ink)] = merged.get((wx, wy, ink), 0) + sp
        placed = tuple(sorted((wx, wy, ink, sp) for (wx, wy, ink), sp in merged.items()))
        if placed == self._placed:
            return
        self._placed = placed
        self._place_marks()

    def _place_marks(self) -> None:
        """The squares of ``set_forces`` in the framebuffer's pixels (again when the ground
        is shrunk anew, since both share its scale)."""
        self.marks = arcade.SpriteList()
        rx0, _, rx1, _ = self.rect()
        left, right, bottom, _ = self.view.bounds
        sx = (rx1 - rx0) / (right - left)
        sides: dict[tuple[float, float], int] = {}
        for wx, wy, ink, sp in self._placed:
            x, y = 2.0 + (wx - left) * sx, 2.0 + (wy - bottom) * sx
            n = sides.get((wx, wy), 0)  # a second side in the same space sits beside the first
            sides[(wx, wy)] = n + 1
            size = min(10.0, 3.0 + 6.0 * (sp / 50) ** 0.5)
            x += n * (size + 1)
            self.marks.append(_bar(x - size / 2 - 1, y - size / 2 - 1, x + size / 2 + 1, y + size / 2 + 1, PARCHMENT))
            self.marks.append(_bar(x - size / 2, y - size / 2, x + size / 2, y + size / 2, ink))
        self._marks_key += 1

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

    def _render(self) -> None:
        """The minimap without the view's rectangle into its own framebuffer (once per ground and
        forces)."""
        ctx = self.view.window.ctx
        x0, y0, x1, y1 = self.rect()
        fw, fh = round(x1 - x0) + 4, round(y1 - y0) + 4
        if self._fbo is None or self._fbo.size != (fw, fh):
            self._fbo = ctx.framebuffer(color_attachments=[ctx.texture((fw, fh), components=4)])
        cam = arcade.camera.Camera2D(
            viewport=arcade.LBWH(0, 0, fw, fh), position=(fw / 2, fh / 2), render_target=self._fbo
        )
        with self._fbo.activate(), cam.activate():
            self._fbo.clear(color=(*PARCHMENT, 255))
            self.sprites.draw()
            self.marks.draw()
        self._drawn = (self._ground, self._marks_key)

    def draw(self, target: Any) -> None:
        """The minimap copied from its framebuffer onto ``target`` (the screen or the still
        frame), then the view's rectangle as four scissored clears: no shader runs."""
        if not self.shown or self._ground is None:
            return
        if self._fbo is None or self._drawn != (self._ground, self._marks_key):
            self._render()
        x0, y0, _, _ = self.rect()
        fw, fh = self._fbo.size
        dx, dy = round(x0) - 2, round(y0) - 2
        dst = target.glo.value if hasattr(target.glo, "value") else int(target.glo)
        src = self._fbo.glo.value if hasattr(self._fbo.glo, "value") else int(self._fbo.glo)
        gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, dst)
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, src)
        gl.glBlitFramebuffer(0, 0, fw, fh, dx, dy, dx + fw, dy + fh, gl.GL_COLOR_BUFFER_BIT, gl.GL_NEAREST)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, dst)
        r = self.view_rect()
        if r[2] > r[0] and r[3] > r[1]:
            for e in _frame(*r, 2.0):
                x, y = round(e[0]), round(e[1])
                target.clear(color=(*GOLD, 255), viewport=(x, y, max(1, round(e[2]) - x), max(1, round(e[3]) - y)))


def _frame(x0: float, y0: float, x1: float, y1: float, t: float) -> list[tuple[float, float, float, float]]:
    """The four bars (left, bottom, right, top) of a rectangle's outline ``t`` thick."""
    return [(x0, y0, x1, y0 + t), (x0, y1 - t, x1, y1), (x0, y0, x0 + t, y1), (x1 - t, y0, x1, y1)]


def _bar(x0: float, y0: float, x1: float, y1: float, color: tuple[int, int, int]) -> arcade.SpriteSolidColor:
    bar = arcade.SpriteSolidColor(max(1, round(x1 - x0)), max(1, round(y1 - y0)), color=(*color, 255))
    bar.position = ((x0 + x1) / 2, (y0 + y1) / 2)
    return bar
