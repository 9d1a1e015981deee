"""Campaign operations benchmarks (issue 7): one turn with both sides played by the AI
(target median ≤ 0.5 s) and a whole year with battles auto-resolved (target ≤ 15 s).
Run by ``bellum bench``."""

from __future__ import annotations

from typing import Any

from bellum.dice import Dice
from bellum.session import Session
from campaign.ai import play_turns
from campaign.engine import CampaignEngine
from campaign.state import CampaignState

ENGINE = CampaignEngine()


def _positions(seed: int, turns: int) -> list[tuple[CampaignState, dict[str, int]]]:
    """The state and dice at the start of each of the first ``turns`` turns of an AI game."""
    s = Session(ENGINE, "49bc", seed)
    out = []
    for _ in range(turns):
        out.append((s.state.copy(), s.dice.state()))
        play_turns(s, 1)
    return out


def _from(state: CampaignState, dice: dict[str, int], seed: int) -> Session[Any, Any]:
    s = Session(ENGINE, "49bc", seed)
    s.state = state.copy()
    s.dice = Dice.from_state(dice)
    return s


def test_bench_one_campaign_turn_both_sides_ai(benchmark: Any) -> None:
    positions = _positions(1, 8)
    rounds = iter(range(10_000))

    def one_turn() -> None:
        state, dice = positions[next(rounds) % len(positions)]
        play_turns(_from(state, dice, 1), 1)

    benchmark.pedantic(one_turn, rounds=16, iterations=1)


def test_bench_one_year_with_battles_auto_resolved(benchmark: Any) -> None:
    seeds = iter(range(1, 10_000))
    battles: list[int] = []

    def one_year() -> None:
        s = Session(ENGINE, "49bc", next(seeds))
        play_turns(s, 8)
        battles.append(sum(1 for e in s.log if e.kind == "battle"))

    benchmark.pedantic(one_year, rounds=5, iterations=1)
    assert sum(battles) > 0  # the year really fought battles
