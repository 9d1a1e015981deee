"""Tactical AI measurement (issue 5 §3; docs/AI.md): a whole AI-vs-AI Pharsalus headless
(target: median ≤ 30 s).  Skipped in normal runs (``bellum bench``).  The win rates against
the random and greedy baselines are a study, not a benchmark: ``bellum study battles``
(``tactical.study``)."""

from __future__ import annotations

from typing import Any

from tactical.study import game

#: the AI-vs-AI seeds, one per benchmark round (docs/AI.md)
AI_SEEDS = (1, 2, 3)


def test_bench_pharsalus_ai_vs_ai(benchmark: Any) -> None:
    seeds = iter(AI_SEEDS)
    winners: list[str | None] = []

    def one() -> None:
        winners.append(game(next(seeds))[0])

    benchmark.pedantic(one, rounds=len(AI_SEEDS), iterations=1)
    benchmark.extra_info["seeds"] = list(AI_SEEDS)
    benchmark.extra_info["winners"] = winners
    assert None not in winners  # every battle ends with an army withdrawing
