"""The odds shown to players and used by the AI are the real resolver's, exactly."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battleboard.model import Action
from battleboard.odds import Outcome, result_probs, setup_distribution, summary
from battleboard.position import Position, build_state
from battleboard.rules import Chance, Setup, resolve_setup
from battleboard.tables import tables
from bellum.dice import Dice
from bellum.odds import exact_distribution

SETUPS = [
    Setup("phalanx", 3, (0, False, False), ((0, False, False),), None),
    Setup("wedge", 2, (2, True, False), ((-1, True, True),), None),
    Setup("phalanx", 3, (1, False, False), ((0, False, False),), 0),  # defensive fire first
    Setup("quincunx", 3, (1, False, False), ((0, False, False), (0, False, True)), None),  # boarding
    Setup("ram", 2, (0, False, False), ((1, False, True),), None),
]


def by_dice(setup: Setup) -> dict[Outcome, Fraction]:
    combat = tables().combat
    uids = ("a", *(f"d{i}" for i in range(len(setup.defs))))

    def run(dice: Dice) -> Outcome:
        att, defs, _, _ = resolve_setup(combat, setup, uids, Chance(dice))
        return (att.flipped, att.dead, tuple((d.flipped, d.dead) for d in defs))

    return exact_distribution(run)


@pytest.mark.parametrize("setup", SETUPS)
def test_result_enumeration_equals_dice_enumeration(setup: Setup) -> None:
    assert dict(setup_distribution(setup)) == by_dice(setup)


def test_result_probabilities_sum_to_one() -> None:
    row = tables().combat.row("phalanx")
    for mod in range(-6, 8):
        assert sum(p for _, p in result_probs(row, -3, mod)) == 1


def test_summary_of_a_real_attack() -> None:
    pos = Position.model_validate(
        {
            "units": [
                {"id": "A1", "side": "A", "kind": "legion", "discipline": "V", "strength": 5, "square": "c4"},
                {"id": "B1", "side": "B", "kind": "mob", "discipline": "M", "strength": 2, "square": "c5"},
            ]
        }
    )
    s = build_state(pos, "test")
    odds = summary(s, Action("attack", "A1", target="B1", mode="quincunx"))
    assert 0 < odds["target_eliminated"] < 1
    assert odds["target_flipped"] + odds["target_eliminated"] <= 1
    assert 0 <= odds["attacker_hurt"] < 0.5
