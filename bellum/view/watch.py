"""Watch mode: the computer plays both sides of a battle in its window, at a chosen speed,
pausable — the easiest way to learn the system (issue 16 item 6).

``WatchView`` wraps an engine's battle view whose AI plays both sides: the battle view's own
``on_update`` drives its AI with its accumulator (one action each ``ai_delay`` seconds of
frame time; no clock in the rules), and the wrapper only holds it (pause), sets the delay
from the speed, and plays one action on request.  It draws the battle view, then a bar at
the bottom: what is watched, the speed, the keys.

Keys: Space pause / go on, N one action (while paused), [ and ] slower / faster, Esc back;
arrows, + / − and Home (and the mouse's wheel and right-drag) reach the battle view to look
around.  The engine's part (``Watched``) says how to play one action, how many have been
played and whether the battle is over.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import arcade

from bellum.settings import SPEED_FACTOR

BAR_H = 30
BAR = (20, 16, 14)
GOLD = (222, 184, 96)
INK = (236, 222, 190)
SPEEDS = tuple(SPEED_FACTOR)
#: keys the battle view still gets while watching (looking around only)
LOOK_KEYS = frozenset(
    {
        arcade.key.LEFT,
        arcade.key.RIGHT,
        arcade.key.UP,
        arcade.key.DOWN,
        arcade.key.PLUS,
        arcade.key.EQUAL,
        arcade.key.MINUS,
        arcade.key.NUM_ADD,
        arcade.key.NUM_SUBTRACT,
        arcade.key.HOME,
    }
)


@dataclass(frozen=True)
class Watched:
    """The engine's part: ``step()`` plays one action of the side to act through the view,
    ``progress()`` counts the actions played so far, ``over()`` says the battle has ended."""

    step: Callable[[], object]
    progress: Callable[[], int]
    over: Callable[[], bool]


class WatchView(arcade.View):
    """``inner``: a battle view with ``ai_delay`` whose AI plays both sides; ``back``: Esc's view."""

    def __init__(
        self, inner: Any, watched: Watched, *, speed: str = "normal", back: arcade.View | None = None, title: str = ""
    ) -> None:
        super().__init__()
        self.inner = inner
        self.watched = watched
        self.back = back
        self.title = title
        self.base_delay = float(inner.ai_delay)
        self.paused = False
        self.speed = speed if speed in SPEED_FACTOR else "normal"
        self.set_speed(self.speed)
        self.bar = arcade.Text("", 0, 0, INK, 13, anchor_y="center")
        self.state_text = arcade.Text("", 0, 0, GOLD, 13, bold=True, anchor_x="right", anchor_y="center")

    def set_speed(self, speed: str) -> None:
        self.speed = speed
        self.inner.ai_delay = self.base_delay / SPEED_FACTOR[speed]

    def faster(self, step: int) -> None:
        k = SPEEDS.index(self.speed)
        self.set_speed(SPEEDS[max(0, min(len(SPEEDS) - 1, k + step))])

    # -- time -----------------------------------------------------------------------------
    def on_update(self, delta_time: float) -> None:
        if not self.paused:
            self.inner.on_update(delta_time)

    def step(self) -> None:
        """One action of the side to act (N), the battle held."""
        self.paused = True
        if not self.watched.over():
            self.watched.step()

    # -- drawing --------------------------------------------------------------------------
    def bar_text(self) -> str:
        return (
            f"Watching: the computer plays both sides  ·  speed {self.speed}  ·  "
            "Space pause  ·  N one action  ·  [ ] speed  ·  Esc back"
        )

    def status(self) -> str:
        n = self.watched.progress()
        if self.watched.over():
            return f"OVER · {n} actions"
        return f"{'PAUSED' if self.paused else 'PLAYING'} · {n} actions"

    def on_draw(self) -> None:
        self.inner.on_draw()
        w = self.window.width
        arcade.draw_lrbt_rectangle_filled(0, w, 0, BAR_H, BAR)
        arcade.draw_lrbt_rectangle_filled(0, w, BAR_H, BAR_H + 2, GOLD)
        self.bar.text = self.bar_text()
        self.bar.position = (12, BAR_H / 2)
        self.bar.draw()
        self.state_text.text = self.status()
        self.state_text.position = (w - 12, BAR_H / 2)
        self.state_text.draw()

    # -- input ----------------------------------------------------------------------------
    def on_key_press(self, symbol: int, modifiers: int) -> None:
        k = arcade.key
        if symbol == k.SPACE:
            self.paused = not self.paused
        elif symbol == k.N:
            self.step()
        elif symbol in (k.BRACKETLEFT, k.BRACKETRIGHT):
            self.faster(1 if symbol == k.BRACKETRIGHT else -1)
        elif symbol == k.ESCAPE:
            if self.back is not None:
                self.window.show_view(self.back)
        elif symbol in LOOK_KEYS:
            self.inner.on_key_press(symbol, modifiers)

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self.inner.on_mouse_motion(x, y, dx, dy)

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        self.inner.on_mouse_scroll(x, y, scroll_x, scroll_y)

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        if buttons & arcade.MOUSE_BUTTON_RIGHT:
            self.inner.on_mouse_drag(x, y, dx, dy, buttons, modifiers)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        if button == arcade.MOUSE_BUTTON_RIGHT:
            self.inner.on_mouse_press(x, y, button, modifiers)

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        if button == arcade.MOUSE_BUTTON_RIGHT:
            self.inner.on_mouse_release(x, y, button, modifiers)

    def on_resize(self, width: int, height: int) -> None:
        self.inner.on_resize(width, height)

    def on_show_view(self) -> None:
        self.inner.on_show_view()


def shot_view(args: Any) -> arcade.View:
    """``bellum shot watch [--scenario NAME]``: a tactical battle watched (Pharsalus by default),
    or a battleboard one when NAME is a battleboard scenario; some actions in, paused."""
    import importlib

    from bellum.paths import scenario_files

    name = getattr(args, "scenario", None) or "pharsalus"
    board = any(p.stem == name for p in scenario_files("battleboard"))
    module = importlib.import_module("battleboard.view.choose" if board else "tactical.view.choose")
    view: arcade.View = module.watch_shot_view(args)
    return view
