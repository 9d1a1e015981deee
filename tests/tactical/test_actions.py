"""Every action has a written notation that reads back to the same action."""

from __future__ import annotations

import pytest

from bellum.errors import RuleError
from tactical.actions import (
    Activate,
    Continuity,
    Face,
    Fire,
    Move,
    Pass,
    Rally,
    Reaction,
    Replace,
    Shock,
    Start,
    parse_action,
)

ACTIONS = [
    Move("A1", ("1104", "face:2", "1204")),
    Move(
        "A1", ("1104",), (Reaction("B1", "1104", face=4), Reaction("B2", "1104", withdraw=("1006", "1005"), fire=True))
    ),
    Move("LA1", ("1104", "1204"), carry="A1"),
    Move("P", ("column:3", "1210")),
    Face("A1", 2),
    Activate(leader="LB1"),
    Activate(group=("B1", "B2", "B3")),
    Continuity(leader="LA2"),
    Continuity(group=("A1", "A2")),
    Pass(),
    Start(),
    Replace("LA3", "1014"),
    Replace("LA1", "1014", by="LA4"),
    Shock(("A1", "A2"), "B1"),
    Shock(
        ("A1",),
        "B1",
        weapon="HI",
        defender_weapon="LI",
        reaction_fire="A1",
        pursue=True,
        retreat_before_combat=("1007", "1006"),
        advance=True,
        reduce_hits=True,
    ),
    Fire("A1", "B1"),
    Fire("A1", "B1", hit_and_run=True, return_fire=True),
    Rally("A2"),
]


@pytest.mark.parametrize("action", ACTIONS, ids=lambda a: a.notation())
def test_notation_round_trip(action: object) -> None:
    assert parse_action(action.notation()) == action  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "dance A1",
        "face A1",
        "move",
        "shock A1",
        "shock A1 B1 charge",
        "move A1 1104 | B1 face:4",
        "activate",
        "replace LA1 1014 LA4",
    ],
)
def test_unreadable_notation_is_a_rule_error(text: str) -> None:
    with pytest.raises(RuleError):
        parse_action(text)
