"""The campaign window's panels: which are folded and where they are docked, remembered in
the player's settings (issue 15 item 2), and the arithmetic of the layout.  No arcade here.

The settings are a small TOML file in the player's own folder
(``bellum.paths.user_folder() / "settings" / "campaign-window.toml"``), read through
``bellum.tomlio`` (a damaged file is set aside for the defaults, with one sentence) and
written atomically (``bellum.saves.write_atomic``).
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Literal

import tomli_w
from pydantic import BaseModel, ConfigDict, Field

from bellum.errors import InputError
from bellum.paths import user_folder
from bellum.saves import write_atomic
from bellum.tomlio import load_model

Dock = Literal["left", "right"]

#: the panels, in the order each column stacks them from the top
PANELS = ("orders", "force", "place", "war", "chronicle", "legend")
TITLES = {
    "orders": "Orders",
    "force": "The force",
    "place": "Here",
    "war": "The war",
    "chronicle": "Chronicle",
    "legend": "Map legend",
}


class PanelState(BaseModel):
    """One panel: folded to its title bar or open, and the side of the window it docks on."""

    model_config = ConfigDict(extra="forbid")
    collapsed: bool = False
    dock: Dock = "left"


def default_panels() -> dict[str, PanelState]:
    """The map first: the orders open on the left, the war folded and the chronicle open
    (a few lines) at the top right, away from Egypt and Syria; the map legend hidden (F1
    shows it too)."""
    return {
        "orders": PanelState(dock="left"),
        "force": PanelState(dock="left"),
        "place": PanelState(dock="left"),
        "war": PanelState(collapsed=True, dock="right"),
        "chronicle": PanelState(dock="right"),
        "legend": PanelState(collapsed=True, dock="left"),
    }


class WindowSettings(BaseModel):
    """What the campaign window remembers between games."""

    model_config = ConfigDict(extra="forbid")
    panels: dict[str, PanelState] = Field(default_factory=default_panels)

    def panel(self, name: str) -> PanelState:
        """A panel's state (its default when the file does not name it)."""
        if name not in self.panels:
            self.panels[name] = default_panels().get(name, PanelState())
        return self.panels[name]


def settings_path() -> Path:
    return user_folder() / "settings" / "campaign-window.toml"


def load_settings(path: Path | None = None) -> tuple[WindowSettings, str]:
    """The remembered settings and '' — or the defaults and the sentence saying why the file
    could not be read (it is then left alone, and overwritten at the next change)."""
    path = path or settings_path()
    if not path.is_file():
        return WindowSettings(), ""
    try:
        return load_model(WindowSettings, path), ""
    except InputError as no:
        return WindowSettings(), f"The window's settings were not read ({no}); the defaults are used."


def save_settings(settings: WindowSettings, path: Path | None = None) -> Path:
    """Write the settings atomically (a crash mid-write leaves the previous file)."""
    path = path or settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, tomli_w.dumps(settings.model_dump()).encode("utf-8"))
    return path


Rect = tuple[float, float, float, float]


def covered_area(rects: list[Rect], width: float, height: float) -> float:
    """The area of the window the rectangles (left, bottom, right, top) cover together,
    overlaps counted once (a sweep over the distinct x edges)."""
    boxes = [(max(0.0, a), max(0.0, b), min(width, c), min(height, d)) for a, b, c, d in rects if c > a and d > b]
    xs = sorted({x for a, _, c, _ in boxes for x in (a, c)})
    total = 0.0
    for x0, x1 in itertools.pairwise(xs):
        spans = sorted((b, d) for a, b, c, d in boxes if a <= x0 and c >= x1)
        covered, top = 0.0, -1.0
        for b, d in spans:
            if d <= top:
                continue
            covered += d - max(b, top)
            top = d
        total += covered * (x1 - x0)
    return total


def map_share(rects: list[Rect], width: float, height: float) -> float:
    """The share of the window left to the map: what no panel, bar or button covers."""
    return 1.0 - covered_area(rects, width, height) / (width * height)
