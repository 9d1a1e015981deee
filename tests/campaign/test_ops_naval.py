"""Naval movement, interception and mutual naval battles (docs/rules/campaign.md §9; 004)."""

from __future__ import annotations

import pytest

from bellum.dice import Dice
from bellum.engagement import Engagement, Outcome
from bellum.errors import RuleError
from campaign import actions as A
from campaign.engine import CampaignEngine, legal_actions
from campaign.rules.naval import voyages
from campaign.state import CampaignState
from tests.campaign.test_ops_sequence import army, fresh, outcome_for, play

PATH = ("brundisium", "mare_adriaticum_inf", "dyrrachium")


def _crossing(interceptor: bool = True, military: int = 1) -> CampaignState:
    """Caesar at Brundisium with two fleets and three legions; Bibulus at sea between."""
    s = fresh(keep=[])
    s.owners["brundisium"] = "caesarian"
    s.forces = {k: f for k, f in s.forces.items() if f.location not in ("brundisium", "dyrrachium")}
    s.forces["caesar"] = army(
        "caesar",
        "caesarian",
        "brundisium",
        [("legion", "V", 5), ("legion", "V", 5), ("legion", "R", 5), ("fleet", "R", 3), ("fleet", "R", 3)],
        ("caesar", "antonius"),
    )
    if interceptor:
        s.forces["bibulus"] = army("bibulus", "senatorial", "mare_adriaticum_inf", [("fleet", "V", 3)], ("bibulus",))
    s.stratagems["senatorial"]["military"] = military
    return s


def test_a_voyage_carries_two_units_a_fleet_and_leaves_the_rest_ashore() -> None:
    """campaign.md §9.1 and §4.3: fleets carry two ground units each."""
    s = _crossing(interceptor=False)
    one_fleet = tuple(u for u in s.forces["caesar"].units if u.id != "caesar_4")
    s.forces["caesar"] = s.forces["caesar"].model_copy(update={"units": one_fleet})
    assert voyages(s, s.forces["caesar"])["dyrrachium"][1] == PATH
    s2, ev = play(s, A.Sail("caesar", "dyrrachium", PATH), Dice.forced([]))
    landed = s2.forces["caesar"]
    assert landed.location == "dyrrachium"
    assert len(landed.ground_units()) == 2 and all(u.aboard is None for u in landed.units)
    left = [f for f in s2.forces.values() if f.location == "brundisium" and f.side == "caesarian" and f.units]
    assert any(u.kind == "legion" for f in left for u in f.units)
    assert [e.kind for e in ev][:2] == ["left_ashore", "sail"]


def test_an_enemy_fleet_with_a_leader_and_a_military_stratagem_may_intercept() -> None:
    """campaign.md §9.2 (reference; 004 case (c)): the voyage waits on the enemy's choice."""
    s = _crossing()
    s2, _ = play(s, A.Sail("caesar", "dyrrachium", PATH))
    assert s2.pending is not None and s2.pending.kind == "intercept" and s2.actor == "senatorial"
    assert legal_actions(s2) == [A.Intercept("bibulus"), A.Decline()]
    s3, _ev = play(s2, A.Decline())
    assert s3.forces["caesar"].location == "dyrrachium" and s3.pending is None


def test_no_military_stratagem_no_interception() -> None:
    """campaign.md §9.2: interception costs a Military stratagem."""
    s = _crossing(military=0)
    s2, _ = play(s, A.Sail("caesar", "dyrrachium", PATH))
    assert s2.pending is None and s2.forces["caesar"].location == "dyrrachium"


def test_an_interception_that_misses_lets_the_voyage_through() -> None:
    """campaign.md §9.2: the interception table must first find the fleet."""
    s = _crossing()
    s2, _ = play(s, A.Sail("caesar", "dyrrachium", PATH))
    s3, ev = play(s2, A.Intercept("bibulus"), Dice.forced([0]))
    assert s3.stratagems["senatorial"]["military"] == 0
    assert ev[0].data["found"] is False
    assert s3.forces["caesar"].location == "dyrrachium"


def test_a_won_interception_stops_the_voyage() -> None:
    """campaign.md §9.3 (004 Victory): the interceptor wins, the moving force may not go on."""

    def interceptor_wins(eng: Engagement, dice: Dice) -> Outcome:
        assert eng.trigger == "interception" and eng.kind == "naval"
        assert any(ld.id == "bibulus" and ld.side == "B" for ld in eng.leaders)
        return outcome_for(eng, "B", lose=[u.id for u in eng.units if u.side == "A" and u.kind == "fleet"][:1])

    engine = CampaignEngine(resolver=interceptor_wins)
    s = _crossing()
    s2, _ = play(s, A.Sail("caesar", "dyrrachium", PATH), engine=engine)
    s3, ev = play(s2, A.Intercept("bibulus"), Dice.forced([9]), engine=engine)
    kinds = [e.kind for e in ev]
    assert "battle" in kinds and "voyage_stopped" in kinds
    assert s3.forces["caesar"].location == "brundisium"
    assert len(s3.forces["caesar"].fleets()) == 1


def test_a_won_breakout_carries_the_force_on() -> None:
    """campaign.md §9.3: if the moving force wins, it goes on to its destination."""
    engine = CampaignEngine(resolver=lambda eng, dice: outcome_for(eng, "A"))
    s = _crossing()
    s2, _ = play(s, A.Sail("caesar", "dyrrachium", PATH), engine=engine)
    s3, _ = play(s2, A.Intercept("bibulus"), Dice.forced([9]), engine=engine)
    assert s3.forces["caesar"].location == "dyrrachium"
    assert s3.forces["bibulus"].location != "mare_adriaticum_inf"  # the beaten interceptor fell back


def at_sea() -> CampaignState:
    """Caesar's fleets, two legions aboard, and Bibulus' in the same sea zone, in the combat phase."""
    s = _crossing()
    s.phase = "combat"
    s.forces["caesar"] = s.forces["caesar"].model_copy(
        update={
            "location": "mare_adriaticum_inf",
            "units": tuple(
                u.model_copy(update={"aboard": "caesar_3"}) if i < 2 else u
                for i, u in enumerate(s.forces["caesar"].units)
                if i != 2
            ),
        }
    )
    return s


def test_a_mutual_naval_battle_needs_both_to_agree() -> None:
    """campaign.md §9.4 (004 case (a))."""
    s = at_sea()
    assert A.OfferNaval("mare_adriaticum_inf") in legal_actions(s)
    s2, _ = play(s, A.OfferNaval("mare_adriaticum_inf"))
    assert s2.actor == "senatorial" and legal_actions(s2) == [A.Accept(), A.Decline()]
    s3, _ = play(s2, A.Decline())
    assert A.OfferNaval("mare_adriaticum_inf") not in legal_actions(s3)
    engine = CampaignEngine(
        resolver=lambda eng, dice: outcome_for(eng, "A", lose=[u.id for u in eng.units if u.side == "B"])
    )
    s4, ev = play(s2, A.Accept(), engine=engine)
    assert ev[0].kind == "battle" and ev[0].data["trigger"] == "mutual"
    assert "bibulus" not in s4.forces or not s4.forces["bibulus"].units


def test_a_voyage_must_be_one_the_generator_offers() -> None:
    """campaign.md §9.1: sea movement is bounded by the sea allowance."""
    s = _crossing(interceptor=False)
    with pytest.raises(RuleError):
        play(s, A.Sail("caesar", "alexandria", ("brundisium", "mare_ionium", "alexandria")))
