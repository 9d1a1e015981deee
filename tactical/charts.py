"""The combat charts of the tactical engine as validated, immutable lookup tables.

Pure data and lookups, no game state: the shock resolver, missile fire and rally of
``tactical`` ask these functions.  Every table is a TOML file in ``tactical/data/``, read
through ``bellum.tomlio`` and validated by pydantic; a broken file raises
``bellum.errors.InputError`` naming the file, the place in it and the problem.

Tables (docs/rules/tactical-charts.md explains each, and every reconstructed cell):

- ``weapons_sgboh.toml`` — 003's Weapons System DRM Matrix (rulesets ``sgboh``,
  ``simple-spqr``): columns are the attacker, rows the defender, notes a and b, bracketed
  cells, NA cells.
- ``weapons_charts_v1.toml`` — 002's wider matrix with the Roman types (ruleset
  ``charts-v1``): attacker rows, defender columns, a front and a flank/rear value per cell.
- ``shock_results.toml`` — 003's Shock Results Table; ``shock_results_charts_v1.toml`` —
  002's Shock Results (hits, reduced units, TQ checks, stack effects).
- ``missile.toml`` — 002's Missile Range and Results Chart and its DRMs (every ruleset).
- ``rally.toml`` — 003's New Rally Table; ``pursuit.toml`` — 003's Cavalry Pursuit Table.
- ``terrain_combat.toml`` — 003's terrain effects on combat; 002's TEC shock column and
  Fortification Effects Chart.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bellum.errors import InputError
from bellum.paths import game_data
from bellum.tomlio import read_toml, validate

DATA = game_data("tactical", "data")

RULESETS = ("sgboh", "simple-spqr", "charts-v1")

#: every unit type the charts know: the case notation's types (../shared/cases/FORMAT.md)
#: and 002's finer Roman and double-depth types
UNIT_TYPES = (
    "PH",
    "HO",
    "HI",
    "LG",
    "CO",
    "MI",
    "BI",
    "LP",
    "LI",
    "SK",
    "SK*",
    "HC",
    "RC",
    "BC",
    "LN",
    "LC",
    "EL",
    "CH",
    "AT",
    "DD PH",
    "DD HO",
    "CO(Vet)",
    "CO(Rec)",
    "CO(Con)",
    "GC",
)
_KNOWN = frozenset(UNIT_TYPES)

#: the largest DRM a matrix cell may hold (the charts print -4 … +5)
MAX_CELL = 9

ShockResult = Literal[
    "attacker_routs",
    "attacker_disordered",
    "no_effect",
    "defender_disordered",
    "defender_disordered_retreats",
    "defender_routs",
]
SHOCK_RESULTS: tuple[ShockResult, ...] = (
    "attacker_routs",
    "attacker_disordered",
    "no_effect",
    "defender_disordered",
    "defender_disordered_retreats",
    "defender_routs",
)
RallyOutcome = Literal["full", "disordered", "routed", "eliminated"]
Part = Literal["front", "flank_rear"]

_FILES = {
    "weapons_sgboh": "weapons_sgboh.toml",
    "weapons_charts_v1": "weapons_charts_v1.toml",
    "shock_results": "shock_results.toml",
    "shock_results_charts_v1": "shock_results_charts_v1.toml",
    "missile": "missile.toml",
    "rally": "rally.toml",
    "pursuit": "pursuit.toml",
    "terrain_combat": "terrain_combat.toml",
}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _fail(path: Path, place: str, problem: str) -> InputError:
    return InputError(path, place, problem)


def _check_type(path: Path, place: str, name: str) -> None:
    if name not in _KNOWN:
        raise _fail(path, place, f"{name!r} is not a unit type the charts know (known: {', '.join(UNIT_TYPES)})")


def _check_drm(path: Path, place: str, value: int) -> None:
    if abs(value) > MAX_CELL:
        raise _fail(path, place, f"{value} is outside the DRM range -{MAX_CELL}..+{MAX_CELL}")


# ---------------------------------------------------------------------------------------
# Weapons System DRM Matrix
# ---------------------------------------------------------------------------------------

RawCell = int | str


class _Aliases(_Strict):
    attacker: dict[str, str] = Field(default_factory=dict)
    defender: dict[str, str] = Field(default_factory=dict)


class _SgbohRow(_Strict):
    defender: str
    cells: list[RawCell]


class _Brackets(_Strict):
    attackers: list[str]
    flank_or_rear_value: int


class MatrixNote(_Strict):
    """A lettered note of 003's matrix: an extra DRM for one defending type."""

    id: str
    defender: str
    condition: Literal["frontal_moving", "cataphract"]
    drm: int


class _SgbohFile(_Strict):
    source: str
    attackers: list[str]
    row: list[_SgbohRow]
    brackets: _Brackets
    note: list[MatrixNote] = Field(default_factory=list)
    alias: _Aliases = Field(default_factory=_Aliases)
    may_not_attack: dict[str, str] = Field(default_factory=dict)


class _Uncertain(_Strict):
    columns: list[str]
    part: Literal["front", "flank_rear", "both"]
    reason: str


class _V1Row(_Strict):
    attacker: str
    front: list[RawCell]
    flank_rear: list[RawCell]
    uncertain: list[_Uncertain] = Field(default_factory=list)


class _V1File(_Strict):
    source: str
    columns: list[str]
    groups: dict[str, list[str]] = Field(default_factory=dict)
    row: list[_V1Row]
    alias: _Aliases = Field(default_factory=_Aliases)
    may_not_attack: dict[str, str] = Field(default_factory=dict)


@dataclass(frozen=True)
class WeaponsMatrix:
    """A compiled weapons matrix: every known (attacker, defender) type pair resolved.

    ``front`` and ``flank_rear`` map ``(attacker_type, defender_type)`` to the DRM, or
    ``None`` when the attack is not allowed.  ``separate_flank_drm`` says whether the
    ruleset adds its flank (+2) and rear (+3) DRMs on top (003 §8.3: yes; 002's matrix
    carries the flank/rear advantage in its own column: no).
    """

    source: str
    path: str
    front: Mapping[tuple[str, str], int | None]
    flank_rear: Mapping[tuple[str, str], int | None]
    notes: tuple[MatrixNote, ...]
    may_not_attack: Mapping[str, str]
    uncertain: Mapping[tuple[str, str, Part], str]
    separate_flank_drm: bool
    #: the printed rows and columns (before aliases), for documentation and tests
    printed_attackers: tuple[str, ...]
    printed_defenders: tuple[str, ...]
    #: every defending type → the printed row or column it uses
    defender_printed: Mapping[str, str]


