"""Explicit, seeded, recorded dice (one ``Dice`` per game).

Every roll goes through a ``Dice`` and is recorded with a label, so a game is
reproducible from its scenario, its seed and its action log.  The generator is
counter based (SplitMix64 of ``seed`` and the roll number): its whole state is
two integers, which makes saving and restoring exact and cheap.

A ``Dice`` can be *forced* from a list of values (rules cases, tests, the odds
enumerator).  In strict forced mode a roll that is needed but was not given
raises ``MissingRollError``; ``assert_exhausted`` raises ``UnusedRollError``
for values given but not used.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import NamedTuple

from bellum.errors import DiceError, MissingRollError, UnusedRollError

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


class Roll(NamedTuple):
    """One recorded roll: what it was for, the die, the value, and whether it was forced."""

    label: str
    sides: int
    value: int
    forced: bool


def face_range(sides: int) -> range:
    """The faces of a die as the rules read it: a d10 is 0–9, any other dN is 1–N."""
    if sides == 10:
        return range(0, 10)
    return range(1, sides + 1)


#: a die's first blocks of d10 faces are worked out one face each; later ones ``_BLOCK`` at once
_ONE_BY_ONE = 8
_BLOCK = 256


def _splitmix_d10(seed: int, c: int, n: int) -> list[int]:
    """The d10 faces of rolls ``c + 1`` to ``c + n`` of ``seed`` (``Dice.roll``'s SplitMix64,
    vectorized: numpy's uint64 arrays wrap modulo 2**64 as ``& _MASK`` does)."""
    import numpy as np  # only a die that rolls many times needs it

    u = np.uint64
    z = np.arange(c + 1, c + n + 1, dtype=u) * u(_GAMMA) + u(seed)
    z ^= z >> u(30)
    z *= u(0xBF58476D1CE4E5B9)
    z ^= z >> u(27)
    z *= u(0x94D049BB133111EB)
    z ^= z >> u(31)
    faces: list[int] = (z % u(10)).tolist()
    return faces


class Dice:
    """The game's only source of chance."""

    __slots__ = ("_block", "_block_at", "_fills", "_forced", "_record", "_seed", "_strict", "counter", "rolls")

    def __init__(self, seed: int = 0, *, counter: int = 0, record: bool = True) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise DiceError("the seed must be a whole number")
        self._seed = seed & _MASK
        self.counter = counter
        self.rolls: list[Roll] = []
        self._forced: deque[int] = deque()
        self._strict = False
        self._record = record
        #: the d10 faces of the rolls numbered ``_block_at + 1`` on (``_d10_block``): a pure
        #: function of the seed (which never changes) and the roll's number, so a face kept here
        #: is the face ``roll`` would work out whenever ``counter`` comes back to it
        self._block: list[int] = []
        self._block_at = 0
        self._fills = 0

    @property
    def seed(self) -> int:
        """The seed (fixed for the life of the dice: the d10 faces worked out ahead read it)."""
        return self._seed

    # -- construction -------------------------------------------------
    @classmethod
    def forced(cls, values: Iterable[int]) -> Dice:
        """Strict forced dice: every roll must come from ``values``."""
        dice = cls(0)
        dice.force(values, strict=True)
        return dice

    def force(self, values: Iterable[int], *, strict: bool | None = None) -> None:
        """Queue forced values; with ``strict`` a roll beyond them is an error."""
        for v in values:
            if not isinstance(v, int) or isinstance(v, bool):
                raise DiceError(f"a forced roll must be a whole number, not {v!r}")
            self._forced.append(v)
        if strict is not None:
            self._strict = strict

    @property
    def strict(self) -> bool:
        return self._strict

    def reads_labels(self) -> bool:
        """Does a roll's label go anywhere: recorded, or named by a forced roll's error?  (When
        not, a caller rolling many dice may pass an empty label instead of writing each one.)"""
        return self._record or self._strict or bool(self._forced)

    def pending(self) -> list[int]:
        """Forced values not used yet."""
        return list(self._forced)

    def assert_exhausted(self) -> None:
        """Raise ``UnusedRollError`` if forced values are left over (and drop them)."""
        if self._forced:
            unused = list(self._forced)
            self._forced.clear()
            raise UnusedRollError(unused)

    # -- rolling ------------------------------------------------------
    def roll(self, sides: int, label: str) -> int:
        """Roll one die of ``sides`` faces (d10 reads 0–9; others 1–N)."""
        if self._forced:
            value = self._forced.popleft()
            if value not in face_range(sides):
                raise DiceError(f"forced roll {value} is not a face of a d{sides} ({label})")
            forced = True
        elif self._strict:
            raise MissingRollError(label, sides, len(self.rolls))
        else:
            # SplitMix64 of (seed + counter * gamma), inlined: this is the hot path of auto-resolve
            z = (self._seed + (self.counter + 1) * _GAMMA) & _MASK
            self.counter += 1
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            value = (z ^ (z >> 31)) % sides + (0 if sides == 10 else 1)
            forced = False
        if self._record:
            self.rolls.append(Roll(label, sides, value, forced))
        return value

    def d10(self, label: str) -> int:
        """A ten-sided die read 0–9 (GBoH): ``roll(10, label)``, written out for the
        battleboard's auto-resolve, which rolls hundreds of them a battle."""
        if self._forced or self._strict:
            return self.roll(10, label)
        c = self.counter
        j = c - self._block_at
        block = self._block
        if j >= len(block) or j < 0:
            block = self._d10_block(c)
            j = 0
        value = block[j]
        self.counter = c + 1
        if self._record:
            self.rolls.append(Roll(label, 10, value, False))
        return value

    def _d10_block(self, c: int) -> list[int]:
        """The d10 faces of the rolls after roll number ``c``, worked out ahead: one at a
        time for a die's first ``_ONE_BY_ONE`` blocks (most dice roll a few times), then
        ``_BLOCK`` at once in numpy's wrapping 64-bit arithmetic — the same SplitMix64 as
        ``roll``, bit for bit (an auto-resolved battle rolls a few hundred d10)."""
        self._fills += 1
        if self._fills <= _ONE_BY_ONE or not 0 <= c < _MASK - _BLOCK:
            z = (self._seed + (c + 1) * _GAMMA) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            block = [(z ^ (z >> 31)) % 10]
        else:
            block = _splitmix_d10(self._seed, c, _BLOCK)
        self._block = block
        self._block_at = c
        return block

    def d6(self, label: str) -> int:
        """A six-sided die read 1–6."""
        return self.roll(6, label)

    # -- saving -------------------------------------------------------
    def state(self) -> dict[str, int]:
        """What a save needs to continue the same sequence of rolls."""
        return {"seed": self.seed, "counter": self.counter}

    @classmethod
    def from_state(cls, state: dict[str, int]) -> Dice:
        return cls(state["seed"], counter=state["counter"])
