"""Campaign scenarios: the file format and a loader that checks it against the map
(docs/rules/campaign.md §5).

A scenario file (``scenarios/campaign/*.toml``) gives the start date, the two sides
(their Supreme Leaders, Res Publica markers, stratagems in hand, leaders waiting to be
recruited), the holders of the Tribune, Dictator and Imperator markers, the status of
every client state, the owners of spaces that differ from the map's, the counter mix
(how many counters of each kind an owner may ever have in play; what is not in play is
its builds pool) and every force with its leaders and units, fleets carrying
passengers.

``load_scenario`` parses and validates the whole file before it builds anything: every
space must exist on the map (``campaign.map``), every kind and leader in the counter set
(``campaign.units``); a bad file raises one ``bellum.errors.InputError`` sentence naming
the file, the place and the problem (and how many more problems there are).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from bellum.engagement import Discipline
from bellum.errors import InputError
from bellum.paths import resolve_scenario
from bellum.tomlio import entry_at, read_toml, validate
from campaign.map import CampaignMap, roman_world
from campaign.units import Catalogue, Force, Report, Unit, catalogue, force_problems

Month = Literal[
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
MONTHS: tuple[str, ...] = get_args(Month)
#: the force side of barbarian hordes, which own nothing on the map
BARBARIAN = "barbarian"

_ID = r"^[a-z][a-z0-9_]*$"


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --------------------------------------------------------------------------- file models


class Header(_File):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_]*$", max_length=40)
    title: str = Field(min_length=1, max_length=120)
    start_month: Month
    start_year_bc: int = Field(ge=1, le=100)
    description: str = Field(default="", max_length=4000)


class Stratagems(_File):
    """Stratagem counters in hand, by type (reference: Stratagems)."""

    military: int = Field(default=0, ge=0, le=30)
    political: int = Field(default=0, ge=0, le=30)
    agent: int = Field(default=0, ge=0, le=30)

    def total(self) -> int:
        return self.military + self.political + self.agent


class SideSetup(_File):
    id: str = Field(pattern=_ID, max_length=40)
    supreme_leader: str = Field(pattern=_ID, max_length=40)
    #: Res Publica markers held at the start
    res_publica: int = Field(default=0, ge=0, le=20)
    stratagems: Stratagems = Stratagems()
    #: leaders not in play that this side may recruit later
    leader_pool: tuple[str, ...] = Field(default=(), max_length=100)


class Republic(_File):
    """Who holds the Tribune, Dictator and Imperator markers (None: nobody)."""

    tribune: str | None = Field(default=None, max_length=40)
    dictator: str | None = Field(default=None, max_length=40)
    imperator: str | None = Field(default=None, max_length=40)


class ClientSetup(_File):
    id: str = Field(pattern=_ID, max_length=40)
    #: "neutral", or the side it fights for
    status: str = Field(pattern=_ID, max_length=40)
    ruler: str | None = Field(default=None, max_length=40)


class OwnerEntry(_File):
    space: str = Field(max_length=40)
    owner: str = Field(max_length=40)


class CounterMix(_File):
    owner: str = Field(max_length=40)
    kinds: dict[str, int] = Field(min_length=1, max_length=60)


class UnitEntry(_File):
    id: str = Field(pattern=_ID, max_length=40)
    kind: str = Field(max_length=40)
    discipline: Discipline | None = None
    strength: int | None = Field(default=None, ge=1, le=10)
    nation: str | None = Field(default=None, max_length=40)
    name: str = Field(default="", max_length=80)
    aboard: str | None = Field(default=None, max_length=40)
    disrupted: bool = False


class ForceEntry(_File):
    id: str = Field(pattern=_ID, max_length=40)
    side: str = Field(pattern=_ID, max_length=40)
    location: str = Field(pattern=_ID, max_length=40)
    name: str = Field(default="", max_length=80)
    commander: str | None = Field(default=None, max_length=40)
    #: leaders with the force besides its commander
    leaders: tuple[str, ...] = Field(default=(), max_length=29)
    units: tuple[UnitEntry, ...] = Field(default=(), max_length=200)


class ScenarioFile(_File):
    scenario: Header
    sides: tuple[SideSetup, ...] = Field(min_length=2, max_length=2)
    republic: Republic = Republic()
    clients: tuple[ClientSetup, ...] = Field(default=(), max_length=20)
    owners: tuple[OwnerEntry, ...] = Field(default=(), max_length=2000)
    counter_mix: tuple[CounterMix, ...] = Field(default=(), max_length=30)
    forces: tuple[ForceEntry, ...] = Field(min_length=1, max_length=500)


# --------------------------------------------------------------------------- the loaded scenario


class Scenario(_File):
    """A validated scenario, ready for the campaign state to be built from it."""

    id: str
    title: str
    description: str
    start_month: Month
    start_year_bc: int
    source: str
    sides: dict[str, SideSetup]
    republic: Republic
    clients: dict[str, ClientSetup]
    #: the owner of every land space at the start (the map's, with the scenario's changes)
    owners: dict[str, str]
    #: counters an owner may have in play, by kind (a kind not listed is not limited)
    counter_mix: dict[str, dict[str, int]]
    forces: tuple[Force, ...]

    @property
    def start(self) -> str:
        """The start date as the chronicle writes it: "January 49 BC"."""
        return f"{self.start_month} {self.start_year_bc} BC"

    def force(self, force_id: str) -> Force:
        for f in self.forces:
            if f.id == force_id:
                return f
        raise KeyError(f"the scenario has no force {force_id!r}")

    def forces_at(self, place: str) -> list[Force]:
        return [f for f in self.forces if f.location == place]

    def forces_of(self, side: str) -> list[Force]:
        return [f for f in self.forces if f.side == side]

    def leader_force(self, leader: str) -> Force | None:
        """The force the leader is with, or None when he is not in play."""
        for f in self.forces:
            if leader in f.leaders:
                return f
        return None

    def units(self) -> list[tuple[Force, Unit]]:
        return [(f, u) for f in self.forces for u in f.units]

    def in_play(self, owner: str, kind: str) -> int:
        """Counters of ``kind`` that ``owner`` has in play (campaign.md §5.4)."""
        return sum(1 for f, u in self.units() if u.kind == kind and _counts_for(owner, f, u, self.sides))

    def builds_pool(self, owner: str, kind: str) -> int | None:
        """Counters of ``kind`` left for ``owner`` to build; None when the kind is not limited."""
        limit = self.counter_mix.get(owner, {}).get(kind)
        return None if limit is None else limit - self.in_play(owner, kind)


def _counts_for(owner: str, force: Force, unit: Unit, sides: Iterable[str]) -> bool:
    """Whose counter mix a unit draws on: a side's for Roman units in its forces, a
    client's for its own nation's units wherever they serve (campaign.md §5.4)."""
    if owner in sides:
        return force.side == owner and unit.nation == "roman"
    return unit.nation == owner


# --------------------------------------------------------------------------- loading


def load_scenario(path: str | Path, cmap: CampaignMap | None = None, cat: Catalogue | None = None) -> Scenario:
    """Read, validate and build a campaign scenario; a bad file raises one ``InputError``."""
    source = Path(path)
    raw = read_toml(source)
    try:
        data = validate(ScenarioFile, raw, source)
    except InputError as exc:
        raise InputError(source, _name_the_place(raw, exc.place), exc.problem) from None
    cmap = cmap or roman_world()
    cat = cat or catalogue()
    problems: list[tuple[str, str]] = []
    scenario = build_scenario(data, str(source), cmap, cat, lambda place, problem: problems.append((place, problem)))
    if problems:
        place, problem = problems[0]
        more = len(problems) - 1
        if more:
            problem += f" (and {more} more problem{'s' if more > 1 else ''})"
        raise InputError(source, place, problem)
    return scenario


def resolve(name: str) -> Path:
    """A scenario given as a path, or a bare name under ``scenarios/campaign/``."""
    return resolve_scenario(name, "campaign")


def _name_the_place(raw: dict[str, Any], place: str) -> str:
    """``forces[3].units[1].strength`` → ``force 'x', unit 'y' (forces[3].units[1].strength)``."""
    found = entry_at(raw, place, ("forces", "sides", "clients", "owners", "counter_mix"))
    if found is None:
        return place
    table, item, rest = found
    key = "space" if table == "owners" else "owner" if table == "counter_mix" else "id"
    ident = item.get(key)
    if not isinstance(ident, str):
        return place
    singular = {
        "forces": "force",
        "sides": "side",
        "clients": "client",
        "owners": "owner of",
        "counter_mix": "counter mix of",
    }
    named = f"{singular[table]} '{ident}'"
    unit = re.match(r"^\.units\[(\d+)\]", rest)
    if unit is not None:
        units = item.get("units")
        u = int(unit.group(1))
        if isinstance(units, list) and u < len(units) and isinstance(units[u], dict):
            uid = units[u].get("id")
            if isinstance(uid, str):
                named += f", unit '{uid}'"
    return f"{named} ({place})"


def build_scenario(data: ScenarioFile, source: str, cmap: CampaignMap, cat: Catalogue, bad: Report) -> Scenario:
    """Check everything and build the ``Scenario``; every problem goes to ``bad``."""
    map_sides = [o.id for o in cmap.data.owner if o.kind == "side"]
    map_clients = [o.id for o in cmap.data.owner if o.kind == "client"]
    sides = _check_sides(data, map_sides, bad)
    clients = _check_clients(data, cat, map_sides, map_clients, bad)
    owners = _check_owners(data, cmap, bad)
    for marker in ("tribune", "dictator", "imperator"):  # the Republic's markers
        holder = getattr(data.republic, marker)
        if holder is not None and holder not in map_sides:
            bad(f"republic.{marker}", f"is held by '{holder}'; only {' or '.join(map_sides)} can hold it")
    status = {cid: c.status for cid, c in clients.items()}
    forces = _build_forces(data.forces, cmap, cat, owners, status, set(map_sides), bad)
    placed: dict[str, Force] = {}
    for f in forces:
        for ld in f.leaders:
            if ld in placed:
                bad(f"force '{f.id}', leader '{ld}'", f"is already with the force '{placed[ld].id}'")
            else:
                placed[ld] = f
    _check_leaders(sides, cat, placed, bad)
    mix = _check_counter_mix(data, cat, map_sides, map_clients, bad)
    scenario = Scenario(
        id=data.scenario.id,
        title=data.scenario.title,
        description=data.scenario.description,
        start_month=data.scenario.start_month,
        start_year_bc=data.scenario.start_year_bc,
        source=source,
        sides=sides,
        republic=data.republic,
        clients=clients,
        owners=owners,
        counter_mix=mix,
        forces=tuple(forces),
    )
    for owner, kinds in mix.items():
        for kind, limit in kinds.items():
            n = scenario.in_play(owner, kind)
            if n > limit:
                bad(
                    f"counter mix of '{owner}', {kind}",
                    f"allows {limit} counters but the scenario puts {n} in play",
                )
    return scenario


def _check_sides(data: ScenarioFile, map_sides: list[str], bad: Report) -> dict[str, SideSetup]:
    """The sides: each one of the map's, once, and every one of them described."""
    sides: dict[str, SideSetup] = {}
    for s in data.sides:
        place = f"side '{s.id}'"
        if s.id not in map_sides:
            bad(place, f"is not one of the map's sides ({', '.join(map_sides)})")
        elif s.id in sides:
            bad(place, "is listed twice")
        else:
            sides[s.id] = s
    for sid in map_sides:
        if sid not in sides:
            bad("sides", f"must describe the side '{sid}'")
    return sides


