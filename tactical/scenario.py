"""Tactical scenarios: the TOML format (docs/scenarios.md), its pydantic models and the loader.

A scenario is a battlefield, two orders of battle, withdrawal levels, who goes first, the
ruleset and its options, and documented special-rule ids.  To keep files readable, terrain
and elevation are given as areas (single hexes or ``CCRR-CCRR`` rectangles) and a line of
identical units as one entry with ``count`` and a list of set-up hexes.  The loader expands
the file into the case position model (``tactical.models.PositionIn``) and builds the state
through ``build_state`` — the same path a rules case takes — so every check there (hex ids,
stacking, prohibited terrain, duplicate ids) applies to scenarios too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from bellum.errors import InputError
from bellum.tomlio import load_model
from tactical.hexes import Grid
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
from tactical.state import State

#: special rules a scenario may name; each is documented in docs/scenarios.md §Special rules
SPECIAL_RULES = frozenset(
    {
        "hidden-reserve",  # Pharsalus: Caesar's fourth line (Caesar BC III.89)
        "stand-fast",  # Pharsalus: Pompey's order to receive the charge (Caesar BC III.92)
        "unfinished-camp",  # Thapsus: Scipio's half-built rampart (BAfr 80-82)
        "hill-position",  # Munda: the Pompeian line on the slope (BHisp 28-30)
        "encirclement",  # Cannae: the African wings turn inward (Polybius 3.115)
        "scythed-chariots",  # Gaugamela: the levelled ground (Arrian Anab. 3.8, 3.13)
    }
)


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AreaIn(_In):
    """Terrain or elevation for a set of hexes: single ids or ``CCRR-CCRR`` rectangles."""

    hexes: list[str] = Field(min_length=1)
    terrain: TerrainName | None = None
    level: int | None = Field(None, ge=-9, le=9)


class FieldIn(_In):
    columns: int = Field(ge=1, le=99)
    rows: int = Field(ge=1, le=99)
    era: Literal["alexander", "caesar"] | None = None
    areas: list[AreaIn] = []
    hexsides: dict[str, Feature | list[Feature]] = {}


class SideIn(_In):
    name: str = Field(min_length=1, max_length=60)
    #: the map edge this side sets up on (its home edge: routs go toward it)
    home: Literal["top", "bottom"]
    withdrawal: int = Field(ge=1, le=2000)


class ScenarioUnitIn(_In):
    """One unit, or ``count`` identical units whose ids replace ``{n}`` with 1, 2, …"""

    id: str = Field(min_length=1, max_length=40)
    side: Side
    type: UnitType
    size: int = Field(ge=1, le=30)
    tq: int = Field(ge=0, le=9)
    ma: int = Field(ge=1, le=20)
    at: list[str] = Field(min_length=1)
    facing: int
    count: int = Field(1, ge=1, le=60)
    missile: Literal["S", "BS", "A", "B", "C", "J", "MJ", "MA"] | None = None
    group: str = ""
    roman: bool = False
    #: a cohort's grade (002 CO(Vet)/CO(Rec)/CO(Con)); recorded, see docs/scenarios.md §Cohorts
    grade: Literal["veteran", "recruit", "conscript"] | None = None
    cataphract: bool = False


class ScenarioIn(_In):
    name: str = Field(min_length=1, max_length=80)
    year: str = ""
    description: str = ""
    sources: list[str] = Field(min_length=1)
    rules: Literal["sgboh", "simple-spqr", "charts-v1"]
    options: list[str] = []
    first: Literal["A", "B", "roll"] = "roll"
    special_rules: list[str] = []
    sides: dict[Side, SideIn]
    field: FieldIn
    units: list[ScenarioUnitIn] = Field(min_length=2)
    leaders: list[LeaderIn] = []
    replacements: list[ReplacementIn] = []


class Scenario:
    """A loaded scenario: its validated model and the starting state."""

    def __init__(self, model: ScenarioIn, state: State, path: Path) -> None:
        self.model = model
        self.state = state
        self.path = path

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


def to_position(sc: ScenarioIn, source: str | Path) -> PositionIn:
    """The scenario as a case position (start of battle)."""
    for rule in sc.special_rules:
        if rule not in SPECIAL_RULES:
            raise InputError(source, "special_rules", f"{rule!r} is not a documented special rule")
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
        if u.count > 1 and "{n}" not in u.id:
            raise InputError(source, f"{place}.id", "a line of several units needs {n} in its id")
        for n, h in enumerate(hexes, start=1):
            units.append(
                UnitIn(
                    id=u.id.replace("{n}", str(n)),
                    side=u.side,
                    type=_engine_type(u),
                    size=u.size,
                    tq=u.tq,
                    ma=u.ma,
                    hex=h,
                    facing=u.facing,
                    missile=u.missile,
                    group=u.group,
                    roman=u.roman,
                    cataphract=u.cataphract,
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
            hexsides=f.hexsides,
            home={s: v.home for s, v in sc.sides.items()},
            era=f.era,
        ),
        units=units,
        leaders=sc.leaders,
        sequence=None,
        replacements=sc.replacements,
        withdrawal={s: v.withdrawal for s, v in sc.sides.items()},
    )


#: 002 files CO(Vet) with LG and CO(Con) with MI (weapons_charts_v1.toml [groups]); the engine
#: has no cohort grade, so a graded cohort plays as the type 002 files it with
_GRADE_TYPE = {"veteran": "LG", "recruit": "CO", "conscript": "MI"}


def _engine_type(u: ScenarioUnitIn) -> UnitType:
    if u.grade is None:
        return u.type
    if u.type != "CO":
        raise ValueError("grade")
    return _GRADE_TYPE[u.grade]  # type: ignore[return-value]


def load_scenario(path: str | Path) -> Scenario:
    """Read, validate and build a scenario; ``InputError`` (one sentence) on any problem."""
    p = Path(path)
    model = load_model(ScenarioIn, p)
    state = build_state(to_position(model, p), p)
    return Scenario(model, state, p)


def resolve(name: str) -> Path:
    """A scenario by bare name (``pharsalus``) or by path."""
    p = Path(name)
    if p.suffix == ".toml" or p.exists():
        return p
    return Path(__file__).resolve().parent.parent / "scenarios" / "tactical" / f"{name}.toml"


def schema() -> dict[str, Any]:
    """The JSON schema of the scenario format, for modders (scenarios/tactical/schema.json)."""
    return ScenarioIn.model_json_schema()


def write_schema(path: str | Path) -> None:
    Path(path).write_text(json.dumps(schema(), indent=2, sort_keys=True) + "\n", encoding="utf-8")
