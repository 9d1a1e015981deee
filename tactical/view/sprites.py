"""Counter, leader and facing-marker textures, drawn once with PIL and cached, and the
sprite layer that shows them.

A counter is keyed by what it shows — (type, side, status, size, TQ, MA, double, missile
hits, reduced) — so a whole army needs a handful of textures, which arcade packs in one
atlas and the sprite list draws in one call.  The counter follows the GBoH layout: the
type and its symbol in the middle, size top-left, TQ bottom-left, MA bottom-right; missile
hits in a black disc on the left; a reduced counter (charts-v1) carries a white band along
its top; a disordered unit a yellow DISORDERED band; a routed one is shown on its pale
reverse with ROUTED across it.

``CounterLayer.sync`` re-reads the model after every change and touches only the sprites
whose counter, place or facing changed (a move updates one sprite, not the army).
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import arcade
from PIL import Image, ImageDraw, ImageFont

from tactical.state import State
from tactical.view.geometry import HexLayout
from tactical.view.palette import SIDE_DARK, SIDE_FILL, SIDE_INK
from tactical.view.words import token_names

PX = 80  # texture pixels per counter height (drawn scaled to the hex)
#: counter height in hex circumradii, and the facing notch's distance from the centre
COUNTER = 1.26
NOTCH = 0.86
_FONT_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf"

MOUNTED = frozenset({"HC", "RC", "BC", "LN", "LC", "HA", "CAT"})
LIGHT = frozenset({"SK", "SK*", "LI", "LP"})


@cache
def _font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.truetype(_FONT_BOLD if bold else _FONT, size)
    except OSError:
        return ImageFont.load_default(size)


def _symbol(draw: ImageDraw.ImageDraw, utype: str, box: tuple[int, int, int, int], ink: tuple[int, int, int]) -> None:
    """A NATO-style symbol in ``box``: X infantry, / cavalry, both for lancers, a dot for
    light troops (beside the box), an elephant's trunk arc, a wheel for chariots and artillery."""
    x0, y0, x1, y1 = box
    draw.rectangle(box, outline=ink, width=2)
    if utype in MOUNTED:
        draw.line((x0, y1, x1, y0), fill=ink, width=2)
        if utype == "LN":
            draw.line((x0, y0, x1, y1), fill=ink, width=2)
    elif utype == "EL":
        draw.arc((x0 + 5, y0 + 4, x1 - 5, y1 + 10), 180, 360, fill=ink, width=3)
    elif utype in ("CH", "AT"):
        cx, cy, r = (x0 + x1) // 2, (y0 + y1) // 2, (y1 - y0) // 2 - 2
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ink, width=2)
    else:
        draw.line((x0, y0, x1, y1), fill=ink, width=2)
        draw.line((x0, y1, x1, y0), fill=ink, width=2)
    if utype in LIGHT:  # light troops: a dot beside the symbol
        cy = (y0 + y1) // 2
        draw.ellipse((x1 + 3, cy - 4, x1 + 11, cy + 4), fill=ink)


