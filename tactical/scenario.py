"""Tactical scenarios: the TOML format (docs/scenarios.md), its pydantic models and the loader.

A scenario is a battlefield, two orders of battle, withdrawal levels, who goes first, the
ruleset and its options, and documented special-rule ids.  To keep files readable, terrain
and elevation are given as areas (single hexes or ``CCRR-CCRR`` rectangles) and a line of
identical units as one entry with ``count`` and a list of set-up hexes.  The loader expands
the file into the case position model (``tactical.models.PositionIn``) and builds the state
through ``build_state`` — the same path a rules case takes — so every check there (hex ids,
stacking, prohibited terrain, duplicate ids) applies to scenarios too.  The special rules
(``tactical.special``) are checked with their parameters, the set-up ones applied to the
new state and the others recorded in its rule options, where the engine finds them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from bellum.errors import InputError
from bellum.paths import resolve_scenario
from bellum.tomlio import PieceId, load_model
from tactical import special
from tactical.hexes import CLOCK_FACING, Grid, hex2_dir
from tactical.models import (
    Feature,
    LeaderIn,
    MapIn,
    PositionIn,
    ReplacementIn,
    Side,
    TerrainName,
    UnitIn,
    UnitType,
    build_state,
)
from tactical.options import split as split_options
from tactical.state import State

#: cohort grades (docs/rules/tactical-charts.md §8 Cohorts): the TQ band a graded cohort's TQ must
#: lie in and the TQ it has when the scenario gives none (project rule on research §0's grades)
GRADE_TQ: dict[str, tuple[int, int, int]] = {
    "veteran": (6, 9, 7),
    "recruit": (4, 6, 5),
    "conscript": (2, 4, 4),
}


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AreaIn(_In):
    """Terrain or elevation for a set of hexes: single ids or ``CCRR-CCRR`` rectangles."""

    hexes: list[str] = Field(min_length=1)
    terrain: TerrainName | None = None
    level: int | None = Field(None, ge=-9, le=9)


class EdgeIn(_In):
    """One feature along every hexside between a row and the row below it, over a span of
    columns (a stream across the field, say): ``{ below_row = 14, columns = [1, 54], feature = "stream" }``."""

    below_row: int = Field(ge=1, le=98)
    columns: tuple[int, int]
    feature: Feature


class FieldIn(_In):
    columns: int = Field(ge=1, le=99)
    rows: int = Field(ge=1, le=99)
    era: Literal["alexander", "caesar"] | None = None
    areas: list[AreaIn] = []
    hexsides: dict[str, Feature | list[Feature]] = {}
    edges: list[EdgeIn] = []


class SideIn(_In):
    name: str = Field(min_length=1, max_length=60)
    #: the map edge this side sets up on (its home edge: routs go toward it)
    home: Literal["top", "bottom"]
    withdrawal: int = Field(ge=1, le=2000)


class ScenarioUnitIn(_In):
    """One unit, or ``count`` identical units whose ids replace ``{n}`` with 1, 2, …"""

    id: PieceId
    side: Side
    type: UnitType
    size: int = Field(ge=1, le=30)
    #: may be left out for a graded cohort: it then has its grade's TQ (GRADE_TQ)
    tq: int | None = Field(None, ge=0, le=9)
    ma: int = Field(ge=1, le=20)
    at: list[str] = Field(min_length=1)
    facing: int
    count: int = Field(1, ge=1, le=60)
    #: a double-sized unit (two hexes): ``at`` names its first hex, the second is a
    #: quarter-turn clockwise from its facing (FORMAT.md hex2)
    double: bool = False
    missile: Literal["S", "BS", "A", "B", "C", "J", "MJ", "MA"] | None = None
    group: str = ""
    roman: bool = False
    #: a cohort's grade (002 CO(Vet)/CO(Rec)/CO(Con)): its weapons row and TQ band, docs/scenarios.md §Cohorts
    grade: Literal["veteran", "recruit", "conscript"] | None = None
    cataphract: bool = False


class SpecialIn(_In):
    """Parameters of one special rule (``[special.<id>]``; which it takes: tactical/special.py)."""

    #: the side the rule binds (default: the side that does not go first)
    side: Side | None = None
    groups: list[str] = []
    hexes: list[str] = []


class ScenarioIn(_In):
    name: str = Field(min_length=1, max_length=80)
    year: str = ""
    description: str = ""
    #: a short historical note in the project's own words, shown by the scenario picker
    note: str = Field("", max_length=600)
    sources: list[str] = Field(min_length=1)
    rules: Literal["sgboh", "simple-spqr", "charts-v1"]
    options: list[str] = []
    first: Literal["A", "B", "roll"] = "roll"
    special_rules: list[str] = []
    special: dict[str, SpecialIn] = {}
    sides: dict[Side, SideIn]
    field: FieldIn
    units: list[ScenarioUnitIn] = Field(min_length=2)
    leaders: list[LeaderIn] = []
    replacements: list[ReplacementIn] = []


class Scenario:
    """A loaded scenario: its validated model and the starting state."""

    def __init__(self, model: ScenarioIn, state: State, path: Path, rules: tuple[special.Active, ...] = ()) -> None:
        self.model = model
        self.state = state
        self.path = path
        #: the special rules in force, with their parameters
        self.rules = rules

    def side_name(self, side: str) -> str:
        return self.model.sides[side].name  # type: ignore[index]


def expand_hexes(grid: Grid, specs: list[str], source: str | Path, place: str) -> list[str]:
    """Hex ids from single ids and ``CCRR-CCRR`` rectangles (row by row, left to right)."""
    out: list[str] = []
    for spec in specs:
        first, sep, last = spec.partition("-")
        for raw in (first, last) if sep else (first,):
            try:
                grid.index(raw)
            except ValueError as exc:
                raise InputError(source, place, str(exc)) from None
        if not sep:
            out.append(first)
            continue
        c0, r0, c1, r1 = int(first[:2]), int(first[2:]), int(last[:2]), int(last[2:])
        if c1 < c0 or r1 < r0:
            raise InputError(source, place, f"the rectangle {spec} must run from top-left to bottom-right")
        out.extend(f"{c:02d}{r:02d}" for r in range(r0, r1 + 1) for c in range(c0, c1 + 1))
    return out


def special_rules(sc: ScenarioIn, source: str | Path) -> tuple[special.Active, ...]:
    """The scenario's special rules with their parameters checked (tactical/special.py)."""
    grid = Grid.make(sc.field.columns, sc.field.rows)
    for key in sc.special:
        if key not in sc.special_rules:
            raise InputError(source, f"special.{key}", f"{key!r} has parameters but is not in special_rules")
    out = []
    for k, rule in enumerate(sc.special_rules):
        if rule in sc.special_rules[:k]:
            raise InputError(source, f"special_rules[{k}]", f"{rule!r} is named twice")
        params = sc.special.get(rule, SpecialIn())
        expand_hexes(grid, params.hexes, source, f"special.{rule}.hexes")
        try:
            out.append(special.configure(rule, params.side, params.groups, params.hexes, sc.first))
        except ValueError as exc:
            place = f"special.{rule}" if rule in special.RULES else f"special_rules[{k}]"
            raise InputError(source, place, str(exc)) from None
    return tuple(out)