def _parse_cell(path: Path, place: str, raw: RawCell) -> tuple[int | None, bool]:
    """A printed cell → (value or None for NA, bracketed?)."""
    if isinstance(raw, bool):
        raise _fail(path, place, "a cell must be a DRM, 'NA' or '[n]', not true/false")
    if isinstance(raw, int):
        _check_drm(path, place, raw)
        return raw, False
    text = raw.strip()
    if text == "NA":
        return None, False
    if text.startswith("[") and text.endswith("]"):
        try:
            value = int(text[1:-1])
        except ValueError:
            raise _fail(path, place, f"{raw!r} is not a bracketed DRM like '[-3]'") from None
        _check_drm(path, place, value)
        return value, True
    raise _fail(path, place, f"{raw!r} is neither a DRM, 'NA' nor a bracketed '[n]' cell")


def _compile_sgboh(path: Path, data: dict[str, Any]) -> WeaponsMatrix:
    f = validate(_SgbohFile, data, path)
    for i, name in enumerate(f.attackers):
        _check_type(path, f"attackers[{i}]", name)
    if len(set(f.attackers)) != len(f.attackers):
        raise _fail(path, "attackers", "names a type twice")
    defenders: list[str] = []
    cells: dict[tuple[str, str], tuple[int | None, bool]] = {}
    for i, row in enumerate(f.row):
        _check_type(path, f"row[{i}].defender", row.defender)
        if row.defender in defenders:
            raise _fail(path, f"row[{i}].defender", f"{row.defender} has a second row")
        defenders.append(row.defender)
        if len(row.cells) != len(f.attackers):
            raise _fail(
                path,
                f"row[{i}].cells",
                f"has {len(row.cells)} cells but there are {len(f.attackers)} attacker columns",
            )
        for j, raw in enumerate(row.cells):
            cells[(f.attackers[j], row.defender)] = _parse_cell(path, f"row[{i}].cells[{j}]", raw)
    missing = [a for a in f.attackers if a not in defenders]
    if missing:
        raise _fail(path, "row", f"has no row for the attacking type(s) {', '.join(missing)}")
    for i, name in enumerate(f.brackets.attackers):
        if name not in f.attackers:
            raise _fail(path, f"brackets.attackers[{i}]", f"{name!r} is not an attacker column")
    for i, note in enumerate(f.note):
        if note.defender not in defenders:
            raise _fail(path, f"note[{i}].defender", f"{note.defender!r} has no row")
        _check_drm(path, f"note[{i}].drm", note.drm)
    for (att, dfn), (_, bracketed) in cells.items():
        if bracketed and att not in f.brackets.attackers:
            raise _fail(path, f"row {dfn}, column {att}", "is bracketed but its attacker is not in brackets.attackers")
    att_of = _resolve_aliases(path, "alias.attacker", f.alias.attacker, f.attackers, f.may_not_attack)
    def_of = _resolve_aliases(path, "alias.defender", f.alias.defender, defenders, {})
    front: dict[tuple[str, str], int | None] = {}
    flank: dict[tuple[str, str], int | None] = {}
    for att_type, att_col in att_of.items():
        for def_type, def_row in def_of.items():
            value, bracketed = cells[(att_col, def_row)]
            front[(att_type, def_type)] = value
            flank[(att_type, def_type)] = f.brackets.flank_or_rear_value if bracketed and value is not None else value
    return WeaponsMatrix(
        source=f.source,
        path=str(path),
        front=MappingProxyType(front),
        flank_rear=MappingProxyType(flank),
        notes=tuple(f.note),
        may_not_attack=MappingProxyType(dict(f.may_not_attack)),
        uncertain=MappingProxyType({}),
        separate_flank_drm=True,
        printed_attackers=tuple(f.attackers),
        printed_defenders=tuple(defenders),
        defender_printed=MappingProxyType(def_of),
    )


def _resolve_aliases(
    path: Path,
    place: str,
    aliases: Mapping[str, str],
    printed: Iterable[str],
    exempt: Mapping[str, str],
) -> dict[str, str]:
    """Every known type → the printed row/column it uses; all must be covered."""
    printed = list(printed)
    out = {name: name for name in printed}
    out.update(_v1_alias(path, place, aliases, set(printed)))
    for key in exempt:
        _check_type(path, f"may_not_attack.{key}", key)
    uncovered = [t for t in UNIT_TYPES if t not in out and t not in exempt]
    if uncovered:
        raise _fail(path, place, f"leaves the type(s) {', '.join(uncovered)} without a row or column")
    return out


def _compile_v1(path: Path, data: dict[str, Any]) -> WeaponsMatrix:
    f = validate(_V1File, data, path)
    groups: dict[str, tuple[str, ...]] = {}
    for name, members in f.groups.items():
        for i, m in enumerate(members):
            _check_type(path, f"groups.{name}[{i}]", m)
        groups[name] = tuple(members)

    def expand(place: str, name: str) -> tuple[str, ...]:
        if name in groups:
            return groups[name]
        _check_type(path, place, name)
        return (name,)

    if len(set(f.columns)) != len(f.columns):
        raise _fail(path, "columns", "names a column twice")
    col_types = [expand(f"columns[{j}]", c) for j, c in enumerate(f.columns)]
    _no_type_twice(path, "columns", f.columns, col_types)
    _no_type_twice(
        path,
        "row",
        [r.attacker for r in f.row],
        [expand(f"row[{i}].attacker", r.attacker) for i, r in enumerate(f.row)],
    )
    front: dict[tuple[str, str], int | None] = {}
    flank: dict[tuple[str, str], int | None] = {}
    uncertain: dict[tuple[str, str, Part], str] = {}
    printed_rows: list[str] = []
    for i, row in enumerate(f.row):
        if row.attacker in printed_rows:
            raise _fail(path, f"row[{i}].attacker", f"{row.attacker} has a second row")
        printed_rows.append(row.attacker)
        _v1_row(path, f, i, expand(f"row[{i}].attacker", row.attacker), col_types, front, flank, uncertain)
    covered_att = {t for r in printed_rows for t in expand("row", r)}
    covered_def = {t for ts in col_types for t in ts}
    att_alias = _v1_alias(path, "alias.attacker", f.alias.attacker, covered_att)
    def_alias = _v1_alias(path, "alias.defender", f.alias.defender, covered_def)
    for key in f.may_not_attack:
        _check_type(path, f"may_not_attack.{key}", key)
    missing_att = [t for t in UNIT_TYPES if t not in covered_att and t not in att_alias and t not in f.may_not_attack]
    if missing_att:
        raise _fail(path, "row", f"has no attacker row for the type(s) {', '.join(missing_att)}")
    missing_def = [t for t in UNIT_TYPES if t not in covered_def and t not in def_alias]
    if missing_def:
        raise _fail(path, "columns", f"has no defender column for the type(s) {', '.join(missing_def)}")
    def_printed = {t: c for c, ts in zip(f.columns, col_types, strict=True) for t in ts}
    def_printed.update({k: def_printed[v] for k, v in def_alias.items()})
    for a, a_src in [(t, t) for t in covered_att] + list(att_alias.items()):
        for d, d_src in [(t, t) for t in covered_def] + list(def_alias.items()):
            front.setdefault((a, d), front[(a_src, d_src)])
            flank.setdefault((a, d), flank[(a_src, d_src)])
    return WeaponsMatrix(
        source=f.source,
        path=str(path),
        front=MappingProxyType(front),
        flank_rear=MappingProxyType(flank),
        notes=(),
        may_not_attack=MappingProxyType(dict(f.may_not_attack)),
        uncertain=MappingProxyType(uncertain),
        separate_flank_drm=False,
        printed_attackers=tuple(printed_rows),
        printed_defenders=tuple(f.columns),
        defender_printed=MappingProxyType(def_printed),
    )