def _check_clients(
    data: ScenarioFile, cat: Catalogue, map_sides: list[str], map_clients: list[str], bad: Report
) -> dict[str, ClientSetup]:
    """The client states: each one of the map's, once, with a status and a ruler of its own."""
    clients: dict[str, ClientSetup] = {}
    for c in data.clients:
        place = f"client '{c.id}'"
        if c.id not in map_clients:
            bad(place, f"is not a client state of the map ({', '.join(map_clients)})")
            continue
        if c.id in clients:
            bad(place, "is listed twice")
            continue
        clients[c.id] = c
        if c.status != "neutral" and c.status not in map_sides:
            bad(place, f"has the status '{c.status}'; it must be neutral or one of {', '.join(map_sides)}")
        if c.ruler is not None:
            card = cat.leaders.get(c.ruler)
            if card is None:
                bad(place, f"is ruled by '{c.ruler}', who is no leader of the counter set")
            elif card.nation != c.id:
                bad(place, f"is ruled by {card.name}, who is not a leader of {c.id}")
    for cid in map_clients:
        if cid not in clients:
            bad("clients", f"must give the status of the client state '{cid}'")
    return clients


def _check_owners(data: ScenarioFile, cmap: CampaignMap, bad: Report) -> dict[str, str]:
    """Who holds each space: the map's owners, changed by the scenario's ``owners``."""
    owners = {s.id: s.owner for s in cmap.data.space}
    changed: set[str] = set()
    for o in data.owners:
        place = f"owner of '{o.space}'"
        if o.space not in cmap.spaces:
            bad(place, _no_such_space(o.space, cmap))
            continue
        if o.owner not in cmap.owners:
            bad(place, f"names the owner '{o.owner}', which the map does not declare")
            continue
        if o.space in changed:
            bad(place, "is listed twice")
            continue
        if owners[o.space] == o.owner:
            bad(place, f"gives {cmap.name(o.space)} to '{o.owner}', who already holds it on the map")
            continue
        changed.add(o.space)
        owners[o.space] = o.owner
    return owners


