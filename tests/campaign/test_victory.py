"""Victory (docs/rules/campaign.md §21; reference: Victory — Triumphant, Conquering,
Optimus, the Political Requirement, Fratricide)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bellum.cli import main
from bellum.dice import Dice
from bellum.errors import RuleError
from campaign import actions as A
from campaign.chronicle import result
from campaign.engine import legal_actions
from campaign.map import roman_world
from campaign.rules.clients import world_tables
from campaign.rules.sequence import advance
from campaign.rules.victory import (
    check_victory,
    cities_held,
    colonies_held,
    level,
    off_map_held,
    political_requirement,
    status,
)
from campaign.state import CampaignState
from tests.campaign.test_ops_sequence import ENGINE, fresh


def give(s: CampaignState, side: str, n_cities: int, rome: bool = True, off_map: int = 0) -> None:
    """Hand ``side`` Rome (or not), exactly ``n_cities`` other cities and ``off_map`` regions."""
    cmap = roman_world()
    other = "senatorial" if side == "caesarian" else "caesarian"
    cities = sorted(c for c in cmap.cities() if c != "roma")
    for i, c in enumerate(cities):
        s.owners[c] = side if i < n_cities else other
    s.owners["roma"] = side if rome else other
    for i, r in enumerate(cmap.off_map()):
        s.owners[r] = side if i < off_map else "neutral"
    s.clients = dict.fromkeys(s.clients, "neutral")


def last_turn(s: CampaignState) -> None:
    """The last side's supply phase of December 45 BC."""
    s.turn = 8 * (49 - world_tables().victory.last_year_bc) + 7
    s.phase, s.active = "supply", "senatorial"


def test_the_political_requirement_of_each_side() -> None:
    """Reference: Caesar ≥ 4 markers; the Senate ≥ 2 while Caesar ≤ 1."""
    s = fresh()
    cases = {(4, 0): (True, False), (3, 2): (False, False), (1, 2): (False, True), (0, 1): (False, False)}
    for (c, p), (want_c, want_s) in cases.items():
        s.res_publica = {"caesarian": c, "senatorial": p}
        assert political_requirement(s, "caesarian") is want_c, (c, p)
        assert political_requirement(s, "senatorial") is want_s, (c, p)


def test_triumphant_needs_rome_25_other_cities_the_requirement_and_a_supreme_leader() -> None:
    s = fresh()
    s.res_publica = {"caesarian": 4, "senatorial": 0}
    give(s, "caesarian", 25)
    assert cities_held(s, "caesarian") == 25
    assert level(s, "caesarian") == "triumphant"
    give(s, "caesarian", 24)
    assert level(s, "caesarian") is None
    give(s, "caesarian", 30, rome=False)
    assert level(s, "caesarian") is None
    give(s, "caesarian", 30)
    s.supreme["caesarian"] = None
    assert level(s, "caesarian") is None


def test_conquering_adds_two_off_map_regions_and_optimus_five_colonies() -> None:
    s = fresh()
    s.res_publica = {"caesarian": 1, "senatorial": 2}
    give(s, "senatorial", 40, off_map=2)
    assert off_map_held(s, "senatorial") == 2
    assert level(s, "senatorial") == "conquering"
    colonies = roman_world().colony_sites()[:5]
    for c in colonies:
        s.owners[c] = "senatorial"
    s.colonies = tuple(colonies)
    assert colonies_held(s, "senatorial") == 5
    assert level(s, "senatorial") == "optimus"


def test_a_clients_cities_count_for_its_ally() -> None:
    """§21.1: a client's cities fight for its ally (§7.5)."""
    s = fresh()
    before = cities_held(s, "senatorial")
    s.clients["egypt"] = "senatorial"
    assert cities_held(s, "senatorial") == before + sum(
        1 for c in roman_world().cities() if s.owners[c] == "egypt" and c != "roma"
    )


def test_optimus_ends_the_game_at_once() -> None:
    """Reference: Optimus ends the game at once — at the next change of phase (§21.2)."""
    s = fresh(phase="movement")
    s.res_publica = {"caesarian": 5, "senatorial": 0}
    give(s, "caesarian", 40, off_map=2)
    s.colonies = tuple(roman_world().colony_sites()[:5])
    for c in s.colonies:
        s.owners[c] = "caesarian"
    events = advance(s, Dice.forced([]))
    assert s.result == {"winner": "caesarian", "how": "optimus", "text": s.result["text"]}
    assert any(e.kind == "victory" for e in events)
    assert legal_actions(s) == []
    with pytest.raises(RuleError):
        ENGINE.apply(s, A.EndPhase(), Dice.forced([]))


