"""Actions: small value objects with a written notation (python-chess's ``Move``/``san``).

Every action can be written and read back::

    move A1 1104 face:2 1204            a path: hexes entered and facing changes, in order
    move A1 1104 1204 | B1@1204 face:4  with reactions: B1 turns when A1 reaches 1204
    move A1 1104 | B2@1104 withdraw:1306,1307
    face A1 2
    activate LB1            activate group:B1,B2,B3
    continuity LA2          continuity group:A1,A2,A3
    pass
    start
    replace LA3 1014        (000 §4.32; ``replace LA1 1014 by:LA4`` for a proconsul taking over)
    move LA1 with:A1 1104   (the leader takes a unit stacked with him, 003 §4.2)
    designate A1,A2 B1                  (003 §8.3: name attackers and defender, no dice)
    resolve                             (designation is over; the designated shocks are resolved)
    shock A1,A2 B1 weapon:HI reaction_fire:A1 pursue rbc:1007,1006 advance reduce_hits
    fire A1 B1 hit_and_run
    rally A2

The defending side's decisions (docs/rules/tactical.md §8.13), offered only while the game
waits on them (``State.reacting``)::

    react B1@1204 face:4                a reaction facing change as the mover reaches 1204
    react B2@1104 withdraw:1306,1307    an orderly withdrawal (``fire`` after it: mounted archers)
    react fire:A1                       reaction fire at attacker A1 before the shock roll
    react rbc:1007,1006                 cavalry retreats before combat
    react fire:A1 reduce_hits           (option retreat-to-reduce-hits: retreat to take a hit fewer)
    react return_fire                   the target of a hit and run fires back
    decline                             no (further) reaction: the move goes on / the shock is rolled

Hexes are ``CCRR`` ids and facings clock hours (``cases/FORMAT.md``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import repeat
from typing import ClassVar

from bellum.actions import NotationError


@dataclass(frozen=True, slots=True)
class Reaction:
    """A reaction the moving player's opponent takes during a move (003 §6.7, §7.16; 000 §6.5, §7.15,
    §4.31): ``unit`` (a unit or leader) reacts when the mover reaches ``at``, either turning to
    ``face`` or withdrawing along ``withdraw``."""

    unit: str
    at: str
    face: int | None = None
    withdraw: tuple[str, ...] | None = None
    #: a mounted archer fires as it withdraws (000 §6.55)
    fire: bool = False

    def notation(self) -> str:
        if self.face is not None:
            return f"{self.unit}@{self.at} face:{self.face}"
        return f"{self.unit}@{self.at} withdraw:{','.join(self.withdraw or ())}" + (" fire" if self.fire else "")


@dataclass(frozen=True, slots=True)
class Move:
    verb: ClassVar[str] = "move"
    unit: str
    path: tuple[str, ...]
    reactions: tuple[Reaction, ...] = ()
    #: a combat unit stacked with the moving leader that moves with him (003 §4.2, 000 §4.2)
    carry: str | None = None

    def notation(self) -> str:
        text = f"move {self.unit}" + (f" with:{self.carry}" if self.carry else "")
        text = f"{text} {' '.join(self.path)}".rstrip()
        for r in self.reactions:
            text += f" | {r.notation()}"
        return text


_NEW = object.__new__
_SET_UNIT = Move.__dict__["unit"].__set__
_SET_PATH = Move.__dict__["path"].__set__
_SET_REACTIONS = Move.__dict__["reactions"].__set__
_SET_CARRY = Move.__dict__["carry"].__set__


def plain_moves(unit: str, paths: Iterable[tuple[str, ...]], carry: str | None = None) -> list[Move]:
    """``[Move(unit, path, carry=carry) for path in paths]`` built through the slots directly:
    the legal-action generator makes thousands of moves per call, and the frozen dataclass's
    ``__init__`` is the slow part.  The objects are the same (equal, hashable, frozen)."""
    paths = paths if isinstance(paths, list) else list(paths)
    n = len(paths)
    out = list(map(_NEW, repeat(Move, n)))
    # each field set over every move at C speed (map drives the slot setters; nothing kept)
    deque(map(_SET_UNIT, out, repeat(unit, n)), 0)
    deque(map(_SET_PATH, out, paths), 0)
    deque(map(_SET_REACTIONS, out, repeat((), n)), 0)
    deque(map(_SET_CARRY, out, repeat(carry, n)), 0)
    return out


@dataclass(frozen=True, slots=True)
class Face:
    verb: ClassVar[str] = "face"
    unit: str
    to: int

    def notation(self) -> str:
        return f"face {self.unit} {self.to}"


@dataclass(frozen=True, slots=True)
class Activate:
    """A free designation (no roll): after the opponent failed or went three times (003 §3.2)."""

    verb: ClassVar[str] = "activate"
    leader: str | None = None
    group: tuple[str, ...] | None = None

    def notation(self) -> str:
        return f"activate {_target(self.leader, self.group)}"


@dataclass(frozen=True, slots=True)
class Continuity:
    """Designate a leader or group and roll against Initiative, or 0–1 for a group (003 §3.2)."""

    verb: ClassVar[str] = "continuity"
    leader: str | None = None
    group: tuple[str, ...] | None = None

    def notation(self) -> str:
        return f"continuity {_target(self.leader, self.group)}"


@dataclass(frozen=True, slots=True)
class Pass:
    """End the current activation (or decline Continuity / a free designation)."""

    verb: ClassVar[str] = "pass"

    def notation(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Start:
    """Decide who goes first (003 §3.3, 000 §3.3)."""

    verb: ClassVar[str] = "start"

    def notation(self) -> str:
        return "start"


@dataclass(frozen=True, slots=True)
class Replace:
    """The overall commander replaces a dead leader (000 §3.1 A, §4.32, §5.35)."""

    verb: ClassVar[str] = "replace"
    leader: str
    hex: str
    by: str | None = None

    def notation(self) -> str:
        return f"replace {self.leader} {self.hex}" + (f" by:{self.by}" if self.by else "")


@dataclass(frozen=True, slots=True)
class Designate:
    """``designate A1,A2 B1`` (003 §8.3): before any shock is resolved the attacker names which
    units attack which defender.  No dice.  Naming a defender already designated adds the
    attackers to that combat; the first designation ends the Move/Fire segment."""

    verb: ClassVar[str] = "designate"
    attackers: tuple[str, ...]
    defender: str

    def notation(self) -> str:
        return f"designate {','.join(self.attackers)} {self.defender}"

    def as_shock(self) -> Shock:
        """The plain shock of these units (for ``tactical.odds`` previews)."""
        return Shock(self.attackers, self.defender)


@dataclass(frozen=True, slots=True)
class Resolve:
    """``resolve``: designation is over (003 §8.3); the designated shocks are now resolved, one
    ``shock`` each, in the order the attacker chooses."""

    verb: ClassVar[str] = "resolve"

    def notation(self) -> str:
        return "resolve"


@dataclass(frozen=True, slots=True)
class Shock:
    """``shock A1,A2 B1`` (003 §8.3): resolve a designated combat, with the players' choices."""

    verb: ClassVar[str] = "shock"
    attackers: tuple[str, ...]
    defender: str
    weapon: str | None = None
    defender_weapon: str | None = None
    reaction_fire: str | None = None
    pursue: bool = False
    #: the defending cavalry's two-hex retreat before combat (003 §8.3 Cavalry, §9.16)
    retreat_before_combat: tuple[str, ...] | None = None
    #: an attacker advances into the hex the defender left (003 §8.5)
    advance: bool = False
    #: option retreat-to-reduce-hits (001 10.37): the defender retreats to take one hit fewer
    reduce_hits: bool = False

    def notation(self) -> str:
        text = f"shock {','.join(self.attackers)} {self.defender}"
        if self.weapon:
            text += f" weapon:{self.weapon}"
        if self.defender_weapon:
            text += f" defender_weapon:{self.defender_weapon}"
        if self.reaction_fire:
            text += f" reaction_fire:{self.reaction_fire}"
        if self.pursue:
            text += " pursue"
        if self.retreat_before_combat:
            text += f" rbc:{','.join(self.retreat_before_combat)}"
        if self.advance:
            text += " advance"
        if self.reduce_hits:
            text += " reduce_hits"
        return text


