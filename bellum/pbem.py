"""Play by e-mail: turn files with honest dice (docs/PBEM.md).

A PBEM game is a chain of *turn files*.  Each file holds the whole game so far — the
scenario and options, every turn's actions with the dice they rolled, each turn's
commitment and revealed secret, the state checksum after every turn — and says who is to
play next.  A *turn* here is one player's part between two sendings: it ends when the
rules hand the decision to the other side (the end of a phase, or a reaction such as the
defender's stratagems in a battle), so the file stops and goes to that player.

Honest dice, by a commit-reveal chain:

- every turn commits ``H(game, secret)`` for a fresh secret of its writer, kept in the
  writer's data folder (never in the file);
- every turn from the third reveals the secret its writer committed two turns before (the
  second turn reveals a fresh nonce instead);
- the dice of turn ``j`` are seeded from the game, ``j`` and the reveals of turns ``j-1`` and
  ``j``: each was fixed (committed) before its owner saw the other's, so neither player
  chooses the dice, and nobody can change them afterwards;
- the first two turns only exchange secrets: they hold no actions.

The receiver replays every turn from the scenario through the rules (``RuleError`` →
refused), checks each action's dice against the chain, each checksum, the commitments
(a secret used twice is refused), and that the turns it already knew are unchanged.  Any
failure is one ``InputError`` sentence naming the turn and the action, and nothing is
written.  The same step check (``Table.play``) serves the receiver's replay and the
player's own turn (``PbemSession``), so a turn the game lets a player make is one the other
side accepts.

Battles may be fought move by move by the two players (a ``Battle`` the adapter opens): each
move is a step of the side that must decide it, so a file may stop in the middle of a battle,
and a choice both sides make in secret at the same time (the allocation at sea) travels
*sealed* — the hash of a fresh salt and the choice — until the other side has chosen; the
sealing side's game reveals it at the start of its next turn, and the receiver checks it
against the seal.

The engine-specific part (sides, who acts, options, battles) is a small ``Rules`` adapter in
``<engine>/pbem.py``; the rules engines themselves know nothing of PBEM.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import os
import re
import secrets
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal, Protocol

import tomli_w
from pydantic import BaseModel, ConfigDict, Field

from bellum import __version__
from bellum.dice import Dice, Roll
from bellum.errors import BellumError, InputError, RuleError, UnusedRollError
from bellum.events import Event, EventLog
from bellum.saves import plain, state_checksum
from bellum.session import Engine, Session
from bellum.tomlio import parse_toml, read_input, validate

PBEM_FORMAT = "bellum-civile-pbem"
PBEM_VERSION = 1
#: a turn file is small (a five-year war is well under a megabyte): anything larger is refused unread
MAX_TURN_FILE = 8 * 1024 * 1024
#: turns 0 and 1 only exchange secrets
HANDSHAKE = 2
#: a turn that plays more actions than this is refused (a leg is a few dozen actions)
MAX_STEPS = 20_000

#: where fresh secrets and game ids come from (``secrets.token_hex``; tests replace it with a seeded one)
entropy: Callable[[int], str] = secrets.token_hex

_HASH = r"^sha256:[0-9a-f]{64}$"
_SECRET = r"^[0-9a-f]{64}$"
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")


# ---------------------------------------------------------------------------------------
# the engine adapter
class Rules(Protocol):
    """What PBEM needs of an engine besides its ``Engine`` (``<engine>/pbem.py: RULES``)."""

    sides: tuple[str, str]
    #: the options a game may set, with their allowed values (the first is the default)
    options: ClassVar[dict[str, tuple[str, ...]]]

    def engine(self, options: dict[str, str]) -> Engine[Any, Any]: ...

    def title(self, side: str) -> str:
        """ "the Caesarians"."""
        ...

    def side_named(self, text: str) -> str | None:
        """The side a player typed (``caesarians``), or None."""
        ...

    def shipped(self, scenario: str) -> bool:
        """Whether ``scenario`` is a scenario that ships with the game."""
        ...

    def actor(self, state: Any) -> str: ...

    def over(self, state: Any) -> bool: ...

    def when(self, state: Any) -> str:
        """Where the game stands, for people reading the file ("April 49 BC, movement")."""
        ...

    def refuse(self, raw: dict[str, Any]) -> str | None:
        """Why an action may not travel in a turn file (e.g. a battle result fought
        elsewhere: the receiver must fight it again from the dice), or None."""
        ...

    def ai(self) -> Callable[[Any], Any]:
        """A computer player: state → action."""
        ...

    def battle_for(self, engine: Any, state: Any, action: Any, dice: Dice, options: dict[str, str]) -> Battle | None:
        """The battle ``action`` opens, when the players fight it move by move (``options``);
        the dice stand after the rolls the action makes before its battle.  None (dice as they
        were) when it fights none, or the engine's own resolver fights it."""
        ...