def to_position(sc: ScenarioIn, source: str | Path) -> PositionIn:
    """The scenario as a case position (start of battle); its special rules are checked too."""
    special_rules(sc, source)
    if set(sc.sides) != {"A", "B"}:
        raise InputError(source, "sides", "a scenario names both sides, A and B")
    f = sc.field
    grid = Grid.make(f.columns, f.rows)
    terrain: dict[str, TerrainName] = {}
    level: dict[str, int] = {}
    for k, area in enumerate(f.areas):
        for h in expand_hexes(grid, area.hexes, source, f"field.areas[{k}].hexes"):
            if area.terrain is not None:
                terrain[h] = area.terrain
            if area.level is not None:
                level[h] = area.level
    units: list[UnitIn] = []
    for k, u in enumerate(sc.units):
        place = f"units[{k}]"
        hexes = expand_hexes(grid, u.at, source, f"{place}.at")
        if len(hexes) != u.count:
            raise InputError(source, f"{place}.at", f"{u.count} unit(s) need {u.count} set-up hexes, not {len(hexes)}")
        if u.grade is not None and u.type != "CO":
            raise InputError(source, f"{place}.grade", "only a cohort (CO) has a grade")
        tq = _tq(u, source, place)
        if u.count > 1 and "{n}" not in u.id:
            raise InputError(source, f"{place}.id", "a line of several units needs {n} in its id")
        for n, h in enumerate(hexes, start=1):
            units.append(
                UnitIn(
                    id=u.id.replace("{n}", str(n)),
                    side=u.side,
                    type=u.type,
                    size=u.size,
                    tq=tq,
                    ma=u.ma,
                    hex=h,
                    hex2=_hex2(grid, h, u, source, f"{place}.at") if u.double else None,
                    facing=u.facing,
                    missile=u.missile,
                    group=u.group,
                    roman=u.roman,
                    cataphract=u.cataphract,
                    grade=u.grade,  # a graded cohort stays a CO; the grade picks its 002 matrix row (§8)
                )
            )
    return PositionIn(
        rules=sc.rules,
        options=sc.options,
        map=MapIn(
            columns=f.columns,
            rows=f.rows,
            terrain=terrain,
            level=level,
            hexsides=_hexsides(f, grid, source),
            home={s: v.home for s, v in sc.sides.items()},
            era=f.era,
        ),
        units=units,
        leaders=sc.leaders,
        sequence=None,
        replacements=sc.replacements,
        withdrawal={s: v.withdrawal for s, v in sc.sides.items()},
    )


