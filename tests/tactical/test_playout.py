"""Issue 4 acceptance: random playouts to the end of the battle, invariants after every action,
the same seed giving the same game.  All 200 games run by default, one test item per game so
``pytest -n 2`` spreads them (about four to six minutes of CPU in all, docs/PERFORMANCE.md);
``-m "not slow"`` leaves them out of a quick local run."""

from __future__ import annotations

import pytest

from bellum.dice import Dice
from tactical.actions import Decline
from tactical.engine import apply
from tactical.legal import legal_actions
from tactical.state import State
from tests.tactical.playout import play
from tests.tactical.test_invariants import check_invariants

#: the 200 games of the acceptance test (issue 4)
SEEDS = range(200)


def invariants(state: State) -> None:
    check_invariants(state)
    if state.reacting is not None:
        # a pending reaction is the defender's to take, offers a real choice, and can always be
        # resolved: declining is accepted (docs/rules/tactical.md §8.13); before a rampage either
        # side may be asked (000 §6.51: friend or foe of the elephant, §8.7)
        acts = legal_actions(state)
        assert state.acting != state.seq.side or state.reacting.kind == "rampage"
        assert Decline() in acts and len(acts) > 1, acts
        after, _ = apply(state, Decline(), Dice(0))
        assert after.acting == after.seq.side or after.reacting != state.reacting
    for u in state.units.values():
        assert u.status in ("full", "disordered", "routed", "eliminated", "off_map")
        if not u.on_map:
            assert u.hex == -1 and not u.engaged
        if u.on_map:
            assert u.missile_hits <= u.tq, f"{u.id} has more hits than its TQ and is still on the map"
    enemy_hexes = {s: {h for u in state.units.values() if u.on_map and u.side != s for h in u.hexes()} for s in "AB"}
    for ld in state.leaders.values():
        if ld.on_map:
            assert ld.hex not in enemy_hexes[ld.side], f"{ld.id} stands with the enemy"
    if state.seq.phase == "over":
        assert state.winner in ("A", "B")


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout_reaches_the_end(seed: int) -> None:
    state, log = play(seed, invariants)
    assert state.seq.phase == "over", f"game {seed} did not end in {len(log)} actions"


def test_same_seed_same_game() -> None:
    from tactical.game import encode_state

    a, log_a = play(7, lambda s: None)
    b, log_b = play(7, lambda s: None)
    _c, log_c = play(8, lambda s: None, max_actions=400)
    assert log_c[:400] != log_a[:400]
    assert log_a == log_b and encode_state(a) == encode_state(b)