def _check_leaders(sides: dict[str, SideSetup], cat: Catalogue, placed: dict[str, Force], bad: Report) -> None:
    """Each side's Supreme Leader (a Roman, with one of its forces) and its pool of leaders
    still to come (Romans of its allegiance, not in play, once)."""
    pooled: dict[str, str] = {}
    for sid, s in sides.items():
        place = f"side '{sid}'"
        card = cat.leaders.get(s.supreme_leader)
        if card is None:
            bad(place, f"has the Supreme Leader '{s.supreme_leader}', who is no leader of the counter set")
        elif card.nation != "roman":
            bad(place, f"has {card.name} as Supreme Leader, but a Supreme Leader must be a Roman")
        else:
            home = placed.get(s.supreme_leader)
            if home is None:
                bad(place, f"has {card.name} as Supreme Leader, but no force of the scenario has him")
            elif home.side != sid:
                bad(place, f"has {card.name} as Supreme Leader, but he is with the {home.side} force '{home.id}'")
        for ld in s.leader_pool:
            pcard = cat.leaders.get(ld)
            if pcard is None:
                bad(f"{place}, leader_pool", f"names '{ld}', who is no leader of the counter set")
            elif pcard.nation != "roman":
                bad(f"{place}, leader_pool", f"names {pcard.name}, a client leader; client leaders follow their state")
            elif pcard.allegiance != sid:
                bad(f"{place}, leader_pool", f"names {pcard.name}, who sided with the {pcard.allegiance}s")
            elif ld in placed:
                bad(f"{place}, leader_pool", f"names {pcard.name}, who is already in play with '{placed[ld].id}'")
            elif ld in pooled:
                bad(f"{place}, leader_pool", f"names {pcard.name} twice")
            else:
                pooled[ld] = sid


