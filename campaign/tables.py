"""The campaign's operations tables (``campaign/data/tables.toml``), validated at load.

Every number of the March Table, interception, supply, forage, winter, siege, storm and
after-battle rules is data (docs/rules/campaign.md §7–§13); this module reads the file
through ``bellum.tomlio`` and turns each results list into typed ``Result`` values.  A
bad file raises one ``bellum.errors.InputError`` sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, field_validator

from bellum.engagement import Discipline
from bellum.paths import game_data
from bellum.tomlio import load_model

TABLES_FILE = game_data("campaign", "data", "tables.toml")

ResultKind = Literal["ok", "halt", "loss", "scatter"]
_RESULT = re.compile(r"^(ok|halt|loss|scatter)(?::(\d{1,3}))?$")


@dataclass(frozen=True, slots=True)
class Result:
    """One entry of a results list: what happens, and the share of strength lost."""

    kind: ResultKind
    loss: int = 0  # percent


def parse_result(text: str) -> Result:
    m = _RESULT.match(text)
    if not m:
        raise ValueError(f"{text!r} is not a result (ok, halt, halt:P, loss:P or scatter:P)")
    kind = m.group(1)
    pct = int(m.group(2) or 0)
    if pct > 100:
        raise ValueError(f"{text!r} loses more than 100%")
    if kind == "ok" and pct:
        raise ValueError(f"{text!r}: an ok result loses nothing")
    if kind == "loss" and not pct:
        raise ValueError(f"{text!r}: a loss result needs a percentage")
    return Result(kind, pct)  # type: ignore[arg-type]


def _ten(values: list[str]) -> tuple[Result, ...]:
    if len(values) != 10:
        raise ValueError(f"a d10 results list has 10 entries, not {len(values)}")
    return tuple(parse_result(v) for v in values)


def _ten_texts(what: str) -> WithJsonSchema:
    """The JSON schema of a d10 list as the file writes it: ten texts (schemas/, docs/MODDING.md)."""
    items = {"type": "string", "description": what}
    return WithJsonSchema({"type": "array", "items": items, "minItems": 10, "maxItems": 10})


#: a d10 results list: ten texts ``ok``, ``halt``, ``halt:P``, ``loss:P`` or ``scatter:P`` in the file
Results = Annotated[tuple[Result, ...], _ten_texts("ok, halt, halt:P, loss:P or scatter:P")]


#: a d10 list of Res Publica results: ten texts of effects joined by commas in the file
Effects = Annotated[tuple[tuple["Effect", ...], ...], _ten_texts("effects joined by commas: 'marker,enemy_marker'")]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TurnSpec(_Model):
    month: str = Field(min_length=3, max_length=20)
    winter: bool


class Calendar(_Model):
    turns: tuple[TurnSpec, ...] = Field(min_length=2, max_length=12)

    @field_validator("turns")
    @classmethod
    def _six_and_two(cls, v: tuple[TurnSpec, ...]) -> tuple[TurnSpec, ...]:
        if v[0].month != "January":
            raise ValueError("the year's first turn must open in January")
        return v


class Movement(_Model):
    land: int = Field(ge=1, le=20)
    land_winter: int = Field(ge=1, le=20)
    leaderless: int = Field(ge=1, le=20)
    sea: int = Field(ge=1, le=30)
    sea_winter: int = Field(ge=1, le=30)


class Terrains(_Model):
    clear: Results
    hills: Results
    forest: Results
    marsh: Results
    mountains: Results
    desert: Results

    @field_validator("*", mode="before")
    @classmethod
    def _parse(cls, v: object) -> object:
        if isinstance(v, list) and all(isinstance(x, str) for x in v):
            return _ten(v)
        return v

    def row(self, terrain: str) -> tuple[Result, ...]:
        row: tuple[Result, ...] = getattr(self, terrain)
        return row


class MarchModifiers(_Model):
    stratagem: int = Field(ge=0, le=9)
    winter: int = Field(ge=-9, le=0)
    imperator: int = Field(ge=0, le=9)


class March(_Model):
    modifiers: MarchModifiers
    rows: Terrains


class Interception(_Model):
    need: int = Field(ge=0, le=10)
    destination: int = Field(ge=-9, le=9)
    sortie: int = Field(ge=-9, le=9)
    admiral: int = Field(ge=-9, le=9)
    winter: int = Field(ge=-9, le=9)


class Decisive(_Model):
    """Which land battles are decisive (campaign.md §12.8): fought on the tactical engine
    under ``--battles decisive-tactical`` and offered there first in the window."""

    supreme_sp: int = Field(ge=1, le=200)
    any_sp: int = Field(ge=1, le=400)


class Supply(_Model):
    trace: int = Field(ge=0, le=20)
    escort_reach: int = Field(ge=0, le=12)
    cut_reach: int = Field(ge=1, le=12)
    pillage: int = Field(ge=0, le=9)
    winter: int = Field(ge=-9, le=0)
    big_army: int = Field(ge=1, le=200)
    huge_army: int = Field(ge=1, le=400)
    forage: Terrains
    ship_base: int = Field(ge=0, le=12)
    at_sea: Results

    @field_validator("at_sea", mode="before")
    @classmethod
    def _parse_sea(cls, v: object) -> object:
        return _ten(v) if isinstance(v, list) else v


class Winter(_Model):
    friendly: int = Field(ge=0, le=9)
    at_sea: int = Field(ge=-9, le=0)
    results: Results
    quarters_gain: int = Field(ge=0, le=5)
    quarters_disciplines: tuple[Discipline, ...] = Field(max_length=5)

    @field_validator("results", mode="before")
    @classmethod
    def _parse(cls, v: object) -> object:
        return _ten(v) if isinstance(v, list) else v


class Siege(_Model):
    attrition: tuple[int, ...] = Field(min_length=10, max_length=10)


class Storm(_Model):
    need: int = Field(ge=0, le=12)
    engineers: int = Field(ge=0, le=5)
    max_engineers: int = Field(ge=1, le=5)
    stratagem: int = Field(ge=0, le=5)
    odds_2: int = Field(ge=0, le=5)
    odds_4: int = Field(ge=0, le=5)
    veteran_garrison: int = Field(ge=-5, le=0)
    starving: int = Field(ge=0, le=5)
    repulse: tuple[int, ...] = Field(min_length=10, max_length=10)
    taken: int = Field(ge=0, le=5)


class Execution(_Model):
    caesarian: int = Field(ge=0, le=10)
    senatorial: int = Field(ge=0, le=10)
    other: int = Field(ge=0, le=10)


class Battle(_Model):
    bonus_per_sp: int = Field(ge=1, le=50)
    bonus_max: int = Field(ge=0, le=5)
    #: what the winner may take its bonus stratagems as (campaign.md §12.4)
    bonus_kinds: tuple[Literal["military", "political", "agent"], ...] = Field(min_length=1, max_length=3)
    execution: Execution


# --------------------------------------------------------------------------- issue 8: politics

StratagemKind = Literal["military", "political", "agent"]
RP_EFFECTS: tuple[str, ...] = (
    "none",
    "marker",
    "lose_marker",
    "enemy_marker",
    "political",
    "tribune",
    "dictator",
    "imperator",
    "volunteers",
)
_EFFECT = re.compile(r"^([a-z_]+)(?::(\d))?$")


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect of a Res Publica result: what, and how many (campaign.md §16.2)."""

    kind: str
    n: int = 1


