"""Auto-resolve, odds and the Engagement -> Outcome contract (docs/rules/battleboard.md §12, §14)."""

from __future__ import annotations

import hashlib

import pytest
from pydantic import ValidationError

from battleboard.ai import choose
from battleboard.model import State
from battleboard.resolve import ROUTE, autoplay, odds, outcome, resolve_engagement, state_from_engagement
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


def _finished_land_battle() -> tuple[Engagement, State]:
    """A over: A's two legions eliminated (one V, one R), a 3-SP heavy infantry unit lost, B won."""
    raw = land_engagement(6).model_dump()
    for u in raw["units"]:
        if u["id"] == "A6":
            u["strength"] = 3
    eng = Engagement.model_validate(raw)
    s = state_from_engagement(eng)
    for uid in ("A1", "A2", "A6"):
        s.units[uid].status = "eliminated"
    s.phase = "over"
    s.winner = "B"
    return eng, s


def test_prisoners_are_taken_not_killed_and_fratricide_counts_only_the_killed() -> None:
    # §12.3: one prisoner roll per eliminated unit of the loser, in unit order (A1 V needs 6,
    # A2 R needs 5, A6 V needs 6); §12.4: 5 per full unit's worth of heavy infantry SP killed
    eng, s = _finished_land_battle()
    out = outcome(s, eng, Dice.forced([6, 4, 9]))
    fates = {u.id: u.fate for u in out.units}
    assert (fates["A1"], fates["A2"], fates["A6"]) == ("captured", "eliminated", "captured")
    assert out.heavy_infantry_killed == {"A": 1, "B": 0}
    assert out.fratricide == 5
    eng, s = _finished_land_battle()
    out = outcome(s, eng, Dice.forced([0, 0, 0]))  # all three killed: 5 + 5 + 3 SP -> two units' worth
    assert out.heavy_infantry_killed == {"A": 2, "B": 0}
    assert out.fratricide == 10


def test_units_lost_in_flight_are_dispersed_not_killed() -> None:
    eng, s = _finished_land_battle()
    s.units["A1"].status = "escaped"  # fled and did not come back (§10.3)
    s.units["A1"].returns = False
    out = outcome(s, eng, Dice.forced([9, 9]))
    fates = {u.id: u.fate for u in out.units}
    assert fates["A1"] == "fled_lost"
    assert out.fratricide == 0


def test_a_beaten_army_leaves_the_field_instead_of_dying_to_the_last_man() -> None:
    # §10.4, §10.5, §15: the loser withdraws or breaks; some of it always comes away
    eng = land_engagement(12)
    survivors = killed = brought = 0
    for seed in range(12):
        out = resolve_engagement(eng, seed)
        if out.winner is None:
            continue
        loser = "B" if out.winner == "A" else "A"
        mine = [u for u in out.units if u.side == loser]
        survivors += sum(u.strength for u in mine if u.fate in ("survived", "fled_returned"))
        killed += sum(u.strength for u in mine if u.fate == "eliminated")
        brought += sum(u.strength for u in eng.units if u.side == loser)
    assert survivors > 0
    assert killed < brought / 2  # most of a beaten army lives: it got away, scattered or was taken


def test_the_ai_withdraws_a_beaten_panicked_army() -> None:
    from battleboard.ai import should_withdraw

    eng = land_engagement(4)
    s = state_from_engagement(eng)
    while s.phase != "move":  # set up, then the first command phase
        s, _, _ = apply(s, legal_actions(s)[0], Dice(1))
    side = s.side
    assert not should_withdraw(s)  # not panicked
    s.panicked.append(side)
    assert not should_withdraw(s)  # panicked, but not behind on strength points
    s.units[f"{side}1"].status = "eliminated"
    s.units[f"{side}1"].square = None
    s.grid = {sq: uid for sq, uid in s.grid.items() if uid != f"{side}1"}
    assert should_withdraw(s)
    assert choose(s).verb == "withdraw"


def _varied(eng: Engagement, **sides: dict[str, object]) -> Engagement:
    raw = eng.model_dump()
    for side, values in sides.items():
        raw["sides"][side].update(values)
    return Engagement.model_validate(raw)


#: sha256 (first 16) of the outcomes of seeds 0-11 (JSON, with every roll's label and value on
#: campaign dice), recorded with main at c426022: a faster ``outcome`` or set-up (issue 20
#: item 2) must conclude every battle field for field as that code did
PINNED_OUTCOMES = {
    "naval-12-mutual": "436bc3a4ffd99311",
    "naval-6-supply": "56d9910b87474518",
    "naval-5-interception": "7e4e635c36ad2cdb",
    "land-12-field": "7024ff033c327f8d",
    "land-8-hills": "305963c26c254998",
}


@pytest.mark.parametrize(
    "eng",
    [
        naval_engagement(12, "mutual"),
        _varied(naval_engagement(6, "supply"), A={"free_fleet_counters": 0}, B={"friendly_port": True}),
        _varied(naval_engagement(5, "interception"), A={"free_fleet_counters": 1}, B={"superiority_stratagems": 2}),
        land_engagement(12, "field"),
        land_engagement(8, "hills", 0),
    ],
    ids=lambda e: e.id,
)
def test_outcomes_are_as_pinned(eng: Engagement) -> None:
    assert outcomes_digest(eng) == PINNED_OUTCOMES[eng.id]


def outcomes_digest(eng: Engagement) -> str:
    h = hashlib.sha256()
    for seed in range(12):
        dice = Dice(seed, counter=seed)
        h.update(ROUTE.resolve(eng, dice).model_dump_json().encode())
        h.update(repr([(r.label, r.value) for r in dice.rolls]).encode())
    return h.hexdigest()[:16]
