"""The strategic map (docs/rules/campaign-map.md): contents, history, queries and validation."""

from __future__ import annotations

import copy
import itertools
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from bellum.errors import InputError
from campaign.map import (
    DEFAULT_MAP,
    EDGE_KINDS,
    CampaignMap,
    Costs,
    Space,
    great_circle_km,
    land_edge_cost,
    load_map,
    roman_world,
)

#: every place issue 7 names, by id
ISSUE7_PLACES = {
    "roma": "Roma",
    "brundisium": "Brundisium",
    "neapolis": "Neapolis",
    "corfinium": "Corfinium",
    "ravenna": "Ravenna",
    "massilia": "Massilia",
    "ilerda": "Ilerda",
    "nova_carthago": "Nova Carthago",
    "corduba": "Corduba",
    "munda": "Munda",
    "utica": "Utica",
    "thapsus": "Thapsus",
    "salonae": "Salonae",
    "dyrrachium": "Dyrrachium",
    "pharsalus": "Pharsalus",
    "thessalonika": "Thessalonika",
    "philippi": "Philippi",
    "syracusa": "Syracusa",
    "rhodus": "Rhodus",
    "ephesus": "Ephesus",
    "pergamum": "Pergamum",
    "zela": "Zela",
    "antiochia": "Antiochia",
    "tyrus": "Tyrus",
    "zeugma": "Zeugma",
    "edessa": "Edessa",
    "petra": "Petra",
    "caesarea": "Caesarea (Turris Stratonis)",
    "pelusium": "Pelusium",
    "alexandria": "Alexandria",
}

#: further places the campaign report of 004 names
SEED_004_PLACES = ["ctesiphon", "dacia", "mauretania", "syria_oriens", "parthia", "hierosolyma", "messana"]

#: the nine stratagem-income cities (reference/roman-civil-war.md, Stratagems)
INCOME_CITIES = {
    "alexandria",
    "rhodus",
    "ephesus",
    "pergamum",
    "thessalonika",
    "salonae",
    "syracusa",
    "neapolis",
    "utica",
}


@pytest.fixture(scope="module")
def world() -> CampaignMap:
    return roman_world()


# ----------------------------------------------------------------------------- contents


def test_counts(world: CampaignMap) -> None:
    assert len(world.land_spaces()) >= 90
    assert len(world.sea_zones()) >= 15
    assert len(world.off_map()) >= 6
    assert len(world.cities()) >= 60
    assert len(world.ports()) >= 40
    kinds = {d["kind"] for _, _, d in world.graph.edges(data=True)}
    assert kinds == set(EDGE_KINDS)


def test_every_place_of_issue_7_is_on_the_map(world: CampaignMap) -> None:
    for place, name in ISSUE7_PLACES.items():
        assert place in world, place
        assert world.name(place) == name
        assert world.space(place).kind == "city"


def test_places_of_the_004_report(world: CampaignMap) -> None:
    for place in SEED_004_PLACES:
        assert place in world, place


def test_off_map_regions(world: CampaignMap) -> None:
    off = set(world.off_map())
    assert {"syria_oriens", "parthia", "germania", "dacia", "mauretania", "arabia", "aethiopia"} <= off
    for place in off:
        assert world.graph.degree(place) > 0
    assert "ctesiphon" in world.neighbours("parthia")
    assert {"emesa", "damascus", "beroea"} <= set(world.neighbours("syria_oriens"))


def test_the_nine_income_cities(world: CampaignMap) -> None:
    assert set(world.income_cities()) == INCOME_CITIES
    for city in INCOME_CITIES:
        s = world.space(city)
        assert s.capital and s.port, city


def test_passes_are_mountain_regions(world: CampaignMap) -> None:
    passes = set(world.passes())
    assert {"summus_pyrenaeus", "alpes_cottiae", "candavia", "thermopylae", "portae_ciliciae"} <= passes
    for p in passes:
        assert world.space(p).terrain == "mountains"
        assert world.space(p).kind == "region"


