"""The battlefield drawn into a texture: terrain, elevation, contours, hexsides, roads and
hex ids, copied to the frame with one framebuffer blit.

Under software rendering (Mesa llvmpipe) rasterising ~1,600 hex polygons, their grid
lines and contours costs ~11 ms a frame.  The ground never changes during a battle, so
it is rendered into a texture at the camera's zoom (again only on a zoom step, or when a
pan leaves the part it holds) and each frame copies it texel for pixel.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import arcade
from arcade import shape_list
from PIL import Image, ImageDraw, ImageFont
from pyglet import gl

from tactical.state import Battlefield
from tactical.tables import TERRAINS
from tactical.view import palette as P
from tactical.view.geometry import HexLayout

MAX_TEXTURE = 4096
#: world pixels of dark border around the map
BORDER = 30.0


def terrain_colour(field: Battlefield, i: int) -> tuple[int, int, int, int]:
    """The hex's fill: its terrain's colour, lightened toward tan per level of elevation
    (darkened toward blue-grey below the plain)."""
    name = TERRAINS[field.terrain[i]]
    col = P.TERRAIN_COLORS.get(name, P.TERRAIN_COLORS["clear"])
    lv = field.level[i]
    if lv:
        t = min(0.28 * abs(lv), 0.75)
        tint = P.LEVEL_TINT if lv > 0 else (90, 110, 120, 255)
        col = tuple(round(c * (1 - t) + k * t) for c, k in zip(col, tint, strict=True))  # type: ignore[assignment]
    return (col[0], col[1], col[2], 255)


def build_shapes(field: Battlefield, lay: HexLayout) -> shape_list.ShapeElementList[Any]:
    """Every static mark of the map as one shape list (hexes, marks, grid, contours, rivers, roads)."""
    sl: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
    w, h = lay.extent
    sl.append(shape_list.create_rectangle_filled(w / 2, h / 2, w + 2 * BORDER, h + 2 * BORDER, (60, 52, 40, 255)))
    grid_pts: list[tuple[float, float]] = []
    for i in range(field.grid.size):
        corners = lay.corners(i)
        sl.append(shape_list.create_polygon(corners, terrain_colour(field, i)))
        name = TERRAINS[field.terrain[i]]
        if name in ("woods", "marsh", "rough", "town", "impassable"):
            _terrain_marks(sl, lay, i, name)
        for k in range(6):
            grid_pts.extend((corners[k], corners[(k + 1) % 6]))
    sl.append(shape_list.create_lines(grid_pts, P.GRID_LINE))
    for i in range(field.grid.size):
        for d in range(6):
            j = field.grid.nbr[i * 6 + d]
            if j > i and field.level[i] != field.level[j]:
                (x1, y1), (x2, y2) = lay.side_ends(i, d)
                sl.append(shape_list.create_line(x1, y1, x2, y2, P.CONTOUR, 3))
    for (a, b), feat in field.hexsides.items():
        d = field.grid.direction(a, b)
        p, q = lay.side_ends(a, d)
        colour = P.BANK if feat == "steep_bank" else P.RIVER
        width = {"stream": 3, "minor_river": 5, "major_river": 8}.get(feat, 4)
        sl.append(shape_list.create_line(p[0], p[1], q[0], q[1], colour, width))
    for roads, colour, width in ((field.roads, P.ROAD, 4), (field.roman_roads, P.ROMAN_ROAD, 5)):
        for a, b in roads:
            (x1, y1), (x2, y2) = lay.centre(a), lay.centre(b)
            sl.append(shape_list.create_line(x1, y1, x2, y2, colour, width))
    for a, b in field.bridges:
        (x1, y1), (x2, y2) = lay.centre(a), lay.centre(b)
        sl.append(shape_list.create_rectangle_filled((x1 + x2) / 2, (y1 + y2) / 2, 14, 10, (150, 120, 80, 255)))
    return sl


def _terrain_marks(sl: shape_list.ShapeElementList[Any], lay: HexLayout, i: int, name: str) -> None:
    """The terrain's symbol inside the hex: trees, reeds, stones, houses, cliffs."""
    x, y = lay.centre(i)
    s = lay.size
    if name == "woods":
        for dx, dy in ((-0.35, -0.2), (0.3, -0.15), (0.0, 0.3)):
            sl.append(
                shape_list.create_ellipse_filled(
                    x + dx * s, y + dy * s, s * 0.22, s * 0.22, (58, 90, 46, 255), num_segments=12
                )
            )
    elif name == "marsh":
        for dy in (-0.25, 0.0, 0.25):
            sl.append(shape_list.create_line(x - s * 0.4, y + dy * s, x + s * 0.4, y + dy * s, (80, 120, 150, 255), 2))
    elif name == "rough":
        for dx, dy in ((-0.3, -0.25), (0.25, 0.1), (-0.1, 0.3)):
            sl.append(
                shape_list.create_ellipse_filled(x + dx * s, y + dy * s, 5, 3, (110, 92, 66, 255), num_segments=8)
            )
    elif name == "town":
        sl.append(shape_list.create_rectangle_filled(x, y, s * 0.7, s * 0.5, (140, 110, 96, 255)))
    elif name == "impassable":
        for dx in (-0.3, 0.0, 0.3):
            sl.append(shape_list.create_line(x + dx * s - 6, y - 8, x + dx * s + 6, y + 8, (64, 58, 52, 255), 2))


