"""The events phase and the Historical Events table (docs/rules/campaign.md §20;
reference: one roll on a Historical Events table each turn; 004: revolts, client
activations, hordes, Italian cities snatched away by random events)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bellum.dice import Dice
from bellum.errors import InputError
from campaign import actions as A
from campaign.engine import load
from campaign.map import roman_world
from campaign.rules import clients as C
from campaign.rules.events import events_phase, justice, reforms, resolve_event, revolt, submission, wavering
from campaign.state import initial_state
from tests.campaign.test_ops_sequence import ENGINE, army, fresh, put

WORLD = Path(C.__file__).resolve().parent.parent / "data" / "world.toml"


def test_the_table_has_one_result_for_every_roll_of_2d6() -> None:
    table = C.world_tables().events
    assert sorted(e.roll for e in table.entry) == list(range(2, 13))
    kinds = Counter(e.kind for e in table.entry)
    # the results the issue names: revolts, reforms, justice, client activations, hordes
    assert {"revolt", "reforms", "justice", "client", "horde", "wavering", "quiet"} <= set(kinds)
    assert table.result(7).kind == "quiet"  # the likeliest roll is a quiet turn (design)


def test_a_table_missing_a_roll_is_refused_in_one_sentence(tmp_path: Path) -> None:
    bad = tmp_path / "world.toml"
    bad.write_text(WORLD.read_text(encoding="utf-8").replace("roll = 12", "roll = 11", 1), encoding="utf-8")
    with pytest.raises(InputError) as err:
        C.load_world(bad)
    assert "2d6" in str(err.value)


def test_the_events_phase_rolls_2d6_and_opens_the_caesarians_turn() -> None:
    """§20.1 and §7.2: the events slot is one Pass; it rolls the table and goes on."""
    s = initial_state(load("49bc"))
    assert s.phase == "events"
    dice = Dice.forced([3, 4])  # 7: rumours and omens
    after, events = ENGINE.apply(s, A.Pass(), dice)
    assert any(e.kind == "historical_event" and e.data["roll"] == 7 for e in events)
    assert after.phase == "stratagems" and after.active == "caesarian"


def test_a_client_result_picks_its_client_with_a_die() -> None:
    """Result 5: Egypt or Judea, picked by die; the client's own d10 then decides."""
    s = fresh()
    resolve_event(s, "client", "", ("egypt", "judea"), Dice.forced([2, 0]))
    assert s.clients["judea"] == "senatorial" and s.clients["egypt"] == "neutral"


def test_a_horde_result_stirs_the_named_horde() -> None:
    s = fresh()
    events = events_phase(s, Dice.forced([1, 1]))  # 2: the Germani cross the Rhenus
    assert "horde_germani" in s.roused
    # it moves at once, one link, and there sacks or clashes
    assert s.forces.get("horde_germani") is None or s.forces["horde_germani"].location != "germania"
    assert any(e.kind == "horde_moves" for e in events)


def test_a_revolt_costs_the_leading_side_its_ungarrisoned_cities() -> None:
    """§20.2 (004: the Hispanic revolt cost the Senatorials nearly all their cities there):
    up to ``revolt_max`` cities without field troops go neutral; their civis scatter."""
    s = fresh()
    cmap = roman_world()
    cities = [c for c in cmap.in_province("hispania_ulterior") if cmap.spaces[c].kind == "city"]
    events = revolt(s, "hispania_ulterior")
    lost = [e.data["place"] for e in events if e.kind == "revolt"]
    assert 0 < len(lost) <= C.world_tables().events.revolt_max
    for c in lost:
        assert c in cities and s.owners[c] == "neutral"
        assert not any(u.kind == "civis" for f in s.forces_at(c) for u in f.units)  # scattered
    for e in events:
        for uid, sp in e.data.get("losses", {}).items():
            assert sp > 0 and uid.startswith("civis")


