"""Auto-resolve, odds and the Engagement -> Outcome contract (docs/rules/battleboard.md §12, §14)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from battleboard.ai import choose
from battleboard.resolve import autoplay, odds, outcome, resolve_engagement, state_from_engagement
from battleboard.rules import apply, legal_actions
from bellum.dice import Dice
from bellum.engagement import Engagement, Outcome
from tests.battleboard.helpers import land_engagement, naval_engagement


def test_outcome_accounts_for_every_unit_and_leader() -> None:
    eng = land_engagement()
    out = resolve_engagement(eng, 7)
    assert {u.id for u in out.units} == {u.id for u in eng.units}
    assert {ld.id for ld in out.leaders} == {ld.id for ld in eng.leaders}
    assert out.winner in ("A", "B", None)
    for side in ("A", "B"):
        total = sum(u.strength for u in eng.units if u.side == side)
        assert 0 <= out.strength_lost[side] <= total
    assert out.fratricide == 5 * sum(out.heavy_infantry_killed.values())
    Outcome.model_validate(out.model_dump())  # round-trips through the strict model


def test_same_seed_same_outcome() -> None:
    eng = naval_engagement()
    assert resolve_engagement(eng, 3) == resolve_engagement(eng, 3)


def test_promotions_only_for_the_winner_and_only_legions_become_imperator() -> None:
    eng = land_engagement()
    for seed in range(20):
        out = resolve_engagement(eng, seed)
        for p in out.promotions:
            assert p.side == out.winner
            assert (p.before, p.after) in (("R", "V"), ("V", "I"))
            if p.after == "I":
                assert next(u for u in eng.units if u.id == p.id).kind == "legion"
        assert len(out.promotions) <= 3


def test_supply_and_interception_outcomes() -> None:
    for seed in range(10):
        sup = resolve_engagement(naval_engagement(3, "supply"), seed)
        assert sup.supply_passes == (sup.winner == "A")
        assert sup.movement_continues is None
        icp = resolve_engagement(naval_engagement(3, "interception"), seed)
        assert icp.movement_continues == (icp.winner == "A")
        fates = {u.id: u.fate for u in icp.units}
        for f in icp.continuing_fleets:  # A's own ships that broke through, or ships it captured
            assert fates[f] == "broken_through" or (f.startswith("B") and fates[f] == "captured")


def test_captured_fleets_are_converted_or_eliminated() -> None:
    eng = naval_engagement(4)
    limited = eng.model_copy(deep=True)
    for side in ("A", "B"):
        limited.sides[side].free_fleet_counters = 0
    seen = False
    for seed in range(40):
        out = resolve_engagement(limited, seed)
        for c in out.captured_fleets:
            seen = True
            assert c.from_side != c.to_side
            others = [x for x in out.captured_fleets if x.to_side == c.from_side]
            assert c.converted == (len(others) > 0) or not c.converted
    assert seen, "forty naval battles should capture at least one ship"


def test_tactical_superiority() -> None:
    eng = land_engagement()
    assert eng.tactical_superiority() == "A"  # A committed one more Military stratagem
    tie = eng.model_copy(update={"superior": None})
    tie.sides["A"].superiority_stratagems = 0
    assert tie.tactical_superiority() == "B"  # on land a tie goes to the defender
    nav = naval_engagement(2, "mutual")
    assert nav.tactical_superiority() == "A"  # 004 Setup: the active player in case (a)
    assert naval_engagement(2, "supply").tactical_superiority() == "B"  # the reactive player in (b)


def test_engagement_is_strict() -> None:
    raw = land_engagement().model_dump()
    raw["weather"] = "rain"
    with pytest.raises(ValidationError):
        Engagement.model_validate(raw)
    raw = naval_engagement().model_dump()
    raw["units"] = [u for u in raw["units"] if not (u["side"] == "B" and u["kind"] == "fleet")]
    with pytest.raises(ValidationError):
        Engagement.model_validate(raw)


def test_odds_is_a_distribution() -> None:
    o = odds(land_engagement(6, "pass"), 20)
    assert o["A"] + o["B"] + o["draw"] == pytest.approx(1.0)
    assert o["A_lost"] >= 0 and o["B_lost"] >= 0


@pytest.mark.parametrize("eng", [land_engagement(8, "river"), naval_engagement(3, "interception")], ids=str)
def test_ai_only_plays_legal_actions(eng: Engagement) -> None:
    s = state_from_engagement(eng)
    dice = Dice(11)
    for _ in range(3000):
        if s.phase == "over":
            break
        a = choose(s)
        assert a in legal_actions(s) or a.verb in ("allocate", "deploy")
        s, _, _ = apply(s, a, dice)
    assert s.phase == "over"


def test_outcome_needs_a_finished_battle() -> None:
    eng = land_engagement(4)
    s = state_from_engagement(eng)
    with pytest.raises(Exception, match="not over"):
        outcome(s, eng, Dice(1))
    final = autoplay(s, Dice(2))
    assert outcome(final, eng, Dice(3)).winner == final.winner


def test_storm_of_a_city() -> None:
    raw = land_engagement(6, "city").model_dump()
    raw["trigger"] = "storm"
    eng = Engagement.model_validate(raw)
    out = resolve_engagement(eng, 4)
    assert out.city_taken == (out.winner == "A")
    raw["terrain"] = "field"
    with pytest.raises(ValidationError):
        Engagement.model_validate(raw)
