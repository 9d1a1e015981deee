"""The tactical AI and its baselines choose only legal actions and follow their priorities."""

from __future__ import annotations

from bellum.session import Session
from tactical.actions import Continuity, Rally, Shock
from tactical.ai import TacticalAI
from tactical.ai_baselines import GreedyPlayer, RandomPlayer, shock_score
from tactical.game import TacticalEngine
from tactical.legal import legal_actions


def test_players_choose_legal_actions() -> None:
    for player in (TacticalAI(1), GreedyPlayer(1), RandomPlayer(1)):
        s = Session(TacticalEngine(), "pharsalus", 2)
        for _ in range(12):
            a = player.choose(s.state)
            assert a in legal_actions(s.state)
            s.play(a)


def test_ai_prefers_best_shock_and_rallies_first() -> None:
    s = Session(TacticalEngine(), "pharsalus", 4)
    ai = TacticalAI(4)
    seen_shock = seen_rally = False
    for _ in range(60):
        state = s.state
        acts = legal_actions(state)
        a = ai.choose(state)
        if any(isinstance(x, Rally) for x in acts) and state.seq.phase not in ("activation", "continuity"):
            assert isinstance(a, Rally)
            seen_rally = True
        elif isinstance(a, Shock):
            best = max(shock_score(state, x) for x in acts if isinstance(x, Shock) and not x.pursue)
            assert shock_score(state, a) == best
            seen_shock = True
        s.play(a)
    assert seen_shock or seen_rally


def test_designation_prefers_better_continuity_odds() -> None:
    s = Session(TacticalEngine(), "pharsalus", 2)
    ai = TacticalAI()
    s.play(ai.choose(s.state))  # a free activation
    while s.state.seq.phase != "continuity":
        s.play(ai.choose(s.state))
    a = ai.choose(s.state)
    assert isinstance(a, Continuity)
