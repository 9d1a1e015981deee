"""Issue 4 acceptance: random playouts to the end of the battle, invariants after every action,
the same seed giving the same game.  The full 200 games run with BELLUM_SLOW=1 (about
fifteen minutes on two cores); the normal suite plays a sample."""

from __future__ import annotations

import os

import pytest

from tactical.state import State
from tests.tactical.playout import play
from tests.tactical.test_invariants import check_invariants

#: all 200 with BELLUM_SLOW=1; otherwise two quick games as a sample
SEEDS = range(200) if os.environ.get("BELLUM_SLOW") else (3, 45)


def invariants(state: State) -> None:
    check_invariants(state)
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
    a, log_a = play(7, lambda s: None, max_actions=400)
    b, log_b = play(7, lambda s: None, max_actions=400)
    _c, log_c = play(8, lambda s: None, max_actions=400)
    assert log_c != log_a
    assert log_a == log_b and a.winner == b.winner and a.rout_points == b.rout_points