def _v1_row(
    path: Path,
    f: _V1File,
    i: int,
    att_types: tuple[str, ...],
    col_types: list[tuple[str, ...]],
    front: dict[tuple[str, str], int | None],
    flank: dict[tuple[str, str], int | None],
    uncertain: dict[tuple[str, str, Part], str],
) -> None:
    """One attacker row of 002's matrix: its front and flank/rear cells for every defender
    column (into ``front`` and ``flank``, by attacker and defender type), its uncertain cells."""
    row = f.row[i]
    for part_name, raw_cells in (("front", row.front), ("flank_rear", row.flank_rear)):
        if len(raw_cells) != len(f.columns):
            raise _fail(
                path,
                f"row[{i}].{part_name}",
                f"has {len(raw_cells)} cells but there are {len(f.columns)} defender columns",
            )
        target = front if part_name == "front" else flank
        for j, raw in enumerate(raw_cells):
            value, bracketed = _parse_cell(path, f"row[{i}].{part_name}[{j}]", raw)
            if bracketed:
                raise _fail(path, f"row[{i}].{part_name}[{j}]", "002's matrix has no bracketed cells")
            for a in att_types:
                for d in col_types[j]:
                    target[(a, d)] = value
    for k, unc in enumerate(row.uncertain):
        parts: tuple[Part, ...] = ("front", "flank_rear") if unc.part == "both" else (unc.part,)
        for c in unc.columns:
            if c not in f.columns:
                raise _fail(path, f"row[{i}].uncertain[{k}].columns", f"{c!r} is not a defender column")
            for p in parts:
                uncertain[(row.attacker, c, p)] = unc.reason
    for j, c in enumerate(f.columns):
        fr, fl = front[(att_types[0], col_types[j][0])], flank[(att_types[0], col_types[j][0])]
        if (fr is None) != (fl is None):
            raise _fail(path, f"row[{i}] column {c}", "is NA in one orientation but not the other")


def _no_type_twice(path: Path, place: str, names: list[str], members: list[tuple[str, ...]]) -> None:
    seen: dict[str, str] = {}
    for name, types in zip(names, members, strict=True):
        for t in types:
            if t in seen and seen[t] != name:
                raise _fail(path, place, f"{t} belongs to both {seen[t]} and {name}")
            seen[t] = name


def _v1_alias(path: Path, place: str, aliases: Mapping[str, str], covered: set[str]) -> dict[str, str]:
    """Each alias → the type whose place in the matrix it takes (``covered``: the types the
    matrix gives a place, which cannot also be aliases)."""
    out: dict[str, str] = {}
    for key, target in aliases.items():
        _check_type(path, f"{place}.{key}", key)
        if key in covered:
            raise _fail(path, f"{place}.{key}", f"{key} already has its own place in the matrix")
        if target not in covered:
            raise _fail(path, f"{place}.{key}", f"points to {target!r}, which the matrix does not print")
        out[key] = target
    return out


# ---------------------------------------------------------------------------------------
# Shock results
# ---------------------------------------------------------------------------------------


class _Band(_Strict):
    min: int | None = None
    max: int | None = None


def _check_bands(path: Path, place: str, bands: list[_Band]) -> None:
    """Bands must run from -inf to +inf without gaps or overlaps, in order."""
    if not bands:
        raise _fail(path, place, "has no entries")
    if bands[0].min is not None:
        raise _fail(path, f"{place}[0].min", "the lowest band must have no min (it covers every lower roll)")
    if bands[-1].max is not None:
        raise _fail(path, f"{place}[{len(bands) - 1}].max", "the highest band must have no max")
    for i, b in enumerate(bands):
        if b.min is not None and b.max is not None and b.min > b.max:
            raise _fail(path, f"{place}[{i}]", f"min {b.min} is above max {b.max}")
        if i and (bands[i - 1].max is None or b.min != bands[i - 1].max + 1):  # type: ignore[operator]
            raise _fail(path, f"{place}[{i}].min", "must start right after the previous band's max")


class _ShockBand(_Band):
    result: ShockResult


class _Engaged(_Strict):
    min: int
    max: int


class SizeRule(_Strict):
    """The Size Ratio DRM: a side at least ``difference`` size points larger gets ``small``,
    at least ``ratio`` times as large ``large``.  ``exempt_types`` switch it off:
    ``any_involved`` (003 §8.3) — whenever one of them takes part, unless only they fight;
    ``one_side_only`` (002) — when one whole side consists of them, unless both do."""

    difference: int = Field(ge=1)
    small: int
    ratio: int = Field(ge=2)
    large: int
    exempt_types: list[str]
    exempt_rule: Literal["any_involved", "one_side_only"]


class LeaderCasualty(_Strict):
    """A leader in a shock combat dies when ``rolls`` successive die rolls all show
    ``kill_on`` (003 §8.3: one roll of 0; 002: a 0, then another 0)."""

    kill_on: int = Field(ge=0, le=9)
    rolls: int = Field(ge=1, le=3)


class _TqRatio(_Strict):
    cap: int = Field(ge=0)


class _ShockFile(_Strict):
    source: str
    band: list[_ShockBand]
    engaged: _Engaged
    size_ratio: SizeRule
    tq_ratio: _TqRatio
    leader_casualty: LeaderCasualty


@dataclass(frozen=True)
class ShockOutcome:
    """003 §8.3: the result of a modified shock roll and whether it engages everyone."""

    result: ShockResult
    engaged: bool


@dataclass(frozen=True)
class ShockTable:
    source: str
    bands: tuple[tuple[int | None, int | None, ShockResult], ...]
    engaged: tuple[int, int]
    size: SizeRule
    tq_cap: int
    leader: LeaderCasualty

    def lookup(self, roll: int) -> ShockOutcome:
        for lo, hi, result in self.bands:
            if (lo is None or roll >= lo) and (hi is None or roll <= hi):
                return ShockOutcome(result, self.engaged[0] <= roll <= self.engaged[1])
        raise AssertionError("bands are validated to cover every roll")  # pragma: no cover


def _compile_shock(path: Path, data: dict[str, Any]) -> ShockTable:
    f = validate(_ShockFile, data, path)
    _check_bands(path, "band", list(f.band))
    seen = [b.result for b in f.band]
    for r in SHOCK_RESULTS:
        if r not in seen:
            raise _fail(path, "band", f"has no band for the result {r!r}")
    if f.engaged.min > f.engaged.max:
        raise _fail(path, "engaged", "min is above max")
    _check_size(path, f.size_ratio)
    return ShockTable(
        source=f.source,
        bands=tuple((b.min, b.max, b.result) for b in f.band),
        engaged=(f.engaged.min, f.engaged.max),
        size=f.size_ratio,
        tq_cap=f.tq_ratio.cap,
        leader=f.leader_casualty,
    )


