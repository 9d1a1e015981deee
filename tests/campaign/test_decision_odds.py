"""Odds before a player commits (docs/rules/campaign.md §14.3): every decision that rolls
dice is previewed by the real engine over every die face (``campaign.odds``)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from campaign import actions as A
from campaign.odds import decision_odds, odds_text, outcome_words
from campaign.rules import politics as P
from campaign.rules.siege import storm_chance
from campaign.view.game import CampaignGame
from tests.campaign.test_ops_sequence import fresh
from tests.campaign.test_ops_siege import _before_rome
from tests.campaign.test_politics import _side


def _share(odds: list[tuple[str, Fraction]] | None, pred) -> Fraction:  # type: ignore[no-untyped-def]
    assert odds is not None
    return sum((p for what, p in odds if pred(what)), Fraction(0))


def test_tribute_odds_are_the_faces_that_reach_the_need() -> None:
    """§18.1: d10 + modifiers against the need; the preview counts the faces."""
    s = _side(fresh("recruiting", keep=["fabius", "massilia"]))
    need, mod = P.tribute_need(s, "caesarian", "massilia", 3)
    odds = decision_odds(s, A.Tribute("massilia"))
    assert odds is not None and sum(p for _w, p in odds) == 1
    assert {w for w, _p in odds} == {"accepted", "refused"}
    assert _share(odds, lambda w: w == "accepted") == Fraction(sum(1 for r in range(10) if r + mod >= need), 10)


@pytest.mark.parametrize("stratagem", [False, True])
def test_the_ais_storm_chance_is_what_the_real_storm_gives(stratagem: bool) -> None:
    """§11.3: ``storm_chance`` (the AI's reading of the table) equals the engine's storm
    played over all ten faces, so the AI and the window see the same odds."""
    s = _before_rome()
    s.stratagems["caesarian"]["military"] = 1
    odds = decision_odds(s, A.Storm("roma", "caesar", stratagem))
    carried = _share(odds, lambda w: "walls are carried" in w)
    assert float(carried) == pytest.approx(storm_chance(s, "roma", "caesar", stratagem))
    assert 0 < carried < 1
    assert any("thrown back" in w for w, _p in odds or [])


def test_a_res_publica_roll_lists_every_entry_of_the_table() -> None:
    """§16: one d10 on the Populares table, each entry a tenth (no modifier here)."""
    s = fresh("res_publica", keep=["caesar"])
    s.stratagems["caesarian"]["political"] = 2
    odds = decision_odds(s, A.Politics("populares"))
    assert odds is not None and sum(p for _w, p in odds) == 1
    assert all(p.denominator in (1, 2, 5, 10) for _w, p in odds)
    assert len(odds) >= 4


def test_a_decision_without_dice_or_refused_has_no_odds() -> None:
    s = _side(fresh("recruiting", keep=["fabius", "massilia"]))
    assert decision_odds(s, A.Pass()) is None  # no die rolled
    assert decision_odds(s, A.Tribute("alexandria")) is None  # out of reach: refused


def test_the_words_are_the_result_clause_without_the_roll() -> None:
    from bellum.events import Event

    ev = [Event("politics", "Caesar works on the Populares (roll 7+1 → 8): 2 Res Publica markers.", {})]
    assert outcome_words(ev) == "2 Res Publica markers"
    ev = [Event("storm", "Caesar storms Roma and is thrown back from the walls with 2 SP lost.", {})]
    assert outcome_words(ev) == "Caesar storms Roma and is thrown back from the walls with 2 SP lost"
    text = odds_text([("a", Fraction(1, 2)), ("b", Fraction(1, 4)), ("c", Fraction(1, 8)), ("d", Fraction(1, 8))], 2)
    assert text == "50% a · 25% b · 25% other"


def test_the_window_shows_the_odds_beside_the_decision() -> None:
    game = CampaignGame.new(seed=1, humans=frozenset({"caesarian"}))
    s = _side(fresh("recruiting", keep=["fabius", "massilia"]))
    game.session.state = s
    [opt] = [o for o in game.place_options("massilia") if isinstance(o.action, A.Tribute)]
    assert "% accepted" in opt.detail and "% refused" in opt.detail


def test_the_defender_sees_his_chance_for_each_answer() -> None:
    """§12.2 and §14.3: the defender's commitments each carry the battle dialog's odds of
    the engagement they would make, from his side."""
    from campaign.rules.battle import land_engagement
    from tests.campaign.test_ops_battle import _ilerda
    from tests.campaign.test_ops_sequence import play

    s1, _ = play(_ilerda(), A.Battle("ilerda", 1))
    game = CampaignGame.new(seed=1, humans=frozenset({"senatorial"}))
    game.session.state = s1
    opts = game.pending_options()
    assert [o.action for o in opts] == [A.Commit(0), A.Commit(1)]
    for o in opts:
        assert isinstance(o.action, A.Commit)
        want = game.commit_odds("ilerda", 1, o.action.stratagems)["B"]
        assert o.detail == f"you win {want:.0%}"
    eng = land_engagement(s1, "ilerda", 1, 1)
    assert eng.sides["A"].superiority_stratagems == 1 and eng.sides["B"].superiority_stratagems == 1
