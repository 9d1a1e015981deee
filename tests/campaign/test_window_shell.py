"""The campaign window's shell (issue 15 items 2, 4, 6 and 8): undo a person can trust, the
panels that collapse, dock and remember their state, the map's share of the window, buttons
whose words fit, help on F1 with the rules searchable by section, a window that relays out
when resized — driven headless through the view's input handlers and checked in real
screenshots."""

from __future__ import annotations

from campaign import actions as A
from campaign.ai import CampaignAI
from campaign.view.game import CampaignGame

CAESAR, POMPEIANS = "caesarian", "senatorial"


def to_phase(game: CampaignGame, phase: str) -> None:
    """Play with the computer's choices until the person's side is to act in ``phase``."""
    ai = CampaignAI()
    for _ in range(300):
        if game.human_to_act() and game.state.phase == phase and game.state.pending is None:
            game.popups.clear()
            return
        game.play(ai.choose(game.state))
    raise AssertionError(f"the {phase} phase was not reached")


# --------------------------------------------------------------------------- undo, no window


def test_taking_a_stratagem_can_be_taken_back_at_once() -> None:
    game = CampaignGame.new(seed=1)
    to_phase(game, "stratagems")
    takes = [a for a in game.legal() if isinstance(a, A.Take)]
    assert takes, "the stratagems phase offers stratagems to take"
    before = game.session.checksum()
    game.play(takes[0])
    assert game.can_undo(), game.undo_refusal()
    assert game.undo()
    assert game.session.checksum() == before


def test_ending_a_phase_that_rolls_no_die_can_be_taken_back() -> None:
    game = CampaignGame.new(seed=1)
    to_phase(game, "stratagems")
    before = game.session.checksum()
    game.play(A.Pass())
    if game.human_to_act():  # still this side's decision (the Res Publica phase)
        assert game.undo(), game.message
        assert game.session.checksum() == before


def test_a_rolled_die_is_named_in_the_sentence_and_the_step_stays() -> None:
    game = CampaignGame.new(seed=1)
    to_phase(game, "res_publica")
    plays = [a for a in game.legal() if isinstance(a, A.Politics)]
    assert plays
    game.play(plays[0])
    why = game.undo_refusal()
    assert why.startswith("A die was rolled") and "never taken back" in why
    after = game.session.checksum()
    assert not game.undo() and game.message == why
    assert game.session.checksum() == after


def test_once_the_decision_has_passed_to_the_enemy_the_step_stands() -> None:
    from campaign.engine import CampaignEngine

    game = CampaignGame.new(seed=1)
    to_phase(game, "stratagems")
    before = game.state
    after = before.copy()
    after.active = POMPEIANS  # the other side decides now (it has moved, or is asked)
    why = CampaignEngine().undo_refusal(before, after)
    assert why == (
        "The decision has passed to the Senatorials: what the Caesarians did before it cannot be taken back."
    )
    assert CampaignEngine().undo_refusal(before, before.copy()) == ""
    game.set_humans(frozenset({POMPEIANS}))  # the Caesarians' turn, the computer's side now
    assert game.undo_refusal() == "It is not your decision now."
