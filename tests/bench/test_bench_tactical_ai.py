"""Tactical AI measurements (issue 5 §3, §4; docs/AI.md): a whole AI-vs-AI Pharsalus headless
(target: median ≤ 30 s), and the win rates against the random and greedy baselines (targets:
≥ 95 % and ≥ 60 % of 40 games per side).  Skipped in normal runs (``bellum bench``).

``game`` and ``match`` are the rerunnable measurement: in a match the AI plays ``side`` with
seed ``s`` (the battle's dice too) against the baseline seeded ``s + 1000``; in an AI-vs-AI
game side A's AI has seed ``s`` and side B's ``s + 1``, as ``bellum battle --ai both`` does.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from bellum.session import Session
from tactical.ai import TacticalAI
from tactical.ai_baselines import GreedyPlayer, RandomPlayer
from tactical.cli import play_out
from tactical.game import TacticalEngine

#: the AI-vs-AI seeds, one per benchmark round (docs/AI.md)
AI_SEEDS = (1, 2, 3)


def game(seed: int, side: str = "A", opponent: str = "ai", scenario: str = "pharsalus") -> str | None:
    """One battle; the winning side or None (a draw at ``tactical.cli.ACTION_LIMIT``)."""
    other = "B" if side == "A" else "A"
    base: Any
    if opponent == "ai":
        base = TacticalAI(seed + 1)
    elif opponent == "random":
        base = RandomPlayer(seed + 1000)
    else:
        base = GreedyPlayer(seed + 1000)
    session: Any = Session(TacticalEngine(), scenario, seed)
    winner, _ = play_out(session, {side: TacticalAI(seed), other: base})
    return winner


def match(side: str, opponent: str, seeds: Iterable[int], scenario: str = "pharsalus") -> tuple[int, int, int]:
    """(won, drawn, lost) for the AI on ``side`` against ``opponent`` over ``seeds``."""
    won = drawn = lost = 0
    for seed in seeds:
        winner = game(seed, side, opponent, scenario)
        if winner == side:
            won += 1
        elif winner is None:
            drawn += 1
        else:
            lost += 1
    return won, drawn, lost


def test_bench_pharsalus_ai_vs_ai(benchmark: Any) -> None:
    seeds = iter(AI_SEEDS)
    winners: list[str | None] = []

    def one() -> None:
        winners.append(game(next(seeds)))

    benchmark.pedantic(one, rounds=len(AI_SEEDS), iterations=1)
    benchmark.extra_info["seeds"] = list(AI_SEEDS)
    benchmark.extra_info["winners"] = winners
    assert None not in winners  # every battle ends with an army withdrawing


@pytest.mark.parametrize("side", ["A", "B"])
@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_bench_ai_win_rate(benchmark: Any, side: str, opponent: str) -> None:
    result = benchmark.pedantic(match, args=(side, opponent, range(1, 41)), rounds=1, iterations=1)
    benchmark.extra_info["won_drawn_lost"] = result
    benchmark.extra_info["seeds"] = "1-40 (baseline seed + 1000)"
