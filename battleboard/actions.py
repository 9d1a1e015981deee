"""Battleboard actions: one class per verb, with a written form (the kernel's action style,
``bellum.actions``; docs/rules/battleboard.md §5–§9)::

    command                 double              withdraw            end_turn
    move A3 14              move A3 off         (off: across the edge it stands on, §7.4)
    attack A3 B2 shock      attack F1 G2 board capture       (naval: ram, fire, a boarding mode)
    stratagem LA1 rally
    allocate A F1=A4,A5 F2= LA1@F1                 (troops to fleets, leaders aboard)
    deploy B B1@3 B2@4

Squares are the board's integers (``row * columns + column``).  ``parse_action(text)``
reads that back; ``NotationError`` (one sentence) if it cannot be read.

Every class is a named tuple with the same eleven fields, in the order the game has always
kept them (``verb``, ``unit``, ``to``, ``target``, ``mode``, ``capture``, ``side``,
``effect``, ``plan``, ``placements``, ``leader_plan``): the generator makes many actions
and a tuple is cheap, views and the AI read any field of any action, and two actions are
equal when their fields are.  ``Action(verb, …)`` (the old constructor) builds the verb's
class; each class has its own constructor with only its own fields (``Move(unit, to)``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from bellum.actions import NotationError, dispatch

OFF = -1  # the destination of a move across the edge the unit stands on (§7.4, 004 Escape)

Plan = tuple[tuple[str, tuple[str, ...]], ...]


class _Fields(NamedTuple):
    verb: str
    unit: str = ""
    to: int | None = None
    target: str = ""
    mode: str = ""
    capture: bool = False
    side: str = ""
    effect: str = ""
    plan: Plan = ()
    placements: tuple[tuple[str, int], ...] = ()
    leader_plan: tuple[tuple[str, str], ...] = ()


_new = tuple.__new__


class Action(_Fields):
    """One thing a player does (the base of every verb's class)."""

    __slots__ = ()

    def __new__(
        cls,
        verb: str,
        unit: str = "",
        to: int | None = None,
        target: str = "",
        mode: str = "",
        capture: bool = False,
        side: str = "",
        effect: str = "",
        plan: Plan = (),
        placements: tuple[tuple[str, int], ...] = (),
        leader_plan: tuple[tuple[str, str], ...] = (),
    ) -> Action:
        """The action of ``verb`` with these fields, as its verb's class."""
        kind = VERBS.get(verb)
        if kind is None:
            raise ValueError(f"{verb!r} is not a battleboard action ({', '.join(VERBS)})")
        fields = (verb, unit, to, target, mode, capture, side, effect, plan, placements, leader_plan)
        out: Action = _new(kind, fields)
        return out

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (Action, tuple(self))

    def notation(self) -> str:
        return self.verb

    @classmethod
    def from_words(cls, text: str, words: list[str]) -> Action:
        if words:
            raise NotationError(text, f"'{VERB_OF[cls]}' takes nothing more")
        return Action(VERB_OF[cls])


class Command(Action):
    """Roll for command (§5)."""

    __slots__ = ()

    def __new__(cls) -> Command:
        return _new(cls, ("command", "", None, "", "", False, "", "", (), (), ()))


class Double(Action):
    """Play the double move (§5.3)."""

    __slots__ = ()

    def __new__(cls) -> Double:
        return _new(cls, ("double", "", None, "", "", False, "", "", (), (), ()))


class Withdraw(Action):
    """Leave the field (§9)."""

    __slots__ = ()

    def __new__(cls) -> Withdraw:
        return _new(cls, ("withdraw", "", None, "", "", False, "", "", (), (), ()))


class EndTurn(Action):
    __slots__ = ()

    def __new__(cls) -> EndTurn:
        return _new(cls, ("end_turn", "", None, "", "", False, "", "", (), (), ()))


class Move(Action):
    """A unit or leader moves to square ``to`` (``OFF``: across the board's edge)."""

    __slots__ = ()

    def __new__(cls, unit: str, to: int | None) -> Move:
        return _new(cls, ("move", unit, to, "", "", False, "", "", (), (), ()))

    def notation(self) -> str:
        return f"move {self.unit} {'off' if self.to == OFF else self.to}"

    @classmethod
    def from_words(cls, text: str, words: list[str]) -> Action:
        if len(words) != 2:
            raise NotationError(text, "'move' needs a unit and a square (or off)")
        return Move(words[0], OFF if words[1] == "off" else _int(text, words[1], "the square"))


class Attack(Action):
    """``unit`` attacks ``target`` by ``mode`` (a land attack, ``ram``, ``fire`` or a boarding
    mode; ``capture``: a boarding that takes the ship rather than sinks it)."""

    __slots__ = ()

    def __new__(cls, unit: str, target: str, mode: str, capture: bool = False) -> Attack:
        return _new(cls, ("attack", unit, None, target, mode, capture, "", "", (), (), ()))

    def notation(self) -> str:
        return f"attack {self.unit} {self.target} {self.mode}" + (" capture" if self.capture else "")

    @classmethod
    def from_words(cls, text: str, words: list[str]) -> Action:
        if len(words) not in (3, 4) or words[3:] not in ([], ["capture"]):
            raise NotationError(text, "'attack' needs a unit, a target and a mode (then capture, if it is)")
        return Attack(words[0], words[1], words[2], len(words) == 4)


class Stratagem(Action):
    """Leader ``unit`` plays a Military stratagem for ``effect`` (rally, inspire)."""

    __slots__ = ()

    def __new__(cls, unit: str, effect: str) -> Stratagem:
        return _new(cls, ("stratagem", unit, None, "", "", False, "", effect, (), (), ()))

    def notation(self) -> str:
        return f"stratagem {self.unit} {self.effect}"

    @classmethod
    def from_words(cls, text: str, words: list[str]) -> Action:
        if len(words) != 2:
            raise NotationError(text, "'stratagem' needs a leader and an effect")
        return Stratagem(words[0], words[1])


class Allocate(Action):
    """``side`` puts its troops aboard its fleets (``plan``) and its leaders with them."""

    __slots__ = ()

    def __new__(cls, side: str, plan: Plan, leader_plan: tuple[tuple[str, str], ...] = ()) -> Allocate:
        return _new(cls, ("allocate", "", None, "", "", False, side, "", plan, (), leader_plan))

    def notation(self) -> str:
        fleets = [f"{fid}={','.join(gids)}" for fid, gids in self.plan]
        leaders = [f"{lid}@{fid}" for lid, fid in self.leader_plan]
        return " ".join(["allocate", self.side, *fleets, *leaders])

    @classmethod
    def from_words(cls, text: str, words: list[str]) -> Action:
        if not words:
            raise NotationError(text, "'allocate' needs a side, then FLEET=TROOP,… and LEADER@FLEET")
        plan, leaders = [], []
        for word in words[1:]:
            if "=" in word:
                fid, _, gids = word.partition("=")
                plan.append((fid, tuple(g for g in gids.split(",") if g)))
            elif "@" in word:
                lid, _, fid = word.partition("@")
                leaders.append((lid, fid))
            else:
                raise NotationError(text, f"cannot read {word!r} (write FLEET=TROOP,… or LEADER@FLEET)")
        return Allocate(words[0], tuple(plan), tuple(leaders))


class Deploy(Action):
    """``side`` sets its units up on the squares of ``placements``."""

    __slots__ = ()

    def __new__(cls, side: str, placements: tuple[tuple[str, int], ...]) -> Deploy:
        return _new(cls, ("deploy", "", None, "", "", False, side, "", (), placements, ()))

    def notation(self) -> str:
        return " ".join(["deploy", self.side, *(f"{uid}@{sq}" for uid, sq in self.placements)])

    @classmethod
    def from_words(cls, text: str, words: list[str]) -> Action:
        if not words or not all("@" in w for w in words[1:]):
            raise NotationError(text, "'deploy' needs a side, then UNIT@SQUARE for each unit")
        pairs = [w.partition("@") for w in words[1:]]
        return Deploy(words[0], tuple((uid, _int(text, sq, f"{uid}'s square")) for uid, _, sq in pairs))


def _int(text: str, word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise NotationError(text, f"{what} must be a square number, not {word!r}") from None


#: each verb's class (the ``verb`` of its logged form, the first word of its notation)
VERBS: dict[str, type[Action]] = {
    "command": Command,
    "move": Move,
    "attack": Attack,
    "end_turn": EndTurn,
    "double": Double,
    "stratagem": Stratagem,
    "allocate": Allocate,
    "deploy": Deploy,
    "withdraw": Withdraw,
}
VERB_OF: dict[type[Action], str] = {cls: verb for verb, cls in VERBS.items()}


def parse_action(text: str) -> Action:
    """Read an action in its written form; ``NotationError`` (one sentence) if it cannot be read."""
    cls, words = dispatch(text, VERBS, "battleboard")
    return cls.from_words(text, words)


def notation(action: Action) -> str:
    return action.notation()
