"""Issue 3 acceptance: random legal move sequences keep every invariant; refused actions change nothing."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bellum.dice import Dice
from bellum.errors import RuleError
from tactical.actions import Continuity, Move, Pass
from tactical.cases import state_key
from tactical.engine import apply, apply_with_choices
from tactical.hexes import FACING_CLOCK, SIDE_CLOCK
from tactical.movement import movement_allowance, organisation, reachable
from tactical.state import State
from tactical.tables import NO, move_tables
from tests.tactical.randpos import random_position


def check_invariants(state: State) -> None:
    t = move_tables()
    field = state.field
    per_hex: dict[int, list] = {}  # type: ignore[type-arg]
    for u in state.units.values():
        if not u.on_map:
            continue
        assert 0 <= u.facing < 6
        for h in u.hexes():
            assert 0 <= h < field.grid.size
            assert t.hex_cost[u.move_class()][field.terrain[h]] < NO, f"{u.id} in prohibited terrain"
            per_hex.setdefault(h, []).append(u)
    # a move waiting on the defender's reaction may stand in a friend's hex it is passing
    # through (003 §6.92; docs/rules/tactical.md §8.13): the stacking rules bind where it ends
    p = state.reacting
    passing = (p.action.carry or p.action.unit) if p is not None and p.kind == "move" else None
    for h, here in per_hex.items():
        assert len({u.side for u in here}) == 1, f"enemies share {field.grid.hex_id(h)}"
        if passing is not None and any(u.id == passing for u in here):
            continue
        if len(here) > 1:
            assert len(here) == 2 and state.spqr, f"illegal stack in {field.grid.hex_id(h)}"
            a, b = here
            assert a.roman and b.roman and a.facing == b.facing and not a.double and not b.double
            assert a.skirmisher != b.skirmisher or organisation(a.group) == organisation(b.group)


def _random_path(state: State, uid: str, dice: Dice) -> tuple[str, ...]:
    g = state.field.grid
    u = state.units[uid]
    i = u.hex
    path = []
    for _ in range(dice.roll(4, "len")):
        if dice.roll(3, "kind") == 1:
            path.append(f"face:{FACING_CLOCK[dice.roll(6, 'f') - 1]}")
        else:
            nb = list(g.neighbours(i))
            i = nb[dice.roll(len(nb), "n") - 1]
            path.append(g.hex_id(i))
    return tuple(path)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 100_000), st.sampled_from(["sgboh", "simple-spqr"]))
def test_random_move_sequences_keep_the_invariants(seed: int, rules: str) -> None:
    state = random_position(seed, rules=rules)
    state.seq.phase = "move"
    state.seq.side = "A"
    chooser = Dice(seed + 1)
    rules_dice = Dice(seed + 2)
    check_invariants(state)
    moves = refused = 0
    for _ in range(40):
        side = state.seq.side
        if state.seq.phase != "move":
            # hand the sequence on: Continuity is rolled by its own dice; no leaders, so use groups
            mine = sorted(u.id for u in state.units.values() if u.side == state.seq.side and u.on_map)[:3]
            if state.seq.phase == "continuity" and state.seq.streak < 3 and mine:
                action = Continuity(group=tuple(mine))
            elif state.seq.phase == "activation" and mine:
                from tactical.actions import Activate

                action = Activate(group=tuple(mine))
            else:
                action = Pass()
            state, _ = apply(state, action, rules_dice)
            check_invariants(state)
            continue
        movers = [
            u
            for u in state.units.values()
            if u.side == side
            and u.on_map
            and u.id not in state.moved
            and not u.engaged
            and u.status != "routed"
            and (state.seq.group is None or u.id in state.seq.group)
        ]
        if not movers or chooser.roll(8, "pass") == 1:
            state, _ = apply(state, Pass(), rules_dice)
            check_invariants(state)
            continue
        u = movers[chooser.roll(len(movers), "who") - 1]
        # a refused random path leaves the state exactly as it was
        before = state_key(state)
        path = _random_path(state, u.id, chooser)
        rolls = len(rules_dice.rolls)
        try:
            state2, _ = apply_with_choices(state, Move(u.id, path), rules_dice)
        except RuleError:
            refused += 1
            assert state_key(state) == before
            assert len(rules_dice.rolls) == rolls, "a refused move rolled dice"
        else:
            check_invariants(state2)
        # then a legal move chosen from the generator
        reach = reachable(state, u)
        ends = [n for n in reach.ends() if n != reach.costs.start]
        if not ends:
            continue
        node = ends[chooser.roll(len(ends), "where") - 1]
        g = state.field.grid
        path = tuple(
            g.hex_id(v) if k == "hex" else f"face:{SIDE_CLOCK[v] if u.column else FACING_CLOCK[v]}"
            for k, v in reach.tokens(node)
        )
        state, _ = apply_with_choices(state, Move(u.id, path), rules_dice)
        moves += 1
        assert state.last_mp is not None and state.last_mp <= movement_allowance(state.units[u.id])
        check_invariants(state)
    assert moves > 0 and refused > 0
