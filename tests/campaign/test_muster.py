"""The spring muster: new commanders and the levy (docs/rules/campaign.md §17.7–§17.8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bellum.dice import Dice
from bellum.errors import InputError
from campaign.rules import muster as M
from campaign.rules.clients import load_world, world_tables
from campaign.rules.recruiting import in_play
from campaign.rules.sequence import advance
from campaign.state import CampaignState
from campaign.units import catalogue
from tests.campaign.test_clients import world_text
from tests.campaign.test_ops_sequence import army, fresh

MARCH_48 = 9  # January 49 is turn 0; eight turns a year (§7.1)


def _spring(keep: list[str], side: str = "caesarian", turn: int = MARCH_48) -> CampaignState:
    s = fresh("stratagems", side=side, keep=keep)
    s.turn = turn
    return s


def _seats(s: CampaignState, side: str, n: int) -> list[str]:
    """Give ``side`` exactly ``n`` levy seats (Rome first, then capitals by id)."""
    caps = ["roma", *sorted(c for c in M.roman_world().capitals() if c != "roma")]
    for c in caps:
        if s.owner_side(c) is not None:
            s.owners[c] = "neutral"
    for c in caps[:n]:
        s.owners[c] = side
        for f in s.forces_at(c):  # the other side's civis would keep the seat unsafe
            if s.allegiance(f.side) != side:
                del s.forces[f.id]
    assert len(M.levy_seats(s, side)) == n
    return caps[:n]


def test_the_muster_comes_in_march_from_48_bc_and_not_before() -> None:
    """§17.7–§17.8: the table's month and first year; 49 BC's levies are the scenario's."""
    m = world_tables().muster
    assert (m.month, m.first_year_bc) == ("March", 48)
    s = _spring(["caesar"])
    assert M.muster_due(s)
    for turn in (1, MARCH_48 + 1, MARCH_48 - 1):  # March 49, April 48, January 48
        s.turn = turn
        assert not M.muster_due(s)
        assert M.spring_muster(s) == []
    s.turn = MARCH_48 + 8  # March 47
    assert M.muster_due(s)


def test_a_side_short_of_leaders_receives_the_best_of_its_pool_at_the_mustering_city() -> None:
    """§17.7: fewer Roman leaders than the table wants — the highest rating comes first
    (Decimus Brutus and Calvinus are rated 2: Brutus is listed first in the pool), two a
    year."""
    s = _spring(["caesar"])
    _seats(s, "caesarian", 3)
    # Caesar alone, away from the seats (Antonius, Curio and Q. Cassius stay behind)
    s.forces["caesar"] = s.forces["caesar"].model_copy(update={"location": "bononia", "leaders": ("caesar",)})
    assert M.roman_leaders(s, "caesarian") == ["caesar"]
    assert M.heirs(s, "caesarian")[:2] == ["d_brutus", "calvinus"]
    m = world_tables().muster
    assert (m.leaders_wanted, m.leaders_a_year) == (6, 2)
    ev = M.new_commanders(s, "caesarian")
    assert [e.data["leader"] for e in ev] == ["d_brutus", "calvinus"]
    assert "d_brutus" not in s.pool["caesarian"] and "calvinus" not in s.pool["caesarian"]
    f = s.leader_force("d_brutus")
    assert f is not None and f.location == "roma" and f.commander == "d_brutus" and not f.units
    assert ev[0].kind == "recruit_leader" and "Decimus Brutus" in ev[0].text
    # a side that has its leaders is sent none, however many its pool holds
    s.forces["others"] = army("others", "caesarian", "bononia", [], leaders=("hirtius", "p_sulla", "calenus"))
    assert len(M.roman_leaders(s, "caesarian")) == 6
    assert M.new_commanders(s, "caesarian") == []


def test_no_new_commander_for_a_side_with_enough_leaders_one_in_a_seat() -> None:
    """§17.7: six Roman leaders, one of them in a levy seat — nobody is sent."""
    s = _spring(["caesar", "fabius", "trebonius"])  # Caesar, Antonius, Curio, Q. Cassius and two
    _seats(s, "caesarian", 2)
    for fid in ("fabius", "trebonius"):
        s.forces[fid] = s.forces[fid].model_copy(update={"location": "bononia"})
    leaders = M.roman_leaders(s, "caesarian")
    assert len(leaders) >= world_tables().muster.leaders_wanted
    s.forces["caesar"] = s.forces["caesar"].model_copy(update={"location": "bononia"})
    assert M.short_of_leaders(s, "caesarian")  # none stands in Rome or a capital
    s.forces["caesar"] = s.forces["caesar"].model_copy(update={"location": "roma"})
    assert not M.short_of_leaders(s, "caesarian")
    assert M.new_commanders(s, "caesarian") == []


