"""The contract between the campaign and whatever settles a battle.

The campaign builds an ``Engagement`` (who fights, where, on what terrain, why, with
which forces, leaders and stratagems) and hands it to a battle engine through that
engine's ``Route`` — the battleboard's (``battleboard.resolve.ROUTE``) or the tactical
engine's (``tactical.engagement.TacticalRoute``); the engine answers with an ``Outcome``
(who won, what became of every unit and leader, strength lost, captured fleets,
promotions, and what the campaign may do next: whether sea supply passes, whether a
moving force continues).  Both models are engine-neutral, plain data and strict
(``extra="forbid"``); see docs/ARCHITECTURE.md and docs/rules/battleboard.md §14.

A ``Route`` settles an engagement headless (``resolve``: the AI on both sides) or
``begin``s a ``Battle`` for a window to fight; the window plays on the battle and, when
the player comes back, asks it ``over()`` and ``conclude()`` (the ``Outcome`` and its
turning points; a battle not over is ended the engine's own way).

Sides are "A" and "B" inside the battle; ``SideForce.faction`` says who they are in the
campaign (e.g. "caesar", "senate").
"""

from __future__ import annotations

from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bellum.dice import Dice
from bellum.tomlio import PieceId

Side = Literal["A", "B"]
#: the two sides of every battle, in order (the campaign says who they are: ``SideForce.faction``)
SIDES: tuple[Side, Side] = ("A", "B")
Discipline = Literal["I", "V", "R", "M", "B"]
UnitKind = Literal[
    "fleet",
    "legion",
    "heavy_infantry",
    "auxiliary",
    "cavalry",
    "heavy_cavalry",
    "light_cavalry",
    "phalanx",
    "mob",
    "elephant",
    "chariot",
    "civis",
    "impeditus",
]
#: why the battle is fought: a land battle in the field, the storm of a walled city, or one
#: of the three naval triggers of 004
Trigger = Literal["battle", "storm", "mutual", "supply", "interception"]
LAND_TRIGGERS = ("battle", "storm")
#: the SP of a full-strength heavy infantry unit, and the Fratricide points its death adds;
#: weakened ones killed count in blocks of this many SP (reference: Fratricide;
#: docs/rules/campaign.md §2.7, §21.3; battleboard.md §12.4)
FRATRICIDE_BLOCK = 5
#: the unit kinds that are heavy infantry: ``Outcome.heavy_infantry_killed`` counts them
HEAVY_INFANTRY: tuple[str, ...] = ("legion", "heavy_infantry")
#: the unit fates that mean the men died: Fratricide counts only these; captured, dispersed
#: (fled_lost), fled and returned, rebuilt and surviving units do not (campaign.md §21.3)
KILLED: tuple[str, ...] = ("eliminated", "drowned")
#: the unit fates that leave the unit with its force after the battle (with the strength
#: its ``UnitFate`` gives); every other fate takes it out of the campaign
STANDING: tuple[str, ...] = ("survived", "fled_returned", "reconstituted", "broken_through")


EngineName = Literal["battleboard", "tactical"]


