"""Battleboard scenarios (``scenarios/battleboard/*.toml``): a position in the case notation
(docs/rules/battleboard.md §17) plus a name, a description, the sides' names and options.
Units without squares are set up by the players (§4.2); at sea, ground units and leaders
without fleets are allocated first (004 Setup).  Bad files: one InputError sentence."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from battleboard.model import State
from battleboard.position import SHARED_LEADER_FIELDS, SHARED_UNIT_FIELDS, Position, Side, build_state
from bellum.engagement import SIDES, Engagement, ForceLeader, ForceUnit, SideForce
from bellum.errors import InputError
from bellum.paths import resolve_scenario
from bellum.tomlio import load_model


class SideInfo(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=60)


class Scenario(Position):
    name: str = Field(min_length=1, max_length=120)
    description: str = ""
    #: a short historical note in the project's own words, shown by the scenario picker
    note: str = Field("", max_length=600)
    options: list[str] = Field(default_factory=list)
    sides: dict[Side, SideInfo] = Field(default_factory=dict)


def scenario_path(name: str) -> Path:
    return resolve_scenario(name, "battleboard")


def load_scenario(name: str, options: Sequence[str] | None = None) -> tuple[Scenario, State]:
    """The scenario and its starting battle; ``options`` (a player's choice) replace its own."""
    path = scenario_path(name)
    sc = load_model(Scenario, path)
    if options is not None:
        sc = sc.model_copy(update={"options": list(options)})
    return sc, build_state(sc, path, sc.options)


def engagement_of(sc: Scenario, name: str) -> Engagement:
    """The engagement a stand-alone scenario amounts to (the inverse of
    ``resolve.state_from_engagement``): what the after-action report and ``outcome`` read.
    The sides are named from ``[sides]``; a scenario the contract refuses is one
    ``InputError`` sentence."""
    b = sc.battle
    kind = b.kind
    try:
        return Engagement(
            id=re.sub(r"[^a-z0-9]+", "-", sc.name.lower()).strip("-")[:80] or "battle",
            where=sc.name[:80],
            kind=kind,
            terrain=b.terrain or sc.board.terrain or ("sea" if kind == "naval" else "field"),
            trigger=b.trigger or ("mutual" if kind == "naval" else "battle"),
            active=b.active,
            superior=b.superior,
            sides={s: SideForce(faction=side_name(sc, s), battle_stratagems=b.stratagems.get(s, 0)) for s in SIDES},
            units=[ForceUnit(**u.model_dump(include=SHARED_UNIT_FIELDS)) for u in sc.units],
            leaders=[ForceLeader(**ld.model_dump(include=SHARED_LEADER_FIELDS)) for ld in sc.leaders],
        )
    except ValidationError as exc:
        problem = exc.errors()[0].get("msg", "is not a battle the campaign could hand over")
        raise InputError(name, "battle", f"cannot be reported on ({problem})") from None


def side_name(sc: Scenario, side: str) -> str:
    info = sc.sides.get(side)  # type: ignore[call-overload]
    return info.name if info is not None else f"side {side}"
