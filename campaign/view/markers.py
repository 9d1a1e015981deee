"""The map's marker textures, drawn once with PIL (supersampled) and kept.

A city is a white disc ringed in its owner's ink; a provincial capital a larger
disc with a double ring and a dot; an income city a capital with a gold ring; a
port adds an anchor, a colony site a small pennant; a region is a small
diamond; a mountain pass the cartographer's ``)(``.  Forces are counters.
"""

from __future__ import annotations

import functools
import math

import arcade
from PIL import Image, ImageDraw

from campaign.view.palette import CITY_CENTRE, GOLD, LINK_INK, OWNER_INK, PARCHMENT, RED, TERRAIN_INK, OwnerKind

SIZE = 64  # texture pixels
_SS = 4  # supersampling


def _canvas() -> tuple[Image.Image, ImageDraw.ImageDraw, float]:
    img = Image.new("RGBA", (SIZE * _SS, SIZE * _SS), (0, 0, 0, 0))
    return img, ImageDraw.Draw(img), SIZE * _SS / 2


def _done(img: Image.Image, name: str) -> arcade.Texture:
    small = img.resize((SIZE, SIZE), Image.Resampling.LANCZOS)
    return arcade.Texture(small, hash=f"campaign-marker-{name}")


@functools.cache
def city_texture(owner: OwnerKind, capital: bool, income: bool) -> arcade.Texture:
    img, d, c = _canvas()
    ink = OWNER_INK[owner]
    r = c * 0.92
    if income:
        d.ellipse([c - r, c - r, c + r, c + r], fill=(*GOLD, 255), outline=(90, 60, 20, 255), width=_SS * 2)
        r *= 0.74
    if capital:
        d.ellipse([c - r, c - r, c + r, c + r], fill=(*ink, 255))
        r2 = r * 0.72
        d.ellipse([c - r2, c - r2, c + r2, c + r2], fill=(*CITY_CENTRE, 255))
        r3 = r * 0.3
        d.ellipse([c - r3, c - r3, c + r3, c + r3], fill=(*ink, 255))
    else:
        d.ellipse([c - r, c - r, c + r, c + r], fill=(*ink, 255))
        r2 = r * 0.62
        d.ellipse([c - r2, c - r2, c + r2, c + r2], fill=(*CITY_CENTRE, 255))
    return _done(img, f"city-{owner}-{capital}-{income}")


@functools.cache
def region_texture(owner: OwnerKind) -> arcade.Texture:
    img, d, c = _canvas()
    ink = OWNER_INK[owner]
    r = c * 0.7
    d.polygon([(c, c - r), (c + r, c), (c, c + r), (c - r, c)], fill=(*ink, 200), outline=(40, 30, 24, 220))
    return _done(img, f"region-{owner}")


@functools.cache
def pass_texture() -> arcade.Texture:
    img, d, c = _canvas()
    ink = TERRAIN_INK["mountains"] + (255,)
    r = c * 0.9
    w = _SS * 5
    d.arc([c - 2.2 * r, c - r, c - 0.25 * r, c + r], -60, 60, fill=ink, width=w)
    d.arc([c + 0.25 * r, c - r, c + 2.2 * r, c + r], 120, 240, fill=ink, width=w)
    return _done(img, "pass")


@functools.cache
def anchor_texture() -> arcade.Texture:
    img, d, c = _canvas()
    ink = (30, 58, 100, 255)
    w = _SS * 5
    r = c * 0.62
    d.line([(c, c - r * 1.2), (c, c + r)], fill=ink, width=w)
    d.line([(c - r * 0.55, c - r * 0.55), (c + r * 0.55, c - r * 0.55)], fill=ink, width=w)
    d.arc([c - r, c, c + r, c + r * 1.25], 10, 170, fill=ink, width=w)
    d.ellipse([c - r * 0.28, c - r * 1.5, c + r * 0.28, c - r * 0.95], outline=ink, width=w)
    return _done(img, "anchor")