def test_field_troops_hold_a_city_down_in_a_revolt() -> None:
    s = fresh()
    cmap = roman_world()
    cities = [c for c in cmap.in_province("sicilia") if cmap.spaces[c].kind == "city"]
    for i, c in enumerate(cities):
        s.forces[f"g{i}"] = army(f"g{i}", "senatorial", c, [("legion", "R", 3)])
    events = revolt(s, "sicilia")
    assert [e.kind for e in events] == ["revolt_none"]
    assert all(s.owner_side(c) == "senatorial" for c in cities)


def test_justice_costs_the_governors_side_a_political_stratagem() -> None:
    """§20.2 (after Q. Cassius in Hispania, BAlex 48–64)."""
    s = fresh()
    before = s.stratagems["senatorial"]["political"]
    justice(s, "asia")
    assert s.stratagems["senatorial"]["political"] == before - 1
    assert s.expended["senatorial"]["political"] >= 1


def test_justice_without_a_political_stratagem_loses_the_capital() -> None:
    s = fresh()
    s.stratagems["senatorial"]["political"] = 0
    s.forces = {k: f for k, f in s.forces.items() if f.location != "ephesus" or not f.leaders}
    assert not any(f.location == "ephesus" and f.units and f.commander for f in s.forces.values())
    justice(s, "asia")
    assert s.owners["ephesus"] == "neutral"


def test_reforms_cost_the_holder_of_rome_a_marker_and_feed_the_other_side() -> None:
    """§20.2 (Caelius 48, Dolabella 47: Dio 42.22–33)."""
    s = fresh()
    s.republic["tribune"] = "caesarian"
    s.res_publica = {"caesarian": 0, "senatorial": 2}
    pol = s.stratagems["caesarian"]["political"]
    reforms(s)
    assert s.res_publica["senatorial"] == 1
    assert s.stratagems["caesarian"]["political"] == pol + 1


def test_the_tribune_answers_the_crowd_for_his_side() -> None:
    s = fresh()
    s.owners["roma"] = "caesarian"
    s.republic["tribune"] = "caesarian"
    s.res_publica = {"caesarian": 3, "senatorial": 2}
    reforms(s)
    assert s.res_publica["caesarian"] == 3


def test_wavering_towns_go_over_with_their_civis() -> None:
    """§20.2 (004: Caesar's Italian cities snatched away by random events)."""
    s = fresh()
    s.owners["roma"] = "caesarian"
    cmap = roman_world()
    towns = [c for c in cmap.in_province("gallia_cisalpina") if s.owner_side(c) == "caesarian" and c != "roma"]
    assert towns
    events = wavering(s, "gallia_cisalpina", Dice.forced([1, 1]))
    assert len(events) == 1
    town = events[0].data["place"]
    assert s.owner_side(town) == "senatorial"
    for f in s.forces_at(town):
        if all(u.kind == "civis" for u in f.units):
            assert f.side == "senatorial"


def test_a_neutral_town_submits_to_an_army_standing_alone_in_it() -> None:
    """§20.3: a town of no side where one side's field army stands alone opens its gates."""
    s = fresh(keep=["caesar"])
    s.owners["arretium"] = "neutral"
    s.forces = {k: f for k, f in s.forces.items() if f.location != "arretium"}
    put(s, "caesar", "arretium")
    events = submission(s)
    assert s.owners["arretium"] == "caesarian"
    assert events[0].data["how"] == "submission"


def test_a_free_city_with_its_own_garrison_does_not_submit() -> None:
    s = fresh(keep=["caesar", "massilia"])
    put(s, "caesar", "massilia")
    submission(s)
    assert s.owners["massilia"] == "neutral"


def test_the_quiet_result_changes_nothing() -> None:
    s = fresh()
    before = (dict(s.owners), dict(s.clients), {k: v.strength() for k, v in s.forces.items()})
    assert resolve_event(s, "quiet", "", (), Dice.forced([])) == []
    assert before == (dict(s.owners), dict(s.clients), {k: v.strength() for k, v in s.forces.items()})
