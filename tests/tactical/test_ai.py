"""The tactical AI and its baselines (issue 5 §3, §4): legal choices only, deterministic by seed,
and the behaviour docs/AI.md promises — good shocks taken, bad ones declined, forced ones made,
weak units withdrawn, hits rallied off, leaders chosen for what their units can do."""

from __future__ import annotations

from typing import Any

import pytest

from bellum.cli import main
from bellum.dice import Dice
from bellum.session import Session
from tactical.actions import Action, Activate, Designate, Move, Pass, Rally, Resolve, Shock
from tactical.ai import TacticalAI, band_value, unit_loss
from tactical.ai_baselines import GreedyPlayer, RandomPlayer
from tactical.cli import play_out, verdict
from tactical.engine import apply
from tactical.game import TacticalEngine
from tactical.legal import legal_actions
from tactical.state import State
from tests.tactical.helpers import position, unit


def _duel(a: dict[str, Any], b: dict[str, Any], **kw: Any) -> State:
    """Side A's unit A1 at 1010 facing 12 (frontal hexes 1009 and 1109) and side B's B1."""
    return position(
        [unit("A1", "A", "1010", **a), unit("B1", "B", "1009", 6, **b), *kw.pop("more", [])],
        rules="charts-v1",
        **kw,
    )


def _play(state: State, ai: TacticalAI, until: type, steps: int = 20, seed: int = 1) -> list[Action]:
    """Let the AI play side A's activation until it chooses an ``until`` action (or passes)."""
    dice = Dice(seed)
    played: list[Action] = []
    for _ in range(steps):
        action = ai.choose(state)
        played.append(action)
        if isinstance(action, until | Pass):
            break
        state, _ = apply(state, action, dice)
    return played


def test_players_choose_only_actions_the_engine_accepts() -> None:
    for player in (TacticalAI(1), GreedyPlayer(1), RandomPlayer(1)):
        s = Session(TacticalEngine(), "pharsalus", 2)
        for _ in range(15):
            action = player.choose(s.state)
            if s.state.seq.phase in ("activation", "continuity"):
                assert action in legal_actions(s.state)
            s.play(action)  # raises RuleError if illegal


def test_the_ai_is_deterministic_by_seed() -> None:
    def game() -> list[Any]:
        s = Session(TacticalEngine(), "pharsalus", 3)
        winner, _ = play_out(s, {"A": TacticalAI(3), "B": TacticalAI(4)}, limit=40)
        assert winner is None
        return s.actions

    assert game() == game()


def test_the_ai_takes_a_shock_with_clearly_good_odds() -> None:
    state = _duel({"size": 8, "tq": 7}, {"status": "disordered", "missile_hits": 4, "tq": 5})
    played = _play(state, TacticalAI(1), Designate)
    assert played[-1] == Designate(("A1",), "B1")


def test_the_ai_declines_a_bad_shock_and_takes_its_weak_unit_out_of_danger() -> None:
    state = _duel({"status": "disordered", "missile_hits": 3, "tq": 5}, {"size": 12, "tq": 8})
    played = _play(state, TacticalAI(1), Designate)
    assert not any(isinstance(a, Designate) for a in played)
    moves = [a for a in played if isinstance(a, Move)]
    assert moves and moves[0].unit == "A1"
    grid = state.field.grid
    end = grid.index([p for p in moves[0].path if p[:1].isdigit()][-1])
    assert grid.distance(end, grid.index("1009")) >= 2


def test_an_engaged_unit_attacks_even_at_poor_odds() -> None:
    state = _duel({"engaged": True, "tq": 5}, {"engaged": True, "size": 10, "tq": 7})
    played = _play(state, TacticalAI(1), Resolve)
    assert Designate(("A1",), "B1") in played
    assert isinstance(played[-1], Resolve)


def test_a_unit_with_hits_away_from_the_enemy_rallies_them_off() -> None:
    state = position(
        [unit("A1", "A", "1015", missile_hits=3, tq=7), unit("B1", "B", "1005", 6)],
        rules="charts-v1",
    )
    played = _play(state, TacticalAI(1), Rally)
    assert played[-1] == Rally("A1")
    after, _ = apply(state, Rally("A1"), Dice(1))
    assert after.units["A1"].missile_hits == 1


