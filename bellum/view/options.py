"""The options screen: every optional rule of the battle engines as a toggle with its source
and one line on what it changes, the tactical ruleset, the computer's strength and the speed
of its moves.  Reached from the main menu (all engines) and from the scenario picker before a
battle (that battle's engine).  Every change is written at once to the player's settings file
(``bellum.settings``); the picker opens each battle with them, and its save keeps them.

Keys: ↑ ↓ choose a line, ← → (or Space / Enter, or a click) change it, Esc back.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from pathlib import Path

import arcade

from bellum.errors import InputError
from bellum.settings import AI_CHOICE, SPEED_CHOICE, Choice, Settings, load_settings, save_settings, settings_path

LABEL = "Options"
BLURB = "The optional rules of the battles, the ruleset, the computer's strength and speed."

#: the engines whose rules the screen offers, with their headings (``<engine>.options.CHOICES``)
ENGINES: tuple[tuple[str, str], ...] = (
    ("tactical", "Tactical battles (hexes)"),
    ("battleboard", "Battleboard (squares)"),
)
PLAY = "play"

BG = (24, 20, 18)
GOLD = (222, 184, 96)
INK = (236, 222, 190)
MUTED = (176, 160, 136)
ROW_SEL = (84, 66, 52)
VALUE_BG = (60, 48, 40)
ON = (120, 190, 110)
ERROR = (250, 140, 120)

LEFT, VALUE_W, ROW_H, HEAD_H = 48.0, 210.0, 50.0, 30.0


@dataclass(frozen=True)
class Row:
    """One line of the screen: an engine's choice (``engine`` its name) or a play setting."""

    engine: str
    choice: Choice


def engine_choices(engine: str) -> tuple[Choice, ...]:
    """``<engine>.options.CHOICES``, or nothing for an engine that is not built."""
    name = f"{engine}.options"
    try:
        if importlib.util.find_spec(name) is None:
            return ()
    except ModuleNotFoundError:
        return ()
    choices: tuple[Choice, ...] = importlib.import_module(name).CHOICES
    return choices