def _check_size(path: Path, rule: SizeRule) -> None:
    for i, t in enumerate(rule.exempt_types):
        _check_type(path, f"size_ratio.exempt_types[{i}]", t)
    _check_drm(path, "size_ratio.small", rule.small)
    _check_drm(path, "size_ratio.large", rule.large)


class V1Effect(_Strict):
    """One cell of 002's Shock Results: what happens to a unit (or the stack's top unit).

    kind ``none``; ``hits`` (``hits`` hits, a retreat if ``retreat``); ``reduce`` (flip to
    the reduced side, retreat, keep half the hits rounded down, TQ − 2); ``rout``;
    ``check`` (roll a die and add ``add``: above the TQ → ``fail``, otherwise ``hits`` and
    ``retreat``).
    """

    kind: Literal["none", "hits", "reduce", "rout", "check"]
    hits: int = Field(default=0, ge=0, le=9)
    retreat: bool = False
    add: int = Field(default=0, ge=0, le=9)
    fail: Literal["reduce", "rout"] | None = None

    @model_validator(mode="after")
    def _consistent(self) -> V1Effect:
        if self.kind == "check" and self.fail is None:
            raise ValueError("a check needs `fail` (reduce or rout)")
        if self.kind != "check" and (self.fail is not None or self.add):
            raise ValueError("only a check has `fail` and `add`")
        if self.kind == "hits" and self.hits == 0:
            raise ValueError("a hits effect needs hits >= 1")
        if self.kind in ("none", "reduce", "rout") and (self.hits or self.retreat):
            raise ValueError(f"a {self.kind} effect has no hits or retreat of its own")
        return self


class _V1Side(_Strict):
    reduced: V1Effect
    unreduced: V1Effect


class V1ShockRow(_Band):
    """A row of 002's Shock Results: the effect on each side, by whether the unit has a
    reduced side, and which units of a stack a rout/reduce reaches."""

    label: str
    defender: _V1Side
    attacker: _V1Side
    stack: Literal["all", "top"] | None = None


class V1Constants(_Strict):
    reduce_tq_loss: int = Field(ge=0)
    reduced_keeps_hits: Literal["half_round_down"]
    no_retreat_hits: int = Field(ge=0)
    stacked_tq: Literal["top"]
    stacked_hits: Literal["split_evenly_odd_to_top"]


class _V1ShockFile(_Strict):
    source: str
    constants: V1Constants
    size_ratio: SizeRule
    leader_casualty: LeaderCasualty
    row: list[V1ShockRow]
    uncertain: list[str] = Field(default_factory=list)


@dataclass(frozen=True)
class V1ShockTable:
    source: str
    rows: tuple[V1ShockRow, ...]
    constants: V1Constants
    size: SizeRule
    leader: LeaderCasualty
    uncertain: tuple[str, ...]

    def lookup(self, roll: int) -> V1ShockRow:
        for row in self.rows:
            if (row.min is None or roll >= row.min) and (row.max is None or roll <= row.max):
                return row
        raise AssertionError("rows are validated to cover every roll")  # pragma: no cover


def _compile_v1_shock(path: Path, data: dict[str, Any]) -> V1ShockTable:
    f = validate(_V1ShockFile, data, path)
    _check_bands(path, "row", list(f.row))
    for i, row in enumerate(f.row):
        collapses = any(
            e.kind in ("reduce", "rout", "check")
            for e in (row.defender.reduced, row.defender.unreduced, row.attacker.reduced, row.attacker.unreduced)
        )
        if collapses and row.stack is None:
            raise _fail(
                path, f"row[{i}].stack", "a row with a rout, reduction or check must say which units of a stack"
            )
    _check_size(path, f.size_ratio)
    return V1ShockTable(f.source, tuple(f.row), f.constants, f.size_ratio, f.leader_casualty, tuple(f.uncertain))


# ---------------------------------------------------------------------------------------
# Rally and pursuit
# ---------------------------------------------------------------------------------------


def _span(path: Path, place: str, pair: list[int], lo: int = 0, hi: int = 9) -> tuple[int, int]:
    if len(pair) != 2 or pair[0] > pair[1] or pair[0] < lo or pair[1] > hi:
        raise _fail(path, place, f"{pair} is not a range [low, high] within {lo}..{hi}")
    return pair[0], pair[1]


class _RallyRow(_Strict):
    tq: list[int]
    full: list[int]
    disordered: list[int]
    routs: list[int]


class _RallyMods(_Strict):
    disordered: int
    leader: int


class _RallyFile(_Strict):
    source: str
    routed_tq: int = Field(ge=1, le=9)
    modifiers: _RallyMods
    row: list[_RallyRow]


@dataclass(frozen=True)
class RallyTable:
    source: str
    routed_tq: int
    disordered_drm: int
    leader_drm: int
    #: by_tq[tq][roll] for tq 1..9, roll 0..9: "F", "D" or "R"
    by_tq: Mapping[int, tuple[str, ...]]


def _compile_rally(path: Path, data: dict[str, Any]) -> RallyTable:
    f = validate(_RallyFile, data, path)
    by_tq: dict[int, tuple[str, ...]] = {}
    for i, row in enumerate(f.row):
        lo, hi = _span(path, f"row[{i}].tq", row.tq, 1, 9)
        letters = ["?"] * 10
        for letter, key in (("F", "full"), ("D", "disordered"), ("R", "routs")):
            a, b = _span(path, f"row[{i}].{key}", getattr(row, key))
            for roll in range(a, b + 1):
                if letters[roll] != "?":
                    raise _fail(path, f"row[{i}].{key}", f"roll {roll} is already in another column")
                letters[roll] = letter
        if "?" in letters:
            raise _fail(path, f"row[{i}]", f"roll {letters.index('?')} has no result")
        if letters != sorted(letters, key="FDR".index):
            raise _fail(path, f"row[{i}]", "results must run F, then D, then R as the roll rises")
        for tq in range(lo, hi + 1):
            if tq in by_tq:
                raise _fail(path, f"row[{i}].tq", f"TQ {tq} is already in another row")
            by_tq[tq] = tuple(letters)
    missing = [tq for tq in range(1, 10) if tq not in by_tq]
    if missing:
        raise _fail(path, "row", f"has no row for TQ {', '.join(map(str, missing))}")
    return RallyTable(f.source, f.routed_tq, f.modifiers.disordered, f.modifiers.leader, MappingProxyType(by_tq))


class _PursuitFile(_Strict):
    model_config = ConfigDict(extra="forbid", frozen=True)

    source: str
    leader_drm: int
    types: list[str]
    row: list[dict[str, list[int]]]
    alias: dict[str, str] = Field(default_factory=dict)


@dataclass(frozen=True)
class PursuitTable:
    source: str
    leader_drm: int
    #: ranges[type][tq] for tq 1..9
    ranges: Mapping[str, Mapping[int, range]]