def counter_image(
    utype: str,
    side: str,
    status: str,
    size: int,
    tq: int,
    ma: int,
    double: bool,
    hits: int = 0,
    reduced: bool = False,
) -> Image.Image:
    k = PX / 64
    w = PX * 2 if double else PX
    h = PX
    routed = status == "routed"
    fill = (226, 214, 196) if routed else SIDE_FILL.get(side, (120, 120, 120))
    dark = SIDE_DARK.get(side, (40, 40, 40))
    ink = dark if routed else SIDE_INK.get(side, (250, 250, 250))
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((1, 1, w - 2, h - 2), radius=round(6 * k), fill=fill, outline=(20, 14, 10), width=2)
    d.rounded_rectangle((4, 4, w - 5, h - 5), radius=round(4 * k), outline=dark if not routed else ink, width=1)
    if reduced:
        d.rectangle((5, 5, w - 6, round(9 * k)), fill=(250, 246, 236))
    f_big, f_small = _font(round(15 * k)), _font(round(14 * k))
    d.text((w / 2, 13 * k), utype, font=f_big, fill=ink, anchor="mm")
    sym_w = round((26 if not double else 44) * k)
    _symbol(d, utype, (int(w / 2 - sym_w / 2), round(23 * k), int(w / 2 + sym_w / 2), round(41 * k)), ink)
    d.text((6 * k, 6 * k), str(size), font=f_small, fill=ink, anchor="lt")
    d.text((6 * k, h - 5 * k), str(tq), font=f_small, fill=ink, anchor="lb")
    d.text((w - 6 * k, h - 5 * k), str(ma), font=f_small, fill=ink, anchor="rb")
    if hits:
        cx, cy, r = 10 * k, 32 * k, 8 * k
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(16, 12, 10), outline=(250, 220, 90), width=2)
        d.text((cx, cy), str(hits), font=_font(round(11 * k)), fill=(250, 220, 90), anchor="mm")
    if status == "disordered":
        d.rectangle((3, h - 26 * k, w - 4, h - 17 * k), fill=(246, 206, 40))
        d.text((w / 2, h - 21.5 * k), "DISORD", font=_font(round(8 * k)), fill=(40, 20, 0), anchor="mm")
    if routed:
        d.rectangle((3, 26 * k, w - 4, 39 * k), fill=(120, 20, 20))
        d.text((w / 2, 32.5 * k), "ROUTED", font=_font(round(10 * k)), fill=(250, 240, 220), anchor="mm")
    return img


@cache
def counter_texture(
    utype: str,
    side: str,
    status: str,
    size: int,
    tq: int,
    ma: int,
    double: bool,
    hits: int = 0,
    reduced: bool = False,
) -> arcade.Texture:
    key = f"tac-counter-{utype}-{side}-{status}-{size}-{tq}-{ma}-{int(double)}-{hits}-{int(reduced)}-{PX}"
    return arcade.Texture(counter_image(utype, side, status, size, tq, ma, double, hits, reduced), hash=key)


@cache
def leader_texture(name: str, side: str, initiative: int, rng: int, overall: bool, active: bool) -> arcade.Texture:
    """A round leader token: the name as ``words.abbreviate`` writes it (whole, in the
    largest font that fits the disc), Initiative · command range."""
    s = 56
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    ring = (236, 196, 80) if overall else (236, 222, 190)
    if active:
        d.ellipse((0, 0, s - 1, s - 1), fill=(255, 240, 120))
    d.ellipse((3, 3, s - 4, s - 4), fill=SIDE_DARK.get(side, (40, 40, 40)), outline=ring, width=3)
    size = 12
    while size > 7 and d.textlength(name, font=_font(size)) > s - 12:
        size -= 1
    d.text((s / 2, 19), name, font=_font(size), fill=ring, anchor="mm")
    d.text((s / 2, 38), f"{initiative}·{rng}", font=_font(13, bold=False), fill=(250, 244, 230), anchor="mm")
    return arcade.Texture(img, hash=f"tac-leader-{name}-{side}-{initiative}-{rng}-{int(overall)}-{int(active)}")


