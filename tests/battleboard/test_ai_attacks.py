"""The battleboard AI's weighing of attacks at sea (issue 20 item 2) is the generator's attacks
weighed one by one: ``ai._best_fleet_attack`` makes each attack's set-up itself, in the
generator's order, and builds only the best as an action.  Every call of it in real battles is
checked here against the plain way — ``legal_actions`` for the fleet and its troops (the
boardings that capture), ``attack_setup`` and ``ai._value`` for each: the same set-ups in the
same order, the same choice (the first of equal best) and the same value; and when the
caller asks only whether the value is above a mark (``sure``), the same choice and the same
answer."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import battleboard.ai as ai
from battleboard.model import Action, State, Unit
from battleboard.odds import expectations
from battleboard.resolve import state_from_engagement
from battleboard.rules import Chance, Setup, active_ground, attack_setup, legal_actions, play
from battleboard.scenario import load_scenario
from bellum.dice import Dice
from bellum.engagement import Engagement
from tests.battleboard.helpers import naval_engagement


def _by_generator(s: State, f: Unit) -> list[Action]:
    """The fleet's attacks as ``_best_attack`` first listed them."""
    acts = [] if f.failed else [a for a in legal_actions(s, f.id, "attack") if a.verb == "attack"]
    g = active_ground(s, f)
    if g is not None and not g.failed:
        acts += [a for a in legal_actions(s, g.id, "attack") if a.verb == "attack" and a.capture]
    return acts


def _checking(monkeypatch: pytest.MonkeyPatch, counts: dict[str, int]) -> None:
    """Wrap ``_best_fleet_attack`` to check every call."""
    real = ai._best_fleet_attack
    seen: list[Setup] = []

    def recording(setup: Setup) -> tuple[float, float, tuple[tuple[float, float], ...]]:
        seen.append(setup)
        return expectations(setup)

    def best(
        s: State, f: Unit, g: Unit | None, threats: dict[str, float], sure: float | None = None
    ) -> tuple[Action | None, float]:
        acts = _by_generator(s, f)
        values = [ai._value(s, a, {}) for a in acts]
        choice: Action | None = None
        best_v = 0.05
        for a, v in zip(acts, values, strict=True):
            if v > best_v:
                choice, best_v = a, v
        known = dict(threats)
        assert real(s, f, g, known, None) == (choice, best_v)  # every threat it needs now known
        with monkeypatch.context() as m:
            m.setattr(ai, "expectations", recording)
            seen.clear()
            assert real(s, f, g, known, None) == (choice, best_v)
        assert seen == [attack_setup(s, a)[0] for a in acts]
        if sure is not None:
            a, v = real(s, f, g, dict(threats), sure)
            assert a == choice and (v > sure) == (best_v > sure)
        got = real(s, f, g, threats, sure)
        assert got[0] == choice and (got[0] is None or type(got[0]) is type(choice))
        counts["calls"] += 1
        counts["weighed"] += len(acts)
        counts["ties"] += len(set(values)) < len(values)
        return got

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
    assert counts["calls"] > 200 and counts["weighed"] > counts["calls"]
    assert counts["ties"] > 0  # equal values met: the first listed must win


def test_the_windows_ai_weighs_attacks_the_same_way(monkeypatch: pytest.MonkeyPatch) -> None:
    counts = {"calls": 0, "weighed": 0, "ties": 0}
    _checking(monkeypatch, counts)
    _, start = load_scenario("sea-interception")
    _battles(start, range(1, 3), lambda s, ch: play(s, ai.choose(s), ch))
    assert counts["calls"] > 50


def test_an_attack_waiting_for_its_threat_wins_ties_only_when_listed_first(monkeypatch: pytest.MonkeyPatch) -> None:
    s = state_from_engagement(naval_engagement(2, "mutual"))
    ship = next(iter(s.units.values()))
    worked: list[str] = []
    monkeypatch.setattr(ai, "_threat", lambda s, e: worked.append(e.id) or 0.0)
    monkeypatch.setattr(ai, "_weigh", lambda *args: (2.0, None))  # the threat 0 changes nothing
    ram = ("AF1", "BF1", "ram", False)
    setup = Setup("ram", 1, (0, False, False), ((0, False, True),), None)
    earlier = ("AF2", "BF2", "fire", False)
    # listed after the best so far (``before`` is it): only a better value wins
    wait = (ram, setup, (ship,), False, 2.0, 2.0, ship, earlier)
    assert ai._settle(s, {}, 1.0, wait, earlier, 2.0) == (ai.Attack(*earlier), 2.0)
    assert worked == [ship.id]  # the tie needed the threat worked out
    # listed before the best (a later attack became the best): an equal value wins, and at
    # once, being above ``sure``
    worked.clear()
    later = ("AF2", "BF2", "fire", False)
    wait = (ram, setup, (ship,), False, 2.0, 2.0, ship, None)
    assert ai._settle(s, {}, 1.0, wait, later, 2.0) == (ai.Attack(*ram), 2.0)
    assert worked == []
    # not above ``sure``: the threat is worked out, and the value made exact
    assert ai._settle(s, {}, 3.0, wait, later, 2.0) == (ai.Attack(*ram), 2.0)
    assert worked == [ship.id]
