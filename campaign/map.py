"""The strategic map of the Roman world: ``maps/roman_world.toml`` as a networkx graph.

This module is the map only — places, their attributes, how they connect and
what a connection costs on the map's own cost scale.  The rules that use the
map (the March Table, interception, supply, sieges) live elsewhere and ask it
questions.  The design is written down in ``docs/rules/campaign-map.md``.

The graph (``CampaignMap.graph``, an undirected, frozen ``networkx.Graph``)
has one node per place, keyed by its id:

* land nodes (``kind`` = ``"city"``, ``"region"`` or ``"off-map"``) carry
  ``name``, ``lon``, ``lat``, ``province``, ``terrain``, ``owner`` (in January
  49 BC), ``landmass``, ``port``, ``capital``, ``income``, ``colony_site``,
  ``mountain_pass`` and ``rivers`` (a tuple of river ids the place lies on);
* sea nodes (``kind`` = ``"sea"``) carry ``name``, ``lon``, ``lat`` and
  ``crossing`` (the cost of sailing into or out of the zone).

Edges carry ``kind`` (``"road"``, ``"cross_country"``, ``"strait"``,
``"sea_lane"``), ``name`` (the road's or strait's name, ``""`` when it has
none), ``river`` (the id of a river line the edge crosses, ``""`` for none),
``cost`` (the map's cost scale, ``campaign-map.md §5``) and ``km`` (great-circle
length).

Loading validates everything and refuses a bad map with one sentence naming the
file, the place and the problem (``bellum.errors.InputError``).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import networkx as nx
from pydantic import BaseModel, ConfigDict, Field

from bellum.errors import InputError
from bellum.paths import MAPS
from bellum.tomlio import entry_at, read_toml, validate

DEFAULT_MAP = MAPS / "roman_world.toml"

SpaceKind = Literal["city", "region", "off-map"]
Terrain = Literal["clear", "hills", "mountains", "forest", "marsh", "desert"]
LandEdgeKind = Literal["road", "cross_country", "strait"]
EdgeKind = Literal["road", "cross_country", "strait", "sea_lane"]

#: every edge kind, in the order the docs list them
EDGE_KINDS: tuple[EdgeKind, ...] = ("road", "cross_country", "strait", "sea_lane")
#: the edge kinds an army marches along (a strait is a short ferry crossing)
LAND_EDGE_KINDS: tuple[EdgeKind, ...] = ("road", "cross_country", "strait")

#: the box every position must lie in: the Mediterranean world from the Atlantic
#: coast of Lusitania to the Iranian plateau, the Sahara's edge to the Rhine
#: (campaign-map.md §2)
LON_MIN, LON_MAX = -12.0, 50.0
LAT_MIN, LAT_MAX = 22.0, 53.0

EARTH_RADIUS_KM = 6371.0088

#: guards against a mistyped position: no land edge between two spaces on the map
#: spans more than this, and no port lies farther than this from a zone's centre
MAX_LAND_EDGE_KM = 600.0
MAX_PORT_LANE_KM = 700.0

_ID = r"^[a-z][a-z0-9_]*$"

_KIND_PHRASE = {"city": "a city", "region": "a region", "off-map": "an off-map region"}

#: how the checks report a problem: (place, problem)
Report = Callable[[str, str], None]


# --------------------------------------------------------------------------- file models


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MapHeader(_Model):
    name: str = Field(min_length=1, max_length=200)
    version: int = Field(ge=1, le=1000)


class TerrainCosts(_Model):
    """Extra cost of an edge by the harder terrain of its two ends."""

    clear: int = Field(ge=0, le=10)
    hills: int = Field(ge=0, le=10)
    mountains: int = Field(ge=0, le=10)
    forest: int = Field(ge=0, le=10)
    marsh: int = Field(ge=0, le=10)
    desert: int = Field(ge=0, le=10)


class KindTerrainCosts(_Model):
    road: TerrainCosts
    cross_country: TerrainCosts


class KindExtra(_Model):
    road: int = Field(ge=0, le=10)
    cross_country: int = Field(ge=0, le=10)


class BaseCosts(_Model):
    road: int = Field(ge=1, le=10)
    cross_country: int = Field(ge=1, le=10)
    strait: int = Field(ge=1, le=10)
    port: int = Field(ge=1, le=10)


class Costs(_Model):
    """The cost scale (campaign-map.md §5), kept as data in the map file."""

    base: BaseCosts
    terrain: KindTerrainCosts
    mountain_pass: KindExtra = Field(alias="pass")
    river: KindExtra
    distance_step_km: int = Field(ge=50, le=2000)


class Province(_Model):
    id: str = Field(pattern=_ID, max_length=40)
    name: str = Field(min_length=1, max_length=80)


class River(_Model):
    id: str = Field(pattern=_ID, max_length=40)
    name: str = Field(min_length=1, max_length=80)


class Owner(_Model):
    id: str = Field(pattern=_ID, max_length=40)
    name: str = Field(min_length=1, max_length=80)
    kind: Literal["side", "client", "neutral"]


class Space(_Model):
    """A land space: a city, a region between cities, or an off-map region."""

    id: str = Field(pattern=_ID, max_length=40)
    name: str = Field(min_length=1, max_length=80)
    kind: SpaceKind
    province: str = Field(max_length=40)
    terrain: Terrain
    lon: float = Field(ge=-180, le=180)
    lat: float = Field(ge=-90, le=90)
    owner: str = Field(max_length=40)
    landmass: str = Field(default="mainland", pattern=_ID, max_length=40)
    port: bool = False
    capital: bool = False
    income: bool = False
    colony_site: bool = False
    mountain_pass: bool = Field(default=False, alias="pass")
    rivers: tuple[str, ...] = Field(default=(), max_length=4)


class SeaZone(_Model):
    id: str = Field(pattern=_ID, max_length=40)
    name: str = Field(min_length=1, max_length=80)
    lon: float = Field(ge=-180, le=180)
    lat: float = Field(ge=-90, le=90)
    crossing: int = Field(ge=1, le=5)
    ports: tuple[str, ...] = Field(default=(), max_length=40)
    adjacent: tuple[str, ...] = Field(default=(), max_length=20)


class Edge(_Model):
    """A land connection: a road, a cross-country route or a strait."""

    a: str = Field(max_length=40)
    b: str = Field(max_length=40)
    kind: LandEdgeKind
    name: str = Field(default="", max_length=80)
    river: str = Field(default="", max_length=40)


class MapFile(_Model):
    map: MapHeader
    costs: Costs
    province: tuple[Province, ...] = Field(min_length=1, max_length=200)
    river: tuple[River, ...] = Field(default=(), max_length=200)
    owner: tuple[Owner, ...] = Field(min_length=1, max_length=50)
    space: tuple[Space, ...] = Field(min_length=1, max_length=2000)
    sea: tuple[SeaZone, ...] = Field(default=(), max_length=500)
    edge: tuple[Edge, ...] = Field(default=(), max_length=10000)


# --------------------------------------------------------------------------- query results


@dataclass(frozen=True, slots=True)
class Link:
    """One edge of the map seen from ``a``."""

    a: str
    b: str
    kind: EdgeKind
    name: str
    river: str
    cost: int
    km: float


@dataclass(frozen=True, slots=True)
class Route:
    """A cheapest path: the places in order, its total cost and length."""

    path: tuple[str, ...]
    cost: int
    km: float
    kinds: tuple[EdgeKind, ...]


def great_circle_km(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    """Great-circle distance in kilometres (haversine on a spherical Earth)."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp = p2 - p1
    dl = math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(h)))