def parse_effects(text: str) -> tuple[Effect, ...]:
    out = []
    for part in text.split(","):
        m = _EFFECT.match(part.strip())
        if not m or m.group(1) not in RP_EFFECTS:
            raise ValueError(f"{text!r} is not a Res Publica result ({', '.join(RP_EFFECTS)}, joined by commas)")
        n = int(m.group(2) or 1)
        if n < 1 or (m.group(2) and m.group(1) not in ("marker", "volunteers")):
            raise ValueError(f"{text!r}: only a marker or volunteers result takes a count, from 1 to 9")
        out.append(Effect(m.group(1), n))
    return tuple(out)


class Mix(_Model):
    military: int = Field(ge=0, le=40)
    political: int = Field(ge=0, le=40)
    agent: int = Field(ge=0, le=40)


class StratagemRules(_Model):
    mix: Mix
    rome: int = Field(ge=0, le=5)
    income_cities: int = Field(ge=0, le=5)
    income_cities_needed: int = Field(ge=1, le=9)
    syria: int = Field(ge=0, le=5)
    syria_region: str = Field(min_length=1, max_length=40)
    dictator: int = Field(ge=0, le=5)
    interregnum: int = Field(ge=0, le=5)


class ResPublica(_Model):
    markers: int = Field(ge=2, le=30)
    rome: int = Field(ge=-5, le=5)
    own_party: int = Field(ge=-5, le=5)
    other_party: int = Field(ge=-5, le=5)
    in_rome: int = Field(ge=-5, le=5)
    dictator: int = Field(ge=-5, le=5)
    repeat: int = Field(ge=-5, le=0)
    party: dict[str, Literal["optimates", "populares"]]
    tribune_needs_rome: bool
    consuls_gain: int = Field(ge=0, le=4)
    consuls_enemy_loses: int = Field(ge=0, le=4)
    beaten_supreme: int = Field(ge=0, le=4)
    optimates: Effects
    populares: Effects

    @field_validator("optimates", "populares", mode="before")
    @classmethod
    def _parse(cls, v: object) -> object:
        if isinstance(v, list) and all(isinstance(x, str) for x in v):
            if len(v) != 10:
                raise ValueError(f"a d10 results list has 10 entries, not {len(v)}")
            return tuple(parse_effects(x) for x in v)
        return v

    def table(self, name: str) -> tuple[tuple[Effect, ...], ...]:
        row: tuple[tuple[Effect, ...], ...] = getattr(self, name)
        return row


