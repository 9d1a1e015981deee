"""Baseline players the battleboard AI is measured against (docs/AI.md §Battleboard).

``RandomPlayer`` picks uniformly among ``rules.legal_actions`` (withdrawing included).
``GreedyPlayer`` takes the best immediate exchange and looks no further: the attack with the
best expected value by the exact odds (``ai.attack_value``, the AI's own reading of
``battleboard.odds``) as soon as one is worth anything, else the move that brings a unit
nearest an enemy, else ends its turn; set-up and command as the generator offers them first,
and it never withdraws.  Both ask only the one legal-action generator; chance comes from a
``bellum.dice.Dice`` of their own, never ``random``.

``game`` and ``match`` play the measured battles (the AI's side by ``ai.play_turn``, the
baseline one action at a time); ``python -m battleboard.ai_baselines`` prints the tables of
docs/AI.md.  They are measurement code, run on demand, never by the default test run.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Protocol

from battleboard.ai import _distance_map, attack_value, play_turn
from battleboard.model import OFF, Action, State
from battleboard.rules import Chance, legal_actions, play
from bellum.dice import Dice

#: a battle not over after this many actions is a draw (no battleboard battle comes near it)
ACTION_LIMIT = 20_000
#: the scenarios measured (scenarios/battleboard/), land and naval
SCENARIOS = ("field-pharsalus", "mountain-pass", "supply-battle", "sea-interception")


class Player(Protocol):
    def choose(self, s: State) -> Action: ...


class RandomPlayer:
    """Uniform over ``legal_actions``: two d10 pick one of 100 equal slices of the list."""

    def __init__(self, seed: int) -> None:
        self.dice = Dice(seed)

    def choose(self, s: State) -> Action:
        acts = legal_actions(s)
        k = self.dice.d10("baseline") * 10 + self.dice.d10("baseline")
        return acts[k * len(acts) // 100]


class GreedyPlayer:
    """The best immediate exchange, no look-ahead (module docstring)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, s: State) -> Action:
        acts = legal_actions(s)
        if s.phase in ("allocate", "deploy", "command"):
            return acts[0]
        attacks = [a for a in acts if a.verb == "attack"]
        if attacks:
            best = max(attacks, key=lambda a: attack_value(s, a))
            if attack_value(s, best) > 0:
                return best
        moves = [a for a in acts if a.verb == "move" and a.to is not None and a.to != OFF and a.unit in s.units]
        if moves:
            dist = _distance_map(s, s.side)
            best_move = min(moves, key=lambda a: (dist[a.to or 0], a.unit, a.to or 0))
            here = s.units[best_move.unit].square
            if here is None or dist[best_move.to or 0] < dist[here]:
                return best_move
        return Action("end_turn")


@dataclass(frozen=True)
class Game:
    scenario: str
    seed: int
    ai_side: str
    opponent: str
    winner: str | None
    actions: int
    seconds: float

    @property
    def won(self) -> bool:
        return self.winner == self.ai_side


def baseline(name: str, seed: int) -> Player:
    if name == "random":
        return RandomPlayer(seed)
    if name == "greedy":
        return GreedyPlayer(seed)
    raise ValueError(f"no baseline {name!r} (random or greedy)")


def game(scenario: str, seed: int, ai_side: str, opponent: str) -> Game:
    """One battle: the AI plays ``ai_side`` (whole turns, ``ai.play_turn``), the baseline the
    other side seeded ``seed + 1000``; the battle's dice are ``Dice(seed)``."""
    from battleboard.scenario import load_scenario

    _, start = load_scenario(scenario)
    s = start.clone()
    chance = Chance(Dice(seed))
    other = baseline(opponent, seed + 1000)
    t0 = time.process_time()
    n = 0
    while s.phase != "over" and n < ACTION_LIMIT:
        if s.side == ai_side:
            play_turn(s, chance)
        else:
            play(s, other.choose(s), chance)
        n += 1
    return Game(scenario, seed, ai_side, opponent, s.winner, n, time.process_time() - t0)


def match(scenario: str, ai_side: str, opponent: str, seeds: range) -> list[Game]:
    return [game(scenario, seed, ai_side, opponent) for seed in seeds]


def _table(scenarios: tuple[str, ...], seeds: range) -> None:
    print("| scenario | AI side | against | seeds (baseline seeds) | won | drawn | lost | win rate | CPU s/game |")
    print("|---|---|---|---|---|---|---|---|---|")
    for sc in scenarios:
        for opponent in ("random", "greedy"):
            for side in ("A", "B"):
                games = match(sc, side, opponent, seeds)
                won = sum(g.won for g in games)
                drawn = sum(g.winner is None for g in games)
                lost = len(games) - won - drawn
                lost_seeds = [g.seed for g in games if not g.won]
                cpu = sorted(g.seconds for g in games)[len(games) // 2]
                print(
                    f"| {sc} | {side} | {opponent} | {seeds.start}–{seeds.stop - 1} "
                    f"({seeds.start + 1000}–{seeds.stop + 999}) | {won} | {drawn} | {lost} | "
                    f"{100 * won / len(games):.0f} % | {cpu:.2f} |" + (f" not won: {lost_seeds}" if lost_seeds else ""),
                    flush=True,
                )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="measure the battleboard AI against the random and greedy baselines")
    p.add_argument("--seeds", type=int, default=20, help="seeds 1..N for each side and baseline (default 20)")
    p.add_argument("--scenario", action="append", help="a scenario name (default: all four)")
    args = p.parse_args(argv)
    _table(tuple(args.scenario or SCENARIOS), range(1, args.seeds + 1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