def land_edge_cost(costs: Costs, kind: LandEdgeKind, ends: tuple[Space, Space], river: str, km: float) -> int:
    """The cost of a land edge on the map's scale (campaign-map.md §5).

    A strait costs its base.  A road or cross-country edge costs its base, plus
    the terrain extra of the harder end, plus the pass extra when either end is
    a mountain pass, plus the river extra when it crosses a river line, plus one
    for every full ``distance_step_km`` beyond the first (not for off-map edges,
    whose positions are nominal).
    """
    if kind == "strait":
        return costs.base.strait
    base = costs.base.road if kind == "road" else costs.base.cross_country
    table = costs.terrain.road if kind == "road" else costs.terrain.cross_country
    terrain = max(getattr(table, s.terrain) for s in ends)
    extra_pass = getattr(costs.mountain_pass, kind) if any(s.mountain_pass for s in ends) else 0
    extra_river = getattr(costs.river, kind) if river else 0
    off_map = any(s.kind == "off-map" for s in ends)
    extra_km = 0 if off_map else max(0, math.ceil(km / costs.distance_step_km) - 1)
    return int(base + terrain + extra_pass + extra_river + extra_km)


# --------------------------------------------------------------------------- the map


class CampaignMap:
    """The loaded, validated map and the questions later code asks of it."""

    def __init__(self, source: Path, data: MapFile, graph: nx.Graph) -> None:
        self.source = source
        self.data = data
        self.graph = graph
        self.spaces: dict[str, Space] = {s.id: s for s in data.space}
        self.seas: dict[str, SeaZone] = {z.id: z for z in data.sea}
        self.provinces: dict[str, Province] = {p.id: p for p in data.province}
        self.owners: dict[str, Owner] = {o.id: o for o in data.owner}
        self.rivers: dict[str, River] = {r.id: r for r in data.river}
        self.costs = data.costs
        # the land-and-strait network, built once for the many route searches of the AI
        land = nx.Graph()
        land.add_nodes_from(self.spaces)
        land.add_edges_from((u, v, d) for u, v, d in graph.edges(data=True) if d["kind"] != "sea_lane")
        self._land: nx.Graph = nx.freeze(land)

    # -- places -------------------------------------------------------------
    def __contains__(self, place: object) -> bool:
        return place in self.graph

    def _check(self, place: str) -> None:
        if place not in self.graph:
            raise KeyError(f"there is no place called {place!r} on the map")

    def space(self, place: str) -> Space:
        """The land space ``place`` (``KeyError`` for a sea zone or an unknown id)."""
        try:
            return self.spaces[place]
        except KeyError:
            raise KeyError(f"there is no land space called {place!r} on the map") from None

    def sea(self, place: str) -> SeaZone:
        try:
            return self.seas[place]
        except KeyError:
            raise KeyError(f"there is no sea zone called {place!r} on the map") from None

    def name(self, place: str) -> str:
        self._check(place)
        return str(self.graph.nodes[place]["name"])

    def is_land(self, place: str) -> bool:
        return place in self.spaces

    def is_sea(self, place: str) -> bool:
        return place in self.seas

    def position(self, place: str) -> tuple[float, float]:
        """(longitude, latitude) in degrees."""
        self._check(place)
        node = self.graph.nodes[place]
        return float(node["lon"]), float(node["lat"])

    def land_spaces(self) -> list[str]:
        """Every land space on the map proper (off-map regions excluded)."""
        return [s.id for s in self.data.space if s.kind != "off-map"]

    def cities(self) -> list[str]:
        return [s.id for s in self.data.space if s.kind == "city"]

    def regions(self) -> list[str]:
        return [s.id for s in self.data.space if s.kind == "region"]

    def off_map(self) -> list[str]:
        return [s.id for s in self.data.space if s.kind == "off-map"]

    def ports(self) -> list[str]:
        return [s.id for s in self.data.space if s.port]

    def capitals(self) -> list[str]:
        return [s.id for s in self.data.space if s.capital]

    def income_cities(self) -> list[str]:
        return [s.id for s in self.data.space if s.income]

    def colony_sites(self) -> list[str]:
        return [s.id for s in self.data.space if s.colony_site]

    def passes(self) -> list[str]:
        return [s.id for s in self.data.space if s.mountain_pass]

    def sea_zones(self) -> list[str]:
        return [z.id for z in self.data.sea]

    def in_province(self, province: str) -> list[str]:
        if province not in self.provinces:
            raise KeyError(f"there is no province called {province!r} on the map")
        return [s.id for s in self.data.space if s.province == province]

    def owned_by(self, owner: str) -> list[str]:
        """The spaces ``owner`` holds in January 49 BC."""
        if owner not in self.owners:
            raise KeyError(f"there is no owner called {owner!r} on the map")
        return [s.id for s in self.data.space if s.owner == owner]

    def on_river(self, river: str) -> list[str]:
        if river not in self.rivers:
            raise KeyError(f"there is no river called {river!r} on the map")
        return [s.id for s in self.data.space if river in s.rivers]

    def landmass(self, place: str) -> list[str]:
        """Every space on the same landmass as ``place`` (joined to it by land or strait)."""
        mass = self.space(place).landmass
        return [s.id for s in self.data.space if s.landmass == mass]

    # -- connections --------------------------------------------------------
    def link(self, a: str, b: str) -> Link | None:
        """The edge between ``a`` and ``b``, or ``None``."""
        self._check(a)
        self._check(b)
        data = self.graph.get_edge_data(a, b)
        if data is None:
            return None
        return Link(a, b, data["kind"], data["name"], data["river"], data["cost"], data["km"])

    def links(self, place: str, kinds: Iterable[EdgeKind] | None = None) -> list[Link]:
        """Every edge of ``place`` (of the given kinds), sorted by neighbour id."""
        self._check(place)
        wanted = set(EDGE_KINDS if kinds is None else kinds)
        out = []
        for other in sorted(self.graph.adj[place]):
            d = self.graph.adj[place][other]
            if d["kind"] in wanted:
                out.append(Link(place, other, d["kind"], d["name"], d["river"], d["cost"], d["km"]))
        return out

    def neighbours(self, place: str, kinds: Iterable[EdgeKind] | None = None) -> list[str]:
        """The places one edge away from ``place`` (of the given kinds), sorted."""
        return [lk.b for lk in self.links(place, kinds)]

    def ports_of(self, sea: str) -> list[str]:
        """The ports that touch the sea zone ``sea``."""
        self.sea(sea)
        return [p for p in self.neighbours(sea, ("sea_lane",)) if p in self.spaces]

    def seas_of(self, place: str) -> list[str]:
        """The sea zones a port touches (empty for a land space that is not a port)."""
        self.space(place)
        return [z for z in self.neighbours(place, ("sea_lane",)) if z in self.seas]

    def sea_distance(self, a: str, b: str) -> float:
        """The sea-lane cost from ``a`` to ``b`` (ports and sea zones); infinity when no
        sea lane joins them."""
        if a == b:
            return 0.0
        return self._sea_distances.get(a, {}).get(b, float("inf"))

    @functools.cached_property
    def _sea_distances(self) -> dict[str, dict[str, float]]:
        """Every sea-lane distance, worked out once (the AI asks many)."""
        sea = nx.Graph()
        sea.add_edges_from((u, v, d) for u, v, d in self.graph.edges(data=True) if d["kind"] == "sea_lane")
        return {
            a: {b: float(c) for b, c in d.items()} for a, d in nx.all_pairs_dijkstra_path_length(sea, weight="cost")
        }

    def adjacent_seas(self, sea: str) -> list[str]:
        self.sea(sea)
        return [z for z in self.neighbours(sea, ("sea_lane",)) if z in self.seas]

    def distance_km(self, a: str, b: str) -> float:
        """Great-circle distance between two places' positions."""
        (lon1, lat1), (lon2, lat2) = self.position(a), self.position(b)
        return great_circle_km(lon1, lat1, lon2, lat2)

    def _route(self, a: str, b: str, keep: nx.Graph) -> Route | None:
        try:
            path = nx.dijkstra_path(keep, a, b, weight="cost")
        except nx.NetworkXNoPath:
            return None
        pairs = list(itertools.pairwise(path))
        cost = sum(int(keep.edges[u, v]["cost"]) for u, v in pairs)
        km = sum(float(keep.edges[u, v]["km"]) for u, v in pairs)
        kinds = tuple(keep.edges[u, v]["kind"] for u, v in pairs)
        return Route(tuple(path), cost, km, kinds)

    def land_route(
        self,
        a: str,
        b: str,
        kinds: Iterable[EdgeKind] = LAND_EDGE_KINDS,
        avoid: Iterable[str] = (),
    ) -> Route | None:
        """The cheapest route over land edges of ``kinds`` from ``a`` to ``b``,
        never entering a place in ``avoid``; ``None`` when there is none."""
        self.space(a)
        self.space(b)
        wanted = set(kinds)
        if not wanted <= set(LAND_EDGE_KINDS):
            raise ValueError(f"a land route uses only {', '.join(LAND_EDGE_KINDS)} edges")
        banned = set(avoid) - {a, b}
        if not banned and wanted == set(LAND_EDGE_KINDS):
            return self._route(a, b, self._land)
        land = self._land
        keep = nx.subgraph_view(
            land,
            filter_node=lambda n: n not in banned,
            filter_edge=lambda u, v: land.edges[u, v]["kind"] in wanted,
        )
        return self._route(a, b, keep)

    def sea_route(self, a: str, b: str, avoid: Iterable[str] = ()) -> Route | None:
        """The cheapest voyage from port ``a`` to port ``b`` through sea zones
        (never through another port, nor through a zone in ``avoid``)."""
        for p in (a, b):
            if not self.space(p).port:
                raise ValueError(f"{self.name(p)} is not a port")
        banned = set(avoid)
        keep = nx.subgraph_view(
            self.graph,
            filter_node=lambda n: n in (a, b) or (n in self.seas and n not in banned),
            filter_edge=lambda u, v: self.graph.edges[u, v]["kind"] == "sea_lane",
        )
        return self._route(a, b, keep)


