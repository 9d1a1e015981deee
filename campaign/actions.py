"""Campaign actions: small frozen values, each with a written form (docs/rules/campaign.md §7.3).

Every action a player (or the AI) may take is one of these; ``encode`` writes it as a
plain dict for the session's action log and ``decode`` reads it back, refusing anything
malformed with ``ValueError`` (the session turns that into one ``InputError`` sentence).

Decisions that settle a battle (``Commit``, ``Accept``, ``Intercept``, ``CutSupply`` in
the supply phase) may carry an ``outcome``: a ``bellum.engagement.Outcome`` produced
elsewhere (the battleboard window, the tactical engine).  When it is there it is applied
instead of auto-resolving, and because it is in the log the game replays exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from bellum.engagement import Outcome


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass a phase that has nothing to do yet (events, stratagems, Res Publica, recruiting)."""


@dataclass(frozen=True, slots=True)
class EndPhase:
    """End the movement or combat phase."""


@dataclass(frozen=True, slots=True)
class March:
    force: str
    to: str
    path: tuple[str, ...]
    stratagem: bool = False


@dataclass(frozen=True, slots=True)
class Sail:
    force: str
    to: str
    path: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Merge:
    force: str
    into: str


@dataclass(frozen=True, slots=True)
class Intercept:
    force: str
    outcome: Outcome | None = None


@dataclass(frozen=True, slots=True)
class Decline:
    """Let a voyage pass, let sea supply through, or refuse a naval battle."""


@dataclass(frozen=True, slots=True)
class CutSupply:
    place: str
    force: str


@dataclass(frozen=True, slots=True)
class Supply:
    """Resolve the active side's supply phase."""


@dataclass(frozen=True, slots=True)
class Battle:
    place: str
    stratagems: int = 0


@dataclass(frozen=True, slots=True)
class Commit:
    stratagems: int = 0
    outcome: Outcome | None = None


@dataclass(frozen=True, slots=True)
class OfferNaval:
    place: str


@dataclass(frozen=True, slots=True)
class Accept:
    outcome: Outcome | None = None


@dataclass(frozen=True, slots=True)
class Storm:
    city: str
    force: str
    stratagem: bool = False


Action = (
    Pass
    | EndPhase
    | March
    | Sail
    | Merge
    | Intercept
    | Decline
    | CutSupply
    | Supply
    | Battle
    | Commit
    | OfferNaval
    | Accept
    | Storm
)

TYPES: dict[str, type[Any]] = {
    "pass": Pass,
    "end": EndPhase,
    "march": March,
    "sail": Sail,
    "merge": Merge,
    "intercept": Intercept,
    "decline": Decline,
    "cut_supply": CutSupply,
    "supply": Supply,
    "battle": Battle,
    "commit": Commit,
    "offer_naval": OfferNaval,
    "accept": Accept,
    "storm": Storm,
}
NAMES: dict[type[Any], str] = {v: k for k, v in TYPES.items()}


def encode(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"type": NAMES[type(action)]}
    for f in fields(action):
        value = getattr(action, f.name)
        if isinstance(value, Outcome):
            out[f.name] = value.model_dump(mode="json")
        elif isinstance(value, tuple):
            out[f.name] = list(value)
        elif value is not None:
            out[f.name] = value
    return out


def decode(raw: dict[str, Any]) -> Action:
    if not isinstance(raw, dict):
        raise ValueError("an action must be a table")
    kind = raw.get("type")
    cls = TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"{kind!r} is not a campaign action ({', '.join(TYPES)})")
    names = {f.name: f for f in fields(cls)}
    extra = set(raw) - set(names) - {"type"}
    if extra:
        raise ValueError(f"a {kind} action has no field {sorted(extra)[0]!r}")
    kwargs: dict[str, Any] = {}
    for name in names:
        if name not in raw:
            continue
        value = raw[name]
        if name == "outcome":
            value = Outcome.model_validate(value)
        elif name == "path":
            if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
                raise ValueError("a path is a list of place ids")
            value = tuple(value)
        elif name in ("stratagem",):
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be true or false")
        elif name == "stratagems":
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 30:
                raise ValueError("stratagems must be a whole number from 0 to 30")
        elif not isinstance(value, str):
            raise ValueError(f"{name} must be text")
        kwargs[name] = value
    try:
        action: Action = cls(**kwargs)
    except TypeError as exc:
        raise ValueError(f"a {kind} action is incomplete ({exc})") from None
    return action
