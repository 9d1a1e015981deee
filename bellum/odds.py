"""Exact odds by running the real resolver over every die face.

``exact_distribution(run)`` calls ``run(dice)`` with strictly forced dice.  When
the resolver asks for a roll that is not in the prefix, the enumeration branches
over every face of that die (each with probability 1/sides) and runs again.  The
result is the exact probability of every outcome the resolver can return,
including follow-on rolls (pursuit, rampage, leader casualty) — there is no
separate approximation of the rules anywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import TypeVar

from bellum.dice import Dice, face_range
from bellum.errors import DiceError, MissingRollError

T = TypeVar("T", bound=Hashable)


def exact_distribution(run: Callable[[Dice], T], *, max_runs: int = 200_000) -> dict[T, Fraction]:
    """Probability of every outcome of ``run`` over all die faces it consumes."""
    result: dict[T, Fraction] = {}
    stack: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    runs = 0
    while stack:
        prefix, p = stack.pop()
        runs += 1
        if runs > max_runs:
            raise DiceError(f"odds enumeration exceeded {max_runs} resolver runs")
        dice = Dice.forced(prefix)
        try:
            outcome = run(dice)
        except MissingRollError as missing:
            faces = face_range(missing.sides)
            share = p / len(faces)
            for face in faces:
                stack.append(([*prefix, face], share))
            continue
        result[outcome] = result.get(outcome, Fraction(0)) + p
    return result
