"""The property every engine's generator and ``apply`` share (issue 14 item 4): a generated
action is never refused; an action the generator does not offer is refused with a sentence,
leaving the state and the dice untouched; and every generated action's notation reads back
to the same action (the one action style, ``bellum.actions``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import strategies as st

from bellum.dice import Dice
from bellum.errors import RuleError


def check_legality(
    state: Any,
    generated: Sequence[Any],
    strangers: Sequence[Any],
    *,
    apply: Callable[[Any, Any, Dice], object],
    offered: Callable[[Any, Any], bool],
    snapshot: Callable[[Any], object],
    pick: st.DataObject,
    seed: int,
    parse: Callable[[str], Any],
) -> None:
    for action in generated:  # one action style (bellum.actions): every offered action reads back
        assert parse(action.notation()) == action, action.notation()
    for action in pick.draw(st.lists(st.sampled_from(list(generated)), max_size=5)) if generated else []:
        apply(state, action, Dice(seed))  # a generated action is never refused
    before, dice = snapshot(state), Dice(seed)
    for action in strangers:
        if offered(state, action):
            continue
        try:
            apply(state, action, dice)
        except RuleError as why:
            assert str(why).strip(), action
        else:
            raise AssertionError(f"{action} was played though the generator does not offer it")
        assert snapshot(state) == before and dice.counter == 0 and not dice.rolls, action


def random_walk(state: Any, steps: int, seed: int, legal: Callable[[Any], Sequence[Any]], apply: Any) -> Any:
    """``state`` after ``steps`` actions chosen uniformly among the generator's (``apply``
    returns the new state first)."""
    dice, chooser = Dice(seed), Dice(seed ^ 0x5EED)
    for _ in range(steps):
        acts = legal(state)
        if not acts:
            break
        state = apply(state, acts[chooser.roll(len(acts), "choice") - 1], dice)[0]
    return state