def test_node_and_edge_attributes(world: CampaignMap) -> None:
    land_keys = {
        "kind",
        "name",
        "lon",
        "lat",
        "province",
        "terrain",
        "owner",
        "landmass",
        "port",
        "capital",
        "income",
        "colony_site",
        "mountain_pass",
        "rivers",
    }
    for n, d in world.graph.nodes(data=True):
        if d["kind"] == "sea":
            assert set(d) == {"kind", "name", "lon", "lat", "crossing"}, n
        else:
            assert set(d) == land_keys, n
    for u, v, d in world.graph.edges(data=True):
        assert set(d) == {"kind", "name", "river", "cost", "km"}
        assert d["cost"] >= 1, (u, v)
        assert d["km"] > 0, (u, v)


def test_the_graph_is_frozen(world: CampaignMap) -> None:
    with pytest.raises(nx.NetworkXError):
        world.graph.add_node("atlantis")


# ----------------------------------------------------------------------------- connectivity


def test_whole_map_is_connected(world: CampaignMap) -> None:
    assert nx.is_connected(world.graph)


def test_land_network_falls_apart_only_into_islands(world: CampaignMap) -> None:
    land = world.graph.subgraph(world.spaces).copy()
    land.remove_edges_from([(u, v) for u, v, d in land.edges(data=True) if d["kind"] == "sea_lane"])
    parts = list(nx.connected_components(land))
    masses = {s.landmass for s in world.spaces.values()}
    assert len(parts) == len(masses)
    assert masses == {
        "mainland",
        "sardinia",
        "corsica",
        "baleares",
        "creta",
        "cyprus",
        "rhodus",
        "lesbos",
        "corcyra",
        "curicta",
        "bosporus",
    }
    for part in parts:
        mass = {world.space(p).landmass for p in part}
        assert len(mass) == 1
        if mass != {"mainland"}:
            assert any(world.space(p).port for p in part)


def test_every_port_touches_a_sea(world: CampaignMap) -> None:
    for port in world.ports():
        assert world.seas_of(port), port


def test_sicily_hangs_on_the_strait(world: CampaignMap) -> None:
    route = world.land_route("roma", "syracusa")
    assert route is not None
    assert "strait" in route.kinds
    assert world.land_route("roma", "syracusa", kinds=("road", "cross_country")) is None


def test_sea_lanes_never_join_two_land_spaces(world: CampaignMap) -> None:
    for u, v, d in world.graph.edges(data=True):
        if d["kind"] == "sea_lane":
            assert world.is_sea(u) or world.is_sea(v)
        else:
            assert world.is_land(u) and world.is_land(v)


# ----------------------------------------------------------------------------- history


def test_positions_roughly_right(world: CampaignMap) -> None:
    lon, lat = world.position("roma")
    assert abs(lat - 41.9) < 0.2 and abs(lon - 12.5) < 0.2
    lon, lat = world.position("alexandria")
    assert abs(lat - 31.2) < 0.2 and abs(lon - 29.9) < 0.2
    # Brundisium to Dyrrachium, the crossing of 48 BC: about 150 km in a straight line
    assert 130 < world.distance_km("brundisium", "dyrrachium") < 170
    # Rome to Brundisium, about 470 km as the crow flies (the Via Appia is longer)
    assert 440 < world.distance_km("roma", "brundisium") < 500
    # west to east: Gades lies west of Rome, Ctesiphon east of Antioch
    assert world.position("gades")[0] < world.position("roma")[0] < world.position("antiochia")[0]
    assert world.position("ctesiphon")[0] > world.position("antiochia")[0]


def test_brundisium_is_the_port_for_the_east(world: CampaignMap) -> None:
    assert world.space("brundisium").port
    assert "mare_adriaticum_inf" in world.seas_of("brundisium")
    voyage = world.sea_route("brundisium", "dyrrachium")
    assert voyage is not None
    assert voyage.path == ("brundisium", "mare_adriaticum_inf", "dyrrachium")


