"""The Res Publica and the war (docs/rules/campaign.md §16.3, §16.5, §16.6): the veto spoken
in Rome, the consuls elected by the side that holds the city, and a beaten Supreme Leader's
cause losing standing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bellum.dice import Dice
from bellum.errors import InputError
from campaign import actions as A
from campaign.rules import respublica as R
from campaign.rules.sequence import new_turn
from campaign.state import CampaignState
from campaign.tables import TABLES_FILE, load_tables, tables
from tests.campaign.test_ops_sequence import fresh, play


def _rp(side: str, political: int = 3) -> CampaignState:
    s = fresh("res_publica", side)
    s.stratagems[side]["political"] = political
    return s


def _with(monkeypatch: pytest.MonkeyPatch, **changes: object) -> None:
    """Play the Res Publica rules with other numbers in ``[res_publica]``."""
    t = tables()
    changed = t.model_copy(update={"res_publica": t.res_publica.model_copy(update=changes)})
    monkeypatch.setattr(R, "tables", lambda: changed)


def test_the_new_numbers_are_data() -> None:
    """§16.3, §16.5, §16.6: the switch and the counts are in tables.toml [res_publica]."""
    t = tables().res_publica
    assert t.tribune_needs_rome is True
    assert (t.consuls_gain, t.consuls_enemy_loses, t.beaten_supreme) == (1, 1, 1)


def test_a_bad_consuls_count_is_refused_in_one_sentence(tmp_path: Path) -> None:
    """campaign.md §7 (every table is data, validated at load): at most 4 markers."""
    bad = tmp_path / "tables.toml"
    bad.write_text(TABLES_FILE.read_text().replace("consuls_gain = 1", "consuls_gain = 9", 1))
    with pytest.raises(InputError) as err:
        load_tables(bad)
    assert "consuls_gain" in str(err.value)


# --------------------------------------------------------------------------- §16.3


def test_no_veto_stands_against_the_side_that_holds_rome() -> None:
    """§16.3: Caesar holds the Tribune in 49 but the Senate holds Rome — its result stands
    (the senatus consultum of 7 January 49 passed over Antonius' veto)."""
    s = _rp("senatorial")
    assert s.republic["tribune"] == "caesarian" and s.owner_side("roma") == "senatorial"
    assert not R.tribune_may_veto(s, "senatorial")
    s2, ev = play(s, A.Politics("optimates"), Dice.forced([2]))  # 2 + 3 → entry 5, a marker
    assert s2.pending is None and s2.res_publica["senatorial"] == s.res_publica["senatorial"] + 1
    assert [e.kind for e in ev] == ["politics", "marker"]
    s.owners["roma"] = "caesarian"  # the Senate has lost the city: the veto has force again
    assert R.tribune_may_veto(s, "senatorial")


def test_the_veto_in_rome_is_a_switch_of_the_data(monkeypatch: pytest.MonkeyPatch) -> None:
    """§16.3: with ``tribune_needs_rome`` off, the Tribune may veto the holder of Rome."""
    s = _rp("senatorial")
    _with(monkeypatch, tribune_needs_rome=False)
    assert R.tribune_may_veto(s, "senatorial")
    s2, _ = play(s, A.Politics("optimates"), Dice.forced([2]))
    assert s2.pending is not None and s2.pending.kind == "veto"


# --------------------------------------------------------------------------- §16.5


def test_the_side_holding_rome_has_the_consuls_elected_each_january() -> None:
    """§16.5: at the year's turn the holder of Rome gains a marker (taken from the enemy
    when none is free) and the enemy loses one more."""
    s = fresh("events", "caesarian")
    s.turn = 8  # January 48 BC
    s.res_publica = {"caesarian": 4, "senatorial": 4}  # none free
    ev = new_turn(s)
    assert s.res_publica == {"caesarian": 2, "senatorial": 5}
    assert ev[-1].kind == "marker" and "consuls" in ev[-1].text
    s.owners["roma"] = "caesarian"
    s.res_publica = {"caesarian": 3, "senatorial": 2}  # three free
    new_turn(s)
    assert s.res_publica == {"caesarian": 4, "senatorial": 1}


def test_no_election_but_in_january() -> None:
    """§16.5: the consuls are elected once a year, when the year turns."""
    s = fresh("events", "caesarian")
    s.turn = 9  # March 48 BC
    before = dict(s.res_publica)
    assert new_turn(s) == [] and s.res_publica == before


def test_the_consuls_of_44_are_elected_before_the_war_is_judged() -> None:
    """§16.5, §21.2: the last year turns before victory is judged, so the side holding Rome
    then elects the consuls of 44 — here they bring Caesar down to 1 marker, and the Senate,
    holding Rome, its cities and Pompeius, meets its Requirement and wins."""
    s = fresh("supply", "senatorial")
    s.turn = 39  # December 45 BC, the Senate's supply phase: the last step of the war
    s.res_publica = {"caesarian": 2, "senatorial": 4}
    s2, ev = play(s, A.Supply())
    assert s2.turn == 40 and s2.res_publica == {"caesarian": 1, "senatorial": 5}
    assert s2.result["winner"] == "senatorial"
    assert [e.kind for e in ev].index("marker") < [e.kind for e in ev].index("victory")


def test_elections_can_be_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """§16.5: both counts 0 → no election."""
    _with(monkeypatch, consuls_gain=0, consuls_enemy_loses=0)
    s = fresh("events", "caesarian")
    s.turn = 8
    before = dict(s.res_publica)
    assert R.elect_consuls(s) == [] and s.res_publica == before


# --------------------------------------------------------------------------- §16.6


def test_a_beaten_supreme_leader_costs_his_side_a_marker() -> None:
    """§16.6: beaten in a battle he fought, the Supreme Leader's side loses a marker to the
    free ones; a lieutenant's defeat costs none, and a side with none has none to lose."""
    s = _rp("caesarian")
    s.res_publica = {"caesarian": 4, "senatorial": 2}
    assert R.beaten_imperator(s, "caesarian", {"fabius"}) == []
    ev = R.beaten_imperator(s, "caesarian", {"caesar", "fabius"})
    assert s.res_publica == {"caesarian": 3, "senatorial": 2} and R.markers_free(s) == 3
    assert [e.kind for e in ev] == ["marker"] and ev[0].data["n"] == -1
    s.res_publica["senatorial"] = 0
    assert R.beaten_imperator(s, "senatorial", {"pompeius"}) == []


def test_a_beaten_imperator_loses_the_acclamation_then_the_markers(monkeypatch: pytest.MonkeyPatch) -> None:
    """§16.6 with §16.4: the acclamation goes first, then the marker; 2 markers if the data
    says 2."""
    _with(monkeypatch, beaten_supreme=2)
    s = _rp("caesarian")
    s.res_publica = {"caesarian": 5, "senatorial": 2}
    s.republic["imperator"] = "caesarian"
    ev = R.beaten_imperator(s, "caesarian", {"caesar"})
    assert [e.kind for e in ev] == ["imperator", "marker"]
    assert s.republic["imperator"] is None and s.res_publica["caesarian"] == 3


# --------------------------------------------------------------------------- §16.2 volunteers


def test_the_populares_can_bring_volunteers_to_a_port_of_italia() -> None:
    """§16.2 (004's report: Pompeius, working the Populares, got recruit legions of
    volunteers at Brundisium): entry 1 raises two R legions at the side's Italian port
    nearest Rome, as a leaderless force of their own."""
    s = _rp("senatorial")
    s.owners["roma"] = "caesarian"  # Caesar holds Rome; the Senate still holds Brundisium
    s.forces = {k: f for k, f in s.forces.items() if f.location != "roma"}
    leader = R.roller(s, "senatorial")
    assert leader is not None
    die = 1 - R.modifier(s, "senatorial", "populares", leader)
    assert 0 <= die <= 9
    s2, ev = play(s, A.Politics("populares"), Dice.forced([die]))
    assert "volunteers" in ev[0].text
    if s2.pending is not None:  # Caesar's Tribune may veto it; he lets it stand
        s2, more = play(s2, A.Decline())
        ev += more
    vol = [e for e in ev if e.kind == "volunteers"]
    assert len(vol) == 1
    place = vol[0].data["place"]
    from campaign.map import roman_world

    assert roman_world().spaces[place].province == "italia" and roman_world().spaces[place].port
    force = next(f for f in s2.forces.values() if f.id.startswith("volunteers"))
    assert force.location == place and force.commander is None
    assert [(u.kind, u.discipline, u.strength) for u in force.units] == [("legion", "R", 5)] * 2
    assert len({u.name for u in force.units}) == 2


def test_volunteers_with_no_port_of_italia_come_to_nothing() -> None:
    """§16.2: a side holding no port of Italia raises no one (but is told why)."""
    from campaign.map import roman_world
    from campaign.rules.recruiting import raise_volunteers

    s = _rp("senatorial")
    for sp in roman_world().data.space:
        if sp.province == "italia":
            s.owners[sp.id] = "caesarian"
    before = dict(s.forces)
    ev = raise_volunteers(s, "senatorial", 2)
    assert s.forces == before and "no port of Italia" in ev[0].text
