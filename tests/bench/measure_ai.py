"""Win rates of the tactical AI against the baselines on any scenario, one line per game as it
ends (docs/AI.md).  Measurement, not a test: run on demand, e.g.

    .venv/bin/python -m tests.bench.measure_ai --scenario cannae --side A --opponent random --seeds 1-20

Each game is ``test_bench_tactical_ai.game`` (the battle's dice and the AI seeded ``s``, the
baseline ``s + 1000``, a draw at ``tactical.cli.ACTION_LIMIT`` actions); the last line sums the
match up.
"""

from __future__ import annotations

import argparse
import time

from tests.bench.test_bench_tactical_ai import game


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="measure the tactical AI against a baseline")
    p.add_argument("--scenario", default="pharsalus")
    p.add_argument("--side", choices=("A", "B"), required=True)
    p.add_argument("--opponent", choices=("random", "greedy", "ai"), required=True)
    p.add_argument("--seeds", default="1-20", help="a range FIRST-LAST (default 1-20)")
    args = p.parse_args(argv)
    first, _, last = args.seeds.partition("-")
    seeds = range(int(first), int(last or first) + 1)
    won = drawn = lost = 0
    for seed in seeds:
        t0 = time.process_time()
        winner = game(seed, args.side, args.opponent, args.scenario)
        cpu = time.process_time() - t0
        verdict = "won" if winner == args.side else "drawn" if winner is None else "lost"
        won += verdict == "won"
        drawn += verdict == "drawn"
        lost += verdict == "lost"
        print(f"{args.scenario} AI={args.side} vs {args.opponent} seed {seed}: {verdict} ({cpu:.1f} s CPU)", flush=True)
    n = won + drawn + lost
    print(
        f"TOTAL {args.scenario} AI={args.side} vs {args.opponent} seeds {args.seeds}: "
        f"won {won}, drawn {drawn}, lost {lost} ({100 * won / n:.0f} %)",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