def test_roman_roads(world: CampaignMap) -> None:
    appia = world.link("roma", "capua")
    assert appia is not None and appia.kind == "road" and appia.name == "Via Appia"
    rubicon = world.link("ravenna", "ariminum")
    assert rubicon is not None and rubicon.river == "rubico"
    egnatia = world.land_route("dyrrachium", "thessalonika", kinds=("road",))
    assert egnatia is not None
    for u, v in itertools.pairwise(egnatia.path):
        link = world.link(u, v)
        assert link is not None and link.name == "Via Egnatia"
    domitia = world.link("narbo", "summus_pyrenaeus")
    assert domitia is not None and domitia.name == "Via Domitia"
    by_road = world.land_route("roma", "brundisium", kinds=("road",))
    assert by_road is not None and set(by_road.kinds) == {"road"}


def test_straits(world: CampaignMap) -> None:
    for a, b, name in [
        ("messana", "rhegium", "Fretum Siculum"),
        ("sestus", "abydus", "Hellespontus"),
        ("byzantium", "chalcedon", "Bosporus"),
    ]:
        link = world.link(a, b)
        assert link is not None and link.kind == "strait" and link.name == name


def test_owners_of_january_49(world: CampaignMap) -> None:
    caesar = set(world.owned_by("caesarian"))
    assert {"ravenna", "narbo", "lugdunum", "salonae", "aquileia"} <= caesar
    senate = set(world.owned_by("senatorial"))
    assert {"roma", "corfinium", "brundisium", "ilerda", "corduba", "utica", "syracusa", "dyrrachium"} <= senate
    assert {"antiochia", "ephesus", "thessalonika"} <= senate
    assert world.space("alexandria").owner == "egypt"
    assert world.space("hierosolyma").owner == "judea"
    assert world.space("cirta").owner == "numidia"
    assert world.space("ctesiphon").owner == "parthia"
    assert world.space("pergamum").owner == "pontus"  # 004: Mithradates' city
    assert world.space("massilia").owner == "neutral"
    assert set(world.in_province("gallia_comata")) <= caesar


# ----------------------------------------------------------------------------- cost scale


def _cost(world: CampaignMap, a: str, b: str) -> int:
    link = world.link(a, b)
    assert link is not None, (a, b)
    return link.cost


def test_cost_scale_on_the_map(world: CampaignMap) -> None:
    assert _cost(world, "roma", "capua") == 1  # road, clear
    assert _cost(world, "spoletium", "apenninus") == 2  # road into mountains
    assert _cost(world, "messana", "rhegium") == 1  # strait
    # cross-country into a pass: base 2 + mountains 2 + pass 1
    assert _cost(world, "toletum", "saltus_castulonensis") == 2 + 2 + 1 + 1  # + Tagus
    # a sea lane between zones costs the larger crossing
    assert _cost(world, "mare_ionium", "mare_adriaticum_inf") == 2
    assert _cost(world, "mare_adriaticum_inf", "mare_adriaticum_sup") == 1
    assert _cost(world, "brundisium", "mare_adriaticum_inf") == 1


def _space(terrain: str, **kw: Any) -> Space:
    return Space.model_validate(
        {
            "id": "x",
            "name": "X",
            "kind": "city",
            "province": "p",
            "terrain": terrain,
            "lon": 0.0,
            "lat": 40.0,
            "owner": "o",
            **kw,
        }
    )


