"""Recruiting: legions, fleets, civis, leaders, colonies and training
(docs/rules/campaign.md §17)."""

from __future__ import annotations

import pytest

from bellum.errors import RuleError
from campaign import actions as A
from campaign.engine import legal_actions
from campaign.rules import recruiting as RC
from campaign.state import CampaignState
from campaign.tables import tables
from campaign.units import Unit, catalogue
from tests.campaign.test_ops_sequence import army, fresh, play, put


def _ravenna(political: int = 3, military: int = 0) -> CampaignState:
    s = fresh("recruiting", keep=["caesar"])
    s.stratagems["caesarian"].update(political=political, military=military)
    return s


def test_a_legion_is_recruited_at_r_and_full_strength_in_a_capital() -> None:
    """§17.1 (reference: recruited legions are R; a Political stratagem recruits)."""
    s = _ravenna()
    assert A.Recruit("ravenna", "legion") in legal_actions(s)
    s2, ev = play(s, A.Recruit("ravenna", "legion"))
    new = [u for u in s2.forces["caesar"].units if u.id.startswith("raised_legion")]
    assert len(new) == 1 and (new[0].discipline, new[0].strength) == ("R", 5)
    assert ev[0].kind == "recruit" and ev[0].data["gains"] == {new[0].id: 5}
    assert s2.stratagems["caesarian"]["political"] == 2 and s2.expended["caesarian"]["political"] == 1
    assert s2.plays["caesar"] == 1  # one of Caesar's three plays (a leader in the city plays)


def test_legions_only_in_rome_a_capital_or_a_colony_unless_dictator() -> None:
    """§17.1: Ariminum is no capital; a Dictator levies anywhere."""
    s = _ravenna()
    put(s, "caesar", "ariminum")
    s.owners["ariminum"] = "caesarian"
    assert RC.why_not_recruit(s, "caesarian", "ariminum", "legion") is not None
    assert A.Recruit("ariminum", "cavalry") in legal_actions(s)
    s.republic["dictator"] = "caesarian"
    assert RC.why_not_recruit(s, "caesarian", "ariminum", "legion") is None


def test_fleets_only_in_a_port_and_nothing_beyond_the_counter_mix() -> None:
    """§17.1, §5.4: the builds pool limits recruiting."""
    s = _ravenna()
    assert RC.why_not_recruit(s, "caesarian", "ravenna", "fleet") is None  # Ravenna is a port
    put(s, "caesar", "bononia")
    s.owners["bononia"] = "caesarian"
    assert "port" in (RC.why_not_recruit(s, "caesarian", "bononia", "fleet") or "")
    s.counter_mix["caesarian"]["cavalry"] = RC.in_play(s, "caesarian", "cavalry")
    assert RC.builds_left(s, "caesarian", "cavalry") == 0
    assert A.Recruit("bononia", "cavalry") not in legal_actions(s)


def test_no_recruiting_without_a_leader_with_a_play_or_with_the_enemy_in_the_city() -> None:
    """§17: a Roman leader with a play left, in a city his side holds free of enemies."""
    s = _ravenna()
    s.plays["caesar"] = 3
    s.plays["antonius"] = 2
    s.plays["curio"] = s.plays["q_cassius"] = 1
    assert not any(isinstance(a, A.Recruit) for a in legal_actions(s))
    with pytest.raises(RuleError):
        play(s, A.Recruit("ravenna", "legion"))
    t = _ravenna()
    t.forces["foe"] = army("foe", "senatorial", "ravenna", [("legion", "R", 5)], ("domitius",))
    assert not RC.safe_city(t, "caesarian", "ravenna")


def test_a_civis_is_raised_where_there_is_none_and_restored_where_it_is_weak() -> None:
    """§17.1: one civis per city; a new one has the table's strength."""
    s = _ravenna()
    s.forces = {k: f for k, f in s.forces.items() if not (f.location == "ravenna" and k != "caesar")}
    s2, ev = play(s, A.Recruit("ravenna", "civis"))
    civ = RC.civis_of(s2, "ravenna")
    assert civ is not None and civ[1].strength == tables().recruiting.civis_strength and civ[0].id != "caesar"
    assert A.Recruit("ravenna", "civis") in legal_actions(s2)  # not yet at full strength
    s3, ev = play(s2, A.Recruit("ravenna", "civis"))
    civ3 = RC.civis_of(s3, "ravenna")
    assert civ3 is not None and civ3[1].strength == catalogue().kind("civis").strength
    assert ev[0].data["gains"] == {civ3[1].id: catalogue().kind("civis").strength - civ[1].strength}
    assert A.Recruit("ravenna", "civis") not in legal_actions(s3)


