"""Counter, leader and facing-marker textures, drawn once with PIL and cached.

A counter is keyed by what it shows — (type, side, status, size, TQ, MA, double) —
so a whole army needs a handful of textures, which arcade packs in one atlas and
the sprite list draws in one call.  The counter follows the GBoH layout: the type
and its symbol in the middle, size top-left, TQ bottom-left, MA bottom-right; a
disordered unit carries a yellow DISORDERED band, a routed one is shown on its
pale reverse with ROUTED across it.
"""

from __future__ import annotations

from functools import cache

import arcade
from PIL import Image, ImageDraw, ImageFont

from tactical.view.palette import SIDE_DARK, SIDE_FILL, SIDE_INK

PX = 64  # texture pixels per counter height (drawn scaled to the hex)
_FONT_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf"

MOUNTED = frozenset({"HC", "RC", "BC", "LN", "LC"})
LIGHT = frozenset({"SK", "SK*", "LI", "LP"})


@cache
def _font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.truetype(_FONT_BOLD if bold else _FONT, size)
    except OSError:
        return ImageFont.load_default(size)


def _symbol(draw: ImageDraw.ImageDraw, utype: str, box: tuple[int, int, int, int], ink: tuple[int, int, int]) -> None:
    """A NATO-style symbol in ``box``: X infantry, / cavalry, both for lancers, a dot for
    light troops, an elephant's trunk arc, a wheel for chariots and artillery."""
    x0, y0, x1, y1 = box
    draw.rectangle(box, outline=ink, width=2)
    if utype in MOUNTED:
        draw.line((x0, y1, x1, y0), fill=ink, width=2)
        if utype == "LN":
            draw.line((x0, y0, x1, y1), fill=ink, width=2)
    elif utype == "EL":
        draw.arc((x0 + 4, y0 + 3, x1 - 4, y1 + 8), 180, 360, fill=ink, width=3)
    elif utype in ("CH", "AT"):
        cx, cy, r = (x0 + x1) // 2, (y0 + y1) // 2, (y1 - y0) // 2 - 2
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ink, width=2)
    else:
        draw.line((x0, y0, x1, y1), fill=ink, width=2)
        draw.line((x0, y1, x1, y0), fill=ink, width=2)
    if utype in LIGHT:
        cx = (x0 + x1) // 2
        draw.ellipse((cx - 3, y0 - 9, cx + 3, y0 - 3), fill=ink)


def counter_image(utype: str, side: str, status: str, size: int, tq: int, ma: int, double: bool) -> Image.Image:
    w = PX * 2 if double else PX
    h = PX
    routed = status == "routed"
    fill = (226, 214, 196) if routed else SIDE_FILL[side]
    ink = SIDE_DARK[side] if routed else SIDE_INK[side]
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((1, 1, w - 2, h - 2), radius=6, fill=fill, outline=(20, 14, 10), width=2)
    d.rounded_rectangle((4, 4, w - 5, h - 5), radius=4, outline=SIDE_DARK[side] if not routed else ink, width=1)
    f_big, f_small = _font(15), _font(13)
    d.text((w / 2, 12), utype, font=f_big, fill=ink, anchor="mm")
    sym_w = 26 if not double else 44
    _symbol(d, utype, (int(w / 2 - sym_w / 2), 22, int(w / 2 + sym_w / 2), 40), ink)
    d.text((7, 6), str(size), font=f_small, fill=ink, anchor="lt")
    d.text((7, h - 6), str(tq), font=f_small, fill=ink, anchor="lb")
    d.text((w - 7, h - 6), str(ma), font=f_small, fill=ink, anchor="rb")
    if status == "disordered":
        d.rectangle((3, h - 25, w - 4, h - 18), fill=(246, 206, 40))
        d.text((w / 2, h - 21), "DISORD", font=_font(8), fill=(40, 20, 0), anchor="mm")
    if routed:
        d.rectangle((3, 26, w - 4, 38), fill=(120, 20, 20))
        d.text((w / 2, 32), "ROUTED", font=_font(10), fill=(250, 240, 220), anchor="mm")
    return img


@cache
def counter_texture(utype: str, side: str, status: str, size: int, tq: int, ma: int, double: bool) -> arcade.Texture:
    key = f"tac-counter-{utype}-{side}-{status}-{size}-{tq}-{ma}-{int(double)}"
    return arcade.Texture(counter_image(utype, side, status, size, tq, ma, double), hash=key)


@cache
def leader_texture(name: str, side: str, initiative: int, rng: int, overall: bool, active: bool) -> arcade.Texture:
    """A round leader token: the name's first letters, Initiative and command range."""
    s = 44
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    ring = (236, 196, 80) if overall else (236, 222, 190)
    if active:
        d.ellipse((0, 0, s - 1, s - 1), fill=(255, 240, 120))
    d.ellipse((2, 2, s - 3, s - 3), fill=SIDE_DARK[side], outline=ring, width=3)
    d.text((s / 2, 15), name[:4], font=_font(11), fill=ring, anchor="mm")
    d.text((s / 2, 31), f"{initiative}·{rng}", font=_font(10, bold=False), fill=(250, 244, 230), anchor="mm")
    return arcade.Texture(img, hash=f"tac-leader-{name}-{side}-{initiative}-{rng}-{int(overall)}-{int(active)}")


@cache
def facing_texture() -> arcade.Texture:
    """The facing notch: a filled triangle pointing right (rotated to the facing vertex)."""
    img = Image.new("RGBA", (16, 16), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.polygon([(1, 1), (15, 8), (1, 15)], fill=(250, 236, 120), outline=(20, 14, 10))
    return arcade.Texture(img, hash="tac-facing")
