"""Tactical benchmarks (issue 3 §8): reachable moves of an MA-8 cavalry unit on a 54×30 map
with terrain and 100 other units — our search (target median ≤ 2 ms) against networkx's
Dijkstra over the same (hex, facing) graph (target ratio ≥ 5×).  Run by ``bellum bench``."""

from __future__ import annotations

import statistics
import time
from typing import Any

import networkx as nx
import pytest

from bellum.dice import Dice
from tactical.hexes import FACING_CLOCK
from tactical.movement import MoveCosts, reachable
from tactical.state import State
from tests.tactical.helpers import position

COLUMNS, ROWS = 54, 30


def bench_position() -> tuple[State, str]:
    """A 54×30 field: woods, rough, marsh, hills, streams; 100 units of both sides; one HC (MA 8)."""
    dice = Dice(1234)
    terrain: dict[str, str] = {}
    level: dict[str, int] = {}
    hexsides: dict[str, str] = {}
    for c in range(1, COLUMNS + 1):
        for r in range(1, ROWS + 1):
            hid = f"{c:02d}{r:02d}"
            k = dice.roll(20, "terrain")
            if k <= 2:
                terrain[hid] = "woods"
            elif k == 3:
                terrain[hid] = "rough"
            elif k == 4:
                terrain[hid] = "marsh"
            if dice.roll(8, "level") == 1:
                level[hid] = dice.roll(2, "h")
            if c < COLUMNS and dice.roll(15, "side") == 1:
                hexsides[f"{hid}/{c + 1:02d}{r:02d}"] = "stream"
    units: list[dict[str, Any]] = [
        {"id": "CAV", "side": "A", "type": "HC", "size": 4, "tq": 7, "ma": 8, "hex": "2715", "facing": 12}
    ]
    terrain["2715"] = "clear"
    used = {"2715"}
    n = 0
    while len(units) < 101:
        c, r = dice.roll(COLUMNS, "c"), dice.roll(ROWS, "r")
        hid = f"{c:02d}{r:02d}"
        if hid in used:
            continue
        used.add(hid)
        side = "A" if n % 2 else "B"
        utype = ("HI", "LI", "MI", "LC")[n % 4]
        ma = {"HI": 6, "LI": 7, "MI": 6, "LC": 9}[utype]
        units.append(
            {
                "id": f"U{n}",
                "side": side,
                "type": utype,
                "size": 5,
                "tq": 6,
                "ma": ma,
                "hex": hid,
                "facing": FACING_CLOCK[dice.roll(6, "f") - 1],
            }
        )
        n += 1
    state = position(
        units, rules="simple-spqr", columns=COLUMNS, rows=ROWS, terrain=terrain, level=level, hexsides=hexsides
    )
    return state, "CAV"


def nx_graph(state: State, uid: str, radius: int | None = None) -> tuple[nx.DiGraph, int, int]:
    """The same (hex, facing) graph as an explicit networkx graph, built from the same cost model:
    the whole map, or only the hexes within ``radius`` of the mover (what one query needs)."""
    mover = state.units[uid]
    mc = MoveCosts(state, mover)
    grid = state.field.grid
    g = nx.DiGraph()
    for i in range(grid.size):
        if radius is not None and grid.distance(i, mover.hex) > radius:
            continue
        for f in range(6):
            for nxt, cost, _tok in mc.successors(i * 6 + f):
                g.add_edge(i * 6 + f, nxt, weight=cost)
    return g, mc.start, mc.ma2


def nx_query(state: State, uid: str) -> dict[int, int]:
    """The whole query done with networkx: build this mover's graph (its costs depend on the
    position: fronts, friends, enemies) within its MA, then Dijkstra."""
    ma = state.units[uid].ma
    g, start, ma2 = nx_graph(state, uid, radius=ma)
    return dict(nx.single_source_dijkstra_path_length(g, start, cutoff=ma2))


def test_bench_reachable(benchmark: Any) -> None:
    state, uid = bench_position()
    cav = state.units[uid]
    result = benchmark(reachable, state, cav)
    assert len(result.dist) > 100


def test_bench_networkx_query(benchmark: Any) -> None:
    state, uid = bench_position()
    result = benchmark(nx_query, state, uid)
    assert result == reachable(state, state.units[uid]).dist


def test_bench_networkx_dijkstra_only(benchmark: Any) -> None:
    state, uid = bench_position()
    g, start, ma2 = nx_graph(state, uid)
    result = benchmark(nx.single_source_dijkstra_path, g, start, cutoff=ma2)
    assert set(result) == set(reachable(state, state.units[uid]).dist)


def _median(fn: Any, *args: Any, n: int = 60) -> float:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _alternated(a: Any, b: Any, blocks: int = 30, calls: int = 10) -> tuple[float, float, float]:
    """``a`` and ``b`` timed in turn, ``blocks`` times ``calls`` calls of each (warm within a
    block, as a repeated query is): (median call of a, median call of b, median over the blocks
    of the ratio of their medians b / a).  Taking turns keeps a slow spell of a shared machine
    from landing on one side only (one block of each gave 3.2x to 5.4x in three runs within
    minutes); the blocks keep each call's data warm (call by call, each evicts the other's)."""
    ta: list[float] = []
    tb: list[float] = []
    ratios: list[float] = []
    for _ in range(blocks):
        block: list[list[float]] = [[], []]
        for fn, out in ((a, block[0]), (b, block[1])):
            for _ in range(calls):
                t0 = time.perf_counter()
                fn()
                out.append(time.perf_counter() - t0)
        ta += block[0]
        tb += block[1]
        ratios.append(statistics.median(block[1]) / statistics.median(block[0]))
    return statistics.median(ta), statistics.median(tb), statistics.median(ratios)