def _compile_pursuit(path: Path, data: dict[str, Any]) -> PursuitTable:
    f = validate(_PursuitFile, data, path)
    for i, t in enumerate(f.types):
        _check_type(path, f"types[{i}]", t)
    table: dict[str, dict[int, range]] = {t: {} for t in f.types}
    for i, row in enumerate(f.row):
        unknown = set(row) - {"tq", *f.types}
        if unknown:
            raise _fail(path, f"row[{i}].{sorted(unknown)[0]}", "is not 'tq' or one of the listed types")
        if "tq" not in row:
            raise _fail(path, f"row[{i}].tq", "is required but missing")
        lo, hi = _span(path, f"row[{i}].tq", row["tq"], 1, 9)
        for t in f.types:
            if t not in row:
                raise _fail(path, f"row[{i}].{t}", "is required but missing")
            a, b = _span(path, f"row[{i}].{t}", row[t])
            for tq in range(lo, hi + 1):
                if tq in table[t]:
                    raise _fail(path, f"row[{i}].tq", f"TQ {tq} is already in another row")
                table[t][tq] = range(a, b + 1)
    for t in f.types:
        missing = [tq for tq in range(1, 10) if tq not in table[t]]
        if missing:
            raise _fail(path, "row", f"has no {t} entry for TQ {', '.join(map(str, missing))}")
    out: dict[str, Mapping[int, range]] = {t: MappingProxyType(v) for t, v in table.items()}
    for key, target in f.alias.items():
        _check_type(path, f"alias.{key}", key)
        if target not in table:
            raise _fail(path, f"alias.{key}", f"points to {target!r}, which the table does not print")
        out[key] = out[target]
    return PursuitTable(f.source, f.leader_drm, MappingProxyType(out))


# ---------------------------------------------------------------------------------------
# Missile fire
# ---------------------------------------------------------------------------------------


class _MissileType(_Strict):
    name: str
    hit: list[int] = Field(min_length=1, max_length=12)
    tower_only: list[int] = Field(default_factory=list)
    artillery: bool = False
    only_against: list[str] = Field(default_factory=list)
    #: 002's legible cells of the row, in order ("0c": 0 with footnote c, tower only)
    read: list[str] = Field(default_factory=list)
    status: Literal["derived", "chosen"]
    derivation: str = Field(min_length=1)


class MissileDrm(_Strict):
    id: str
    value: int
    text: str
    terrain: bool = False
    uncertain: str | None = None


class _Targets(_Strict):
    heavy: list[str]
    slinger_missiles: list[str]
    skirmisher_types: list[str]


class _Restrictions(_Strict):
    no_fire_types: list[str]
    bows_and_slings: list[str]


class _MissileFile(_Strict):
    source: str
    rule: str
    types: dict[str, _MissileType]
    drm: list[MissileDrm]
    targets: _Targets
    restrictions: _Restrictions


_MISSILE_DRM_IDS = (
    "target_lower",
    "artillery_vs_elephant",
    "firer_hit",
    "moving_fire",
    "hit_and_run_vs_elephant",
    "armoured_target",
    "target_in_woods",
    "foot_javelin_hit_and_run",
    "adjacent_bow_sling_frontal_heavy",
)
#: the missile types of the case notation and 002's artillery kinds
MISSILE_TYPES = ("S", "BS", "A", "B", "C", "J", "MJ", "MA", "scorpion", "bolt", "ballista", "dart")


def _check_read(path: Path, name: str, mt: _MissileType) -> None:
    """002's legible cells must appear in the row in their order (docs/rules/tactical-charts.md
    §3.1 R1), a footnote-c cell at a tower-only range (R3)."""
    at = 0
    for k, cell in enumerate(mt.read):
        digit, tower = cell[:1], cell[1:] == "c"
        if not digit.isdigit() or cell[1:] not in ("", "c"):
            raise _fail(path, f"types.{name}.read[{k}]", f"{cell!r} is not a legible cell (a digit, 'c' if footnoted)")
        while at < len(mt.hit) and (mt.hit[at] != int(digit) or (tower and at + 1 not in mt.tower_only)):
            at += 1
        if at == len(mt.hit):
            raise _fail(path, f"types.{name}.read[{k}]", f"the legible cell {cell!r} is not in the row in its order")
        at += 1


@dataclass(frozen=True)
class MissileChart:
    source: str
    types: Mapping[str, _MissileType]
    drms: Mapping[str, MissileDrm]
    heavy: frozenset[str]
    slinger_missiles: frozenset[str]
    skirmisher_types: frozenset[str]
    no_fire_types: frozenset[str]
    bows_and_slings: frozenset[str]


def _compile_missile(path: Path, data: dict[str, Any]) -> MissileChart:
    f = validate(_MissileFile, data, path)
    for name in MISSILE_TYPES:
        if name not in f.types:
            raise _fail(path, "types", f"has no entry for the missile type {name!r}")
    for name, mt in f.types.items():
        if name not in MISSILE_TYPES:
            raise _fail(path, f"types.{name}", f"{name!r} is not a missile type (known: {', '.join(MISSILE_TYPES)})")
        for k, h in enumerate(mt.hit):
            if not 0 <= h <= 9:
                raise _fail(path, f"types.{name}.hit[{k}]", f"hit number {h} is outside 0..9")
            if k and h > mt.hit[k - 1]:
                raise _fail(path, f"types.{name}.hit[{k}]", "a hit number may not rise with range")
        for k, r in enumerate(mt.tower_only):
            if not 1 <= r <= len(mt.hit):
                raise _fail(path, f"types.{name}.tower_only[{k}]", f"range {r} is not a range of this type")
        for k, t in enumerate(mt.only_against):
            _check_type(path, f"types.{name}.only_against[{k}]", t)
        _check_read(path, name, mt)
    drms: dict[str, MissileDrm] = {}
    for i, d in enumerate(f.drm):
        if d.id not in _MISSILE_DRM_IDS:
            raise _fail(path, f"drm[{i}].id", f"{d.id!r} is not a modifier the rules know")
        if d.id in drms:
            raise _fail(path, f"drm[{i}].id", f"{d.id!r} is listed twice")
        _check_drm(path, f"drm[{i}].value", d.value)
        drms[d.id] = d
    missing = [k for k in _MISSILE_DRM_IDS if k not in drms]
    if missing:
        raise _fail(path, "drm", f"lacks the modifier(s) {', '.join(missing)}")
    for key, names in (
        ("targets.heavy", f.targets.heavy),
        ("targets.skirmisher_types", f.targets.skirmisher_types),
        ("restrictions.no_fire_types", f.restrictions.no_fire_types),
    ):
        for i, t in enumerate(names):
            _check_type(path, f"{key}[{i}]", t)
    for key, names in (
        ("targets.slinger_missiles", f.targets.slinger_missiles),
        ("restrictions.bows_and_slings", f.restrictions.bows_and_slings),
    ):
        for i, m in enumerate(names):
            if m not in f.types:
                raise _fail(path, f"{key}[{i}]", f"{m!r} is not a missile type of this chart")
    return MissileChart(
        source=f.source,
        types=MappingProxyType(dict(f.types)),
        drms=MappingProxyType(drms),
        heavy=frozenset(f.targets.heavy),
        slinger_missiles=frozenset(f.targets.slinger_missiles),
        skirmisher_types=frozenset(f.targets.skirmisher_types),
        no_fire_types=frozenset(f.restrictions.no_fire_types),
        bows_and_slings=frozenset(f.restrictions.bows_and_slings),
    )