# --------------------------------------------------------------------------- loading


def load_map(path: str | Path = DEFAULT_MAP) -> CampaignMap:
    """Read, validate and build the map; a bad map raises one ``InputError``."""
    source = Path(path)
    raw = read_toml(source)
    try:
        data = validate(MapFile, raw, source)
    except InputError as exc:
        raise InputError(source, _name_the_place(raw, exc.place), exc.problem) from None
    graph, problems = build_graph(data)
    if problems:
        place, problem = problems[0]
        more = len(problems) - 1
        if more:
            problem += f" (and {more} more problem{'s' if more > 1 else ''})"
        raise InputError(source, place, problem)
    return CampaignMap(source, data, nx.freeze(graph))


def _name_the_place(raw: dict[str, Any], place: str) -> str:
    """Turn ``space[12].terrain`` into ``space 'roma' (space[12].terrain)`` so a
    reader finds the entry by its id."""
    found = entry_at(raw, place, ("space", "sea", "edge", "province", "river", "owner"))
    if found is None:
        return place
    table, item, _ = found
    if table == "edge":
        a, b = item.get("a"), item.get("b")
        if isinstance(a, str) and isinstance(b, str):
            return f"edge {a}–{b} ({place})"
        return place
    ident = item.get("id")
    return f"{table} '{ident}' ({place})" if isinstance(ident, str) else place


