"""Ships at sea live on sea supply (campaign.md §10.1–§10.3): victualled from a friendly port
within ``supply.ship_base`` sea points, cut by an enemy squadron beside them unless they fight
for it (004 case (b)), wasting on the ``at_sea`` row without it — and the AI's part in it:
what a cut costs at sea, and the ships of a besieged port that fight for its sea.
"""

from __future__ import annotations

import pytest

from bellum.dice import Dice
from bellum.engagement import Engagement
from campaign import actions as A
from campaign.ai import CampaignAI
from campaign.ai_sea import hunger
from campaign.engine import legal_actions
from campaign.rules import supply
from campaign.rules.siege import update_sieges
from campaign.state import CampaignState
from campaign.tables import tables
from tests.campaign.test_ops_sequence import army, fresh, play, recording

AI = CampaignAI()


def _squadron(place: str, fleets: int = 3, enemy_fleets: int = 0) -> CampaignState:
    """The Caesarians' supply phase, April 49 BC, with a Caesarian squadron (Antonius) at
    ``place`` and, with ``enemy_fleets``, a Senatorial one (Libo) beside it."""
    s = fresh("supply", "caesarian", keep=[])
    s.forces["e"] = army("e", "caesarian", place, [("fleet", "V", 3)] * fleets, ("antonius",))
    if enemy_fleets:
        s.forces["c"] = army("c", "senatorial", place, [("fleet", "V", 3)] * enemy_fleets, ("libo",))
    return s


def _strength(s: CampaignState, fid: str) -> int:
    return s.forces[fid].strength()


def test_ships_within_reach_of_a_friendly_port_are_victualled() -> None:
    """The upper Adriatic lies within 2 sea points of Ariminum and Ravenna: no roll is made
    (the forced dice are empty, so a roll would fail the test)."""
    s = _squadron("mare_adriaticum_sup")
    assert supply.ship_supply_possible(s, "caesarian", "mare_adriaticum_sup")
    supply.open_supply_phase(s)
    assert s.pending is None
    s2, ev = play(s, A.Supply(), Dice.forced([]))
    assert "adrift" not in [e.kind for e in ev] and _strength(s2, "e") == 9


def test_ships_far_from_any_friendly_port_waste_on_the_at_sea_row() -> None:
    """In April 49 BC the Caesarians hold no port within 2 sea points of the Ionian Sea: the
    squadron rolls on the at-sea row, and a 0 costs it a quarter of its strength."""
    s = _squadron("mare_ionium")
    assert not supply.ship_supply_possible(s, "caesarian", "mare_ionium")
    assert tables().supply.at_sea[0].loss == 25
    s2, ev = play(s, A.Supply(), Dice.forced([0]))
    adrift = [e for e in ev if e.kind == "adrift"]
    assert len(adrift) == 1 and sum(adrift[0].data["losses"].values()) == 2  # 25% of 9 SP
    assert _strength(s2, "e") == 7


def test_a_roll_of_three_or_more_at_sea_costs_nothing() -> None:
    s = _squadron("mare_ionium")
    s2, ev = play(s, A.Supply(), Dice.forced([3]))
    assert "adrift" not in [e.kind for e in ev] and _strength(s2, "e") == 9


def _cut(s: CampaignState) -> CampaignState:
    supply.open_supply_phase(s)
    assert s.pending is not None and s.pending.kind == "cut_supply"
    assert ("mare_adriaticum_sup", "c") in s.pending.options  # type: ignore[attr-defined]
    s, _ = play(s, A.CutSupply("mare_adriaticum_sup", "c"))
    assert s.pending is not None and s.pending.kind == "escort"
    assert s.pending.options == (("mare_adriaticum_sup", "e"),)  # type: ignore[attr-defined]
    return s