@dataclass(frozen=True, slots=True)
class Fire:
    """``fire A1 B1`` (003 §8.1, 000 §8.1)."""

    verb: ClassVar[str] = "fire"
    unit: str
    target: str
    #: hit-and-run fire without moving (003 §9.3 SK/LI, §9.41 missile cavalry)
    hit_and_run: bool = False
    #: the target fires back after a hit and run (003 §9.3 "take return fire")
    return_fire: bool = False

    def notation(self) -> str:
        return (
            f"fire {self.unit} {self.target}"
            + (" hit_and_run" if self.hit_and_run else "")
            + (" return_fire" if self.return_fire else "")
        )


@dataclass(frozen=True, slots=True)
class Rally:
    """``rally A2`` (003 §10.27): a mandatory rally roll, or a voluntary removal of missile hits."""

    verb: ClassVar[str] = "rally"
    unit: str

    def notation(self) -> str:
        return f"rally {self.unit}"


@dataclass(frozen=True, slots=True)
class React:
    """The defending side's answer to a move, shock or hit and run that waits on it
    (``State.reacting``; docs/rules/tactical.md §8.13).  During a move: one ``reaction`` (003 §7.16,
    000 §6.5, §7.15).  Before a shock: reaction ``fire`` at one attacker (003 §8.2), or a cavalry
    retreat before combat ``rbc`` (003 §8.3, §9.16), and with option retreat-to-reduce-hits the
    standing choice to retreat for a hit fewer (001 10.37).  After a hit and run: ``return_fire``
    (003 §9.3)."""

    verb: ClassVar[str] = "react"
    reaction: Reaction | None = None
    fire: str | None = None
    rbc: tuple[str, ...] | None = None
    reduce_hits: bool = False
    return_fire: bool = False

    def notation(self) -> str:
        parts = ["react"]
        if self.reaction is not None:
            parts.append(self.reaction.notation())
        if self.fire:
            parts.append(f"fire:{self.fire}")
        if self.rbc:
            parts.append(f"rbc:{','.join(self.rbc)}")
        if self.reduce_hits:
            parts.append("reduce_hits")
        if self.return_fire:
            parts.append("return_fire")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Decline:
    """The defending side takes no (further) reaction: the move goes on, the shock is rolled."""

    verb: ClassVar[str] = "decline"

    def notation(self) -> str:
        return "decline"