class Recruiting(_Model):
    civis_strength: int = Field(ge=1, le=3)
    colony_legion_sp: int = Field(ge=1, le=5)


class Tribute(_Model):
    range: int = Field(ge=0, le=20)
    city: int = Field(ge=0, le=12)
    client: int = Field(ge=0, le=12)
    enemy_client: int = Field(ge=0, le=12)
    capital: int = Field(ge=-5, le=5)
    rome: int = Field(ge=-5, le=5)
    near: int = Field(ge=-5, le=5)
    markers: int = Field(ge=-5, le=5)


class Bribe(_Model):
    range: int = Field(ge=0, le=20)
    need: int = Field(ge=0, le=12)
    rome: int = Field(ge=-9, le=0)
    capital: int = Field(ge=-5, le=0)
    veteran: int = Field(ge=-5, le=0)
    besieged: int = Field(ge=0, le=5)
    starving: int = Field(ge=0, le=5)
    markers: int = Field(ge=-5, le=5)


class Revolt(_Model):
    """A bribed civis rising against a garrison (campaign.md §18.2)."""

    garrison_loss: tuple[int, ...] = Field(min_length=10, max_length=10)
    veteran_civis: int = Field(ge=0, le=5)
    starving: int = Field(ge=0, le=5)
    besieged: int = Field(ge=0, le=5)
    leader: int = Field(ge=-5, le=0)


_DESERT = re.compile(r"^(none|defect|desert:[1-5])$")


class Desertion(_Model):
    results: tuple[str, ...] = Field(min_length=10, max_length=10)
    unsupplied: int = Field(ge=0, le=5)
    winter: int = Field(ge=0, le=5)
    supreme: int = Field(ge=-5, le=0)
    imperator: int = Field(ge=0, le=5)
    same_space: int = Field(ge=0, le=5)

    @field_validator("results")
    @classmethod
    def _known(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        for r in v:
            if not _DESERT.match(r):
                raise ValueError(f"{r!r} is not a desertion result (none, desert:N, defect)")
        return v


class Assassination(_Model):
    range: int = Field(ge=0, le=20)
    results: tuple[Literal["exposed", "fail", "killed"], ...] = Field(min_length=10, max_length=10)
    friendly_city: int = Field(ge=0, le=5)
    same_space: int = Field(ge=0, le=5)


class Tables(_Model):
    calendar: Calendar
    movement: Movement
    march: March
    interception: Interception
    supply: Supply
    winter: Winter
    siege: Siege
    storm: Storm
    battle: Battle
    decisive: Decisive
    stratagems: StratagemRules
    res_publica: ResPublica
    recruiting: Recruiting
    tribute: Tribute
    bribe: Bribe
    revolt: Revolt
    desertion: Desertion
    assassination: Assassination


def load_tables(path: str | Path = TABLES_FILE) -> Tables:
    """Read and validate the operations tables; a bad file raises one ``InputError``."""
    return load_model(Tables, path)


@cache
def tables() -> Tables:
    """The game's operations tables, loaded once."""
    return load_tables()


def read(row: tuple[Result, ...] | tuple[int, ...], roll: int) -> Result | int:
    """The entry for a modified d10 roll, clamped to the list (docs/rules/campaign.md §7.3)."""
    return row[max(0, min(len(row) - 1, roll))]