@functools.cache
def roman_world() -> CampaignMap:
    """The game's map, loaded once."""
    return load_map(DEFAULT_MAP)


def build_graph(data: MapFile) -> tuple[nx.Graph, list[tuple[str, str]]]:
    """Build the graph and list every problem as (place, problem), in file order."""
    problems: list[tuple[str, str]] = []

    def bad(place: str, problem: str) -> None:
        problems.append((place, problem))

    provinces = _unique("province", [p.id for p in data.province], bad)
    rivers = _unique("river", [r.id for r in data.river], bad)
    owners = _unique("owner", [o.id for o in data.owner], bad)

    spaces: dict[str, Space] = {}
    for s in data.space:
        place = f"space '{s.id}'"
        if s.id in spaces:
            bad(place, "is listed twice; every place needs its own id")
            continue
        spaces[s.id] = s
        _check_space(s, place, provinces, rivers, owners, bad)

    seas: dict[str, SeaZone] = {}
    for z in data.sea:
        place = f"sea '{z.id}'"
        if z.id in seas:
            bad(place, "is listed twice; every place needs its own id")
        elif z.id in spaces:
            bad(place, "uses the id of a land space; every place needs its own id")
        else:
            seas[z.id] = z
            _check_position(z.lon, z.lat, place, bad)

    graph = nx.Graph()
    for s in spaces.values():
        graph.add_node(
            s.id,
            kind=s.kind,
            name=s.name,
            lon=s.lon,
            lat=s.lat,
            province=s.province,
            terrain=s.terrain,
            owner=s.owner,
            landmass=s.landmass,
            port=s.port,
            capital=s.capital,
            income=s.income,
            colony_site=s.colony_site,
            mountain_pass=s.mountain_pass,
            rivers=s.rivers,
        )
    for z in seas.values():
        graph.add_node(z.id, kind="sea", name=z.name, lon=z.lon, lat=z.lat, crossing=z.crossing)

    _add_land_edges(data, spaces, seas, rivers, graph, bad)
    _add_sea_lanes(data, spaces, seas, graph, bad)
    _check_network(spaces, seas, graph, bad)
    return graph, problems


