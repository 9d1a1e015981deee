"""Tactical battles over many seeds: the AI against the random and greedy baselines, or AI
against AI (docs/AI.md).

The ``battles`` kind of ``bellum study`` (``bellum.study``).  In a match the AI plays ``side``
with seed ``s`` (the battle's dice too) against the baseline seeded ``s + 1000``; AI against
AI, side A's AI has seed ``s`` and side B's ``s + 1``, as ``bellum battle --ai both`` does.
A battle not decided within ``tactical.cli.ACTION_LIMIT`` actions is a draw.  ``summary``
writes docs/AI.md's table: one line a scenario, side and opponent.
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

OPPONENTS = ("random", "greedy", "ai")

#: a battle to play: (scenario, the AI's side, opponent, seed)
Task = tuple[str, str, str, int]


def game(seed: int, side: str = "A", opponent: str = "ai", scenario: str = "pharsalus") -> tuple[str | None, int]:
    """One battle: the winning side (None for a draw) and the actions it took."""
    from bellum.session import Session
    from tactical.cli import make_player, play_out
    from tactical.game import TacticalEngine

    other = "B" if side == "A" else "A"
    base = make_player("ai", seed + 1) if opponent == "ai" else make_player(opponent, seed + 1000)
    session: Any = Session(TacticalEngine(), scenario, seed)
    winner, _ = play_out(session, {side: make_player("ai", seed), other: base})
    return winner, len(session.actions)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--scenario", default="pharsalus", metavar="NAMES", help="tactical scenarios, comma-separated")
    p.add_argument("--opponent", default="random,greedy", metavar="NAMES", help="random, greedy or ai, comma-separated")
    p.add_argument("--side", choices=("A", "B", "both"), default="both", help="the AI's side against a baseline")
    p.add_argument("--seeds", default="1-20", metavar="A-B", help="the seeds to play, e.g. 1-40 or 3,5,8")


def tasks(args: argparse.Namespace) -> list[Task]:
    """Every (scenario, side, opponent, seed); AI against AI is played once a seed (side A)."""
    from bellum.errors import InputError
    from bellum.paths import resolve_scenario
    from bellum.study import parse_seeds

    seeds = parse_seeds(args.seeds)
    opponents = [o.strip() for o in args.opponent.split(",") if o.strip()]
    for o in opponents:
        if o not in OPPONENTS:
            raise InputError("--opponent", "", f"{o!r} is not one of {', '.join(OPPONENTS)}")
    scenarios = [s.strip() for s in args.scenario.split(",") if s.strip()]
    for name in scenarios:
        resolve_scenario(name, "tactical")  # one sentence now for a scenario that does not exist
    sides = ("A", "B") if args.side == "both" else (args.side,)
    out: list[Task] = []
    for name in scenarios:
        for o in opponents:
            for side in ("A",) if o == "ai" else sides:
                out.extend((name, side, o, s) for s in seeds)
    return out


def play(task: Task) -> dict[str, Any]:
    """One battle as a row of the results table."""
    scenario, side, opponent, seed = task
    winner, actions = game(seed, side, opponent, scenario)
    result = "won" if winner == side else "drawn" if winner is None else "lost"
    return {
        "scenario": scenario,
        "side": side,
        "opponent": opponent,
        "seed": seed,
        "winner": winner or "",
        "result": result,
        "actions": actions,
    }


def summary(rows: list[dict[str, Any]]) -> str:
    """docs/AI.md's table: games won, drawn and lost by scenario, side and opponent."""
    head = [
        "| scenario | match | seeds | won | drawn | lost | win rate | actions (median) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["scenario"], r["side"], r["opponent"]), []).append(r)
    lines = []
    for (scenario, side, opponent), games in groups.items():
        won = sum(g["result"] == "won" for g in games)
        drawn = sum(g["result"] == "drawn" for g in games)
        lost = len(games) - won - drawn
        match = "AI vs AI (side A's view)" if opponent == "ai" else f"AI ({side}) vs {opponent}"
        median = statistics.median(g["actions"] for g in games)
        lines.append(
            f"| {scenario} | {match} | {_seed_text([g['seed'] for g in games])} | **{won}** | {drawn} | {lost} "
            f"| **{100 * won / len(games):.1f} %** | {median:g} |"
        )
    return "\n".join(head + lines)


def _seed_text(seeds: list[int]) -> str:
    """Seeds as ranges: 1–20, 25."""
    parts: list[str] = []
    ordered = sorted(set(seeds))
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        parts.append(str(ordered[i]) if i == j else f"{ordered[i]}–{ordered[j]}")
        i = j + 1
    return ", ".join(parts)
