"""Battleboard auto-resolve, old code against new in one run (issue 20 item 2).

    git archive aad44e6 battleboard | tar -x -C /tmp/old     # the code before the change
    .venv/bin/python tests/bench/battleboard_side_by_side.py --old /tmp/old --pairs 3

Each side runs in its own process (the old package first on ``PYTHONPATH``; everything else
from this checkout), old and new alternating, each timing what ``tests/bench/
test_bench_battleboard.py`` times: 30 warm-up battles, then the median of 300 AI-vs-AI
battles, in CPU time since the machine is shared (land 12 units a side, naval 12 fleets and
12 troops a side).  Prints each run and the medians of the runs, with the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CASES = ("land 12 v 12", "naval 12+12")


def _child(rounds: int) -> None:
    from battleboard.resolve import resolve_engagement
    from tests.battleboard.helpers import land_engagement, naval_engagement

    out: dict[str, float] = {}
    for name, eng in zip(CASES, (land_engagement(12, "field"), naval_engagement(12, "mutual")), strict=True):
        for seed in range(30):
            resolve_engagement(eng, seed)
        times = []
        for seed in range(1000, 1000 + rounds):
            t0 = time.process_time()
            resolve_engagement(eng, seed)
            times.append(time.process_time() - t0)
        out[name] = statistics.median(times) * 1000
    print(json.dumps(out))


def _run(path: str, rounds: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (path, str(ROOT)) if p))
    res = subprocess.run(
        [sys.executable, __file__, "--child", "--rounds", str(rounds)],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, float] = json.loads(res.stdout.strip().splitlines()[-1])
    return found


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--old", help="a folder holding the old battleboard package")
    p.add_argument("--pairs", type=int, default=3, help="old/new runs, alternated (default 3)")
    p.add_argument("--rounds", type=int, default=300)
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        _child(args.rounds)
        return 0
    runs: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
    for i in range(args.pairs):
        for label, path in (("old", args.old or ""), ("new", "")):
            if label == "old" and not args.old:
                continue
            runs[label].append(_run(path, args.rounds))
            print(f"pair {i + 1} {label}: " + ", ".join(f"{k} {v:.3f} ms" for k, v in runs[label][-1].items()))
    for case in CASES:
        med = {k: statistics.median(r[case] for r in v) for k, v in runs.items() if v}
        line = f"{case}: " + ", ".join(f"{k} {m:.3f} ms ({1000 / m:.0f}/s)" for k, m in med.items())
        if len(med) == 2:
            line += f", ×{med['old'] / med['new']:.2f}"
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
