"""The battleboard's tables, read from ``battleboard/data/*.toml`` and validated at load.

Every number the rules use lives in these files (docs/rules/battleboard.md); the
models below refuse a malformed table with one sentence through ``bellum.tomlio``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from bellum.engagement import Discipline, UnitKind
from bellum.paths import game_data
from bellum.tomlio import load_model

DATA = game_data("battleboard", "data")

DISCIPLINES: tuple[str, ...] = get_args(Discipline)
Cls = Literal["foot", "horse", "wheels", "beast", "ship"]
CombatResult = Literal["-", "A", "B", "L"]
CommandResult = Literal["-", "F", "B"]
KINDS: tuple[str, ...] = get_args(UnitKind)  # the contract's unit kinds (bellum/engagement.py)
MODES: tuple[str, ...] = ("phalanx", "fire", "wedge", "quincunx", "testudo", "chariot", "elephant", "ram")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# -- boards.toml (§2) ------------------------------------------------------
class Feature(_Strict):
    passable: list[Cls]
    ends_move: bool
    defend: int = Field(ge=-9, le=9)
    attack_from: int = Field(ge=-9, le=9)
    no_flank: bool
    testudo_ignores: bool = False


class BoardSpec(_Strict):
    kind: Literal["land", "naval"]
    columns: int = Field(ge=3, le=26)
    rows: int = Field(ge=4, le=30)
    deploy_rows: int = Field(ge=1, le=5)
    base: str
    feature_rows: dict[str, str] = {}
    feature_columns: dict[str, str] = {}
    squares: dict[str, str] = {}


class Boards(_Strict):
    features: dict[str, Feature]
    boards: dict[str, BoardSpec]

    @model_validator(mode="after")
    def _known_features(self) -> Boards:
        for name, b in self.boards.items():
            used = [b.base, *b.feature_rows.values(), *b.feature_columns.values(), *b.squares.values()]
            for f in used:
                if f not in self.features:
                    raise ValueError(f"board {name} uses the unknown feature {f!r}")
            if 2 * b.deploy_rows >= b.rows:
                raise ValueError(f"board {name} leaves no room between the deployment rows")
        return self


# -- units.toml (§3.1) -----------------------------------------------------
class KindSpec(_Strict):
    cls: Cls
    movement: int = Field(ge=0, le=6)
    rolls: int = Field(ge=0, le=9)
    modes: list[str]
    heavy: bool
    light: bool

    @model_validator(mode="after")
    def _modes_known(self) -> KindSpec:
        for m in self.modes:
            if m not in MODES:
                raise ValueError(f"unknown attack mode {m!r}")
        return self


class Units(_Strict):
    fleet_capacity: int = Field(ge=1, le=6)
    captured_fleet_movement: int = Field(ge=0, le=6)
    kinds: dict[str, KindSpec]

    @field_validator("kinds")
    @classmethod
    def _all_kinds(cls, kinds: dict[str, KindSpec]) -> dict[str, KindSpec]:
        missing = [k for k in KINDS if k not in kinds]
        if missing:
            raise ValueError(f"the unit kind {missing[0]!r} has no entry")
        return kinds


# -- combat.toml (§8) ------------------------------------------------------
class ModeSpec(_Strict):
    row: list[CombatResult] | None = None
    row_of: str | None = None
    range: int = Field(default=1, ge=1, le=3)


class ModeVsKind(_Strict):
    mode: str
    defenders: list[str]
    modifier: int = Field(ge=-9, le=9)


class CombatModifiers(_Strict):
    attacker_discipline: dict[Discipline, int]
    defender_discipline: dict[Discipline, int]
    attacker_flipped: int
    defender_flipped: int
    flank: int
    rear: int
    inspire: int
    leader_rating: int
    leader_bonus: int


class Combat(_Strict):
    low: int = Field(ge=-9, le=0)
    high: int = Field(ge=9, le=20)
    modes: dict[str, ModeSpec]
    modifiers: CombatModifiers
    mode_vs_kind: list[ModeVsKind] = []

    @model_validator(mode="after")
    def _rows(self) -> Combat:
        width = self.high - self.low + 1
        for m in MODES:
            if m not in self.modes:
                raise ValueError(f"the attack mode {m!r} has no row")
        for name, spec in self.modes.items():
            if spec.row is None and spec.row_of not in self.modes:
                raise ValueError(f"mode {name} needs a row or a row_of naming another mode")
            if spec.row is not None and len(spec.row) != width:
                raise ValueError(f"the {name} row has {len(spec.row)} entries, not {width}")
        for d in DISCIPLINES:
            if d not in self.modifiers.attacker_discipline or d not in self.modifiers.defender_discipline:
                raise ValueError(f"discipline {d} has no combat modifier")
        return self

    def row(self, mode: str) -> tuple[str, ...]:
        spec = self.modes[mode]
        if spec.row is None:
            assert spec.row_of is not None
            return self.row(spec.row_of)
        return tuple(spec.row)


# -- command.toml (§6) -----------------------------------------------------
class Command(_Strict):
    low: int = Field(ge=-9, le=0)
    high: int = Field(ge=9, le=20)
    flipped: int
    panicked: int
    rally_on: int = Field(ge=0, le=9)
    table: dict[Discipline, list[CommandResult]]

    @model_validator(mode="after")
    def _rows(self) -> Command:
        width = self.high - self.low + 1
        for d in DISCIPLINES:
            if d not in self.table:
                raise ValueError(f"discipline {d} has no command row")
            if len(self.table[d]) != width:
                raise ValueError(f"the {d} command row has {len(self.table[d])} entries, not {width}")
        return self


# -- battle.toml (§5, §9, §10, §12) ----------------------------------------
class MaxTurns(_Strict):
    land: int = Field(ge=1, le=99)
    naval: int = Field(ge=1, le=99)


class Panic(_Strict):
    land_percent: int = Field(ge=1, le=100)
    #: a panicked land force breaks once its losses reach this % of its starting SP (§10.5)
    break_percent: int = Field(ge=1, le=100)
    naval_fraction: tuple[int, int]


class Pursuit(_Strict):
    """Modifiers to the flight roll of units leaving the field (§10.4, §10.5)."""

    #: a unit next to the enemy when its army withdraws breaks contact at this modifier
    disengage: int = Field(ge=-9, le=9)
    #: every unit of a broken army is pursued at this modifier
    broken: int = Field(ge=-9, le=9)
    #: and at this further modifier when the enemy has steady horse on the board
    horse: int = Field(ge=-9, le=9)


class Promotion(_Strict):
    per_sp: int = Field(ge=1)
    max: int = Field(ge=0, le=12)
    #: the discipline a promoted unit rises to, from each discipline that can rise
    ladder: dict[Discipline, Discipline]


class LeaderLoss(_Strict):
    killed: list[int]
    captured: list[int]
    joins_within: int = Field(ge=1, le=9)


class LeaderMove(_Strict):
    range: int = Field(ge=1, le=9)


class Battle(_Strict):
    max_turns: MaxTurns
    panic: Panic
    flight: dict[Discipline, int]
    pursuit: Pursuit
    reconstitution: dict[Discipline, int]
    prisoners: dict[Discipline, int]
    promotion: Promotion
    leader_loss: LeaderLoss
    leader_move: LeaderMove


class Tables(_Strict):
    boards: Boards
    units: Units
    combat: Combat
    command: Command
    battle: Battle


@cache
def tables(folder: str = str(DATA)) -> Tables:
    """All battleboard tables (read once; an invalid file raises one InputError sentence)."""
    d = Path(folder)
    return Tables(
        boards=load_model(Boards, d / "boards.toml"),
        units=load_model(Units, d / "units.toml"),
        combat=load_model(Combat, d / "combat.toml"),
        command=load_model(Command, d / "command.toml"),
        battle=load_model(Battle, d / "battle.toml"),
    )