# ---------------------------------------------------------------------------------------
# Terrain effects on combat
# ---------------------------------------------------------------------------------------

Prohibited = Literal["prohibited"]
MissileClass = Literal["J", "A", "S", "AT"]
TERRAINS = ("clear", "woods", "rough", "marsh", "town")
HEXSIDES = ("stream", "minor_river", "major_river", "rocky_river_bed", "steep_bank")


class _TerrainEntry(_Strict):
    shock: int | Prohibited
    missile: int | Prohibited | dict[MissileClass, int | Prohibited]


class _Elevation(_Band):
    shock: int
    missile: int


class _TerrainSet(_Strict):
    source: str
    terrain: dict[str, _TerrainEntry]
    works: dict[str, _TerrainEntry] = Field(default_factory=dict)
    hexside: dict[str, int]
    elevation: list[_Elevation]
    uncertain: list[str] = Field(default_factory=list)


class _TerrainFile(_Strict):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    sgboh: _TerrainSet
    charts_v1: _TerrainSet = Field(alias="charts-v1")


@dataclass(frozen=True)
class TerrainTable:
    source: str
    terrain: Mapping[str, _TerrainEntry]
    works: Mapping[str, _TerrainEntry]
    hexside: Mapping[str, int]
    elevation: tuple[_Elevation, ...]
    uncertain: tuple[str, ...]


def _compile_terrain(path: Path, data: dict[str, Any]) -> dict[str, TerrainTable]:
    f = validate(_TerrainFile, data, path)
    out: dict[str, TerrainTable] = {}
    for key, ts in (("sgboh", f.sgboh), ("charts-v1", f.charts_v1)):
        for name in TERRAINS:
            if name not in ts.terrain:
                raise _fail(path, f"{key}.terrain", f"has no entry for {name!r}")
        for name in ts.terrain:
            if name not in TERRAINS:
                raise _fail(path, f"{key}.terrain.{name}", f"{name!r} is not a terrain (known: {', '.join(TERRAINS)})")
        for name in HEXSIDES:
            if name not in ts.hexside:
                raise _fail(path, f"{key}.hexside", f"has no entry for {name!r}")
        for name, v in ts.hexside.items():
            if name not in HEXSIDES:
                raise _fail(path, f"{key}.hexside.{name}", f"{name!r} is not a hexside feature")
            _check_drm(path, f"{key}.hexside.{name}", v)
        for group, entries in (("terrain", ts.terrain), ("works", ts.works)):
            for name, e in entries.items():
                if isinstance(e.shock, int):
                    _check_drm(path, f"{key}.{group}.{name}.shock", e.shock)
                if isinstance(e.missile, int):
                    _check_drm(path, f"{key}.{group}.{name}.missile", e.missile)
                if isinstance(e.missile, dict):
                    missing = [c for c in ("J", "A", "S", "AT") if c not in e.missile]
                    if missing:
                        raise _fail(path, f"{key}.{group}.{name}.missile", f"lacks the class(es) {', '.join(missing)}")
        _check_bands(path, f"{key}.elevation", list(ts.elevation))
        out[key] = TerrainTable(
            source=ts.source,
            terrain=MappingProxyType(dict(ts.terrain)),
            works=MappingProxyType(dict(ts.works)),
            hexside=MappingProxyType(dict(ts.hexside)),
            elevation=tuple(ts.elevation),
            uncertain=tuple(ts.uncertain),
        )
    return out


# ---------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Charts:
    """Every combat chart of one ruleset, compiled."""

    ruleset: str
    weapons: WeaponsMatrix
    shock: ShockTable
    shock_v1: V1ShockTable | None
    missile: MissileChart
    rally: RallyTable
    pursuit: PursuitTable
    terrain: TerrainTable


_COMPILERS: dict[str, Any] = {
    "weapons_sgboh": _compile_sgboh,
    "weapons_charts_v1": _compile_v1,
    "shock_results": _compile_shock,
    "shock_results_charts_v1": _compile_v1_shock,
    "missile": _compile_missile,
    "rally": _compile_rally,
    "pursuit": _compile_pursuit,
    "terrain_combat": _compile_terrain,
}


def load_table(name: str, path: str | Path) -> Any:
    """Read and validate one chart file (``name`` as in ``TABLE_NAMES``); no caching.

    Raises ``InputError`` for anything wrong with the file.
    """
    if name not in _COMPILERS:
        raise ValueError(f"unknown chart {name!r}; known: {', '.join(_COMPILERS)}")
    p = Path(path)
    return _COMPILERS[name](p, read_toml(p))


TABLE_NAMES = tuple(_FILES)


@cache
def _table(name: str, data_dir: Path) -> Any:
    return load_table(name, data_dir / _FILES[name])


def _ruleset(ruleset: str) -> str:
    if ruleset not in RULESETS:
        raise ValueError(f"unknown ruleset {ruleset!r}; known: {', '.join(RULESETS)}")
    return ruleset


@cache
def load_charts(ruleset: str, data_dir: Path = DATA) -> Charts:
    """All combat charts of ``ruleset`` ("sgboh", "simple-spqr" or "charts-v1"), cached.

    ``simple-spqr`` is 003 + 000 and uses 003's charts (000 changes no combat table).
    """
    _ruleset(ruleset)
    v1 = ruleset == "charts-v1"
    terrain: dict[str, TerrainTable] = _table("terrain_combat", data_dir)
    return Charts(
        ruleset=ruleset,
        weapons=_table("weapons_charts_v1" if v1 else "weapons_sgboh", data_dir),
        shock=_table("shock_results", data_dir),
        shock_v1=_table("shock_results_charts_v1", data_dir) if v1 else None,
        missile=_table("missile", data_dir),
        rally=_table("rally", data_dir),
        pursuit=_table("pursuit", data_dir),
        terrain=terrain["charts-v1" if v1 else "sgboh"],
    )


def validate_all(data_dir: Path = DATA) -> None:
    """Load every chart of every ruleset (a start-up check); raises ``InputError``."""
    for r in RULESETS:
        load_charts(r, data_dir)


# ---------------------------------------------------------------------------------------
# Lookups
# ---------------------------------------------------------------------------------------


def _known(unit_type: str) -> str:
    if unit_type not in _KNOWN:
        raise ValueError(f"unknown unit type {unit_type!r}")
    return unit_type


