"""500 battles, land and naval, played with random legal actions through the validating
``apply``: no exception, and every invariant holds after every action."""

from __future__ import annotations

import pytest

from battleboard.cases import snapshot_of
from battleboard.model import Action, State
from battleboard.resolve import state_from_engagement
from battleboard.rules import Chance, apply, legal_actions, play
from bellum.dice import Dice
from bellum.errors import RuleError
from tests.battleboard.helpers import land_engagement, naval_engagement
from tests.battleboard.invariants import check_invariants

ENGAGEMENTS = [
    land_engagement(6, "field"),
    land_engagement(5, "pass"),
    land_engagement(6, "river"),
    land_engagement(5, "city"),
    land_engagement(5, "hills"),
    land_engagement(6, "coast"),
    naval_engagement(3, "mutual"),
    naval_engagement(3, "supply"),
    naval_engagement(4, "interception"),
    naval_engagement(2, "mutual"),
]


def random_battle(start: State, seed: int) -> State:
    chooser = Dice(seed)
    dice = Dice(seed + 1_000_003)
    s = start
    total = {side: sum(u.strength for u in s.units.values() if u.owner == side) for side in ("A", "B")}
    check_invariants(s, total)
    for _ in range(5_000):
        if s.phase == "over":
            return s
        acts = legal_actions(s)
        # end the player turn one time in twenty, otherwise any other legal action
        others = [a for a in acts if a.verb != "end_turn"]
        if not others or (chooser.d10("end?") == 0 and chooser.d6("end?") > 3):
            action = acts[-1] if acts[-1].verb == "end_turn" else acts[0]
        else:
            action = others[(chooser.roll(100, "pick") - 1) % len(others)]
        legal_actions(s)  # fills the contact cache that the next action must keep true
        s, _, _ = apply(s, action, dice)
        check_invariants(s, total)
        # a refused action leaves the state untouched
        if chooser.d10("probe") == 0:
            before = snapshot_of(s)
            with pytest.raises(RuleError):
                apply(s, Action("move", "nobody-such", to=0), dice)
            assert snapshot_of(s) == before
    raise AssertionError("a random battle did not end")


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(ENGAGEMENTS)), ids=[e.id for e in ENGAGEMENTS])
def test_random_playouts(index: int) -> None:
    start = state_from_engagement(ENGAGEMENTS[index])
    for seed in range(50):  # 10 engagements x 50 = 500 battles
        final = random_battle(start, seed * 31 + index)
        assert final.phase == "over"
        assert final.winner in ("A", "B", None)


@pytest.mark.parametrize("index", [0, 1, 6, 8], ids=[ENGAGEMENTS[i].id for i in (0, 1, 6, 8)])
def test_in_place_play_keeps_its_caches_true(index: int) -> None:
    """The auto-resolve plays in place (``play``), keeping caches between actions."""
    for seed in range(10):
        s = state_from_engagement(ENGAGEMENTS[index]).clone()
        total = {side: sum(u.strength for u in s.units.values() if u.owner == side) for side in ("A", "B")}
        chooser = Dice(seed)
        chance = Chance(Dice(seed + 77))
        for _ in range(5_000):
            if s.phase == "over":
                break
            acts = legal_actions(s)
            others = [a for a in acts if a.verb != "end_turn"] or acts
            a = acts[-1] if chooser.d10("end?") == 0 else others[(chooser.roll(100, "pick") - 1) % len(others)]
            play(s, a, chance)
            check_invariants(s, total)
        assert s.phase == "over"
