"""Watching a game again: the replay model behind ``bellum replay FILE`` (no arcade).

A replay is the game re-played through its rules from the start, kept as *frames*: frame 0
is the start, then one frame per action with what it did (the chronicle's lines) and the
dice it rolled.  Frames are grouped into turns — a turn file's turns (one player's part
between two sendings), or for a save the engine's own turn (a campaign month, a battle's
game turn) — so the viewer steps action by action or turn by turn, forward and back, and
jumps to any turn.  A frame in which a battle was fought can open that battle as a replay
of its own.

Three kinds of file are read, each through its checked reader: a turn file
(``bellum.pbem``: every turn re-played on its chain dice), a save of any engine
(``bellum.saves``: replayed from scenario + seed + actions, drift refused), or a battle's
save (the tactical engine's).  What is engine-specific — the engine, how an action and its
events read, what a "turn" of a save is, how a battle inside is fought again — comes from
``<engine>/replay.py: ADAPTER``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from bellum.dice import Dice, Roll
from bellum.errors import BellumError, InputError
from bellum.events import Event


@dataclass
class Frame:
    """One step: the state after it, how it reads, and the dice it rolled."""

    turn: int
    title: str
    lines: list[str]
    dice: list[str]
    state: Any
    #: battles fought in this step: (title, how to build the battle's own replay)
    battles: list[tuple[str, Callable[[], Replay]]] = field(default_factory=list)


@dataclass
class Replay:
    """A game kept frame by frame, with a cursor."""

    title: str
    engine: str
    frames: list[Frame]
    #: each turn's name ("Turn 6 — the Caesarians, April 49 BC"), by turn index
    turns: list[str]
    index: int = 0

    @property
    def frame(self) -> Frame:
        return self.frames[self.index]

    @property
    def turn(self) -> int:
        return self.frame.turn

    def step(self, n: int = 1) -> bool:
        """Move ``n`` actions forward (negative: back); False at either end."""
        new = max(0, min(len(self.frames) - 1, self.index + n))
        moved = new != self.index
        self.index = new
        return moved

    def turn_step(self, n: int = 1) -> bool:
        """To the end of the next turn (``n`` > 0) or the end of the turn before (``n`` < 0)."""
        return self.jump(self.turn + n) if 0 <= self.turn + n < len(self.turns) else self.step(n * len(self.frames))

    def jump(self, turn: int) -> bool:
        """To the last frame of ``turn`` (the state once that turn was played)."""
        if not 0 <= turn < len(self.turns):
            return False
        last = max(i for i, f in enumerate(self.frames) if f.turn <= turn)
        moved = last != self.index
        self.index = last
        return moved

    def battle_frames(self) -> list[int]:
        """The frames in which a battle was fought."""
        return [i for i, f in enumerate(self.frames) if f.battles]

    def open_battle(self, which: int = 0) -> Replay:
        """The replay of a battle fought in the current frame."""
        battles = self.frame.battles
        if not battles:
            raise BellumError("no battle was fought in this step")
        return battles[min(which, len(battles) - 1)][1]()


class Adapter(Protocol):
    """What the replay needs of an engine (``<engine>/replay.py: ADAPTER``)."""

    def engine(self, options: dict[str, str]) -> Any: ...

    def action_text(self, raw: dict[str, Any]) -> str: ...

    def lines(self, events: Sequence[Event]) -> list[str]: ...

    def turn_name(self, state: Any) -> str:
        """For a save: the turn the state is in ("April 49 BC", "Game turn 3")."""
        ...

    def battles(
        self, engine: Any, before: Any, raw: dict[str, Any], dice: Dice | None
    ) -> list[tuple[str, Callable[[], Replay]]]:
        """Battles the action fought, each with a builder of its replay (re-fought on a copy of the dice)."""
        ...


def adapter(engine: str) -> Adapter:
    try:
        module = importlib.import_module(f"{engine}.replay")
    except ModuleNotFoundError:
        raise BellumError(f"there is no replay for the {engine} engine") from None
    found: Adapter = module.ADAPTER
    return found


def roll_line(r: Roll) -> str:
    return f"{r.label}: d{r.sides} = {r.value}"


def load_replay(path: str | Path) -> Replay:
    """A turn file, a save or a battle's save, re-played into frames (one ``InputError`` if bad)."""
    from bellum.tomlio import parse_toml, read_input

    raw = parse_toml(read_input(path), Path(path))
    head = raw.get("pbem")
    if isinstance(head, dict) and head.get("format") == "bellum-civile-pbem":
        return from_turn_file(path)
    save = raw.get("save")
    if isinstance(save, dict) and save.get("format") == "bellum-civile-save":
        return from_save(path)
    raise InputError(path, "", "is neither a save, a turn file nor a battle's save of Bellum Civile")


