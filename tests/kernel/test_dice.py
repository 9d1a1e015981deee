"""Dice: reproducible by seed, forced mode reports missing and unused rolls."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bellum.dice import Dice, face_range
from bellum.errors import DiceError, MissingRollError, UnusedRollError


def test_same_seed_same_rolls() -> None:
    a, b = Dice(42), Dice(42)
    assert [a.d10("x") for _ in range(200)] == [b.d10("x") for _ in range(200)]


def test_different_seeds_differ() -> None:
    a, b = Dice(1), Dice(2)
    assert [a.d10("x") for _ in range(50)] != [b.d10("x") for _ in range(50)]


def test_faces_d10_zero_to_nine_d6_one_to_six() -> None:
    dice = Dice(7)
    tens = {dice.d10("t") for _ in range(2000)}
    sixes = {dice.d6("s") for _ in range(2000)}
    assert tens == set(range(10))
    assert sixes == set(range(1, 7))


def test_roughly_uniform() -> None:
    dice = Dice(123)
    counts = [0] * 10
    for _ in range(20000):
        counts[dice.d10("u")] += 1
    assert all(1800 < c < 2200 for c in counts), counts


def test_every_roll_recorded_with_label() -> None:
    dice = Dice(5)
    v = dice.d10("continuity LA1")
    w = dice.d6("command check")
    assert [(r.label, r.sides, r.value, r.forced) for r in dice.rolls] == [
        ("continuity LA1", 10, v, False),
        ("command check", 6, w, False),
    ]


def test_state_restores_the_sequence() -> None:
    dice = Dice(99)
    for _ in range(17):
        dice.d10("burn")
    copy = Dice.from_state(dice.state())
    assert [dice.d10("a") for _ in range(30)] == [copy.d10("a") for _ in range(30)]


def test_forced_values_come_first_and_are_marked() -> None:
    dice = Dice.forced([3, 9])
    assert dice.d10("a") == 3
    assert dice.d10("b") == 9
    assert all(r.forced for r in dice.rolls)


def test_forced_missing_roll_is_reported() -> None:
    dice = Dice.forced([4])
    dice.d10("first")
    with pytest.raises(MissingRollError) as info:
        dice.d10("shock roll")
    assert "shock roll" in str(info.value)
    assert info.value.sides == 10


def test_forced_unused_rolls_are_reported() -> None:
    dice = Dice.forced([1, 2, 3])
    dice.d10("only one")
    with pytest.raises(UnusedRollError) as info:
        dice.assert_exhausted()
    assert info.value.unused == [2, 3]


def test_forced_value_must_be_a_face() -> None:
    dice = Dice.forced([10])
    with pytest.raises(DiceError):
        dice.d10("too big")
    dice = Dice.forced([0])
    with pytest.raises(DiceError):
        dice.d6("d6 has no zero")


def test_non_strict_forcing_falls_back_to_the_seed() -> None:
    dice = Dice(8)
    dice.force([5])
    assert dice.d10("forced") == 5
    assert dice.d10("seeded") in face_range(10)


@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=0, max_value=500))
def test_any_seed_and_counter_yield_faces(seed: int, counter: int) -> None:
    dice = Dice(seed, counter=counter)
    assert dice.d10("h") in range(10)
    assert dice.d6("h") in range(1, 7)


@given(st.integers(min_value=0, max_value=2**70), st.sampled_from([-700, 0, 5, 1000, 2**40, 2**64 - 300]))
def test_d10_faces_worked_out_ahead_are_roll_s(seed: int, counter: int) -> None:
    """``d10`` reads faces worked out in blocks (numpy's wrapping arithmetic); they are
    ``roll(10, …)``'s, roll for roll, and follow a counter set from outside (a save)."""
    fast, slow = Dice(seed, counter=counter), Dice(seed, counter=counter)
    assert [fast.d10("x") for _ in range(600)] == [slow.roll(10, "x") for _ in range(600)]
    fast.counter = slow.counter = counter + 3
    assert [fast.d10("y") for _ in range(20)] == [slow.roll(10, "y") for _ in range(20)]
    assert fast.counter == slow.counter and fast.rolls == slow.rolls
