"""How the window talks to the rules: a ``bellum.session.Session`` over the one tactical
engine (``tactical.game.TacticalEngine``).

The view never changes a state itself: it asks ``Session.legal_actions`` (the one
generator), plays what the player chose with ``Session.play`` and takes back with
``Session.undo`` (refused once a die has been rolled).
"""

from __future__ import annotations

from pathlib import Path

from bellum.errors import InputError, RuleError
from bellum.events import Event
from bellum.session import Session
from tactical.actions import Action
from tactical.game import DEMO, TacticalEngine
from tactical.state import State

__all__ = ["DEMO", "TacticalSession", "load_session", "open_session", "session_state", "try_play"]

TacticalSession = Session[State, Action]


def open_session(scenario: str, seed: int, options: list[str] | None = None) -> TacticalSession:
    """A new game of ``scenario`` (a scenario file or name, a position file, or ``demo``);
    ``options``: the optional rules chosen for it (tactical/options.py), None the scenario's."""
    if scenario != DEMO and not Path(scenario).exists():
        from bellum.paths import resolve_scenario

        scenario = str(resolve_scenario(scenario, "tactical"))
        if not Path(scenario).exists():
            raise InputError(scenario, "file", "there is no such tactical scenario")
    return Session(TacticalEngine(), scenario, seed, options)


def load_session(path: str | Path, scenario: str | None = None) -> TacticalSession:
    """A saved game: replayed from its scenario and seed (``Session.load``); with ``scenario``
    (the battle on screen) a save of another battle is refused."""
    return Session.load(TacticalEngine(), path, scenario)


def session_state(session: TacticalSession) -> State:
    """The tactical ``State`` of a session."""
    return session.state


def try_play(session: TacticalSession, action: Action) -> tuple[list[Event], str]:
    """Play ``action``; returns the events and '' or ([], the rule's sentence)."""
    try:
        return session.play(action), ""
    except RuleError as why:
        return [], str(why)