class OptionsView(arcade.View):
    """``back``: the view Esc returns to; ``engines``: whose rules to show (default all);
    ``path``: the settings file (default the player's)."""

    def __init__(
        self,
        back: arcade.View | None = None,
        engines: tuple[str, ...] | None = None,
        *,
        title: str = "Options",
        path: Path | None = None,
    ) -> None:
        super().__init__()
        self.back = back
        self.path = path
        self.message = ""
        #: the settings file could not be read: it is kept as ``.bak`` before the first change rewrites it
        self.unread = False
        try:
            self.settings = load_settings(self.path)
        except InputError as bad:
            self.settings = Settings()
            self.unread = True
            self.message = f"{bad}  (the defaults are shown; a change rewrites the file and keeps it as .bak)"
        wanted = engines or tuple(e for e, _ in ENGINES)
        self.sections: list[tuple[str, list[Row]]] = []
        for engine, heading in ENGINES:
            if engine in wanted:
                rows = [Row(engine, c) for c in engine_choices(engine)]
                if rows:
                    self.sections.append((heading, rows))
        self.sections.append(("Playing against the computer", [Row(PLAY, AI_CHOICE), Row(PLAY, SPEED_CHOICE)]))
        self.rows = [r for _, rows in self.sections for r in rows]
        self.selected = 0
        self.head = arcade.Text(title, 0, 0, GOLD, 26, bold=True)
        self.keys = arcade.Text(
            "↑ ↓ choose  ·  ← → or Space change  ·  Esc back  ·  saved as you change them", 0, 0, MUTED, 13
        )
        self.headings = [arcade.Text(h, 0, 0, GOLD, 15, bold=True) for h, _ in self.sections]
        self.labels = [arcade.Text(r.choice.label, 0, 0, INK, 15, bold=True) for r in self.rows]
        self.lines = [arcade.Text(_line(r.choice), 0, 0, MUTED, 11) for r in self.rows]
        self.values = [arcade.Text("", 0, 0, INK, 14, anchor_x="center") for _ in self.rows]
        self.err = arcade.Text("", 0, 0, ERROR, 12)
        self.boxes: list[tuple[float, float, float, float]] = []

    # -- the model ------------------------------------------------------------------------
    def chosen(self, row: Row) -> list[str]:
        if row.engine == PLAY:
            return [str(getattr(self.settings, row.choice.key))]
        return self.settings.options(row.engine)

    def value_index(self, i: int) -> int:
        row = self.rows[i]
        return row.choice.current(self.chosen(row))

    def value_text(self, i: int) -> str:
        return self.rows[i].choice.values[self.value_index(i)][1]

    def change(self, i: int, step: int = 1) -> None:
        """Set line ``i`` to its next (or previous) value and write the settings file."""
        row = self.rows[i]
        index = (self.value_index(i) + step) % len(row.choice.values)
        update: dict[str, object]
        if row.engine == PLAY:
            update = {row.choice.key: row.choice.values[index][0]}
        else:
            update = {row.engine: row.choice.pick(self.chosen(row), index)}
        self.settings = self.settings.model_copy(update=update)
        try:
            kept = self._keep_unread()
            where = save_settings(self.settings, self.path)
            self.message = f"Saved in {where}."
            if kept is not None:
                self.message += f" The file that could not be read is kept as {kept.name}."
        except InputError as bad:
            self.message = str(bad)

    def _keep_unread(self) -> Path | None:
        """Before the first rewrite of a settings file that could not be read: a copy of it
        beside it (``settings.toml.bak``), so a hand-edited file with one mistake is not lost."""
        if not self.unread:
            return None
        from bellum.saves import backup_path, write_atomic

        p = self.path or settings_path()
        try:
            if not p.is_file():
                return None
            kept = backup_path(p)
            write_atomic(kept, p.read_bytes())
        except OSError as exc:
            raise InputError(p, "", f"could not be kept as .bak before rewriting it ({exc.strerror or exc})") from None
        self.unread = False
        return kept

    # -- layout and drawing ---------------------------------------------------------------
    def layout(self) -> None:
        """Place every text; ``boxes[i]``: line ``i``'s (left, bottom, right, top)."""
        w, h = self.window.width, self.window.height
        self.head.position = (LEFT, h - 48)
        self.keys.position = (LEFT, h - 74)
        y = h - 96
        self.boxes = []
        i = 0
        for k, (_, rows) in enumerate(self.sections):
            y -= HEAD_H
            self.headings[k].position = (LEFT, y + 8)
            for _ in rows:
                bottom = y - ROW_H
                self.boxes.append((LEFT - 12, bottom, w - LEFT + 12, y))
                self.labels[i].position = (LEFT, bottom + 26)
                self.lines[i].position = (LEFT, bottom + 8)
                self.values[i].position = (w - LEFT - VALUE_W / 2, bottom + 17)
                i += 1
                y = bottom
        self.err.position = (LEFT, 14)

    def on_draw(self) -> None:
        self.clear(color=BG)
        self.layout()
        w = self.window.width
        self.head.draw()
        self.keys.draw()
        for t in self.headings:
            t.draw()
        for i, (left, bottom, right, top) in enumerate(self.boxes):
            if i == self.selected:
                arcade.draw_lrbt_rectangle_filled(left, right, bottom + 1, top - 1, ROW_SEL)
            vl = w - LEFT - VALUE_W
            on = self.value_index(i) != 0
            arcade.draw_lrbt_rectangle_filled(vl, vl + VALUE_W, bottom + 10, bottom + 40, VALUE_BG)
            if on and self.rows[i].engine != PLAY:
                arcade.draw_lrbt_rectangle_outline(vl, vl + VALUE_W, bottom + 10, bottom + 40, ON, 2)
            self.values[i].text = f"◀  {self.value_text(i)}  ▶"
            self.labels[i].draw()
            self.lines[i].draw()
            self.values[i].draw()
        self.err.text = self.message
        self.err.draw()

    # -- input ----------------------------------------------------------------------------
    def on_key_press(self, symbol: int, modifiers: int) -> None:
        k = arcade.key
        if symbol in (k.ESCAPE, k.BACKSPACE):
            self.leave()
        elif symbol in (k.DOWN, k.UP):
            self.selected = (self.selected + (1 if symbol == k.DOWN else -1)) % len(self.rows)
        elif symbol in (k.RIGHT, k.SPACE, k.ENTER, k.RETURN):
            self.change(self.selected, 1)
        elif symbol == k.LEFT:
            self.change(self.selected, -1)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        if not self.boxes:
            self.layout()
        for i, (left, bottom, right, top) in enumerate(self.boxes):
            if left <= x <= right and bottom <= y <= top:
                self.selected = i
                self.change(i, -1 if button == arcade.MOUSE_BUTTON_RIGHT else 1)
                return

    def leave(self) -> None:
        if self.back is not None:
            self.window.show_view(self.back)
        else:
            self.window.close()


def _line(choice: Choice) -> str:
    return f"{choice.source}  —  {choice.line}" if choice.source else choice.line


def shot_view(args: object) -> arcade.View:
    """``bellum shot options``: the screen as the main menu opens it."""
    from bellum.view.menu import MenuView

    return OptionsView(MenuView())


def launch(window: arcade.Window, menu_view: arcade.View) -> None:
    """The main menu's entry."""
    window.show_view(OptionsView(menu_view))
