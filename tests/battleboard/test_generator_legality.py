"""Legality from the generator (issue 14 item 4): every action the battleboard's one generator
offers applies, and random actions it does not offer are refused — with a sentence, the state
and the dice untouched."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battleboard.actions import parse_action
from battleboard.ai import play_turn
from battleboard.cases import snapshot_of
from battleboard.model import OFF, Action, State
from battleboard.resolve import state_from_engagement
from battleboard.rules import Chance, apply, legal_actions, move_destinations, play
from bellum.dice import Dice
from tests.battleboard.helpers import land_engagement, naval_engagement
from tests.legality import check_legality


def _reach(naval: bool, turns: int, seed: int) -> State:
    s = state_from_engagement(naval_engagement() if naval else land_engagement())
    chance = Chance(Dice(seed))
    for _ in range(turns):
        if s.phase == "over":
            break
        play_turn(s, chance, None)
    return s


def _strangers(s: State, pick: st.DataObject) -> list[Action]:
    ids = sorted(s.units) + sorted(s.leaders)
    u, v = pick.draw(st.sampled_from(ids)), pick.draw(st.sampled_from(ids))
    square = pick.draw(st.integers(-1, s.cfg.board.columns * s.cfg.board.rows))
    return [
        Action("move", u, to=square),
        Action("attack", u, target=v, mode=pick.draw(st.sampled_from(["melee", "missile", "ram", "fire"]))),
        Action("double"),
        Action("withdraw"),
        Action("command"),
        Action("end_turn"),
    ]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(naval=st.booleans(), turns=st.integers(0, 6), seed=st.integers(1, 10_000), pick=st.data())
def test_generated_actions_apply_and_others_are_refused_untouched(
    naval: bool, turns: int, seed: int, pick: st.DataObject
) -> None:
    s = _reach(naval, turns, seed)
    acts = legal_actions(s)
    offered_now = set(acts)
    check_legality(
        s,
        acts,
        _strangers(s, pick),
        apply=apply,
        offered=lambda s, a: a in offered_now,
        snapshot=snapshot_of,
        pick=pick,
        seed=seed,
        parse=parse_action,
    )


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(naval=st.booleans(), turns=st.integers(0, 8), seed=st.integers(1, 10_000), moved=st.integers(0, 4))
def test_move_destinations_are_the_generators_moves(naval: bool, turns: int, seed: int, moved: int) -> None:
    """What the AI reads (``move_destinations``) is what the generator offers each unit, in
    the generator's order, before and after some units have moved."""
    s = _reach(naval, turns, seed)
    if s.phase == "command":
        play(s, Action("command"), Chance(Dice(seed)))
    for step in range(moved + 1):
        for u in s.units.values():
            squares, leave = move_destinations(s, u)
            expected = [a.to for a in legal_actions(s, u.id, "move") if a.verb == "move"]
            assert [*squares, *([OFF] if leave else [])] == expected, u.id
        moves = [a for a in legal_actions(s) if a.verb == "move" and a.unit in s.units]
        if step == moved or not moves or s.phase != "move":
            break
        s, _, _ = apply(s, moves[(seed + step) % len(moves)], Dice(seed))