def test_a_leader_comes_from_the_pool_as_a_force_of_his_own_but_octavian_waits() -> None:
    """§17.2 (004: a legate recruited as another leader; leaders.toml available_from)."""
    s = _ravenna()
    assert "octavian" not in RC.recruitable_leaders(s, "caesarian")  # 49 BC: not before 46
    s2, ev = play(s, A.RecruitLeader("calvinus", "ravenna"))
    f = s2.leader_force("calvinus")
    assert f is not None and f.location == "ravenna" and f.commander == "calvinus" and not f.units
    assert "calvinus" not in s2.pool["caesarian"] and ev[0].kind == "recruit_leader"
    s.turn = 3 * 8  # 46 BC
    assert "octavian" in RC.recruitable_leaders(s, "caesarian")


def test_a_colony_settles_a_veteran_legion_and_raises_veteran_legions() -> None:
    """§17.3 (reference: colonies raise veteran legions)."""
    s = fresh("recruiting", keep=["fabius"])
    s.stratagems["caesarian"]["political"] = 3
    legions = [u for u in s.forces["fabius"].units if u.kind == "legion"]
    assert A.FoundColony("narbo") in legal_actions(s)
    settler = RC.settlers(s, "caesarian", "narbo")
    assert settler is not None and settler.discipline == "V"  # the XIV, not the I legions
    s2, ev = play(s, A.FoundColony("narbo"))
    assert s2.colonies == ("narbo",) and ev[0].kind == "colony"
    assert ev[0].data["losses"] == {settler.id: settler.strength}
    assert len([u for u in s2.forces["fabius"].units if u.kind == "legion"]) == len(legions) - 1
    assert A.FoundColony("narbo") not in legal_actions(s2)
    s3, _ = play(s2, A.Recruit("narbo", "legion"))
    new = [u for u in s3.forces["fabius"].units if u.id.startswith("raised_legion")]
    assert new and new[0].discipline == "V"
    s3.plays = {}
    assert "colony" in (RC.why_not_recruit(s3, "caesarian", "narbo", "legion") or "")  # one a turn


def test_no_colony_off_a_site_or_without_veterans() -> None:
    """§17.3: only the map's colony sites; a V or I legion of enough SP must be there."""
    s = _ravenna()
    assert "site" in (RC.why_not_colony(s, "caesarian", "ravenna") or "")
    t = fresh("recruiting", keep=[])
    t.stratagems["caesarian"]["political"] = 1
    t.forces["x"] = army("x", "caesarian", "narbo", [("legion", "R", 5)], ("fabius",))
    assert "veteran" in (RC.why_not_colony(t, "caesarian", "narbo") or "")
    weak = tables().recruiting.colony_legion_sp - 1
    t.forces["x"] = army("x", "caesarian", "narbo", [("legion", "V", weak)], ("fabius",))
    assert RC.settlers(t, "caesarian", "narbo") is None  # too few veterans left to settle


def test_training_makes_a_recruit_unit_veteran_for_a_military_stratagem() -> None:
    """§17.4: an R unit, not raised this half-turn, becomes V."""
    s = _ravenna(political=1, military=2)
    s.forces["caesar"] = s.forces["caesar"].model_copy(
        update={
            "units": (
                *s.forces["caesar"].units,
                Unit(id="rookies", kind="legion", discipline="R", strength=4, nation="roman"),
            )
        }
    )
    assert A.Train("rookies") in legal_actions(s)
    s2, ev = play(s, A.Train("rookies"))
    assert s2.forces["caesar"].unit("rookies").discipline == "V" and ev[0].kind == "train"
    assert s2.stratagems["caesarian"]["military"] == 1
    assert A.Train("rookies") not in legal_actions(s2)
    s3, _ = play(s2, A.Recruit("ravenna", "legion"))
    fresh_id = next(u.id for u in s3.forces["caesar"].units if u.id.startswith("raised_legion"))
    assert A.Train(fresh_id) not in legal_actions(s3)  # raised this turn


def test_the_supreme_leader_makes_an_imperator_legion_his_guard() -> None:
    """§17.5 (reference: Guards are made from an imperator legion; a Guard protects)."""
    s = fresh("recruiting", keep=[])
    s.stratagems["caesarian"]["political"] = 1
    s.forces["c"] = army("c", "caesarian", "narbo", [("legion", "I", 5), ("legion", "I", 4)], ("caesar",))
    assert RC.guard_candidates(s, "caesarian") == ["c_0"]  # full strength only
    assert A.FormGuard("c_0") in legal_actions(s)
    s2, ev = play(s, A.FormGuard("c_0"))
    assert s2.forces["c"].unit("c_0").kind == "guard" and ev[0].kind == "guard"
    from campaign.rules.politics import guard_of

    assert guard_of(s2, "caesar") == catalogue().leader("caesar").guard + 2
    s.counter_mix["caesarian"]["guard"] = 0
    assert RC.guard_candidates(s, "caesarian") == []
    with pytest.raises(RuleError):
        play(s, A.FormGuard("c_0"))
