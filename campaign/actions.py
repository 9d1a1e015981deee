"""Campaign actions: small frozen values, each with a written form (docs/rules/campaign.md §7.3).

Every action a player (or the AI) may take is one of these; ``encode`` writes it as a
plain dict for the session's action log and ``decode`` reads it back, refusing anything
malformed with ``ValueError`` (the session turns that into one ``InputError`` sentence).

Decisions that settle a battle (``Commit``, ``Accept``, ``Intercept``) may carry an
``outcome``, and ``Supply`` the ``outcomes`` of its convoy battles: a ``bellum.engagement.Outcome`` produced
elsewhere (the battleboard window, the tactical engine).  When it is there it is applied
instead of auto-resolving, and because it is in the log the game replays exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from bellum.engagement import Outcome
from bellum.errors import InputError
from bellum.tomlio import validate


@dataclass(frozen=True, slots=True)
class Pass:
    """End a phase that is passed rather than ended: the events slot, and the stratagems,
    Res Publica and recruiting phases (whatever is still owed is forfeited)."""


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
class Escort:
    """The supplied side fights for its sea supply to ``place`` with ``force``'s fleets
    against the enemy's cut (004 case (b)); declining concedes the cut."""

    place: str
    force: str


@dataclass(frozen=True, slots=True)
class Supply:
    """Resolve the active side's supply phase.  ``outcomes``: convoy battles (§10.2) fought
    elsewhere (the battleboard, the tactical engine), each matched to its engagement by id;
    a convoy battle without one is auto-resolved."""

    outcomes: tuple[Outcome, ...] = ()


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


@dataclass(frozen=True, slots=True)
class Take:
    """Choose one stratagem counter of a type in the stratagems phase (campaign.md §15.2)."""

    kind: str


@dataclass(frozen=True, slots=True)
class Politics:
    """One Political stratagem rolled on a Res Publica table (§16.2)."""

    table: str


@dataclass(frozen=True, slots=True)
class Claim:
    """A leader claims the succession of a fallen Supreme Leader (§17.6)."""

    leader: str


@dataclass(frozen=True, slots=True)
class Veto:
    """The Tribune negates the Res Publica result just rolled (§16.3)."""


@dataclass(frozen=True, slots=True)
class Recruit:
    """Raise a counter of ``kind`` (or a civis) in a city (§17.1)."""

    city: str
    kind: str


@dataclass(frozen=True, slots=True)
class RecruitLeader:
    leader: str
    city: str


@dataclass(frozen=True, slots=True)
class FoundColony:
    city: str


@dataclass(frozen=True, slots=True)
class Train:
    unit: str


@dataclass(frozen=True, slots=True)
class FormGuard:
    """Turn an imperator legion with the Supreme Leader into his Guard (§17.5)."""

    unit: str


@dataclass(frozen=True, slots=True)
class Tribute:
    """Win a neutral city or a client state over (§18.1)."""

    target: str


@dataclass(frozen=True, slots=True)
class Bribe:
    """Bribe an enemy city's civis into revolt (§18.2)."""

    city: str


@dataclass(frozen=True, slots=True)
class Subvert:
    """Make an enemy force desert or defect (§18.3)."""

    force: str


@dataclass(frozen=True, slots=True)
class Assassinate:
    leader: str


Action = (
    Pass
    | EndPhase
    | March
    | Sail
    | Merge
    | Intercept
    | Decline
    | CutSupply
    | Escort
    | Supply
    | Battle
    | Commit
    | OfferNaval
    | Accept
    | Storm
    | Take
    | Politics
    | Claim
    | Veto
    | Recruit
    | RecruitLeader
    | FoundColony
    | Train
    | FormGuard
    | Tribute
    | Bribe
    | Subvert
    | Assassinate
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
    "escort": Escort,
    "supply": Supply,
    "battle": Battle,
    "commit": Commit,
    "offer_naval": OfferNaval,
    "accept": Accept,
    "storm": Storm,
    "take": Take,
    "politics": Politics,
    "claim": Claim,
    "veto": Veto,
    "recruit": Recruit,
    "recruit_leader": RecruitLeader,
    "found_colony": FoundColony,
    "train": Train,
    "form_guard": FormGuard,
    "tribute": Tribute,
    "bribe": Bribe,
    "subvert": Subvert,
    "assassinate": Assassinate,
}
NAMES: dict[type[Any], str] = {v: k for k, v in TYPES.items()}


def encode(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"type": NAMES[type(action)]}
    for f in fields(action):
        value = getattr(action, f.name)
        if isinstance(value, Outcome):
            out[f.name] = value.model_dump(mode="json")
        elif f.name == "outcomes":
            if value:
                out[f.name] = [o.model_dump(mode="json") for o in value]
        elif isinstance(value, tuple):
            out[f.name] = list(value)
        elif value is not None:
            out[f.name] = value
    return out


def _outcome(value: Any, place: str) -> Outcome:
    """A battle's result written on an action, validated strictly (``bellum.tomlio.validate``)."""
    try:
        return validate(Outcome, value, "the action", place)
    except InputError as exc:
        raise ValueError(f"{exc.place}: {exc.problem}") from None


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
            value = _outcome(value, name)
        elif name == "outcomes":
            if not isinstance(value, list):
                raise ValueError("outcomes is a list of battle results")
            value = tuple(_outcome(o, f"outcomes[{i}]") for i, o in enumerate(value))
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
