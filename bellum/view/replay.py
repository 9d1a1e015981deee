"""The replay window (``bellum replay FILE``): a game stepped action by action or turn by turn.

The window reads a ``bellum.replay.Replay`` and draws: the top bar (the game, the turn and
the step), the list of turns on the left (click one to jump to its end), the step in the
middle (what was done, what came of it, the dice rolled), where the game stands on the right
(``<engine>`` summary lines, or the battleboard's squares for a battle), and the buttons.

Keys: → / ← one action, ↑ / ↓ (or Page Up / Page Down) one turn, Home / End, a turn number
then Enter to jump to it, B to open the battle fought in this step, Esc back (from a battle
to the game, from the game to the menu or out).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import arcade

from bellum.errors import BellumError
from bellum.replay import Frame, Replay

RGB = tuple[int, int, int]
BG = (24, 20, 18)
PANEL = (44, 36, 30)
INK = (236, 222, 190)
DIM = (170, 150, 130)
GOLD = (222, 184, 96)
WARN = (250, 140, 120)
SIDE_COLORS = {"A": (176, 36, 40), "B": (112, 48, 128)}
TOP = 44
LEFT_W = 340
RIGHT_W = 330
BUTTON_H = 34
TURN_ROW = 22


@dataclass
class Button:
    label: str
    left: float
    bottom: float
    width: float
    action: Callable[[], Any]
    enabled: bool = True

    def hit(self, x: float, y: float) -> bool:
        return self.enabled and self.left <= x <= self.left + self.width and self.bottom <= y <= self.bottom + BUTTON_H


class ReplayControls:
    """Stepping a replay with keys and buttons (shared by this window and the campaign's map
    replay, ``campaign.view.replay``).  ``parent`` is the replay view a battle was opened from
    (Esc returns there), ``menu`` the view Esc returns to from the game."""

    replay: Replay
    parent: arcade.View | None
    menu: arcade.View | None
    typed: str
    message: str
    window: arcade.Window

    def step(self, n: int) -> None:
        self.message = "" if self.replay.step(n) else "That is as far as the game goes."

    def turn_step(self, n: int) -> None:
        self.message = "" if self.replay.turn_step(n) else "That is as far as the game goes."

    def jump(self, turn: int) -> None:
        if not self.replay.jump(turn) and not 0 <= turn < len(self.replay.turns):
            self.message = f"There is no turn {turn}: the turns run from 0 to {len(self.replay.turns) - 1}."
        else:
            self.message = ""

    def open_battle(self) -> arcade.View | None:
        """Open the battle fought in this step (its own replay window)."""
        try:
            battle = self.replay.open_battle()
        except BellumError as no:
            self.message = str(no)
            return None
        view = replay_view(battle, parent=self, menu=self.menu)  # type: ignore[arg-type]
        self.window.show_view(view)
        return view

    def back(self) -> None:
        if self.parent is not None:
            self.window.show_view(self.parent)
        elif self.menu is not None:
            self.window.show_view(self.menu)
        else:
            self.window.close()

    def replay_key(self, symbol: int) -> bool:
        """A replay key (True when it was one)."""
        k = arcade.key
        if symbol == k.RIGHT:
            self.step(1)
        elif symbol == k.LEFT:
            self.step(-1)
        elif symbol in (k.DOWN, k.PAGEDOWN):
            self.turn_step(1)
        elif symbol in (k.UP, k.PAGEUP):
            self.turn_step(-1)
        elif symbol == k.HOME:
            self.replay.index = 0
        elif symbol == k.END:
            self.replay.index = len(self.replay.frames) - 1
        elif k.KEY_0 <= symbol <= k.KEY_9:
            self.typed = (self.typed + chr(symbol))[-5:]
        elif symbol == k.BACKSPACE:
            self.typed = self.typed[:-1]
        elif symbol in (k.ENTER, k.RETURN) and self.typed:
            self.jump(int(self.typed))
            self.typed = ""
        elif symbol == k.B:
            self.open_battle()
        elif symbol == k.ESCAPE:
            self.back()
        else:
            return False
        return True


class ReplayView(ReplayControls, arcade.View):
    """One replay, drawn as text panels (and the battleboard's squares for a battle)."""

    def __init__(self, replay: Replay, parent: arcade.View | None = None, menu: arcade.View | None = None) -> None:
        super().__init__()
        self.replay = replay
        self.parent = parent
        self.menu = menu
        self.typed = ""
        self.message = ""
        self.buttons: list[Button] = []
        self.texts: list[arcade.Text] = []
        self.shapes: list[tuple[str, tuple[float, float, float, float], RGB]] = []
        self.turn_rows: list[tuple[float, float, int]] = []
        self._key: tuple[Any, ...] | None = None

    # -- input --------------------------------------------------------
    def on_key_press(self, symbol: int, modifiers: int) -> None:
        self.replay_key(symbol)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        for b in self.buttons:
            if b.hit(x, y):
                b.action()
                return
        for bottom, top, turn in self.turn_rows:
            if LEFT_W > x > 0 and bottom <= y <= top:
                self.jump(turn)
                return

    # -- drawing ------------------------------------------------------
    def _text(self, text: str, x: float, y: float, color: RGB = INK, size: float = 11, **kw: Any) -> float:
        t = arcade.Text(text, x, y, color, size, font_name=("DejaVu Sans", "Arial"), **kw)
        self.texts.append(t)
        return y - size * 1.6

    def _wrapped(self, text: str, x: float, y: float, width: float, color: RGB = INK, size: float = 11) -> float:
        chars = max(20, int(width / (size * 0.74)))
        for part in textwrap.wrap(text, chars) or [""]:
            y = self._text(part, x, y, color, size)
        return y

    def _rect(self, kind: str, l: float, r: float, b: float, t: float, color: RGB) -> None:
        self.shapes.append((kind, (l, r, b, t), color))

    def _button(
        self, label: str, x: float, y: float, w: float, action: Callable[[], Any], enabled: bool = True
    ) -> None:
        self.buttons.append(Button(label, x, y, w, action, enabled))
        self._rect("fill", x, x + w, y, y + BUTTON_H, (196, 178, 146) if enabled else (90, 80, 70))
        self._rect("line", x, x + w, y, y + BUTTON_H, GOLD)
        self._text(label, x + w / 2, y + 11, (48, 30, 24) if enabled else DIM, 11, anchor_x="center", bold=True)

    def _build(self) -> None:
        r = self.replay
        w, h = self.window.width, self.window.height
        self.texts, self.shapes, self.buttons, self.turn_rows = [], [], [], []
        f = r.frame
        # the top bar
        self._rect("fill", 0, w, h - TOP, h, (52, 18, 30))
        self._text(r.title, 12, h - 28, GOLD, 14, bold=True)
        where = f"{r.turns[f.turn]}  ·  step {r.index} of {len(r.frames) - 1}"
        self._text(where, w - 12, h - 28, INK, 11, anchor_x="right")
        # the turns, on the left: a window of rows around the current one
        self._rect("fill", 0, LEFT_W, 0, h - TOP, PANEL)
        y = h - TOP - 24
        y = self._text(f"{len(r.turns)} turns: click one, or type", 10, y, DIM, 9)
        y = self._text("its number and press Enter", 10, y, DIM, 9) - 8
        rows = int((y - 140) // TURN_ROW)
        first = max(0, min(f.turn - rows // 2, len(r.turns) - rows))
        for t in range(first, min(len(r.turns), first + rows)):
            if t == f.turn:
                self._rect("fill", 4, LEFT_W - 4, y - 6, y + TURN_ROW - 8, (92, 70, 40))
            self.turn_rows.append((y - 6, y + TURN_ROW - 8, t))
            label = r.turns[t]
            if len(label) > 50:
                label = label[:49] + "…"
            self._text(label, 10, y, GOLD if t == f.turn else INK, 9.5)
            y -= TURN_ROW
        if self.typed:
            self._text(f"Jump to turn {self.typed}…", 10, 116, GOLD, 11, bold=True)
        # the buttons
        half = (LEFT_W - 30) / 2
        self._button("◀ Action", 10, 60, half, lambda: self.step(-1), r.index > 0)
        self._button("Action ▶", 20 + half, 60, half, lambda: self.step(1), r.index < len(r.frames) - 1)
        self._button("◀ Turn", 10, 18, half, lambda: self.turn_step(-1), r.index > 0)
        self._button("Turn ▶", 20 + half, 18, half, lambda: self.turn_step(1), r.index < len(r.frames) - 1)
        # the step, in the middle
        x0, x1 = LEFT_W + 16, w - RIGHT_W - 16
        y = h - TOP - 28
        y = self._wrapped(f.title, x0, y, x1 - x0, GOLD, 13)
        y -= 6
        lines = f.lines or ["(nothing to tell)"]
        for line in lines[:18]:
            y = self._wrapped(line, x0, y, x1 - x0, INK, 10.5)
        if len(lines) > 18:
            y = self._text(f"…and {len(lines) - 18} more.", x0, y, DIM, 10)
        y -= 8
        y = self._text("Dice rolled" if f.dice else "No dice rolled", x0, y, GOLD, 11, bold=True)
        for d in f.dice[:12]:
            y = self._text(d, x0 + 8, y, INK, 10)
        if len(f.dice) > 12:
            y = self._text(f"…and {len(f.dice) - 12} more.", x0 + 8, y, DIM, 10)
        if f.battles:
            y -= 6
            names = ", ".join(name for name, _ in f.battles)
            self._button(
                f"Open the battle (B): {names}"[:60], x0, max(60, y - BUTTON_H), min(460, x1 - x0), self.open_battle
            )
        if self.message:
            self._text(self.message, x0, 24, WARN, 11)
        keys = "→ ← action · ↑ ↓ turn · Home End · B battle · Esc " + ("back to the game" if self.parent else "quit")
        self._text(keys, x0, 6, DIM, 9)
        # where the game stands, on the right
        self._rect("fill", w - RIGHT_W, w, 0, h - TOP, PANEL)
        self._standing(f, w - RIGHT_W + 12, h - TOP - 24, RIGHT_W - 24)

    def _standing(self, f: Frame, x: float, y: float, width: float) -> None:
        y = self._text("Where the game stands", x, y, GOLD, 12, bold=True)
        board = getattr(f.state, "cfg", None)
        if board is not None and hasattr(f.state, "grid"):
            self._board(f.state, x, y - 8, width)
            return
        for line in summary(f.state):
            y = self._wrapped(line, x, y, width, INK, 9.5)

    def _board(self, s: Any, x: float, top: float, width: float) -> None:
        """The battleboard's squares: each unit as a chip in its side's colour with its strength."""
        b = s.cfg.board
        cell = min(width / b.columns, 300 / b.rows)
        for sq in range(b.columns * b.rows):
            r, c = divmod(sq, b.columns)
            left, bottom = x + c * cell, top - (b.rows - r) * cell
            self._rect("line", left, left + cell, bottom, bottom + cell, (90, 80, 70))
            uid = s.grid.get(sq)
            if uid is not None:
                u = s.units[uid]
                self._rect(
                    "fill", left + 2, left + cell - 2, bottom + 2, bottom + cell - 2, SIDE_COLORS.get(u.side, DIM)
                )
                self._text(str(u.strength), left + cell / 2, bottom + cell / 2 - 5, INK, 9, anchor_x="center")
        y = top - b.rows * cell - 22
        for side in ("A", "B"):
            units = [u for u in s.units.values() if u.owner == side]
            left = sum(u.strength for u in units if u.status in ("active", "reserve"))
            y = self._text(
                f"Side {side}: {left} SP on the field, {len(units)} units", x, y, SIDE_COLORS[side], 10, bold=True
            )
        if s.phase == "over":
            self._text(f"Over: {s.end_reason}", x, y, GOLD, 10)

    def on_draw(self) -> None:
        key = (self.replay.index, self.typed, self.message, self.window.width, self.window.height)
        if key != self._key:
            self._build()
            self._key = key
        self.clear(color=BG)
        for kind, (l, r, b, t), color in self.shapes:
            if kind == "fill":
                arcade.draw_lrbt_rectangle_filled(l, r, b, t, color)
            else:
                arcade.draw_lrbt_rectangle_outline(l, r, b, t, color, 1)
        for text in self.texts:
            text.draw()


def summary(state: Any) -> list[str]:
    """Where a game stands, in lines: the engine's own ``replay_summary``, else nothing."""
    import importlib

    module = type(state).__module__.split(".", 1)[0]
    try:
        found = importlib.import_module(f"{module}.replay")
    except ModuleNotFoundError:
        return []
    lines: list[str] = found.ADAPTER.summary(state)
    return lines


def replay_view(replay: Replay, parent: arcade.View | None = None, menu: arcade.View | None = None) -> arcade.View:
    """The window for ``replay``: the engine's own (``<engine>.view.replay.view``: the campaign
    on its map), else the text panels."""
    import importlib

    try:
        module = importlib.import_module(f"{replay.engine}.view.replay")
    except ModuleNotFoundError:
        return ReplayView(replay, parent=parent, menu=menu)
    view: arcade.View = module.view(replay, parent=parent, menu=menu)
    return view


def run_replay(replay: Replay) -> int:
    window = arcade.Window(1280, 800, f"Bellum Civile — replay: {replay.title}", resizable=True, antialiasing=False)
    window.show_view(replay_view(replay))
    arcade.run()
    return 0
