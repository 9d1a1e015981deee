"""The window's AI opponent is the measured AI (docs/AI.md, issue 19 item 4): ``ai.Planner``
hands out, one action at a time, the very turn ``ai.play_turn`` plays with the look-ahead."""

from __future__ import annotations

from battleboard.ai import Planner, play_turn
from battleboard.ai_baselines import baseline
from battleboard.model import Action, State
from battleboard.rules import Chance, apply, play
from battleboard.scenario import load_scenario
from bellum.dice import Dice


def _fate(s: State) -> tuple[object, ...]:
    return (s.winner, s.turn, tuple((u.id, u.status, u.square, u.strength, u.flipped) for u in s.units.values()))


def _by_turns(scenario: str, seed: int, ai: str) -> tuple[list[Action], tuple[object, ...]]:
    _, s = load_scenario(scenario)
    record: list[Action] = []
    chance = Chance(Dice(seed), record=record)
    other = baseline("random", seed + 1000)
    while s.phase != "over":
        if s.side == ai:
            play_turn(s, chance)
        else:
            play(s, other.choose(s), chance)
    return record, _fate(s)


def _one_by_one(scenario: str, seed: int, ai: str) -> tuple[list[Action], tuple[object, ...], int]:
    """As the window plays: every action through ``apply`` on the battle's one dice."""
    _, s = load_scenario(scenario)
    dice = Dice(seed)
    planner = Planner(lambda: dice)
    other = baseline("random", seed + 1000)
    played: list[Action] = []
    plans = 0
    while s.phase != "over":
        if s.side == ai:
            fresh = not planner._plan
            a = planner(s)
            plans += fresh
        else:
            a = other.choose(s)
        played.append(a)
        s, _, _ = apply(s, a, dice)
    return played, _fate(s), plans


def test_the_window_ai_plays_the_turns_play_turn_plays() -> None:
    for scenario, ai in (("mountain-pass", "B"), ("sea-interception", "A")):
        want_actions, want_fate = _by_turns(scenario, 3, ai)
        got_actions, got_fate, plans = _one_by_one(scenario, 3, ai)
        assert got_actions == want_actions and got_fate == want_fate, scenario
        turns = sum(1 for a in want_actions if a.verb == "end_turn")
        assert 0 < plans <= turns + 4  # one plan a turn (and the set-up's actions): nothing re-planned


def test_the_window_ai_plans_again_when_the_battle_leaves_the_plan() -> None:
    _, s = load_scenario("mountain-pass")
    dice = Dice(5)
    planner = Planner(lambda: dice)
    while s.side != "B" or s.phase not in ("move", "command"):
        s, _, _ = apply(s, baseline("random", 9).choose(s), dice)
    first = planner(s)
    assert planner._plan  # the rest of the turn is planned
    other = planner(s)  # asked again from the same position (an undo): planned anew
    assert other == first
