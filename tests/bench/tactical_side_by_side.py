"""Tactical search and move generation, old code against new in one process (issue 20 items 1, 3).

    git worktree add --detach /tmp/old41 d1641d1        # (or any checkout of the code before)
    .venv/bin/python tests/bench/tactical_side_by_side.py --old /tmp/old41

The old ``tactical`` package is copied under another name (``tactical_old``, its imports
renamed) into a temporary folder with the benchmark's position builders, so both are
imported into one process; the calls then alternate old, new, old, new ... each timed in
CPU time (``time.process_time``), so both see the same load on a shared machine.  What is
timed is what ``tests/bench/test_bench_tactical.py`` times:

* ``reachable``: the MA-8 cavalry of the 54×30 bench position (100 other units), and
  networkx's Dijkstra on the prebuilt (hex, facing) graph of the same mover, three calls
  alternated (old, new, networkx) — item 1's ratio is networkx against the new search;
* ``legal_actions`` on a new Pharsalus position (Caesar's Move/Fire segment, every cache the
  generator keeps emptied before each call);
* ``legal_actions`` asked again on an unchanged position of 400 units.

Each figure is the median over ``--rounds`` rounds of the per-call CPU time (a round times a
batch of calls of one kind); the ratio is the median of the per-round ratios.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _renamed(text: str) -> str:
    for a, b in (
        ("from tactical.", "from tactical_old."),
        ("import tactical.", "import tactical_old."),
        ("from tactical import", "from tactical_old import"),
        ("from tests.tactical.helpers import", "from tactical_old_helpers import"),
    ):
        text = text.replace(a, b)
    return text


def _copy_old(src: Path, dest: Path) -> None:
    """``src``'s tactical package and bench builders copied to ``dest`` under other names."""
    target = dest / "tactical_old"
    shutil.copytree(src / "tactical", target, ignore=shutil.ignore_patterns("view", "__pycache__"))
    for f in target.rglob("*.py"):
        f.write_text(_renamed(f.read_text(encoding="utf-8")), encoding="utf-8")
    for name, out in (
        ("tests/tactical/helpers.py", "tactical_old_helpers.py"),
        ("tests/bench/test_bench_tactical.py", "tactical_old_bench.py"),
    ):
        (dest / out).write_text(_renamed((src / name).read_text(encoding="utf-8")), encoding="utf-8")


def _batch(fn: Callable[[], Any], calls: int) -> float:
    """CPU seconds per call of ``calls`` calls."""
    t0 = time.process_time()
    for _ in range(calls):
        fn()
    return (time.process_time() - t0) / calls


def alternate(fns: dict[str, Callable[[], Any]], rounds: int, calls: int) -> dict[str, list[float]]:
    """Per-call CPU times (ms) of each function, one batch of each per round, in turn."""
    for fn in fns.values():  # warm up
        _batch(fn, calls)
    out: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(rounds):
        for k, fn in fns.items():
            gc.collect()
            out[k].append(_batch(fn, calls) * 1000)
    return out


def _report(title: str, times: dict[str, list[float]], base: str, other: str) -> None:
    med = {k: statistics.median(v) for k, v in times.items()}
    ratio = statistics.median(a / b for a, b in zip(times[base], times[other], strict=True))
    figures = ", ".join(f"{k} {v:.3f} ms" for k, v in med.items())
    print(f"{title}: {figures}; {base}/{other} ×{ratio:.2f}")


def _reachable(bench: ModuleType, movement: ModuleType) -> Callable[[], Any]:
    state, uid = bench.bench_position()
    cav = state.units[uid]
    return lambda: movement.reachable(state, cav)


def _new_position(bench: ModuleType, legal: ModuleType) -> Callable[[], Any]:
    state = bench._pharsalus_move_segment()
    cold = bench._cold

    return lambda: legal.legal_actions(cold(state))


def _repeated(bench: ModuleType, legal: ModuleType, n: int) -> Callable[[], Any]:
    state = bench.crowd(n)
    legal.legal_actions(state)
    return lambda: legal.legal_actions(state)


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--old", required=True, type=Path, help="a checkout of the old code")
    p.add_argument("--rounds", type=int, default=40, help="rounds of each (default 40)")
    p.add_argument("--only", choices=("reachable", "new", "repeated"), help="one comparison only")
    args = p.parse_args()
    import networkx as nx

    from tactical import legal, movement
    from tests.bench import test_bench_tactical as bench

    with tempfile.TemporaryDirectory() as tmp:
        _copy_old(args.old, Path(tmp))
        sys.path.insert(0, tmp)
        old_bench = importlib.import_module("tactical_old_bench")
        old_movement = importlib.import_module("tactical_old.movement")
        old_legal = importlib.import_module("tactical_old.legal")
        if args.only in (None, "reachable"):
            state, uid = bench.bench_position()
            g, start, ma2 = bench.nx_graph(state, uid)
            times = alternate(
                {
                    "old": _reachable(old_bench, old_movement),
                    "new": _reachable(bench, movement),
                    "networkx": lambda: nx.single_source_dijkstra_path(g, start, ma2),
                },
                args.rounds,
                20,
            )
            _report("reachable, MA-8 cavalry, bench position", times, "old", "new")
            _report("  networkx Dijkstra on the prebuilt graph against the new search", times, "networkx", "new")
            _report("  networkx Dijkstra on the prebuilt graph against the old search", times, "networkx", "old")
        if args.only in (None, "new"):
            times = alternate(
                {"old": _new_position(old_bench, old_legal), "new": _new_position(bench, legal)}, args.rounds, 3
            )
            _report("legal_actions, a new Pharsalus position", times, "old", "new")
        if args.only in (None, "repeated"):
            times = alternate(
                {"old": _repeated(old_bench, old_legal, 400), "new": _repeated(bench, legal, 400)}, args.rounds, 5
            )
            _report("legal_actions asked again, 400 units", times, "old", "new")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