@cache
def label_texture(text: str) -> arcade.Texture:
    """A movement-cost figure (drawn at twice its size on the map, for zooming in)."""
    font = _font(22)
    left, top, right, bottom = (round(v) for v in font.getbbox(text))
    img = Image.new("RGBA", (right - left + 6, bottom - top + 6), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((3 - left, 3 - top), text, font=font, fill=(30, 20, 10, 255))
    return arcade.Texture(img, hash=f"tac-label-{text}")


@cache
def facing_texture() -> arcade.Texture:
    """The facing notch: a filled triangle pointing right (rotated to the facing vertex)."""
    img = Image.new("RGBA", (16, 16), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.polygon([(1, 1), (15, 8), (1, 15)], fill=(250, 236, 120), outline=(20, 14, 10))
    return arcade.Texture(img, hash="tac-facing")


class CounterLayer:
    """Every counter, facing notch and leader token in one sprite list, synced from the model.

    Each piece keeps its sprite between syncs; a sync compares what each piece shows
    (texture, place, facing) with what its sprite shows and changes only the differences."""

    def __init__(self, layout: HexLayout) -> None:
        self.layout = layout
        self.sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._shown: dict[str, tuple[Any, list[arcade.Sprite]]] = {}
        #: sprites touched by the last sync (for tests and the benchmark)
        self.changed = 0

    def sync(self, state: State) -> int:
        lay = self.layout
        scale = lay.size * COUNTER / PX
        wanted: dict[str, Any] = {}
        stacked: dict[int, int] = {}
        for u in sorted(state.units.values(), key=lambda u: u.id):
            if not u.on_map:
                continue
            k = stacked.get(u.hex, 0)
            stacked[u.hex] = k + 1
            tex = (u.type, u.side, u.status, u.size, u.tq, u.ma, u.double, min(u.missile_hits, 9), u.reduced)
            wanted["u:" + u.id] = ("unit", tex, u.hex, u.hex2, u.facing, k)
        activated = state.seq.leader
        names = token_names(state.leaders)
        leaders_in: dict[int, int] = {}
        for ld in sorted(state.leaders.values(), key=lambda ld: ld.id):
            if ld.on_map:
                k = leaders_in.get(ld.hex, 0)
                leaders_in[ld.hex] = k + 1
                wanted["l:" + ld.id] = (
                    "leader",
                    (names[ld.id], ld.side, ld.initiative, ld.range, ld.overall, ld.id == activated),
                    ld.hex,
                    k,
                )
        changed = 0
        for key in [k for k in self._shown if k not in wanted]:
            for s in self._shown.pop(key)[1]:
                self.sprites.remove(s)
            changed += 1
        for key, what in wanted.items():
            old = self._shown.get(key)
            if old is not None and old[0] == what:
                continue
            sprites = old[1] if old is not None else []
            if what[0] == "unit":
                sprites = self._unit_sprites(what, sprites, scale)
            else:
                sprites = self._leader_sprites(what, sprites)
            self._shown[key] = (what, sprites)
            changed += 1
        self.changed = changed
        return changed

    def _unit_sprites(self, what: Any, sprites: list[arcade.Sprite], scale: float) -> list[arcade.Sprite]:
        lay = self.layout
        _, tex, h1, h2, facing, k = what
        hexes = (h1, h2) if h2 >= 0 else (h1,)
        if len(sprites) != 1 + len(hexes):
            for s in sprites:
                self.sprites.remove(s)
            sprites = [arcade.Sprite(counter_texture(*tex), scale=scale)]
            sprites += [arcade.Sprite(facing_texture(), scale=0.9) for _ in hexes]
            for s in sprites:
                self.sprites.append(s)
        counter = sprites[0]
        counter.texture = counter_texture(*tex)
        counter.scale = scale
        if h2 >= 0:
            (x1, y1), (x2, y2) = lay.centre(h1), lay.centre(h2)
            counter.position = ((x1 + x2) / 2, (y1 + y2) / 2)
            counter.angle = -math.degrees(math.atan2(y2 - y1, x2 - x1))
        else:
            x, y = lay.centre(h1)
            counter.position = (x + 5 * k, y - 5 * k)
            counter.angle = 0
        for notch, h in zip(sprites[1:], hexes, strict=True):
            notch.position = lay.vertex(h, facing, NOTCH)
            notch.angle = -(90 - 60 * facing)
        return sprites

    def _leader_sprites(self, what: Any, sprites: list[arcade.Sprite]) -> list[arcade.Sprite]:
        lay = self.layout
        _, tex, h, k = what
        if not sprites:
            sprites = [arcade.Sprite(leader_texture(*tex), scale=0.55)]
            self.sprites.append(sprites[0])
        s = sprites[0]
        s.texture = leader_texture(*tex)
        x, y = lay.centre(h)
        # over the counter's top-right corner; a second leader in the hex below the first
        s.position = (x + lay.size * 0.6, y + lay.size * (0.5 - 0.55 * k))
        return sprites

    def draw(self) -> None:
        self.sprites.draw()