def from_turn_file(path: str | Path) -> Replay:
    from bellum.pbem import replay_file

    got = replay_file(path)
    doc, rules = got.doc, got.rules
    ad = adapter(doc.pbem.engine)
    turns = [f"{t.number}. {rules.title(t.side).removeprefix('the ')}, {t.at}" for t in doc.turns]
    frames = [Frame(0, "The start of the game", [f"{doc.pbem.scenario}: {doc.turns[0].at}"], [], got.start)]
    before = got.start
    for p in got.steps:
        if p.kind == "sealed":
            what = "a secret battle choice, sealed"
        elif p.kind == "battle":
            what = "battle move " + " ".join(str(v) for v in p.action.values() if not isinstance(v, list))
        else:
            what = ad.action_text(p.action)
        title = f"Turn {p.turn} ({rules.title(p.side)}), action {p.index}: {what}"
        dice = Dice(p.dice[0], counter=p.dice[1]) if p.dice is not None else None
        fought = p.kind == "action" and any(e.kind == "battle" for e in p.events)
        battles = ad.battles(got.engine, before, p.action, dice) if fought else []
        frames.append(Frame(p.turn, title, ad.lines(p.events), [roll_line(r) for r in p.rolls], p.state, battles))
        before = p.state
    name = f"Game by e-mail {doc.pbem.game[:8]}… ({doc.pbem.scenario})"
    return Replay(name, doc.pbem.engine, frames, turns)


def from_save(path: str | Path) -> Replay:
    from bellum.saves import read_save, state_checksum
    from bellum.session import new_state

    data = read_save(path)
    ad = adapter(data.engine)
    engine = ad.engine({})
    dice = Dice(data.seed)
    try:
        state = new_state(engine, data.scenario, dice, data.options)  # under the save's rule options
    except BellumError as exc:
        raise InputError(path, "save.scenario", f"names {data.scenario!r}, which cannot be loaded ({exc})") from None
    names = [ad.turn_name(state)]
    frames = [Frame(0, "The start", [f"{data.scenario}: {names[0]}"], [roll_line(r) for r in dice.rolls], state)]
    for i, raw in enumerate(data.actions, start=1):
        place = f"actions[{i - 1}]"
        try:
            action = engine.decode_action(raw)
            mark = (dice.seed, dice.counter)
            start = len(dice.rolls)
            before = state
            state, events = engine.apply(state, action, dice)
        except BellumError as exc:
            raise InputError(path, place, f"cannot be replayed: {exc}") from None
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(path, place, f"is not a valid action ({exc})") from None
        name = ad.turn_name(state)
        if name != names[-1]:
            names.append(name)
        battles = []
        if any(e.kind == "battle" for e in events):
            battles = ad.battles(engine, before, raw, Dice(mark[0], counter=mark[1]))
        text = f"Action {i}: {ad.action_text(raw)}"
        frames.append(
            Frame(len(names) - 1, text, ad.lines(events), [roll_line(r) for r in dice.rolls[start:]], state, battles)
        )
    if state_checksum(engine.encode_state(state)) != state_checksum(data.state):
        raise InputError(path, "state", "replaying the saved actions does not give the saved state (drift)")
    return Replay(f"{Path(path).name} ({data.engine}, {data.scenario})", data.engine, frames, names)