def _check_counter_mix(
    data: ScenarioFile, cat: Catalogue, map_sides: list[str], map_clients: list[str], bad: Report
) -> dict[str, dict[str, int]]:
    """The counter mix: how many counters of each kind each side or client may have (§5.4)."""
    mix: dict[str, dict[str, int]] = {}
    for cm in data.counter_mix:
        place = f"counter mix of '{cm.owner}'"
        if cm.owner not in map_sides and cm.owner not in map_clients:
            bad(place, "is neither a side nor a client state of the map")
            continue
        if cm.owner in mix:
            bad(place, "is listed twice")
            continue
        ok: dict[str, int] = {}
        for kind, n in cm.kinds.items():
            if kind not in cat.kinds:
                bad(f"{place}, {kind}", "is no unit kind of the counter set")
            elif n < 0 or n > 200:
                bad(f"{place}, {kind}", f"is {n}; a counter mix holds 0 to 200 counters of a kind")
            else:
                ok[kind] = n
        mix[cm.owner] = ok
    return mix


def _no_such_space(place: str, cmap: CampaignMap) -> str:
    return f"names the space '{place}', which is not on the map ({cmap.source.name})"


def _default_nation(side: str, kind_nations: tuple[str, ...], clients: dict[str, str]) -> str:
    """The nation a unit belongs to when the file does not say (campaign.md §5.3)."""
    base = side if side in clients or side == BARBARIAN else "roman"
    if base not in kind_nations and len(kind_nations) == 1:
        return kind_nations[0]
    return base