def test_an_enemy_squadron_beside_may_cut_the_victuals_and_a_conceded_cut_wastes_them() -> None:
    """004 case (b) at sea: the Senatorial squadron in the same waters declares the cut; the
    Caesarian squadron is its own escort; conceded, it rolls on the at-sea row."""
    s = _cut(_squadron("mare_adriaticum_sup", enemy_fleets=3))
    s, _ = play(s, A.Decline())
    s2, ev = play(s, A.Supply(), Dice.forced([1]))
    kinds = [e.kind for e in ev]
    assert "supply_cut" in kinds and "adrift" in kinds
    assert _strength(s2, "e") == 8  # 10% of 9 SP, rounded up to one


def test_a_squadron_that_fights_for_its_victuals_and_wins_is_supplied() -> None:
    s = _cut(_squadron("mare_adriaticum_sup", enemy_fleets=3))
    s, _ = play(s, A.Escort("mare_adriaticum_sup", "e"))
    seen: list[Engagement] = []
    _s2, ev = play(s, A.Supply(), Dice.forced([]), engine=recording("A", seen, retreats=False))
    assert [e.trigger for e in seen] == ["supply"]
    assert "supply_cut" not in [e.kind for e in ev] and "adrift" not in [e.kind for e in ev]


def test_what_a_cut_costs_ships_at_sea_is_read_from_the_at_sea_row() -> None:
    """The AI's ``hunger`` at sea: every d10 roll of the at-sea row on the squadron's SP."""
    s = _squadron("mare_adriaticum_sup", enemy_fleets=1)
    # 9 SP: a 0 loses 25% (2 SP), a 1 or a 2 loses 10% (1 SP), 3-9 nothing
    assert hunger(s, "mare_adriaticum_sup") == pytest.approx((2 + 1 + 1) / 10)


@pytest.mark.parametrize(("mine", "theirs", "fights"), [(4, 1, True), (1, 6, False)])
def test_the_ai_fights_for_its_victuals_only_when_it_is_worth_it(mine: int, theirs: int, fights: bool) -> None:
    s = _cut(_squadron("mare_adriaticum_sup", fleets=mine, enemy_fleets=theirs))
    choice = AI.choose(s)
    assert (choice == A.Escort("mare_adriaticum_sup", "e")) is fights
    if not fights:
        assert choice == A.Decline()


def _offer_off_brundisium(besieged: bool) -> CampaignState:
    """The Senate's combat phase: six Senatorial squadrons and one Caesarian lie in the lower
    Adriatic, off Brundisium (Caesarian); with ``besieged`` a Senatorial army besieges it.
    The Senate offers battle: the Caesarian AI decides."""
    s = fresh("combat", "senatorial", keep=[])
    s.forces = {k: f for k, f in s.forces.items() if f.location != "brundisium"}  # its Senatorial civis
    s.owners["brundisium"] = "caesarian"
    s.forces["g"] = army("g", "caesarian", "brundisium", [("civis", "R", 2)])
    if besieged:
        s.forces["siege"] = army("siege", "senatorial", "brundisium", [("legion", "V", 5)] * 3, ("lentulus",))
        update_sieges(s)
        assert "brundisium" in s.sieges
    s.forces["e"] = army("e", "caesarian", "mare_adriaticum_inf", [("fleet", "R", 3)], ("antonius",))
    s.forces["c"] = army("c", "senatorial", "mare_adriaticum_inf", [("fleet", "V", 3)] * 6, ("libo",))
    assert besieged == ("brundisium" in s.sieges)
    offer = A.OfferNaval("mare_adriaticum_inf")
    assert offer in legal_actions(s)
    s, _ = play(s, offer)
    assert s.pending is not None and s.pending.kind == "naval_offer"
    return s


def test_the_ships_of_a_besieged_port_accept_battle_whatever_the_odds() -> None:
    """Refusing gives up the port's sea, on which the garrison lives (§11.2; Massilia)."""
    assert AI.choose(_offer_off_brundisium(besieged=True)) == A.Accept()


def test_a_hopeless_battle_at_sea_is_refused_elsewhere() -> None:
    assert AI.choose(_offer_off_brundisium(besieged=False)) == A.Decline()