class Battle(Protocol):
    """A battle the two players fight move by move inside the game (``Rules.battle_for``):
    each move is a step of the turn file, the side that must decide plays it, and a choice
    made in secret at the same time as the other side's (a naval allocation) travels sealed
    until the other side has chosen too."""

    title: str
    #: the dice the deciding action rolled before its battle (rolled again, forced, when it is applied)
    pre: list[int]

    def copy(self) -> Battle: ...

    def actor(self) -> str: ...

    def legal(self) -> list[Any]: ...

    def encode(self, action: Any) -> dict[str, Any]: ...

    def decode(self, raw: dict[str, Any]) -> Any: ...

    def allowed(self, action: Any) -> bool:
        """Whether ``action`` may be played now, before it is applied (the battle engine's own
        legal-action generator; an engine whose ``apply`` validates every action itself may
        leave that to it)."""
        ...

    def must_seal(self, action: Any) -> bool:
        """Whether ``action`` is a secret choice the other side has not answered yet."""
        ...

    def seal(self, side: str, sealed: str) -> None: ...

    def sealed(self, side: str) -> str:
        """The seal ``side`` put on its choice and has not broken yet ("" for none)."""
        ...

    def apply(self, action: Any, dice: Dice) -> list[Event]: ...

    def over(self) -> bool: ...

    def close(self, dice: Dice) -> Any:
        """The deciding action, carrying the finished battle's outcome (after-battle rolls on ``dice``)."""
        ...

    def choose(self) -> Any:
        """The computer's move for the side to decide."""
        ...

    def data(self) -> dict[str, Any]:
        """The battle as plain data (the checksum covers it)."""
        ...

    def data_state(self) -> Any:
        """The battle engine's own state (what the replay viewer shows)."""
        ...


def rules_for(engine: str) -> Rules:
    if engine != "campaign":
        raise BellumError(f"play by e-mail is for the campaign, not the {engine} engine")
    rules: Rules = importlib.import_module(f"{engine}.pbem").RULES
    return rules


# ---------------------------------------------------------------------------------------
# the file
class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Header(_Strict):
    format: str
    version: int = Field(ge=1, le=1_000_000)
    game: str = Field(pattern=r"^[0-9a-f]{32}$")
    engine: Literal["campaign"]
    scenario: str = Field(max_length=200)
    game_version: str = Field(max_length=64)
    creator: str = Field(max_length=32)
    to_play: str = Field(max_length=32)
    turns: int = Field(ge=1, le=100_000)
    checksum: str = Field(pattern=_HASH)
    #: where the game stands now, for people reading the file
    at: str = Field(default="", max_length=200)
    ended: bool = False


class Step(_Strict):
    """One step of a turn: a game action, or a move in a battle being fought, or a battle
    choice sealed (its hash; the choice and its ``salt`` follow in the side's next turn)."""

    action: dict[str, Any] = Field(default_factory=dict)
    battle: dict[str, Any] = Field(default_factory=dict)
    sealed: str = Field(default="", pattern=r"^(sha256:[0-9a-f]{64})?$")
    salt: str = Field(default="", pattern=r"^([0-9a-f]{64})?$")
    dice: list[str] = Field(default_factory=list, max_length=10_000)


class Turn(_Strict):
    number: int = Field(ge=0, le=100_000)
    side: str = Field(max_length=32)
    commit: str = Field(pattern=_HASH)
    reveal: str = Field(default="", pattern=r"^([0-9a-f]{64})?$")
    at: str = Field(default="", max_length=200)
    checksum: str = Field(pattern=_HASH)
    steps: list[Step] = Field(default_factory=list, max_length=MAX_STEPS)


class TurnFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    pbem: Header
    options: dict[str, str] = Field(default_factory=dict, max_length=16)
    turns: list[Turn] = Field(min_length=1, max_length=100_000)


def commitment(game: str, secret: str) -> str:
    return "sha256:" + hashlib.sha256(f"bellum-pbem-commit|{game}|{secret}".encode("ascii")).hexdigest()


def turn_seed(game: str, number: int, before: str, now: str) -> int:
    """The dice seed of turn ``number``: both players' secrets, neither chosen after the other's was known."""
    digest = hashlib.sha256(f"bellum-pbem-dice|{game}|{number}|{before}|{now}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big")