def test_the_ai_cuts_down_a_routed_enemy_in_front() -> None:
    state = _duel({}, {"status": "routed"})
    played = _play(state, TacticalAI(1), Designate)
    assert played[-1] == Designate(("A1",), "B1")


def test_resolution_follows_the_designations() -> None:
    state = _duel({"size": 8, "tq": 7}, {"status": "disordered", "tq": 5})
    ai = TacticalAI(1)
    dice = Dice(2)
    for expected in (Designate, Resolve, Shock):
        action = ai.choose(state)
        while isinstance(action, Move):  # A1 may first improve its position
            state, _ = apply(state, action, dice)
            action = ai.choose(state)
        assert isinstance(action, expected)
        state, _ = apply(state, action, dice)


def test_leaders_whose_troops_are_held_are_not_designated() -> None:
    """Pharsalus, side B to designate: Pompey's foot stands fast (scenario rule stand-fast), so
    only leaders with cavalry or light troops in range have work (003 §4.2)."""
    s = Session(TacticalEngine(), "pharsalus", 1)
    state = s.state.copy()
    state.seq.side = "B"
    action = TacticalAI(1).choose(state)
    assert isinstance(action, Activate)
    assert action.leader in ("Pompeius", "Labienus")


def test_unit_loss_counts_rout_points() -> None:
    state = _duel({"tq": 6}, {})
    a1 = state.units["A1"]
    assert unit_loss(a1, "eliminated") == 6.0
    assert unit_loss(a1) == 0.0
    assert 0.0 < unit_loss(a1, hits=2) < unit_loss(a1, hits=5) < unit_loss(a1, "eliminated")
    assert band_value("charts-v1", 4) > 0 > band_value("charts-v1", -3)


def test_play_out_ends_with_a_verdict() -> None:
    s = Session(TacticalEngine(), "pharsalus", 1)
    winner, why = play_out(s, {"A": TacticalAI(1), "B": TacticalAI(2)}, limit=5)
    assert winner is None
    assert why.startswith("no army withdrew within 5 actions")
    state = s.state.copy()
    state.winner = "A"
    state.rout_points["B"] = 160
    assert verdict(state) == ("A", "side B's rout points reach 160 of its withdrawal level 157")


def test_headless_needs_a_player_for_every_side(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["battle", "pharsalus", "--ai", "A", "--headless"]) == 2
    assert "--against" in capsys.readouterr().err


def test_shocks_are_weighed_after_the_defenders_answer() -> None:
    """Issue 19: a shock is worth the least of the undisturbed shock and each answer the
    defender may make — here archers' reaction fire at the attacker (003 §8.2), by the exact
    odds — and a cavalry defender's retreat before combat makes it worth nothing (003 §8.3)."""
    from tactical.ai import _local, outcome_value
    from tactical.odds import shock_odds

    state = _duel({"utype": "MI", "tq": 5}, {"utype": "LI", "tq": 6, "missile": "A"})
    ai = TacticalAI(1)
    plain = outcome_value(state, "A", shock_odds(_local(state, state.units["B1"]), Shock(("A1",), "B1")))
    fire = Shock(("A1",), "B1", reaction_fire="A1")
    after_fire = outcome_value(state, "A", shock_odds(_local(state, state.units["B1"]), fire))
    assert after_fire < plain
    assert ai._shock_value(state, ("A1",), "B1") == pytest.approx(min(plain, after_fire))
    horse = _duel({"utype": "HI"}, {"utype": "HC", "ma": 8})
    assert TacticalAI(1)._shock_value(horse, ("A1",), "B1") <= 0.0


def test_a_distant_hit_and_run_is_valued() -> None:
    """A light horse's hit and run from beyond the odds' local radius (003 §9.41: within 4 MP)
    is valued with the firer kept in the local position (a KeyError once, Gaugamela)."""
    state = position(
        [
            unit("A1", "A", "1016", utype="LC", ma=12, missile="MA"),
            unit("B1", "B", "1010", 6, utype="HI", ma=4),
        ],
        rules="charts-v1",
    )
    state.units["A1"].hex = state.field.grid.index("1017")
    from tactical.actions import Fire

    TacticalAI(1)._fire_value(state, Fire("A1", "B1", hit_and_run=True))  # no KeyError
