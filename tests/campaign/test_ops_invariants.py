"""Random legal campaign play keeps every invariant (docs/rules/campaign.md §7.6).

For 40 turns of random legal actions (battles auto-resolved on the battleboard):
- every unit is in exactly one force, every leader with at most one force and never
  both in play and dead or captive;
- no strength is below 1 or above the kind's full strength;
- every change of a unit's strength is recorded by the event that caused it
  (``losses`` / ``gains``), so the scenario plus the events give every strength.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bellum.dice import Dice
from campaign.actions import EndPhase
from campaign.ai import CampaignAI
from campaign.engine import CampaignEngine, legal_actions, load
from campaign.state import CampaignState, initial_state
from campaign.units import catalogue

ENGINE = CampaignEngine()


def check(state: CampaignState, ledger: dict[str, int]) -> None:
    cat = catalogue()
    seen = Counter(u.id for f in state.forces.values() for u in f.units)
    assert all(n == 1 for n in seen.values()), [k for k, n in seen.items() if n > 1]
    leaders = Counter(ld for f in state.forces.values() for ld in f.leaders)
    assert all(n == 1 for n in leaders.values())
    assert not set(leaders) & (set(state.dead) | set(state.captives))
    for f in state.forces.values():
        assert f.units or f.leaders
        if f.commander is not None:
            assert f.commander in f.leaders
        for u in f.units:
            assert 1 <= u.strength <= cat.kind(u.kind).strength, (u.id, u.strength)
            assert u.aboard is None or any(x.id == u.aboard for x in f.units)
    now = {u.id: u.strength for f in state.forces.values() for u in f.units}
    for uid, sp in ledger.items():
        assert now.get(uid, 0) == sp, (uid, now.get(uid, 0), sp)
    assert set(now) <= set(ledger)
    for side in ("caesarian", "senatorial"):
        assert all(v >= 0 for v in state.stratagems[side].values())


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32), picks=st.integers(min_value=0, max_value=2**32))
def test_random_legal_play_for_40_turns_keeps_every_invariant(seed: int, picks: int) -> None:
    state = initial_state(load("49bc"))
    ledger = {u.id: u.strength for f in state.forces.values() for u in f.units}
    dice = Dice(seed)
    chooser = Dice(picks)
    check(state, ledger)
    ai = CampaignAI()
    steps = 0
    while state.turn < 40 and not state.result:  # the war may end early (campaign.md §21)
        acts = legal_actions(state)
        assert acts, f"no legal action in {state.phase}"
        # end a phase only one time in eight when there is something else to do, so that
        # random armies wander far enough to meet, besiege and fight
        others = [a for a in acts if not isinstance(a, EndPhase)]
        if others and len(others) < len(acts) and chooser.roll(8, "end?") > 1:
            acts = others
        action = acts[chooser.roll(len(acts), "pick") - 1]
        if chooser.roll(2, "ai?") == 1:
            action = ai.choose(state)  # half the time the AI's pick: it seeks battles and sieges
            assert action in acts or action in legal_actions(state)
        state, events = ENGINE.apply(state, action, dice)
        for e in events:
            for uid, sp in e.data.get("losses", {}).items():
                ledger[uid] -= sp
            for uid, sp in e.data.get("gains", {}).items():
                ledger[uid] = ledger.get(uid, 0) + sp  # recruits arrive with their gains (§17.1)
        check(state, ledger)
        steps += 1
        assert steps < 40 * 400