def seal_of(game: str, salt: str, raw: dict[str, Any]) -> str:
    """The seal on a secret battle choice: a hash of the game, a fresh salt and the choice."""
    canonical = json.dumps(plain(raw), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return "sha256:" + hashlib.sha256(f"bellum-pbem-seal|{game}|{salt}|{canonical}".encode("ascii")).hexdigest()


def digest(turn: Turn) -> str:
    canonical = json.dumps(plain(turn.model_dump()), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return "sha256:" + hashlib.sha256(canonical.encode("ascii")).hexdigest()


def roll_text(r: Roll) -> str:
    return f"{r.label}: d{r.sides} = {r.value}"


def _where(rules: Rules, t: Turn, action: int | None = None) -> str:
    who = rules.title(t.side) if t.side in rules.sides else repr(t.side)
    place = f"turn {t.number} ({who})"
    return place if action is None else f"{place}, action {action}"


def read_turn_file(path: str | Path) -> tuple[TurnFile, Rules]:
    """Read and validate a turn file (hostile input: size, nesting, schema, scenario name)."""
    p = Path(path)
    raw = parse_toml(read_input(p, MAX_TURN_FILE), p)
    header = raw.get("pbem")
    if not isinstance(header, dict) or header.get("format") != PBEM_FORMAT:
        raise InputError(p, "pbem.format", "this is not a Bellum Civile turn file")
    version = header.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > PBEM_VERSION:
        raise InputError(p, "pbem.version", f"was written by a newer Bellum Civile (turn file format {version})")
    doc = validate(TurnFile, raw, p)
    rules = rules_for(doc.pbem.engine)
    name = doc.pbem.scenario
    if not _NAME.fullmatch(name):
        raise InputError(p, "pbem.scenario", f"{name!r} is not the name of a scenario that ships with the game")
    if not rules.shipped(name):
        raise InputError(p, "pbem.scenario", f"{name!r} is not a scenario that ships with this game")
    for key, value in doc.options.items():
        allowed = rules.options.get(key)
        if allowed is None:
            raise InputError(p, f"options.{key}", "is not an option of a turn file")
        if value not in allowed:
            raise InputError(p, f"options.{key}", f"{value!r} is not one of {', '.join(allowed)}")
    for side in (doc.pbem.creator, doc.pbem.to_play):
        if side not in rules.sides:
            raise InputError(p, "pbem", f"{side!r} is not a side of this game")
    return doc, rules


# ---------------------------------------------------------------------------------------
# replaying a file
@dataclass
class Played:
    """One action re-played: where, what, what happened and the dice, and the state after."""

    turn: int
    index: int
    side: str
    #: the step's action (a battle move, or {} for a sealed choice)
    action: dict[str, Any]
    events: list[Event]
    rolls: list[Roll]
    state: Any
    #: the dice before the action (seed, counter), None in the handshake
    dice: tuple[int, int] | None = None
    #: what kind of step: "action", "battle" (a move in a battle) or "sealed"
    kind: str = "action"


@dataclass
class Replayed:
    """A turn file re-played through the rules."""

    doc: TurnFile
    rules: Rules
    engine: Engine[Any, Any]
    state: Any
    log: EventLog
    #: the state at the start, and every action played (when asked for)
    start: Any = None
    steps: list[Played] = field(default_factory=list)
    #: the game at the end, with the battle being fought (if any)
    table: Table | None = None


def options_of(doc: TurnFile, rules: Rules) -> dict[str, str]:
    return {k: doc.options.get(k, v[0]) for k, v in rules.options.items()}


def dice_for(doc: TurnFile, number: int, reveal: str | None = None) -> Dice:
    """The dice of turn ``number`` (strict and empty in the two turns of the handshake)."""
    if number < HANDSHAKE:
        return Dice.forced([])
    now = doc.turns[number].reveal if reveal is None else reveal
    return Dice(turn_seed(doc.pbem.game, number, doc.turns[number - 1].reveal, now))


class Refused(Exception):
    """A step the rules or the chain refuse (the message is for the player)."""


class Table:
    """The game at one point: the rules' state, and the battle being fought inside it (if any)."""

    def __init__(self, rules: Rules, engine: Engine[Any, Any], state: Any, options: dict[str, str], game: str) -> None:
        self.rules = rules
        self.engine = engine
        self.state = state
        self.options = options
        self.game = game
        self.battle: Battle | None = None

    def actor(self) -> str:
        return self.battle.actor() if self.battle is not None else self.rules.actor(self.state)

    def over(self) -> bool:
        return self.battle is None and self.rules.over(self.state)

    def when(self) -> str:
        here = self.rules.when(self.state)
        return here if self.battle is None else f"{here} — {self.battle.title}"

    def checksum(self) -> str:
        data = self.engine.encode_state(self.state)
        if self.battle is None:
            return state_checksum(data)
        return state_checksum({"game": data, "battle": self.battle.data()})

    def play(self, st: Step, side: str, dice: Dice) -> tuple[list[Event], str]:
        """Apply one step for ``side`` (the table changes only if it is accepted; the caller
        restores the dice on a refusal).  Returns the events and the kind of step."""
        rules = self.rules
        if self.over():
            raise Refused("comes after the end of the war")
        actor = self.actor()
        if actor != side:
            raise Refused(f"is played by {rules.title(side)}, but the decision is {rules.title(actor)}'")
        if sum(bool(x) for x in (st.action, st.battle, st.sealed)) != 1:
            raise Refused("must be one action, one battle move or one sealed choice")
        if st.sealed:
            b = self.battle
            if b is None or b.sealed(side) or not any(b.must_seal(a) for a in b.legal()):
                raise Refused("seals a choice, but no secret choice is being made")
            if st.dice:
                raise Refused("a sealed choice rolls no dice")
            nb = b.copy()
            nb.seal(side, st.sealed)
            self.battle = nb
            return [Event("sealed", f"{rules.title(side).capitalize()} make their choice in secret.", {})], "sealed"
        if st.battle:
            return self._battle_move(st, side, dice), "battle"
        if self.battle is not None:
            raise Refused(f"is a move of the game, but {self.battle.title} must be fought first")
        why = rules.refuse(st.action)
        if why:
            raise Refused(why)
        try:
            action = self.engine.decode_action(st.action)
        except (KeyError, TypeError, ValueError, BellumError) as exc:
            raise Refused(f"is not a valid action ({exc})") from None
        if action not in self.engine.legal_actions(self.state):
            raise Refused("is not a legal action at that point of the game")
        try:
            battle = rules.battle_for(self.engine, self.state, action, dice, self.options)
            if battle is not None:
                self.battle = battle
                return [Event("battle_begins", f"{battle.title}: the armies take the field.", {})], "action"
            self.state, events = self.engine.apply(self.state, action, dice)
        except BellumError as exc:
            raise Refused(f"is refused by the rules ({exc})") from None
        return events, "action"

    def _battle_move(self, st: Step, side: str, dice: Dice) -> list[Event]:
        b = self.battle
        if b is None:
            raise Refused("is a battle move, but no battle is being fought")
        try:
            move = b.decode(st.battle)
        except (KeyError, TypeError, ValueError, BellumError) as exc:
            raise Refused(f"is not a valid battle move ({exc})") from None
        if not b.allowed(move):
            raise Refused(f"is not a legal move in {b.title} at that point")
        if st.salt:
            if b.sealed(side) != seal_of(self.game, st.salt, st.battle):
                raise Refused("is not the choice sealed before (the seal does not match)")
        elif b.sealed(side):
            raise Refused("must first reveal the choice sealed before")
        elif b.must_seal(move):
            raise Refused("is a secret choice sent in the clear before the other side has chosen: it must be sealed")
        nb = b.copy()
        try:
            events = nb.apply(move, dice)
            if not nb.over():
                self.battle = nb
                return events
            final = nb.close(dice)
            dice.force(nb.pre)  # the deciding action's own rolls before its battle, as they fell
            state, more = self.engine.apply(self.state, final, dice)
            if dice.pending():
                raise Refused("does not end the battle as the deciding action began it")
        except BellumError as exc:
            raise Refused(f"is refused by the rules ({exc})") from None
        self.state, self.battle = state, None
        return events + more


def _mark(dice: Dice) -> tuple[int, int]:
    return dice.counter, len(dice.rolls)


def _restore(dice: Dice, mark: tuple[int, int]) -> None:
    """The dice as they were before a refused step (forced values left over dropped)."""
    dice.counter = mark[0]
    del dice.rolls[mark[1] :]
    with contextlib.suppress(UnusedRollError):
        dice.assert_exhausted()


def replay(doc: TurnFile, rules: Rules, source: str | Path, *, keep: bool = False) -> Replayed:
    """Check the chain and re-play every turn; the first problem is one ``InputError``."""
    sides = rules.sides
    creator = doc.pbem.creator
    joiner = sides[1] if creator == sides[0] else sides[0]
    seen: dict[str, int] = {}
    options = options_of(doc, rules)
    engine = rules.engine(options)
    try:
        state = engine.new_state(doc.pbem.scenario, Dice.forced([]))
    except BellumError as exc:
        raise InputError(source, "pbem.scenario", f"cannot be set up ({exc})") from None
    table = Table(rules, engine, state, options, doc.pbem.game)
    out = Replayed(doc, rules, engine, state, EventLog(), start=state if keep else None)
    for j, t in enumerate(doc.turns):
        where = _where(rules, t)
        _check_chain(doc, rules, j, creator if j % 2 == 0 else joiner, seen, source)
        _play_turn(doc, table, j, out, source, keep)
        if j >= HANDSHAKE and not table.over() and table.actor() == t.side:
            raise InputError(source, where, f"ends while {rules.title(t.side)} still have to act")
        if table.checksum() != t.checksum:
            raise InputError(
                source, where, "the state checksum after it does not match the game re-played from its actions"
            )
    out.table = table
    _check_header(doc, rules, table, joiner if doc.turns[-1].side == creator else creator, source)
    out.state = table.state
    return out


def _check_chain(doc: TurnFile, rules: Rules, j: int, expected: str, seen: dict[str, int], source: str | Path) -> None:
    """Turn ``j`` in its place: its number, the side that writes it, and the commit-reveal
    chain of secrets its dice come from (``seen``: the commitments so far, by turn)."""
    t = doc.turns[j]
    where = _where(rules, t)
    if t.number != j:
        raise InputError(source, f"turns[{j}]", f"is numbered {t.number}: the turns are out of order")
    if t.side != expected:
        raise InputError(
            source,
            where,
            f"was written by the side that played the turn before ({rules.title(expected)} should write it)",
        )
    if t.commit in seen:
        raise InputError(
            source,
            where,
            f"its commitment re-uses the secret of turn {seen[t.commit]}, so its dice could be known in advance",
        )
    if j == 0 and t.reveal:
        raise InputError(source, where, "the first turn reveals nothing (it only commits a secret)")
    if j >= 1 and not t.reveal:
        raise InputError(source, where, "reveals no secret, so its dice cannot be checked")
    if j >= HANDSHAKE and commitment(doc.pbem.game, t.reveal) != doc.turns[j - 2].commit:
        raise InputError(
            source,
            where,
            f"the secret it reveals is not the one committed in turn {j - 2}: the dice do not follow the chain",
        )
    seen[t.commit] = j
    if j < HANDSHAKE and t.steps:
        raise InputError(source, where, "the first two turns only exchange secrets and may hold no actions")


def _play_turn(doc: TurnFile, table: Table, j: int, out: Replayed, source: str | Path, keep: bool) -> None:
    """Play turn ``j``'s steps on ``table`` with its dice, each die as the file tells it."""
    t = doc.turns[j]
    dice = dice_for(doc, j)
    for k, st in enumerate(t.steps, start=1):
        place = _where(table.rules, t, k)
        before = len(dice.rolls)
        mark = None if dice.strict else (dice.seed, dice.counter)
        try:
            events, kind = table.play(st, t.side, dice)
        except Refused as no:
            raise InputError(source, place, str(no)) from None
        rolls = [r for r in dice.rolls[before:] if not r.forced]
        told = [roll_text(r) for r in rolls]
        if told != st.dice:
            n = next(
                (i for i, (a, b) in enumerate(zip(told, st.dice, strict=False)) if a != b),
                min(len(told), len(st.dice)),
            )
            said = repr(st.dice[n]) if n < len(st.dice) else "nothing"
            chain = repr(told[n]) if n < len(told) else "no die there"
            raise InputError(source, place, f"die {n + 1} reads {said} but the dice chain gives {chain}")
        out.log.extend(events)
        if keep:
            raw = st.action or st.battle
            shown = table.battle.data_state() if table.battle is not None else table.state
            out.steps.append(Played(j, k, t.side, raw, list(events), list(rolls), shown, mark, kind))


def _check_header(doc: TurnFile, rules: Rules, table: Table, to_play: str, source: str | Path) -> None:
    """The file's header against the game re-played: who plays next, the turns, the checksum,
    the date, whether the war is over."""
    if doc.pbem.to_play != to_play:
        raise InputError(
            source,
            "pbem.to_play",
            f"says {rules.title(doc.pbem.to_play)} are to play, but it is {rules.title(to_play)}",
        )
    if doc.pbem.turns != len(doc.turns):
        raise InputError(source, "pbem.turns", f"says {doc.pbem.turns} turns but the file holds {len(doc.turns)}")
    if doc.pbem.checksum != doc.turns[-1].checksum:
        raise InputError(source, "pbem.checksum", "is not the checksum after the last turn")
    if doc.pbem.at != table.when():
        raise InputError(source, "pbem.at", f"says {doc.pbem.at!r}, but the game stands at {table.when()!r}")
    if doc.pbem.ended != table.over():
        raise InputError(source, "pbem.ended", "does not say truly whether the war is over")


# ---------------------------------------------------------------------------------------
# the player's own record of a game (their secrets), in their data folder
class Record(_Strict):
    game: str = Field(pattern=r"^[0-9a-f]{32}$")
    side: str = Field(max_length=32)
    scenario: str = Field(max_length=200)
    #: secrets committed and not yet revealed, by the turn that committed them
    secrets: dict[str, str] = Field(default_factory=dict)
    #: the digest of every turn this player has seen or written, in order
    known: list[str] = Field(default_factory=list)
    #: the turn file this player last wrote
    sent: str = ""
    #: a battle choice sealed and not yet revealed: {salt, choice}
    sealed: dict[str, Any] = Field(default_factory=dict)


def folder() -> Path:
    from bellum.paths import user_folder

    return user_folder() / "pbem"


def record_path(game: str, side: str) -> Path:
    return folder() / "games" / f"{game}-{side}.toml"


def load_record(game: str, side: str) -> Record | None:
    from bellum.tomlio import read_toml

    p = record_path(game, side)
    if not p.is_file():
        return None
    return validate(Record, read_toml(p), p)


def _write_atomic(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(text.encode("utf-8"))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path


def save_record(rec: Record) -> Path:
    return _write_atomic(record_path(rec.game, rec.side), tomli_w.dumps(rec.model_dump()))


def write_turn_file(path: str | Path, doc: TurnFile) -> Path:
    data = plain(doc.model_dump())
    return _write_atomic(Path(path), tomli_w.dumps(data))


def default_out(doc: TurnFile, rules: Rules) -> Path:
    side = doc.pbem.to_play
    return folder() / f"{doc.pbem.scenario}-{doc.pbem.game[:8]}-turn{len(doc.turns):03d}-{side}.toml"


# ---------------------------------------------------------------------------------------
# starting a game and playing one's turn
def new_game(
    scenario: str, side_text: str, out: str | Path | None = None, options: dict[str, str] | None = None
) -> Path:
    """``bellum pbem new``: turn 0 — the creator's first commitment — written to ``out``."""
    rules = rules_for("campaign")
    side = rules.side_named(side_text)
    if side is None:
        names = ", ".join(rules.title(s) for s in rules.sides)
        raise InputError("--as", "", f"{side_text!r} is not a side ({names})")
    if not _NAME.fullmatch(scenario) or not rules.shipped(scenario):
        raise InputError(scenario, "", "a game by e-mail is played on a scenario that ships with the game (by name)")
    opts = {k: v[0] for k, v in rules.options.items()}
    for k, v in (options or {}).items():
        if v not in rules.options.get(k, ()):
            raise InputError(f"--{k}", "", f"{v!r} is not one of {', '.join(rules.options.get(k, ()))}")
        opts[k] = v
    engine = rules.engine(opts)
    state = engine.new_state(scenario, Dice.forced([]))
    game = entropy(16)
    secret = entropy(32)
    checksum = state_checksum(engine.encode_state(state))
    first = Turn(number=0, side=side, commit=commitment(game, secret), at=rules.when(state), checksum=checksum)
    other = rules.sides[1] if side == rules.sides[0] else rules.sides[0]
    doc = TurnFile(
        pbem=Header(
            format=PBEM_FORMAT,
            version=PBEM_VERSION,
            game=game,
            engine="campaign",
            scenario=scenario,
            game_version=__version__,
            creator=side,
            to_play=other,
            turns=1,
            checksum=checksum,
            at=rules.when(state),
        ),
        options=opts,
        turns=[first],
    )
    target = Path(out) if out else default_out(doc, rules)
    rec = Record(game=game, side=side, scenario=scenario, secrets={"0": secret}, known=[digest(first)])
    save_record(rec)
    rec.sent = str(write_turn_file(target, doc))
    save_record(rec)
    return target


class PbemSession(Session[Any, Any]):
    """The receiving player's game: the verified history, then their own turn on the chain's dice.

    ``play`` (a game action) and ``play_battle`` (a move in a battle being fought) accept only
    the local side's decisions, through the same ``Table.play`` the receiver's check uses;
    once the decision passes to the other side (``turn_over``), ``finish`` writes the next
    turn file.  A secret battle choice is sealed by ``play_battle`` itself, and revealed at
    the start of the side's next turn (``open_turn_file``)."""

    def __init__(self, got: Replayed, record: Record | None, source: str | Path) -> None:
        doc, rules = got.doc, got.rules
        assert got.table is not None
        self.table = got.table
        self.engine = got.engine
        self.scenario = doc.pbem.scenario
        self.seed = 0
        self.rules = rules
        self.doc = doc
        self.source = str(source)
        self.me = doc.pbem.to_play
        self.number = len(doc.turns)
        self.start_at = self.table.when()
        self.actions = []
        self.log = got.log
        self._undo = []
        self.record = record or Record(
            game=doc.pbem.game, side=self.me, scenario=doc.pbem.scenario, known=[digest(t) for t in doc.turns]
        )
        self.secret = entropy(32)
        if self.number == 1:
            self.reveal = entropy(32)  # the joiner's nonce, revealed at once
        else:
            self.reveal = self.record.secrets.get(str(self.number - 2), "")
        self.dice = dice_for(doc, self.number, self.reveal) if self.number >= HANDSHAKE else Dice.forced([])
        self.steps: list[Step] = []
        #: undo points: the table before each step that rolled no die
        self._back: list[tuple[Any, Battle | None, int, int, bool]] = []
        self.written: Path | None = None
        #: a battle choice sealed in this turn: (salt, the choice), kept in the record until revealed
        self.sealing: tuple[str, dict[str, Any]] | None = None
        #: the other side, played on the other computer (the window neither shows it to a person nor to the AI)
        self.remote = frozenset(s for s in rules.sides if s != self.me)

    # -- the game as a Session shows it ----------------------------------------------
    @property
    def state(self) -> Any:
        return self.table.state

    @state.setter
    def state(self, value: Any) -> None:  # Session.__init__ is not run; nothing sets it
        self.table.state = value

    @property
    def battle(self) -> Battle | None:
        """The battle being fought inside the game, if any."""
        return self.table.battle

    def checksum(self) -> str:
        return self.table.checksum()

    def legal_actions(self) -> Sequence[Any]:
        return [] if self.table.battle is not None else self.engine.legal_actions(self.table.state)

    def status(self) -> str:
        """Where the game stands, in a line."""
        return f"Turn file {self.number} of game {self.doc.pbem.game[:8]}…: {self.table.when()}."

    def actor(self) -> str:
        return self.table.actor()

    # -- playing -----------------------------------------------------------------------
    def _step(self, st: Step) -> list[Event]:
        if self.turn_over():
            raise RuleError(f"Your turn is over: the decision is {self.rules.title(self.actor())}'.")
        if self.actor() != self.me:
            raise RuleError(f"That is {self.rules.title(self.actor())}' decision, played on their computer.")
        mark = _mark(self.dice)
        back = (self.table.state, self.table.battle, len(self.steps), len(self.log), self.sealing is not None)
        try:
            events, _kind = self.table.play(st, self.me, self.dice)
        except Refused as no:
            _restore(self.dice, mark)
            raise RuleError(str(no)[:1].upper() + str(no)[1:]) from None
        rolls = [roll_text(r) for r in self.dice.rolls[mark[1] :] if not r.forced]
        self.steps.append(st.model_copy(update={"dice": rolls}))
        if not rolls and st.action and self.table.battle is None and self.engine.may_undo(back[0], self.table.state):
            self._back.append(back)
        else:
            self._back.clear()  # dice are never taken back, nor a battle move
        self.actions.append(st.action or st.battle or {"sealed": st.sealed})
        self.log.extend(events)
        return events

    def play(self, action: Any) -> list[Event]:
        """A game action (a battle it opens is then fought with ``play_battle``)."""
        return self._step(Step(action=self.engine.encode_action(action)))

    def play_battle(self, move: Any) -> list[Event]:
        """A move in the battle being fought; a secret choice the other side has not answered is sealed."""
        b = self.table.battle
        if b is None:
            raise RuleError("No battle is being fought.")
        raw = b.encode(move)
        if b.must_seal(move) and not b.sealed(self.me):
            if not b.allowed(move):
                raise RuleError("That is not a legal choice now.")
            salt = entropy(32)
            events = self._step(Step(sealed=seal_of(self.doc.pbem.game, salt, raw)))
            self.sealing = (salt, raw)
            return events
        return self._step(Step(battle=raw))

    def reveal_sealed(self) -> list[Event]:
        """At the start of a turn: break the seal put on this side's battle choice in its last turn."""
        b = self.table.battle
        kept = self.record.sealed
        if b is None or not b.sealed(self.me) or not kept:
            return []
        raw = dict(kept.get("choice", {}))
        return self._step(Step(battle=raw, salt=str(kept.get("salt", ""))))

    def can_undo(self) -> bool:
        return bool(self._back)

    def undo(self) -> None:
        """Take back the last step, if no die was rolled for it (dice are never taken back)."""
        if not self._back:
            raise RuleError("There is nothing to take back (dice were rolled, or nothing was played).")
        state, battle, n, events, sealing = self._back.pop()
        self.table.state, self.table.battle = state, battle
        del self.steps[n:]
        del self.actions[n:]
        self.log = EventLog(list(self.log)[:events])
        if not sealing:
            self.sealing = None

    def save(self, path: str | Path, meta: dict[str, Any] | None = None) -> Path:
        raise RuleError("In a game by e-mail the turn files are the save: open the last one again to go on.")

    def turn_over(self) -> bool:
        """Whether this player's turn is done: a handshake turn, the war over, or the other side to decide."""
        return self.number < HANDSHAKE or self.table.over() or self.actor() != self.me

    def finish(self, out: str | Path | None = None) -> Path:
        """Write the next turn file (and keep this player's new secret and sealed choice)."""
        if not self.turn_over():
            raise RuleError(f"{self.rules.title(self.me)} still have to act before the turn file can be sent.")
        turn = Turn(
            number=self.number,
            side=self.me,
            commit=commitment(self.doc.pbem.game, self.secret),
            reveal=self.reveal,
            at=self.start_at,
            checksum=self.checksum(),
            steps=self.steps,
        )
        other = self.rules.sides[1] if self.me == self.rules.sides[0] else self.rules.sides[0]
        header = self.doc.pbem.model_copy(
            update={
                "to_play": other,
                "turns": self.number + 1,
                "checksum": turn.checksum,
                "ended": self.table.over(),
                "at": self.table.when(),
                "game_version": __version__,
            }
        )
        doc = TurnFile(pbem=header, options=self.doc.options, turns=[*self.doc.turns, turn])
        target = Path(out) if out else default_out(doc, self.rules)
        rec = self.record.model_copy(deep=True)
        rec.secrets.pop(str(self.number - 2), None)
        rec.secrets[str(self.number)] = self.secret
        rec.known = [digest(t) for t in doc.turns]
        if self.sealing is not None:
            rec.sealed = {"salt": self.sealing[0], "choice": self.sealing[1]}
        elif any(st.salt for st in self.steps):
            rec.sealed = {}
        write_turn_file(target, doc)
        rec.sent = str(target)
        save_record(rec)
        self.written = target
        return target


def open_turn_file(path: str | Path) -> PbemSession:
    """Read, check and re-play a received turn file; the player to play gets a ``PbemSession``.
    Every refusal is one ``InputError`` sentence and nothing is written."""
    doc, rules = read_turn_file(path)
    me = doc.pbem.to_play
    if doc.pbem.ended:
        raise InputError(path, "pbem.ended", "the war in this file is over: open it with 'bellum replay' to watch it")
    record = load_record(doc.pbem.game, me)
    n = len(doc.turns)
    if record is None:
        if n != 1:
            raise InputError(
                path,
                "pbem.game",
                f"is game {doc.pbem.game[:8]}…, which {rules.title(me)} do not play on this computer "
                "(no secret of theirs is kept for it)",
            )
    else:
        if record.scenario != doc.pbem.scenario:
            raise InputError(
                path, "pbem.scenario", f"is not the scenario of game {doc.pbem.game[:8]}… ({record.scenario})"
            )
        known = len(record.known)
        if n <= known:
            raise InputError(path, f"turn {n - 1}", f"was already answered: you sent turn {known - 1} ({record.sent})")
        if n > known + 1:
            raise InputError(path, f"turn {known}", "holds turns you never saw: the file skips your answer")
        for t, d in zip(doc.turns, record.known, strict=False):
            if digest(t) != d:
                raise InputError(
                    path,
                    _where(rules, t),
                    "differs from the one you sent or received before: the earlier history was changed",
                )
        if str(n - 2) not in record.secrets:
            raise InputError(path, f"turn {n - 2}", "the secret you committed then is no longer kept on this computer")
    got = replay(doc, rules, path)
    session = PbemSession(got, record, path)
    if got.table is not None and got.table.battle is not None and got.table.battle.sealed(me):
        if record is None or not record.sealed:
            raise InputError(path, "", "the battle choice you sealed is no longer kept on this computer")
        session.reveal_sealed()
    return session


def play_ai(session: PbemSession) -> None:
    """The computer plays the receiving side's turn."""
    choose = session.rules.ai()
    for _ in range(MAX_STEPS):
        if session.turn_over():
            return
        battle = session.battle
        if battle is not None:
            session.play_battle(battle.choose())
        else:
            session.play(choose(session.state))
    raise BellumError("the computer player did not finish its turn")


def replay_file(path: str | Path) -> Replayed:
    """A turn file re-played with every step kept (the replay viewer)."""
    doc, rules = read_turn_file(path)
    return replay(doc, rules, path, keep=True)


def status(path: str | Path) -> str:
    doc, rules = read_turn_file(path)
    if doc.pbem.ended:
        return f"game {doc.pbem.game[:8]}…: the war is over after {len(doc.turns)} turns"
    who = rules.title(doc.pbem.to_play)
    return f"game {doc.pbem.game[:8]}… ({doc.pbem.scenario}), turn {len(doc.turns)}: {who} are to play ({doc.pbem.at})"


def _check_turn_file(path: Path, ctx: object) -> None:
    """``bellum check`` of a turn file: read as a receiving game reads it (schema, size,
    nesting, scenario by name, options, sides)."""
    read_turn_file(path)


def _formats() -> tuple[Any, ...]:
    from bellum.formats import Format

    return (
        Format(
            "turn-file",
            "Bellum Civile play-by-e-mail turn file",
            TurnFile,
            _check_turn_file,
            places=("pbem/*.toml",),
            keys=frozenset({"pbem", "turns"}),
        ),
    )


#: the turn file's format for ``bellum check`` and ``bellum schemas`` (bellum.formats)
FORMATS = _formats()
