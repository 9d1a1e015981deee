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
from bellum.errors import BellumError, InputError, RuleError
from bellum.events import Event
from bellum.saves import Engine as EngineName
from bellum.tomlio import read_toml, validate
from tactical import engine, legal
from tactical.actions import Action, Activate, Continuity, Designate, Face, Fire, Move, Shock, parse_action
from tactical.models import PositionIn, build_state
from tactical.scenario import Scenario, load_scenario, resolve
from tactical.sequence import who_goes_first
from tactical.state import Leader, State, Unit

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
def load(name: str, options: tuple[str, ...] | None = None) -> Scenario:
    """A scenario by bare name or path, loaded once (its state is never modified); with
    ``options`` (tactical/options.py) under the optional rules a player chose instead of its own."""
    return load_scenario(resolve(name), options)


def opening_events(sc: Scenario, dice: Dice) -> tuple[State, list[Event]]:
    """A fresh copy of the scenario's state with the side to go first settled, and the
    events of settling it."""
    state = sc.state.copy()
    first = sc.model.first
    events: list[Event] = []
    who_goes_first(state, dice, events, first=None if first == "roll" else first)
    return state, events


def opening(sc: Scenario, dice: Dice) -> State:
    """A fresh copy of the scenario's state with the side to go first settled."""
    return opening_events(sc, dice)[0]


class TacticalEngine:
    """The tactical battle's ``Engine`` for ``bellum.session.Session``."""

    name: EngineName = "tactical"

    def new_state(self, scenario: str, dice: Dice) -> State:
        if is_position(scenario):
            return load_position(scenario)
        return opening(load(scenario), dice)

    def new_state_with(self, scenario: str, dice: Dice, options: Sequence[str]) -> State:
        """The scenario under the optional rules ``options`` (the options screen; a save's
        ``[save] options``), which replace its own; a position carries its own rules."""
        if is_position(scenario):
            raise InputError(scenario, "options", "a position carries its own rules and options")
        return opening(load(scenario, tuple(options)), dice)

    def apply(self, state: State, action: Action, dice: Dice) -> tuple[State, list[Event]]:
        """``action`` played if the generator offers it; else refused, state and dice untouched.

        A move is the one exception to asking the generator first: the generator's moves are
        every end its search reaches under ``movement.MoveCosts`` within the mover's allowance,
        and the engine walks a move's path step by step under the very same costs, refusing it
        (before any die) where the search would not have reached — so a move the engine
        accepts is one the generator offers (``tests/tactical/test_generator_legality.py``
        checks it on random moves), without a second search per move."""
        if not isinstance(action, Move | Face) and not offered(state, action):
            raise RuleError(refusal(state, action, dice))
        return engine.apply(state, action, dice)

    def legal_actions(self, state: State) -> Sequence[Action]:
        return legal.legal_actions(state)

    def encode_action(self, action: Action) -> dict[str, Any]:
        return {"action": action.notation()}

    def decode_action(self, raw: dict[str, Any]) -> Action:
        text = raw.get("action")
        if not isinstance(text, str) or set(raw) != {"action"}:
            raise RuleError("a saved tactical action is {action = '<notation>'} and nothing else")
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


# -- legality from the generator ----------------------------------------------------------------
def _move_key(state: State, action: Move | Face) -> tuple[object, ...]:
    """A move as the generator offers it: who moves (and whom he carries), where it ends and
    facing which way.  The generator lists one least-cost path per end; any other open path to
    the same end is the same choice, walked step by step by the engine."""
    if isinstance(action, Face):
        mover = state.units.get(action.unit)
        here = state.field.grid.hex_id(mover.hex) if mover is not None and mover.hex >= 0 else ""
        return ("move", action.unit, None, here, f"face:{action.to}")
    end, face = "", None
    for token in action.path:
        if token[:1].isdigit():
            end, face = token, None
        elif token.startswith("face:"):
            face = token
    if not end:
        who: Unit | Leader | None = state.units.get(action.unit) or state.leaders.get(action.unit)
        end = state.field.grid.hex_id(who.hex) if who is not None and who.hex >= 0 else ""
    return ("move", action.unit, action.carry, end, face)


def offer_key(state: State, action: Action) -> object:
    """The choice an action stands for in the generator's list.  The generator offers one
    representative of each choice (one path per end, the first leaderless group, each
    defender's designations); what else an action says — its path, its group, its options —
    the engine's own checks decide."""
    if isinstance(action, Move | Face):
        return _move_key(state, action)
    if isinstance(action, Activate | Continuity):
        return (type(action).__name__, action.leader, action.group is not None)
    if isinstance(action, Designate):
        return ("designate", action.defender)
    if isinstance(action, Shock):
        return ("shock", tuple(sorted(action.attackers)), action.defender)
    if isinstance(action, Fire):
        return ("fire", action.unit, action.target, action.hit_and_run, action.return_fire)
    return action


def _candidates(state: State, action: Action) -> list[Action]:
    """The part of the generator's list that could hold ``action`` (a move: its mover's moves)."""
    if isinstance(action, Move | Face) and state.reacting is None and state.seq.phase == "move":
        if isinstance(action, Move) and action.carry is not None:
            return [m for m in legal.legal_actions(state) if isinstance(m, Move) and m.carry]
        mover: Unit | Leader | None = state.units.get(action.unit) or state.leaders.get(action.unit)
        if mover is None or mover.side != state.seq.side:
            return []
        return list(legal.move_actions(state, mover))
    if isinstance(action, Designate):
        return list(legal.designation_actions(state))
    return list(legal.legal_actions(state, moves=False))


def offered(state: State, action: Action) -> bool:
    """Whether the one legal-action generator offers ``action`` (up to ``offer_key``)."""
    key = offer_key(state, action)
    return any(offer_key(state, a) == key for a in _candidates(state, action))


def refusal(state: State, action: Action, dice: Dice) -> str:
    """The sentence for an action the generator does not offer: the rule's own, found by
    trying it on copies of the state and the dice, else a plain one."""
    try:
        engine.apply(state, action, Dice.from_state(dice.state()))
    except RuleError as why:
        return str(why)
    except BellumError:
        pass
    notation = action.notation() if hasattr(action, "notation") else repr(action)
    return f"'{notation}' is not among the actions open to side {state.acting} now."


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