def _unique(what: str, ids: list[str], bad: Report) -> set[str]:
    seen: set[str] = set()
    for i in ids:
        if i in seen:
            bad(f"{what} '{i}'", "is declared twice")
        seen.add(i)
    return seen


def _check_position(lon: float, lat: float, place: str, bad: Report) -> None:
    if not (LON_MIN <= lon <= LON_MAX and LAT_MIN <= lat <= LAT_MAX):
        bad(
            place,
            f"lies at longitude {lon}, latitude {lat}, outside the map's box "
            f"(longitude {LON_MIN:g} to {LON_MAX:g}, latitude {LAT_MIN:g} to {LAT_MAX:g})",
        )


def _check_space(s: Space, place: str, provinces: set[str], rivers: set[str], owners: set[str], bad: Report) -> None:
    _check_position(s.lon, s.lat, place, bad)
    if s.province not in provinces:
        bad(place, f"names the province '{s.province}', which is not declared in [[province]]")
    if s.owner not in owners:
        bad(place, f"names the owner '{s.owner}', which is not declared in [[owner]]")
    for r in s.rivers:
        if r not in rivers:
            bad(place, f"lies on the river '{r}', which is not declared in [[river]]")
    if len(set(s.rivers)) != len(s.rivers):
        bad(place, "names the same river twice")
    if s.kind != "city":
        for flag, on, what in (
            ("capital", s.capital, "a provincial capital"),
            ("income", s.income, "an income city"),
            ("colony_site", s.colony_site, "a colony site"),
        ):
            if on:
                bad(place, f"is {_KIND_PHRASE[s.kind]} but has '{flag} = true'; only a city can be {what}")
    if s.mountain_pass:
        if s.kind != "region":
            bad(place, f"is {_KIND_PHRASE[s.kind]} but has 'pass = true'; a mountain pass is a region")
        if s.terrain != "mountains":
            bad(place, f"has 'pass = true' but its terrain is {s.terrain}; a pass is mountains")


