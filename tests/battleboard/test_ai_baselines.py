"""The battleboard baselines (docs/AI.md §Battleboard): legal, deterministic, and beaten by the AI.
The full measurement (20 seeds a side, four scenarios) is ``python -m battleboard.ai_baselines``."""

from __future__ import annotations

from battleboard.ai import _running
from battleboard.ai_baselines import GreedyPlayer, RandomPlayer, game
from battleboard.rules import legal_actions
from battleboard.scenario import load_scenario


def test_baselines_choose_legal_actions() -> None:
    _, s = load_scenario("field-pharsalus")
    for player in (RandomPlayer(3), GreedyPlayer()):
        assert player.choose(s) in legal_actions(s)


def test_a_game_is_its_seeds() -> None:
    one, two = game("mountain-pass", 2, "A", "random"), game("mountain-pass", 2, "A", "random")
    assert (one.winner, one.actions) == (two.winner, two.actions)


def test_the_ai_beats_the_baselines_on_a_few_seeds() -> None:
    for opponent in ("random", "greedy"):
        for side in ("A", "B"):
            assert all(game("field-pharsalus", seed, side, opponent).won for seed in (1, 2)), (opponent, side)


def test_an_intercepted_force_fights_before_it_runs() -> None:
    """docs/rules/battleboard.md §13.11-13.12: ships broken through count as lost for victory,
    a won battle lets the whole force sail on — the moving side runs only when outmatched."""
    _, s = load_scenario("sea-interception")
    assert not _running(s, "B")
    s.panicked.append("A")
    assert _running(s, "A")
