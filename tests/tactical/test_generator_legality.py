"""Legality from the generator (issue 14 item 4): the tactical engine object plays every action
the one legal-action generator offers, and refuses — with a sentence, the state and the dice
untouched — random actions it does not offer."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tactical.actions import Action, Activate, Designate, Fire, Move, Rally, parse_action
from tactical.engine import apply
from tactical.game import TacticalEngine, encode_state, offered
from tactical.legal import legal_actions
from tactical.state import State
from tests.legality import check_legality, random_walk
from tests.tactical.playout import battle

ENGINE = TacticalEngine()


def _strangers(state: State, pick: st.DataObject) -> list[Action]:
    """Actions built from the pieces on the field, most of them not offered now."""
    units = sorted(state.units)
    grid = state.field.grid
    u = pick.draw(st.sampled_from(units))
    v = pick.draw(st.sampled_from(units))
    here = state.units[u].hex
    near = [grid.hex_id(h) for h in grid.neighbours(here)] if here >= 0 else []
    two = [grid.hex_id(h) for n in (grid.neighbours(here) if here >= 0 else []) for h in grid.neighbours(n)]
    return [
        Move(u, (grid.hex_id(pick.draw(st.integers(0, grid.size - 1))),)),
        *([Move(u, (pick.draw(st.sampled_from(near)),))] if near else []),
        *([Move(u, (pick.draw(st.sampled_from(near)), pick.draw(st.sampled_from(two))))] if two else []),
        Fire(u, v),
        Activate(leader=pick.draw(st.sampled_from(sorted(state.leaders)))),
        Rally(v),
        Designate((u,), v),
    ]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.integers(0, 60), seed=st.integers(1, 10_000), pick=st.data())
def test_generated_actions_apply_and_others_are_refused_untouched(steps: int, seed: int, pick: st.DataObject) -> None:
    state = random_walk(battle(), steps, seed, legal_actions, apply)
    check_legality(
        state,
        legal_actions(state),
        _strangers(state, pick),
        apply=ENGINE.apply,
        offered=offered,
        snapshot=encode_state,
        pick=pick,
        seed=seed,
        parse=parse_action,
    )