def test_fratricide_over_the_limit_ends_the_game_with_no_winner() -> None:
    """Reference: the game ends with no winner once fratricide passes 100."""
    s = fresh(phase="combat")
    s.fratricide = 100
    check_victory(s)
    assert not s.result  # 100 is not past the limit
    s.fratricide = 105
    check_victory(s)
    assert s.result["how"] == "fratricide" and s.result["winner"] == ""
    assert result(s).startswith("Result: fratricide has reached 105")


def test_triumphant_is_judged_only_when_the_last_turn_is_over() -> None:
    """§21.2: Triumphant and Conquering are judged after December 45 BC."""
    s = fresh()
    s.res_publica = {"caesarian": 1, "senatorial": 2}
    give(s, "senatorial", 60)
    check_victory(s)
    assert not s.result
    last_turn(s)
    s.winter = lambda t=None: False  # type: ignore[method-assign]  # no winter attrition in the way
    advance(s, Dice.forced([]))
    assert s.year_bc() == 44
    assert s.result["winner"] == "senatorial" and s.result["how"] == "triumphant"


def test_both_sides_failing_the_requirement_at_the_end_both_lose() -> None:
    s = fresh()
    s.res_publica = {"caesarian": 2, "senatorial": 3}
    give(s, "caesarian", 60)
    s.year_bc = lambda t=None: 44  # type: ignore[method-assign]
    check_victory(s)
    assert s.result["how"] == "both_lose" and s.result["winner"] == ""


def test_an_end_with_no_victory_is_undecided_and_says_where_each_side_stood() -> None:
    s = fresh()
    s.res_publica = {"caesarian": 4, "senatorial": 0}
    give(s, "caesarian", 10)
    s.year_bc = lambda t=None: 44  # type: ignore[method-assign]
    check_victory(s)
    assert s.result["how"] == "undecided"
    assert "Caesarians: Rome yes, 10 other cities" in s.result["text"]


def test_status_reports_every_condition() -> None:
    s = fresh()
    st = status(s, "senatorial")
    assert st["rome"] is True and st["cities_needed"] == 25 and st["off_map_needed"] == 2
    assert st["colonies_needed"] == 5 and st["supreme"] == "pompeius"


def test_headless_forty_turns_ends_with_a_result_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Issue 8 acceptance: the headless run plays to a victory or the end and its last
    chronicle line is the result."""
    code = main(["campaign", "--ai", "both", "--turns", "1", "--seed", "2", "--headless"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[-1].startswith("Result: the war goes on (March 49 BC)")
    assert out[-2].startswith("Summary, March 49 BC")


def test_the_chronicle_marks_major_battles() -> None:
    """docs/BALANCE.md: a major battle is a land field battle with at least 8 SP a side."""
    from bellum.events import Event
    from campaign.chronicle import MAJOR_SP, is_major, line, summary

    big = Event(
        "battle",
        "Battle of Ilerda: …",
        {
            "date": "June 49 BC",
            "battle_kind": "land",
            "trigger": "battle",
            "engaged": {"caesarian": MAJOR_SP, "senatorial": 20},
        },
    )
    small = Event(
        "battle",
        "Battle of Zama: …",
        {
            "date": "June 49 BC",
            "battle_kind": "land",
            "trigger": "battle",
            "engaged": {"caesarian": MAJOR_SP - 1, "senatorial": 20},
        },
    )
    sea = Event(
        "battle",
        "Battle off Massilia: …",
        {"battle_kind": "naval", "trigger": "battle", "engaged": {"caesarian": 20, "senatorial": 20}},
    )
    assert is_major(big) and not is_major(small) and not is_major(sea)
    assert line(big).endswith("(A major battle.)") and not line(small).endswith("(A major battle.)")
    assert "2 battles (1 major)" in summary(fresh(), [big, small])


def test_the_victory_table_holds_the_reference_numbers() -> None:
    """Reference (Victory): Rome + 25 other cities; +2 off-map regions; +5 colonies; Caesar
    ≥ 4 markers; the Senate ≥ 2 while Caesar ≤ 1; fratricide over 100; five years, 49–45."""
    v = world_tables().victory
    assert (v.other_cities, v.off_map, v.colonies) == (25, 2, 5)
    assert (v.caesar_markers, v.senate_markers, v.senate_caesar_max) == (4, 2, 1)
    assert v.fratricide_limit == 100 and v.last_year_bc == 45