@functools.cache
def colony_texture() -> arcade.Texture:
    img, d, c = _canvas()
    ink = (40, 30, 24, 255)
    w = _SS * 4
    x0 = c - c * 0.5
    d.line([(x0, c - c * 0.9), (x0, c + c * 0.9)], fill=ink, width=w)
    d.polygon([(x0, c - c * 0.9), (x0 + c * 1.2, c - c * 0.55), (x0, c - c * 0.2)], fill=(60, 120, 70, 255))
    return _done(img, "colony")


@functools.cache
def counter_texture(owner: OwnerKind, leader: bool) -> arcade.Texture:
    img, d, c = _canvas()
    ink = OWNER_INK[owner]
    r = c * 0.9
    d.rounded_rectangle(
        [c - r, c - r * 0.8, c + r, c + r * 0.8],
        radius=_SS * 6,
        fill=(*ink, 255),
        outline=(20, 14, 10, 255),
        width=_SS * 2,
    )
    i = r * 0.7
    d.rectangle([c - i, c - i * 0.65, c + i, c + i * 0.65], outline=(*PARCHMENT, 255), width=_SS * 3)
    d.line([(c - i, c - i * 0.65), (c + i, c + i * 0.65)], fill=(*PARCHMENT, 255), width=_SS * 3)
    d.line([(c - i, c + i * 0.65), (c + i, c - i * 0.65)], fill=(*PARCHMENT, 255), width=_SS * 3)
    if leader:
        d.polygon([(c - r, c - r * 0.8), (c - r * 0.45, c - r * 0.8), (c - r, c - r * 0.25)], fill=(*GOLD, 255))
    return _done(img, f"counter-{owner}-{leader}")


def _symbol(d: ImageDraw.ImageDraw, c: float, symbol: str, ink: tuple[int, int, int, int]) -> None:
    """The branch symbol inside a counter (NATO-like: a frame with an X for heavy foot, one
    diagonal for horse, a bow for light foot; a galley, a star, a tower, a crown)."""
    w = _SS * 3
    i = c * 0.62
    fx0, fy0, fx1, fy1 = c - i, c - i * 0.62, c + i, c + i * 0.62
    if symbol in ("legion", "cavalry", "auxilia", "client"):
        d.rectangle([fx0, fy0, fx1, fy1], outline=ink, width=w)
    if symbol in ("legion", "client"):
        d.line([(fx0, fy0), (fx1, fy1)], fill=ink, width=w)
        d.line([(fx0, fy1), (fx1, fy0)], fill=ink, width=w)
    elif symbol == "cavalry":
        d.line([(fx0, fy1), (fx1, fy0)], fill=ink, width=w)
    elif symbol == "auxilia":
        d.arc([c - i * 0.9, fy0 + w, c + i * 0.3, fy1 - w], 270, 90, fill=ink, width=w)
        d.line([(c - i * 0.3, fy0 + w * 1.2), (c - i * 0.3, fy1 - w * 1.2)], fill=ink, width=_SS * 2)
        d.line([(c - i * 0.55, c), (c + i * 0.65, c)], fill=ink, width=_SS * 2)
    elif symbol == "fleet":
        d.polygon(
            [(c - i, c + i * 0.15), (c + i, c + i * 0.15), (c + i * 0.6, c + i * 0.6), (c - i * 0.6, c + i * 0.6)],
            fill=ink,
        )
        d.line([(c, c + i * 0.15), (c, c - i * 0.75)], fill=ink, width=w)
        d.polygon([(c + _SS, c - i * 0.7), (c + i * 0.65, c - i * 0.05), (c + _SS, c - i * 0.05)], fill=ink)
    elif symbol == "leader":
        pts = []
        for k in range(10):
            r = i * (0.85 if k % 2 == 0 else 0.36)
            a = math.pi / 2 + k * math.pi / 5
            pts.append((c + r * math.cos(a), c - r * math.sin(a)))
        d.polygon(pts, fill=ink)
    elif symbol == "garrison":
        t0, t1 = c - i * 0.5, c + i * 0.5
        d.rectangle([t0, c - i * 0.35, t1, c + i * 0.7], fill=ink)
        m = (t1 - t0) / 5
        for k in (0, 2, 4):
            d.rectangle([t0 + k * m, c - i * 0.7, t0 + (k + 1) * m, c - i * 0.3], fill=ink)
    if symbol == "client":  # a crown over the frame
        y = fy0 - _SS
        d.polygon(
            [
                (c - i * 0.45, y),
                (c - i * 0.45, y - i * 0.32),
                (c - i * 0.22, y - i * 0.12),
                (c, y - i * 0.4),
                (c + i * 0.22, y - i * 0.12),
                (c + i * 0.45, y - i * 0.32),
                (c + i * 0.45, y),
            ],
            fill=(*GOLD, 255),
        )


