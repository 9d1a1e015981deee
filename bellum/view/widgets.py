"""Widgets the engines' windows share (no drawing here: each window draws its own)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass
class Button:
    """A HUD button: a label in a box at (``left``, ``bottom``).  Pressing it sends ``action``
    (an engine's action) or calls ``run``; ``enabled`` False draws it greyed and ignores clicks."""

    key: str
    label: str
    left: float
    bottom: float
    width: float
    height: float
    action: Any = None
    run: Callable[[], Any] | None = None
    enabled: bool = True
    #: what the button does (or why it is disabled), shown as its tooltip
    tip: str = ""

    def hit(self, x: float, y: float) -> bool:
        return self.left <= x <= self.left + self.width and self.bottom <= y <= self.bottom + self.height
