"""Field battles: the engagement, the battle hook and the outcome (docs/rules/campaign.md §12)."""

from __future__ import annotations

import pytest

from bellum.dice import Dice
from bellum.engagement import Engagement, Outcome
from bellum.errors import RuleError
from campaign import actions as A
from campaign.engine import CampaignEngine, legal_actions
from campaign.rules.battle import auto_resolve, field_battles, land_engagement
from campaign.state import CampaignState
from campaign.tables import tables
from tests.campaign.test_ops_sequence import army, fresh, outcome_for, play


def _ilerda() -> CampaignState:
    s = fresh("combat", keep=[])
    s.forces["fabius"] = army(
        "fabius", "caesarian", "ilerda", [("legion", "I", 5), ("legion", "V", 5), ("cavalry", "B", 2)], ("fabius",)
    )
    s.forces["afranius"] = army(
        "afranius",
        "senatorial",
        "ilerda",
        [("legion", "R", 5), ("legion", "R", 3), ("impediti", "M", 1)],
        ("afranius", "petreius"),
    )
    s.stratagems["caesarian"]["military"] = 2
    s.stratagems["senatorial"]["military"] = 1
    return s


def _fight(s: CampaignState, resolver, a: int = 0, b: int = 0, dice: Dice | None = None):  # type: ignore[no-untyped-def]
    engine = CampaignEngine(resolver=resolver)
    s1, _ = play(s, A.Battle("ilerda", a), engine=engine)
    return play(s1, A.Commit(b), dice or Dice(5), engine=engine)


def test_forces_that_meet_must_fight_before_combat_ends() -> None:
    """campaign.md §12.1: two field forces in one space fight in the active side's combat phase."""
    s = _ilerda()
    assert field_battles(s) == ["ilerda"]
    assert A.EndPhase() not in legal_actions(s)
    with pytest.raises(RuleError):
        play(s, A.EndPhase())


def test_stratagems_for_superiority_are_committed_by_both_sides_up_to_their_leaders_ratings() -> None:
    """campaign.md §12.2 (reference: Tactical Superiority by Military stratagems; a leader
    plays up to his rating)."""
    s = _ilerda()
    assert [a for a in legal_actions(s) if isinstance(a, A.Battle)] == [A.Battle("ilerda", n) for n in range(3)]
    s1, _ = play(s, A.Battle("ilerda", 2))
    assert s1.actor == "senatorial" and legal_actions(s1) == [A.Commit(0), A.Commit(1)]
    seen: list[Engagement] = []

    def spy(eng: Engagement, dice: Dice) -> Outcome:
        seen.append(eng)
        return outcome_for(eng, None)

    _fight(s, spy, 2, 1)
    eng = seen[0]
    assert (eng.sides["A"].superiority_stratagems, eng.sides["B"].superiority_stratagems) == (2, 1)
    assert eng.tactical_superiority() == "A"
    assert eng.terrain == "city"  # the defender's own city (§12.2)
    assert {u.kind for u in eng.units} >= {"legion", "cavalry", "impeditus"}


def test_the_outcome_is_applied_losses_promotion_disruption_retreat() -> None:
    """campaign.md §12.3–§12.6: every line of the Outcome."""

    def fabius_wins(eng: Engagement, dice: Dice) -> Outcome:
        return outcome_for(eng, "A", lose=["afranius_0"], flip=["fabius_1"], promote={"fabius_1": "I"})

    s2, ev = _fight(_ilerda(), fabius_wins)
    battle = ev[0]
    assert battle.kind == "battle" and battle.data["losses"] == {"afranius_0": 5}
    assert battle.text.startswith("Battle of Ilerda: Fabius defeats Afranius")
    f = s2.forces["fabius"]
    assert f.unit("fabius_1").discipline == "I" and f.unit("fabius_1").disrupted
    assert s2.forces["afranius"].location != "ilerda"  # the loser retreats
    assert s2.fratricide == 5  # a strength-5 legion killed (reference: Fratricide)
    assert s2.owners["ilerda"] == "caesarian"  # the field is the winner's, and the city with it
    assert "ilerda" in s2.fought


