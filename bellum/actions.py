"""One action style for every engine (python-chess's ``Move`` and its ``uci()``/``from_uci``).

An action is a small frozen value, one class per verb, with a written form:
``action.notation()`` writes it on one line and the engine's ``parse_action(text)`` reads
it back (``parse_action(a.notation()) == a`` for every action the generator offers).  A
text that cannot be read raises ``NotationError``: bad input (``InputError``, naming the
text and the problem in one sentence) that is also a ``RuleError``, so a caller that
refuses illegal actions refuses unreadable ones the same way.

``FieldNotation`` is the shared written form of actions that are plain fields (the
campaign's, the battleboard's): ``verb POSITIONAL… key:value… flag…`` — the fields without
a default in order, then the ones that differ from their default as ``key:value`` (a tuple
as ``a,b,c``, ``true`` booleans as a bare ``key``).  Tactical writes its own richer notation
(reactions, groups) with the same protocol.
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any, ClassVar, Protocol, TypeVar, get_type_hints

from bellum.errors import InputError, RuleError

T = TypeVar("T", bound="FieldNotation")
C = TypeVar("C")


class NotationError(InputError, RuleError):
    """A written action that cannot be read: the text and what is wrong with it."""

    def __init__(self, text: str, problem: str) -> None:
        super().__init__("the action", repr(text), problem)


class Notated(Protocol):
    """What every engine's action offers: its verb and its written form."""

    @property
    def verb(self) -> str: ...

    def notation(self) -> str: ...


class FieldNotation:
    """Mixin for a frozen dataclass action whose fields are text, whole numbers, booleans,
    optional text or numbers, and tuples of text: writes and reads ``verb args key:value``."""

    __slots__ = ()
    verb: ClassVar[str]

    def notation(self) -> str:
        words = [self.verb]
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            required = f.default is MISSING and f.default_factory is MISSING
            if required:
                words.append(_write(value))
            elif value != f.default:
                words.append(f.name if value is True else f"{f.name}:{_write(value)}")
        return " ".join(words)

    @classmethod
    def from_words(cls: type[T], text: str, words: list[str]) -> T:
        """The action from the words after its verb; ``NotationError`` if they do not fit."""
        hints = _hints(cls)
        positional = [f.name for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING]  # type: ignore[arg-type]
        if len(words) < len(positional) or any(":" in w for w in words[: len(positional)]):
            raise NotationError(text, f"'{cls.verb}' needs {', '.join(positional) or 'nothing more'}")
        kwargs: dict[str, Any] = {n: _read(text, n, hints[n], w) for n, w in zip(positional, words, strict=False)}
        for word in words[len(positional) :]:
            key, colon, value = word.partition(":")
            if key not in hints or key in positional or key in kwargs:
                raise NotationError(text, f"'{cls.verb}' has no option {key!r}")
            if not colon:
                if hints[key] is not bool:
                    raise NotationError(text, f"{key} needs a value ({key}:…)")
                kwargs[key] = True
            else:
                kwargs[key] = _read(text, key, hints[key], value)
        return cls(**kwargs)


def _write(value: Any) -> str:
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = get_type_hints(cls)
    return _HINTS[cls]


def _read(text: str, name: str, hint: Any, word: str) -> Any:
    """One field's value from its written word, by the field's type."""
    if hint is str or hint == str | None:
        return word
    if hint is bool:
        if word not in ("true", "false"):
            raise NotationError(text, f"{name} is true or false")
        return word == "true"
    if hint is int or hint == int | None:
        try:
            return int(word)
        except ValueError:
            raise NotationError(text, f"{name} must be a whole number, not {word!r}") from None
    if hint == tuple[str, ...]:
        return tuple(w for w in word.split(",") if w)
    raise NotationError(text, f"{name} cannot be written in a line")  # pragma: no cover - a class's own parser


def dispatch(text: str, classes: dict[str, C], engine: str) -> tuple[C, list[str]]:
    """The action class a text's verb names, and the words after it."""
    words = text.split()
    if not words:
        raise NotationError(text, "an action needs a verb")
    cls = classes.get(words[0])
    if cls is None:
        raise NotationError(text, f"{words[0]!r} is not a {engine} action ({', '.join(classes)})")
    return cls, words[1:]
