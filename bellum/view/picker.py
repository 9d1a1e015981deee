"""The lists the menu's entries open.

``ScenarioPicker``: a plain list (the campaign's choices): ↑ ↓ and Enter (against the AI) or H
(hotseat), or a click; Esc goes back to the menu.  A subclass says how to open the chosen
entry (``opener(path, hotseat)``, which raises ``InputError`` for a bad file).

``BattlePicker``: the battles of an engine (issue 16 item 3) — each with its historical note,
its sides and their commanders, the rules it is fought under (the options screen's choices,
reachable from here with O) and which side the person plays: side A, side B, both (hotseat)
or neither (watch the computer play both, ``bellum.view.watch``).  The engine's part is a
``BattleSource`` (``<engine>.view.choose``)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import arcade

from bellum.errors import InputError
from bellum.settings import Settings, load_settings

GOLD = (222, 184, 96)
INK = (236, 222, 190)
ERROR = (250, 140, 120)


class ScenarioPicker(arcade.View):
    def __init__(
        self, menu: arcade.View, paths: list[str], names: list[str], opener: Callable[[str, bool], arcade.View]
    ) -> None:
        super().__init__()
        self.opener = opener
        self.menu = menu
        self.paths = paths
        self.selected = 0
        self.error = ""
        self.texts = [arcade.Text(n, 0, 0, INK, 18, anchor_x="center") for n in names]
        self.head = arcade.Text(
            "Choose a battle  (Enter: against the AI · H: hotseat · Esc: back)", 0, 0, GOLD, 20, anchor_x="center"
        )
        self.err = arcade.Text("", 0, 0, ERROR, 12, anchor_x="center")

    def row_y(self, i: int) -> float:
        return float(self.window.height * 0.7 - i * 44)

    def on_draw(self) -> None:
        self.clear(color=(24, 20, 18))
        cx = self.window.width / 2
        self.head.position = (cx, self.window.height * 0.82)
        self.head.draw()
        for i, t in enumerate(self.texts):
            y = self.row_y(i)
            if i == self.selected:
                arcade.draw_lrbt_rectangle_filled(cx - 260, cx + 260, y - 12, y + 28, (84, 66, 52))
            t.position = (cx, y)
            t.draw()
        self.err.text = self.error
        self.err.position = (cx, 40)
        self.err.draw()

    def open(self, hotseat: bool = False) -> None:
        if not self.paths:
            return
        try:
            view = self.opener(self.paths[self.selected], hotseat)
        except InputError as bad:
            self.error = str(bad)
            return
        self.window.show_view(view)

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        if symbol == arcade.key.ESCAPE:
            self.window.show_view(self.menu)
        elif symbol == arcade.key.DOWN and self.paths:
            self.selected = (self.selected + 1) % len(self.paths)
        elif symbol == arcade.key.UP and self.paths:
            self.selected = (self.selected - 1) % len(self.paths)
        elif symbol in (arcade.key.ENTER, arcade.key.RETURN):
            self.open()
        elif symbol == arcade.key.H:
            self.open(hotseat=True)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        for i in range(len(self.paths)):
            if self.row_y(i) - 12 <= y <= self.row_y(i) + 28:
                self.selected = i
                self.open()


# -- the battle picker (issue 16 item 3) -------------------------------------------------------
#: who the person plays: a side, both (hotseat), or neither (watch the computer play both)
SEATS = ("A", "B", "hotseat", "watch")
MUTED = (176, 160, 136)
PANEL = (36, 30, 26)
ROW_SEL = (84, 66, 52)
BUTTON = (70, 56, 44)
LIST_L, LIST_R, PANEL_L = 36.0, 392.0, 420.0


@dataclass(frozen=True)
class SideInfo:
    side: str
    name: str
    #: the side's leaders, its overall commander first
    commanders: tuple[str, ...]


@dataclass(frozen=True)
class BattleInfo:
    """What the picker shows of one scenario (an engine's ``BattleSource.battles``)."""

    path: str
    title: str
    year: str = ""
    summary: str = ""
    note: str = ""
    sides: tuple[SideInfo, ...] = ()
    #: the ruleset the scenario names ("" for an engine with one set of rules)
    ruleset: str = ""
    rules_text: str = ""
    #: the scenario could not be read: the sentence why (it cannot be started)
    error: str = ""


class BattleSource(Protocol):
    """An engine's side of the picker (``<engine>.view.choose``)."""

    engine: str
    heading: str

    def battles(self) -> list[BattleInfo]: ...

    def open(self, info: BattleInfo, seat: str, settings: Settings, back: arcade.View, seed: int = 1) -> arcade.View:
        """The battle's view with ``seat`` (``SEATS``), under the settings' options; ``InputError``
        for a scenario that cannot be played so."""
        ...


def option_label(engine: str, option: str) -> str:
    """How the options screen names ``option`` (its line's label, and the value if it has several)."""
    from bellum.view.options import engine_choices

    for choice in engine_choices(engine):
        for written, shown in choice.values:
            if written == option:
                return choice.label if len(choice.values) == 2 else f"{choice.label} ({shown})"
    return option


def fit(text: arcade.Text, width: float, size: int) -> None:
    """Set ``text``'s font size to ``size``, or smaller (down to 9 points) until it fits ``width``."""
    text.font_size = size
    while text.content_width > width and text.font_size > 9:
        text.font_size -= 1


def commanders_line(side: SideInfo, limit: int = 6) -> str:
    names = list(side.commanders[:limit]) + (["…"] if len(side.commanders) > limit else [])
    return f"{side.name} (side {side.side})" + (f" — commanders: {', '.join(names)}" if names else "")


class BattlePicker(arcade.View):
    """Every battle of an engine, with its historical note, sides and commanders, the rules it
    is fought under and which side the person plays.  ↑ ↓ battle, ← → (or 1–4) seat, O options,
    Enter start, Esc back; or click.  ``settings_path``: the settings file (tests)."""

    def __init__(self, menu: arcade.View, source: BattleSource, *, settings_path: Path | None = None) -> None:
        super().__init__()
        self.menu = menu
        self.source = source
        self.settings_path = settings_path
        self.battles = source.battles()
        self.selected = 0
        self.seat = 0
        self.error = ""
        self.head = arcade.Text(source.heading, 0, 0, GOLD, 24, bold=True)
        self.keys = arcade.Text(
            "↑ ↓ battle  ·  ← → who you play  ·  O options  ·  Enter start  ·  Esc back", 0, 0, MUTED, 13
        )
        self.names = [arcade.Text(b.title, 0, 0, INK, 15, bold=True) for b in self.battles]
        self.years = [arcade.Text(b.year, 0, 0, MUTED, 12, anchor_x="right") for b in self.battles]
        width = int(1280 - PANEL_L - 60)
        self.title = arcade.Text("", 0, 0, GOLD, 22, bold=True, anchor_y="top")
        self.summary = arcade.Text("", 0, 0, INK, 14, italic=True, multiline=True, width=width, anchor_y="top")
        self.note = arcade.Text("", 0, 0, INK, 13, multiline=True, width=width, anchor_y="top")
        self.side_texts = [arcade.Text("", 0, 0, INK, 13, multiline=True, width=width, anchor_y="top") for _ in "AB"]
        self.rules = arcade.Text("", 0, 0, MUTED, 12, multiline=True, width=width, anchor_y="top")
        self.play_head = arcade.Text("You play", 0, 0, GOLD, 15, bold=True)
        self.seat_texts = [arcade.Text("", 0, 0, INK, 13, anchor_x="center") for _ in SEATS]
        self.hint = arcade.Text("", 0, 0, MUTED, 12, multiline=True, width=width, anchor_y="top")
        self.button_texts = [arcade.Text(t, 0, 0, INK, 14, anchor_x="center") for t, _ in BUTTONS]
        self.err = arcade.Text("", 0, 0, ERROR, 13, multiline=True, width=width, anchor_y="bottom")
        self.seat_boxes: list[tuple[float, float, float, float]] = []
        self.button_boxes: list[tuple[float, float, float, float]] = []
        self.settings = self.read_settings()

    # -- the model ------------------------------------------------------------------------
    def read_settings(self) -> Settings:
        try:
            return load_settings(self.settings_path)
        except InputError as bad:
            self.error = f"{bad} (the defaults are used)"
            return Settings()

    @property
    def paths(self) -> list[str]:
        return [b.path for b in self.battles]

    @property
    def battle(self) -> BattleInfo | None:
        return self.battles[self.selected] if self.battles else None

    def seat_label(self, seat: str, info: BattleInfo) -> str:
        names = {s.side: s.name for s in info.sides}
        if seat in ("A", "B"):
            return names.get(seat, f"side {seat}")
        return "Both (hotseat)" if seat == "hotseat" else "Watch: AI vs AI"

    def rules_line(self, info: BattleInfo) -> str:
        chosen = self.settings.options(self.source.engine)
        ruleset = next((o.partition(":")[2] for o in chosen if o.startswith("rules:")), "")
        rules = f"Ruleset {ruleset} (chosen in the options)" if ruleset else info.rules_text
        toggles = [option_label(self.source.engine, o) for o in chosen if not o.startswith("rules:")]
        shown = ", ".join(toggles) if toggles else "none chosen"
        strength, speed = self.settings.ai_strength, self.settings.speed
        return f"{rules}  ·  optional rules: {shown}\nComputer's strength: {strength}  ·  speed of its moves: {speed}"

    # -- layout and drawing ---------------------------------------------------------------
    def row_box(self, i: int) -> tuple[float, float, float, float]:
        top = self.window.height - 100 - i * 46
        return LIST_L, top - 40, LIST_R, top

    def layout_list(self) -> None:
        h = self.window.height
        self.head.position = (LIST_L, h - 46)
        self.keys.position = (LIST_L, h - 72)
        for i, (name, year) in enumerate(zip(self.names, self.years, strict=True)):
            left, bottom, right, _ = self.row_box(i)
            name.position = (left + 12, bottom + 13)
            year.position = (right - 10, bottom + 14)
            fit(name, right - left - 34 - year.content_width, 15)
        self.err.position = (PANEL_L + 24, 110)  # above the buttons

    def layout(self, info: BattleInfo) -> None:
        """Place the panel's texts and boxes for ``info``."""
        w, h = self.window.width, self.window.height
        x, y = PANEL_L + 24, h - 104
        self.title.text = info.title
        self.summary.text = info.summary
        self.note.text = info.note or "(no historical note)"
        self.rules.text = self.rules_line(info)
        for t, s in zip(self.side_texts, info.sides, strict=False):
            t.text = commanders_line(s)
        for t in (self.title, self.summary, self.note, *self.side_texts[: len(info.sides)], self.rules):
            t.position = (x, y)
            y -= t.content_height + 14
        self.play_head.position = (x, y - 18)
        y -= 70
        self.seat_boxes = []
        seat_w = (w - x - 40 - 3 * 12) / 4
        for k, seat in enumerate(SEATS):
            left = x + k * (seat_w + 12)
            self.seat_boxes.append((left, y, left + seat_w, y + 36))
            self.seat_texts[k].text = self.seat_label(seat, info)
            fit(self.seat_texts[k], seat_w - 12, 13)
            self.seat_texts[k].position = (left + seat_w / 2, y + 12)
        self.hint.text = SEAT_HINTS[SEATS[self.seat]]
        self.hint.position = (x, y - 16)
        self.button_boxes = []
        for k, text in enumerate(self.button_texts):
            left = x + k * 200
            self.button_boxes.append((left, 56, left + 184, 96))
            text.position = (left + 92, 70)

    def on_draw(self) -> None:
        self.clear(color=(24, 20, 18))
        w, h = self.window.width, self.window.height
        info = self.battle
        self.layout_list()
        self.head.draw()
        self.keys.draw()
        arcade.draw_lrbt_rectangle_filled(PANEL_L, w - 16, 40, h - 88, PANEL)
        for i in range(len(self.battles)):
            left, bottom, right, top = self.row_box(i)
            if i == self.selected:
                arcade.draw_lrbt_rectangle_filled(left, right, bottom, top, ROW_SEL)
            self.names[i].draw()
            self.years[i].draw()
        if info is not None:
            self.layout(info)
            for t in (self.title, self.summary, self.note, *self.side_texts[: len(info.sides)], self.rules):
                t.draw()
            self.play_head.draw()
            self.hint.draw()
            for k, (left, bottom, right, top) in enumerate(self.seat_boxes):
                arcade.draw_lrbt_rectangle_filled(left, right, bottom, top, ROW_SEL if k == self.seat else BUTTON)
                if k == self.seat:
                    arcade.draw_lrbt_rectangle_outline(left, right, bottom, top, GOLD, 2)
                self.seat_texts[k].draw()
            for (left, bottom, right, top), text in zip(self.button_boxes, self.button_texts, strict=True):
                arcade.draw_lrbt_rectangle_filled(left, right, bottom, top, BUTTON)
                text.draw()
        self.err.text = self.error or (info.error if info is not None else "")
        self.err.draw()

    # -- input ----------------------------------------------------------------------------
    def start(self) -> None:
        info = self.battle
        if info is None:
            return
        if info.error:
            self.error = info.error
            return
        try:
            view = self.source.open(info, SEATS[self.seat], self.settings, self.menu, seed=self.seed())
        except InputError as bad:
            self.error = str(bad)
            return
        self.error = ""
        self.window.show_view(view)

    def seed(self) -> int:
        """A fresh seed for each battle started here: the dice differ from one game to the
        next (the seed is in the battle's save, so the game replays)."""
        return secrets.randbelow(2**31 - 1) + 1

    def options(self) -> None:
        from bellum.view.options import OptionsView

        heading = f"Options for {self.battle.title}" if self.battle is not None else "Options"
        self.window.show_view(OptionsView(self, (self.source.engine,), title=heading, path=self.settings_path))

    def on_show_view(self) -> None:
        self.settings = self.read_settings()  # back from the options screen

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        k = arcade.key
        n = len(self.battles)
        if symbol == k.ESCAPE:
            self.window.show_view(self.menu)
        elif symbol in (k.DOWN, k.UP) and n:
            self.selected = (self.selected + (1 if symbol == k.DOWN else -1)) % n
            self.error = ""
        elif symbol in (k.RIGHT, k.LEFT, k.TAB):
            self.seat = (self.seat + (-1 if symbol == k.LEFT else 1)) % len(SEATS)
        elif k.KEY_1 <= symbol < k.KEY_1 + len(SEATS):
            self.seat = symbol - k.KEY_1
        elif symbol == k.H:
            self.seat = SEATS.index("hotseat")
        elif symbol == k.O:
            self.options()
        elif symbol in (k.ENTER, k.RETURN):
            self.start()

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        for i in range(len(self.battles)):
            left, bottom, right, top = self.row_box(i)
            if left <= x <= right and bottom <= y <= top:
                self.selected, self.error = i, ""
                return
        for k, (left, bottom, right, top) in enumerate(self.seat_boxes):
            if left <= x <= right and bottom <= y <= top:
                self.seat = k
                return
        for (left, bottom, right, top), (_, what) in zip(self.button_boxes, BUTTONS, strict=True):
            if left <= x <= right and bottom <= y <= top:
                {"start": self.start, "options": self.options, "back": lambda: self.window.show_view(self.menu)}[what]()
                return


SEAT_HINTS = {
    "A": "You command side A; the computer plays side B.",
    "B": "You command side B; the computer plays side A.",
    "hotseat": "Two people at one screen: each plays a side in turn.",
    "watch": "The computer plays both sides while you watch: Space pauses, N plays one action, [ ] slower / faster.",
}
#: the picker's buttons: (label, what it does)
BUTTONS = (("Start  [Enter]", "start"), ("Options…  [O]", "options"), ("Back  [Esc]", "back"))


def shot_view(args: object) -> arcade.View:
    """``bellum shot picker [--scenario NAME]``: the tactical battles (the battleboard's when
    NAME is one of its scenarios), NAME chosen (default Pharsalus)."""
    import importlib

    from bellum.view.menu import MenuView

    name = getattr(args, "scenario", None) or "pharsalus"
    board = any(Path(p).stem == name for p in scenario_names("battleboard"))
    entry = importlib.import_module("battleboard.view.entry" if board else "tactical.view.entry")
    picker: BattlePicker = entry.ScenarioPicker(MenuView())
    picker.selected = next((i for i, p in enumerate(picker.paths) if Path(p).stem == name), 0)
    return picker


def scenario_names(engine: str) -> list[str]:
    from bellum.paths import scenario_files

    return [str(p) for p in scenario_files(engine)]
