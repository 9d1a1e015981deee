"""The campaign's data formats (``bellum.formats``): the map, campaign scenarios and the tables
of ``campaign/data/``.  A map is checked with the campaign scenarios (those given to the same
``bellum check``, else the shipped and the player's own): a map change that strands a scenario's
force says so; a scenario is checked against the map given with it, else the game's map."""

from __future__ import annotations

from pathlib import Path

from bellum.errors import InputError
from bellum.formats import Context, Format
from bellum.paths import scenario_files
from campaign import conversion, tables
from campaign.map import CampaignMap, MapFile, load_map, roman_world
from campaign.rules.clients import World, load_world
from campaign.scenario import ScenarioFile, load_scenario
from campaign.units import LEADERS_FILE, UNITS_FILE, Catalogue, LeadersFile, UnitsFile, load_catalogue


def _scenarios_with(path: Path, ctx: Context, cmap: CampaignMap, cat: Catalogue | None = None) -> None:
    """The campaign scenarios (given to the same check, else the game's and the player's own)
    loaded with a changed map or counter set: one that no longer loads is the changed file's fault."""
    for scenario in ctx.given.get("campaign-scenario") or scenario_files("campaign"):
        try:
            load_scenario(scenario, cmap, cat)
        except InputError as exc:
            raise InputError(
                path, "", f"the scenario {scenario.name} no longer loads with it ({exc.place}: {exc.problem})"
            ) from None


def _map(path: Path, ctx: Context) -> None:
    _scenarios_with(path, ctx, load_map(path))


def _scenario(path: Path, ctx: Context) -> None:
    given = ctx.one("campaign-map")
    load_scenario(path, load_map(given) if given else roman_world())


def _counter_set(checked: Path, units: Path, leaders: Path, ctx: Context) -> None:
    """The counter set, then the campaign scenarios with it: a kind or leader a scenario
    needs that the tables no longer have is a row missing."""
    cat = load_catalogue(units, leaders)
    given = ctx.one("campaign-map")
    _scenarios_with(checked, ctx, load_map(given) if given else roman_world(), cat)


def _units(path: Path, ctx: Context) -> None:
    _counter_set(path, path, ctx.one("campaign-leaders") or LEADERS_FILE, ctx)


def _leaders(path: Path, ctx: Context) -> None:
    _counter_set(path, ctx.one("campaign-units") or UNITS_FILE, path, ctx)


FORMATS: tuple[Format, ...] = (
    Format(
        "campaign-map",
        "Bellum Civile campaign map",
        MapFile,
        _map,
        ("maps/*.toml",),
        frozenset({"map", "costs", "space"}),
    ),
    Format(
        "campaign-scenario",
        "Bellum Civile campaign scenario",
        ScenarioFile,
        _scenario,
        ("scenarios/campaign/*.toml",),
        frozenset({"scenario", "sides", "forces"}),
    ),
    Format("campaign-units", "campaign table: unit kinds", UnitsFile, _units, ("campaign/data/units.toml",)),
    Format("campaign-leaders", "campaign table: leaders", LeadersFile, _leaders, ("campaign/data/leaders.toml",)),
    Format(
        "campaign-tables",
        "campaign tables: the sequence of play",
        tables.Tables,
        lambda p, ctx: tables.load_tables(p),
        ("campaign/data/tables.toml",),
    ),
    Format(
        "campaign-world",
        "campaign tables: the wider world",
        World,
        lambda p, ctx: load_world(p),
        ("campaign/data/world.toml",),
    ),
    Format(
        "campaign-conversion",
        "campaign tables: battles on the tactical engine",
        conversion.ConversionTables,
        lambda p, ctx: conversion.load_tables(p),
        ("campaign/data/conversion.toml",),
    ),
)
