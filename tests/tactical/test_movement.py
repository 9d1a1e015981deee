"""The cost model and the one search: the generator, the fast search and the validator agree."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bellum.dice import Dice
from bellum.errors import RuleError
from tactical.actions import Move
from tactical.engine import apply_with_choices
from tactical.hexes import FACING_CLOCK, SIDE_CLOCK
from tactical.movement import MoveCosts, legal_destinations, movement_allowance, reachable
from tactical.state import Leader, Unit
from tactical.tables import HALF, NO, move_tables, unit_types
from tests.tactical.helpers import position, unit
from tests.tactical.randpos import random_position


def _path_text(state, mover, tokens) -> tuple[str, ...]:  # type: ignore[no-untyped-def]
    g = state.field.grid
    out = []
    for kind, v in tokens:
        if kind == "hex":
            out.append(g.hex_id(v))
        else:
            out.append(f"face:{SIDE_CLOCK[v] if mover.column else FACING_CLOCK[v]}")
    return tuple(out)


def _networkx_dist(mc: MoveCosts) -> dict[int, int]:
    """networkx's Dijkstra over the graph of ``MoveCosts.successors`` (the rules, step by step)
    from the mover's start: the reference the table-driven search must equal."""
    g = nx.DiGraph()
    g.add_node(mc.start)
    todo, seen = [mc.start], {mc.start}
    while todo:
        node = todo.pop()
        for nxt, cost, _tok in mc.successors(node):
            if cost <= mc.ma2:
                g.add_edge(node, nxt, weight=cost)
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
    return dict(nx.single_source_dijkstra_path_length(g, mc.start, cutoff=mc.ma2))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.booleans(), st.integers(0, 200))
def test_search_equals_networkx_dijkstra(seed: int, leaving_zoc: bool, pick: int) -> None:
    """``reachable`` settles exactly the nodes networkx's Dijkstra reaches over the rules' graph,
    at the same least costs, for every unit of a random position (with option leaving-zoc or
    not) and a leader set on a random free or friendly hex; each node after the node it was
    reached from, every parent one step of the rules away."""
    state = random_position(seed)
    if leaving_zoc:
        state.options = state.options | {"leaving-zoc"}
    grid = state.field.grid
    mine = [u for u in state.units.values() if u.on_map and u.side == "A"]
    hexes = [u.hex for u in mine] + [i for i in range(grid.size) if not state.units_at(i)]
    state.leaders["LX"] = Leader("LX", "A", hexes[pick % len(hexes)], 5, 4)
    state.cache.clear()
    movers: list[Unit | Leader] = [u for u in state.units.values() if u.on_map]
    for mover in [*movers, state.leaders["LX"]]:
        reach = reachable(state, mover)
        assert reach.dist == _networkx_dist(reach.costs), mover.id
        seen: set[int] = set()
        for node in reach.order:
            p = reach.parent[node]
            assert p < 0 or p in seen
            if p >= 0:
                step = {nxt: cost for nxt, cost, _ in reach.costs.successors(p)}
                assert reach.dist[p] + step[node] == reach.dist[node]
            seen.add(node)
        assert seen == set(reach.dist)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_every_generated_move_is_accepted_at_its_cost(seed: int) -> None:
    """The validator accepts every path the generator offers, at exactly the generator's cost."""
    state = random_position(seed)
    for u in list(state.units.values()):
        if u.side != "A" or not u.on_map:
            continue
        reach = reachable(state, u)
        for node in reach.ends():
            if node == reach.costs.start:
                continue
            path = _path_text(state, u, reach.tokens(node))
            new, _ = apply_with_choices(state, Move(u.id, path), Dice.forced([9] * 8))
            want = reach.dist[node] / HALF
            assert new.last_mp == want, (u.id, path)
            moved = new.units[u.id]
            assert moved.hex * 6 + moved.facing == node


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 50))
def test_paths_the_generator_does_not_offer_are_refused(seed: int, pick: int) -> None:
    """A random hex sequence is accepted only if every step is one the generator offers."""
    state = random_position(seed)
    mover = next(u for u in state.units.values() if u.side == "A" and u.on_map and not u.double)
    g = state.field.grid
    i = mover.hex
    path = []
    for k in range(3):
        nbrs = [j for j in g.neighbours(i)]
        i = nbrs[(pick + k) % len(nbrs)]
        path.append(g.hex_id(i))
    reach = reachable(state, mover)
    try:
        new, _ = apply_with_choices(state, Move(mover.id, tuple(path)), Dice.forced([9] * 8))
    except RuleError:
        return
    node = new.units[mover.id].hex * 6 + new.units[mover.id].facing
    assert node in reach.dist and reach.costs.may_end(node)


def test_benchmark_position_is_reached_within_ma() -> None:
    state = position([unit("C", "A", "1010", utype="HC", ma=8)], columns=30, rows=20)
    dest = legal_destinations(state, state.units["C"])
    assert max(dest.values()) <= 8 * HALF
    # every facing of the start hex, and hexes up to 8 away in the front
    g = state.field.grid
    assert all(g.index("1010") * 6 + f in dest for f in range(6))
    assert any(g.distance(n // 6, g.index("1010")) == 8 for n in dest)


def test_phalanx_ma_is_four_and_column_six() -> None:
    st_ = position([unit("P", "A", "1010", utype="PH", ma=5, hex2="1110")])
    assert movement_allowance(st_.units["P"]) == 4


def test_tables_cover_every_class_and_type() -> None:
    t = move_tables()
    assert len(t.hex_cost) == 11 and all(len(r) == 6 for r in t.hex_cost)
    assert t.hex_cost[0][0] == HALF and t.hex_cost[0][5] == NO
    assert set(unit_types()) == {
        "PH",
        "HO",
        "HI",
        "LG",
        "CO",
        "MI",
        "BI",
        "LP",
        "LI",
        "SK",
        "SK*",
        "HC",
        "RC",
        "BC",
        "LN",
        "LC",
        "EL",
        "CH",
        "AT",
    }


def test_bad_terrain_table_is_one_clear_sentence(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from bellum.errors import InputError
    from bellum.tomlio import load_model
    from tactical.tables import DATA, TerrainFile

    text = (DATA / "terrain.toml").read_text().replace("woods      = [ 2,", "woods      = [ -2,")
    bad = tmp_path / "terrain.toml"
    bad.write_text(text)
    with pytest.raises(InputError) as err:
        load_model(TerrainFile, bad)
    assert "hex.woods" in str(err.value)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_written_paths_equal_the_token_paths(seed: int) -> None:
    state = random_position(seed)
    for u in state.units.values():
        if not u.on_map:
            continue
        reach = reachable(state, u)
        nodes = list(reach.dist)
        paths = reach.notations(nodes)
        for n in nodes:
            assert paths[n] == _path_text(state, u, reach.tokens(n))


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_end_paths_equal_the_ends_and_their_notations(seed: int) -> None:
    """``Reach.end_paths`` (the one-pass generator ``legal_actions`` uses) lists exactly the
    legal ends but the start, each with the path ``notations`` writes for it."""
    state = random_position(seed)
    for u in state.units.values():
        if not u.on_map:
            continue
        reach = reachable(state, u)
        ends = [n for n in reach.ends() if n != reach.costs.start]
        assert dict(reach.end_paths()) == reach.notations(ends)
        assert sorted(n for n, _ in reach.end_paths()) == sorted(ends)
