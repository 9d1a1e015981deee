"""Exact odds enumerate every face the resolver consumes, including follow-on rolls."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bellum.dice import Dice
from bellum.errors import DiceError
from bellum.odds import exact_distribution


def test_single_d10_threshold() -> None:
    dist = exact_distribution(lambda d: d.d10("r") <= 3)
    assert dist == {True: Fraction(4, 10), False: Fraction(6, 10)}


def test_follow_on_roll_only_when_needed() -> None:
    # a hit on 0-2, then a second roll of 0 kills: P(kill) = 3/10 * 1/10
    def resolve(d: Dice) -> str:
        if d.d10("attack") <= 2:
            return "killed" if d.d10("casualty") == 0 else "hit"
        return "miss"

    dist = exact_distribution(resolve)
    assert dist["killed"] == Fraction(3, 100)
    assert dist["hit"] == Fraction(27, 100)
    assert dist["miss"] == Fraction(7, 10)
    assert sum(dist.values()) == 1


def test_two_d6_sum() -> None:
    dist = exact_distribution(lambda d: d.d6("a") + d.d6("b"))
    assert dist[7] == Fraction(6, 36)
    assert dist[2] == Fraction(1, 36)


def test_runaway_enumeration_is_refused() -> None:
    def forever(d: Dice) -> int:
        while True:
            d.d10("again")

    with pytest.raises(DiceError):
        exact_distribution(forever, max_runs=1000)
