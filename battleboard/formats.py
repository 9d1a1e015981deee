"""The battleboard's data formats (``bellum.formats``): scenarios and the tables of
``battleboard/data/``."""

from __future__ import annotations

from pathlib import Path

from battleboard import tables as bt
from battleboard.scenario import Scenario, load_scenario
from bellum.formats import Context, Format, model_check


def _scenario(path: Path, ctx: Context) -> None:
    load_scenario(str(path))


FORMATS: tuple[Format, ...] = (
    Format(
        "battleboard-scenario",
        "Bellum Civile battleboard scenario",
        Scenario,
        _scenario,
        ("scenarios/battleboard/*.toml",),
        frozenset({"name", "battle", "units"}),
    ),
    *(
        Format(
            f"battleboard-{name}",
            f"battleboard table: {title}",
            model,
            model_check(model),
            (f"battleboard/data/{name}.toml",),
        )
        for name, title, model in (
            ("boards", "boards and square features", bt.Boards),
            ("units", "unit kinds", bt.Units),
            ("combat", "the combat table", bt.Combat),
            ("command", "the command check", bt.Command),
            ("battle", "panic, flight, pursuit", bt.Battle),
        )
    ),
)
