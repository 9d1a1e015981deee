"""The battleboard AI's weighing of attacks at sea (issue 20 item 2) is the generator's attacks
weighed one by one: ``ai._best_fleet_attack`` makes each attack's set-up itself, in the
generator's order, and builds only the best as an action.  Every call of it in real battles is
checked here against the plain way — ``legal_actions`` for the fleet and its troops (the
boardings that capture), ``attack_setup`` and ``ai._value`` for each — set-up by set-up and
value by value, in the same order, and the same choice (the first of equal best)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import battleboard.ai as ai
from battleboard.model import Action, State, Unit
from battleboard.resolve import state_from_engagement
from battleboard.rules import Chance, Setup, active_ground, attack_setup, legal_actions, play
from battleboard.scenario import load_scenario
from bellum.dice import Dice
from bellum.engagement import Engagement
from tests.battleboard.helpers import naval_engagement

Weighed = tuple[Setup, tuple[str, ...], bool, float]


def _by_generator(s: State, f: Unit) -> list[tuple[Action, Weighed]]:
    """The fleet's attacks as ``_best_attack`` first listed them, each with its set-up, its
    defenders, whether it captures and its ``_value``."""
    acts = [] if f.failed else [a for a in legal_actions(s, f.id, "attack") if a.verb == "attack"]
    g = active_ground(s, f)
    if g is not None and not g.failed:
        acts += [a for a in legal_actions(s, g.id, "attack") if a.verb == "attack" and a.capture]
    out = []
    for a in acts:
        setup, uids = attack_setup(s, a)
        capture = a.capture and a.mode not in ("ram", "fire")
        out.append((a, (setup, uids[1:], capture, ai._value(s, a, {}))))
    return out


def _checking(monkeypatch: pytest.MonkeyPatch, counts: dict[str, int]) -> None:
    """Wrap ``_best_fleet_attack`` (and the ``_weigh`` it calls) to check every call."""
    weighed: list[Weighed] = []
    real_weigh = ai._weigh
    real_best = ai._best_fleet_attack

    def weigh(
        s: State, setup: Setup, defenders: tuple[Unit, ...], capture: bool, cost: float, threats: dict[str, float]
    ) -> float:
        v = real_weigh(s, setup, defenders, capture, cost, threats)
        weighed.append((setup, tuple(d.id for d in defenders), capture, v))
        return v

    def best(s: State, f: Unit, g: Unit | None, threats: dict[str, float]) -> tuple[Action | None, float]:
        weighed.clear()
        got = real_best(s, f, g, threats)
        want = _by_generator(s, f)
        assert weighed == [w for _, w in want], (f.id, s.turn)
        choice: Action | None = None
        best_v = 0.05
        for a, (_, _, _, v) in want:
            if v > best_v:
                choice, best_v = a, v
        assert got == (choice, best_v)
        assert got[0] is None or type(got[0]) is type(want[0][0])
        counts["calls"] += 1
        counts["weighed"] += len(want)
        counts["ties"] += len({w[3] for _, w in want}) < len(want)
        return got

    monkeypatch.setattr(ai, "_weigh", weigh)
    monkeypatch.setattr(ai, "_best_fleet_attack", best)


def _battles(start: State, seeds: range, step: Callable[[State, Chance], None]) -> None:
    for seed in seeds:
        s = start.clone()
        chance = Chance(Dice(seed, record=False))
        while s.phase != "over":
            step(s, chance)


@pytest.mark.parametrize(
    "eng",
    [naval_engagement(12, "mutual"), naval_engagement(6, "interception"), naval_engagement(9, "supply")],
    ids=lambda e: e.id,
)
def test_a_fleets_attacks_are_the_generators_weighed_by_value(monkeypatch: pytest.MonkeyPatch, eng: Engagement) -> None:
    counts = {"calls": 0, "weighed": 0, "ties": 0}
    _checking(monkeypatch, counts)
    _battles(state_from_engagement(eng), range(1, 17), lambda s, ch: ai.play_turn(s, ch, None, 0))
    assert counts["calls"] > 200 and counts["weighed"] > 2 * counts["calls"] // 3
    assert counts["ties"] > 0  # equal values met: the first listed must win


def test_the_windows_ai_weighs_attacks_the_same_way(monkeypatch: pytest.MonkeyPatch) -> None:
    counts = {"calls": 0, "weighed": 0, "ties": 0}
    _checking(monkeypatch, counts)
    _, start = load_scenario("sea-interception")
    _battles(start, range(1, 3), lambda s, ch: play(s, ai.choose(s), ch))
    assert counts["calls"] > 50
