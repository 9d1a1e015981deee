"""Campaign actions: small frozen values, each with a written form (docs/rules/campaign.md §7.3).

Every action a player (or the AI) may take is one of these, a class per verb in the kernel's
one action style (``bellum.actions``): ``notation()`` writes it on a line and
``parse_action`` reads it back::

    march F3 neapolis roma,capua,neapolis stratagem    (force, destination, path; a stratagem spent)
    sail F7 dyrrachium brundisium,dyrrachium
    battle pharsalus stratagems:2
    commit stratagems:1 outcome:{...}                  (a battle fought elsewhere, as JSON)
    recruit roma legion        pass        end        decline

``encode`` writes an action as a plain dict for the session's action log and ``decode`` reads
it back, refusing anything malformed with ``ValueError`` (the session turns that into one
``InputError`` sentence).

Decisions that settle a battle (``Commit``, ``Accept``, ``Intercept``) may carry an
``outcome``, and ``Supply`` the ``outcomes`` of its convoy battles: a ``bellum.engagement.Outcome`` produced
elsewhere (the battleboard window, the tactical engine).  When it is there it is applied
instead of auto-resolving, and because it is in the log the game replays exactly.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

from bellum.actions import FieldNotation, NotationError, dispatch
from bellum.engagement import Outcome
from bellum.errors import InputError
from bellum.tomlio import validate


class _Settles(FieldNotation):
    """An action that may carry the result of a battle fought elsewhere (``outcome``, or
    ``outcomes`` for convoy battles), written last as compact JSON."""

    __slots__ = ()

    def notation(self) -> str:
        name = "outcomes" if isinstance(self, Supply) else "outcome"
        value = getattr(self, name)
        head = FieldNotation.notation(replace(self, **{name: () if name == "outcomes" else None}))  # type: ignore[type-var]
        if not value:
            return head
        plain = [o.model_dump(mode="json") for o in value] if name == "outcomes" else value.model_dump(mode="json")
        return f"{head} {name}:{json.dumps(plain, separators=(',', ':'), sort_keys=True)}"


@dataclass(frozen=True, slots=True)
class Pass(FieldNotation):
    """End a phase that is passed rather than ended: the events slot, and the stratagems,
    Res Publica and recruiting phases (whatever is still owed is forfeited)."""

    verb: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class EndPhase(FieldNotation):
    """End the movement or combat phase."""

    verb: ClassVar[str] = "end"


@dataclass(frozen=True, slots=True)
class March(FieldNotation):
    verb: ClassVar[str] = "march"
    force: str
    to: str
    path: tuple[str, ...]
    stratagem: bool = False


@dataclass(frozen=True, slots=True)
class Sail(FieldNotation):
    verb: ClassVar[str] = "sail"
    force: str
    to: str
    path: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Merge(FieldNotation):
    verb: ClassVar[str] = "merge"
    force: str
    into: str


@dataclass(frozen=True, slots=True)
class Intercept(_Settles):
    verb: ClassVar[str] = "intercept"
    force: str
    outcome: Outcome | None = None


@dataclass(frozen=True, slots=True)
class Decline(FieldNotation):
    """Let a voyage pass, let sea supply through, or refuse a naval battle."""

    verb: ClassVar[str] = "decline"


@dataclass(frozen=True, slots=True)
class CutSupply(FieldNotation):
    verb: ClassVar[str] = "cut_supply"
    place: str
    force: str


@dataclass(frozen=True, slots=True)
class Escort(FieldNotation):
    """The supplied side fights for its sea supply to ``place`` with ``force``'s fleets
    against the enemy's cut (004 case (b)); declining concedes the cut."""

    verb: ClassVar[str] = "escort"
    place: str
    force: str


@dataclass(frozen=True, slots=True)
class Supply(_Settles):
    """Resolve the active side's supply phase.  ``outcomes``: convoy battles (§10.2) fought
    elsewhere (the battleboard, the tactical engine), each matched to its engagement by id;
    a convoy battle without one is auto-resolved."""

    verb: ClassVar[str] = "supply"
    outcomes: tuple[Outcome, ...] = ()


@dataclass(frozen=True, slots=True)
class Battle(FieldNotation):
    verb: ClassVar[str] = "battle"
    place: str
    stratagems: int = 0


@dataclass(frozen=True, slots=True)
class Commit(_Settles):
    verb: ClassVar[str] = "commit"
    stratagems: int = 0
    outcome: Outcome | None = None


@dataclass(frozen=True, slots=True)
class OfferNaval(FieldNotation):
    verb: ClassVar[str] = "offer_naval"
    place: str


