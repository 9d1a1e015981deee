"""The event log every engine appends to: what happened, in words and as data."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened.  ``kind`` is a stable machine name (``"shock"``,
    ``"march"``…), ``text`` the sentence a player reads, ``data`` the details."""

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "data": dict(self.data)}

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Event:
        return cls(str(raw["kind"]), str(raw["text"]), dict(raw.get("data", {})))


class EventLog:
    """An append-only list of events with cheap slicing for views and reports."""

    __slots__ = ("_events",)

    def __init__(self, events: list[Event] | None = None) -> None:
        self._events: list[Event] = list(events or [])

    def append(self, kind: str, text: str, **data: Any) -> Event:
        event = Event(kind, text, data)
        self._events.append(event)
        return event

    def extend(self, events: list[Event]) -> None:
        self._events.extend(events)

    def since(self, index: int) -> list[Event]:
        return self._events[index:]

    def texts(self) -> list[str]:
        return [e.text for e in self._events]

    def __len__(self) -> int:
        return len(self._events)

    def __iter__(self) -> Iterator[Event]:
        return iter(self._events)

    def __getitem__(self, index: int) -> Event:
        return self._events[index]

    def to_list(self) -> list[dict[str, Any]]:
        return [e.to_dict() for e in self._events]

    @classmethod
    def from_list(cls, raw: list[dict[str, Any]]) -> EventLog:
        return cls([Event.from_dict(r) for r in raw])