def test_a_client_ally_s_capital_is_no_levy_seat() -> None:
    """§17.7–§17.8: Rome levies in her own provinces — Alexandria fights for Caesar while
    Egypt is his ally, but the Ptolemies' capital raises no Roman legion."""
    s = _spring(["caesar"])
    _seats(s, "caesarian", 2)
    s.owners["alexandria"] = "egypt"
    s.clients["egypt"] = "caesarian"
    s.forces = {k: f for k, f in s.forces.items() if f.location != "alexandria"}
    assert s.owner_side("alexandria") == "caesarian"
    assert "alexandria" not in M.levy_seats(s, "caesarian")
    s.owners["alexandria"] = "caesarian"  # taken from the Ptolemies: a Roman seat
    assert "alexandria" in M.levy_seats(s, "caesarian")


def test_the_mustering_city_prefers_leaderless_troops_then_rome() -> None:
    """§17.7: the seat with the most leaderless field SP, then Rome, then the most troops."""
    s = _spring(["caesar"])
    _seats(s, "caesarian", 3)  # roma and the first two capitals by id
    assert M.mustering_city(s, "caesarian") == "roma"
    s.forces["loose"] = army("loose", "caesarian", "alexandria", [("legion", "V", 4)])
    assert M.mustering_city(s, "caesarian") == "alexandria"


def test_the_levy_is_one_legion_and_one_more_for_every_four_seats() -> None:
    """§17.8: legions_base + seats // capitals_a_legion, at most legions_most, none
    without a seat, never past the builds pool (§5.4)."""
    m = world_tables().muster
    assert (m.legions_base, m.capitals_a_legion, m.legions_most) == (1, 4, 3)
    s = _spring(["caesar"])
    for seats, want in ((0, 0), (1, 1), (3, 1), (4, 2), (7, 2), (8, 3), (20, 3)):
        _seats(s, "caesarian", seats)
        assert M.levy_size(s, "caesarian") == want, seats
    s.counter_mix["caesarian"]["legion"] = in_play(s, "caesarian", "legion") + 1
    assert M.levy_size(s, "caesarian") == 1


def test_levied_legions_join_the_smallest_led_army_in_a_seat_else_gather_leaderless() -> None:
    """§17.8: full R legions named as §17.1 says; they build up the newest army."""
    s = _spring(["caesar"])
    seats = _seats(s, "caesarian", 8)  # three legions
    s.forces["caesar"] = s.forces["caesar"].model_copy(update={"location": seats[1]})
    s.forces["new"] = army("new", "caesarian", seats[2], [], leaders=("hirtius",))
    s.pool["caesarian"] = tuple(x for x in s.pool["caesarian"] if x != "hirtius")
    before = s.forces["caesar"].units
    assert sum(u.strength for u in before) == 6  # Legio XIII and the Gallic horse
    ev = M.levy(s, "caesarian")
    # each legion goes to the smaller of the two led forces: the new army's 0, 5 SP, then
    # Caesar's 6 against its 10
    got = s.forces["new"].units
    assert [(u.kind, u.discipline, u.strength) for u in got] == [("legion", "R", 5)] * 2
    assert [u.name for u in got] == ["Legio XIV", "Legio XV"]  # after Caesar's XIII
    third = s.forces["caesar"].units[len(before) :]
    assert [u.name for u in third] == ["Legio XVI"]
    assert ev[0].kind == "recruit" and ev[0].data["gains"] == {u.id: 5 for u in (*got, *third)}
    where = (M.place_name(seats[2]), M.place_name(seats[1]))
    assert (
        ev[0].text
        == f"The spring levy: the Caesarians raise Legio XIV and Legio XV at {where[0]} and Legio XVI at {where[1]}."
    )
    # with no Roman leader in any seat, the levy gathers leaderless at the mustering city
    s2 = _spring(["caesar"])
    _seats(s2, "caesarian", 1)
    s2.forces["caesar"] = s2.forces["caesar"].model_copy(update={"location": "bononia"})
    M.levy(s2, "caesarian")
    loose = [f for f in s2.forces_at("roma") if f.side == "caesarian" and not f.leaders]
    assert [u.kind for f in loose for u in f.units] == ["legion"]


def test_the_muster_comes_when_the_side_s_half_turn_opens() -> None:
    """§7.2, §17.7–§17.8: after the events slot of March 48 the Caesarians' stratagems
    phase opens with their income, a new commander and the levy."""
    s = _spring(["caesar"])
    _seats(s, "caesarian", 4)
    s.phase = "events"
    ev = advance(s, Dice(1))
    kinds = [e.kind for e in ev]
    assert s.phase == "stratagems" and s.active == "caesarian"
    assert kinds.index("income") < kinds.index("recruit_leader") < kinds.index("recruit")
    assert sum(1 for f in s.forces_of("caesarian") for u in f.units if u.id.startswith("raised_legion")) == 2
    cat = catalogue()
    assert all(cat.leader(ld).nation == "roman" for ld in M.roman_leaders(s, "caesarian"))


def test_a_muster_month_not_in_the_calendar_is_refused(tmp_path: Path) -> None:
    """§17.7: the month must be one of the calendar's (one sentence, naming the file)."""
    bad = tmp_path / "world.toml"
    bad.write_text(world_text().replace('month = "March"', 'month = "Martius"', 1), encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_world(bad)
    assert "Martius" in str(err.value) and "world.toml" in str(err.value)
