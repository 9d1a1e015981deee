"""Occupation, sieges and storms (docs/rules/campaign.md §11)."""

from __future__ import annotations

import pytest

from bellum.dice import Dice
from bellum.errors import RuleError
from campaign import actions as A
from campaign.engine import legal_actions
from campaign.rules.battle import field_battles
from campaign.rules.siege import storm_chance, under_siege
from campaign.state import CampaignState
from campaign.tables import tables
from tests.campaign.test_ops_sequence import army, fresh, play


def _before_rome(engineers: bool = True, phase: str = "combat") -> CampaignState:
    s = fresh(phase, keep=[])
    units = [("legion", "V", 5), ("legion", "V", 5), ("legion", "I", 5)]
    if engineers:
        units.append(("engineers", "V", 1))
    s.forces["caesar"] = army("caesar", "caesarian", "roma", units, ("caesar",))
    return s


def test_an_army_before_an_enemy_city_besieges_it_and_fights_no_field_battle() -> None:
    """campaign.md §11.2: the civis stays behind its walls."""
    s = _before_rome()
    assert under_siege(s, "roma") == "caesarian"
    assert field_battles(s) == []
    assert A.EndPhase() in legal_actions(s)


def test_storming_needs_engineers() -> None:
    """campaign.md §11.3 (reference: engineers are needed to storm cities)."""
    s = _before_rome(engineers=False)
    assert not any(isinstance(a, A.Storm) for a in legal_actions(s))
    with pytest.raises(RuleError):
        play(s, A.Storm("roma", "caesar"))
    assert A.Storm("roma", "caesar") in legal_actions(_before_rome())


def test_a_successful_storm_takes_the_city_and_its_leaders() -> None:
    """campaign.md §11.3 and §12.5 (004: the colony stormed, Antonius captured and executed)."""
    s = _before_rome()
    s.forces["civis_roma"] = s.forces["civis_roma"].model_copy(update={"leaders": ("cicero",), "commander": "cicero"})
    s2, ev = play(s, A.Storm("roma", "caesar"), Dice.forced([9, 0]))  # the storm; the execution roll
    assert s2.owners["roma"] == "caesarian"
    assert "civis_roma" not in s2.forces
    storm = next(e for e in ev if e.kind == "storm")
    assert storm.data["success"] and storm.data["losses"]["civis_roma"] == 3
    assert "cicero" in s2.dead  # 0 < the Caesarians' threshold of 2: executed
    assert [e.kind for e in ev][-1] == "capture"


def test_a_failed_storm_costs_the_stormers() -> None:
    """campaign.md §11.3: the repulse row says what a failed storm costs."""
    s = _before_rome()
    mod = 1 + tables().storm.odds_4  # one engineers unit, 16 SP against 3
    roll = 0
    s2, ev = play(s, A.Storm("roma", "caesar"), Dice.forced([roll]))
    storm = next(e for e in ev if e.kind == "storm")
    assert not storm.data["success"]
    assert sum(storm.data["losses"].values()) == tables().storm.repulse[roll + mod]
    assert s2.owners["roma"] == "senatorial"
    assert "roma" in s2.fought


def test_storm_odds_count_engineers_and_the_stratagem() -> None:
    """campaign.md §11.3: each modifier moves the chance by a tenth."""
    s = _before_rome()
    base = storm_chance(s, "roma", "caesar", False)
    assert storm_chance(s, "roma", "caesar", True) == pytest.approx(base + 0.1 * tables().storm.stratagem)


def test_a_starving_garrison_surrenders() -> None:
    """campaign.md §11.2: siege attrition without supply; a garrison gone gives up the city."""
    s = fresh("supply", side="senatorial", keep=[])
    s.forces["x"] = army("x", "caesarian", "corfinium", [("legion", "V", 5)], ("antonius",))
    s.forces["g"] = army("g", "senatorial", "corfinium", [("civis", "R", 1)])
    s2, ev = play(s, A.Supply(), Dice.forced([0]))
    kinds = [e.kind for e in ev]
    assert "siege" in kinds and "capture" in kinds
    assert s2.owners["corfinium"] == "caesarian"


def test_an_undefended_enemy_city_falls_to_the_first_army_that_enters() -> None:
    """campaign.md §11.1: occupation."""
    s = fresh(keep=["caesar"])
    s2, ev = play(s, A.March("caesar", "ariminum", ("ravenna", "ariminum")))
    assert s2.owners["ariminum"] == "caesarian"
    assert ev[-1].text == "The Caesarians occupy Ariminum."
