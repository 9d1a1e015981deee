"""The map's ground, rasterised once with PIL: sea, land tinted by owner, coasts,
terrain marks and the blank country beyond the spaces.

Pure Python and PIL (no numpy, no arcade).  The cells come from
``campaign.view.geometry``; the coast is their land/sea boundary, softened by a
blur and a threshold so it reads as a shoreline rather than a polygon.  The
image covers ``geometry.bounds`` at ``texels_per_unit`` texels per world unit;
the window stretches it over the same world rectangle.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from campaign.view.geometry import MapGeometry, Point
from campaign.view.palette import (
    COAST_INK,
    OWNER_FILL,
    PAPER,
    PAPER_DARK,
    SEA_DEEP,
    SEA_SHALLOW,
    TERRAIN_INK,
    owner_kind,
)

Color = tuple[int, int, int]


def _to_px(geo: MapGeometry, tpu: float, p: Point) -> tuple[float, float]:
    left, _, _, top = geo.bounds
    return (p[0] - left) * tpu, (top - p[1]) * tpu


def image_size(geo: MapGeometry, tpu: float) -> tuple[int, int]:
    left, right, bottom, top = geo.bounds
    return max(1, math.ceil((right - left) * tpu)), max(1, math.ceil((top - bottom) * tpu))


def _fill(size: tuple[int, int], color: Color) -> Image.Image:
    return Image.new("RGB", size, color)


def _threshold(img: Image.Image, level: int) -> Image.Image:
    return img.point(lambda v: 255 if v >= level else 0)


def render_ground(geo: MapGeometry, owners: Mapping[str, str], texels_per_unit: float = 1.0) -> Image.Image:
    """The ground image (RGBA) for ``owners`` (space id -> owner id)."""
    tpu = texels_per_unit
    size = image_size(geo, tpu)
    world = geo.world
    land_raw = Image.new("L", size, 0)
    sea_raw = Image.new("L", size, 0)
    tint = _fill(size, PAPER)
    d_land, d_sea, d_tint = ImageDraw.Draw(land_raw), ImageDraw.Draw(sea_raw), ImageDraw.Draw(tint)
    for cell in geo.cells:
        site = geo.sites[cell.site]
        pts = [_to_px(geo, tpu, p) for p in cell.polygon]
        if len(pts) < 3:
            continue
        if site.kind == "land":
            d_land.polygon(pts, fill=255)
            kind = owner_kind(world, owners.get(site.place, world.spaces[site.place].owner))
            d_tint.polygon(pts, fill=OWNER_FILL[kind])
        else:
            d_sea.polygon(pts, fill=255)
    soft = max(2, round(5 * tpu))
    land = _threshold(land_raw.filter(ImageFilter.GaussianBlur(soft)), 128)
    sea = ImageChops.subtract(_threshold(sea_raw.filter(ImageFilter.GaussianBlur(soft)), 40), land)

    # the sea: shallow along the coast, deep offshore
    near = land.filter(ImageFilter.GaussianBlur(max(3, round(14 * tpu))))
    water = Image.composite(_fill(size, SEA_SHALLOW), _fill(size, SEA_DEEP), near.point(lambda v: min(255, v * 3)))
    # the unknown beyond: paper, darker toward the edge of the known
    beyond = Image.composite(
        _fill(size, PAPER_DARK), _fill(size, PAPER), land.filter(ImageFilter.GaussianBlur(soft * 3))
    )

    _terrain_marks(geo, tint, tpu)
    ground = Image.composite(tint, beyond, land)
    ground = Image.composite(water, ground, sea)
    # the shoreline: a dark ink line where land meets sea, and a pale wash just offshore
    ring = ImageChops.subtract(land.filter(ImageFilter.MaxFilter(3)), land)
    wash = ImageChops.subtract(land.filter(ImageFilter.MaxFilter(7)), land)
    wash = ImageChops.multiply(wash, sea).filter(ImageFilter.GaussianBlur(1.5))
    ground = Image.composite(_fill(size, (196, 214, 214)), ground, wash.point(lambda v: v // 2))
    ground = Image.composite(_fill(size, COAST_INK), ground, ring.filter(ImageFilter.GaussianBlur(0.6)))
    return ground.convert("RGBA")


def _terrain_marks(geo: MapGeometry, img: Image.Image, tpu: float) -> None:
    """Small map symbols for each space's terrain, placed inside its own cell."""
    draw = ImageDraw.Draw(img)
    k = geo.projection.scale * tpu
    # positions around the space's site, in degrees (left clear where the marker sits)
    ring = [(-0.55, 0.3), (0.5, 0.35), (-0.45, -0.4), (0.45, -0.35), (0.0, 0.65), (0.05, -0.7), (-0.9, 0.0), (0.9, 0.0)]
    for cell in geo.cells:
        site = geo.sites[cell.site]
        if site.kind != "land" or not site.main:
            continue
        space = geo.world.spaces[site.place]
        if space.terrain == "clear":
            continue
        ink = TERRAIN_INK[space.terrain]
        for dx, dy in ring:
            p = (site.x + dx * geo.projection.scale, site.y + dy * geo.projection.scale)
            if not _inside(cell.polygon, p):
                continue
            x, y = _to_px(geo, tpu, p)
            s = 0.2 * k
            if space.terrain == "mountains":
                draw.line(
                    [(x - s, y + s * 0.6), (x, y - s * 0.6), (x + s, y + s * 0.6)],
                    fill=ink,
                    width=max(1, round(k / 20)),
                )
                draw.line([(x - s * 0.2, y - s * 0.2), (x + s * 0.3, y + s * 0.1)], fill=ink, width=1)
            elif space.terrain == "hills":
                draw.arc([x - s, y - s * 0.5, x + s, y + s * 0.9], 200, 340, fill=ink, width=max(1, round(k / 28)))
            elif space.terrain == "forest":
                r = s * 0.45
                draw.ellipse([x - r, y - r * 1.3, x + r, y + r * 0.7], outline=ink, width=1)
                draw.line([(x, y + r * 0.7), (x, y + r * 1.5)], fill=ink, width=1)
            elif space.terrain == "marsh":
                for j in (-1, 0, 1):
                    w = s * (0.9 - 0.25 * abs(j))
                    draw.line([(x - w, y + j * s * 0.35), (x + w, y + j * s * 0.35)], fill=ink, width=1)
            elif space.terrain == "desert":
                for j in range(5):
                    a = j * 2.4
                    draw.point((x + math.cos(a) * s * 0.7, y + math.sin(a) * s * 0.5), fill=ink)
                draw.arc([x - s, y - s * 0.3, x + s, y + s * 0.5], 200, 340, fill=ink, width=1)


def _inside(poly: list[Point], p: Point) -> bool:
    """Is ``p`` inside the convex polygon ``poly`` (counter-clockwise)?"""
    n = len(poly)
    if n < 3:
        return False
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        if (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) < 0:
            return False
    return True