@functools.cache
def symbol_counter_texture(owner: OwnerKind, symbol: str, leader: bool) -> arcade.Texture:
    """A force counter: the owner's colour, the branch symbol in parchment (``_symbol``), a
    gold corner for a force under a named commander.  A fleet's counter is rounder, a
    garrison's square, a client's has cut corners: told apart by outline as well."""
    img, d, c = _canvas()
    ink = OWNER_INK[owner]
    r = c * 0.92
    box = [c - r, c - r * 0.8, c + r, c + r * 0.8]
    line = (20, 14, 10, 255)
    if symbol == "fleet":
        d.rounded_rectangle(box, radius=r * 0.7, fill=(*ink, 255), outline=line, width=_SS * 2)
    elif symbol == "garrison":
        d.rectangle(
            [c - r * 0.85, c - r * 0.85, c + r * 0.85, c + r * 0.85], fill=(*ink, 255), outline=line, width=_SS * 2
        )
    elif symbol == "client":
        k = r * 0.32
        x0, y0, x1, y1 = box
        d.polygon(
            [
                (x0 + k, y0),
                (x1 - k, y0),
                (x1, y0 + k),
                (x1, y1 - k),
                (x1 - k, y1),
                (x0 + k, y1),
                (x0, y1 - k),
                (x0, y0 + k),
            ],
            fill=(*ink, 255),
            outline=line,
            width=_SS * 2,
        )
    else:
        d.rounded_rectangle(box, radius=_SS * 5, fill=(*ink, 255), outline=line, width=_SS * 2)
    _symbol(d, c, symbol, (*PARCHMENT, 255))
    if leader and symbol != "leader":
        d.polygon([(c - r, c - r * 0.8), (c - r * 0.45, c - r * 0.8), (c - r, c - r * 0.25)], fill=(*GOLD, 255))
    return _done(img, f"force-{owner}-{symbol}-{leader}")


@functools.cache
def select_ring_texture() -> arcade.Texture:
    img, d, c = _canvas()
    r = c * 0.95
    d.ellipse([c - r, c - r, c + r, c + r], outline=(255, 214, 64, 255), width=_SS * 5)
    r2 = r - _SS * 5
    d.ellipse([c - r2, c - r2, c + r2, c + r2], outline=(*RED, 255), width=_SS * 2)
    return _done(img, "select-ring")


@functools.cache
def cost_disc_texture(kind: str) -> arcade.Texture:
    """The disc a link's cost is written on, ringed in the link's colour."""
    img, d, c = _canvas()
    r = c * 0.94
    d.ellipse([c - r, c - r, c + r, c + r], fill=(*LINK_INK.get(kind, RED), 255))
    r2 = r * 0.8
    d.ellipse([c - r2, c - r2, c + r2, c + r2], fill=(252, 248, 236, 255))
    return _done(img, f"cost-{kind}")
