"""Stratagems: income, choice within the counter mix, play limits, the expended box and
the loss of a Supreme Leader (docs/rules/campaign.md §15, §17.6)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bellum.dice import Dice
from bellum.errors import RuleError
from bellum.session import Session
from campaign import actions as A
from campaign.engine import CampaignEngine, legal_actions, load
from campaign.rules import stratagems as S
from campaign.state import STRATAGEM_TYPES, encode_state, initial_state
from campaign.tables import tables
from tests.campaign.test_ops_naval import PATH, _crossing
from tests.campaign.test_ops_sequence import army, fresh, play

ENGINE = CampaignEngine()


def test_income_is_the_supreme_leaders_rating_rome_five_income_cities_and_syria() -> None:
    """§15.1 (reference: income). In January 49 the Senate holds Rome, six of the nine
    income cities (Rhodus, Ephesus, Thessalonika, Syracusa, Neapolis, Utica) and the
    Syria region; Caesar holds Salonae only."""
    s = initial_state(load("49bc"))
    assert S.income(s, "senatorial") == {"supreme": 3, "rome": 1, "income_cities": 1, "syria": 1}
    assert S.income(s, "caesarian") == {"supreme": 3}
    s.owners["rhodus"] = s.owners["ephesus"] = "caesarian"  # four left: below the five needed
    assert "income_cities" not in S.income(s, "senatorial")
    s.republic["dictator"] = "caesarian"
    s.supreme["caesarian"] = None
    t = tables().stratagems
    assert S.income(s, "caesarian") == {"interregnum": t.interregnum, "dictator": t.dictator}


def test_the_stratagems_phase_opens_with_the_income_owed() -> None:
    """§15.2: opening a side's stratagems phase owes it its income (event ``income``)."""
    s = initial_state(load("49bc"))
    s2, ev = ENGINE.apply(s, A.Pass(), Dice(1))  # the events slot
    assert (s2.phase, s2.active, s2.due) == ("stratagems", "caesarian", 3)
    assert any(e.kind == "income" and e.data["due"] == 3 for e in ev)
    assert legal_actions(s2) == [A.Take("military"), A.Take("political"), A.Take("agent"), A.Pass()]


def test_stratagems_are_chosen_one_at_a_time_within_the_counter_mix() -> None:
    """§15.2 (reference: chosen, not drawn; the counter mix limits them)."""
    s = fresh("stratagems")
    s.due = 2
    s2, ev = play(s, A.Take("agent"))
    assert s2.stratagems["caesarian"]["agent"] == 1 and s2.due == 1 and ev[0].kind == "take"
    mix = tables().stratagems.mix.military
    s2.expended["caesarian"]["military"] = mix - s2.stratagems["caesarian"]["military"]
    assert S.pool_left(s2, "caesarian", "military") == 0
    assert A.Take("military") not in legal_actions(s2)
    with pytest.raises(RuleError):
        play(s2, A.Take("military"))
    s3, _ = play(s2, A.Take("political"))
    assert s3.due == 0 and legal_actions(s3) == [A.Pass()]
    with pytest.raises(RuleError):
        play(s3, A.Take("political"))


def test_passing_the_stratagems_phase_forfeits_what_is_owed() -> None:
    """§15.2: what is not taken is lost."""
    s = fresh("stratagems")
    s.due = 3
    s2, ev = play(s, A.Pass())
    assert s2.phase == "res_publica" and s2.due == 0
    assert [e.kind for e in ev][:2] == ["pass", "forfeit"]


def test_a_leader_plays_at_most_his_rating_outside_battles() -> None:
    """§15.3 (reference: a leader plays his rating per turn): Attius Varus (1) may boost
    one march; once he has played, the boosted march is not offered and is refused."""
    s = fresh(keep=["varus"])
    s.forces["varus"] = army("varus", "senatorial", "thapsus", [("legion", "R", 5)], ("attius_varus",))
    s.active = "senatorial"
    s.stratagems["senatorial"]["military"] = 2
    boosted = A.March("varus", "tacapae", ("thapsus", "tacapae"), True)
    assert boosted in legal_actions(s)
    s2, _ = play(s, boosted, Dice.forced([9]))
    assert s2.plays == {"attius_varus": 1}
    s.plays["attius_varus"] = 1
    assert boosted not in legal_actions(s)
    with pytest.raises(RuleError):
        play(s, boosted, Dice.forced([9]))


