"""Supply, forage, sea supply and its interception, winter (docs/rules/campaign.md §10, §13)."""

from __future__ import annotations

from bellum.dice import Dice
from campaign import actions as A
from campaign.engine import CampaignEngine, legal_actions
from campaign.rules.supply import forage_result, land_supplied
from campaign.state import CampaignState
from campaign.tables import tables
from tests.campaign.test_ops_sequence import army, fresh, outcome_for, play


def _supply(s: CampaignState, dice: Dice, engine: CampaignEngine | None = None) -> tuple:
    kw = {"engine": engine} if engine else {}
    return play(s, A.Supply(), dice, **kw)


def test_a_force_in_a_friendly_city_is_supplied_and_rallies() -> None:
    """campaign.md §10.1: a city its side holds supplies it; supplied units rally (§10.4)."""
    s = fresh("supply", keep=["caesar"])
    u = s.forces["caesar"].units[0].model_copy(update={"disrupted": True})
    s.forces["caesar"] = s.forces["caesar"].model_copy(update={"units": (u, *s.forces["caesar"].units[1:])})
    assert land_supplied(s, "caesarian", "ravenna")
    s2, _ev = _supply(s, Dice.forced([]))
    assert not s2.forces["caesar"].units[0].disrupted
    assert s2.phase == "stratagems" and s2.active == "senatorial"


def test_supply_is_traced_a_few_movement_points_over_land() -> None:
    """campaign.md §10.1: within 3 movement points of a friendly city, not through the enemy."""
    s = fresh("supply", keep=[])
    assert land_supplied(s, "caesarian", "bononia")  # one road from Ravenna
    assert not land_supplied(s, "caesarian", "tacapae")  # the Syrtic desert, far from any Caesarian city


def test_a_force_out_of_supply_forages_and_can_lose_half() -> None:
    """campaign.md §10.3 (004: Scipio's army "unable to forage and suffered 50% attrition")."""
    s = fresh("supply", side="senatorial", keep=[])
    s.forces["scipio"] = army("scipio", "senatorial", "syrtis", [("legion", "V", 5), ("legion", "R", 5)], ("scipio",))
    assert not land_supplied(s, "senatorial", "syrtis")
    res = forage_result(s, s.forces["scipio"], 0)
    assert res.kind == "loss" and res.loss == 50
    s2, ev = _supply(s, Dice.forced([0]))
    forage = [e for e in ev if e.kind == "forage"]
    assert forage and sum(forage[0].data["losses"].values()) == 5
    assert s2.forces["scipio"].strength() == 5


def test_pillage_in_enemy_country_helps_the_forager() -> None:
    """campaign.md §10.3: +2 to the forage roll in a space the enemy owns."""
    s = fresh("supply", keep=[])
    s.forces["x"] = army("x", "caesarian", "tacapae", [("legion", "V", 5)], ("antonius",))
    neutral = forage_result(s, s.forces["x"], 2)
    s.owners["tacapae"] = "senatorial"
    pillage = forage_result(s, s.forces["x"], 2)
    row = tables().supply.forage.desert
    assert (neutral, pillage) == (row[2], row[4])


def test_the_enemy_may_declare_a_cut_of_sea_supply() -> None:
    """campaign.md §10.2 (004 case (b)): an enemy force with fleets in the port may cut it."""
    s = fresh("combat", keep=[])
    s.forces["y"] = army("y", "senatorial", "salonae", [("legion", "V", 5), ("fleet", "R", 3)], ("libo",))
    s.owners["salonae"] = "caesarian"
    # the Caesarian civis of Salonae and its field force are besieged: no land supply
    assert A.EndPhase() in legal_actions(s)  # the civis does not take the field: a siege, no battle
    s2, _ = play(s, A.EndPhase())
    assert s2.phase == "supply"
    assert s2.pending is not None and s2.pending.kind == "cut_supply" and s2.actor == "senatorial"
    s3, ev = play(s2, A.CutSupply("salonae", "y"))
    assert s3.cuts == {"salonae": "y"} and s3.pending is None
    _s4, ev = _supply(s3, Dice.forced([0]))  # no Caesarian fleet: the supply is cut, the siege bites
    kinds = [e.kind for e in ev]
    assert "supply_cut" in kinds and "siege" in kinds


def test_a_convoy_battle_decides_sea_supply_when_both_have_fleets() -> None:
    """campaign.md §10.2 (004 Victory: whoever wins decides; no winner, no supply)."""
    seen = []

    def convoy(eng, dice):  # type: ignore[no-untyped-def]
        seen.append(eng.trigger)
        return outcome_for(eng, "A")

    s = fresh("supply", keep=[])
    s.owners["salonae"] = "caesarian"
    s.forces["x"] = army("x", "caesarian", "salonae", [("legion", "V", 5), ("fleet", "R", 3)], ("antonius",))
    s.forces["y"] = army("y", "senatorial", "salonae", [("legion", "V", 5), ("fleet", "R", 3)], ("libo",))
    s.cuts = {"salonae": "y"}
    s.escorts = {"salonae": "x"}  # the Caesarians fight for their convoys (004 (b))
    engine = CampaignEngine(resolver=convoy)
    _s2, ev = _supply(s, Dice.forced([]), engine)
    assert seen == ["supply"]
    assert "siege" not in [e.kind for e in ev]  # supply went through


def test_winter_attrition_strikes_forces_outside_friendly_cities() -> None:
    """campaign.md §13.1: a winter turn's supply phase rolls on the winter table."""
    s = fresh("supply", keep=[])
    s.turn = 7  # December: winter
    s.forces["x"] = army("x", "caesarian", "ariminum", [("legion", "V", 5), ("legion", "V", 5)], ("antonius",))
    row = tables().winter.results
    _s2, ev = _supply(s, Dice.forced([0]))
    winter = [e for e in ev if e.kind == "winter"]
    assert winter
    lost = sum(winter[0].data["losses"].values())
    assert lost == 3 == round(10 * read_loss(row, 0) / 100 + 0.0001)  # 25% of 10, rounded half up


def read_loss(row, i):  # type: ignore[no-untyped-def]
    return row[max(0, min(9, i))].loss


def test_winter_quarters_rebuild_units_in_friendly_cities() -> None:
    """campaign.md §13.2: +1 SP to reduced units in a supplied friendly city in winter."""
    s = fresh("supply", keep=["caesar"])
    s.turn = 7
    u = s.forces["caesar"].units[0].model_copy(update={"strength": 3})
    s.forces["caesar"] = s.forces["caesar"].model_copy(update={"units": (u, *s.forces["caesar"].units[1:])})
    s2, ev = _supply(s, Dice.forced([]))
    assert s2.forces["caesar"].units[0].strength == 4
    assert [e.data["gains"] for e in ev if e.kind == "quarters"] == [{u.id: 1}]
