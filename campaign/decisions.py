"""Pending decisions: what the reactive side must answer before play goes on (campaign.md §7.4).

One frozen class per kind, each naming the side that answers (``actor``) and what the
decision is about, typed:

- ``intercept`` — a voyage (``force`` sailing to ``to`` along ``path``) may be intercepted
  by one of the ``options`` (forces);
- ``cut_supply`` / ``escort`` — sea supply may be cut / fought for: ``options`` are
  (place, force) pairs;
- ``naval_offer`` — a mutual naval battle is offered off ``place``;
- ``commit`` — the defender commits Military stratagems to the battle at ``place`` (the
  attacker committed ``a``);
- ``spoils`` — the winner of a battle takes its ``n`` bonus stratagems as Military or Agents;
- ``veto`` — the Tribune may negate ``side``'s Res Publica result (``table``, ``entry``).

Saves and turn files keep the plain form they always had, ``{"kind", "actor", "data"}``
(``plain``; the state's checksum is unchanged), and ``from_plain`` reads it back.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from pydantic import TypeAdapter, ValidationError


@dataclass(frozen=True, slots=True)
class Decision:
    """Base of every pending decision: the side that answers, and the kind's plain data."""

    actor: str
    kind: ClassVar[str]

    @property
    def data(self) -> dict[str, Any]:
        """What the decision is about, as plain values (the saved form's ``data``)."""
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self) if f.name != "actor"}


@dataclass(frozen=True, slots=True)
class InterceptDecision(Decision):
    kind: ClassVar[str] = "intercept"
    force: str
    to: str
    path: tuple[str, ...]
    options: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CutSupplyDecision(Decision):
    kind: ClassVar[str] = "cut_supply"
    options: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class EscortDecision(Decision):
    kind: ClassVar[str] = "escort"
    options: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class NavalOfferDecision(Decision):
    kind: ClassVar[str] = "naval_offer"
    place: str


@dataclass(frozen=True, slots=True)
class CommitDecision(Decision):
    kind: ClassVar[str] = "commit"
    place: str
    a: int


@dataclass(frozen=True, slots=True)
class SpoilsDecision(Decision):
    kind: ClassVar[str] = "spoils"
    n: int


@dataclass(frozen=True, slots=True)
class VetoDecision(Decision):
    kind: ClassVar[str] = "veto"
    side: str
    table: str
    entry: int


Pending = (
    InterceptDecision
    | CutSupplyDecision
    | EscortDecision
    | NavalOfferDecision
    | CommitDecision
    | SpoilsDecision
    | VetoDecision
)

KINDS: dict[str, type[Decision]] = {
    cls.kind: cls
    for cls in (
        InterceptDecision,
        CutSupplyDecision,
        EscortDecision,
        NavalOfferDecision,
        CommitDecision,
        SpoilsDecision,
        VetoDecision,
    )
}


def _plain(value: Any) -> Any:
    return [_plain(v) for v in value] if isinstance(value, tuple) else value


def plain(p: Pending) -> dict[str, Any]:
    """The saved form of a decision (as saves and turn files have always held it)."""
    return {"kind": p.kind, "actor": p.actor, "data": p.data}


def from_plain(raw: Any) -> Pending:
    """A decision from its saved form; ``ValueError`` with a sentence if it is not one."""
    if not isinstance(raw, dict) or set(raw) != {"kind", "actor", "data"}:
        raise ValueError("a pending decision is a table of kind, actor and data")
    cls = KINDS.get(raw["kind"]) if isinstance(raw["kind"], str) else None
    if cls is None:
        raise ValueError(f"{raw['kind']!r} is not a pending decision ({', '.join(KINDS)})")
    if not isinstance(raw["data"], dict):
        raise ValueError("a pending decision's data is a table")
    names = [f.name for f in fields(cls) if f.name != "actor"]
    if set(raw["data"]) != set(names):
        raise ValueError(f"a {cls.kind} decision's data holds {', '.join(names)}")
    try:
        out: Pending = _adapter(cls).validate_python({**raw["data"], "actor": raw["actor"]})
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err["loc"])
        raise ValueError(f"a {cls.kind} decision's {where or 'data'}: {err['msg']}") from None
    return out


_ADAPTERS: dict[type[Decision], TypeAdapter[Any]] = {}


def _adapter(cls: type[Decision]) -> TypeAdapter[Any]:
    if cls not in _ADAPTERS:
        _ADAPTERS[cls] = TypeAdapter(cls)
    return _ADAPTERS[cls]
