"""Battleboard scenarios (``scenarios/battleboard/*.toml``): a position in the case notation
(docs/rules/battleboard.md §17) plus a name, a description, the sides' names and options.
Units without squares are set up by the players (§4.2); at sea, ground units and leaders
without fleets are allocated first (004 Setup).  Bad files: one InputError sentence."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from battleboard.model import State
from battleboard.position import Position, Side, build_state
from bellum.errors import InputError
from bellum.paths import resolve_scenario
from bellum.tomlio import load_model


class SideInfo(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=60)


class Scenario(Position):
    name: str = Field(min_length=1, max_length=120)
    description: str = ""
    options: list[str] = Field(default_factory=list)
    sides: dict[Side, SideInfo] = Field(default_factory=dict)


def scenario_path(name: str) -> Path:
    p = resolve_scenario(name, "battleboard")
    if not p.exists():
        raise InputError(name, "", "no such battleboard scenario (a path, or a name under scenarios/battleboard/)")
    return p


def load_scenario(name: str) -> tuple[Scenario, State]:
    """The scenario and its starting battle."""
    path = scenario_path(name)
    sc = load_model(Scenario, path)
    return sc, build_state(sc, path, sc.options)


def side_name(sc: Scenario, side: str) -> str:
    info = sc.sides.get(side)  # type: ignore[call-overload]
    return info.name if info is not None else f"side {side}"
