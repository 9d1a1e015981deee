"""Pydantic models for tactical positions as input (rules cases, later scenarios and saves),
and ``build_state``, which turns a validated position into the fast internal ``State``.

The notation is ``cases/FORMAT.md``'s; the project adds a few optional keys, each
documented in docs/rules/tactical.md §10: ``[map] era``, hexside ``road`` /
``roman_road`` / ``bridge`` (and lists of features), ``town`` terrain, a unit's
``formation`` and a cohort's ``grade`` (docs/rules/tactical-charts.md §8), a leader's
``ma`` / ``status`` / ``finished``, ``[sequence] group`` / ``returns`` / ``order``, and
``[[replacements]]``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from bellum.errors import InputError
from bellum.tomlio import PieceId
from tactical.hexes import CLOCK_FACING, CLOCK_SIDE, Grid
from tactical.state import (
    LEADER_MA,
    OPTIONS,
    RULESETS,
    Battlefield,
    Leader,
    Replacement,
    Seq,
    State,
    Unit,
    edge_key,
    make_unit,
)
from tactical.tables import NO, ROAD_FEATURES, TERRAIN_INDEX
from tactical.variants import apply_rout_bid, parse_rout_bid, pressed_legions

TerrainName = Literal["clear", "woods", "rough", "marsh", "impassable", "town"]
Feature = Literal[
    "stream", "minor_river", "major_river", "steep_bank", "rocky_river_bed", "road", "roman_road", "bridge"
]
UnitType = Literal[
    "PH", "HO", "HI", "LG", "CO", "MI", "BI", "LP", "LI", "SK", "SK*", "HC", "RC", "BC", "LN", "LC", "EL", "CH", "AT"
]
Side = Literal["A", "B"]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MapIn(_In):
    columns: int = Field(30, ge=1, le=99)
    rows: int = Field(20, ge=1, le=99)
    terrain: dict[str, TerrainName] = {}
    level: dict[str, int] = {}
    hexsides: dict[str, Feature | list[Feature]] = {}
    home: dict[Side, Literal["top", "bottom"]] | None = None
    era: Literal["alexander", "caesar"] | None = None


class UnitIn(_In):
    id: PieceId
    side: Side
    type: UnitType
    size: int = Field(ge=1, le=30)
    tq: int = Field(ge=0, le=9)
    ma: int = Field(ge=1, le=20)
    hex: str
    facing: int
    hex2: str | None = None
    missile: Literal["S", "BS", "A", "B", "C", "J", "MJ", "MA"] | None = None
    status: Literal["full", "disordered", "routed"] = "full"
    missile_hits: int = Field(0, ge=0, le=20)
    engaged: bool = False
    cataphract: bool = False
    roman: bool = False
    group: str = ""
    formation: Literal["line", "column"] = "line"
    reduced_side: bool = False
    reduced: bool = False
    double_depth: bool = False
    #: a cohort's grade (002 CO(Vet)/CO(Rec)/CO(Con), docs/rules/tactical-charts.md §8): only on a CO
    grade: Literal["veteran", "recruit", "conscript"] | None = None


class LeaderIn(_In):
    id: PieceId
    side: Side
    hex: str | None = None
    initiative: int = Field(ge=0, le=9)
    range: int = Field(ge=0, le=20)
    elite: bool = False
    overall: bool = False
    kind: Literal["general", "tribune", "praefect_sociorum", "praefect_equitum", "proconsul"] = "general"
    ma: int = Field(LEADER_MA, ge=1, le=30)
    status: Literal["active", "eliminated"] = "active"
    finished: bool = False


class SequenceIn(_In):
    side: Side = "A"
    leader: str | None = None
    group: list[str] | None = None
    phase: Literal["start", "activation", "move", "shock", "rally", "continuity"] = "move"
    last: str | None = None
    last_count: int | None = Field(None, ge=0, le=3)
    streak: int | None = Field(None, ge=0, le=3)
    freebie: bool = False
    returns: bool = False
    order: str | None = None


class ReplacementIn(_In):
    side: Side
    initiative: int = Field(ge=0, le=9)
    range: int = Field(ge=0, le=20)


class PositionIn(_In):
    """A tactical position as a case (or scenario) gives it."""

    rules: Literal["sgboh", "simple-spqr", "charts-v1"] = "sgboh"
    options: list[str] = []
    map: MapIn = MapIn()
    units: list[UnitIn] = []
    leaders: list[LeaderIn] = []
    sequence: SequenceIn | None = None
    replacements: list[ReplacementIn] = []
    withdrawal: dict[Side, int] = {}


def _hex(grid: Grid, raw: str, source: str | Path, place: str) -> int:
    try:
        return grid.index(raw)
    except ValueError as exc:
        raise InputError(source, place, str(exc)) from None


def build_state(pos: PositionIn, source: str | Path) -> State:
    """The internal state of a validated position; InputError for anything inconsistent."""
    if pos.rules not in RULESETS:
        raise InputError(source, "rules", f"{pos.rules!r} is not a ruleset")
    bids = _rout_bids(pos, source)
    field = _battlefield(pos, source)
    units = _units(pos, field, source)
    leaders: dict[str, Leader] = {}
    for k, ld in enumerate(pos.leaders):
        place = f"leaders[{k}]"
        if ld.id in leaders or ld.id in units:
            raise InputError(source, f"{place}.id", f"the id {ld.id!r} is used twice")
        if ld.status == "active" and ld.hex is None:
            raise InputError(source, f"{place}.hex", "a leader on the field needs a hex")
        h = _hex(field.grid, ld.hex, source, f"{place}.hex") if ld.hex is not None and ld.status == "active" else -1
        leaders[ld.id] = Leader(
            ld.id, ld.side, h, ld.initiative, ld.range, ld.elite, ld.overall, ld.kind, ld.ma, ld.status, ld.finished
        )
    seq = _sequence(pos, units, leaders, source)
    reps = [Replacement(r.side, r.initiative, r.range) for r in pos.replacements]
    for side, wl in pos.withdrawal.items():
        if wl < 1:
            raise InputError(source, f"withdrawal.{side}", "a withdrawal level is a positive number of rout points")
    state = State(
        field,
        pos.rules,
        frozenset(pos.options),
        units,
        leaders,
        seq,
        replacements=reps,
        withdrawal={str(k): v for k, v in pos.withdrawal.items()},
    )
    _check_static_costs(state, source)
    for bid_side, points in bids:
        try:
            apply_rout_bid(state, bid_side, points)  # 001 Rout Bid method, after set-up
        except ValueError as exc:
            raise InputError(source, "options", str(exc)) from None
    if "no-pilum" in state.options:
        state.pressed = pressed_legions(state)
    return state


def _rout_bids(pos: PositionIn, source: str | Path) -> list[tuple[str, int]]:
    """The position's options, checked; the rout bids among them (side, points)."""
    bids: list[tuple[str, int]] = []
    for opt in pos.options:
        try:
            bid = parse_rout_bid(opt)
        except ValueError as exc:
            raise InputError(source, "options", str(exc)) from None
        if bid is not None:
            bids.append(bid)
        elif opt not in OPTIONS:
            known = sorted(OPTIONS | {"rout-bid:SIDE:POINTS"})
            raise InputError(source, "options", f"{opt!r} is not an option of the tactical rules ({known})")
    return bids


