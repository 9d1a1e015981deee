"""Typed errors shared by every engine.

``RuleError`` is what an illegal action raises: its message is one sentence a
player understands, and the state it was tried on is left untouched.
``InputError`` is what bad input (a save, a scenario, a map, a case file, a
command-line argument) raises: one sentence naming the file, the place and the
problem.
"""

from __future__ import annotations

from pathlib import Path


class BellumError(Exception):
    """Base of every error the game reports to a person."""


class RuleError(BellumError):
    """An action the rules do not allow.  The message is for the player."""


class InputError(BellumError):
    """Bad input: a file (or argument), a place in it, and the problem."""

    def __init__(self, source: str | Path, place: str, problem: str) -> None:
        self.source = str(source)
        self.place = place
        self.problem = problem
        where = f"{self.source}: {place}: " if place else f"{self.source}: "
        super().__init__(printable(where + problem))


def printable(text: str) -> str:
    """``text`` on one line with its control characters escaped (``\\n``, ``\\x1b``…):
    a message naming hostile input never spreads over lines or drives the terminal."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


class DiceError(BellumError):
    """A forced die list did not match what the rules consumed."""


class MissingRollError(DiceError):
    """A roll was needed but none was given in forced mode."""

    def __init__(self, label: str, sides: int, index: int) -> None:
        self.label = label
        self.sides = sides
        self.index = index
        super().__init__(f"a d{sides} roll was needed ({label}) but no forced roll was given (roll #{index + 1})")


class UnusedRollError(DiceError):
    """Forced rolls were given but not consumed."""

    def __init__(self, unused: list[int]) -> None:
        self.unused = unused
        super().__init__(f"forced rolls were given but not used: {unused}")