def attack_refusal(ruleset: str, attacker_type: str, defender_type: str) -> str | None:
    """Why ``attacker_type`` may not shock attack ``defender_type`` (a sentence), or None.

    003 §9.3 (SK never attack), §9.15 and the matrix's NA cells (cavalry against elephants).
    """
    w = load_charts(_ruleset(ruleset)).weapons
    a, d = _known(attacker_type), _known(defender_type)
    if a in w.may_not_attack:
        return w.may_not_attack[a][:1].upper() + w.may_not_attack[a][1:] + "."
    if w.front[(a, d)] is None:
        return f"{a} may not shock attack {d} (the weapons system matrix marks it Not Allowed)."
    return None


def weapons_drm(
    ruleset: str,
    attacker_type: str,
    defender_type: str,
    *,
    frontal_moving: bool = False,
    flank_or_rear: bool = False,
    cataphract: bool = False,
) -> int | None:
    """The weapons-system DRM of an attack, or None when the attack is not allowed.

    003 matrix: bracketed cells count as 0 when HC attack through flank or rear; note a
    (-1 more against PH attacked frontally by a moving attacker) and note b (-1 more
    against cataphracted HC).  ``cataphract`` is the defender's.  002 matrix (charts-v1):
    ``flank_or_rear`` picks the flank/rear column, which already holds the positional
    advantage (``WeaponsMatrix.separate_flank_drm`` is False); notes a and b are 003's only.
    """
    w = load_charts(_ruleset(ruleset)).weapons
    a, d = _known(attacker_type), _known(defender_type)
    if a in w.may_not_attack:
        return None
    value = (w.flank_rear if flank_or_rear else w.front)[(a, d)]
    if value is None:
        return None
    if w.notes:
        row = w.defender_printed[d]
        for note in w.notes:
            if note.defender != row:
                continue
            if (note.condition == "frontal_moving" and frontal_moving and not flank_or_rear) or (
                note.condition == "cataphract" and cataphract
            ):
                value += note.drm
    return value


def uncertain_cells(ruleset: str) -> Mapping[tuple[str, str, Part], str]:
    """Reconstructed matrix cells: (printed row, printed column, part) → reason."""
    return load_charts(_ruleset(ruleset)).weapons.uncertain


def shock_result(ruleset: str, modified_roll: int) -> ShockOutcome:
    """003 §8.3 Shock Results Table (rulesets sgboh and simple-spqr)."""
    if _ruleset(ruleset) == "charts-v1":
        raise ValueError("charts-v1 resolves shock on 002's table: use shock_result_v1()")
    return load_charts(ruleset).shock.lookup(modified_roll)


def shock_result_v1(modified_roll: int) -> V1ShockRow:
    """002's Shock Results row for a modified roll (ruleset charts-v1)."""
    table = load_charts("charts-v1").shock_v1
    assert table is not None
    return table.lookup(modified_roll)


def v1_effect(modified_roll: int, side: Literal["attacker", "defender"], *, has_reduced_side: bool) -> V1Effect:
    """The effect of a 002 shock roll on one side's unit."""
    row = shock_result_v1(modified_roll)
    s = row.attacker if side == "attacker" else row.defender
    return s.reduced if has_reduced_side else s.unreduced


def v1_constants() -> V1Constants:
    table = load_charts("charts-v1").shock_v1
    assert table is not None
    return table.constants


def _size_rule(ruleset: str) -> SizeRule:
    ch = load_charts(_ruleset(ruleset))
    return ch.shock_v1.size if ch.shock_v1 is not None else ch.shock.size


def size_ratio_applies(ruleset: str, attacker_types: Iterable[str], defender_types: Iterable[str]) -> bool:
    """Whether the Size Ratio DRM counts for these attacking and defending types.

    003 §8.3: not when an EL or CH takes part, unless EL/CH fight only each other.
    002 (charts-v1): not when all attackers or all defenders are EL, CH or SK/SK*, unless
    both sides are.
    """
    rule = _size_rule(ruleset)
    att = [_known(t) for t in attacker_types]
    dfn = [_known(t) for t in defender_types]
    ex = set(rule.exempt_types)
    all_att, all_def = all(t in ex for t in att), all(t in ex for t in dfn)
    if all_att and all_def:
        return True
    if rule.exempt_rule == "any_involved":
        return not any(t in ex for t in att + dfn)
    return not (all_att or all_def)


def size_ratio_drm(
    ruleset: str,
    attacker_size: int,
    defender_size: int,
    *,
    attacker_types: Iterable[str] = (),
    defender_types: Iterable[str] = (),
) -> int:
    """003 §8.3 / 002 Size Ratio DRM from the total sizes of each side; 0 where the types
    involved switch it off (``size_ratio_applies``; pass the types to have it checked)."""
    rule = _size_rule(ruleset)
    att, dfn = tuple(attacker_types), tuple(defender_types)
    if (att or dfn) and not size_ratio_applies(ruleset, att, dfn):
        return 0
    big, small = max(attacker_size, defender_size), min(attacker_size, defender_size)
    if small > 0 and big >= rule.ratio * small:
        drm = rule.large
    elif big - small >= rule.difference:
        drm = rule.small
    else:
        return 0
    return drm if attacker_size > defender_size else -drm


def tq_ratio_drm(attacker_tq: int, defender_tq: int) -> int:
    """003 §8.3 TQ Ratio DRM (every ruleset): the difference of the best TQs, capped."""
    cap = load_charts("sgboh").shock.tq_cap
    return max(-cap, min(cap, attacker_tq - defender_tq))


def leader_casualty(ruleset: str) -> LeaderCasualty:
    """How a leader in a shock combat is killed (003 §8.3 "Leaders"; 002's note)."""
    ch = load_charts(_ruleset(ruleset))
    return ch.shock_v1.leader if ch.shock_v1 is not None else ch.shock.leader


# --- missile ---------------------------------------------------------------------------


def _missile_type(chart: MissileChart, missile_type: str) -> _MissileType:
    if missile_type not in chart.types:
        raise ValueError(f"unknown missile type {missile_type!r}")
    return chart.types[missile_type]


def missile_hit_number(
    missile_type: str, range_hexes: int, *, in_tower: bool = False, target_type: str | None = None
) -> int | None:
    """002 Missile Range and Results: the hit number at a range, or None if it cannot fire
    there (out of range, a tower-only range without a tower, a dart at a non-elephant)."""
    chart = load_charts("sgboh").missile
    mt = _missile_type(chart, missile_type)
    if range_hexes < 1 or range_hexes > len(mt.hit):
        return None
    if range_hexes in mt.tower_only and not in_tower:
        return None
    if mt.only_against and (target_type is None or target_type not in mt.only_against):
        return None
    return mt.hit[range_hexes - 1]


def missile_range(missile_type: str, *, in_tower: bool = False) -> int:
    """The longest range at which the missile type may fire."""
    mt = _missile_type(load_charts("sgboh").missile, missile_type)
    longest = len(mt.hit)
    while longest in mt.tower_only and not in_tower:
        longest -= 1
    return longest


