"""A game in progress: scenario + seed + action log, with undo, saves and replay.

Every engine exposes the same small ``Engine`` protocol (new state from a
scenario, apply an action with the dice, encode/decode actions and state).
``Session`` wraps one game of any engine:

- ``play(action)`` applies it through the engine (an illegal action raises
  ``RuleError`` and changes nothing) and logs it;
- ``undo()`` takes back the last action only if it rolled no die (dice are
  never taken back) and the engine allows it;
- ``save(path)`` writes the scenario, seed, dice state, action log, state and
  events; ``Session.load`` replays the action log from the scenario and the seed
  and checks the replayed state against the saved checksum, so a replay that
  drifts is caught instead of silently loading a different game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar, cast, runtime_checkable

from bellum.dice import Dice
from bellum.errors import BellumError, InputError, RuleError
from bellum.events import Event, EventLog
from bellum.saves import Engine as EngineName
from bellum.saves import SaveData, plain, read_save, state_checksum, write_save

S = TypeVar("S")
A = TypeVar("A")


class Engine(Protocol[S, A]):
    """What a rules engine offers a session."""

    name: EngineName

    def new_state(self, scenario: str, dice: Dice) -> S:
        """The starting state of ``scenario`` (set-up rolls, if any, use ``dice``)."""
        ...

    def apply(self, state: S, action: A, dice: Dice) -> tuple[S, list[Event]]:
        """The new state and what happened; ``RuleError`` (state untouched) if illegal."""
        ...

    def legal_actions(self, state: S) -> Sequence[A]:
        """Every legal action now (the one generator UI, AI and validator share)."""
        ...

    def encode_action(self, action: A) -> dict[str, Any]: ...

    def decode_action(self, raw: dict[str, Any]) -> A: ...

    def encode_state(self, state: S) -> dict[str, Any]: ...

    def may_undo(self, before: S, after: S) -> bool:
        """Whether the engine lets this step be taken back (e.g. only within an activation)."""
        ...


def new_state(engine: Engine[S, A], scenario: str, dice: Dice, options: Sequence[str] | None) -> S:
    """The engine's starting state; with ``options`` (the optional rules a player chose, which
    replace the scenario's own) through the engine's ``new_state_with(scenario, dice, options)``
    — an engine without one takes no options (one ``InputError`` sentence)."""
    if options is None:
        return engine.new_state(scenario, dice)
    with_options = getattr(engine, "new_state_with", None)
    if with_options is None:
        raise InputError(scenario, "options", f"the {engine.name} engine takes no rule options")
    return cast(Callable[[str, Dice, Sequence[str]], S], with_options)(scenario, dice, list(options))


@runtime_checkable
class ExplainsUndo(Protocol):
    """An engine that says in words why a step cannot be taken back (optional: the window
    shows the sentence; an engine without it gets a plain one)."""

    def undo_refusal(self, before: Any, after: Any) -> str:
        """Why the step from ``before`` to ``after`` cannot be taken back ('' when it can)."""
        ...


#: the sentence of an engine that does not say why (``ExplainsUndo``)
NOT_ANY_MORE = "That action cannot be taken back any more."


@dataclass(frozen=True)
class _Step:
    state: S  # type: ignore[valid-type]
    rolls: int
    counter: int
    events: int
    rolled: bool


class Session(Generic[S, A]):
    """One game: the engine, the scenario, the seed, the rule options, the dice, the log.

    ``options``: the optional rules chosen for this game (the options screen), replacing the
    scenario's own; None keeps the scenario's.  They are written into the save, so a loaded
    game is replayed under the rules it was begun with."""

    def __init__(self, engine: Engine[S, A], scenario: str, seed: int, options: Sequence[str] | None = None) -> None:
        self.engine = engine
        self.scenario = scenario
        self.seed = seed
        self.options: tuple[str, ...] | None = None if options is None else tuple(options)
        self.dice = Dice(seed)
        self.state: S = new_state(engine, scenario, self.dice, options)
        self.actions: list[dict[str, Any]] = []
        self.log = EventLog()
        self._undo: list[_Step] = []

    # -- play ---------------------------------------------------------
    def legal_actions(self) -> Sequence[A]:
        return self.engine.legal_actions(self.state)

    def play(self, action: A) -> list[Event]:
        """Apply ``action``; on ``RuleError`` nothing changes (dice included)."""
        before_counter, before_rolls = self.dice.counter, len(self.dice.rolls)
        try:
            new_state, events = self.engine.apply(self.state, action, self.dice)
        except RuleError:
            self.dice.counter = before_counter
            del self.dice.rolls[before_rolls:]
            raise
        rolled = len(self.dice.rolls) > before_rolls
        self._undo.append(_Step(self.state, before_rolls, before_counter, len(self.log), rolled))
        self.state = new_state
        self.actions.append(self.engine.encode_action(action))
        self.log.extend(events)
        return events

    def can_undo(self) -> bool:
        return not self.undo_refusal()

    def undo_refusal(self) -> str:
        """Why the last action cannot be taken back, in words ('' when it can): nothing
        played, a die rolled for it (named with its roll), or the engine's own reason."""
        if not self._undo:
            return "There is nothing to take back."
        step = self._undo[-1]
        if step.rolled:
            rolls = self.dice.rolls[step.rolls :]
            named = f" ({rolls[0].label}: {rolls[0].value})" if rolls else ""
            return f"A die was rolled for that action{named}: dice are never taken back."
        if isinstance(self.engine, ExplainsUndo):
            return self.engine.undo_refusal(step.state, self.state)
        return "" if self.engine.may_undo(step.state, self.state) else NOT_ANY_MORE

    def undo(self) -> None:
        """Take back the last action, if no die was rolled for it and the engine allows it
        (``RuleError`` with ``undo_refusal``'s sentence otherwise)."""
        why = self.undo_refusal()
        if why:
            raise RuleError(why)
        step = self._undo[-1]
        self._undo.pop()
        self.state = step.state
        self.actions.pop()
        self.log = EventLog(list(self.log)[: step.events])

    # -- saves --------------------------------------------------------
    def checksum(self) -> str:
        return state_checksum(self.engine.encode_state(self.state))

    def save(self, path: str | Path, meta: dict[str, Any] | None = None) -> Path:
        """Write the game to ``path`` (atomic, the previous save kept as ``.bak``); ``meta``:
        the slot's card a list of saves shows (``bellum.saves.SaveMeta``)."""
        return write_save(path, self.save_data(meta))

    def save_data(self, meta: dict[str, Any] | None = None) -> SaveData:
        """What a save of the game now holds, copied (a thread may write it while play goes on)."""
        return SaveData(
            engine=self.engine.name,
            scenario=self.scenario,
            seed=self.seed,
            dice=self.dice.state(),
            state=self.engine.encode_state(self.state),
            actions=list(self.actions),
            events=self.log.to_list(),
            options=None if self.options is None else list(self.options),
            meta=meta,
        )

    @classmethod
    def load(cls, engine: Engine[S, A], path: str | Path, scenario: str | None = None) -> Session[S, A]:
        """Replay a save from its scenario, seed and actions; refuse it if the replay drifts.

        ``scenario``: the one the player named with the save (``bellum battle NAME --load F``):
        a save of another scenario is refused, and the game is replayed from the player's
        scenario, not from a path written inside the save.  Without it the save's own
        scenario is used only if it is a name, or a file in the game's or the player's scenario
        folder (``bellum.paths.shipped_or_own``), read through the same input gate as any file."""
        from bellum.paths import shipped_or_own

        data = read_save(path, engine.name)
        if scenario is not None:
            if not same_scenario(data.scenario, scenario, engine.name):
                raise InputError(path, "save.scenario", f"is a save of {data.scenario}, not of {scenario}")
            data.scenario = scenario
        elif not shipped_or_own(data.scenario, engine.name):
            problem = f"names the file {data.scenario!r}, outside the scenario folders: name it with the save"
            raise InputError(path, "save.scenario", problem)
        try:
            cls(engine, data.scenario, data.seed, data.options)
        except InputError as exc:
            # the save is what the player gave: name it, and the scenario it names
            problem = f"names {data.scenario!r}, which cannot be loaded ({exc})"
            raise InputError(path, "save.scenario", problem) from None
        session = cls.replay(engine, data.scenario, data.seed, data.actions, source=str(path), options=data.options)
        if session.checksum() != state_checksum(data.state):
            raise InputError(path, "state", "replaying the saved actions does not give the saved state (drift)")
        if session.dice.state() != data.dice:
            raise InputError(path, "dice", "replaying the saved actions does not reach the saved dice state")
        if plain(session.log.to_list()) != data.events:
            raise InputError(path, "events", "the saved log is not what replaying the saved actions tells")
        return session

    @classmethod
    def replay(
        cls,
        engine: Engine[S, A],
        scenario: str,
        seed: int,
        actions: Sequence[dict[str, Any]],
        source: str = "replay",
        options: Sequence[str] | None = None,
    ) -> Session[S, A]:
        session = cls(engine, scenario, seed, options)
        for index, raw in enumerate(actions):
            try:
                action = engine.decode_action(raw)
                session.play(action)
            except BellumError as exc:
                raise InputError(source, f"actions[{index}]", f"cannot be replayed: {exc}") from None
            except (KeyError, TypeError, ValueError) as exc:
                raise InputError(source, f"actions[{index}]", f"is not a valid action ({exc})") from None
        return session


def same_scenario(saved: str, given: str, engine: str) -> bool:
    """Whether a save's scenario and the one a player names are the same file (each a name or
    a path, found as ``bellum.paths.resolve_scenario`` finds it; one not found is no match)."""
    from bellum.paths import resolve_scenario

    if saved == given:
        return True
    try:
        return resolve_scenario(saved, engine).resolve() == resolve_scenario(given, engine).resolve()
    except (InputError, OSError, ValueError):
        return False
