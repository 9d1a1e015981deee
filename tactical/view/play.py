"""How the window talks to the rules: a ``bellum.session.Session`` over a tactical engine.

When ``tactical.game`` (the scenario engine) exists, its engine is used; until then, and
for any position written in the rules-case notation (``cases/FORMAT.md``), the
``PositionEngine`` here serves the same ``Engine`` protocol over a position file.  The
view never changes a state itself: it asks ``Session.legal_actions`` (the one
generator), plays what the player chose with ``Session.play`` and takes back with
``Session.undo`` (refused once a die has been rolled).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bellum.dice import Dice
from bellum.errors import InputError, RuleError
from bellum.events import Event
from bellum.session import Session
from bellum.tomlio import read_toml, validate
from tactical.actions import Action, parse_action
from tactical.engine import apply
from tactical.legal import legal_actions
from tactical.models import PositionIn, build_state
from tactical.state import State

#: the position keys of ``cases/FORMAT.md`` (a case file's other keys are its steps)
_POSITION_KEYS = frozenset(PositionIn.model_fields)
DEMO = "demo"


def encode_state(state: State) -> dict[str, Any]:
    """Everything that decides the rest of the game, for save checksums."""
    s = state.seq
    return {
        "units": {
            k: [u.hex, u.hex2, u.facing, u.status, u.missile_hits, u.engaged, u.column, u.reduced]
            for k, u in sorted(state.units.items())
        },
        "leaders": {k: [ld.hex, ld.status, ld.finished] for k, ld in sorted(state.leaders.items())},
        "seq": [s.side, s.phase, s.leader, list(s.group or ()), s.last, s.last_count, s.streak, s.freebie, s.returns],
        "moved": sorted(state.moved),
        "fought": sorted(state.fought),
        "rout_points": dict(state.rout_points),
        "winner": state.winner,
        # the defender's decision the game waits on (docs/rules/tactical.md §8.13)
        "reacting": None if state.reacting is None else [state.reacting.kind, state.reacting.action.notation()],
    }


class PositionEngine:
    """The ``bellum.session.Engine`` for a position file (case notation) or the demo field."""

    name = "tactical"

    def new_state(self, scenario: str, dice: Dice) -> State:
        if scenario == DEMO:
            from tactical.view.demo import demo_position

            return build_state(validate(PositionIn, demo_position(), "demo field"), "demo field")
        raw = read_toml(scenario)
        position = {k: v for k, v in raw.items() if k in _POSITION_KEYS}
        return build_state(validate(PositionIn, position, scenario), scenario)

    def apply(self, state: State, action: Action, dice: Dice) -> tuple[State, list[Event]]:
        return apply(state, action, dice)

    def legal_actions(self, state: State) -> Sequence[Action]:
        return legal_actions(state)

    def encode_action(self, action: Action) -> dict[str, Any]:
        return {"action": action.notation()}

    def decode_action(self, raw: dict[str, Any]) -> Action:
        text = raw.get("action")
        if not isinstance(text, str):
            raise ValueError("an action is written as {action = '...'}")
        return parse_action(text)

    def encode_state(self, state: State) -> dict[str, Any]:
        return encode_state(state)

    def may_undo(self, before: State, after: State) -> bool:
        """Only within one activation: the same side, leader and segment kind (docs §2)."""
        b, a = before.seq, after.seq
        return b.side == a.side and b.leader == a.leader and b.group == a.group and a.phase in ("move", "shock")


def scenario_engine() -> Any | None:
    """The scenario engine of ``tactical.game`` once it exists (``ENGINE`` or ``TacticalEngine()``)."""
    if importlib.util.find_spec("tactical.game") is None:
        return None
    game = importlib.import_module("tactical.game")
    engine = getattr(game, "ENGINE", None)
    if engine is None and hasattr(game, "TacticalEngine"):
        engine = game.TacticalEngine()
    return engine


def is_position_file(path: str) -> bool:
    try:
        raw = read_toml(path)
    except InputError:
        return False
    return "map" in raw and "units" in raw and "sides" not in raw  # a scenario names its sides


def open_session(scenario: str, seed: int) -> Session[Any, Any]:
    """A new game of ``scenario`` (a scenario file, a position file, or ``demo``)."""
    if scenario != DEMO and not Path(scenario).exists():
        from bellum.paths import resolve_scenario

        scenario = str(resolve_scenario(scenario, "tactical"))
        if not Path(scenario).exists():
            raise InputError(scenario, "file", "there is no such tactical scenario")
    engine: Any = PositionEngine()
    if scenario != DEMO and not is_position_file(scenario):
        engine = scenario_engine()
        if engine is None:
            raise InputError(scenario, "file", "tactical scenarios cannot be loaded yet (tactical.game is missing)")
    return Session(engine, scenario, seed)


def load_session(path: str | Path, scenario: str | None = None) -> Session[Any, Any]:
    """A saved game: replayed from its scenario and seed (``Session.load``); with ``scenario``
    (the battle on screen) a save of another battle is refused."""
    from bellum.saves import read_save

    data = read_save(path, "tactical")
    engine: Any = PositionEngine()
    if data.scenario != DEMO and not is_position_file(data.scenario):
        engine = scenario_engine()
        if engine is None:
            raise InputError(path, "scenario", "tactical scenarios cannot be loaded yet (tactical.game is missing)")
    return Session.load(engine, path, scenario)


def session_state(session: Session[Any, Any]) -> State:
    """The tactical ``State`` of a session (an engine may wrap it)."""
    st = session.state
    return st if isinstance(st, State) else st.state


def try_play(session: Session[Any, Any], action: Action) -> tuple[list[Event], str]:
    """Play ``action``; returns the events and '' or ([], the rule's sentence)."""
    try:
        return session.play(action), ""
    except RuleError as why:
        return [], str(why)