def test_the_winner_takes_the_spoils_as_military_stratagems_or_agents() -> None:
    """campaign.md §12.4: one bonus stratagem per 5 enemy SP lost, at most 2, each taken as
    a Military stratagem or an Agent (never Political) once nothing else waits."""
    s2, ev = _fight(_ilerda(), lambda eng, dice: outcome_for(eng, "A", lose=["afranius_0", "afranius_1"]))
    t = tables().battle
    n = min(t.bonus_max, 8 // t.bonus_per_sp)
    assert n == 1 and any(e.kind == "bonus" for e in ev)
    assert s2.stratagems["caesarian"]["military"] == 2  # not yet: the winner chooses
    assert s2.pending is not None and s2.pending.kind == "spoils" and s2.pending.actor == "caesarian"
    assert legal_actions(s2) == [A.Take("military"), A.Take("agent")]
    with pytest.raises(RuleError):
        play(s2, A.Take("political"))
    s3, ev3 = play(s2, A.Take("agent"))
    assert s3.stratagems["caesarian"]["agent"] == s2.stratagems["caesarian"]["agent"] + 1
    assert s3.stratagems["caesarian"]["military"] == 2
    assert s3.pending is None and not s3.spoils
    assert ev3[0].kind == "spoils" and "Agent" in ev3[0].text


def test_the_ai_takes_its_spoils_as_agents_when_the_enemy_supreme_leader_is_in_reach() -> None:
    """docs/AI.md: Agents while the enemy's Supreme Leader is within their reach (004's
    report: Caesar after his victory), else Military stratagems."""
    from campaign.ai import CampaignAI

    s2, _ = _fight(_ilerda(), lambda eng, dice: outcome_for(eng, "A", lose=["afranius_0", "afranius_1"]))
    s2.stratagems["caesarian"]["agent"] = 0
    assert CampaignAI().choose(s2) == A.Take("military")  # Pompeius is far from Ilerda
    s2.forces["pompeius"] = army("pompeius", "senatorial", "osca", [("legion", "R", 5)], ("pompeius",))
    s2.supreme["senatorial"] = "pompeius"
    assert CampaignAI().choose(s2) == A.Take("agent")


def test_leaders_killed_and_captured() -> None:
    """campaign.md §12.5: killed leaders leave play; captives are executed on a low roll."""

    def deadly(eng: Engagement, dice: Dice) -> Outcome:
        return outcome_for(eng, "A", killed=["afranius"], captured=["petreius"])

    s2, _ev = _fight(_ilerda(), deadly, dice=Dice.forced([9]))  # 9: spared by the Caesarians
    assert "afranius" in s2.dead
    assert s2.captives == {"petreius": "caesarian"}
    assert "petreius" not in s2.forces.get("afranius", s2.forces["fabius"]).leaders


def test_a_result_from_elsewhere_must_match_its_battle() -> None:
    """campaign.md §12.2: the battle hook — an outcome handed back in the action is
    checked against the engagement and then applied like an auto-resolved one."""
    s = _ilerda()
    s1, _ = play(s, A.Battle("ilerda", 0))
    eng = land_engagement(s1, "ilerda", 0, 0)
    good = outcome_for(eng, "B", lose=["fabius_2"])
    _s2, ev = play(s1, A.Commit(0, good), Dice.forced([]))
    assert ev[0].data["winner"] == "senatorial"
    bad = good.model_copy(update={"engagement": "elsewhere"})
    with pytest.raises(RuleError):
        play(s1, A.Commit(0, bad))
    assert A.decode(A.encode(A.Commit(0, good))) == A.Commit(0, good)


def test_auto_resolve_fights_on_the_battleboard_with_the_campaign_dice() -> None:
    """campaign.md §12.2: the default resolver is the battleboard's auto-resolve."""
    s = _ilerda()
    eng = land_engagement(s, "ilerda", 0, 0)
    a = auto_resolve(eng, Dice(11))
    b = auto_resolve(eng, Dice(11))
    assert a == b and a.engagement == eng.id
    s2, ev = _fight(s, auto_resolve, dice=Dice(11))
    assert ev[0].kind == "battle"
    lost = ev[0].data["losses"]
    total_before = sum(f.strength() for f in s.forces.values() if f.location == "ilerda")
    total_after = sum(f.strength() for f in s2.forces.values() if f.id in ("fabius", "afranius"))
    assert total_before - total_after == sum(lost.values())