def _add_land_edges(
    data: MapFile,
    spaces: dict[str, Space],
    seas: dict[str, SeaZone],
    rivers: set[str],
    graph: nx.Graph,
    bad: Report,
) -> None:
    for e in data.edge:
        place = f"edge {e.a}–{e.b}"
        ok = True
        for end in (e.a, e.b):
            if end in seas:
                bad(
                    place,
                    f"is a {e.kind.replace('_', '-')} edge but '{end}' is a sea zone; only sea lanes reach the sea",
                )
                ok = False
            elif end not in spaces:
                bad(place, f"leads to '{end}', which is no place on the map")
                ok = False
        if not ok:
            continue
        if e.a == e.b:
            bad(place, "joins a place to itself")
            continue
        if graph.has_edge(e.a, e.b):
            bad(place, f"is listed twice (already a {graph.edges[e.a, e.b]['kind'].replace('_', '-')} edge)")
            continue
        if e.river and e.river not in rivers:
            bad(place, f"crosses the river '{e.river}', which is not declared in [[river]]")
        ends = (spaces[e.a], spaces[e.b])
        if e.kind == "strait":
            for s in ends:
                if not s.port:
                    bad(place, f"is a strait but {s.name} is not a port; a strait joins two coasts")
            if any(s.kind == "off-map" for s in ends):
                bad(place, "is a strait to an off-map region; off-map regions are reached by road or cross-country")
        km = great_circle_km(ends[0].lon, ends[0].lat, ends[1].lon, ends[1].lat)
        if km > MAX_LAND_EDGE_KM and all(s.kind != "off-map" for s in ends):
            bad(
                place,
                f"is {km:.0f} km long, more than the {MAX_LAND_EDGE_KM:.0f} km an edge on the map may span; "
                "check the two positions",
            )
        cost = land_edge_cost(data.costs, e.kind, ends, e.river, km)
        graph.add_edge(e.a, e.b, kind=e.kind, name=e.name, river=e.river, cost=cost, km=round(km, 1))