@dataclass(frozen=True, slots=True)
class Accept(_Settles):
    verb: ClassVar[str] = "accept"
    outcome: Outcome | None = None


@dataclass(frozen=True, slots=True)
class Storm(FieldNotation):
    verb: ClassVar[str] = "storm"
    city: str
    force: str
    stratagem: bool = False


@dataclass(frozen=True, slots=True)
class Take(FieldNotation):
    """Choose one stratagem counter of a type in the stratagems phase (campaign.md §15.2)."""

    verb: ClassVar[str] = "take"
    kind: str


@dataclass(frozen=True, slots=True)
class Politics(FieldNotation):
    """One Political stratagem rolled on a Res Publica table (§16.2)."""

    verb: ClassVar[str] = "politics"
    table: str


@dataclass(frozen=True, slots=True)
class Claim(FieldNotation):
    """A leader claims the succession of a fallen Supreme Leader (§17.6)."""

    verb: ClassVar[str] = "claim"
    leader: str


@dataclass(frozen=True, slots=True)
class Veto(FieldNotation):
    """The Tribune negates the Res Publica result just rolled (§16.3)."""

    verb: ClassVar[str] = "veto"


@dataclass(frozen=True, slots=True)
class Recruit(FieldNotation):
    """Raise a counter of ``kind`` (or a civis) in a city (§17.1)."""

    verb: ClassVar[str] = "recruit"
    city: str
    kind: str


@dataclass(frozen=True, slots=True)
class RecruitLeader(FieldNotation):
    verb: ClassVar[str] = "recruit_leader"
    leader: str
    city: str


@dataclass(frozen=True, slots=True)
class FoundColony(FieldNotation):
    verb: ClassVar[str] = "found_colony"
    city: str


@dataclass(frozen=True, slots=True)
class Train(FieldNotation):
    verb: ClassVar[str] = "train"
    unit: str


@dataclass(frozen=True, slots=True)
class FormGuard(FieldNotation):
    """Turn an imperator legion with the Supreme Leader into his Guard (§17.5)."""

    verb: ClassVar[str] = "form_guard"
    unit: str


@dataclass(frozen=True, slots=True)
class Tribute(FieldNotation):
    """Win a neutral city or a client state over (§18.1)."""

    verb: ClassVar[str] = "tribute"
    target: str


@dataclass(frozen=True, slots=True)
class Bribe(FieldNotation):
    """Bribe an enemy city's civis into revolt (§18.2)."""

    verb: ClassVar[str] = "bribe"
    city: str


@dataclass(frozen=True, slots=True)
class Subvert(FieldNotation):
    """Make an enemy force desert or defect (§18.3)."""

    verb: ClassVar[str] = "subvert"
    force: str


@dataclass(frozen=True, slots=True)
class Assassinate(FieldNotation):
    verb: ClassVar[str] = "assassinate"
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

#: each action class by its verb (the ``type`` of its logged form, the first word of its notation)
TYPES: dict[str, type[Any]] = {
    cls.verb: cls
    for cls in (
        Pass,
        EndPhase,
        March,
        Sail,
        Merge,
        Intercept,
        Decline,
        CutSupply,
        Escort,
        Supply,
        Battle,
        Commit,
        OfferNaval,
        Accept,
        Storm,
        Take,
        Politics,
        Claim,
        Veto,
        Recruit,
        RecruitLeader,
        FoundColony,
        Train,
        FormGuard,
        Tribute,
        Bribe,
        Subvert,
        Assassinate,
    )
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


def parse_action(text: str) -> Action:
    """Read an action in its written form; ``NotationError`` (one sentence) if it cannot be read."""
    head, name, tail = text, "", ""
    for key in ("outcomes", "outcome"):
        if f" {key}:" in text:
            head, _, tail = text.partition(f" {key}:")
            name = key
            break
    cls, words = dispatch(head, TYPES, "campaign")
    action: Action = cls.from_words(text, words)
    if not name:
        return action
    if name not in {f.name for f in fields(cls)}:
        raise NotationError(text, f"a {cls.verb} action carries no {name}")
    try:
        plain = json.loads(tail)
        if name == "outcomes":
            if not isinstance(plain, list):
                raise ValueError("outcomes is a list of battle results")
            value: Any = tuple(_outcome(o, f"outcomes[{i}]") for i, o in enumerate(plain))
        else:
            value = _outcome(plain, name)
    except ValueError as exc:
        raise NotationError(text, f"its {name} cannot be read ({exc})") from None
    return replace(action, **{name: value})


def notation(action: Action) -> str:
    return action.notation()
