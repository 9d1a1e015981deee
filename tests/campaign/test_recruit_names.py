"""Raised counters bear names (docs/rules/campaign.md §17.1)."""

from __future__ import annotations

from campaign import actions as A
from campaign.engine import load
from campaign.rules.recruiting import roman_numeral, unit_name
from campaign.state import initial_state
from tests.campaign.test_ops_sequence import fresh, play


def test_roman_numerals() -> None:
    assert [roman_numeral(n) for n in (1, 4, 9, 14, 15, 19, 24, 40, 49)] == [
        "I", "IV", "IX", "XIV", "XV", "XIX", "XXIV", "XL", "XLIX"
    ]  # fmt: skip


def test_a_legion_takes_the_next_numeral_of_its_side_skipping_those_borne() -> None:
    """Caesar's highest legion in 49 BC is XIV: his first levy is Legio XV; the Senate's
    legions are I and III, so its first is IV (II is not after its highest)."""
    s = initial_state(load("49bc"))
    assert unit_name(s, "caesarian", "legion", "ravenna") == "Legio XV"
    assert unit_name(s, "senatorial", "legion", "roma") == "Legio IV"
    assert unit_name(s, "caesarian", "cavalry", "ravenna") == "Cavalry of Ravenna"


def test_recruiting_names_the_new_legion_in_the_chronicle() -> None:
    s = fresh("recruiting", keep=["caesar"])
    s.stratagems["caesarian"].update(political=3)
    s2, ev = play(s, A.Recruit("ravenna", "legion"))
    new = [u for u in s2.forces["caesar"].units if u.id.startswith("raised_legion")]
    assert new[0].name and new[0].name.startswith("Legio ")
    assert new[0].name in ev[0].text
    s3, _ = play(s2, A.Recruit("ravenna", "legion"))
    names = {u.name for u in s3.forces["caesar"].units if u.id.startswith("raised_legion")}
    assert len(names) == 2  # two levies, two numerals