def _add_sea_lanes(
    data: MapFile,
    spaces: dict[str, Space],
    seas: dict[str, SeaZone],
    graph: nx.Graph,
    bad: Report,
) -> None:
    for z in seas.values():
        place = f"sea '{z.id}'"
        for p in z.ports:
            if p in seas:
                bad(place, f"lists the sea zone '{p}' among its ports; put neighbouring zones in 'adjacent'")
                continue
            if p not in spaces:
                bad(place, f"lists the port '{p}', which is no place on the map")
                continue
            s = spaces[p]
            if not s.port:
                bad(place, f"lists {s.name} as a port, but that space has no 'port = true'")
                continue
            if graph.has_edge(z.id, p):
                bad(place, f"lists the port '{p}' twice")
                continue
            km = great_circle_km(z.lon, z.lat, s.lon, s.lat)
            if km > MAX_PORT_LANE_KM:
                bad(
                    place,
                    f"lists {s.name} as a port, but it lies {km:.0f} km from the zone's centre, more than "
                    f"{MAX_PORT_LANE_KM:.0f} km; check the positions",
                )
            graph.add_edge(z.id, p, kind="sea_lane", name="", river="", cost=data.costs.base.port, km=round(km, 1))
        for other in z.adjacent:
            if other in spaces:
                bad(place, f"lists the land space '{other}' as an adjacent sea; a sea lane never joins land to land")
                continue
            if other not in seas:
                bad(place, f"lists the adjacent sea '{other}', which is no sea zone on the map")
                continue
            if other == z.id:
                bad(place, "lists itself as an adjacent sea")
                continue
            if graph.has_edge(z.id, other):
                bad(place, f"is joined to '{other}' twice; list each pair of neighbouring seas once")
                continue
            o = seas[other]
            km = great_circle_km(z.lon, z.lat, o.lon, o.lat)
            cost = max(z.crossing, o.crossing)
            graph.add_edge(z.id, other, kind="sea_lane", name="", river="", cost=cost, km=round(km, 1))


def _check_network(spaces: dict[str, Space], seas: dict[str, SeaZone], graph: nx.Graph, bad: Report) -> None:
    for s in spaces.values():
        place = f"space '{s.id}'"
        if s.port and not any(graph.nodes[n]["kind"] == "sea" for n in graph.adj[s.id]):
            bad(place, "is a port but no sea zone lists it among its ports")
        if s.kind == "off-map" and graph.degree(s.id) == 0:
            bad(place, "is an off-map region that connects to nothing")
    for z in seas.values():
        if not any(graph.nodes[n]["kind"] == "sea" for n in graph.adj[z.id]):
            bad(f"sea '{z.id}'", "touches no other sea zone")

    # Landmasses (campaign-map.md §3): the land+strait network falls apart into
    # exactly the landmasses the file declares; each is one piece, and every
    # landmass other than the mainland can be reached by sea (it has a port).
    land = nx.subgraph_view(
        graph,
        filter_node=lambda n: n in spaces,
        filter_edge=lambda u, v: graph.edges[u, v]["kind"] != "sea_lane",
    )
    masses: dict[str, list[str]] = {}
    for s in spaces.values():
        masses.setdefault(s.landmass, []).append(s.id)
    for mass, members in masses.items():
        first = spaces[members[0]]
        reach = nx.node_connected_component(land, first.id)
        for other in sorted(reach):
            if spaces[other].landmass != mass:
                bad(
                    f"space '{other}'",
                    f"is on the landmass '{spaces[other].landmass}' but is joined by land to "
                    f"{first.name} on the landmass '{mass}'",
                )
                break
        for m in members:
            if m not in reach:
                bad(
                    f"space '{m}'",
                    f"is on the landmass '{mass}' but no road, cross-country route or strait joins it to {first.name}",
                )
        if mass != "mainland" and not any(spaces[m].port for m in members):
            bad(f"space '{first.id}'", f"is on the landmass '{mass}', which has no port, so nothing can reach it")
    if graph.number_of_nodes() and not nx.is_connected(graph):
        parts = sorted(nx.connected_components(graph), key=len, reverse=True)
        stray = sorted(parts[1])[0]
        bad(f"space '{stray}'" if stray in spaces else f"sea '{stray}'", "cannot be reached from the rest of the map")