def test_a_storm_with_a_stratagem_counts_against_the_commander() -> None:
    """§15.3: the storming force's commander plays the Military stratagem."""
    s = fresh("combat", keep=[])
    s.forces["trebonius"] = army(
        "trebonius", "caesarian", "massilia", [("legion", "V", 5), ("engineers", "V", 1)], ("trebonius",)
    )
    s.owners["massilia"] = "senatorial"
    s.forces["massilia_civis"] = s.forces["massilia_civis"].model_copy(update={"side": "senatorial"})
    s.stratagems["caesarian"]["military"] = 1
    assert A.Storm("massilia", "trebonius", True) in legal_actions(s)
    s.plays["trebonius"] = 2  # rating 2: spent
    assert A.Storm("massilia", "trebonius", True) not in legal_actions(s)
    assert A.Storm("massilia", "trebonius") in legal_actions(s)


def test_the_enemy_turn_is_counted_apart_for_interceptions() -> None:
    """§15.3: Bibulus (1) intercepts in the Caesarians' half-turn only if he has not
    played in it; his plays are counted afresh when a half-turn opens."""
    s = _crossing()
    s2, _ = play(s, A.Sail("caesar", "dyrrachium", PATH))
    assert legal_actions(s2) == [A.Intercept("bibulus"), A.Decline()]
    s3, _ = play(s2, A.Intercept("bibulus"), Dice.forced([0]))
    assert s3.plays["bibulus"] == 1
    s2.plays["bibulus"] = 1
    assert legal_actions(s2) == [A.Decline()]
    with pytest.raises(RuleError):
        play(s2, A.Intercept("bibulus"), Dice.forced([0]))
    t = fresh("supply")
    t.plays = {"bibulus": 1, "caesar": 3}
    t2, _ = play(t, A.Supply())
    assert (t2.phase, t2.active, t2.plays) == ("stratagems", "senatorial", {})


def test_battle_commitment_is_per_battle_and_the_imperator_adds_one() -> None:
    """§15.3, §16.4: a side commits up to its best leader's limit in each battle, whatever
    he played in the turn; the Imperator's Supreme Leader counts one more."""
    s = fresh("combat", keep=[])
    s.forces["caesar"] = army("caesar", "caesarian", "ilerda", [("legion", "V", 5)], ("caesar",))
    s.forces["afr"] = army("afr", "senatorial", "ilerda", [("legion", "R", 5)], ("afranius",))
    s.stratagems["caesarian"]["military"] = 6
    s.plays["caesar"] = 3
    assert S.commit_limit(s, "caesarian", "ilerda") == 3
    s.republic["imperator"] = "caesarian"
    assert S.commit_limit(s, "caesarian", "ilerda") == 4
    assert A.Battle("ilerda", 4) in legal_actions(s)
    assert S.limit(s, "caesar") == 4 and S.limit(s, "fabius") == 2


def test_played_stratagems_go_to_the_expended_box_which_empties_each_january() -> None:
    """§15.4: spent counters are expended; the year's turn returns them to the mix."""
    s = fresh("res_publica")
    s.stratagems["caesarian"]["political"] = 1
    s2, _ = play(s, A.Politics("populares"), Dice.forced([0]))
    assert s2.expended["caesarian"]["political"] == 1 and s2.stratagems["caesarian"]["political"] == 0
    t = fresh("supply", "senatorial")
    t.turn = 7  # December: the next turn is January
    t.expended = {side: dict.fromkeys(STRATAGEM_TYPES, 4) for side in ("caesarian", "senatorial")}
    t2, ev = play(t, A.Supply(), Dice(3))
    assert t2.date().startswith("January") and all(v == 0 for v in t2.expended["caesarian"].values())
    assert any(e.kind == "year_turns" for e in ev)