def test_cost_formula(world: CampaignMap) -> None:
    costs: Costs = world.costs
    clear, hills, mountains = _space("clear"), _space("hills"), _space("mountains")
    pass_ = _space("mountains", kind="region", **{"pass": True})
    off = _space("desert", kind="off-map")
    assert land_edge_cost(costs, "road", (clear, hills), "", 100) == 1
    assert land_edge_cost(costs, "cross_country", (clear, hills), "", 100) == 3
    assert land_edge_cost(costs, "cross_country", (clear, mountains), "", 100) == 4
    assert land_edge_cost(costs, "cross_country", (clear, pass_), "", 100) == 5
    assert land_edge_cost(costs, "road", (clear, pass_), "", 100) == 2
    assert land_edge_cost(costs, "cross_country", (clear, clear), "padus", 100) == 3
    assert land_edge_cost(costs, "road", (clear, clear), "padus", 100) == 1
    # one more for every full 250 km beyond the first
    assert land_edge_cost(costs, "road", (clear, clear), "", 250) == 1
    assert land_edge_cost(costs, "road", (clear, clear), "", 251) == 2
    assert land_edge_cost(costs, "road", (clear, clear), "", 600) == 3
    # but not into an off-map region, whose position is nominal
    assert land_edge_cost(costs, "cross_country", (clear, off), "", 900) == 3
    assert land_edge_cost(costs, "strait", (mountains, pass_), "rhenus", 900) == 1


# ----------------------------------------------------------------------------- queries


def test_neighbours_by_kind(world: CampaignMap) -> None:
    assert world.neighbours("messana", ("strait",)) == ["rhegium"]
    assert "roma" in world.neighbours("capua", ("road",))
    assert world.neighbours("brundisium", ("sea_lane",)) == ["mare_adriaticum_inf"]
    assert set(world.neighbours("roma")) >= {"capua", "corfinium", "mare_tyrrhenum_n"}
    links = world.links("roma", ("road",))
    assert {lk.name for lk in links} >= {"Via Appia", "Via Flaminia", "Via Valeria", "Via Salaria", "Via Aurelia"}


def test_ports_and_seas(world: CampaignMap) -> None:
    assert set(world.ports_of("mare_adriaticum_inf")) >= {"brundisium", "dyrrachium", "apollonia", "oricum"}
    assert world.seas_of("capua") == []
    assert "mare_ionium" in world.adjacent_seas("mare_adriaticum_inf")
    assert world.sea_route("utica", "alexandria") is not None
    with pytest.raises(ValueError, match="not a port"):
        world.sea_route("capua", "alexandria")


def test_land_route_can_avoid_a_place(world: CampaignMap) -> None:
    # 004: Antipater left the road to go round Pelusium
    direct = world.land_route("caesarea", "alexandria")
    assert direct is not None and "pelusium" in direct.path
    detour = world.land_route("caesarea", "alexandria", avoid=["pelusium"])
    assert detour is not None and "pelusium" not in detour.path
    assert "rhinocolura" in detour.path and detour.cost > direct.cost
    assert world.land_route("roma", "caralis") is None  # Sardinia only by sea


def test_route_totals(world: CampaignMap) -> None:
    r = world.land_route("roma", "brundisium")
    assert r is not None
    assert r.path[0] == "roma" and r.path[-1] == "brundisium"
    assert r.cost == sum(_cost(world, u, v) for u, v in itertools.pairwise(r.path))
    assert r.km > world.distance_km("roma", "brundisium")


def test_spaces_by_province_and_owner(world: CampaignMap) -> None:
    assert set(world.in_province("sicilia")) == {"syracusa", "messana", "panormus", "lilybaeum", "agrigentum", "henna"}
    assert "roma" in world.owned_by("senatorial")
    assert set(world.landmass("caralis")) == {"caralis", "turris_libisonis", "barbaria"}
    assert "rhodanus" in world.space("arelate").rivers
    assert "arelate" in world.on_river("rhodanus")


def test_unknown_places_are_refused(world: CampaignMap) -> None:
    with pytest.raises(KeyError, match="atlantis"):
        world.space("atlantis")
    with pytest.raises(KeyError, match="atlantis"):
        world.neighbours("atlantis")
    with pytest.raises(KeyError, match="mare_ionium"):
        world.space("mare_ionium")
    with pytest.raises(KeyError):
        world.in_province("britannia")
    with pytest.raises(KeyError):
        world.owned_by("carthage")


