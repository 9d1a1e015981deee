"""The shapes of the campaign map, derived from the graph alone.

The map file has no coastlines: only positions (``campaign-map.md §1``).  The
window draws land and sea honestly from what the graph knows:

* every land space is a **land site** at its position; every road or
  cross-country edge between two spaces on the map adds land sites along it
  (an army marches there, so it is land), each belonging to the nearer end;
* every sea zone is a **sea site** at its centre; every sea lane from a port
  adds sea sites along it, starting a short way off the port (a fleet sails
  there, so it is sea), and so does every lane between two zones and the middle
  of every strait — each belonging to its zone;
* a place on the map is land or sea by its nearest site (a Voronoi diagram),
  clipped to a radius around each site, so that country far from every space
  is left blank — *terra incognita* — rather than invented.

The cells of one space make its area on the map; borders between areas of
different provinces are province borders, between sea sites of different zones
sea-zone borders.  Pure geometry, no arcade: the window, the rasteriser and the
tests share it.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Literal

from campaign.map import CampaignMap, roman_world
from campaign.projection import Projection, fitted

Point = tuple[float, float]
SiteKind = Literal["land", "sea"]

#: the distances below are in degrees of latitude; they are multiplied by the projection's scale
LAND_RADIUS_DEG = 1.9  # how far from its sites a space's area may reach
EDGE_SAMPLE_STEP_DEG = 0.55  # spacing of the land sites along a land edge
PORT_OFFSET_DEG = 0.28  # the first sea site off a port (so the coast runs about half as far off)
LANE_SAMPLE_STEP_DEG = 0.7  # spacing of the sea sites along a lane
LANE_RADIUS_DEG = 1.4  # how far a lane's sea site reaches
KEEP_CLEAR_DEG = 0.22  # no sea site this close to a land space (other than its own port)
STRAIT_RADIUS_DEG = 0.35
ZONE_RADIUS_MIN_DEG = 2.0
ZONE_RADIUS_MAX_DEG = 3.4
CIRCLE_SIDES = 20


@dataclass(frozen=True, slots=True)
class Site:
    """A Voronoi site: a point that belongs to a land space or a sea zone."""

    x: float
    y: float
    kind: SiteKind
    place: str  # the land space's or sea zone's id
    radius: float  # the cell is clipped to this distance (world units)
    main: bool  # the place's own position (not a sample along an edge or lane)


@dataclass(slots=True)
class Cell:
    """The convex area nearest to one site: ``polygon`` in order, and for each
    side ``polygon[k] -> polygon[k + 1]`` the index of the site across it
    (``-1`` where the cell is bounded by its radius)."""

    site: int
    polygon: list[Point]
    across: list[int]


@dataclass(frozen=True, slots=True)
class Border:
    """A segment between two cells: ``kind`` says what it separates."""

    a: Point
    b: Point
    kind: Literal["space", "province", "sea_zone", "coast"]


@dataclass(slots=True)
class MapGeometry:
    """Everything the window draws that comes from positions, in world units."""

    world: CampaignMap
    projection: Projection
    sites: list[Site]
    cells: list[Cell]
    borders: list[Border]
    positions: dict[str, Point]  # every place (land, sea, off-map) in world units
    bounds: tuple[float, float, float, float]  # left, right, bottom, top of the drawn map
    _grid: dict[tuple[int, int], list[int]] = field(default_factory=dict)
    _cell_size: float = 1.0

    def pos(self, place: str) -> Point:
        return self.positions[place]

    def nearest_site(self, x: float, y: float) -> int | None:
        """The site whose cell holds (x, y), or ``None`` off every cell."""
        gx, gy = math.floor(x / self._cell_size), math.floor(y / self._cell_size)
        best, best_d = None, math.inf
        for ix in range(gx - 2, gx + 3):
            for iy in range(gy - 2, gy + 3):
                for i in self._grid.get((ix, iy), ()):
                    s = self.sites[i]
                    d = (s.x - x) ** 2 + (s.y - y) ** 2
                    if d < best_d:
                        best, best_d = i, d
        if best is None or best_d > self.sites[best].radius ** 2:
            return None
        return best

    def place_at(self, x: float, y: float) -> str | None:
        """The land space or sea zone whose area holds world point (x, y)."""
        i = self.nearest_site(x, y)
        return None if i is None else self.sites[i].place


# --------------------------------------------------------------------------- Voronoi by clipping


def _clip(poly: list[Point], across: list[int], s: Point, o: Point, other: int) -> tuple[list[Point], list[int]]:
    """Keep the part of convex ``poly`` nearer to ``s`` than to ``o`` (Sutherland–Hodgman,
    carrying the label of each side)."""
    mx, my = (s[0] + o[0]) / 2, (s[1] + o[1]) / 2
    nx, ny = o[0] - s[0], o[1] - s[1]

    def side(p: Point) -> float:  # <= 0: inside (nearer to s)
        return (p[0] - mx) * nx + (p[1] - my) * ny

    out: list[Point] = []
    labels: list[int] = []
    n = len(poly)
    for k in range(n):
        a, b = poly[k], poly[(k + 1) % n]
        da, db = side(a), side(b)
        if da <= 0:
            out.append(a)
            if db <= 0:
                labels.append(across[k])
            else:
                t = da / (da - db)
                out.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
                labels.append(across[k])
                labels.append(other)
        elif db <= 0:
            t = da / (da - db)
            out.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
            labels.append(across[k])
    return out, labels


def voronoi_cells(sites: list[Site]) -> list[Cell]:
    """The cell of every site, clipped to its radius (pure Python, a bucket grid for the
    neighbours; a few hundred sites take a fraction of a second)."""
    if not sites:
        return []
    reach = max(s.radius for s in sites)
    size = reach
    grid: dict[tuple[int, int], list[int]] = {}
    for i, s in enumerate(sites):
        grid.setdefault((math.floor(s.x / size), math.floor(s.y / size)), []).append(i)
    cells = []
    for i, s in enumerate(sites):
        poly = [
            (
                s.x + s.radius * math.cos(2 * math.pi * k / CIRCLE_SIDES),
                s.y + s.radius * math.sin(2 * math.pi * k / CIRCLE_SIDES),
            )
            for k in range(CIRCLE_SIDES)
        ]
        across = [-1] * CIRCLE_SIDES
        gx, gy = math.floor(s.x / size), math.floor(s.y / size)
        others = []
        for ix in (gx - 2, gx - 1, gx, gx + 1, gx + 2):
            for iy in (gy - 2, gy - 1, gy, gy + 1, gy + 2):
                for j in grid.get((ix, iy), ()):
                    if j != i:
                        o = sites[j]
                        d2 = (o.x - s.x) ** 2 + (o.y - s.y) ** 2
                        if d2 < (2 * s.radius) ** 2:
                            others.append((d2, j))
        others.sort()
        for d2, j in others:
            # a bisector farther than the cell's farthest vertex cannot cut it
            far = max((px - s.x) ** 2 + (py - s.y) ** 2 for px, py in poly)
            if d2 / 4 >= far:
                break
            o = sites[j]
            if d2 == 0:
                continue
            poly, across = _clip(poly, across, (s.x, s.y), (o.x, o.y), j)
            if len(poly) < 3:
                break
        cells.append(Cell(i, poly, across))
    return cells


# --------------------------------------------------------------------------- sites from the graph


def _segment_points(a: Point, b: Point, start: float, step: float, stop: float) -> list[Point]:
    """Points along a→b from distance ``start`` every ``step`` up to ``stop`` (world units)."""
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length == 0:
        return []
    out = []
    d = start
    while d <= min(stop, length) + 1e-9:
        t = d / length
        out.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
        d += step
    return out


def build_sites(world: CampaignMap, proj: Projection) -> list[Site]:
    """Land and sea sites derived from the graph (see the module docstring)."""
    k = proj.scale
    pos = {p: proj.to_world(*world.position(p)) for p in world.graph.nodes}
    on_map = set(world.land_spaces())
    land_pts = [pos[p] for p in on_map]
    sites: list[Site] = [Site(*pos[p], "land", p, LAND_RADIUS_DEG * k, True) for p in world.land_spaces()]

    # land along roads and cross-country edges: an army marches there
    for u, v, d in world.graph.edges(data=True):
        if d["kind"] not in ("road", "cross_country") or u not in on_map or v not in on_map:
            continue
        a, b = pos[u], pos[v]
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        step = EDGE_SAMPLE_STEP_DEG * k
        for p in _segment_points(a, b, step, step, length - step * 0.5):
            owner = u if math.dist(p, a) <= math.dist(p, b) else v
            sites.append(Site(p[0], p[1], "land", owner, LAND_RADIUS_DEG * k * 0.8, False))

    clear = KEEP_CLEAR_DEG * k

    def clear_of_land(p: Point, allowed: str = "") -> bool:
        ax, ay = pos[allowed] if allowed else (math.inf, math.inf)
        for lx, ly in land_pts:
            if (lx, ly) != (ax, ay) and (lx - p[0]) ** 2 + (ly - p[1]) ** 2 < clear * clear:
                return False
        return True

    # sea zones: the centre reaches its farthest port
    for z in world.sea_zones():
        c = pos[z]
        ports = world.ports_of(z)
        farthest = max([math.dist(c, pos[p]) for p in ports] + [0.0])
        reach = min(max(farthest * 0.8, ZONE_RADIUS_MIN_DEG * k), ZONE_RADIUS_MAX_DEG * k)
        sites.append(Site(c[0], c[1], "sea", z, reach, True))
    # sea along the lanes: a fleet sails there
    for u, v, d in world.graph.edges(data=True):
        if d["kind"] != "sea_lane":
            continue
        if world.is_sea(u) and world.is_sea(v):
            a, b = pos[u], pos[v]
            length = math.dist(a, b)
            step = LANE_SAMPLE_STEP_DEG * k
            for p in _segment_points(a, b, step, step, length - step * 0.5):
                if clear_of_land(p):
                    zone = u if math.dist(p, a) <= math.dist(p, b) else v
                    sites.append(Site(p[0], p[1], "sea", zone, LANE_RADIUS_DEG * k, False))
            continue
        port, zone = (u, v) if world.is_land(u) else (v, u)
        if port not in on_map:
            continue  # an off-map region's harbour: its box is drawn instead
        a, b = pos[port], pos[zone]
        length = math.dist(a, b)
        offsets = [PORT_OFFSET_DEG * k]
        offsets += [p for p in _frange(offsets[0] + LANE_SAMPLE_STEP_DEG * k, length, LANE_SAMPLE_STEP_DEG * k)]
        for off in offsets:
            if off >= length:
                break
            t = off / length
            p = (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
            if clear_of_land(p, allowed=port):
                sites.append(Site(p[0], p[1], "sea", zone, LANE_RADIUS_DEG * k, False))
    # the middle of a strait is water
    for u, v, d in world.graph.edges(data=True):
        if d["kind"] == "strait":
            m = ((pos[u][0] + pos[v][0]) / 2, (pos[u][1] + pos[v][1]) / 2)
            zones = world.seas_of(u) or world.seas_of(v)
            zone = min(zones, key=lambda z: math.dist(pos[z], m))
            sites.append(Site(m[0], m[1], "sea", zone, STRAIT_RADIUS_DEG * k, False))
    return sites


def _frange(start: float, stop: float, step: float) -> list[float]:
    out = []
    x = start
    while x < stop:
        out.append(x)
        x += step
    return out


def _borders(world: CampaignMap, sites: list[Site], cells: list[Cell]) -> list[Border]:
    out: list[Border] = []
    for cell in cells:
        s = sites[cell.site]
        n = len(cell.polygon)
        for k in range(n):
            j = cell.across[k]
            if j < 0 or j < cell.site:
                continue  # each shared side once (from the lower index)
            o = sites[j]
            a, b = cell.polygon[k], cell.polygon[(k + 1) % n]
            if s.kind != o.kind:
                out.append(Border(a, b, "coast"))
            elif s.place == o.place:
                continue
            elif s.kind == "sea":
                out.append(Border(a, b, "sea_zone"))
            elif world.spaces[s.place].province != world.spaces[o.place].province:
                out.append(Border(a, b, "province"))
            else:
                out.append(Border(a, b, "space"))
    return out


def build_geometry(world: CampaignMap, proj: Projection | None = None) -> MapGeometry:
    """Sites, cells and borders of ``world`` (a fitted projection unless one is given)."""
    projection = proj or fitted(world.position(s) for s in world.land_spaces())
    sites = build_sites(world, projection)
    cells = voronoi_cells(sites)
    positions = {p: projection.to_world(*world.position(p)) for p in world.graph.nodes}
    xs = [x for c in cells for x, _ in c.polygon] + [positions[p][0] for p in positions]
    ys = [y for c in cells for _, y in c.polygon] + [positions[p][1] for p in positions]
    margin = projection.scale * 0.6
    bounds = (min(xs) - margin, max(xs) + margin, min(ys) - margin, max(ys) + margin)
    geo = MapGeometry(world, projection, sites, cells, _borders(world, sites, cells), positions, bounds)
    geo._cell_size = max(s.radius for s in sites) / 2
    for i, s in enumerate(sites):
        key = (math.floor(s.x / geo._cell_size), math.floor(s.y / geo._cell_size))
        geo._grid.setdefault(key, []).append(i)
    return geo


@functools.cache
def roman_world_geometry() -> MapGeometry:
    """The geometry of the game's map, built once per process."""
    return build_geometry(roman_world())
