"""The legal-action generator's shortcuts are exact (docs/rules/tactical.md §6): a leader's moves
with a stacked unit, the fire filters and the move cache give what the direct checks give."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bellum.dice import Dice
from bellum.errors import MissingRollError, RuleError
from tactical.actions import Fire, Move
from tactical.engine import apply, check_may_move
from tactical.legal import Snapshot, _cached_moves, _carry_actions, _fresh_moves, move_actions, snapshot
from tactical.state import State
from tests.tactical.playout import play
from tests.tactical.randpos import random_position


# -- a leader taking a stacked unit with him (003 §4.2) -----------------------------------------
def _reference_carry(state: State, leader_id: str) -> set[Move]:
    """The carry moves the engine accepts: each of the unit's moves tried through ``apply``."""
    out = set()
    leader = state.leaders[leader_id]
    for u in state.units_at(leader.hex):
        if u.side != leader.side:
            continue
        for m in move_actions(state, u):
            carry = Move(leader_id, m.path, carry=u.id)
            try:
                apply(state, carry, Dice.forced([]))
            except RuleError:
                continue
            except MissingRollError:
                pass
            out.add(carry)
    return out


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 50))
def test_carry_moves_are_exactly_those_the_engine_accepts(seed: int, pick: int) -> None:
    state = random_position(seed)
    mine = sorted((u for u in state.units.values() if u.on_map and u.side == "A" and not u.double), key=lambda u: u.id)
    if not mine:
        return
    u = mine[pick % len(mine)]
    from tactical.state import Leader

    state.leaders["LX"] = Leader("LX", "A", u.hex, 5, 4, ma=6 + pick % 8)
    state.seq.leader = "LX"
    state.cache.clear()
    assert set(_carry_actions(state, state.leaders["LX"], snapshot(state))) == _reference_carry(state, "LX")


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000))
def test_fire_actions_equal_every_check_over_every_pair(seed: int) -> None:
    """The generator's range and zone filters drop only pairs the engine's checks refuse."""
    from tactical.combat import fire_check, hit_and_run_check, hit_and_run_zone
    from tactical.legal import _fire_actions

    state = random_position(seed, n_units=18)
    arms = {"LI": "J", "SK": "A", "LC": "MJ", "MI": "B", "HI": "S"}
    for k, u in enumerate(sorted(state.units.values(), key=lambda u: u.id)):
        if u.type in arms and k % 3:
            u.missile = arms[u.type]
    own = sorted((u for u in state.units.values() if u.side == "A" and u.on_map), key=lambda u: u.id)
    expected = set()
    for u in own:
        if u.missile is None:
            continue
        zone = hit_and_run_zone(state, u) if u.type in ("SK", "SK*", "LI", "LC") and u.status == "full" else None
        for e in state.units.values():
            if not e.on_map or e.side == "A":
                continue
            try:
                fire_check(state, u, e)
                expected.add(Fire(u.id, e.id))
            except RuleError:
                pass
            if zone is not None:
                try:
                    hit_and_run_check(state, u, e, zone)
                    expected.add(Fire(u.id, e.id, hit_and_run=True))
                except RuleError:
                    pass
    assert set(_fire_actions(state, own)) == expected
    counts.append(len(expected))


counts: list[int] = []


def test_fire_actions_were_not_vacuous() -> None:
    """Runs after the property test above (file order): some positions had fire to offer."""
    assert not counts or max(counts) > 0


def test_cached_moves_equal_fresh_searches_along_random_games() -> None:
    """After every action of two random games, each unit's moves from the cache equal a new
    search (the cache is hit often: the check counts it)."""
    hits = [0, 0]

    def check(state: State) -> None:
        if state.seq.phase != "move":
            return
        for u in state.units.values():
            if u.side != state.seq.side or not u.on_map:
                continue
            try:
                check_may_move(state, u)
            except RuleError:
                continue
            fresh = _fresh_moves(state, u)[0]
            stored = {id(entry[2]) for key, entry in state.field.move_cache.items() if key is not Snapshot}
            cached = _cached_moves(state, u, snapshot(state))
            hits[0] += id(cached) in stored  # reused from an earlier position
            hits[1] += 1
            assert cached == fresh, u.id

    for seed in (5, 6):
        play(seed, check, max_actions=600)
    assert hits[1] > 100 and hits[0] > 0


def test_cached_designations_equal_fresh_ones_along_random_games() -> None:
    """After every action of three random games, the designations ``legal_actions`` offers
    (cached while the position and the activation stand) equal fresh ones (the cache is hit:
    the check counts it)."""
    from tactical.legal import _DESIGNATIONS, _cached_designations, _designations

    hits = [0, 0]

    def check(state: State) -> None:
        if not (state.seq.phase == "move" or (state.seq.phase == "shock" and state.designating)):
            return
        own = sorted((u for u in state.units.values() if u.side == state.seq.side and u.on_map), key=lambda u: u.id)
        before = state.field.move_cache.get(_DESIGNATIONS)
        cached = _cached_designations(state, own)
        hits[0] += before is not None and state.field.move_cache.get(_DESIGNATIONS) is before
        hits[1] += 1
        assert cached == _designations(state, own)

    for seed in (5, 6, 7):
        play(seed, check, max_actions=600)
    assert hits[1] > 100 and hits[0] > 0
