"""``TacticalEngine``: the one tactical battle engine, a ``bellum.session.Engine`` (play,
undo, save/load) used by the window, ``bellum battle``, the cases, the AI and the campaign.

``new_state`` opens a scenario (by bare name or path), a position written in the
rules-case notation (``cases/FORMAT.md``) or the demo field (``DEMO``).  A scenario
settles who goes first (003 §3.3, 000 §3.3: the scenario may fix the side; otherwise the
``start`` roll of the sequence module); a position says where the sequence stands.
Actions are stored in saves as their written notation (``tactical.actions``), so a save
reads like a game record.  Undo is allowed only within one activation (issue 5 §5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from functools import cache
from typing import Any

from bellum.dice import Dice
from bellum.errors import InputError, RuleError
from bellum.events import Event
from bellum.saves import Engine as EngineName
from bellum.tomlio import read_toml, validate
from tactical import engine, legal
from tactical.actions import Action, parse_action
from tactical.models import PositionIn, build_state
from tactical.scenario import Scenario, load_scenario, resolve
from tactical.sequence import who_goes_first
from tactical.state import State

#: the demo field's name (``tactical.demo``): a position, not a scenario
DEMO = "demo"
#: the position keys of ``cases/FORMAT.md`` (a case file's other keys are its steps)
_POSITION_KEYS = frozenset(PositionIn.model_fields)


def is_position_file(path: str) -> bool:
    """Whether ``path`` is a position in the case notation (a scenario names its sides)."""
    try:
        raw = read_toml(path)
    except InputError:
        return False
    return "map" in raw and "units" in raw and "sides" not in raw


def is_position(name: str) -> bool:
    """Whether ``name`` opens as a position (the demo field or a position file)."""
    return name == DEMO or is_position_file(name)


def load_position(name: str) -> State:
    """The state of the demo field or of a position file (validated like a case)."""
    if name == DEMO:
        from tactical.demo import demo_position

        return build_state(validate(PositionIn, demo_position(), "demo field"), "demo field")
    raw = read_toml(name)
    return build_state(validate(PositionIn, {k: v for k, v in raw.items() if k in _POSITION_KEYS}, name), name)


@cache
def load(name: str) -> Scenario:
    """A scenario by bare name or path, loaded once (its state is never modified)."""
    return load_scenario(resolve(name))


def opening(sc: Scenario, dice: Dice) -> State:
    """A fresh copy of the scenario's state with the side to go first settled."""
    state = sc.state.copy()
    first = sc.model.first
    events: list[Event] = []
    who_goes_first(state, dice, events, first=None if first == "roll" else first)
    return state


class TacticalEngine:
    """The tactical battle's ``Engine`` for ``bellum.session.Session``."""

    name: EngineName = "tactical"

    def new_state(self, scenario: str, dice: Dice) -> State:
        if is_position(scenario):
            return load_position(scenario)
        return opening(load(scenario), dice)

    def apply(self, state: State, action: Action, dice: Dice) -> tuple[State, list[Event]]:
        return engine.apply(state, action, dice)

    def legal_actions(self, state: State) -> Sequence[Action]:
        return legal.legal_actions(state)

    def encode_action(self, action: Action) -> dict[str, Any]:
        return {"action": action.notation()}

    def decode_action(self, raw: dict[str, Any]) -> Action:
        text = raw.get("action")
        if not isinstance(text, str):
            raise RuleError("a saved tactical action is {action = '<notation>'}")
        return parse_action(text)

    def encode_state(self, state: State) -> dict[str, Any]:
        return encode_state(state)

    def may_undo(self, before: State, after: State) -> bool:
        """Only within the same activation: same side, same leader or group, still acting."""
        b, a = before.seq, after.seq
        return (
            b.phase in ("move", "shock", "rally")
            and a.phase in ("move", "shock", "rally")
            and (b.side, b.leader, b.group, b.streak) == (a.side, a.leader, a.group, a.streak)
        )


def encode_state(state: State) -> dict[str, Any]:
    """Everything that changes in play, as plain data (for saves and the drift checksum)."""
    grid = state.field.grid
    s = state.seq
    return {
        "units": {
            u.id: [
                grid.hex_id(u.hex) if u.hex >= 0 else None,
                grid.hex_id(u.hex2) if u.hex2 >= 0 else None,
                u.facing,
                u.status,
                u.missile_hits,
                u.engaged,
                u.column,
                u.reduced,
                u.tq,
                u.size,
            ]
            for u in sorted(state.units.values(), key=lambda x: x.id)
        },
        "leaders": {
            ld.id: [grid.hex_id(ld.hex) if ld.hex >= 0 else None, ld.status, ld.finished, ld.overall, ld.initiative]
            for ld in sorted(state.leaders.values(), key=lambda x: x.id)
        },
        "sequence": [(list(v) or None) if isinstance(v, tuple) else v for v in (getattr(s, f.name) for f in fields(s))],
        "activation": {
            k: sorted(getattr(state, k)) for k in ("moved", "fought", "reacted", "fired", "broke", "rallied")
        },
        "rout_points": dict(state.rout_points),
        "winner": state.winner,
        # the Shock segment's designations (003 §8.3) and the regroup box (001 10.43)
        "designations": [[list(atts), d] for atts, d in state.designations],
        "designating": state.designating,
        "regrouping": sorted(state.regrouping),
        # the defender's decision the game waits on (docs/rules/tactical.md §8.13)
        "reacting": encode_pending(state),
    }


def encode_pending(state: State) -> dict[str, Any] | None:
    """``state.reacting`` as plain data: what waits (its notation) and where a move stands."""
    p = state.reacting
    if p is None:
        return None
    grid = state.field.grid
    return {
        "kind": p.kind,
        "side": p.side,
        "action": p.action.notation(),
        "at": grid.hex_id(p.at) if p.at >= 0 else None,
        "spent": p.spent,
        "start": grid.hex_id(p.start) if p.start >= 0 else None,
        "before": [grid.hex_id(h) for h in p.before],
        "done": sorted(p.done),
        "changed": p.changed,
    }
