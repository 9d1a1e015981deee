"""Tactical AI measurements (issue 5 §3, §4; docs/AI.md): a whole AI-vs-AI Pharsalus headless,
and the win rates against the random and greedy baselines.  Skipped in normal runs (bench).

``match(side, opponent, seeds)`` is the rerunnable measurement: the AI plays ``side`` with
seed ``s`` against the baseline seeded ``s + 1000``; it returns wins, draws and losses.
"""

from __future__ import annotations

from typing import Any

import pytest

from bellum.session import Session
from tactical.ai import TacticalAI
from tactical.ai_baselines import GreedyPlayer, RandomPlayer
from tactical.cli import play_out
from tactical.game import TacticalEngine


def match(side: str, opponent: str, seeds: range, scenario: str = "pharsalus") -> tuple[int, int, int]:
    won = drawn = lost = 0
    for seed in seeds:
        other = "B" if side == "A" else "A"
        base: Any = RandomPlayer(seed + 1000) if opponent == "random" else GreedyPlayer(seed + 1000)
        session: Any = Session(TacticalEngine(), scenario, seed)
        winner, _ = play_out(session, {side: TacticalAI(seed), other: base})
        if winner == side:
            won += 1
        elif winner is None:
            drawn += 1
        else:
            lost += 1
    return won, drawn, lost


def _ai_vs_ai() -> str | None:
    session: Any = Session(TacticalEngine(), "pharsalus", 1)
    winner, _ = play_out(session, {"A": TacticalAI(1), "B": TacticalAI(2)})
    return winner


def test_bench_pharsalus_ai_vs_ai(benchmark: Any) -> None:
    benchmark.pedantic(_ai_vs_ai, rounds=3, iterations=1)


@pytest.mark.parametrize("side", ["A", "B"])
@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_bench_ai_win_rate(benchmark: Any, side: str, opponent: str) -> None:
    result = benchmark.pedantic(match, args=(side, opponent, range(1, 41)), rounds=1, iterations=1)
    benchmark.extra_info["won_drawn_lost"] = result
