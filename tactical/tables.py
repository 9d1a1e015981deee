"""The movement-side tables (002 Terrain Effects Chart, the unit catalogue) as data.

``tactical/data/terrain.toml`` and ``tactical/data/units.toml`` are validated by
pydantic at load (through ``bellum.tomlio``) and turned into small integer
tables.  Movement points are counted internally in **half points** (a Roman
road costs ½ MP, 002), so every cost here is doubled; ``NO`` marks a
prohibited (grey) cell.  The combat tables belong to ``tactical.charts``.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from bellum.paths import game_data
from bellum.tomlio import load_model

DATA = game_data("tactical", "data")

#: a prohibited move (grey cell)
NO = 1 << 20
#: movement points are counted in halves
HALF = 2

CLASSES = (
    "phalanx",
    "heavy_foot",
    "medium_foot",
    "barbarian_foot",
    "light_foot",
    "leader",
    "cavalry",
    "elephant",
    "chariot",
    "artillery",
    "column",
)
CLASS_INDEX = {name: i for i, name in enumerate(CLASSES)}
TERRAINS = ("clear", "woods", "rough", "marsh", "town", "impassable")
TERRAIN_INDEX = {name: i for i, name in enumerate(TERRAINS)}
HEXSIDE_FEATURES = ("stream", "minor_river", "major_river", "rocky_river_bed", "steep_bank")
#: hexside extras of the project's notation besides the rivers: roads and bridges
ROAD_FEATURES = ("road", "roman_road", "bridge")

Cell = int | float | Literal["x"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _row_check(row: list[Cell]) -> list[Cell]:
    if len(row) != len(CLASSES):
        raise ValueError(f"needs {len(CLASSES)} cells (one per movement class), has {len(row)}")
    for cell in row:
        if cell != "x" and (isinstance(cell, bool) or not isinstance(cell, int | float) or cell < 0):
            raise ValueError(f"{cell!r} is neither a cost nor 'x'")
    return row


class _Rows(_Strict):
    @field_validator("*")
    @classmethod
    def _rows(cls, v: list[Cell]) -> list[Cell]:
        return _row_check(v)


class HexRows(_Rows):
    clear: list[Cell]
    woods: list[Cell]
    rough: list[Cell]
    marsh: list[Cell]
    town: list[Cell]
    impassable: list[Cell]


class HexsideRows(_Rows):
    stream: list[Cell]
    minor_river: list[Cell]
    major_river: list[Cell]
    rocky_river_bed: list[Cell]
    steep_bank: list[Cell]


class LevelRows(_Rows):
    up_1: list[Cell]
    up_2: list[Cell]
    up_3: list[Cell]
    down_1: list[Cell]
    down_2: list[Cell]
    down_3: list[Cell]


class Hexsides(_Strict):
    alexander: HexsideRows
    caesar: HexsideRows


class Road(_Strict):
    roman_road: float = Field(gt=0)


class Facing(_Strict):
    per_vertex: list[Cell]
    roman_any: int = Field(ge=0)
    skirmisher: int = Field(ge=0)
    reverse_phalanx: int = Field(ge=0)
    wheel_per_hex: int = Field(ge=0)

    @field_validator("per_vertex")
    @classmethod
    def _pv(cls, v: list[Cell]) -> list[Cell]:
        return _row_check(v)


class Stacking(_Strict):
    pass_through: int = Field(ge=0)
    leader_enter_occupied: int = Field(ge=0)


class TerrainFile(_Strict):
    classes: list[str]
    hex: HexRows
    hexside: Hexsides
    level: LevelRows
    road: Road
    facing: Facing
    stacking: Stacking

    @field_validator("classes")
    @classmethod
    def _classes(cls, v: list[str]) -> list[str]:
        if tuple(v) != CLASSES:
            raise ValueError(f"must list the movement classes {list(CLASSES)} in that order")
        return v


class UnitType(_Strict):
    name: str
    class_: str = Field(alias="class")
    ma: int = Field(ge=1, le=20)
    mounted: bool = False
    cavalry: bool = False
    skirmisher: bool = False

    @field_validator("class_")
    @classmethod
    def _cls(cls, v: str) -> str:
        if v not in CLASS_INDEX or v == "column":
            raise ValueError(f"{v!r} is not a movement class of a unit type")
        return v


class UnitsFile(_Strict):
    types: dict[str, UnitType]


def _half(cell: Cell) -> int:
    if cell == "x":
        return NO
    return round(float(cell) * HALF)


class MoveTables:
    """Integer cost tables (half MP) indexed ``[class][feature]``."""

    __slots__ = (
        "facing",
        "hex_cost",
        "hexside_cost",
        "leader_enter_occupied",
        "level_cost",
        "pass_through",
        "reverse_phalanx",
        "roman_any",
        "roman_road",
        "skirmisher_face",
        "wheel_per_hex",
    )

    def __init__(self, f: TerrainFile) -> None:
        hx = f.hex.model_dump()
        self.hex_cost = tuple(tuple(_half(hx[t][c]) for t in TERRAINS) for c in range(len(CLASSES)))
        self.hexside_cost: dict[str, tuple[tuple[int, ...], ...]] = {}
        for era in ("alexander", "caesar"):
            rows = getattr(f.hexside, era).model_dump()
            self.hexside_cost[era] = tuple(
                tuple(_half(rows[feat][c]) for feat in HEXSIDE_FEATURES) for c in range(len(CLASSES))
            )
        lv = f.level.model_dump()
        # level_cost[class][delta + 3] for delta -3..+3 (beyond ±3 uses the ±3 cell)
        order = ("down_3", "down_2", "down_1", None, "up_1", "up_2", "up_3")
        self.level_cost = tuple(tuple(0 if k is None else _half(lv[k][c]) for k in order) for c in range(len(CLASSES)))
        self.roman_road = _half(f.road.roman_road)
        self.facing = tuple(_half(x) for x in f.facing.per_vertex)
        self.roman_any = f.facing.roman_any * HALF
        self.skirmisher_face = f.facing.skirmisher * HALF
        self.reverse_phalanx = f.facing.reverse_phalanx * HALF
        self.wheel_per_hex = f.facing.wheel_per_hex * HALF
        self.pass_through = f.stacking.pass_through * HALF
        self.leader_enter_occupied = f.stacking.leader_enter_occupied * HALF

    def level(self, cls: int, delta: int) -> int:
        return self.level_cost[cls][max(-3, min(3, delta)) + 3]


@cache
def move_tables() -> MoveTables:
    return MoveTables(load_model(TerrainFile, DATA / "terrain.toml"))


@cache
def unit_types() -> dict[str, UnitType]:
    return dict(load_model(UnitsFile, DATA / "units.toml").types)