def test_side_by_side_ratio(benchmark: Any) -> None:
    """Ours and networkx in one run, block by block in turn; the ratios are reported (target
    ≥ 5×): the median of the blocks' ratios, and the ratio of the medians beside it."""
    state, uid = bench_position()
    cav = state.units[uid]
    g, start, ma2 = nx_graph(state, uid)
    ours, dijkstra, pairs = _alternated(
        lambda: reachable(state, cav), lambda: nx.single_source_dijkstra_path(g, start, ma2)
    )
    query = _median(nx_query, state, uid, n=15)
    benchmark.extra_info.update(
        {
            "ours_ms": ours * 1e3,
            "networkx_query_ms": query * 1e3,
            "networkx_dijkstra_only_ms": dijkstra * 1e3,
            "ratio_query": query / ours,
            "ratio_dijkstra_only": pairs,
            "ratio_dijkstra_only_of_medians": dijkstra / ours,
        }
    )
    print(
        f"\nreachable {ours * 1e3:.3f} ms; networkx query {query * 1e3:.3f} ms ({query / ours:.1f}x); "
        f"networkx Dijkstra alone on a prebuilt graph {dijkstra * 1e3:.3f} ms "
        f"({pairs:.2f}x by blocks, {dijkstra / ours:.2f}x by medians)"
    )
    benchmark(reachable, state, cav)


def _shock_position() -> State:
    from tests.tactical.helpers import unit as u_

    raw = position(
        [u_("A1", "A", "1009", tq=7), u_("B1", "B", "1008", facing=6, utype="LI", ma=7, size=4, tq=5)],
        rules="sgboh",
        sequence={"side": "A", "phase": "shock"},
    )
    return raw


def test_bench_shock_odds_exact(benchmark: Any) -> None:
    """Every outcome of one shock through the real resolver (issue 4 §7: median ≤ 0.5 ms)."""
    from tactical.combat import Shock
    from tactical.odds import shock_odds

    state = _shock_position()
    result = benchmark(shock_odds, state, Shock(("A1",), "B1"))
    assert sum(result.values()) == 1


def test_bench_shock_result_preview(benchmark: Any) -> None:
    from tactical.combat import Shock
    from tactical.odds import shock_result_odds

    state = _shock_position()
    result = benchmark(shock_result_odds, state, Shock(("A1",), "B1"))
    assert sum(result.values()) == 1


def _pharsalus_move_segment() -> State:
    """Pharsalus after Caesar is activated: his Move/Fire segment, every unit in his range to move."""
    from tactical.actions import Activate
    from tactical.engine import apply
    from tactical.game import TacticalEngine

    state = TacticalEngine().new_state("pharsalus", Dice(1))
    state, _ = apply(state, Activate(leader="Caesar"), Dice(1))
    return state


def _cold(state: State) -> State:
    """The same position with every cache the generator keeps emptied (a position never asked)."""
    state.field.move_cache.clear()
    state.field.index_cache.clear()
    state.cache.clear()
    return state


def test_bench_legal_actions_pharsalus_new_position(benchmark: Any) -> None:
    """``legal_actions`` on a position never asked before (docs/PERFORMANCE.md, Tactical)."""
    from tactical.legal import legal_actions

    state = _pharsalus_move_segment()
    expected = len(legal_actions(state))
    result = benchmark.pedantic(
        legal_actions, setup=lambda: ((_cold(state),), {}), rounds=20, iterations=1, warmup_rounds=1
    )
    assert len(result) == expected > 1000


def test_bench_legal_actions_pharsalus_repeated(benchmark: Any) -> None:
    """The same position asked again: the AI's case, moves cached on the battlefield."""
    from tactical.legal import legal_actions

    state = _pharsalus_move_segment()
    expected = legal_actions(state)
    result = benchmark(legal_actions, state)
    assert result == expected


def crowd(n: int) -> State:
    """``n`` units, both sides alike, spread over a field sized for one in ten hexes (at most
    99 columns), random facings: the Move/Fire segment of side A."""
    side = max(12, min(99, int((n * 10) ** 0.5)))
    dice = Dice(7)
    used: set[str] = set()
    units: list[dict[str, Any]] = []
    while len(units) < n:
        hid = f"{dice.roll(side, 'c'):02d}{dice.roll(side, 'r'):02d}"
        if hid in used:
            continue
        used.add(hid)
        k = len(units)
        utype = ("HI", "LI", "MI", "LC")[k % 4]
        ma = {"HI": 6, "LI": 7, "MI": 6, "LC": 9}[utype]
        facing = FACING_CLOCK[dice.roll(6, "f") - 1]
        units.append({"id": f"U{k}", "side": "AB"[k % 2], "type": utype, "size": 5, "tq": 6, "ma": ma})
        units[-1].update(hex=hid, facing=facing)
    return position(units, rules="simple-spqr", columns=side, rows=side)


@pytest.mark.parametrize("n", [10, 100, 400, 800])
def test_bench_legal_actions_repeated_by_units(benchmark: Any, n: int) -> None:
    """``legal_actions`` asked again on an unchanged position of ``n`` units (issue 20: linear in
    the units, ≤ 2 ms at 400)."""
    import gc

    from tactical.legal import legal_actions

    state = crowd(n)
    expected = legal_actions(state)
    for _ in range(3):
        legal_actions(state)
    gc.collect()  # the first search's garbage, not this query's
    result = benchmark.pedantic(legal_actions, args=(state,), rounds=40, iterations=1, warmup_rounds=2)
    benchmark.extra_info["actions"] = len(expected)
    assert result == expected