def test_great_circle() -> None:
    assert great_circle_km(0, 0, 0, 0) == 0
    # one degree of latitude is about 111 km
    assert 110 < great_circle_km(10, 40, 10, 41) < 112
    assert great_circle_km(12.48, 41.89, 29.92, 31.2) == pytest.approx(great_circle_km(29.92, 31.2, 12.48, 41.89))


def test_map_module_does_not_import_arcade() -> None:
    code = "import sys, campaign.map; sys.exit(1 if 'arcade' in sys.modules else 0)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


# ----------------------------------------------------------------------------- validation


def _raw() -> dict[str, Any]:
    return tomllib.loads(DEFAULT_MAP.read_text(encoding="utf-8"))


def _find(items: list[dict[str, Any]], ident: str) -> dict[str, Any]:
    return next(i for i in items if i["id"] == ident)


def _edge(raw: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    return next(e for e in raw["edge"] if {e["a"], e["b"]} == {a, b})


def _dup_space(raw: dict[str, Any]) -> None:
    raw["space"].append(copy.deepcopy(_find(raw["space"], "roma")))


def _sea_with_land_id(raw: dict[str, Any]) -> None:
    raw["sea"].append({"id": "roma", "name": "Mare Romanum", "lon": 12.0, "lat": 41.0, "crossing": 1})


def _set(ident: str, **kw: Any) -> Callable[[dict[str, Any]], None]:
    def go(raw: dict[str, Any]) -> None:
        _find(raw["space"], ident).update(kw)

    return go


def _set_sea(ident: str, **kw: Any) -> Callable[[dict[str, Any]], None]:
    def go(raw: dict[str, Any]) -> None:
        _find(raw["sea"], ident).update(kw)

    return go


def _add_edge(**kw: Any) -> Callable[[dict[str, Any]], None]:
    def go(raw: dict[str, Any]) -> None:
        raw["edge"].append(kw)

    return go


def _drop_edge(a: str, b: str) -> Callable[[dict[str, Any]], None]:
    def go(raw: dict[str, Any]) -> None:
        raw["edge"].remove(_edge(raw, a, b))

    return go


def _edge_river(raw: dict[str, Any]) -> None:
    _edge(raw, "roma", "capua")["river"] = "styx"


def _unported_brundisium(raw: dict[str, Any]) -> None:
    sea = _find(raw["sea"], "mare_adriaticum_inf")
    sea["ports"] = [p for p in sea["ports"] if p != "brundisium"]


def _corsica_without_port(raw: dict[str, Any]) -> None:
    _find(raw["space"], "aleria")["port"] = False
    sea = _find(raw["sea"], "mare_tyrrhenum_n")
    sea["ports"] = [p for p in sea["ports"] if p != "aleria"]


def _isolated_sea(raw: dict[str, Any]) -> None:
    raw["sea"].append({"id": "mare_nostrum", "name": "Mare Nostrum", "lon": 18.0, "lat": 34.0, "crossing": 1})


def _dup_province(raw: dict[str, Any]) -> None:
    raw["province"].append({"id": "italia", "name": "Italia again"})


def _extra_key(raw: dict[str, Any]) -> None:
    raw["space"][0]["elephants"] = True


def _bad_edge_kind(raw: dict[str, Any]) -> None:
    _edge(raw, "roma", "capua")["kind"] = "ferry"


def _adjacent_twice(raw: dict[str, Any]) -> None:
    _find(raw["sea"], "mare_adriaticum_sup")["adjacent"] = ["mare_adriaticum_inf"]


#: (how to break the map, the place named, a fragment of the problem)
BROKEN: list[tuple[str, Callable[[dict[str, Any]], None], str, str]] = [
    ("duplicate space", _dup_space, "space 'roma'", "listed twice"),
    ("sea reuses a land id", _sea_with_land_id, "sea 'roma'", "uses the id of a land space"),
    ("duplicate province", _dup_province, "province 'italia'", "declared twice"),
    ("unknown province", _set("roma", province="latium"), "space 'roma'", "province 'latium'"),
    ("unknown owner", _set("roma", owner="carthage"), "space 'roma'", "owner 'carthage'"),
    ("unknown river on a space", _set("roma", rivers=["styx"]), "space 'roma'", "river 'styx'"),
    ("unknown river on an edge", _edge_river, "edge roma–capua", "river 'styx'"),
    ("position off the map", _set("roma", lon=-40.0), "space 'roma'", "outside the map's box"),
    ("sea off the map", _set_sea("mare_ionium", lat=10.0), "sea 'mare_ionium'", "outside the map's box"),
    (
        "capital that is a region",
        _set("samnium", capital=True),
        "space 'samnium'",
        "only a city can be a provincial capital",
    ),
    ("income on off-map", _set("parthia", income=True), "space 'parthia'", "only a city can be an income city"),
    ("pass on a city", _set("corfinium", **{"pass": True}), "space 'corfinium'", "a mountain pass is a region"),
    ("pass not mountains", _set("tempe", terrain="clear"), "space 'tempe'", "a pass is mountains"),
    ("dangling edge", _add_edge(a="roma", b="atlantis", kind="road"), "edge roma–atlantis", "no place on the map"),
    (
        "road into the sea",
        _add_edge(a="roma", b="mare_tyrrhenum_n", kind="road"),
        "edge roma–mare_tyrrhenum_n",
        "only sea lanes reach the sea",
    ),
    ("edge to itself", _add_edge(a="roma", b="roma", kind="road"), "edge roma–roma", "joins a place to itself"),
    ("duplicate edge", _add_edge(a="capua", b="roma", kind="cross_country"), "edge capua–roma", "listed twice"),
    (
        "strait to an inland space",
        _add_edge(a="capua", b="messana", kind="strait"),
        "edge capua–messana",
        "Capua is not a port",
    ),
    ("sea lists a non-port", _set_sea("mare_ionium", ports=["capua"]), "sea 'mare_ionium'", "has no 'port = true'"),
    ("sea lists an unknown port", _set_sea("mare_ionium", ports=["atlantis"]), "sea 'mare_ionium'", "no place"),
    (
        "sea lists a port twice",
        _set_sea("sinus_corinthiacus", ports=["patrae", "patrae", "corinthus"]),
        "sea 'sinus_corinthiacus'",
        "twice",
    ),
    (
        "sea lists a sea as a port",
        _set_sea("sinus_corinthiacus", ports=["patrae", "corinthus", "mare_ionium"]),
        "sea 'sinus_corinthiacus'",
        "put neighbouring zones in 'adjacent'",
    ),
    (
        "sea lane between land spaces",
        _set_sea("propontis", adjacent=["pontus_euxinus", "byzantium"]),
        "sea 'propontis'",
        "never joins land to land",
    ),
    (
        "adjacent unknown",
        _set_sea("propontis", adjacent=["pontus_euxinus", "mare_caspium"]),
        "sea 'propontis'",
        "no sea zone",
    ),
    ("adjacent itself", _set_sea("propontis", adjacent=["pontus_euxinus", "propontis"]), "sea 'propontis'", "itself"),
    ("adjacent twice", _adjacent_twice, "sea 'mare_adriaticum_sup'", "twice"),
    ("port touching no sea", _unported_brundisium, "space 'brundisium'", "no sea zone lists it"),
    ("off-map region alone", _drop_edge("petra", "arabia"), "space 'arabia'", "connects to nothing"),
    ("island without a port", _corsica_without_port, "space 'aleria'", "has no port"),
    ("landmass joined by land", _set("henna", landmass="sicilia"), "space 'henna'", "joined by land to Roma"),
    ("mainland broken", _drop_edge("messana", "rhegium"), "space 'syracusa'", "no road, cross-country route or strait"),
    ("sea with no neighbour", _isolated_sea, "sea 'mare_nostrum'", "touches no other sea zone"),
    (
        "mistyped position",
        _set("osca", lon=10.41),
        "edge ilerda–osca",
        "km an edge on the map may span",
    ),
    ("port far from its sea", _set_sea("sinus_corinthiacus", lon=12.0), "sea 'sinus_corinthiacus'", "km from the zone"),
    ("unknown key", _extra_key, "space 'roma' (space[0].elephants)", "is not a key this file may have"),
    ("bad terrain", _set("roma", terrain="swamp"), "space 'roma' (space[0].terrain)", "input should be"),
    ("pass spelt out", _set("tempe", mountain_pass=True), "space 'tempe' (space[", "is not a key this file may have"),
    ("bad edge kind", _bad_edge_kind, "edge roma–capua (edge[0].kind)", "input should be"),
    ("bad crossing", _set_sea("propontis", crossing=0), "sea 'propontis' (sea[", "greater than or equal to 1"),
]


@pytest.mark.parametrize(("label", "breaker", "place", "fragment"), BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_maps_are_refused(
    tmp_path: Path, label: str, breaker: Callable[[dict[str, Any]], None], place: str, fragment: str
) -> None:
    raw = _raw()
    breaker(raw)
    path = tmp_path / "broken.toml"
    path.write_text(tomli_w.dumps(raw), encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_map(path)
    err = info.value
    assert err.source == str(path)
    assert err.place.startswith(place), (err.place, err.problem)
    assert fragment in err.problem, err.problem
    assert "\n" not in str(err)


def test_problems_are_counted(tmp_path: Path) -> None:
    raw = _raw()
    _set("roma", owner="carthage")(raw)
    _set("capua", owner="carthage")(raw)
    path = tmp_path / "two.toml"
    path.write_text(tomli_w.dumps(raw), encoding="utf-8")
    with pytest.raises(InputError, match=r"and 1 more problem\)"):
        load_map(path)


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_map(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text('map.name = "x\n', encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_map(bad)
    assert info.value.place.startswith("line 1")


def test_the_shipped_map_loads_cleanly() -> None:
    world = load_map(DEFAULT_MAP)
    assert world.source == DEFAULT_MAP
    assert world.data.map.version >= 1


def test_route_edge_cases(world: CampaignMap) -> None:
    here = world.land_route("roma", "roma")
    assert here is not None and here.path == ("roma",) and here.cost == 0
    with pytest.raises(ValueError, match="land route"):
        world.land_route("roma", "capua", kinds=("sea_lane",))
    with pytest.raises(KeyError):
        world.land_route("roma", "mare_ionium")


MAINLAND = sorted(s.id for s in roman_world().spaces.values() if s.landmass == "mainland")
PORTS = sorted(roman_world().ports())


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(MAINLAND), st.sampled_from(MAINLAND))
def test_any_two_mainland_spaces_are_joined_by_land(a: str, b: str) -> None:
    world = roman_world()
    there = world.land_route(a, b)
    back = world.land_route(b, a)
    assert there is not None and back is not None
    assert there.cost == back.cost
    assert there.cost == sum(_cost(world, u, v) for u, v in itertools.pairwise(there.path))
    # no route is cheaper than its own parts, and leaving a place out never makes a route cheaper
    middle = list(there.path[1:-1])
    if middle:
        detour = world.land_route(a, b, avoid=middle[:1])
        assert detour is None or detour.cost >= there.cost


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PORTS), st.sampled_from(PORTS))
def test_any_two_ports_are_joined_by_sea(a: str, b: str) -> None:
    world = roman_world()
    voyage = world.sea_route(a, b)
    assert voyage is not None
    assert set(voyage.kinds) <= {"sea_lane"}
    assert all(world.is_sea(p) for p in voyage.path[1:-1])
