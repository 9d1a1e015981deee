"""Marches over land (docs/rules/campaign.md §8)."""

from __future__ import annotations

import pytest

from bellum.dice import Dice
from bellum.errors import RuleError
from campaign import actions as A
from campaign.engine import legal_actions
from campaign.rules.march import allowance, destinations
from campaign.tables import tables
from tests.campaign.test_ops_sequence import army, fresh, play


def test_a_road_march_rolls_no_die_and_is_chronicled_by_its_road() -> None:
    """campaign.md §8.1: roads cost 1 and need no March Table roll."""
    s = fresh(keep=["caesar"])
    dice = Dice.forced([])
    s2, ev = play(s, A.March("caesar", "ariminum", ("ravenna", "ariminum")), dice)
    assert s2.forces["caesar"].location == "ariminum"
    assert ev[0].kind == "march"
    assert ev[0].text == "Caesar marches from Ravenna to Ariminum by the Via Popillia."
    assert s2.spent["caesar"] == 4  # the march stops: Ariminum is an enemy city (§8.3)


def test_the_movement_allowance_bounds_the_destinations() -> None:
    """campaign.md §8.1: 4 movement points a campaign turn, 2 in winter."""
    s = fresh(keep=["caesar"])
    assert allowance(s, s.forces["caesar"]) == tables().movement.land
    dests = destinations(s, s.forces["caesar"])
    assert all(cost <= 4 for cost, _ in dests.values())
    s.turn = 0  # January: winter
    assert allowance(s, s.forces["caesar"]) == tables().movement.land_winter


def test_an_enemy_city_stops_the_march() -> None:
    """campaign.md §8.3: no passing through a city the enemy holds."""
    s = fresh(keep=["caesar"])
    dests = destinations(s, s.forces["caesar"])
    assert "ariminum" in dests
    for _, path in dests.values():
        assert "ariminum" not in path[1:-1]
    with pytest.raises(RuleError):
        play(s, A.March("caesar", "ancona", ("ravenna", "ariminum", "ancona")))


def test_a_neutral_force_blocks_the_way() -> None:
    """campaign.md §8.3: a space held by a power at peace (Massilia) cannot be entered."""
    s = fresh(keep=["fabius", "massilia"])
    put_at = s.forces["fabius"].model_copy(update={"location": "arelate"})
    s.forces["fabius"] = put_at
    assert "massilia" not in destinations(s, s.forces["fabius"])


def test_a_cross_country_march_rolls_the_march_table_by_terrain() -> None:
    """campaign.md §8.2: a cross-country edge is rolled by the terrain entered; a
    scatter result sends the force astray with losses (004: Antipater in the desert)."""
    s = fresh(keep=["varus"])
    s.forces["varus"] = army(
        "varus", "senatorial", "thapsus", [("legion", "R", 5), ("auxiliary", "R", 2)], ("attius_varus",)
    )
    s.active = "senatorial"
    row = tables().march.rows.desert
    assert row[0].kind == "scatter"
    dice = Dice.forced([0, 0])  # the March Table roll, then the scatter die
    s2, ev = play(s, A.March("varus", "tacapae", ("thapsus", "tacapae")), dice)
    scatter = [e for e in ev if e.kind == "scatter"]
    assert scatter and scatter[0].data["losses"]
    lost = sum(scatter[0].data["losses"].values())
    assert lost == round(7 * row[0].loss / 100 + 0.0001)
    assert s2.forces["varus"].location != "tacapae"
    assert s2.forces["varus"].strength() == 7 - lost
    assert s2.spent["varus"] >= allowance(s2, s2.forces["varus"])


def test_a_military_stratagem_improves_the_march() -> None:
    """campaign.md §8.2: a Military stratagem adds +3 to every roll of the march."""
    s = fresh(keep=["varus"])
    s.forces["varus"] = army("varus", "senatorial", "thapsus", [("legion", "R", 5)], ("attius_varus",))
    s.active = "senatorial"
    s.stratagems["senatorial"]["military"] = 1
    assert A.March("varus", "tacapae", ("thapsus", "tacapae"), True) in legal_actions(s)
    s2, _ev = play(s, A.March("varus", "tacapae", ("thapsus", "tacapae"), True), Dice.forced([3]))
    assert s2.forces["varus"].location == "tacapae"  # 3 + 3 = 6: "ok" in the desert row
    assert s2.stratagems["senatorial"]["military"] == 0
    assert s2.expended["senatorial"]["military"] == 1
    s3, _ = play(s, A.March("varus", "tacapae", ("thapsus", "tacapae")), Dice.forced([3]))
    assert s3.forces["varus"].location == "thapsus"  # unmodified 3: halted before the desert


def test_fleets_do_not_march() -> None:
    """campaign.md §8.1: a force marching out of a port leaves its ships there."""
    s = fresh(keep=["cato"], side="senatorial")
    s2, _ = play(s, A.March("cato", "messana", ("syracusa", "messana")), Dice(1))
    moved = s2.forces["cato"]
    assert moved.location == "messana" and not moved.fleets()
    ships = [f for f in s2.forces.values() if f.location == "syracusa" and f.fleets()]
    assert ships and ships[0].commander is None


def test_a_leaderless_force_has_a_smaller_allowance() -> None:
    """campaign.md §8.1: a garrison with no leader moves 2 points."""
    s = fresh(keep=["aedui"])
    assert allowance(s, s.forces["aedui"]) == tables().movement.leaderless


def test_joining_two_forces_gives_the_command_to_the_best_leader() -> None:
    """campaign.md §8.4: forces in one space may join; the Supreme Leader commands."""
    s = fresh(keep=["caesar"])
    s.forces["fabius"] = army("fabius", "caesarian", "ravenna", [("legion", "V", 5)], ("fabius",))
    s2, ev = play(s, A.Merge("caesar", "fabius"))
    assert "caesar" not in s2.forces
    assert s2.forces["fabius"].commander == "caesar"
    assert ev[0].text.startswith("Caesar joins Fabius")