def test_losing_the_supreme_leader_costs_every_stratagem_held_and_the_markers() -> None:
    """§17.6 (reference: losing him costs all held stratagems and the Dictator and
    Imperator markers)."""
    s = fresh("recruiting")
    s.stratagems["senatorial"] = {"military": 3, "political": 2, "agent": 1}
    s.republic.update(dictator="senatorial", imperator="senatorial", tribune="senatorial")
    before = dict(s.supreme)
    s.supreme["senatorial"] = None
    ev = S.supreme_lost(s, before)
    assert s.stratagems["senatorial"] == {"military": 0, "political": 0, "agent": 0}
    assert s.expended["senatorial"] == {"military": 3, "political": 2, "agent": 1}
    assert s.republic == {"tribune": "senatorial", "dictator": None, "imperator": None}
    assert ev[0].kind == "succession_lost"


def test_new_state_fields_are_saved() -> None:
    """campaign.md §14.1: every new field is in the encoded state (saves and checksums)."""
    s = initial_state(load("49bc"))
    enc = encode_state(s)
    for key in ("republic", "pool", "colonies", "plays", "due", "tribune_used", "rolls", "raised"):
        assert key in enc
    assert enc["republic"]["tribune"] == "caesarian"
    assert "octavian" in enc["pool"]["caesarian"]


def test_the_new_actions_are_written_and_read_back() -> None:
    """campaign.md §7.3: every action has a written form (the session's log)."""
    for a in (
        A.Take("agent"),
        A.Politics("optimates"),
        A.Claim("labienus"),
        A.Veto(),
        A.Recruit("roma", "legion"),
        A.RecruitLeader("hirtius", "ravenna"),
        A.FoundColony("narbo"),
        A.Train("leg_xiii"),
        A.FormGuard("leg_x"),
        A.Tribute("egypt"),
        A.Bribe("ariminum"),
        A.Subvert("domitius"),
        A.Assassinate("pompeius"),
    ):
        assert A.decode(A.encode(a)) == a
    with pytest.raises(ValueError):
        A.decode({"type": "recruit", "city": "roma", "kind": 5})


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_political_play_keeps_the_books(seed: int) -> None:
    """§15–§18 invariants under random legal play (political actions taken whenever
    offered): markers never exceed the game's, stratagems never go negative, the markers'
    holders are sides, a Supreme Leader is in play, colonies stand on colony sites and pool
    leaders are out of play."""
    from campaign.map import roman_world

    s = initial_state(load("49bc"))
    dice, chooser = Dice(seed), Dice(seed + 1)
    total = tables().res_publica.markers
    sites = set(roman_world().colony_sites())
    while s.turn < 10 and not getattr(s, "result", None):
        acts = legal_actions(s)
        if not acts:
            break
        political = [a for a in acts if not isinstance(a, A.Pass | A.EndPhase | A.March | A.Sail | A.Merge)]
        pool = political if political and chooser.roll(4, "politics?") > 1 else acts
        s, _ = ENGINE.apply(s, pool[chooser.roll(len(pool), "pick") - 1], dice)
        assert 0 <= sum(s.res_publica.values()) <= total and min(s.res_publica.values()) >= 0
        assert s.due >= 0 and all(v >= 0 for side in s.stratagems.values() for v in side.values())
        assert all(v in (None, "caesarian", "senatorial") for v in s.republic.values())
        for side, sup in s.supreme.items():
            assert sup is None or S.side_of_leader(s, sup) == side
        assert set(s.colonies) <= sites
        for pool_ in s.pool.values():
            assert all(s.leader_force(ld) is None for ld in pool_)


def test_a_game_saved_in_the_political_phases_replays_exactly(tmp_path: Path) -> None:
    """campaign.md §14.1: saves hold the new fields and actions; replay reaches the same
    checksum, a pending veto included."""
    s = Session(ENGINE, "49bc", 11)
    s.play(A.Pass())  # the events slot
    s.play(A.Take("political"))
    s.play(A.Take("political"))
    s.play(A.Pass())  # forfeit the third
    s.play(A.Politics("populares"))
    s.play(A.Pass())
    s.play(A.Pass())  # recruiting
    while s.state.phase != "res_publica":
        acts = s.engine.legal_actions(s.state)
        s.play(next((a for a in acts if isinstance(a, A.Take)), acts[-1]))
    s.play(A.Politics("optimates"))
    path = s.save(tmp_path / "rp.toml")
    back = Session.load(ENGINE, path)
    assert back.checksum() == s.checksum()
    assert encode_state(back.state)["rolls"] == encode_state(s.state)["rolls"] == {"optimates": 1}
