"""The game window and the main menu's entries.

Each engine that has a window provides ``<engine>.view.entry`` with ``LABEL``,
``BLURB`` and ``launch(window, menu)``; the menu lists only those that exist.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from typing import Any

import arcade

ENGINE_ENTRIES = ("campaign.view.entry", "battleboard.view.entry", "tactical.view.entry", "campaign.view.pbem_entry")
#: the entries after the engines' (before Quit): the same shape, ``LABEL``, ``BLURB``, ``launch``
SETTINGS_ENTRIES = ("bellum.view.options",)

WIDTH, HEIGHT = 1280, 800


@dataclass(frozen=True)
class MenuEntry:
    label: str
    blurb: str
    module: str | None  # None: the Quit entry


def available_entries() -> list[MenuEntry]:
    entries: list[MenuEntry] = []
    for name in (*ENGINE_ENTRIES, *SETTINGS_ENTRIES):
        try:
            found = importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:
            found = False
        if found:
            module = importlib.import_module(name)
            entries.append(MenuEntry(module.LABEL, module.BLURB, name))
    entries.append(MenuEntry("Quit", "Leave the game.", None))
    return entries


def launch(entry: MenuEntry, window: arcade.Window, menu: Any) -> None:
    if entry.module is None:
        window.close()
        return
    importlib.import_module(entry.module).launch(window, menu)
