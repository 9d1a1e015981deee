"""Battleboard auto-resolve, old code against new in one process (issue 20 item 2).

    mkdir -p /tmp/old && git archive aad44e6 battleboard | tar -x -C /tmp/old   # the code before
    .venv/bin/python tests/bench/battleboard_side_by_side.py --old /tmp/old

The old ``battleboard`` package is copied under another name (``battleboard_old``, its
imports renamed) into a temporary folder, so both are imported into one process; the
battles then alternate old, new, old, new ... on the same seeds, each timed in CPU time,
so both see the same load on a shared machine.  What is timed is what
``tests/bench/test_bench_battleboard.py`` times: one AI-vs-AI auto-resolve of an engagement
(land 12 units a side; naval 12 fleets and 12 troops a side), after 30 warm-up battles each.
Prints the medians, the rates and the median of the per-seed ratios old/new.
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bellum.engagement import Engagement

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _copy_old(src: Path, dest: Path) -> None:
    """``src``/battleboard copied to ``dest``/battleboard_old with its imports renamed."""
    target = dest / "battleboard_old"
    shutil.copytree(src / "battleboard", target, ignore=shutil.ignore_patterns("view", "__pycache__"))
    for f in target.rglob("*.py"):
        text = f.read_text(encoding="utf-8")
        text = text.replace("from battleboard.", "from battleboard_old.").replace(
            "import battleboard.", "import battleboard_old."
        )
        text = text.replace("from battleboard import", "from battleboard_old import")
        f.write_text(text, encoding="utf-8")


def _timed(fn: Callable[[Engagement, int], Any], eng: Engagement, seed: int) -> float:
    t0 = time.process_time()
    fn(eng, seed)
    return time.process_time() - t0


def compare(
    old: Callable[[Engagement, int], Any], new: Callable[[Engagement, int], Any], eng: Engagement, rounds: int
) -> tuple[float, float, float]:
    """(old median ms, new median ms, median of the per-seed ratios old/new)."""
    for seed in range(30):  # warm the odds caches, as a running game would have
        old(eng, seed)
        new(eng, seed)
    t_old: list[float] = []
    t_new: list[float] = []
    for seed in range(1000, 1000 + rounds):
        t_old.append(_timed(old, eng, seed))
        t_new.append(_timed(new, eng, seed))
    ratios = [a / b for a, b in zip(t_old, t_new, strict=True) if b > 0]
    return statistics.median(t_old) * 1000, statistics.median(t_new) * 1000, statistics.median(ratios)


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--old", required=True, type=Path, help="a folder holding the old battleboard package")
    p.add_argument("--rounds", type=int, default=300, help="battles of each (default 300)")
    args = p.parse_args()
    from battleboard.resolve import resolve_engagement
    from tests.battleboard.helpers import land_engagement, naval_engagement

    with tempfile.TemporaryDirectory() as tmp:
        _copy_old(args.old, Path(tmp))
        sys.path.insert(0, tmp)
        old = importlib.import_module("battleboard_old.resolve").resolve_engagement
        cases = (("land 12 v 12", land_engagement(12, "field")), ("naval 12+12", naval_engagement(12, "mutual")))
        for name, eng in cases:
            a, b, r = compare(old, resolve_engagement, eng, args.rounds)
            print(f"{name}: old {a:.3f} ms ({1000 / a:.0f}/s), new {b:.3f} ms ({1000 / b:.0f}/s), old/new ×{r:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