def _battlefield(pos: PositionIn, source: str | Path) -> Battlefield:
    """The map: its hexes' terrain and levels, its hexside features, the sides' home edges."""
    m = pos.map
    grid = Grid.make(m.columns, m.rows)
    n = grid.size
    terrain = [0] * n
    level = [0] * n
    for key, name in m.terrain.items():
        terrain[_hex(grid, key, source, f"map.terrain.{key}")] = TERRAIN_INDEX[name]
    for key, lv in m.level.items():
        if not -9 <= lv <= 9:
            raise InputError(source, f"map.level.{key}", "an elevation level is between -9 and 9")
        level[_hex(grid, key, source, f"map.level.{key}")] = lv
    hexsides: dict[tuple[int, int], str] = {}
    roads: set[tuple[int, int]] = set()
    roman: set[tuple[int, int]] = set()
    bridges: set[tuple[int, int]] = set()
    for key, raw in m.hexsides.items():
        place = f"map.hexsides.{key}"
        a_id, sep, b_id = key.partition("/")
        if not sep:
            raise InputError(source, place, "a hexside is written HEX/HEX, e.g. 1005/1105")
        a, b = _hex(grid, a_id, source, place), _hex(grid, b_id, source, place)
        if grid.direction(a, b) < 0:
            raise InputError(source, place, f"{a_id} and {b_id} are not adjacent")
        ek = edge_key(a, b)
        for feat in [raw] if isinstance(raw, str) else raw:
            if feat == "road":
                roads.add(ek)
            elif feat == "roman_road":
                roman.add(ek)
            elif feat == "bridge":
                bridges.add(ek)
            elif ek in hexsides:
                raise InputError(source, place, "a hexside has at most one river or bank feature")
            else:
                hexsides[ek] = feat
    assert set(ROAD_FEATURES) == {"road", "roman_road", "bridge"}
    era = m.era or ("alexander" if pos.rules == "sgboh" else "caesar")
    home: dict[str, str] = {"A": "bottom", "B": "top"}
    if m.home:
        home.update({str(k): str(v) for k, v in m.home.items()})
    return Battlefield(
        grid, terrain, level, hexsides, frozenset(roads), frozenset(roman), frozenset(bridges), home, era
    )


