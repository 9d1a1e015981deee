"""The campaign's armies: unit kinds, leaders, units and forces (docs/rules/campaign.md §2–§4).

Pure data.  The counter set is a catalogue kept as data —
``campaign/data/units.toml`` (unit kinds, nations, the promotion ladder) and
``campaign/data/leaders.toml`` (the leaders) — validated by pydantic through
``bellum.tomlio`` when it is loaded.  A ``Unit`` is one counter in play, a ``Force``
a stack of units and leaders in one space (or at sea) under a commander, its fleets
carrying passengers.  No rule of movement, supply or combat lives here: those modules
ask these models questions (``Force.capacity``, ``Unit.fratricide_value`` …) and build
new ones with ``model_copy``.

Every unit kind names the battleboard kind it fights as (``UnitKind.battleboard``,
campaign.md §2.2), so a force becomes the units of a ``bellum.engagement.Engagement``
without a table of its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bellum.engagement import HEAVY_INFANTRY, Discipline, ForceLeader, ForceUnit, Side
from bellum.engagement import UnitKind as BattleboardKind
from bellum.errors import InputError
from bellum.paths import game_data
from bellum.tomlio import PieceId, load_model, read_toml, validate

DATA = game_data("campaign", "data")
UNITS_FILE = DATA / "units.toml"
LEADERS_FILE = DATA / "leaders.toml"

#: the five discipline classes, best first (reference: "Discipline classes")
DISCIPLINES: tuple[Discipline, ...] = ("I", "V", "R", "M", "B")
DISCIPLINE_NAMES: dict[str, str] = {"I": "Imperator", "V": "Veteran", "R": "Recruit", "M": "Mob", "B": "Barbarian"}
#: the kinds the battleboard engine knows (FORMAT.md, battleboard section)
BATTLEBOARD_KINDS: tuple[str, ...] = get_args(BattleboardKind)

_ID = r"^[a-z][a-z0-9_]*$"

#: how checks report a problem: (place, problem)
Report = Callable[[str, str], None]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --------------------------------------------------------------------------- the catalogue


class Promotion(_Model):
    """The ladder of battlefield promotion, lowest first (campaign.md §2.3)."""

    ladder: tuple[Discipline, ...] = Field(min_length=2, max_length=5)

    @model_validator(mode="after")
    def _distinct(self) -> Promotion:
        if len(set(self.ladder)) != len(self.ladder):
            raise ValueError("the promotion ladder names a discipline twice")
        return self


class Nation(_Model):
    """Who raises troops: Rome, a client state (the map's owner id), or the barbarians."""

    id: str = Field(pattern=_ID, max_length=40)
    name: str = Field(min_length=1, max_length=80)
    kind: Literal["roman", "client", "barbarian"]


class UnitKind(_Model):
    """One kind of campaign counter (campaign.md §2.2)."""

    name: str = Field(min_length=1, max_length=80)
    #: the battleboard kind it fights as
    battleboard: BattleboardKind
    #: "sea" for fleets, "land" for everything else
    domain: Literal["land", "sea"]
    #: full strength in strength points
    strength: int = Field(ge=1, le=10)
    #: the disciplines a counter of this kind may have
    disciplines: tuple[Discipline, ...] = Field(min_length=1, max_length=5)
    #: the discipline a counter has when the scenario does not say
    discipline: Discipline
    #: the nations that may raise it
    nations: tuple[str, ...] = Field(min_length=1, max_length=20)
    #: climbs the promotion ladder after a victory
    promotes: bool = False
    #: Roman heavy infantry: killing it counts towards Fratricide
    fratricide: bool = False
    #: may leave its space (a civis never does)
    mobile: bool = True
    #: may be carried by a fleet
    embark: bool = True
    #: ground units a counter of this kind carries (fleets only)
    capacity: int = Field(default=0, ge=0, le=10)
    #: needed to storm a city
    storms: bool = False
    #: protection lent to the leaders it stacks with, against assassination
    guard: int = Field(default=0, ge=0, le=5)
    #: discipline of a counter recruited by a Political stratagem; None: not recruited that way
    recruit: Discipline | None = None
    #: discipline of a counter a colony raises; None: colonies do not raise it
    colony: Discipline | None = None
    description: str = Field(default="", max_length=400)

    @model_validator(mode="after")
    def _coherent(self) -> UnitKind:
        if len(set(self.disciplines)) != len(self.disciplines):
            raise ValueError("names a discipline twice")
        if self.discipline not in self.disciplines:
            raise ValueError(f"its discipline {self.discipline} is not among its disciplines")
        for what, d in (("recruit", self.recruit), ("colony", self.colony)):
            if d is not None and d not in self.disciplines:
                raise ValueError(f"its {what} discipline {d} is not among its disciplines")
        if (self.domain == "sea") != (self.battleboard == "fleet"):
            raise ValueError("a sea unit must fight as a battleboard fleet, and only a sea unit may")
        if self.domain == "sea" and (self.capacity < 1 or self.embark):
            raise ValueError("a fleet carries at least one unit and cannot itself be carried")
        if self.domain == "land" and self.capacity:
            raise ValueError("only a fleet has a carrying capacity")
        if not self.mobile and self.embark:
            raise ValueError("a unit that never leaves its space cannot embark")
        if self.fratricide and self.battleboard not in HEAVY_INFANTRY:
            raise ValueError("only heavy infantry counts towards Fratricide")
        return self

    @property
    def is_fleet(self) -> bool:
        return self.domain == "sea"


class UnitsFile(_Model):
    promotion: Promotion
    nations: tuple[Nation, ...] = Field(min_length=1, max_length=30)
    kinds: dict[str, UnitKind] = Field(min_length=1, max_length=60)


class LeaderCard(_Model):
    """A leader as the catalogue gives him (campaign.md §3)."""

    id: str = Field(pattern=_ID, max_length=40)
    name: str = Field(min_length=1, max_length=80)
    #: "roman", or the client state whose leader he is
    nation: str = Field(pattern=_ID, max_length=40)
    #: the side a Roman leader took; client leaders follow their state (None)
    allegiance: Literal["caesarian", "senatorial"] | None = None
    role: Literal["imperator", "legate", "admiral", "monarch", "general", "satrap"]
    #: stratagems he may play per turn or per battle (reference: 1–3, Octavian 4)
    rating: int = Field(ge=1, le=4)
    #: the discipline he lends to one unit before a discipline check
    discipline: Discipline
    #: protection against assassination
    guard: int = Field(ge=0, le=5)
    #: a side's Supreme Leader at the start of the war
    supreme: bool = False
    #: the first year BC he may enter play (None: from the start)
    available_from: int | None = Field(default=None, ge=1, le=100)

    @model_validator(mode="after")
    def _coherent(self) -> LeaderCard:
        roman = self.nation == "roman"
        if roman and self.allegiance is None:
            raise ValueError("a Roman leader needs an allegiance")
        if not roman and self.allegiance is not None:
            raise ValueError("a client leader follows his state and has no allegiance of his own")
        if self.supreme and not roman:
            raise ValueError("only a Roman can be a Supreme Leader")
        return self


class LeadersFile(_Model):
    leaders: tuple[LeaderCard, ...] = Field(min_length=1, max_length=300)


class Catalogue:
    """The loaded counter set: unit kinds, nations, the promotion ladder and the leaders."""

    def __init__(self, units: UnitsFile, leaders: LeadersFile) -> None:
        self.kinds: dict[str, UnitKind] = dict(units.kinds)
        self.nations: dict[str, Nation] = {n.id: n for n in units.nations}
        self.ladder: tuple[Discipline, ...] = units.promotion.ladder
        self.leaders: dict[str, LeaderCard] = {ld.id: ld for ld in leaders.leaders}

    def kind(self, kind: str) -> UnitKind:
        try:
            return self.kinds[kind]
        except KeyError:
            raise KeyError(f"there is no unit kind called {kind!r}") from None

    def leader(self, leader: str) -> LeaderCard:
        try:
            return self.leaders[leader]
        except KeyError:
            raise KeyError(f"there is no leader called {leader!r}") from None

    def client_nations(self) -> list[str]:
        return [n.id for n in self.nations.values() if n.kind == "client"]

    def promoted(self, kind: str, discipline: Discipline) -> Discipline | None:
        """The discipline one rung up the ladder, or None when this counter cannot climb."""
        k = self.kind(kind)
        if not k.promotes or discipline not in self.ladder:
            return None
        i = self.ladder.index(discipline)
        if i + 1 >= len(self.ladder):
            return None
        up = self.ladder[i + 1]
        return up if up in k.disciplines else None

    def supreme_leaders(self) -> list[str]:
        return [ld.id for ld in self.leaders.values() if ld.supreme]


def _check_catalogue(units: UnitsFile, leaders: LeadersFile, bad: Report) -> None:
    nation_ids = [n.id for n in units.nations]
    seen: set[str] = set()
    for n in nation_ids:
        if n in seen:
            bad(f"nations '{n}'", "is declared twice")
        seen.add(n)
    if "roman" not in seen:
        bad("nations", "must declare the nation 'roman'")
    for d in units.promotion.ladder:
        if d in ("M", "B"):
            bad("promotion.ladder", f"holds {d}; mobs and barbarians never climb to Imperator")
    for kid, k in units.kinds.items():
        place = f"kinds.{kid}"
        if not _matches_id(kid):
            bad(place, "is not a valid id (lower-case letters, digits and _ only)")
        for n in k.nations:
            if n not in seen:
                bad(place, f"names the nation '{n}', which is not declared in [[nations]]")
        if k.promotes and not any(d in units.promotion.ladder for d in k.disciplines):
            bad(place, "promotes but none of its disciplines is on the promotion ladder")
    ids: set[str] = set()
    for i, ld in enumerate(leaders.leaders):
        place = f"leaders[{i}] '{ld.id}'"
        if ld.id in ids:
            bad(place, "is listed twice; every leader needs his own id")
        ids.add(ld.id)
        if ld.nation not in seen:
            bad(place, f"belongs to the nation '{ld.nation}', which units.toml does not declare")
        elif ld.nation != "roman" and units.nations[nation_ids.index(ld.nation)].kind != "client":
            bad(place, f"belongs to '{ld.nation}', which is not a client state")


def _matches_id(text: str) -> bool:
    return re.fullmatch(_ID[1:-1], text) is not None


def _name_the_leader(raw: dict[str, Any], place: str) -> str:
    """``leaders[3].rating`` → ``leader 'curio' (leaders[3].rating)``."""
    m = re.match(r"^leaders\[(\d+)\]", place)
    items = raw.get("leaders")
    if not m or not isinstance(items, list) or int(m.group(1)) >= len(items):
        return place
    entry = items[int(m.group(1))]
    ident = entry.get("id") if isinstance(entry, dict) else None
    return f"leader '{ident}' ({place})" if isinstance(ident, str) else place


def load_catalogue(units_path: str | Path = UNITS_FILE, leaders_path: str | Path = LEADERS_FILE) -> Catalogue:
    """Read and validate the counter set; a bad file raises one ``InputError``."""
    units = load_model(UnitsFile, units_path)
    raw = read_toml(leaders_path)
    try:
        leaders = validate(LeadersFile, raw, leaders_path)
    except InputError as exc:
        raise InputError(leaders_path, _name_the_leader(raw, exc.place), exc.problem) from None
    problems: list[tuple[str, str]] = []
    _check_catalogue(units, leaders, lambda place, problem: problems.append((place, problem)))
    if problems:
        place, problem = problems[0]
        source = leaders_path if place.startswith("leaders") else units_path
        more = len(problems) - 1
        if more:
            problem += f" (and {more} more problem{'s' if more > 1 else ''})"
        raise InputError(source, place, problem)
    return Catalogue(units, leaders)


@cache
def catalogue() -> Catalogue:
    """The game's counter set, loaded once."""
    return load_catalogue()


# --------------------------------------------------------------------------- pieces in play


class Unit(_Model):
    """One counter in play (campaign.md §2)."""

    id: PieceId
    kind: str = Field(max_length=40)
    discipline: Discipline
    #: current strength points, 1 to the kind's full strength
    strength: int = Field(ge=1, le=10)
    #: who raised it ("roman", a client state, "barbarian")
    nation: str = Field(max_length=40)
    name: str = Field(default="", max_length=80)
    #: the fleet (a unit id in the same force) carrying it; None: ashore
    aboard: str | None = Field(default=None, max_length=40)
    #: disrupted (flipped) by a battle or a march
    disrupted: bool = False

    def spec(self, cat: Catalogue | None = None) -> UnitKind:
        return (cat or catalogue()).kind(self.kind)

    def label(self) -> str:
        """How a chronicle names it: its name, else its id."""
        return self.name or self.id

    def fratricide_value(self, cat: Catalogue | None = None) -> int:
        """Fratricide points its death in battle adds: 5 for a strength-5 Roman heavy
        infantry counter (reference: Fratricide), nothing for anything else."""
        k = self.spec(cat)
        return 5 if k.fratricide and self.strength == 5 else 0


class Force(_Model):
    """A stack: units and leaders together in one space or sea zone (campaign.md §4).

    ``side`` is who controls it: "caesarian", "senatorial", a client state that is
    not at war on either side, "neutral" (a free city) or "barbarian".  ``commander``
    is the leader in command (None: a garrison with no leader); ``leaders`` lists every
    leader with the force, the commander included.
    """

    id: str = Field(pattern=_ID, max_length=40)
    side: str = Field(pattern=_ID, max_length=40)
    location: str = Field(pattern=_ID, max_length=40)
    commander: str | None = Field(default=None, max_length=40)
    leaders: tuple[str, ...] = Field(default=(), max_length=30)
    units: tuple[Unit, ...] = Field(default=(), max_length=200)
    name: str = Field(default="", max_length=80)

    # -- questions ------------------------------------------------------------
    def unit(self, unit_id: str) -> Unit:
        for u in self.units:
            if u.id == unit_id:
                return u
        raise KeyError(f"{self.label()} has no unit {unit_id!r}")

    def label(self) -> str:
        return self.name or self.id

    def fleets(self, cat: Catalogue | None = None) -> list[Unit]:
        c = cat or catalogue()
        return [u for u in self.units if c.kind(u.kind).is_fleet]

    def ground_units(self, cat: Catalogue | None = None) -> list[Unit]:
        c = cat or catalogue()
        return [u for u in self.units if not c.kind(u.kind).is_fleet]

    def passengers(self, fleet_id: str) -> list[Unit]:
        """The ground units aboard the fleet ``fleet_id``."""
        return [u for u in self.units if u.aboard == fleet_id]

    def ashore(self, cat: Catalogue | None = None) -> list[Unit]:
        """The ground units not aboard any fleet."""
        return [u for u in self.ground_units(cat) if u.aboard is None]

    def capacity(self, cat: Catalogue | None = None) -> int:
        """How many ground units the force's fleets can carry together."""
        c = cat or catalogue()
        return sum(c.kind(f.kind).capacity for f in self.fleets(c))

    def strength(self) -> int:
        """Total strength points, fleets included."""
        return sum(u.strength for u in self.units)

    def guard(self, cat: Catalogue | None = None) -> int:
        """The protection the force's Guard counters lend to its leaders."""
        c = cat or catalogue()
        return sum(c.kind(u.kind).guard for u in self.units)

    def can_storm(self, cat: Catalogue | None = None) -> bool:
        c = cat or catalogue()
        return any(c.kind(u.kind).storms for u in self.units)

    def is_embarked(self, cat: Catalogue | None = None) -> bool:
        """Every ground unit is aboard a fleet, and there is a fleet (a force that can sail)."""
        return bool(self.fleets(cat)) and not self.ashore(cat)


def force_problems(force: Force, cat: Catalogue, place: str, bad: Report) -> None:
    """Check a force against the counter set, reporting each problem as one sentence.

    What is checked here needs no map: kinds, disciplines, strengths, nations, leaders,
    duplicate ids inside the force, passengers and capacity (004 Setup).  The scenario
    loader adds the checks that need the map and the other forces.
    """
    ids: set[str] = set()
    for u in force.units:
        where = f"{place}, unit '{u.id}'"
        if u.id in ids:
            bad(where, "is listed twice in this force")
            continue
        ids.add(u.id)
        k = cat.kinds.get(u.kind)
        if k is None:
            bad(where, f"is of the kind '{u.kind}', which the counter set does not have")
            continue
        if u.discipline not in k.disciplines:
            allowed = ", ".join(k.disciplines)
            bad(where, f"is a {k.name.lower()} of discipline {u.discipline}, but that kind may only be {allowed}")
        if u.strength > k.strength:
            bad(where, f"has strength {u.strength}, more than the {k.strength} of a full {k.name.lower()}")
        if u.nation not in cat.nations:
            bad(where, f"belongs to the nation '{u.nation}', which the counter set does not have")
        elif u.nation not in k.nations:
            bad(where, f"is {k.name.lower()}, which the {cat.nations[u.nation].name} nation cannot raise")
    kinds = {u.id: cat.kinds.get(u.kind) for u in force.units}
    load: dict[str, int] = {}
    for u in force.units:
        if u.aboard is None:
            continue
        where = f"{place}, unit '{u.id}'"
        carrier = kinds.get(u.aboard)
        k = kinds.get(u.id)
        if u.aboard not in kinds:
            bad(where, f"is aboard '{u.aboard}', which is no unit of this force")
        elif carrier is None:
            continue
        elif not carrier.is_fleet:
            bad(where, f"is aboard '{u.aboard}', which is a {carrier.name.lower()}, not a fleet")
        elif k is not None and not k.embark:
            bad(where, f"is {k.name.lower()}, which cannot be carried by a fleet")
        else:
            load[u.aboard] = load.get(u.aboard, 0) + 1
    for fid, n in load.items():
        cap = kinds[fid].capacity  # type: ignore[union-attr]
        if n > cap:
            bad(f"{place}, unit '{fid}'", f"carries {n} ground units, more than its capacity of {cap}")
    seen: set[str] = set()
    for ld in force.leaders:
        if ld in seen:
            bad(f"{place}, leader '{ld}'", "is listed twice in this force")
        seen.add(ld)
        if ld not in cat.leaders:
            bad(f"{place}, leader '{ld}'", "is no leader of the counter set (campaign/data/leaders.toml)")
    if force.commander is not None and force.commander not in force.leaders:
        bad(place, f"is commanded by '{force.commander}', who is not among its leaders")
    if force.commander is None and force.leaders:
        bad(place, "has leaders but no commander; name one of them")
    if not force.units and not force.leaders:
        bad(place, "has neither units nor leaders")


# --------------------------------------------------------------------------- to the battle


def engagement_unit(unit: Unit, side: Side, cat: Catalogue | None = None) -> ForceUnit:
    """The unit as a battle engine sees it: its battleboard kind, discipline and strength
    (campaign.md §2.2)."""
    k = (cat or catalogue()).kind(unit.kind)
    return ForceUnit(
        id=unit.id, side=side, kind=k.battleboard, discipline=unit.discipline, strength=unit.strength, name=unit.label()
    )


def engagement_leader(leader: str, side: Side, cat: Catalogue | None = None, *, supreme: bool = False) -> ForceLeader:
    """The leader as a battle engine sees him: rating and the discipline he lends (campaign.md §3)."""
    card = (cat or catalogue()).leader(leader)
    return ForceLeader(
        id=card.id, side=side, rating=card.rating, discipline=card.discipline, name=card.name, supreme=supreme
    )
