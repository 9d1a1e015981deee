"""The battleboard's optional rules as the options screen offers them (``CHOICES``;
docs/rules/battleboard.md §16).  A chosen list replaces the scenario's ``options``."""

from __future__ import annotations

from bellum.settings import Choice, toggle

CHOICES: tuple[Choice, ...] = (
    toggle(
        "light-l-as-b",
        "Light units: L counts as B",
        "004 house note",
        "An L result counts as B against auxiliaries, light cavalry and mobs, unless heavy cavalry attacks.",
    ),
)
