"""The campaign window's map: the Roman world drawn from the graph.

What is drawn, bottom to top, all in world units under the world camera:

1. the **ground** — sea, land tinted by its owner, coasts, terrain marks and the
   blank country beyond the spaces — rasterised once with PIL
   (``campaign.view.raster``) and drawn as a few large sprites;
2. the **network** — one ``ShapeElementList`` built once: hairline borders
   between spaces and between sea zones, dashed province borders, roads (the
   named ones bold), cross-country routes dashed, straits, sea lanes dotted, river
   lines crossed as blue bars, and the off-map regions as boxes at the edge;
3. **markers** — one ``SpriteList``: cities (capitals, income cities), ports,
   colony sites, regions, passes; and forces when the model has any;
4. the **selection** — the picked place, its neighbours by link kind and each
   link's cost.

Labels are ``arcade.Text`` objects in one pyglet ``Batch`` drawn at the projected
positions, so they stay sharp at every zoom; which labels show depends on the zoom
(capitals, sea zones and off-map regions always, every city closer in, the regions
closest).  The HUD — the top bar with the model's date, turn and phase, the hover
tooltip, the selection panel and the legend — has its own camera and stays put.

Frames (docs/PERFORMANCE.md): the world layers and their names are drawn into an
oversized framebuffer around the view at the current zoom (``_render_world``); a
frame copies its visible part, and a panning frame then copies the HUD's opaque
boxes from the last still frame (``hud_rects``) — no layer is drawn again until
the world changes, the zoom changes or the view pans out of the framebuffer.
While the wheel turns, the last world is drawn scaled through the camera.

Forces are counters whose symbol says what they are (``campaign.view.stacks``); the
names of places and forces are placed together by priority beside their markers and
never over one another (``campaign.view.labels``; ``label_boxes`` gives the placed
boxes); hovering a counter shows its stack's card (``stackcard``); the minimap sits at
the bottom (``minimap``); after another side's half-turn its moves are played back on
the map with a step card (``enemy_turn``).

Controls: mouse wheel zooms on the cursor, drag (any button) or the arrow keys
and WASD pan, ``+``/``-`` zoom, ``Home`` (or ``F``) shows the whole map, a click
selects a place, ``Esc`` clears the selection (or, with nothing selected,
returns to the menu); ``M`` hides or shows the minimap and a click on it moves the
view there; the enemy's turn: ``N`` next step, ``B`` back, ``P`` play or pause, ``X``
close, ``V`` shows it again.

The view reads a ``MapModel`` (``campaign.view.model``) and tells it what the
player selects; it never changes the game state.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import arcade
from arcade import shape_list
from arcade.gl import BufferDescription
from PIL import Image
from pyglet import gl
from pyglet.graphics import Batch

from campaign.map import CampaignMap, Link
from campaign.view import markers
from campaign.view.enemy_turn import EnemyTurn
from campaign.view.game import CampaignGame
from campaign.view.geometry import MapGeometry, Point, build_geometry, roman_world_geometry
from campaign.view.labels import Box, Wish, beside
from campaign.view.labels import place as place_labels
from campaign.view.minimap import Minimap
from campaign.view.model import ForceMarker, MapModel
from campaign.view.palette import (
    BG_TOP,
    CROSS_COUNTRY,
    GOLD,
    HALO,
    LABEL_INK,
    LINK_INK,
    OWNER_FILL,
    OWNER_INK,
    PAPER,
    PARCHMENT,
    PROVINCE_BORDER,
    RIVER,
    ROAD,
    ROAD_NAMED,
    SEA_BORDER,
    SEA_LABEL,
    SEA_LANE,
    SPACE_BORDER,
    STRAIT,
    Color,
    OwnerKind,
    owner_kind,
)
from campaign.view.raster import image_size, render_ground
from campaign.view.stackcard import StackCard
from campaign.view.stacks import SYMBOL_WORDS, SYMBOLS

SERIF = ("DejaVu Serif", "Georgia", "Times New Roman", "serif")
SANS = ("DejaVu Sans", "Arial", "sans-serif")

TOP_BAR = 38
TEXELS_PER_UNIT = 1.25
TILE = 1024
MAX_ZOOM_FACTOR = 7.0  # how far in from the whole-map view
MIN_ZOOM_FACTOR = 0.8
PAN_SPEED = 700.0  # screen pixels per second with the keys
#: the world framebuffer reaches this share of the window beyond each edge of the view
WORLD_MARGIN = 0.35
#: seconds after the last wheel step before the world is drawn afresh at the new zoom
ZOOM_SETTLE = 0.25

#: marker sizes in world units at the whole-map zoom
CITY_SIZE = 11.0
CAPITAL_SIZE = 15.0
INCOME_SIZE = 19.0
REGION_SIZE = 7.0
PASS_SIZE = 13.0
SYMBOL_SIZE = 8.0
COUNTER_PX = 24.0  # a force counter's size on screen
COST_PX = 17.0  # the disc under a link's cost

#: off-map boxes, world units
BOX_W, BOX_H = 118.0, 40.0

#: the zoom at which off-map boxes are sized to hold their names (about the whole map at 1280x800)
REFERENCE_ZOOM = 0.6

#: label tiers: the zoom (relative to the whole map) from which a label shows
TIER_ZOOM = (0.0, 1.7, 2.8)

#: the legend's box on the screen (left, bottom, right, top): colours, lines, counters
LEGEND_RECT = (10.0, 10.0, 330.0, 160.0)
LEGEND_ROW = 17.0

#: which name wins where two would overlap (lower first): off-map regions always show
PRIORITY = {"off_map": 0, "income": 10, "leader": 15, "capital": 20, "sea": 30, "force": 35, "city": 40, "region": 50}

LINK_COLOR = LINK_INK
LINK_WORD = {"road": "road", "cross_country": "cross-country", "strait": "strait", "sea_lane": "sea lane"}


def rgba(c: Color, a: int = 255) -> tuple[int, int, int, int]:
    return c[0], c[1], c[2], a


def dashes(a: Point, b: Point, dash: float, gap: float) -> list[tuple[Point, Point]]:
    """The pieces of a dashed line from ``a`` to ``b`` (world units)."""
    length = math.dist(a, b)
    if length == 0:
        return []
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    out = []
    d = 0.0
    while d < length:
        e = min(length, d + dash)
        out.append(((a[0] + ux * d, a[1] + uy * d), (a[0] + ux * e, a[1] + uy * e)))
        d = e + gap
    return out


#: ground images already rendered: (geometry, owners) -> image; a few, for the views of one session
_GROUNDS: dict[tuple[int, int], Image.Image] = {}
_GROUNDS_KEPT = 4


def ground_image(geo: MapGeometry, owners: dict[str, str], key: int, texels: float = TEXELS_PER_UNIT) -> Image.Image:
    """The ground for ``owners``, rendered once and kept (rasterising takes most of a second)."""
    cache_key = (id(geo), key)
    image = _GROUNDS.get(cache_key)
    if image is None or image.size != image_size(geo, texels):
        image = render_ground(geo, owners, texels)
        if len(_GROUNDS) >= _GROUNDS_KEPT:
            _GROUNDS.pop(next(iter(_GROUNDS)))
        _GROUNDS[cache_key] = image
    return image


def blit_to_screen(ctx: Any, src: Any) -> None:
    """Copy framebuffer ``src`` (the window's size) onto the screen and leave the screen bound
    for both drawing and reading (arcade's ``copy_framebuffer`` leaves ``src`` bound for
    reading, so a screenshot would read the copy rather than the screen)."""
    screen = ctx.screen
    screen_glo = screen.glo.value if hasattr(screen.glo, "value") else int(screen.glo)
    src_glo = src.glo.value if hasattr(src.glo, "value") else int(src.glo)
    w, h = src.width, src.height
    gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, screen_glo)
    gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, src_glo)
    gl.glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, gl.GL_COLOR_BUFFER_BIT, gl.GL_NEAREST)
    gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, screen_glo)


def blit_region(ctx: Any, src: Any, x: int, y: int, w: int, h: int, dst: Any) -> None:
    """Copy the ``w`` x ``h`` pixels of framebuffer ``src`` at (x, y) to (0, 0) of ``dst``
    (the screen or another framebuffer), one to one; leave ``dst`` bound."""
    dst_glo = dst.glo.value if hasattr(dst.glo, "value") else int(dst.glo)
    src_glo = src.glo.value if hasattr(src.glo, "value") else int(src.glo)
    gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, dst_glo)
    gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, src_glo)
    gl.glBlitFramebuffer(x, y, x + w, y + h, 0, 0, w, h, gl.GL_COLOR_BUFFER_BIT, gl.GL_NEAREST)
    gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, dst_glo)


def blit_rect(ctx: Any, src: Any, x0: int, y0: int, x1: int, y1: int, dst: Any) -> None:
    """Copy the rectangle (x0, y0)–(x1, y1) of ``src`` to the same place in ``dst``."""
    dst_glo = dst.glo.value if hasattr(dst.glo, "value") else int(dst.glo)
    src_glo = src.glo.value if hasattr(src.glo, "value") else int(src.glo)
    gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, dst_glo)
    gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, src_glo)
    gl.glBlitFramebuffer(x0, y0, x1, y1, x0, y0, x1, y1, gl.GL_COLOR_BUFFER_BIT, gl.GL_NEAREST)
    gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, dst_glo)


@dataclass(slots=True)
class MapLabel:
    """A name drawn at a world position, shown from zoom ``tier`` on."""

    place: str
    world: Point
    dx: float  # screen-pixel offset from the projected position
    dy: float
    tier: int
    text: arcade.Text
    halo: arcade.Text | None
    priority: int = 0  # lower wins where labels would overlap
    shown: bool = True  # not hidden by a label of higher priority
    #: where the declutter put it (left, bottom, right, top; pixels at the zoom from the world's origin)
    box: Box | None = None


class MapView(arcade.View):
    """The campaign map window (see the module docstring)."""

    #: the ground's resolution (an off-screen whole-map picture needs less: campaign.view.aar)
    texels_per_unit = TEXELS_PER_UNIT
    #: whether the minimap shows at first (``M`` toggles it)
    show_minimap = True

    def __init__(
        self,
        model: MapModel | None = None,
        geometry: MapGeometry | None = None,
        menu: arcade.View | None = None,
    ) -> None:
        super().__init__()
        self.model: MapModel = model or CampaignGame.new()
        world = self.model.world
        if geometry is None:
            plain = roman_world_geometry()
            geometry = plain if plain.world is world else build_geometry(world)
        self.geo = geometry
        self.menu = menu
        self.box_w: dict[str, float] = {}
        self.camera = arcade.camera.Camera2D()
        self.hud = arcade.camera.Camera2D()
        self.hover: str | None = None
        self.mouse: tuple[float, float] = (0.0, 0.0)
        self.keys: set[int] = set()
        self._dragged = 0.0
        self._pressed = False
        self._camera_key: tuple[float, float, float, int, int] | None = None
        self._owners: dict[str, str] = {}
        self._forces: tuple[ForceMarker, ...] = ()
        self._selected_drawn: str | None = "-"  # what the overlay shows (force a first build)
        self._dynamic_dirty = True  # the selection's or the forces' labels need placing
        # the world (ground, network, markers, forces, names) is drawn into an oversized
        # framebuffer around the view at the current zoom; while the camera pans inside it,
        # each frame only copies the visible part (a panning frame costs one copy, not a redraw)
        self._world: Any = None
        self._world_valid = False
        self._world_frame: tuple[float, float, float, int, int] = (0.0, 0.0, 0.0, 0, 0)  # cx, cy, zoom, w, h
        self._zoom_key: tuple[float, int, int] | None = None
        # the still frame (the world's visible part and the HUD) is composed once into this
        # framebuffer and copied to the screen while nothing changes
        self._cache: Any = None
        self._cache_valid = False
        self._hud_extra_drawn: Any = None
        #: how far below the top bar the selection panel starts (a subclass's panel above it)
        self.panel_drop = 0.0
        self._panel_rect = (0.0, 0.0, 0.0, 0.0)
        self._cache_hud: Any = None  # what the HUD showed when the still frame was composed
        #: seconds until the wheel counts as stopped (meanwhile a zoom scales the last world)
        self._zoom_settle = 0.0
        self._quad: Any = None
        self._quad_buffer: Any = None
        self._hover_drawn: str | None = "-"
        self._init_layers()
        self._build_labels()
        self.bounds = self._bounds()
        self.minimap = Minimap(self)
        self.minimap.shown = self.show_minimap
        self.enemy = EnemyTurn(self)
        self.card = StackCard()
        #: the place of the force counter under the cursor (its stack card shows)
        self.hover_stack: str | None = None
        self._build_network()
        self._build_markers()
        self._build_hud()
        self._sync_model(force=True)
        self.fit()

    def _init_layers(self) -> None:
        """The world's layers and the HUD's texts, empty until built."""
        self.ground: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.network: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        self.boxes: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        self.overlay: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        self.markers: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.symbols: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.force_sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.ring: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.cost_discs: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._force_slots: list[tuple[str, int]] = []
        self.label_batch = Batch()
        self.overlay_batch = Batch()
        self.hud_batch = Batch()
        self.labels: list[MapLabel] = []
        self.overlay_labels: list[MapLabel] = []
        self.force_labels: list[MapLabel] = []
        self.marker_of: dict[str, arcade.Sprite] = {}
        self.marker_size: dict[str, float] = {}
        self.hud_shapes: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        #: the scale bar's shapes and what they were built for (km, length, right end)
        self._scale_shapes: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        self._scale_key: tuple[int, float, int] | None = None
        #: the tooltip box's shapes and where they were built for
        self._tip_shapes: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        self._tip_key: tuple[float, float, float, float] | None = None

        self.tooltip = arcade.Text(
            "", 0, 0, rgba(LABEL_INK), 10, font_name=SANS, multiline=True, width=300, anchor_y="top"
        )
        self.panel = arcade.Text(
            "", 0, 0, rgba(LABEL_INK), 9.5, font_name=SANS, multiline=True, width=300, anchor_y="top"
        )
        self._tooltip_for: tuple[str, str | None] | None = None
        self.scale_text = arcade.Text("", 0, 0, rgba(LABEL_INK), 9, font_name=SERIF, italic=True, anchor_x="right")

    # ------------------------------------------------------------------ geometry helpers
    @property
    def world(self) -> CampaignMap:
        return self.model.world

    def owner_of(self, place: str) -> str:
        return self._owners.get(place, self.world.spaces[place].owner)

    def kind_of(self, place: str) -> OwnerKind:
        return owner_kind(self.world, self.owner_of(place))

    def box_rect(self, place: str) -> tuple[float, float, float, float]:
        """(left, right, bottom, top) of an off-map region's box, world units."""
        x, y = self.geo.pos(place)
        w = self.box_w.get(place, BOX_W)
        return x - w / 2, x + w / 2, y - BOX_H / 2, y + BOX_H / 2

    def _bounds(self) -> tuple[float, float, float, float]:
        """The drawn map with its off-map boxes (left, right, bottom, top, world units)."""
        left, right, bottom, top = self.geo.bounds
        for place in self.world.off_map():
            x, y = self.geo.pos(place)
            w = self.box_w.get(place, BOX_W)
            left, right = min(left, x - w * 0.5 - 10), max(right, x + w * 0.5 + 10)
            bottom, top = min(bottom, y - BOX_H), max(top, y + BOX_H)
        return left, right, bottom, top

    # ------------------------------------------------------------------ camera
    def fit_zoom(self) -> float:
        left, right, bottom, top = self.bounds
        w, h = self.window.width, self.window.height - TOP_BAR
        return float(min(w / (right - left), h / (top - bottom)))

    def fit(self) -> None:
        """Show the whole map."""
        left, right, bottom, top = self.bounds
        z = self.fit_zoom()
        self.camera.zoom = z
        self.camera.position = ((left + right) / 2, (bottom + top) / 2 + TOP_BAR / 2 / z)

    def zoom_factor(self) -> float:
        """The camera's zoom relative to the whole-map view."""
        return float(self.camera.zoom) / self.fit_zoom()

    def world_to_screen(self, x: float, y: float) -> tuple[float, float]:
        cx, cy = self.camera.position
        z = self.camera.zoom
        return (x - cx) * z + self.window.width / 2, (y - cy) * z + self.window.height / 2

    def screen_to_world(self, sx: float, sy: float) -> tuple[float, float]:
        cx, cy = self.camera.position
        z = self.camera.zoom
        return (sx - self.window.width / 2) / z + cx, (sy - self.window.height / 2) / z + cy

    def zoom_at(self, sx: float, sy: float, factor: float) -> None:
        """Zoom by ``factor`` keeping the world point under (sx, sy) where it is."""
        wx, wy = self.screen_to_world(sx, sy)
        fit = self.fit_zoom()
        z = min(fit * MAX_ZOOM_FACTOR, max(fit * MIN_ZOOM_FACTOR, self.camera.zoom * factor))
        self.camera.zoom = z
        self.camera.position = (wx - (sx - self.window.width / 2) / z, wy - (sy - self.window.height / 2) / z)
        self._clamp()

    def pan(self, dx: float, dy: float) -> None:
        """Move the map by (dx, dy) screen pixels (the map follows the hand)."""
        cx, cy = self.camera.position
        z = self.camera.zoom
        self.camera.position = (cx - dx / z, cy - dy / z)
        self._clamp()

    def _clamp(self) -> None:
        left, right, bottom, top = self.bounds
        cx, cy = self.camera.position
        self.camera.position = (min(right, max(left, cx)), min(top, max(bottom, cy)))

    # ------------------------------------------------------------------ building
    def _build_ground(self) -> None:
        key = abs(hash(tuple(sorted(self._owners.items()))))
        texels = self.texels_per_unit
        image = ground_image(self.geo, self._owners, key, texels)
        self.minimap.set_ground(image, key)
        atlas = arcade.DefaultTextureAtlas((2048, 2048))
        self.ground = arcade.SpriteList(atlas=atlas)
        self.ground.blend = False  # the ground is opaque: no blending halves its cost on llvmpipe
        left, _, _, top = self.geo.bounds
        for ty in range(0, image.height, TILE):
            for tx in range(0, image.width, TILE):
                tile = image.crop((tx, ty, min(image.width, tx + TILE), min(image.height, ty + TILE)))
                tex = arcade.Texture(tile, hash=f"campaign-ground-{key}-{tx}-{ty}")
                s = arcade.Sprite(tex, scale=1 / texels)
                s.center_x = left + (tx + tile.width / 2) / texels
                s.center_y = top - (ty + tile.height / 2) / texels
                self.ground.append(s)

    def _build_network(self) -> None:
        geo, world = self.geo, self.world
        sl = shape_list
        net = self.network
        hair_space: list[Point] = []
        hair_sea: list[Point] = []
        for border in geo.borders:
            if border.kind == "space":
                hair_space += [border.a, border.b]
            elif border.kind == "sea_zone":
                for p, q in dashes(border.a, border.b, 6, 5):
                    hair_sea += [p, q]
            elif border.kind == "province":
                for p, q in dashes(border.a, border.b, 7, 4):
                    net.append(sl.create_line(p[0], p[1], q[0], q[1], rgba(PROVINCE_BORDER, 210), 1.6))
        if hair_space:
            net.append(sl.create_lines(hair_space, rgba(SPACE_BORDER, 110)))
        if hair_sea:
            net.append(sl.create_lines(hair_sea, rgba(SEA_BORDER, 150)))

        lanes: list[Point] = []
        for u, v, d in world.graph.edges(data=True):
            a, b = geo.pos(u), geo.pos(v)
            kind = d["kind"]
            if kind == "sea_lane":
                for p, q in dashes(a, b, 1.6, 4.4):
                    lanes += [p, q]
            elif kind == "road":
                named = bool(d["name"])
                if named:
                    net.append(sl.create_line(a[0], a[1], b[0], b[1], rgba((250, 236, 200), 200), 4.2))
                net.append(
                    sl.create_line(
                        a[0], a[1], b[0], b[1], rgba(ROAD_NAMED if named else ROAD, 240), 2.4 if named else 1.7
                    )
                )
            elif kind == "cross_country":
                for p, q in dashes(a, b, 5, 4):
                    net.append(sl.create_line(p[0], p[1], q[0], q[1], rgba(CROSS_COUNTRY, 190), 1.1))
            elif kind == "strait":
                for p, q in dashes(a, b, 3, 2):
                    net.append(sl.create_line(p[0], p[1], q[0], q[1], rgba(STRAIT, 255), 3.0))
            if d["river"]:
                self._river_bar(a, b)
        if lanes:
            net.append(sl.create_lines(lanes, rgba(SEA_LANE, 95)))

        for place in world.off_map():
            left, right, bottom, top = self.box_rect(place)
            kind = self.kind_of(place)
            cx, cy = (left + right) / 2, (bottom + top) / 2
            bw = right - left
            self.boxes.append(sl.create_rectangle_filled(cx + 2.5, cy - 2.5, bw, BOX_H, (40, 26, 20, 90)))
            self.boxes.append(sl.create_rectangle_filled(cx, cy, bw, BOX_H, rgba(OWNER_FILL[kind], 245)))
            self.boxes.append(sl.create_rectangle_outline(cx, cy, bw, BOX_H, rgba(OWNER_INK[kind]), 2.4))
            self.boxes.append(sl.create_rectangle_outline(cx, cy, bw - 7, BOX_H - 7, rgba(OWNER_INK[kind], 140), 0.8))

    def _river_bar(self, a: Point, b: Point) -> None:
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        length = math.dist(a, b) or 1.0
        nx, ny = -(b[1] - a[1]) / length, (b[0] - a[0]) / length
        r = 6.0
        self.network.append(
            shape_list.create_line(mx - nx * r, my - ny * r, mx + nx * r, my + ny * r, rgba(RIVER, 235), 2.6)
        )

    def _marker_size_now(self, base: float) -> float:
        """World size of a marker: fixed on the map up to 1.6x zoom, then growing slower than the map."""
        f = max(1.0, self.zoom_factor() / 1.6) if self.window else 1.0
        return float(base / f**0.55)

    def _build_markers(self) -> None:
        world = self.world
        self.markers = arcade.SpriteList()
        self.symbols = arcade.SpriteList()
        self.marker_of.clear()
        self.marker_size.clear()
        for s in world.data.space:
            if s.kind == "off-map":
                continue
            x, y = self.geo.pos(s.id)
            kind = self.kind_of(s.id)
            if s.kind == "city":
                tex = markers.city_texture(kind, s.capital, s.income)
                size = INCOME_SIZE if s.income else CAPITAL_SIZE if s.capital else CITY_SIZE
            elif s.mountain_pass:
                tex, size = markers.pass_texture(), PASS_SIZE
            else:
                tex, size = markers.region_texture(kind), REGION_SIZE
            sprite = arcade.Sprite(tex, center_x=x, center_y=y)
            self.marker_of[s.id] = sprite
            self.marker_size[s.id] = size
            self.markers.append(sprite)
            if s.port:
                self.symbols.append(arcade.Sprite(markers.anchor_texture(), center_x=x, center_y=y))
            if s.colony_site:
                self.symbols.append(arcade.Sprite(markers.colony_texture(), center_x=x, center_y=y))
        self._size_markers()

    def _size_markers(self) -> None:
        for place, sprite in self.marker_of.items():
            sprite.scale = self._marker_size_now(self.marker_size[place]) / markers.SIZE
        sym = self._marker_size_now(SYMBOL_SIZE)
        i = 0
        for s in self.world.data.space:
            if s.kind == "off-map":
                continue
            x, y = self.geo.pos(s.id)
            half = self._marker_size_now(self.marker_size[s.id]) / 2
            if s.port:
                sp = self.symbols[i]
                sp.scale = sym / markers.SIZE
                sp.position = (x + half * 0.7 + sym * 0.35, y - half * 0.7 - sym * 0.35)
                i += 1
            if s.colony_site:
                sp = self.symbols[i]
                sp.scale = sym / markers.SIZE
                sp.position = (x - half * 0.7 - sym * 0.3, y + half * 0.7 + sym * 0.4)
                i += 1

    def _label(
        self,
        batch: Batch,
        place: str,
        text: str,
        world: Point,
        dx: float,
        dy: float,
        tier: int,
        color: Color,
        size: float,
        *,
        anchor_x: str = "left",
        bold: bool = False,
        italic: bool = False,
        font: tuple[str, ...] = SERIF,
        halo: bool = True,
    ) -> MapLabel:
        shadow = None
        if halo:
            shadow = arcade.Text(
                text,
                0,
                0,
                rgba(HALO, 235),
                size,
                font_name=font,
                bold=bold,
                italic=italic,
                anchor_x=anchor_x,
                anchor_y="center",
                batch=batch,
            )
        main = arcade.Text(
            text,
            0,
            0,
            rgba(color),
            size,
            font_name=font,
            bold=bold,
            italic=italic,
            anchor_x=anchor_x,
            anchor_y="center",
            batch=batch,
        )
        return MapLabel(place, world, dx, dy, tier, main, shadow)

    def _build_labels(self) -> None:
        """Every name on the map, with its priority where two would overlap: off-map
        regions (always, inside their boxes), income cities, capitals, sea zones, the
        other cities, the regions."""
        world = self.world
        for s in world.data.space:
            if s.kind == "off-map":
                short = s.name.split(" (")[0].upper()
                lab = self._label(
                    self.label_batch,
                    s.id,
                    short,
                    self.geo.pos(s.id),
                    0,
                    0,
                    0,
                    OWNER_INK[self.kind_of(s.id)],
                    7.5,
                    anchor_x="center",
                    bold=True,
                    halo=False,
                    font=SANS,
                )
                lab.priority = 0
                self.box_w[s.id] = max(BOX_W * 0.6, (lab.text.content_width + 16) / REFERENCE_ZOOM)
                self.labels.append(lab)
                continue
            x, y = self.geo.pos(s.id)
            if s.kind == "city":
                tier = 0 if (s.capital or s.income) else 1
                lab = self._label(
                    self.label_batch,
                    s.id,
                    s.name,
                    (x, y),
                    8,
                    0,
                    tier,
                    LABEL_INK,
                    9 if tier == 0 else 8,
                    bold=tier == 0,
                )
                lab.priority = (
                    PRIORITY["income"] if s.income else PRIORITY["capital"] if s.capital else PRIORITY["city"]
                )
            else:
                lab = self._label(
                    self.label_batch, s.id, s.name, (x, y), 0, -9, 2, (92, 72, 56), 7.5, anchor_x="center", italic=True
                )
                lab.priority = PRIORITY["region"]
            self.labels.append(lab)
        for z in world.data.sea:
            lab = self._label(
                self.label_batch,
                z.id,
                z.name.upper(),
                self.geo.pos(z.id),
                0,
                0,
                0,
                SEA_LABEL,
                7,
                anchor_x="center",
                italic=True,
                halo=False,
            )
            lab.priority = PRIORITY["sea"]
            self.labels.append(lab)
        self.labels.sort(key=lambda lab: lab.priority)

    def _build_hud(self) -> None:
        """The top bar, the legend and the HUD's texts (again on a resize)."""
        w, h = self.window.width, self.window.height
        sl = shape_list
        self.hud_shapes = sl.ShapeElementList()
        self.hud_shapes.append(sl.create_rectangle_filled(w / 2, h - TOP_BAR / 2, w, TOP_BAR, rgba(BG_TOP)))
        self.hud_shapes.append(sl.create_rectangle_filled(w / 2, h - TOP_BAR - 1.5, w, 3, rgba(GOLD)))
        self.hud_batch = Batch()
        self.hud_texts: dict[str, arcade.Text] = {}
        self._build_legend()
        self._build_hud_texts(w, h)

    def _build_legend(self) -> None:
        """The legend, bottom left, in two columns: the owners' colours, the network's lines
        and the counters' symbols (a gold corner marks a force under a named commander)."""
        sl = shape_list
        lx, ly, right, top = LEGEND_RECT
        lw, lh = right - lx, top - ly
        self.hud_shapes.append(sl.create_rectangle_filled(lx + lw / 2, ly + lh / 2, lw, lh, rgba(PARCHMENT)))
        self.hud_shapes.append(sl.create_rectangle_outline(lx + lw / 2, ly + lh / 2, lw, lh, rgba(BG_TOP), 1.5))
        self.legend_texts: list[arcade.Text] = []
        self.legend_icons: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        rows: list[tuple[str, str, Color]] = [
            ("fill", "Caesarians", OWNER_FILL["caesarian"]),
            ("fill", "Senatorials", OWNER_FILL["senatorial"]),
            ("fill", "Client states", OWNER_FILL["client"]),
            ("fill", "Neutral", OWNER_FILL["neutral"]),
            ("road", "Named road · road", ROAD_NAMED),
            ("dash", "Cross-country", CROSS_COUNTRY),
            ("strait", "Strait · sea lane", STRAIT),
            ("border", "Province border", PROVINCE_BORDER),
        ]
        rows += [("symbol:" + sym, SYMBOL_WORDS[sym], LABEL_INK) for sym in SYMBOLS]
        for i, (style, text, color) in enumerate(rows):
            y = ly + lh - 14 - (i // 2) * LEGEND_ROW
            x0 = lx + 10 + (i % 2) * (lw - 20) / 2
            self._legend_key(style, color, x0, y)
            self.legend_texts.append(
                arcade.Text(
                    text, x0 + 34, y, rgba(LABEL_INK), 9, font_name=SANS, anchor_y="center", batch=self.hud_batch
                )
            )

    def _legend_key(self, style: str, color: Color, x0: float, y: float) -> None:
        """The little picture before a legend's words (26 pixels wide from ``x0``)."""
        sl = shape_list
        if style.startswith("symbol:"):
            icon = arcade.Sprite(markers.symbol_counter_texture("caesarian", style.removeprefix("symbol:"), False))
            icon.scale = 19 / markers.SIZE
            icon.position = (x0 + 13, y)
            self.legend_icons.append(icon)
        elif style == "fill":
            self.hud_shapes.append(sl.create_rectangle_filled(x0 + 13, y, 26, 11, rgba(color)))
            self.hud_shapes.append(sl.create_rectangle_outline(x0 + 13, y, 26, 11, rgba(BG_TOP, 160), 1))
        elif style == "road":
            self.hud_shapes.append(sl.create_line(x0, y, x0 + 12, y, rgba(ROAD_NAMED), 3))
            self.hud_shapes.append(sl.create_line(x0 + 15, y, x0 + 26, y, rgba(ROAD), 2))
        else:
            width = {"dash": 1.2, "strait": 3.0, "border": 1.6}[style]
            n = 3 if style != "strait" else 2
            for k in range(n):
                a = x0 + k * 26 / n
                self.hud_shapes.append(sl.create_line(a, y, a + 26 / n * 0.6, y, rgba(color), width))
            if style == "strait":
                self.hud_shapes.append(sl.create_line(x0 + 18, y, x0 + 21, y, rgba((90, 130, 170)), 1.5))
                self.hud_shapes.append(sl.create_line(x0 + 24, y, x0 + 26, y, rgba((90, 130, 170)), 1.5))

    def _build_hud_texts(self, w: int, h: int) -> None:
        """The top bar's title, map name and date, and the help line."""
        self.hud_texts["title"] = arcade.Text(
            "BELLVM CIVILE",
            14,
            h - TOP_BAR / 2,
            rgba(GOLD),
            15,
            font_name=SERIF,
            bold=True,
            anchor_y="center",
            batch=self.hud_batch,
        )
        self.hud_texts["map"] = arcade.Text(
            self.world.data.map.name,
            210,
            h - TOP_BAR / 2,
            rgba(PARCHMENT),
            11,
            font_name=SERIF,
            italic=True,
            anchor_y="center",
            batch=self.hud_batch,
        )
        self.hud_texts["date"] = arcade.Text(
            "",
            w - 14,
            h - TOP_BAR / 2,
            rgba(PARCHMENT),
            12,
            font_name=SERIF,
            bold=True,
            anchor_x="right",
            anchor_y="center",
            batch=self.hud_batch,
        )
        self.hud_texts["help"] = arcade.Text(
            "wheel zoom · drag pan · click select · Home whole map · M minimap",
            w - 12,
            7,
            rgba((70, 56, 46)),
            8.5,
            font_name=SANS,
            anchor_x="right",
        )

    def hud_rects(self) -> list[tuple[float, float, float, float]]:
        """The HUD's opaque boxes (left, bottom, right, top; screen pixels): while the camera
        pans they are copied from the last composed frame instead of drawn again."""
        w, h = self.window.width, self.window.height
        rects = [(0.0, h - TOP_BAR - 3.0, float(w), float(h)), self._help_rect()]
        if self.legend_visible():
            rects.insert(1, self.legend_rect())
        if self.panel.text:
            rects.append(self._panel_rect)
        if self.enemy.shown:
            rects.append(self.enemy.rect)
        return rects

    def legend_rect(self) -> tuple[float, float, float, float]:
        """The legend's box on the screen with its outline (left, bottom, right, top)."""
        return LEGEND_RECT[0] - 1, LEGEND_RECT[1] - 1, LEGEND_RECT[2] + 1, LEGEND_RECT[3] + 1

    def legend_visible(self) -> bool:
        """Whether the legend shows (a subclass may hide its words and box: the playing
        window while its legend panel is folded)."""
        texts: list[arcade.Text] = getattr(self, "legend_texts", [])
        return bool(texts) and bool(texts[0].visible)

    def hud_opaque(self) -> bool:
        """Whether everything the HUD draws over the map lies in ``hud_rects`` (else a
        panning frame draws the HUD again)."""
        return True

    # ------------------------------------------------------------------ the model
    def _sync_model(self, force: bool = False) -> None:
        """Follow the model: owners (rebuilds the ground), forces, the selection."""
        owners = dict(self.model.owners())
        if force or owners != self._owners:
            self._owners = owners
            self._world_valid = False
            self._build_ground()
            if not force:
                self.network = shape_list.ShapeElementList()
                self.boxes = shape_list.ShapeElementList()
                self._build_network()
                self._build_markers()
        forces = tuple(self.model.forces())
        if force or forces != self._forces:
            self._forces = forces
            self._build_forces()
        if self.model.selected != self._selected_drawn:
            self._build_selection()
        self.enemy.follow(self.model)

    def _build_forces(self) -> None:
        self.force_sprites = arcade.SpriteList()
        self.force_labels = []
        self._force_batch = Batch()
        self._force_slots = []
        stack: dict[str, int] = {}
        for f in self._forces:
            if f.place not in self.geo.positions:
                continue
            n = stack.get(f.place, 0)
            stack[f.place] = n + 1
            kind = owner_kind(self.world, f.owner)
            sprite = arcade.Sprite(markers.symbol_counter_texture(kind, f.symbol, f.leader))
            self.force_sprites.append(sprite)
            self._force_slots.append((f.place, n))
            text = f"{f.label} {f.detail}".strip()
            self.force_labels.append(
                self._label(
                    self._force_batch,
                    f.id,
                    text,
                    (0.0, 0.0),
                    COUNTER_PX / 2 + 4,
                    0,
                    0,
                    OWNER_INK[kind],
                    9,
                    bold=True,
                    font=SANS,
                )
            )
            self.force_labels[-1].priority = PRIORITY["leader" if f.leader else "force"]
        self.minimap.set_forces(
            [
                (*self.geo.pos(f.place), OWNER_INK[owner_kind(self.world, f.owner)], f.strength)
                for f in self._forces
                if f.place in self.geo.positions
            ]
        )
        self._layout_forces()
        self._dynamic_dirty = True
        self._world_valid = False

    def _layout_forces(self) -> None:
        """Counters keep their size on screen: up and to the right of their place, the forces
        of a stack in a column (each label beside its own counter)."""
        size = COUNTER_PX / float(self.camera.zoom)
        for sprite, lab, (place, n) in zip(self.force_sprites, self.force_labels, self._force_slots, strict=True):
            x, y = self.geo.pos(place)
            sprite.scale = size / markers.SIZE
            sprite.position = (x + size * 0.75, y + size * (0.6 + 1.08 * n))
            lab.world = sprite.position

    def links_of(self, place: str) -> list[Link]:
        return self.world.links(place)

    def _build_selection(self) -> None:
        self._selected_drawn = place = self.model.selected
        self.overlay = shape_list.ShapeElementList()
        self.ring = arcade.SpriteList()
        self.overlay_batch = Batch()
        self.overlay_labels = []
        self.cost_discs = arcade.SpriteList()
        if place is None:
            self.panel.text = ""
            self._dynamic_dirty = True
            self._world_valid = False
            self._cache_valid = False
            return
        sl = shape_list
        a = self.geo.pos(place)
        for link in self.links_of(place):
            b = self.geo.pos(link.b)
            color = LINK_COLOR[link.kind]
            self.overlay.append(sl.create_line(a[0], a[1], b[0], b[1], rgba((255, 246, 210), 220), 7.0))
            self.overlay.append(sl.create_line(a[0], a[1], b[0], b[1], rgba(color, 255), 3.4))
            ring = arcade.Sprite(markers.select_ring_texture(), center_x=b[0], center_y=b[1])
            ring.scale = 16 / markers.SIZE
            ring.alpha = 200
            self.ring.append(ring)
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            disc = arcade.Sprite(markers.cost_disc_texture(link.kind), center_x=mid[0], center_y=mid[1])
            self.cost_discs.append(disc)
            self.overlay_labels.append(
                self._label(
                    self.overlay_batch,
                    link.b,
                    str(link.cost),
                    mid,
                    0,
                    0,
                    0,
                    color,
                    10,
                    anchor_x="center",
                    bold=True,
                    font=SANS,
                )
            )
        big = arcade.Sprite(markers.select_ring_texture(), center_x=a[0], center_y=a[1])
        big.scale = (34 if self.world.is_sea(place) else 26) / markers.SIZE
        self.ring.append(big)
        self.panel.text = self.describe(place, with_links=True)
        self._dynamic_dirty = True
        self._world_valid = False
        self._cache_valid = False

    # ------------------------------------------------------------------ words
    def describe(self, place: str, with_links: bool = False) -> str:
        """What the tooltip and the selection panel say about ``place``."""
        world = self.world
        if world.is_sea(place):
            z = world.sea(place)
            lines = [z.name, f"Sea zone · crossing {z.crossing}"]
            ports = [world.name(p) for p in world.ports_of(place)]
            lines.append(f"{len(ports)} ports: " + ", ".join(ports[:8]) + ("…" if len(ports) > 8 else ""))
        else:
            s = world.space(place)
            owner = (
                world.owners[self.owner_of(place)].name
                if self.owner_of(place) in world.owners
                else self.owner_of(place)
            )
            kind = {"city": "City", "region": "Region", "off-map": "Off-map region"}[s.kind]
            flags = [
                w
                for w, on in (
                    ("provincial capital", s.capital),
                    ("income city", s.income),
                    ("port", s.port),
                    ("colony site", s.colony_site),
                    ("mountain pass", s.mountain_pass),
                )
                if on
            ]
            lines = [s.name, f"{kind} · {world.provinces[s.province].name}", f"Terrain: {s.terrain}"]
            if s.rivers:
                lines[-1] += " · on the " + ", ".join(world.rivers[r].name for r in s.rivers)
            lines.append(f"Held by: {owner}")
            if flags:
                lines.append(", ".join(flags).capitalize())
            if s.landmass != "mainland":
                lines.append(f"Island: {s.landmass.replace('_', ' ').title()}")
        if with_links:
            lines.append("")
            for link in self.links_of(place):
                name = f" ({link.name})" if link.name else ""
                river = f", crosses the {world.rivers[link.river].name}" if link.river else ""
                lines.append(f"→ {world.name(link.b)}: {LINK_WORD[link.kind]}{name}{river} · cost {link.cost}")
        return "\n".join(lines)

    # ------------------------------------------------------------------ picking
    def place_at(self, sx: float, sy: float) -> str | None:
        """The place under screen point (sx, sy): an off-map box, a marker within a few
        pixels, else the area (land space or sea zone) that holds the point."""
        wx, wy = self.screen_to_world(sx, sy)
        for place in self.world.off_map():
            left, right, bottom, top = self.box_rect(place)
            if left <= wx <= right and bottom <= wy <= top:
                return place
        z = self.camera.zoom
        best, best_d = None, (9.0 / z) ** 2
        for place, sprite in self.marker_of.items():
            d = (sprite.center_x - wx) ** 2 + (sprite.center_y - wy) ** 2
            reach = max(best_d, (sprite.width / 2) ** 2)
            if d <= reach and (best is None or d < best_d):
                best, best_d = place, d
        if best is not None:
            return best
        return self.geo.place_at(wx, wy)

    def click(self, sx: float, sy: float) -> str | None:
        """Select what is under the screen point (nothing: clear the selection)."""
        place = self.place_at(sx, sy)
        self.model.select(place)
        self._sync_model()
        return place

    # ------------------------------------------------------------------ per frame
    def _place_labels(
        self, labels: Sequence[MapLabel], factor: float, frame: tuple[float, float, float, int, int] | None = None
    ) -> None:
        """Put labels at their projected positions in ``frame`` (camera x, y, zoom, width,
        height in pixels; default the window), hiding those outside it."""
        if frame is None:
            cx, cy = self.camera.position
            frame = (float(cx), float(cy), float(self.camera.zoom), self.window.width, self.window.height)
        fx, fy, z, w, h = frame
        for lab in labels:
            sx, sy = (lab.world[0] - fx) * z + w / 2, (lab.world[1] - fy) * z + h / 2
            show = lab.shown and factor >= TIER_ZOOM[lab.tier] and -80 <= sx <= w + 80 and -20 <= sy <= h + 20
            x, y = sx + lab.dx, sy + lab.dy
            if lab.box is not None:  # where the declutter put it
                b = lab.box
                x = (b[0] + b[2]) / 2 if lab.text.anchor_x == "center" else b[0] + 1
                x, y = x - fx * z + w / 2, (b[1] + b[3]) / 2 - fy * z + h / 2
            if lab.text.visible != show:
                lab.text.visible = show
                if lab.halo is not None:
                    lab.halo.visible = show
            if show:
                lab.text.position = (x, y)
                if lab.halo is not None:
                    lab.halo.position = (x + 1, y - 1)

    def _size_screen_sprites(self) -> None:
        """Sprites that keep their size on screen: the cost discs and the force counters."""
        for disc in self.cost_discs:
            disc.scale = COST_PX / float(self.camera.zoom) / markers.SIZE
        self._layout_forces()

    def _declutter(self, factor: float) -> None:
        """Decide where each name shows at this zoom and which stay hidden (``labels.place``):
        places' and forces' names by priority, each beside its marker (right, left, above,
        below), none over another nor over a force counter.  Panning does not change it."""
        z = float(self.camera.zoom)
        wishes: list[Wish] = []
        candidates = [lab for lab in self.labels if factor >= TIER_ZOOM[lab.tier]] + self.force_labels
        for lab in self.labels:
            if factor < TIER_ZOOM[lab.tier]:
                lab.shown, lab.box = False, None
        for k, lab in enumerate(candidates):
            w, h = float(lab.text.content_width) + 2, float(lab.text.content_height) * 0.8
            x, y = lab.world[0] * z, lab.world[1] * z
            if lab.text.anchor_x == "center":
                x, y = x + lab.dx, y + lab.dy
                boxes: list[Box] = [(x - w / 2, y - h / 2, x + w / 2, y + h / 2)]
            else:
                boxes = beside(x, y + lab.dy, w, h, lab.dx)
            wishes.append(Wish(k, lab.priority, boxes, must=lab.priority == PRIORITY["off_map"]))
        half = COUNTER_PX / 2
        counters = [
            (s.center_x * z - half, s.center_y * z - half, s.center_x * z + half, s.center_y * z + half)
            for s in self.force_sprites
        ]
        placed = place_labels(wishes, counters)
        for k, lab in enumerate(candidates):
            lab.box = placed[k]
            lab.shown = lab.box is not None

    def label_boxes(self) -> list[tuple[str, Box]]:
        """The names shown now with their boxes on the screen (left, bottom, right, top;
        pixels): what the declutter placed, within the window."""
        z = float(self.camera.zoom)
        cx, cy = (float(v) for v in self.camera.position)
        ox, oy = cx * z - self.window.width / 2, cy * z - self.window.height / 2
        out = []
        for lab in [*self.labels, *self.force_labels]:
            if lab.shown and lab.box is not None and lab.text.visible:
                b = lab.box
                out.append((lab.text.text, (b[0] - ox, b[1] - oy, b[2] - ox, b[3] - oy)))
        return out

    def _relayout(self) -> bool:
        """Note what changed since the last frame: the zoom (the world must be drawn again)
        and the camera (say whether it moved)."""
        key = (
            float(self.camera.position[0]),
            float(self.camera.position[1]),
            float(self.camera.zoom),
            self.window.width,
            self.window.height,
        )
        if (key[2], key[3], key[4]) != self._zoom_key or self._dynamic_dirty:
            self._world_valid = False
        moved = key != self._camera_key
        self._camera_key = key
        if moved:
            self._cache_valid = False
        return moved

    def _zoom_layout(self) -> None:
        """Resize the markers and declutter the names for the zoom (before the world is drawn)."""
        zoom_key = (float(self.camera.zoom), self.window.width, self.window.height)
        if zoom_key != self._zoom_key:
            self._zoom_key = zoom_key
            self._size_markers()
            self._size_screen_sprites()
            for lab in self.labels:
                sprite = self.marker_of.get(lab.place)
                if sprite is not None and lab.dx:
                    lab.dx = sprite.width * self.camera.zoom / 2 + 3
            self._declutter(self.zoom_factor())
        if self._dynamic_dirty:
            self._size_screen_sprites()
            self._declutter(self.zoom_factor())
            self._dynamic_dirty = False

    def _world_offset(self) -> tuple[int, int] | None:
        """Where the window's view starts inside the world framebuffer (pixels), or None
        when the framebuffer does not cover it (or was drawn at another zoom)."""
        fx, fy, fz, fw, fh = self._world_frame
        z = float(self.camera.zoom)
        w, h = self.window.width, self.window.height
        if not self._world_valid or self._world is None or fz != z:
            return None
        cx, cy = self.camera.position
        ox = round((cx - fx) * z + (fw - w) / 2)
        oy = round((cy - fy) * z + (fh - h) / 2)
        if ox >= 0 and ox + w <= fw and oy >= 0 and oy + h <= fh:
            return ox, oy
        return None

    def _render_world(self) -> None:
        """Draw the world layers and the names into the oversized framebuffer, centred on the
        camera (campaign window performance: PERFORMANCE.md)."""
        self._zoom_layout()
        ctx = self.window.ctx
        w, h = self.window.width, self.window.height
        fw, fh = w + 2 * int(w * WORLD_MARGIN), h + 2 * int(h * WORLD_MARGIN)
        if self._world is None or self._world.size != (fw, fh):
            tex = ctx.texture((fw, fh), components=4)
            self._world = ctx.framebuffer(color_attachments=[tex])
        cx, cy = (float(v) for v in self.camera.position)
        z = float(self.camera.zoom)
        frame = (cx, cy, z, fw, fh)
        self._world_frame = frame
        factor = self.zoom_factor()
        self._place_labels(self.labels, factor, frame)
        self._place_labels(self.overlay_labels, 0.0, frame)
        self._place_labels(self.force_labels, 0.0, frame)
        world_cam = arcade.camera.Camera2D(
            viewport=arcade.LBWH(0, 0, fw, fh), position=(cx, cy), zoom=z, render_target=self._world
        )
        flat_cam = arcade.camera.Camera2D(
            viewport=arcade.LBWH(0, 0, fw, fh), position=(fw / 2, fh / 2), render_target=self._world
        )
        with self._world.activate():
            self._world.clear(color=rgba(PAPER))
            with world_cam.activate():
                self.ground.draw()
                self.network.draw()
                self.boxes.draw()
                self.overlay.draw()
                self.markers.draw()
                self.symbols.draw()
                self.ring.draw()
                self.cost_discs.draw()
                self.force_sprites.draw()
            with flat_cam.activate():
                self.label_batch.draw()
                self.overlay_batch.draw()
                if self.force_labels:
                    self._force_batch.draw()
        self._world_valid = True
        self._cache_valid = False

    def on_update(self, delta_time: float) -> None:
        self.enemy.update(delta_time)
        self._zoom_settle = max(0.0, self._zoom_settle - delta_time)
        step = PAN_SPEED * min(delta_time, 0.1)
        dx = (arcade.key.LEFT in self.keys or arcade.key.A in self.keys) - (
            arcade.key.RIGHT in self.keys or arcade.key.D in self.keys
        )
        dy = (arcade.key.DOWN in self.keys or arcade.key.S in self.keys) - (
            arcade.key.UP in self.keys or arcade.key.W in self.keys
        )
        if dx or dy:
            self.pan(dx * step, dy * step)
        self._sync_model()

    def on_draw(self) -> None:
        """One frame.  The world is drawn into an oversized framebuffer only when it changes
        (owners, forces, selection, zoom) or the camera pans beyond it.  A still frame is
        composed once (the world's visible part, then the HUD) into a second framebuffer and
        copied each frame with the tooltip on top.  While the camera pans, a frame copies the
        world's visible part and then the HUD's opaque boxes from the last composed frame —
        two copies, no drawing but the scale bar, the help line and the tooltip."""
        moved = self._relayout()
        date = f"{self.model.date_label()}   ·   {self.model.turn_label()}   ·   {self.model.phase_label()}"
        if self.hud_texts["date"].text != date:
            self.hud_texts["date"].text = date
            self._cache_valid = False
        extra = self._hud_extra_key()
        if extra != self._hud_extra_drawn:
            self._hud_extra_drawn = extra
            self._cache_valid = False
        ctx = self.window.ctx
        w, h = self.window.width, self.window.height
        hud_key = (date, self.panel.text, self.panel_drop, extra, w, h, self.enemy.key(), self.minimap.shown)
        offset = self._world_offset()
        fast = self._cache is not None and self._cache_hud == hud_key and self.hud_opaque()
        if offset is None and fast and self._zoom_settle > 0 and self._world is not None:
            # the wheel is turning: the last world, scaled through the camera, until it stops
            self._draw_world_scaled()
            self._copy_hud_boxes()
            self._cache_valid = False
            with self.hud.activate():
                self._draw_tooltip()
            return
        if offset is None:
            self._render_world()
            offset = self._world_offset()
            assert offset is not None
        if not moved and self._cache_valid:
            blit_to_screen(ctx, self._cache)
        elif moved and fast:
            blit_region(ctx, self._world, offset[0], offset[1], w, h, ctx.screen)
            self._draw_world_overlay(ctx.screen)
            self._copy_hud_boxes()
            self.minimap.draw(ctx.screen)
            self._cache_valid = False
        else:
            if self._cache is None or self._cache.size != ctx.screen.size:
                self._cache = ctx.framebuffer(color_attachments=[ctx.texture(ctx.screen.size, components=4)])
            self._compose(offset, self._cache)
            self._cache_hud = hud_key
            self._cache_valid = True
            blit_to_screen(ctx, self._cache)
        with self.hud.activate():
            self._draw_tooltip()

    def _help_rect(self) -> tuple[float, float, float, float]:
        w = self.window.width
        return w - self.hud_texts["help"].content_width - 24, 0.0, float(w), 24.0

    def _copy_hud_boxes(self) -> None:
        """The HUD's opaque boxes from the last still frame (the help line's strip among
        them), then the scale bar, the one thing the HUD draws over the map itself."""
        ctx = self.window.ctx
        w, h = self.window.width, self.window.height
        for left, bottom, right, top in self.hud_rects():
            x0, y0 = max(0, int(left)), max(0, int(bottom))
            x1, y1 = min(w, math.ceil(right)), min(h, math.ceil(top))
            if x1 > x0 and y1 > y0:
                blit_rect(ctx, self._cache, x0, y0, x1, y1, ctx.screen)
        with self.hud.activate():
            self._draw_scale_bar()

    def _draw_world_scaled(self) -> None:
        """The world framebuffer drawn at the camera's new zoom (one textured quad)."""
        ctx = self.window.ctx
        fx, fy, fz, fw, fh = self._world_frame
        cx, cy = (float(v) for v in self.camera.position)
        z = float(self.camera.zoom)
        w, h = self.window.width, self.window.height

        def ndc(wx: float, wy: float) -> tuple[float, float]:
            return ((wx - cx) * z + w / 2) / w * 2 - 1, ((wy - cy) * z + h / 2) / h * 2 - 1

        left, bottom = ndc(fx - fw / 2 / fz, fy - fh / 2 / fz)
        right, top = ndc(fx + fw / 2 / fz, fy + fh / 2 / fz)
        data = array("f", [left, top, 0, 1, left, bottom, 0, 0, right, top, 1, 1, right, bottom, 1, 0])
        if self._quad is None:
            self._quad_buffer = ctx.buffer(data=data)
            self._quad = ctx.geometry(
                [BufferDescription(self._quad_buffer, "2f 2f", ["in_vert", "in_uv"])], mode=ctx.TRIANGLE_STRIP
            )
        else:
            self._quad_buffer.write(data)
        ctx.screen.use()
        ctx.screen.clear(color=rgba(PAPER))
        texture = self._world.color_attachments[0]
        texture.filter = ctx.LINEAR, ctx.LINEAR
        texture.use(0)
        self._quad.render(ctx.utility_textured_quad_program)

    def _draw_loose_hud(self) -> None:
        """The scale bar (it changes with the zoom) and the help line on its strip."""
        self._draw_scale_bar()
        left, bottom, right, top = self._help_rect()
        arcade.draw_lrbt_rectangle_filled(left, right, bottom, top, rgba(PARCHMENT))
        arcade.draw_line(left, top, right, top, rgba(BG_TOP), 1)
        self.hud_texts["help"].draw()

    def _compose(self, offset: tuple[int, int], target: Any) -> None:
        """The visible part of the world, then the HUD, into ``target`` (the screen or the cache)."""
        ctx = self.window.ctx
        w, h = self.window.width, self.window.height
        blit_region(ctx, self._world, offset[0], offset[1], w, h, target)
        self._draw_world_overlay(target)
        with target.activate():
            hud = arcade.camera.Camera2D(
                viewport=arcade.LBWH(0, 0, w, h), position=(w / 2, h / 2), render_target=target
            )
            with hud.activate():
                self.hud_shapes.draw()
                if self.legend_visible():
                    self.legend_icons.draw()
                self.hud_batch.draw()
                self._draw_loose_hud()
                self._draw_panel()
                self.minimap.draw(target)
                self.enemy.draw_hud()
                self._draw_hud_extra()  # a dialog's shade goes over the minimap too

    def _draw_world_overlay(self, target: Any) -> None:
        """What is drawn over the world on every frame rather than into its framebuffer: the
        enemy's turn played back (nothing when it is not shown)."""
        if not self.enemy.shown:
            return
        w, h = self.window.width, self.window.height
        with target.activate():
            cam = arcade.camera.Camera2D(
                viewport=arcade.LBWH(0, 0, w, h),
                position=self.camera.position,
                zoom=self.camera.zoom,
                render_target=target,
            )
            with cam.activate():
                self.enemy.draw_world()

    def _hud_extra_key(self) -> Any:
        """What a subclass's own HUD shows (a change redraws the still frame)."""
        return None

    def _draw_hud_extra(self) -> None:
        """A subclass's own HUD panels, drawn over the map's (HUD camera)."""

    def _draw_still(self) -> None:
        """Every layer but the tooltip, bottom to top, straight to the active framebuffer."""
        offset = self._world_offset()
        if offset is None:
            self._render_world()
            offset = self._world_offset()
            assert offset is not None
        self._compose(offset, self.window.ctx.screen)

    def scale_bar(self) -> tuple[int, float]:
        """A round distance in km and its length on screen (pixels) at the current zoom,
        between 70 and 180 pixels long."""
        px_per_km = self.geo.projection.units_per_km() * float(self.camera.zoom)
        for km in (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000):
            if km * px_per_km >= 70:
                return km, km * px_per_km
        return 2000, 2000 * px_per_km

    def _draw_scale_bar(self) -> None:
        """The bar (its shapes built once per length and drawn in one call) and its distance."""
        km, length = self.scale_bar()
        x1 = self.window.width - 20
        x0, y = x1 - length, 36
        key = (km, round(length, 2), x1)
        if self._scale_key != key:
            self._scale_key = key
            ink = rgba(LABEL_INK)
            bar: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
            mid = (x0 + x1) / 2
            bar.append(shape_list.create_rectangle_filled((x0 + mid) / 2, y, mid - x0, 4, ink))
            bar.append(shape_list.create_rectangle_filled((mid + x1) / 2, y, x1 - mid, 4, rgba(PARCHMENT)))
            bar.append(shape_list.create_rectangle_outline((x0 + x1) / 2, y, x1 - x0, 4, ink, 1))
            self._scale_shapes = bar
            self.scale_text.text = f"{km} km"
            self.scale_text.position = (x1, y + 6)
        self._scale_shapes.draw()
        self.scale_text.draw()

    def _draw_panel(self) -> None:
        """The selection panel (HUD camera)."""
        w, h = self.window.width, self.window.height
        if self.panel.text:
            pw = 316
            top = h - TOP_BAR - 10 - self.panel_drop
            ph = self.panel.content_height + 16
            arcade.draw_lrbt_rectangle_filled(w - pw - 10, w - 10, top - ph, top, rgba(PARCHMENT))
            self._panel_rect = (w - pw - 11, top - ph - 1, w - 9, top + 1)
            arcade.draw_lrbt_rectangle_outline(w - pw - 10, w - 10, top - ph, top, rgba(BG_TOP), 2)
            if self.panel.position != (w - pw, top - 8):  # a multiline text re-lays itself out when moved
                self.panel.position = (w - pw, top - 8)
            self.panel.draw()

    def _draw_tooltip(self) -> None:
        """The hover tooltip by the cursor (HUD camera); over a force counter, its stack's
        card (the tooltip's words still follow what is under the cursor)."""
        w = self.window.width
        if self.hover is not None and self._tooltip_for != (self.hover, self._owners.get(self.hover)):
            self._tooltip_for = (self.hover, self._owners.get(self.hover))
            self.tooltip.text = self.describe(self.hover)
        if self.hover is not None and self.hover_stack is not None:
            here = [f for f in self._forces if f.place == self.hover_stack]
            self.card.build(self.world, here, self.mouse[0], self.mouse[1], w)
            self.card.draw()
            return
        if self.hover is not None and self.hover != self.model.selected:
            tw = min(300, self.tooltip.content_width) + 16
            th = self.tooltip.content_height + 12
            mx, my = self.mouse
            x = min(mx + 18, w - tw - 4)
            y = max(my - 14, th + 4)
            if self._tip_key != (x, y, tw, th):  # its box: shapes built once per place and size
                self._tip_key = (x, y, tw, th)
                box: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
                cx, cy = x + tw / 2, y - th / 2
                box.append(shape_list.create_rectangle_filled(cx, cy, tw, th, rgba((250, 242, 220), 240)))
                box.append(shape_list.create_rectangle_outline(cx, cy, tw, th, rgba(BG_TOP), 1.5))
                self._tip_shapes = box
            self._tip_shapes.draw()
            if self.tooltip.position != (x + 8, y - 6):
                self.tooltip.position = (x + 8, y - 6)
            self.tooltip.draw()

    # ------------------------------------------------------------------ input
    def on_resize(self, width: int, height: int) -> bool | None:
        self.camera.match_window()
        self.hud.match_window(position=True)
        self._build_hud()
        self._camera_key = None
        self._zoom_key = None
        self._cache = None
        self._cache_valid = False
        self._world_valid = False
        self._clamp()
        return None

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool | None:
        if scroll_y:
            self.zoom_at(x, y, 1.18 ** max(-4.0, min(4.0, float(scroll_y))))
            self._zoom_settle = ZOOM_SETTLE
        return None

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> bool | None:
        self.mouse = (x, y)
        self.hover = None if y > self.window.height - TOP_BAR else self.place_at(x, y)
        self.hover_stack = None if self.hover is None else self.stack_at(x, y)
        return None

    def stack_at(self, sx: float, sy: float) -> str | None:
        """The place of the force counter under a screen point."""
        wx, wy = self.screen_to_world(sx, sy)
        for sprite, (place, _) in zip(self.force_sprites, self._force_slots, strict=True):
            half = sprite.width / 2
            if abs(sprite.center_x - wx) <= half and abs(sprite.center_y - wy) <= half:
                return place
        return None

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        if self.map_press(x, y):
            return None
        self._pressed = True
        self._dragged = 0.0
        return None

    def map_press(self, x: float, y: float) -> bool:
        """A press on the map's own controls (the enemy's turn card, the minimap): True
        when one took it."""
        if self.enemy.press(x, y) or self.minimap.click(x, y):
            self._pressed = False
            self._cache_valid = False
            return True
        return False

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> bool | None:
        self._dragged += abs(dx) + abs(dy)
        self.pan(dx, dy)
        self.mouse = (x, y)
        return None

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        on_map = y <= self.window.height - TOP_BAR
        if self._pressed and self._dragged < 5 and button == arcade.MOUSE_BUTTON_LEFT and on_map:
            self.click(x, y)
        self._pressed = False
        return None

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        self.keys.add(symbol)
        if self.enemy.key_press(symbol):
            return None
        if symbol == arcade.key.M:
            self.minimap.shown = not self.minimap.shown
            self._cache_valid = False
        elif symbol in (arcade.key.PLUS, arcade.key.EQUAL, arcade.key.NUM_ADD):
            self.zoom_at(self.window.width / 2, self.window.height / 2, 1.4)
        elif symbol in (arcade.key.MINUS, arcade.key.NUM_SUBTRACT):
            self.zoom_at(self.window.width / 2, self.window.height / 2, 1 / 1.4)
        elif symbol in (arcade.key.HOME, arcade.key.F):
            self.fit()
        elif symbol == arcade.key.ESCAPE:
            if self.model.selected is not None:
                self.model.select(None)
                self._sync_model()
            elif self.menu is not None:
                self.window.show_view(self.menu)
        return None

    def on_key_release(self, symbol: int, modifiers: int) -> bool | None:
        self.keys.discard(symbol)
        return None


def snapshot(view: MapView) -> Image.Image:
    """The view's current frame as a PIL image (for tools and tests)."""
    view.window.clear()
    view.on_draw()
    return arcade.get_image(0, 0, view.window.width, view.window.height)
