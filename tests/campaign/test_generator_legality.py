"""Legality from the generator (issue 14 item 4): the campaign engine plays every action its one
legal-action generator offers, and refuses — with a sentence, the state and the dice untouched —
random actions it does not offer."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign import actions as A
from campaign.engine import CampaignEngine, legal_actions, load, offered
from campaign.map import roman_world
from campaign.state import CampaignState, encode_state, initial_state
from tests.legality import check_legality, random_walk

ENGINE = CampaignEngine()


def _strangers(state: CampaignState, pick: st.DataObject) -> list[A.Action]:
    forces = sorted(state.forces)
    f, g = pick.draw(st.sampled_from(forces)), pick.draw(st.sampled_from(forces))
    to = pick.draw(st.sampled_from(sorted(roman_world().spaces)))
    return [
        A.March(f, to, (to,)),
        A.Sail(f, to, (to,)),
        A.Merge(f, g),
        A.Battle(to, 0),
        A.Storm(to, f),
        A.Take("military"),
        A.Recruit(to, "legion"),
        A.Commit(0),
        A.Decline(),
        A.EndPhase(),
        A.Pass(),
    ]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.integers(0, 40), seed=st.integers(1, 10_000), pick=st.data())
def test_generated_actions_apply_and_others_are_refused_untouched(steps: int, seed: int, pick: st.DataObject) -> None:
    state = random_walk(initial_state(load("49bc")), steps, seed, legal_actions, ENGINE.apply)
    check_legality(
        state,
        legal_actions(state),
        _strangers(state, pick),
        apply=ENGINE.apply,
        offered=offered,
        snapshot=encode_state,
        pick=pick,
        seed=seed,
        parse=A.parse_action,
    )