def _hexsides(f: FieldIn, grid: Grid, source: str | Path) -> dict[str, Feature | list[Feature]]:
    """``hexsides`` with every ``edges`` line added (one feature per hexside; a road may join it)."""
    out: dict[str, Feature | list[Feature]] = dict(f.hexsides)
    for k, e in enumerate(f.edges):
        place = f"field.edges[{k}]"
        c0, c1 = e.columns
        if e.below_row >= f.rows or not 1 <= c0 <= c1 <= f.columns:
            raise InputError(source, place, f"the line must lie on the {f.columns}×{f.rows} map (columns low to high)")
        for c in range(c0, c1 + 1):
            a = grid.index(f"{c:02d}{e.below_row:02d}")
            for d in (2, 3):  # SE and SW: the hexes of the row below
                b = grid.nbr[a * 6 + d]
                if b < 0 or grid.col_row(b)[0] < c0 or grid.col_row(b)[0] > c1:
                    continue
                key = f"{grid.hex_id(a)}/{grid.hex_id(b)}"
                if key in out:
                    raise InputError(source, place, f"the hexside {key} is already given a feature")
                out[key] = e.feature
    return out


def _hex2(grid: Grid, h: str, u: ScenarioUnitIn, source: str | Path, place: str) -> str | None:
    """The second hex of a double-sized unit (a quarter-turn clockwise from its facing)."""
    if u.facing not in CLOCK_FACING:
        return None  # build_state names the bad facing
    j = grid.nbr[grid.index(h) * 6 + hex2_dir(CLOCK_FACING[u.facing])]
    if j < 0:
        raise InputError(source, place, f"the double-sized unit at {h} would reach off the map")
    return grid.hex_id(j)


def _tq(u: ScenarioUnitIn, source: str | Path, place: str) -> int:
    """A unit's TQ; a graded cohort's lies in its grade's band (docs/rules/tactical-charts.md §8)."""
    if u.grade is None:
        if u.tq is None:
            raise InputError(source, f"{place}.tq", "a unit needs a tq (only a graded cohort has a default)")
        return u.tq
    lo, hi, default = GRADE_TQ[u.grade]
    if u.tq is None:
        return default
    if not lo <= u.tq <= hi:
        raise InputError(source, f"{place}.tq", f"a {u.grade} cohort has a TQ from {lo} to {hi}, not {u.tq}")
    return u.tq


def load_scenario(path: str | Path, options: Sequence[str] | None = None) -> Scenario:
    """Read, validate and build a scenario; ``InputError`` (one sentence) on any problem.

    ``options``: the optional rules a player chose (tactical/options.py), replacing the
    scenario's ``options`` (and its ``rules`` if they name a ruleset); None keeps the file's."""
    p = Path(path)
    model = load_model(ScenarioIn, p)
    if options is not None:
        try:
            ruleset, chosen = split_options(options)
        except ValueError as exc:
            raise InputError(p, "options", str(exc)) from None
        model = model.model_copy(update={"options": chosen, "rules": ruleset or model.rules})
    rules = special_rules(model, p)
    pos = to_position(model, p)  # checks the rules again (cheap)
    try:
        state = build_state(pos, p)
    except InputError as exc:
        raise InputError(p, _scenario_place(model, pos, exc.place), exc.problem) from None
    for problem in special.setup(state, list(rules)):
        if any(o.startswith("rout-bid:") for o in model.options):
            problem = f"the rout bid took off units a special rule of this battle needs ({problem})"
            raise InputError(p, "options", problem)
        raise InputError(p, "special_rules", problem)
    recorded = frozenset(special.encode(r) for r in rules if not special.RULES[r.id].setup_only)
    if recorded:
        state.options = state.options | recorded
    return Scenario(model, state, p, rules)


def _scenario_place(sc: ScenarioIn, pos: PositionIn, place: str) -> str:
    """A place in the expanded position (``units[7].hex``, ``units.X-3``) as the place in the
    scenario file: the ``[[units]]`` entry the unit comes from, its ``at``, and the unit's id."""
    entries = [k for k, u in enumerate(sc.units) for _ in range(u.count)]
    m = re.fullmatch(r"units\[(\d+)\](\.\w+)?", place)
    if m and int(m.group(1)) < len(entries):
        k = int(m.group(1))
        field = m.group(2) or ""
        field = ".at" if field in (".hex", ".hex2") else field
        return f"units[{entries[k]}]{field} ({pos.units[k].id})"
    if place.startswith("units."):
        uid = place[len("units.") :]
        for k, u in enumerate(pos.units):
            if u.id == uid:
                return f"units[{entries[k]}] ({uid})"
    return place


def resolve(name: str) -> Path:
    """A scenario by bare name (``pharsalus``) or by path."""
    return resolve_scenario(name, "tactical")
