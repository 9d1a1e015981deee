"""The defending side's decisions (docs/rules/tactical.md §8.13): where play stops, who acts, what
the one generator offers, that every offer is accepted, and that the phasing side may not
choose the defender's reactions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bellum.dice import Dice
from bellum.errors import RuleError
from bellum.session import Session
from tactical.actions import Decline, Fire, Move, Pass, React, Reaction, Shock, parse_action
from tactical.ai import TacticalAI
from tactical.ai_baselines import GreedyPlayer
from tactical.cases import state_key
from tactical.engine import apply, apply_with_choices
from tactical.game import TacticalEngine, encode_state
from tactical.legal import legal_actions
from tactical.state import State
from tests.tactical.helpers import position, unit


def _flank_approach(b1: dict[str, Any] | None = None, rules: str = "sgboh") -> State:
    """A1 (HI) at 1110 about to move 1109, 1108 along the flank of B1 (HI facing 2 at 1008)."""
    return position(
        [unit("A1", "A", "1110"), b1 or unit("B1", "B", "1008", facing=2)],
        rules=rules,
    )


def _withdraw_approach() -> State:
    """A1 (HI, MA 6) walks 1009-1008-1007 toward B1 (LC, MA 9) at 1006 (000 §6.5)."""
    return position(
        [unit("A1", "A", "1010"), unit("B1", "B", "1006", facing=6, utype="LC", ma=9, size=3)],
        rules="simple-spqr",
    )


def test_reactions_round_trip_through_notation() -> None:
    for action in (
        React(reaction=Reaction("B1", "1204", face=4)),
        React(reaction=Reaction("B2", "1104", withdraw=("1306", "1307"))),
        React(reaction=Reaction("B2", "1104", withdraw=("1306",), fire=True)),
        React(fire="A1"),
        React(rbc=("1007", "1006")),
        React(fire="A2", reduce_hits=True),
        React(reduce_hits=True),
        React(return_fire=True),
        Decline(),
    ):
        assert parse_action(action.notation()) == action
    with pytest.raises(RuleError):
        parse_action("react sideways")


def test_a_move_halts_where_the_defender_may_react_and_the_defender_acts() -> None:
    state = _flank_approach()
    after, events = apply(state, Move("A1", ("1109", "1108")), Dice.forced([]))
    assert after.reacting is not None and after.reacting.kind == "move"
    assert after.acting == "B" and after.seq.side == "A"
    assert after.units["A1"].hex == after.field.grid.index("1109")
    assert any(e.kind == "react_wait" for e in events)
    acts = legal_actions(after)
    assert Decline() in acts
    assert {a.notation() for a in acts if isinstance(a, React)} == {"react B1@1109 face:12", "react B1@1109 face:4"}
    # the phasing side waits: its actions are refused and nothing changes
    key = state_key(after)
    for action in (Pass(), Move("A1", ("1108",))):
        with pytest.raises(RuleError, match="must first decide"):
            apply(after, action, Dice.forced([]))
    assert state_key(after) == key
    # declining: the move walks on and play returns to side A
    done, _ = apply(after, Decline(), Dice.forced([]))
    assert done.reacting is None and done.acting == "A"
    assert done.units["A1"].hex == done.field.grid.index("1108") and done.last_mp == 2


def test_no_stop_where_no_reaction_is_legal() -> None:
    state = _flank_approach(unit("B1", "B", "1008", facing=2, status="disordered"))
    after, _ = apply(state, Move("A1", ("1109", "1108")), Dice.forced([]))
    assert after.reacting is None and after.last_mp == 2


def test_no_reaction_to_wait_on_refuses_react_and_decline() -> None:
    state = _flank_approach()
    for action in (Decline(), React(fire="A1")):
        with pytest.raises(RuleError, match="waits on a reaction"):
            apply(state, action, Dice.forced([]))


def test_the_phasing_side_may_not_choose_the_defenders_reactions() -> None:
    state = _flank_approach()
    with pytest.raises(RuleError, match="does not choose"):
        apply(state, Move("A1", ("1109",), (Reaction("B1", "1109", face=4),)), Dice.forced([]))
    shock = position(
        [unit("A1", "A", "1009"), unit("B1", "B", "1008", facing=6, utype="LI", missile="J", ma=7, size=4)],
        rules="sgboh",
        sequence={"side": "A", "phase": "shock"},
    )
    shock.designations = [(("A1",), "B1")]
    shock.designating = False
    with pytest.raises(RuleError, match="defender itself"):
        apply(shock, Shock(("A1",), "B1", reaction_fire="A1"), Dice.forced([]))
    with pytest.raises(RuleError, match="decides itself"):
        apply(state, Fire("A1", "B1", hit_and_run=True, return_fire=True), Dice.forced([]))
    # the written form (cases, odds) still plays them as the defender's answers
    after, _ = apply_with_choices(shock, Shock(("A1",), "B1", reaction_fire="A1"), Dice.forced([2, 5]))
    assert after.units["A1"].missile_hits == 1 and after.reacting is None


def test_every_offered_withdrawal_is_accepted_and_the_move_goes_on() -> None:
    state = _withdraw_approach()
    after, _ = apply(state, Move("A1", ("1009", "1008", "1007")), Dice.forced([]))
    assert after.reacting is not None and after.acting == "B"
    offers = [a for a in legal_actions(after) if isinstance(a, React)]
    withdrawals = [a for a in offers if a.reaction is not None and a.reaction.withdraw]
    assert len(withdrawals) >= 3
    grid = after.field.grid
    for w in offers:
        done, _ = apply(after, w, Dice(1))
        # the move went on: finished, or waiting again further on (000 §6.54: no limit)
        assert done.reacting is None or done.reacting.at != after.reacting.at
        if w.reaction is not None and w.reaction.withdraw:
            assert done.units["B1"].hex == grid.index(w.reaction.withdraw[-1])
            assert grid.distance(done.units["B1"].hex, grid.index("1008")) > 2


def test_a_shock_waits_for_reaction_fire_and_a_retreat_before_combat() -> None:
    state = position(
        [unit("A1", "A", "1009"), unit("B1", "B", "1008", facing=6, utype="HC", ma=8, size=4)],
        rules="sgboh",
        sequence={"side": "A", "phase": "shock"},
    )
    state.designations = [(("A1",), "B1")]
    state.designating = False
    after, _ = apply(state, Shock(("A1",), "B1"), Dice.forced([]))
    assert after.reacting is not None and after.reacting.kind == "shock" and after.acting == "B"
    assert after.designations == []
    rbc = [a for a in legal_actions(after) if isinstance(a, React) and a.rbc]
    assert rbc and all(not a.fire for a in rbc)
    grid = after.field.grid
    for r in rbc:
        done, _ = apply(after, r, Dice.forced([]))
        assert done.reacting is None and done.units["B1"].hex == grid.index((r.rbc or ())[-1])
    # declining: the shock is rolled (one die, no leaders, no pursuit by foot)
    done, events = apply(after, Decline(), Dice.forced([4]))
    assert any(e.kind == "shock" and e.data.get("result") for e in events) and done.acting == "A"


def test_cavalry_attacked_by_cavalry_is_not_asked() -> None:
    state = position(
        [unit("A1", "A", "1009", utype="HC", ma=8), unit("B1", "B", "1008", facing=6, utype="HC", ma=8)],
        rules="sgboh",
        sequence={"side": "A", "phase": "shock"},
    )
    state.designations = [(("A1",), "B1")]
    state.designating = False
    after, _ = apply(state, Shock(("A1",), "B1"), Dice.forced([5, 9]))
    assert after.reacting is None


def test_a_hit_and_run_waits_for_return_fire() -> None:
    state = position(
        [
            unit("A1", "A", "1011", utype="SK", ma=8, size=1, tq=5, missile="J"),
            unit("B1", "B", "1008", facing=6, utype="LI", ma=7, size=4, missile="J"),
        ],
        rules="sgboh",
    )
    after, _ = apply(state, Fire("A1", "B1", hit_and_run=True), Dice.forced([3]))
    assert after.reacting is not None and after.reacting.kind == "fire" and after.acting == "B"
    assert legal_actions(after) == [Decline(), React(return_fire=True)]
    done, _ = apply(after, React(return_fire=True), Dice.forced([2]))
    assert done.units["A1"].missile_hits == 1 and done.acting == "A"


def test_the_ai_turns_to_face_a_flank_attack() -> None:
    state = _flank_approach(unit("B1", "B", "1008", facing=2, tq=8))
    after, _ = apply(state, Move("A1", ("1109",)), Dice.forced([]))
    choice = TacticalAI(1).choose(after)
    assert choice == React(reaction=Reaction("B1", "1109", face=4))


def test_the_ai_declines_a_pointless_reaction_and_every_choice_is_legal() -> None:
    state = _withdraw_approach()
    after, _ = apply(state, Move("A1", ("1009", "1008", "1007")), Dice.forced([]))
    choice = TacticalAI(1).choose(after)
    assert choice in legal_actions(after)


def test_the_ai_retreats_cavalry_before_a_bad_shock() -> None:
    state = position(
        [
            unit("A1", "A", "1009", tq=8, size=10),
            unit("A2", "A", "0908", facing=2, tq=8, size=10),
            unit("B1", "B", "1008", facing=6, utype="LC", ma=9, size=2, tq=4),
        ],
        rules="sgboh",
        sequence={"side": "A", "phase": "shock"},
    )
    state.designations = [(("A1", "A2"), "B1")]
    state.designating = False
    after, _ = apply(state, Shock(("A1", "A2"), "B1"), Dice.forced([]))
    choice = TacticalAI(1).choose(after)
    assert isinstance(choice, React) and choice.rbc is not None


def test_greedy_takes_reaction_fire() -> None:
    state = position(
        [unit("A1", "A", "1009"), unit("B1", "B", "1008", facing=6, utype="LI", missile="J", ma=7, size=4)],
        rules="sgboh",
        sequence={"side": "A", "phase": "shock"},
    )
    state.designations = [(("A1",), "B1")]
    state.designating = False
    after, _ = apply(state, Shock(("A1",), "B1"), Dice.forced([]))
    assert GreedyPlayer().choose(after) == React(fire="A1")


def test_a_battle_saved_while_a_reaction_waits_loads_back(tmp_path: Path) -> None:
    from tactical.ai_baselines import RandomPlayer

    s: Session = Session(TacticalEngine(), "pharsalus", 4)  # type: ignore[type-arg]
    players = {"A": RandomPlayer(1), "B": RandomPlayer(2)}
    for _ in range(3000):
        if s.state.reacting is not None:
            break
        s.play(players[s.state.acting].choose(s.state))
    assert s.state.reacting is not None
    assert encode_state(s.state)["reacting"]["side"] == s.state.acting
    path = s.save(tmp_path / "battle.json")
    loaded = Session.load(TacticalEngine(), path)
    assert loaded.checksum() == s.checksum()
    assert loaded.state.reacting == s.state.reacting


def test_the_ai_answers_a_mover_that_may_not_attack_it() -> None:
    """Skirmishers never shock attack (003 §9.3): no threat to turn against, so no turn."""
    state = position(
        [unit("A1", "A", "1110", utype="SK", ma=8, size=1, missile="J"), unit("B1", "B", "1008", facing=2)],
        rules="sgboh",
    )
    after, _ = apply(state, Move("A1", ("1109",)), Dice.forced([]))
    assert after.reacting is not None
    assert TacticalAI(1).choose(after) == Decline()