class _Contract(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ForceUnit(_Contract):
    """One campaign unit committed to the battle."""

    id: PieceId
    side: Side
    kind: UnitKind
    discipline: Discipline
    strength: int = Field(ge=1, le=20)
    name: str = ""


class ForceLeader(_Contract):
    id: PieceId
    side: Side
    rating: int = Field(ge=1, le=4)
    discipline: Discipline = "V"
    name: str = ""
    supreme: bool = False  # a Supreme Leader (Caesar, Pompeius): his loss matters to the campaign
    guard: bool = False  # protected by a Guard against assassination (campaign only)


class SideForce(_Contract):
    """What one side brings."""

    faction: str = Field(min_length=1, max_length=40)
    #: Military stratagems committed to win tactical superiority
    superiority_stratagems: int = Field(default=0, ge=0, le=20)
    #: Military stratagems kept for plays in the battle (each leader plays up to his rating)
    battle_stratagems: int = Field(default=0, ge=0, le=20)
    #: a friendly port in the space: a beaten naval force retreats into it (004 Victory)
    friendly_port: bool = False
    #: fleet counters free for converting captured fleets (004 Victory); None = no limit
    free_fleet_counters: int | None = Field(default=None, ge=0, le=99)


class Engagement(_Contract):
    """A battle the campaign asks to be settled."""

    id: str = Field(min_length=1, max_length=80)
    where: str = Field(min_length=1, max_length=80)  # the campaign space
    turn: str = ""  # the campaign turn, e.g. "April 49 BC"
    kind: Literal["land", "naval"]
    #: the board the space gives: field | pass | river | coast | city | hills | sea
    terrain: str = "field"
    trigger: Trigger = "battle"
    active: Side  # the campaign's Active Player
    #: who has tactical superiority if already decided; else it follows from the stratagems
    superior: Side | None = None
    sides: dict[Side, SideForce]
    units: list[ForceUnit] = Field(min_length=2)
    leaders: list[ForceLeader] = []
    options: list[str] = []

    @model_validator(mode="after")
    def _coherent(self) -> Engagement:
        if set(self.sides) != {"A", "B"}:
            raise ValueError("sides must describe both A and B")
        ids = [u.id for u in self.units] + [ld.id for ld in self.leaders]
        if len(ids) != len(set(ids)):
            raise ValueError("unit and leader ids must be unique")
        naval = self.kind == "naval"
        if naval == (self.trigger in LAND_TRIGGERS):
            raise ValueError(f"trigger {self.trigger!r} does not fit a {self.kind} battle")
        for side in ("A", "B"):
            if not any(u.side == side for u in self.units):
                raise ValueError(f"side {side} brings no unit")
            if naval and not any(u.side == side and u.kind == "fleet" for u in self.units):
                raise ValueError(f"side {side} must bring a fleet to a naval battle (004 Setup)")
        reactive = "B" if self.active == "A" else "A"
        if self.trigger == "interception" and not any(ld.side == reactive for ld in self.leaders):
            raise ValueError("an interception needs the leader who spent the Military stratagem (004 Setup)")
        if self.trigger == "storm" and self.terrain != "city":
            raise ValueError("a storm is fought on the city board")
        if not naval and any(u.kind == "fleet" for u in self.units):
            raise ValueError("fleets do not fight in a land battle")
        return self

    def tactical_superiority(self) -> Side:
        """Who sets up last and moves first: more Military stratagems; ties go to the defender
        on land (the side that is not active), to the active side in a mutual naval battle
        and to the reactive side for supply and interception (004 Setup)."""
        if self.superior is not None:
            return self.superior
        a = self.sides["A"].superiority_stratagems
        b = self.sides["B"].superiority_stratagems
        if a != b:
            return "A" if a > b else "B"
        reactive: Side = "B" if self.active == "A" else "A"
        return self.active if self.trigger == "mutual" else reactive


UnitFateKind = Literal[
    "survived",  # fought and is still with its force
    "eliminated",
    "sunk",  # a fleet sent to the bottom
    "drowned",  # a ground unit lost with its ship
    "captured",  # taken by the enemy (a ship, or impediti)
    "fled_lost",  # fled the field and did not come back
    "fled_returned",  # fled the field and rejoins its force
    "broken_through",  # broke through an interception and sails on (004 Escape)
    "reconstituted",  # eliminated, then rebuilt by the winner after the battle
]


class UnitFate(_Contract):
    id: str
    side: Side  # the side it belonged to when the battle began
    fate: UnitFateKind
    strength: int
    discipline: Discipline  # after any promotion
    flipped: bool = False  # disrupted at the end of the battle


class LeaderFate(_Contract):
    id: str
    side: Side
    fate: Literal["survived", "killed", "captured", "drowned", "executed", "escaped"]


class CapturedFleet(_Contract):
    id: str
    from_side: Side
    to_side: Side
    converted: bool  # became a fleet of the captor; False: eliminated for want of counters


class Promotion(_Contract):
    id: str
    side: Side
    before: Discipline
    after: Discipline


class Outcome(_Contract):
    """What the campaign must apply after the battle."""

    engagement: str
    winner: Side | None  # None: a draw
    reason: str
    turns: int = Field(ge=0)
    units: list[UnitFate]
    leaders: list[LeaderFate] = []
    strength_lost: dict[Side, int]  # SP really lost (broken-through ships are not lost)
    captured_fleets: list[CapturedFleet] = []
    promotions: list[Promotion] = []
    #: the beaten side must leave the space (False when a friendly port shelters it, 004 Victory)
    loser_retreats: bool = False
    #: sea supply (trigger "supply"): whether it goes through; None for other battles
    supply_passes: bool | None = None
    #: naval movement (trigger "interception"): whether the moving force continues; None otherwise
    movement_continues: bool | None = None
    #: a storm (trigger "storm"): whether the city falls to the attacker (the active side); None otherwise
    city_taken: bool | None = None
    #: fleets (and all aboard) that broke through and continue regardless (004 Escape)
    continuing_fleets: list[str] = []
    #: strength-5 heavy infantry units eliminated, per side that lost them (fratricide)
    heavy_infantry_killed: dict[Side, int] = {"A": 0, "B": 0}
    #: fratricide points this battle adds (5 per strength-5 heavy infantry unit killed)
    fratricide: int = Field(default=0, ge=0)
    #: the engine that fought the battle (the battleboard also auto-resolves)
    engine: EngineName = "battleboard"


class Battle(Protocol):
    """A battle for an engagement, begun by a route and fought in the engine's window."""

    @property
    def engagement(self) -> Engagement | None: ...

    @property
    def engine(self) -> EngineName: ...

    def over(self) -> bool:
        """Whether the battle has been fought to its end."""
        ...

    def conclude(self) -> tuple[Outcome, tuple[str, ...]]:
        """The ``Outcome`` and the turning points; a battle not over is ended the engine's way."""
        ...


class Route(Protocol):
    """A battle engine as the campaign sees it: ``Engagement`` in, ``Outcome`` out."""

    @property
    def engine(self) -> EngineName: ...

    def refusal(self, eng: Engagement) -> str:
        """Why this engine does not fight ``eng`` (a sentence), or '' when it does."""
        ...

    def resolve(self, eng: Engagement, dice: Dice) -> Outcome:
        """The battle fought headless, the AI on both sides, on ``dice``."""
        ...

    def begin(self, eng: Engagement, seed: int) -> Battle:
        """The battle set up for a window to fight, on dice of its own (``seed``)."""
        ...