def _units(pos: PositionIn, field: Battlefield, source: str | Path) -> dict[str, Unit]:
    """The units, each on open hexes of the field, never with an enemy."""
    grid = field.grid
    units: dict[str, Unit] = {}
    occupied: dict[int, list[Unit]] = {}
    for k, u in enumerate(pos.units):
        place = f"units[{k}]"
        if u.id in units:
            raise InputError(source, f"{place}.id", f"the id {u.id!r} is used twice")
        unit = _unit(u, grid, place, source)
        for x in unit.hexes():
            if field.terrain[x] in (TERRAIN_INDEX["impassable"], TERRAIN_INDEX["town"]):
                raise InputError(source, f"{place}.hex", f"{grid.hex_id(x)} is impassable terrain")
            others = occupied.setdefault(x, [])
            if any(o.side != unit.side for o in others):
                raise InputError(source, f"{place}.hex", f"{grid.hex_id(x)} already holds an enemy unit")
            others.append(unit)
        units[u.id] = unit
    return units


def _unit(u: UnitIn, grid: Grid, place: str, source: str | Path) -> Unit:
    """One unit of the position: its hexes and facing (a double-sized phalanx's second hex
    where its formation puts it), its grade and depth, checked."""
    h = _hex(grid, u.hex, source, f"{place}.hex")
    column = u.formation == "column"
    table = CLOCK_SIDE if column else CLOCK_FACING
    if u.facing not in table:
        what = "a column faces 1, 3, 5, 7, 9 or 11" if column else "facing is one of 12, 2, 4, 6, 8, 10"
        raise InputError(source, f"{place}.facing", what)
    f = table[u.facing]
    h2 = -1
    if u.hex2 is not None:
        h2 = _hex(grid, u.hex2, source, f"{place}.hex2")
        want = grid.nbr[h * 6 + ((f + 3) % 6 if column else (f + 1) % 6)]
        if h2 != want:
            side_txt = "behind its front hex" if column else "a quarter-turn clockwise from its facing"
            raise InputError(
                source,
                f"{place}.hex2",
                f"hex2 must be the hex {side_txt} ({grid.hex_id(want) if want >= 0 else 'off the map'})",
            )
    elif column:
        raise InputError(source, f"{place}.formation", "only a double-sized phalanx (with hex2) forms column")
    if u.double_depth and (u.type != "PH" or u.hex2 is None):
        raise InputError(source, f"{place}.double_depth", "only a double-sized phalanx (PH with hex2) is double-depth")
    if u.grade is not None and u.type != "CO":
        raise InputError(source, f"{place}.grade", "only a cohort (CO) has a grade")
    return make_unit(
        u.id,
        u.side,
        u.type,
        u.size,
        u.tq,
        u.ma,
        h,
        f,
        hex2=h2,
        missile=u.missile,
        status=u.status,
        missile_hits=u.missile_hits,
        engaged=u.engaged,
        cataphract=u.cataphract,
        roman=u.roman,
        group=u.group,
        column=column,
        reduced_side=u.reduced_side or u.reduced,
        reduced=u.reduced,
        double_depth=u.double_depth,
        grade=u.grade,
    )


def _sequence(pos: PositionIn, units: dict[str, Unit], leaders: dict[str, Leader], source: str | Path) -> Seq:
    s = pos.sequence
    if s is None:
        return Seq()
    if s.leader is not None:
        ld = leaders.get(s.leader)
        if ld is None:
            raise InputError(source, "sequence.leader", f"there is no leader {s.leader!r}")
        if ld.side != s.side:
            raise InputError(source, "sequence.leader", f"{s.leader} is not a leader of side {s.side}")
    if s.last is not None and s.last != "group" and s.last not in leaders:
        raise InputError(source, "sequence.last", f"there is no leader {s.last!r}")
    group = None
    if s.group is not None:
        for uid in s.group:
            if uid not in units:
                raise InputError(source, "sequence.group", f"there is no unit {uid!r}")
        group = tuple(s.group)
    active = s.phase in ("move", "shock", "rally")
    last = s.last
    if last is None and active:
        last = s.leader if s.leader is not None else ("group" if group else None)
    last_count = s.last_count if s.last_count is not None else (1 if last is not None else 0)
    streak = s.streak if s.streak is not None else (1 if active or s.phase == "continuity" else 0)
    return Seq(
        s.side,
        s.phase,
        s.leader if active or s.phase == "continuity" else None,
        group,
        last,
        last_count,
        streak,
        s.freebie,
        s.returns,
        s.order,
        False,
    )


def _check_static_costs(state: State, source: str | Path) -> None:
    """Nothing stands where it could never have gone (a unit in terrain prohibited to it)."""
    field = state.field
    from tactical.tables import move_tables

    t = move_tables()
    for u in state.units.values():
        for h in u.hexes():
            if t.hex_cost[u.move_class()][field.terrain[h]] >= NO:
                raise InputError(source, f"units.{u.id}", f"{u.type} may not stand in {field.terrain_name(h)}")