Action = (
    Move
    | Face
    | Activate
    | Continuity
    | Pass
    | Start
    | Replace
    | Designate
    | Resolve
    | Shock
    | Fire
    | Rally
    | React
    | Decline
)


def _target(leader: str | None, group: tuple[str, ...] | None) -> str:
    return leader if leader is not None else "group:" + ",".join(group or ())


def _parse_target(words: list[str], verb: str) -> tuple[str | None, tuple[str, ...] | None]:
    if len(words) != 1:
        raise _Unreadable(f"'{verb}' needs one leader or group:ID,ID,…")
    w = words[0]
    if w.startswith("group:"):
        ids = tuple(x for x in w[6:].split(",") if x)
        if not ids:
            raise _Unreadable("a group needs at least one unit")
        return None, ids
    return w, None


def parse_action(text: str) -> Action:
    """Read an action written in the notation above; ``NotationError`` (the kernel's typed
    input error, also a ``RuleError``) with one sentence if it cannot be read."""
    try:
        return _parse(text)
    except _Unreadable as exc:
        raise NotationError(text, str(exc)) from None


class _Unreadable(Exception):
    """What cannot be read in a written action (raised deep in the parser, named with the text above)."""


def _parse(text: str) -> Action:
    main, *reacts = [part.strip() for part in text.split("|")]
    words = main.split()
    if not words:
        raise _Unreadable("an action needs a verb")
    verb, rest = words[0], words[1:]
    if verb == "move":
        if not rest:
            raise _Unreadable("'move' needs a unit and a path")
        reactions = tuple(_parse_reaction(r) for r in reacts)
        carry = None
        if len(rest) > 1 and rest[1].startswith("with:"):
            carry = rest[1][5:]
            rest = [rest[0], *rest[2:]]
        return Move(rest[0], tuple(rest[1:]), reactions, carry)
    if reacts:
        raise _Unreadable("only a move may carry reactions")
    if verb == "face":
        if len(rest) != 2 or not rest[1].isdigit():
            raise _Unreadable("'face' needs a unit and a clock facing")
        return Face(rest[0], int(rest[1]))
    if verb in ("activate", "continuity"):
        leader, group = _parse_target(rest, verb)
        return Activate(leader, group) if verb == "activate" else Continuity(leader, group)
    if verb == "pass" and not rest:
        return Pass()
    if verb == "start" and not rest:
        return Start()
    if verb == "resolve" and not rest:
        return Resolve()
    if verb == "decline" and not rest:
        return Decline()
    if verb == "react" and rest:
        return _parse_react(rest)
    if verb == "designate":
        if len(rest) != 2:
            raise _Unreadable("'designate' needs attackers A1,A2 and a defender")
        attackers = tuple(x for x in rest[0].split(",") if x)
        if not attackers:
            raise _Unreadable("'designate' needs at least one attacker")
        return Designate(attackers, rest[1])
    if verb == "shock" and len(rest) >= 2:
        return _parse_shock(rest)
    if verb == "fire" and len(rest) >= 2 and set(rest[2:]) <= {"hit_and_run", "return_fire"}:
        return Fire(rest[0], rest[1], "hit_and_run" in rest[2:], "return_fire" in rest[2:])
    if verb == "rally" and len(rest) == 1:
        return Rally(rest[0])
    if verb == "replace" and len(rest) in (2, 3):
        by = None
        if len(rest) == 3:
            if not rest[2].startswith("by:"):
                raise _Unreadable("'replace' takes an optional by:LEADER")
            by = rest[2][3:]
        return Replace(rest[0], rest[1], by)
    raise _Unreadable("it is not an action of a tactical battle (see cases/FORMAT.md)")


