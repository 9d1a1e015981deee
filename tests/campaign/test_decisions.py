"""Typed pending decisions (campaign.decisions) and the campaign's action notation (bellum.actions)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bellum.actions import NotationError
from bellum.engagement import Outcome
from bellum.errors import InputError, RuleError
from bellum.session import Session
from campaign import actions as A
from campaign.ai import CampaignAI
from campaign.decisions import (
    KINDS,
    CommitDecision,
    CutSupplyDecision,
    EscortDecision,
    InterceptDecision,
    NavalOfferDecision,
    SpoilsDecision,
    VetoDecision,
    from_plain,
    plain,
)
from campaign.engine import CampaignEngine, legal_actions

SAVES = Path(__file__).parent / "saves"

#: every kind of decision, with the plain form saves have always held for it
OLD_FORMS = [
    (
        InterceptDecision("senatorial", "x", "dyrrachium", ("brundisium", "dyrrachium"), ("b",)),
        {"force": "x", "to": "dyrrachium", "path": ["brundisium", "dyrrachium"], "options": ["b"]},
    ),
    (CutSupplyDecision("senatorial", (("brundisium", "c"),)), {"options": [["brundisium", "c"]]}),
    (EscortDecision("caesarian", (("brundisium", "e"),)), {"options": [["brundisium", "e"]]}),
    (NavalOfferDecision("senatorial", "mare_tyrrhenum"), {"place": "mare_tyrrhenum"}),
    (CommitDecision("senatorial", "ariminum", 2), {"place": "ariminum", "a": 2}),
    (SpoilsDecision("caesarian", 1), {"n": 1}),
    (VetoDecision("caesarian", "senatorial", "populares", 4), {"side": "senatorial", "table": "populares", "entry": 4}),
]


@pytest.mark.parametrize(("decision", "data"), OLD_FORMS, ids=[d.kind for d, _ in OLD_FORMS])
def test_a_decision_keeps_its_saved_form_and_reads_back(decision: object, data: dict[str, object]) -> None:
    old = {"kind": decision.kind, "actor": decision.actor, "data": data}  # type: ignore[attr-defined]
    assert plain(decision) == old  # type: ignore[arg-type]
    assert from_plain(old) == decision


def test_every_kind_is_covered() -> None:
    assert {d.kind for d, _ in OLD_FORMS} == set(KINDS)


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ({"kind": "commit", "actor": "senatorial", "data": {"place": "x"}}, "holds place, a"),
        ({"kind": "commit", "actor": "senatorial", "data": {"place": "x", "a": "two"}}, "valid integer"),
        ({"kind": "parley", "actor": "senatorial", "data": {}}, "not a pending decision"),
        ({"kind": "spoils", "data": {"n": 1}}, "kind, actor and data"),
    ],
)
def test_a_bad_saved_decision_is_one_sentence(raw: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        from_plain(raw)


def test_a_save_written_before_the_typed_decisions_loads() -> None:
    """Written by the game before ``Pending.data`` was typed: it waits on a commit decision,
    and replaying it gives the saved state's checksum (the saved form is unchanged)."""
    session = Session.load(CampaignEngine(), SAVES / "49bc-seed7-commit-pending.toml")
    assert isinstance(session.state.pending, CommitDecision)
    assert session.state.pending.place == "ariminum" and session.state.pending.a == 2


# -- notation ---------------------------------------------------------------------------------


def test_every_generated_action_round_trips_through_its_notation() -> None:
    """A war's first turns played by the AI: every action offered on the way is written and read back."""
    session = Session(CampaignEngine(), "49bc", 3)
    ai = CampaignAI()
    seen: set[str] = set()
    for _ in range(150):
        for action in legal_actions(session.state):
            assert A.parse_action(action.notation()) == action
            seen.add(action.verb)
        session.play(ai.choose(session.state))
    assert {"march", "pass", "end", "take", "commit"} <= seen


def test_an_outcome_rides_in_the_notation() -> None:
    out = Outcome(
        engagement="e1",
        winner="A",
        reason="the enemy routs, says 'enough'",
        turns=3,
        units=[],
        strength_lost={"A": 1, "B": 4},
        loser_retreats=True,
    )
    for action in (A.Commit(1, out), A.Accept(out), A.Intercept("b", out), A.Supply((out, out))):
        assert A.parse_action(action.notation()) == action


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "needs a verb"),
        ("fly F1 roma", "not a campaign action"),
        ("march F1", "'march' needs force, to, path"),
        ("battle pharsalus stratagems:two", "stratagems must be a whole number"),
        ("commit luck:1", "has no option 'luck'"),
        ("take agent outcome:{}", "carries no outcome"),
        ("commit outcome:{oops", "its outcome cannot be read"),
    ],
)
def test_an_unreadable_action_is_one_sentence(text: str, words: str) -> None:
    with pytest.raises(NotationError, match=words) as caught:
        A.parse_action(text)
    assert isinstance(caught.value, InputError) and isinstance(caught.value, RuleError)
