"""The tactical engine's data formats (``bellum.formats``): scenarios and every table of
``tactical/data/``, each with the model that validates it and the loader that checks it."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

from pydantic import BaseModel

from bellum.errors import InputError
from bellum.formats import Context, Format, model_check
from bellum.tomlio import load_model
from tactical import charts
from tactical.engagement import Deployment
from tactical.models import UnitType
from tactical.scenario import ScenarioIn, load_scenario
from tactical.special import SpecialRulesFile
from tactical.tables import MoveTables, TerrainFile, UnitsFile
from tactical.variants import RoutBidFile


def _scenario(path: Path, ctx: Context) -> None:
    load_scenario(path)


def _units(path: Path, ctx: Context) -> None:
    """The unit-type catalogue: a row for every type a scenario may name (tactical/models.py)."""
    types = load_model(UnitsFile, path).types
    missing = [t for t in get_args(UnitType) if t not in types]
    if missing:
        raise InputError(path, "types", f"has no row for the unit type(s) {', '.join(missing)} scenarios may use")
    extra = [t for t in types if t not in get_args(UnitType)]
    if extra:
        raise InputError(path, f"types.{extra[0]}", "is no unit type of the scenario format (tactical/models.py)")


def _terrain(path: Path, ctx: Context) -> None:
    MoveTables(load_model(TerrainFile, path))


def _chart(name: str) -> Format:
    models: dict[str, type[BaseModel]] = {
        "weapons_sgboh": charts._SgbohFile,
        "weapons_charts_v1": charts._V1File,
        "shock_results": charts._ShockFile,
        "shock_results_charts_v1": charts._V1ShockFile,
        "missile": charts._MissileFile,
        "rally": charts._RallyFile,
        "pursuit": charts._PursuitFile,
        "terrain_combat": charts._TerrainFile,
    }
    model = models[name]

    def check(path: Path, ctx: Context) -> None:
        charts.load_table(name, path)

    title = f"tactical chart: {name.replace('_', ' ')}"
    return Format(f"tactical-{name.replace('_', '-')}", title, model, check, (f"tactical/data/{name}.toml",))


FORMATS: tuple[Format, ...] = (
    Format(
        "tactical-deployment",
        "tactical table: the field and deployment of a battle sent by its route",
        Deployment,
        model_check(Deployment),
        ("tactical/data/deployment.toml",),
    ),
    Format(
        "tactical-scenario",
        "Bellum Civile tactical scenario",
        ScenarioIn,
        _scenario,
        ("scenarios/tactical/*.toml",),
        frozenset({"sides", "field", "units", "rules"}),
    ),
    Format("tactical-units", "tactical table: unit types", UnitsFile, _units, ("tactical/data/units.toml",)),
    Format("tactical-terrain", "tactical table: movement", TerrainFile, _terrain, ("tactical/data/terrain.toml",)),
    Format(
        "tactical-special-rules",
        "tactical table: special rules",
        SpecialRulesFile,
        model_check(SpecialRulesFile),
        ("tactical/data/special_rules.toml",),
    ),
    Format(
        "tactical-rout-bid",
        "tactical table: the rout bid",
        RoutBidFile,
        model_check(RoutBidFile),
        ("tactical/data/rout_bid.toml",),
    ),
    *(_chart(name) for name in charts.TABLE_NAMES),
)