#: the hex ids' font (drawn at twice the size and shown at half: sharp when zoomed in)
_ID_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
_ID_PX = 15


@cache
def _glyph(ch: str) -> arcade.Texture:
    """One character of a hex id, as a texture of one fixed-width cell."""
    try:
        font: ImageFont.FreeTypeFont | ImageFont.ImageFont = ImageFont.truetype(_ID_FONT, _ID_PX)
    except OSError:
        font = ImageFont.load_default(_ID_PX)
    w = round(font.getlength("0"))
    img = Image.new("RGBA", (w, _ID_PX + 4), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((w / 2, _ID_PX + 1), ch, font=font, fill=(46, 42, 28, 255), anchor="ms")
    return arcade.Texture(img, hash=f"tac-id-glyph-{ch}")


def hex_id_sprites(field: Battlefield, layout: HexLayout) -> arcade.SpriteList[arcade.Sprite]:
    """Every hex's ``CCRR`` id at the top of the hex: one sprite per digit from ten cached
    glyphs (creating 1,600 text layouts would take over a second)."""
    sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
    cell = _glyph("0").width / 2
    for i, (x, y) in enumerate(layout.centres):
        text = field.grid.hex_id(i)
        x0 = x - cell * len(text) / 2 + cell / 2
        for k, ch in enumerate(text):
            s = arcade.Sprite(_glyph(ch), scale=0.5)
            s.position = (x0 + k * cell, y + layout.size * 0.62 + 2)
            sprites.append(s)
    return sprites


class TerrainLayer:
    """The static map rendered into a texture at the camera's zoom and copied each frame.

    The texture holds, at one texel per screen pixel, the whole map when it fits in
    ``MAX_TEXTURE`` at that zoom (then a pan never renders it again), else the visible part
    with half a screen of margin on every side (rendered again when a pan leaves it).  A
    zoom step renders it again.  A frame copies it with one framebuffer blit: under
    llvmpipe even a one-texel-per-pixel textured quad costs ~15 times as much."""

    def __init__(self, ctx: Any, field: Battlefield, layout: HexLayout) -> None:
        self.ctx = ctx
        w, h = layout.extent
        #: the map's rectangle in world pixels (with its border)
        self.map = (-BORDER, -BORDER, w + 2 * BORDER, h + 2 * BORDER)
        self.shapes = build_shapes(field, layout)
        self.ids = hex_id_sprites(field, layout)
        self.scale = 0.0
        #: the world rectangle the texture holds (x0, y0, w, h)
        self.region = self.map
        self.texture: Any = None
        self.fbo: Any = None
        #: how many times the texture was rendered (a zoom step renders it again)
        self.renders = 0

    def prepare(self, camera: arcade.Camera2D) -> None:
        """Render the texture for ``camera`` unless it already holds the view at its zoom."""
        zoom = camera.zoom
        mx, my, mw, mh = self.map
        _, _, vw, vh = camera.viewport.lbwh
        cx, cy = camera.position
        half_w, half_h = vw / 2 / zoom, vh / 2 / zoom
        seen = (max(mx, cx - half_w), max(my, cy - half_h), min(mx + mw, cx + half_w), min(my + mh, cy + half_h))
        rx, ry, rw, rh = self.region
        inside = seen[0] >= rx and seen[1] >= ry and seen[2] <= rx + rw and seen[3] <= ry + rh
        if self.texture is not None and abs(zoom - self.scale) < 1e-9 and inside:
            return
        if mw * zoom <= MAX_TEXTURE and mh * zoom <= MAX_TEXTURE:
            region = self.map
        else:  # the visible part and half a screen around it, within the map
            limit = MAX_TEXTURE / zoom
            gw, gh = min(4 * half_w, limit), min(4 * half_h, limit)
            x0 = min(max(mx, cx - gw / 2), mx + mw - gw)
            y0 = min(max(my, cy - gh / 2), my + mh - gh)
            region = (max(mx, x0), max(my, y0), min(gw, mw), min(gh, mh))
        self._render(zoom, region)

    def _render(self, scale: float, region: tuple[float, float, float, float]) -> None:
        ctx = self.ctx
        rx, ry, rw, rh = region
        size = (max(1, round(rw * scale)), max(1, round(rh * scale)))
        if self.fbo is not None:
            self.fbo.delete()
            self.texture.delete()
        self.texture = ctx.texture(size, components=4)
        self.fbo = fbo = ctx.framebuffer(color_attachments=[self.texture])
        self.scale, self.region = scale, region
        camera = arcade.Camera2D(
            viewport=arcade.LBWH(0, 0, *size),
            position=(rx + rw / 2, ry + rh / 2),
            zoom=size[0] / rw,
            render_target=fbo,
        )
        with fbo.activate():
            fbo.clear(color=(*P.BG, 255))
            with camera.activate():
                self.shapes.draw()
                if scale >= 0.6:  # hex ids below this would be a smudge
                    self.ids.draw()
        self.renders += 1

    def draw(self, camera: arcade.Camera2D) -> None:
        """The map under ``camera`` (``prepare``d for it) on the framebuffer bound now: one
        framebuffer blit, texel for pixel."""
        target = self.ctx.active_framebuffer
        sx, sy = camera.project((self.region[0], self.region[1]))[:2]
        ox, oy = round(sx), round(sy)
        tw, th = self.texture.size
        vl, vb, vw, vh = camera.viewport.lbwh_int
        left, bottom = max(vl, ox), max(vb, oy)
        right, top = min(vl + vw, ox + tw, target.width), min(vb + vh, oy + th, target.height)
        if right <= left or top <= bottom:
            return
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, _glo(self.fbo))
        gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, _glo(target))
        gl.glBlitFramebuffer(
            left - ox,
            bottom - oy,
            right - ox,
            top - oy,
            left,
            bottom,
            right,
            top,
            gl.GL_COLOR_BUFFER_BIT,
            gl.GL_NEAREST,
        )
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, _glo(target))


def _glo(fbo: Any) -> int:
    return int(fbo.glo.value if hasattr(fbo.glo, "value") else fbo.glo)


_LAST: list[tuple[Any, Battlefield, float, TerrainLayer]] = []


def terrain_layer(ctx: Any, field: Battlefield, layout: HexLayout) -> TerrainLayer:
    """The field's layer, reused while the same battlefield is shown (a load, a new view on the
    same scenario); a new one frees the last one's texture first."""
    if _LAST:
        c, f, size, layer = _LAST[0]
        if c is ctx and size == layout.size and (f is field or _same_ground(f, field)):
            return layer
        _LAST.clear()
        del layer
        ctx.gc()
    layer = TerrainLayer(ctx, field, layout)
    _LAST.append((ctx, field, layout.size, layer))
    return layer


def _same_ground(a: Battlefield, b: Battlefield) -> bool:
    return (
        a.grid.columns == b.grid.columns
        and a.grid.rows == b.grid.rows
        and a.terrain == b.terrain
        and a.level == b.level
        and a.hexsides == b.hexsides
        and a.roads == b.roads
        and a.roman_roads == b.roman_roads
        and a.bridges == b.bridges
    )