def _parse_shock(rest: list[str]) -> Shock:
    attackers = tuple(x for x in rest[0].split(",") if x)
    kw: dict[str, object] = {}
    for word in rest[2:]:
        key, _, value = word.partition(":")
        if key in ("weapon", "reaction_fire", "defender_weapon") and value:
            kw[key] = value
        elif key == "rbc" and value:
            kw["retreat_before_combat"] = tuple(value.split(","))
        elif word in ("pursue", "advance", "reduce_hits"):
            kw[word] = True
        else:
            raise _Unreadable(f"cannot read {word!r} in a shock")
    return Shock(attackers, rest[1], **kw)  # type: ignore[arg-type]


def _parse_react(rest: list[str]) -> React:
    if "@" in rest[0]:
        return React(reaction=_parse_reaction(" ".join(rest)))
    kw: dict[str, object] = {}
    for word in rest:
        key, _, value = word.partition(":")
        if key == "fire" and value:
            kw["fire"] = value
        elif key == "rbc" and value:
            kw["rbc"] = tuple(x for x in value.split(",") if x)
        elif word in ("reduce_hits", "return_fire"):
            kw[word] = True
        else:
            raise _Unreadable(f"cannot read {word!r} in a reaction")
    return React(**kw)  # type: ignore[arg-type]


def _parse_reaction(text: str) -> Reaction:
    words = text.split()
    fire = words[-1:] == ["fire"]
    if fire:
        words = words[:-1]
    if len(words) != 2 or "@" not in words[0]:
        raise _Unreadable(f"cannot read the reaction {text!r} (write UNIT@HEX face:F or withdraw:HEX,…)")
    unit, at = words[0].split("@", 1)
    kind, _, value = words[1].partition(":")
    if kind == "face" and value.isdigit():
        return Reaction(unit, at, face=int(value))
    if kind == "withdraw":
        return Reaction(unit, at, withdraw=tuple(x for x in value.split(",") if x), fire=fire)
    raise _Unreadable(f"cannot read the reaction {text!r}")


def notation(action: Action) -> str:
    return action.notation()