def may_fire(unit_type: str, missile_type: str | None) -> bool:
    """002: EL and legionary javelin units (LG, CO; 000 §8.14) have no missile fire."""
    chart = load_charts("sgboh").missile
    return missile_type is not None and _known(unit_type) not in chart.no_fire_types


def missile_drms(
    missile_type: str,
    target_type: str,
    *,
    firer_hits: int = 0,
    firer_moved: bool = False,
    firer_mounted: bool = False,
    hit_and_run: bool = False,
    target_cataphract: bool = False,
    target_missile: str | None = None,
    adjacent_frontal: bool = False,
) -> int:
    """The sum of 002's missile DRMs except the terrain ones (target lower, woods), which
    ``terrain_missile_drm`` gives.  ``adjacent_frontal``: the firer is adjacent to the target
    and fires through the target's frontal hex."""
    chart = load_charts("sgboh").missile
    mt = _missile_type(chart, missile_type)
    t = _known(target_type)
    d = chart.drms
    total = d["firer_hit"].value * max(0, firer_hits)
    if mt.artillery and t == "EL":
        total += d["artillery_vs_elephant"].value
    if firer_moved and (missile_type in chart.bows_and_slings or firer_mounted):
        total += d["moving_fire"].value
    if hit_and_run and t == "EL":
        total += d["hit_and_run_vs_elephant"].value
    slinger_unit = target_missile in chart.slinger_missiles and t not in chart.skirmisher_types
    if t in chart.heavy or (t == "HC" and target_cataphract) or slinger_unit:
        total += d["armoured_target"].value
    if hit_and_run and missile_type == "J":
        total += d["foot_javelin_hit_and_run"].value
    if adjacent_frontal and missile_type in chart.bows_and_slings and missile_type != "MA" and t in chart.heavy:
        total += d["adjacent_bow_sling_frontal_heavy"].value
    return total


# --- rally and pursuit -----------------------------------------------------------------


def rally_drm(*, disordered: bool, leader: bool) -> int:
    """003 §10.27: -2 when only disordered, -1 when stacked with a leader."""
    r = load_charts("sgboh").rally
    return (r.disordered_drm if disordered else 0) + (r.leader_drm if leader else 0)


def rally_band(tq: int, modified_roll: int) -> Literal["F", "D", "R"]:
    """The New Rally Table column for a TQ and a modified roll (below 0 reads as 0,
    above 9 as 9)."""
    r = load_charts("sgboh").rally
    if not 1 <= tq <= 9:
        raise ValueError(f"TQ {tq} is outside 1..9")
    letter = r.by_tq[tq][max(0, min(9, modified_roll))]
    assert letter in ("F", "D", "R")
    return letter  # type: ignore[return-value]


def rally_result(tq: int, modified_roll: int, *, routed: bool = False) -> RallyOutcome:
    """003 §10.27 New Rally Table: the unit's status after a rally attempt.

    ``tq`` is the printed TQ; a routed unit rolls on the TQ 1 row.  A disordered unit ends
    full, disordered or routed; a routed one full, disordered or eliminated.
    """
    r = load_charts("sgboh").rally
    letter = rally_band(r.routed_tq if routed else tq, modified_roll)
    if letter == "F":
        return "full"
    if letter == "D":
        return "disordered"
    return "eliminated" if routed else "routed"


def pursuit_range(unit_type: str, tq: int) -> range:
    """003 §8.3 Cavalry Pursuit Table: the die rolls on which the cavalry pursues."""
    p = load_charts("sgboh").pursuit
    if unit_type not in p.ranges:
        raise ValueError(f"{unit_type!r} is not a cavalry type that pursues")
    if not 1 <= tq <= 9:
        raise ValueError(f"TQ {tq} is outside 1..9")
    return p.ranges[unit_type][tq]


def pursues(unit_type: str, tq: int, roll: int, *, leader: bool = False) -> bool:
    """Whether a pursuit roll (+1 with a stacked leader) lies in the pursuit range."""
    p = load_charts("sgboh").pursuit
    return roll + (p.leader_drm if leader else 0) in pursuit_range(unit_type, tq)


def pursuing_types() -> frozenset[str]:
    return frozenset(load_charts("sgboh").pursuit.ranges)


# --- terrain ---------------------------------------------------------------------------


def _elevation(table: TerrainTable, diff: int) -> _Elevation:
    for e in table.elevation:
        if (e.min is None or diff >= e.min) and (e.max is None or diff <= e.max):
            return e
    raise AssertionError("elevation bands are validated")  # pragma: no cover


def _entry(table: TerrainTable, terrain: str, works: str | None) -> list[_TerrainEntry]:
    if terrain not in table.terrain:
        raise ValueError(f"unknown terrain {terrain!r}")
    entries = [table.terrain[terrain]]
    if works is not None:
        if works not in table.works:
            raise ValueError(f"this ruleset has no works called {works!r} (known: {', '.join(table.works)})")
        entries.append(table.works[works])
    return entries


def terrain_shock_drm(
    ruleset: str,
    *,
    terrain: str = "clear",
    works: str | None = None,
    level_difference: int = 0,
    hexsides: Iterable[str] = (),
) -> int | None:
    """Terrain DRM on one attacker's shock roll, or None when shock is prohibited.

    ``terrain``/``works``: the defender's hex; ``level_difference``: defender's level minus
    the attacker's; ``hexsides``: features of the hexside the attacker attacks across (the
    one worst for the attacker counts).  With several attackers the engine uses the value
    most favourable to the defender (002 Fortification chart note).
    """
    table = load_charts(_ruleset(ruleset)).terrain
    total = 0
    for e in _entry(table, terrain, works):
        if e.shock == "prohibited":
            return None
        total += e.shock
    total += _elevation(table, level_difference).shock
    crossing = []
    for h in hexsides:
        if h not in table.hexside:
            raise ValueError(f"unknown hexside feature {h!r}")
        crossing.append(table.hexside[h])
    return total + (min(crossing) if crossing else 0)


def missile_class(missile_type: str) -> MissileClass:
    """002's fortification columns: J (javelins), A (bows), S (slings), AT (artillery)."""
    mt = _missile_type(load_charts("sgboh").missile, missile_type)
    if mt.artillery:
        return "AT"
    if missile_type in ("J", "MJ"):
        return "J"
    if missile_type in ("S", "BS"):
        return "S"
    return "A"


def terrain_missile_drm(
    ruleset: str,
    *,
    terrain: str = "clear",
    works: str | None = None,
    level_difference: int = 0,
    missile_type: str | None = None,
) -> int | None:
    """Terrain DRM on a missile roll, or None when fire is prohibited.

    ``level_difference``: the target's level minus the firer's (a lower target: -1, 002).
    """
    table = load_charts(_ruleset(ruleset)).terrain
    total = 0
    for e in _entry(table, terrain, works):
        m = e.missile
        if isinstance(m, dict):
            if missile_type is None:
                raise ValueError("works with per-class missile DRMs need the missile_type")
            m = m[missile_class(missile_type)]
        if m == "prohibited":
            return None
        total += m
    return total + _elevation(table, level_difference).missile
