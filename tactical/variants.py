"""Set-up variants of 001 (docs/rules/tactical.md §9): the rout-bid method.

``rout-bid:SIDE:POINTS`` (001 Rout Bid method Variant): instead of lowering the bidding
side's withdrawal level by its bid, Roman units are taken off the field before the battle,
legion by legion in the order of ``data/rout_bid.toml``, until the TQ points removed reach
the bid (the last unit may carry it past); the withdrawal level is then worked out again as
the same share of the army's TQ points, less the bid (001's example: 350 points at 35 %, a
bid of 80 → (350 − 80) × 0.35 = 94.5, rounded up to 95).  Pure: it changes the state it is
given and returns what it did as sentences.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from bellum.tomlio import load_model
from tactical.movement import organisation
from tactical.rout import rout_value
from tactical.state import State, Unit, frontal_hexes

DATA = Path(__file__).parent / "data"
ROUT_BID = "rout-bid"
_ROMAN_VALUE = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


class RoutBidFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    source: str
    order: list[str]
    words: dict[str, list[str]]


@cache
def rout_bid_table() -> RoutBidFile:
    return load_model(RoutBidFile, DATA / "rout_bid.toml")


def parse_rout_bid(option: str) -> tuple[str, int] | None:
    """``rout-bid:B:80`` → ("B", 80); None if ``option`` is not a rout bid; ValueError if it is
    one written wrong."""
    if not option.startswith(ROUT_BID + ":"):
        return None
    parts = option.split(":")
    if len(parts) != 3 or parts[1] not in ("A", "B") or not parts[2].isdigit() or int(parts[2]) < 1:
        raise ValueError(f"a rout bid is written {ROUT_BID}:SIDE:POINTS (e.g. {ROUT_BID}:B:80), not {option!r}")
    return parts[1], int(parts[2])


def roman_kind(unit: Unit) -> str | None:
    """The kind of a Roman foot unit for the rout bid: velites, cohort, or the kind a word of its
    group name or id names (triarii, hastati, principes); None for anything else."""
    if not unit.roman or unit.mounted:
        return None
    if unit.skirmisher:
        return "velites"
    if unit.type == "CO":
        return "cohort"
    text = f"{unit.group} {unit.id}".lower()
    for kind, words in rout_bid_table().words.items():
        if any(w in text for w in words):
            return kind
    return None


def _legion(unit: Unit) -> str:
    """The legion of a Roman unit: its organisation's numeral (docs §4.5); Roman foot whose group
    carries no numeral count as one legion."""
    org = organisation(unit.group)
    return org if org and all(ch in _ROMAN_VALUE for ch in org) else ""


def _numeral(text: str) -> int:
    total = 0
    for k, ch in enumerate(text):
        v = _ROMAN_VALUE[ch]
        total += -v if k + 1 < len(text) and _ROMAN_VALUE[text[k + 1]] > v else v
    return total


def apply_rout_bid(state: State, side: str, bid: int) -> list[str]:
    """Remove the bidding side's Roman units for ``bid`` TQ points and work out its withdrawal
    level again (001 Rout Bid method).  ValueError when the bid cannot be met or the side has
    no withdrawal level."""
    level = state.withdrawal.get(side)
    if not level:
        raise ValueError(f"side {side} has no withdrawal level for a rout bid to lower")
    army = [u for u in state.units.values() if u.side == side]
    total = sum(rout_value(u) for u in army)
    if bid >= total:
        raise ValueError(f"a bid of {bid} is not less than side {side}'s {total} TQ points")
    legions = sorted({_legion(u) for u in army if roman_kind(u)}, key=lambda g: (g != "", _numeral(g), g))
    if not legions:
        raise ValueError(f"side {side} has no Roman legion units to remove for a rout bid")
    removed = 0
    out: list[str] = []
    order = rout_bid_table().order
    while removed < bid:
        took = False
        for kind in order:
            for legion in legions:
                if removed >= bid:
                    break
                pool = sorted(
                    (u for u in army if u.id in state.units and _legion(u) == legion and roman_kind(u) == kind),
                    key=lambda u: u.id,
                )
                if not pool:
                    continue
                unit = pool[-1]
                del state.units[unit.id]
                removed += rout_value(unit)
                took = True
                out.append(f"{unit.id} ({kind}{', ' + legion + ' legion' if legion else ''}) is removed for the bid")
        if not took:
            raise ValueError(f"side {side} has too few Roman units to remove for a bid of {bid} TQ points")
    share = Fraction(level, total)
    new = int((total - bid) * share + Fraction(1, 2))  # half up, as 001's 94.5 → 95
    state.withdrawal[side] = new
    out.append(f"side {side} removed {removed} TQ points for a bid of {bid}; withdrawal level {new} (was {level})")
    return out


# -- No Pilum #4: which legions start the activation with an enemy in their ZOC -------------------
def legion_unit(unit: Unit) -> bool:
    """A Roman legion unit (hastati, principes, triarii, cohorts: LG, CO), as for the pilum
    (000 §8.14) and 001's No Pilum variant."""
    return unit.roman and unit.type in ("LG", "CO")


def pressed_legions(state: State) -> frozenset[str]:
    """The legion units with an enemy unit in their zone of control — their frontal hexes
    (000 §7.2) — as an activation starts (001 No Pilum #4, option ``no-pilum``)."""
    grid = state.field.grid
    enemy: dict[str, set[int]] = {"A": set(), "B": set()}
    for u in state.units.values():
        if u.on_map:
            enemy["B" if u.side == "A" else "A"].update(u.hexes())
    return frozenset(
        u.id
        for u in state.units.values()
        if u.on_map and legion_unit(u) and any(h in enemy[u.side] for h in frontal_hexes(grid, u))
    )