def _build_forces(
    entries: tuple[ForceEntry, ...],
    cmap: CampaignMap,
    cat: Catalogue,
    owners: dict[str, str],
    clients: dict[str, str],
    sides: set[str],
    bad: Report,
) -> list[Force]:
    forces: list[Force] = []
    force_ids: set[str] = set()
    unit_ids: dict[str, str] = {}
    civis_at: dict[str, str] = {}
    allowed_sides = set(cmap.owners) | {BARBARIAN}
    for fe in entries:
        place = f"force '{fe.id}'"
        if fe.id in force_ids:
            bad(place, "is listed twice; every force needs its own id")
            continue
        force_ids.add(fe.id)
        # a force with a bad side or place is still built (its leaders and units are
        # then known to the other checks), but not checked where it stands
        side_ok = fe.side in allowed_sides
        if not side_ok:
            bad(place, f"belongs to '{fe.side}', which is no owner on the map and not '{BARBARIAN}'")
        place_ok = fe.location in cmap
        if not place_ok:
            bad(place, _no_such_space(fe.location, cmap))
        units: list[Unit] = []
        for ue in fe.units:
            where = f"{place}, unit '{ue.id}'"
            if ue.id in unit_ids:
                bad(where, f"uses an id already given to a unit of the force '{unit_ids[ue.id]}'")
                continue
            unit_ids[ue.id] = fe.id
            k = cat.kinds.get(ue.kind)
            if k is None:
                known = ", ".join(sorted(cat.kinds))
                bad(where, f"is of the kind '{ue.kind}', which the counter set does not have ({known})")
                continue
            units.append(
                Unit(
                    id=ue.id,
                    kind=ue.kind,
                    discipline=ue.discipline or k.discipline,
                    strength=ue.strength or k.strength,
                    nation=ue.nation or _default_nation(fe.side, k.nations, clients),
                    name=ue.name,
                    aboard=ue.aboard,
                    disrupted=ue.disrupted,
                )
            )
        leaders = tuple(([fe.commander] if fe.commander else []) + list(fe.leaders))
        force = Force(
            id=fe.id,
            side=fe.side,
            location=fe.location,
            commander=fe.commander,
            leaders=leaders,
            units=tuple(units),
            name=fe.name,
        )
        force_problems(force, cat, place, bad)
        if place_ok and side_ok:
            _check_placement(force, cmap, cat, owners, bad, place)
        if side_ok:
            _check_allegiance(force, cat, clients, sides, bad, place)
        for u in force.units:
            if place_ok and u.kind in cat.kinds and not cat.kinds[u.kind].mobile:
                if force.location in civis_at:
                    bad(
                        f"{place}, unit '{u.id}'",
                        f"is a second {cat.kinds[u.kind].name.lower()} in {cmap.name(force.location)} "
                        f"(the first is with '{civis_at[force.location]}'); a city has one",
                    )
                else:
                    civis_at[force.location] = force.id
        forces.append(force)
    return forces


