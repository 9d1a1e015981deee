"""Fratricide counts Roman heavy infantry killed, nothing else (docs/rules/campaign.md §21.3;
docs/rules/battleboard.md §12.4; reference: Fratricide)."""

from __future__ import annotations

from bellum.dice import Dice
from bellum.engagement import Engagement, Outcome, UnitFate
from campaign.rules.battle import fratricide_points
from tests.campaign.test_ops_battle import _fight, _ilerda
from tests.campaign.test_ops_sequence import outcome_for


def _with_fates(eng: Engagement, fates: dict[str, str], reported: dict[str, int]) -> Outcome:
    out = outcome_for(eng, "A")
    units = [
        UnitFate(id=f.id, side=f.side, fate=fates.get(f.id, f.fate), strength=f.strength, discipline=f.discipline)  # type: ignore[arg-type]
        for f in out.units
    ]
    return out.model_copy(update={"units": units, "heavy_infantry_killed": reported})


def test_captured_dispersed_and_fled_legions_are_not_fratricide() -> None:
    seen: list[Outcome] = []

    def spared(eng: Engagement, dice: Dice) -> Outcome:
        fates = {"afranius_0": "captured", "afranius_1": "fled_lost", "fabius_0": "fled_returned"}
        seen.append(_with_fates(eng, fates, {"A": 0, "B": 0}))
        return seen[-1]

    s2, ev = _fight(_ilerda(), spared)
    assert s2.fratricide == 0
    assert ev[0].data["fratricide"] == 0
    assert ev[0].text.endswith("; of the Senatorials, 5 SP were taken prisoner and 3 SP scattered in flight.")
    assert "afranius_0" not in {u.id for f in s2.forces.values() for u in f.units}  # taken: gone all the same


def test_killed_legions_count_in_blocks_of_five_per_side() -> None:
    """A strength-5 legion killed adds 5; a 3-SP legion killed alone adds nothing; an
    engine's own count caps the campaign's (prisoners in a worn-down tactical unit)."""

    def bloody(eng: Engagement, dice: Dice) -> Outcome:
        fates = {"afranius_0": "eliminated", "afranius_1": "eliminated", "fabius_1": "drowned"}
        return _with_fates(eng, fates, {"A": 1, "B": 1})

    s2, _ = _fight(_ilerda(), bloody)
    assert s2.fratricide == 10  # Afranius 5 + 3 = 8 SP -> one block; Fabius 5 -> one block

    s = _ilerda()
    eng_out: list[int] = []

    def capped(eng: Engagement, dice: Dice) -> Outcome:
        out = _with_fates(eng, {"afranius_0": "eliminated", "fabius_1": "eliminated"}, {"A": 0, "B": 1})
        eng_out.append(fratricide_points(s, eng, out))
        return out

    s2, _ = _fight(s, capped)
    assert eng_out == [5] and s2.fratricide == 5


def test_only_a_battle_between_the_roman_sides_is_fratricide() -> None:
    s = _ilerda()
    got: list[int] = []

    def against_barbarians(eng: Engagement, dice: Dice) -> Outcome:
        eng2 = eng.model_copy(deep=True)
        eng2.sides["B"].faction = "barbarian"
        out = _with_fates(eng, {"fabius_0": "eliminated"}, {"A": 1, "B": 0})
        got.append(fratricide_points(s, eng2, out))
        return out

    _fight(s, against_barbarians)
    assert got == [0]