def _check_placement(
    force: Force, cmap: CampaignMap, cat: Catalogue, owners: dict[str, str], bad: Report, place: str
) -> None:
    """Where a force may stand: fleets in ports or at sea, at sea everyone aboard, a
    civis in its own city (campaign.md §4.2–§4.3)."""
    known = [u for u in force.units if u.kind in cat.kinds]
    fleets = [u for u in known if cat.kinds[u.kind].is_fleet]
    name = cmap.name(force.location)
    if cmap.is_sea(force.location):
        if not fleets:
            bad(place, f"is at sea in {name} but has no fleet to carry it")
        for u in known:
            if not cat.kinds[u.kind].is_fleet and u.aboard is None:
                bad(f"{place}, unit '{u.id}'", f"is at sea in {name} but aboard no fleet")
        for u in known:
            if not cat.kinds[u.kind].mobile:
                bad(f"{place}, unit '{u.id}'", f"is a {cat.kinds[u.kind].name.lower()}, which never leaves its city")
        return
    space = cmap.space(force.location)
    if fleets and not space.port:
        bad(place, f"has fleets in {name}, which is not a port")
    for u in known:
        k = cat.kinds[u.kind]
        if not k.mobile:
            if space.kind != "city":
                bad(f"{place}, unit '{u.id}'", f"is a {k.name.lower()} in {name}, which is not a city")
            elif owners[space.id] != force.side:
                bad(
                    f"{place}, unit '{u.id}'",
                    f"is the {k.name.lower()} of {name}, which belongs to '{owners[space.id]}', not '{force.side}'",
                )


def _check_allegiance(
    force: Force, cat: Catalogue, clients: dict[str, str], sides: set[str], bad: Report, place: str
) -> None:
    """Who may serve in whose force (campaign.md §5.3)."""
    allies = {cid for cid, st in clients.items() if st == force.side}
    if force.side in sides:
        may_serve = {"roman"} | allies
    elif force.side in clients:
        may_serve = {force.side}
    elif force.side == BARBARIAN:
        may_serve = {BARBARIAN}
    else:  # a neutral free city
        may_serve = {"roman"}
    for u in force.units:
        if u.nation in cat.nations and u.nation not in may_serve:
            bad(
                f"{place}, unit '{u.id}'",
                f"is {cat.nations[u.nation].name} and cannot serve in a force of '{force.side}'",
            )
    for ld in force.leaders:
        card = cat.leaders.get(ld)
        if card is None:
            continue
        where = f"{place}, leader '{ld}'"
        if card.nation == "roman":
            if force.side not in sides:
                bad(where, f"is {card.name}, a Roman, who cannot lead a force of '{force.side}'")
            elif card.allegiance != force.side:
                bad(where, f"is {card.name}, who sided with the {card.allegiance}s, not the {force.side}s")
        elif card.nation != force.side and not (force.side in sides and card.nation in allies):
            bad(where, f"is {card.name} of {card.nation}, who cannot serve in a force of '{force.side}'")


def count_units(scenario: Scenario, side: str) -> Counter[str]:
    """Units of each kind in the forces of ``side``."""
    return Counter(u.kind for f in scenario.forces_of(side) for u in f.units)
