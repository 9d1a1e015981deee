"""The battleboard window: the board with its row and column names, named counters (type,
strength, morale badge, state), fleets with their passengers, the attack-mode choice with
exact odds, each attack's dice and result on the board, panic and tactical superiority, the
losses per side, a log in names, a legend and F1 help; hotseat or against the AI.  The view
only reads the model (``State``) and sends actions through ``rules.apply`` — every
highlight comes from ``rules.legal_actions``.  A stand-alone battle plays through a
``bellum.session.Session`` of ``battleboard.game.BattleboardEngine``: F5 saves it (scenario,
seed, dice, action log, checksum), F9 loads it back; a battle of the campaign has no session
(the campaign's own save holds the war).

Drawing is batched (``Canvas``): the board is one shape list (rebuilt only when the layout
changes), the pieces, highlights and texts one canvas re-synced from the model after each
action, the callout of the last attack and the help another drawn over it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import arcade
from arcade import shape_list

from battleboard.ai import Planner
from battleboard.model import OFF, Action, State, Unit
from battleboard.resolve import BoardBattle, moments, outcome
from battleboard.rules import active_ground, apply, legal_actions, on_board
from battleboard.view import help as rules_help
from battleboard.view.canvas import Canvas
from battleboard.view.counters import (
    BADGE,
    DARK_INK,
    DIM,
    GOLD,
    INK,
    SIDE_COLORS,
    Callout,
    counter_labels,
    draw_callout,
    draw_counter,
    draw_labels,
    faction_colors,
    fit_name,
)
from battleboard.view.words import LEGEND, MODE_NAMES, PHASES, Words
from bellum import slots
from bellum.dice import Dice
from bellum.engagement import Engagement
from bellum.errors import BellumError, RuleError
from bellum.events import Event
from bellum.report import AfterAction, name_sides
from bellum.session import Session
from bellum.view.names import short_name
from bellum.view.widgets import Button

__all__ = ["BADGE", "DARK_INK", "GOLD", "SIDE_COLORS", "BattleView", "counter_labels"]

BG = (24, 20, 18)
PANEL = (44, 36, 30)
WARN = (250, 140, 120)
FEATURE_COLORS = {
    "clear": (128, 146, 92),
    "rough": (120, 104, 72),
    "river": (70, 120, 168),
    "walls": (96, 92, 88),
    "impassable": (60, 56, 50),
    "sea": (40, 86, 130),
}
MOVE_HL = (240, 220, 120, 110)
TARGET_HL = (250, 60, 40, 150)
BOARD_SHARE = 0.62  # of the window's width; the panel has the rest
TOP_H, LABEL_W, LEGEND_H = 40.0, 26.0, 100.0  # the board's status strip, row labels, legend


@dataclass(frozen=True)
class _Step:
    """What an undo restores: the state before an action and how long the logs were."""

    state: State
    log: int
    events: int


class BattleView(arcade.View):
    """One battle.  ``ai`` is the set of sides the AI plays; ``menu`` the view to return to;
    ``ai_delay`` the seconds between the AI's actions (a watch mode's speed)."""

    def __init__(
        self,
        state: State | None = None,
        *,
        battle: BoardBattle | None = None,
        title: str = "Battleboard",
        side_names: dict[str, str] | None = None,
        ai: frozenset[str] = frozenset(),
        seed: int = 1,
        menu: arcade.View | None = None,
        menu_label: str = "Menu",
        engagement: Engagement | None = None,
        session: Session[State, Action] | None = None,
        save_path: Path | None = None,
        ai_delay: float = 0.12,
    ) -> None:
        super().__init__()
        #: the stand-alone battle as a game that saves and loads (None in the campaign)
        self.standalone = session
        self.save_path = save_path
        #: the battle as the engagement contract sees it: a stand-alone battle shows its
        #: after-action report when it is over (the campaign window makes its own)
        self.engagement = engagement
        self._report: list[str] | None = None
        self._undo: list[_Step] = []
        if battle is None:
            assert state is not None, "a battleboard view opens on a state or a battle"
            battle = BoardBattle(None, state, Dice(seed))
        #: the battle this window plays (its state, dice and events): a campaign battle's
        #: route (``battleboard.resolve.ROUTE.begin``) concludes it when the player leaves
        self.battle = battle
        self.title = title
        self.side_names = side_names or {"A": "Side A", "B": "Side B"}
        self.ai = ai
        if session is not None:
            self.state, self.dice = session.state, session.dice
        #: units, leaders and sides by name, for the counters, the panel and the log
        self.words = Words.of(self.state, self.side_names)
        #: the sides' colours: Caesar's red and the Senate's purple, whichever letter they have
        eng = engagement or battle.engagement
        factions: dict[str, str] = {str(s): f.faction for s, f in eng.sides.items()} if eng is not None else {}
        self.colors = faction_colors(factions or self.side_names)
        self.menu = menu
        self.menu_label = menu_label  # the Esc button's name (the campaign window: "Campaign")
        self.selected: str | None = None
        self.hover: str | None = None  # the unit under the mouse: its full name in the panel
        self.options: list[Action] = []  # the attacks offered for the chosen target
        self.log: list[str] = [f"{title}."]
        if session is not None:  # every event of the battle so far, for its after-action report
            self.events = list(session.log)
        self.log.extend(self.words.event(e) for e in self.events)
        self.message = ""
        self.forced: list[str] | None = None  # test seam: combat results for the next action
        self.plan = 0  # which of the generator's allocation / set-up plans is offered
        self.ai_delay = ai_delay
        self.paused = False  # a watch mode's pause: the AI waits while it is set
        self._ai_clock = 0.0
        self.callout: Callout | None = None  # the last attack's dice and result, on the board
        self.help = False  # F1: controls, legend and the rules for what is selected
        self.help_from = 0  # the first rules paragraph the help shows (Up / Down scroll)
        self.help_more = False  # more rules below than the help shows
        #: the computer's player: the look-ahead AI one action at a time (``battleboard.ai.Planner``,
        #: the AI measured in docs/AI.md); the options screen's strength may change it
        self.ai_choose: Callable[[State], Action] = Planner(lambda: self.dice)
        self.buttons: list[Button] = []
        self._layout_size: tuple[int, int] = (0, 0)
        self.board_shapes: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        self.canvas = Canvas()
        self.top = Canvas()  # drawn over the board: the callout and the help
        self.cell = 48.0
        self.origin = (20.0, 20.0)
        self._bottom = 0.0
        self.dirty = True

    @property
    def bottom(self) -> float:
        """Pixels kept free at the foot of the window (a watch mode's bar draws there)."""
        return self._bottom

    @bottom.setter
    def bottom(self, value: float) -> None:
        self._bottom = value
        self._layout_size = (0, 0)  # lay the board out again

    @property
    def _texts(self) -> list[arcade.Text]:
        """Every text of the frame (the tests read them)."""
        return self.canvas.texts + self.top.texts

    # -- geometry ------------------------------------------------------
    def _layout(self) -> None:
        w, h = self.window.width, self.window.height
        if (w, h) == self._layout_size:
            return
        self._layout_size = (w, h)
        self.canvas, self.top = Canvas(), Canvas()  # a new size: every text laid out afresh
        b = self.state.cfg.board
        foot = self.bottom + LEGEND_H  # the legend under the board, and what the window keeps free
        area_w, area_h = w * BOARD_SHARE - LABEL_W - 20, h - TOP_H - foot - 30
        self.cell = max(16.0, min(area_w / b.columns, area_h / b.rows))
        self.origin = (
            LABEL_W + 10 + (area_w - self.cell * b.columns) / 2,
            foot + 26 + (area_h - self.cell * b.rows) / 2,
        )
        self.board_shapes = shape_list.ShapeElementList()
        for sq in range(b.columns * b.rows):
            x, y = self.square_center(sq)
            color = FEATURE_COLORS.get(b.feature[sq], (128, 128, 128))
            self.board_shapes.append(
                shape_list.create_rectangle_filled(x, y, self.cell - 2, self.cell - 2, (*color, 255))
            )
            self.board_shapes.append(
                shape_list.create_rectangle_outline(x, y, self.cell, self.cell, (30, 26, 22, 255), 2)
            )
        for side in ("A", "B"):  # the home edges in the side's colour
            row = b.home_row(side)
            x0 = self.origin[0] + b.columns * self.cell / 2
            y0 = self.origin[1] + row * self.cell + (0 if side == "A" else self.cell)
            self.board_shapes.append(
                shape_list.create_rectangle_filled(x0, y0, b.columns * self.cell, 5, (*self.colors[side], 255))
            )
        self.dirty = True

    def square_center(self, sq: int) -> tuple[float, float]:
        b = self.state.cfg.board
        r, c = divmod(sq, b.columns)
        return self.origin[0] + (c + 0.5) * self.cell, self.origin[1] + (r + 0.5) * self.cell

    def _square_rect(self, sq: int) -> tuple[float, float, float, float]:
        x, y = self.square_center(sq)
        half = self.cell / 2
        return x - half, y - half, x + half, y + half

    def square_at(self, x: float, y: float) -> int | None:
        b = self.state.cfg.board
        c = int((x - self.origin[0]) // self.cell)
        r = int((y - self.origin[1]) // self.cell)
        if 0 <= c < b.columns and 0 <= r < b.rows and x >= self.origin[0] and y >= self.origin[1]:
            return r * b.columns + c
        return None

    # -- model ---------------------------------------------------------
    def human_to_act(self) -> bool:
        s = self.state
        if s.phase == "over":
            return False
        if s.phase == "allocate":
            return any(a.side not in self.ai for a in legal_actions(s))
        return s.side not in self.ai

    def act(self, action: Action) -> bool:
        """Send an action to the rules; a refusal is shown, never raised.  An action that
        rolls no die may be taken back (``undo``); a roll seals everything before it."""
        before = _Step(self.state, len(self.log), len(self.events))
        rolls = len(self.dice.rolls)
        try:
            if self.standalone is not None and self.forced is None:
                events = self.standalone.play(action)
                self.state = self.standalone.state
            else:
                self.state, events, _ = apply(self.state, action, self.dice, self.forced)
                self.standalone = None  # forced results (a test seam): no longer a game a save can replay
        except RuleError as no:
            self.message = str(no)
            return False
        if len(self.dice.rolls) == rolls and self.forced is None:
            self._undo.append(before)
        else:
            self._undo.clear()  # the dice have spoken: no going back past them
        self.forced = None
        self.events.extend(events)
        self.log.extend(self.words.event(e) for e in events)
        if action.verb == "attack":
            self.callout = self._callout(before.state, action, self.dice.rolls[rolls:], events)
        elif action.verb == "end_turn" and before.state.side not in self.ai:
            self.callout = None  # a person ends his turn: the last attack has been seen
        self.message = ""
        self.selected = None
        self.options = []
        self.dirty = True
        return True

    def _callout(self, was: State, a: Action, rolls: list[Any], events: list[Event]) -> Callout | None:
        """The attack just made, for the board: who attacked whom (their squares before it),
        its mode, the d10 faces rolled and the combat results read from them, and what
        became of the units."""
        attack = next((e for e in events if e.kind == "attack"), None)
        sq, source = _where(was, a.target), _where(was, a.unit)
        if attack is None or sq is None:
            return None
        faces = [str(r.value) for r in rolls if r.label.startswith((f"{a.mode} ", "defensive fire"))]
        results = " ".join(str(r) for r in attack.data.get("results", ())) or "none"
        mode = MODE_NAMES.get(a.mode, a.mode)
        if self.state.naval and a.mode not in ("ram", "fire"):
            mode = f"boarding in {mode}"
        dice = f"d10: {' '.join(faces)}" if faces else "results forced (no dice)"
        head = f"{self.words.name(a.unit)} → {self.words.name(a.target)} ({mode})"
        fates = [self.words.event(e) for e in events if e.kind not in ("attack", "turn")][:3]
        key = "(- none · A attacker hit · B defender hit · L lost)"
        return Callout(sq, (head, f"{dice}   results: {results}", *fates, key), source)

    @property
    def state(self) -> State:
        return self.battle.state

    @state.setter
    def state(self, value: State) -> None:
        self.battle.state = value

    @property
    def dice(self) -> Dice:
        return self.battle.dice

    @dice.setter
    def dice(self, value: Dice) -> None:
        self.battle.dice = value

    @property
    def events(self) -> list[Event]:
        """Every event of the battle, for its after-action report (``battleboard.resolve.moments``)."""
        return self.battle.events

    @events.setter
    def events(self, value: list[Event]) -> None:
        self.battle.events = value

    def can_undo(self) -> bool:
        return bool(self._undo)

    def undo(self) -> bool:
        """Take back the last action, if it rolled no die (a move, a set-up, the end of a
        turn before any roll); the computer's own moves since are taken back with it."""
        if not self._undo:
            self.message = "Nothing to undo: the last action rolled the dice."
            self.dirty = True
            return False
        step = self._undo.pop()
        self._take_back(step)
        while self._undo and not self.human_to_act():  # back to the last position a person played
            step = self._undo.pop()
            self._take_back(step)
        del self.log[step.log :]
        del self.events[step.events :]
        self.log.append("(undone)")
        self.message = ""
        self.selected = None
        self.options = []
        self.dirty = True
        return True

    def _take_back(self, step: _Step) -> None:
        self.state = step.state
        if self.standalone is not None:
            self.standalone.undo()  # the same step: it rolled no die

    # -- saves ---------------------------------------------------------
    def save_file(self) -> Path | None:
        """Where F5 writes and F9 reads: ``save_path``, or else the battle's file in the player's
        saves folder (``bellum.slots.saves_folder``, worked out now, so ``$BELLUM_HOME`` set
        after start-up is honoured); None for a campaign battle (saved with its campaign)."""
        if self.standalone is None:
            return None
        return self.save_path or slots.saves_folder("battleboard") / f"{Path(self.standalone.scenario).stem}.toml"

    def save(self) -> Path | None:
        """Save the battle (F5) to ``save_file()``; a campaign battle is saved with the campaign."""
        target = self.save_file()
        if self.standalone is None or target is None:
            self.message = "This battle is saved with its campaign, not on its own."
            self.dirty = True
            return None
        try:
            path = self.standalone.save(target)
        except OSError as exc:
            self.message = f"Not saved: {target} cannot be written ({exc.strerror or exc})."
            self.dirty = True
            return None
        self.message = f"Saved to {path.name}."
        self.dirty = True
        return path

    def load(self, path: Path | None = None) -> bool:
        """Load a save of this battle (F9), replayed and checked (``Session.load``); a bad
        save or one of another battle is refused in one sentence and nothing changes."""
        from battleboard.game import BattleboardEngine

        path = path or self.save_file()
        if self.standalone is None or path is None:
            self.message = "This battle is saved with its campaign, not on its own."
            self.dirty = True
            return False
        try:
            got: Session[State, Action] = Session.load(BattleboardEngine(), path, self.standalone.scenario)
        except BellumError as why:
            self.message = str(why)
            self.dirty = True
            return False
        self.standalone, self.state, self.dice = got, got.state, got.dice
        self.events = list(got.log)
        self.log = [f"{self.title}.", *(self.words.event(e) for e in self.events), f"(loaded {path.name})"]
        self._undo.clear()
        self._report = None
        self.message = "Loaded."
        self.selected = None
        self.options = []
        self.dirty = True
        return True

    def select(self, uid: str | None) -> None:
        self.selected = uid
        self.options = []
        self.dirty = True

    def selectable(self, u: Unit) -> bool:
        return (u.side == self.state.side and on_board(u)) or (u.status == "reserve" and u.side == self.state.side)

    def unit_actions(self, uid: str) -> list[Action]:
        s = self.state
        acts = legal_actions(s, uid)
        u = s.units.get(uid)
        if u is not None and s.naval and u.kind == "fleet":
            g = active_ground(s, u)
            if g is not None:
                acts += legal_actions(s, g.id)  # boarding: to capture or to sink
        return acts

    # -- input ---------------------------------------------------------
    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        self._layout()
        if self.help:  # a click closes the help
            self.show_help(False)
            return
        for b in self.buttons:
            if b.hit(x, y):
                self.press(b.key)
                return
        if not self.human_to_act():
            return
        sq = self.square_at(x, y)
        s = self.state
        if sq is None:
            return
        uid = s.grid.get(sq)
        if self.selected is not None:
            acts = self.unit_actions(self.selected)
            moves = [a for a in acts if a.verb == "move" and a.to == sq]
            if moves:
                self.act(moves[0])
                return
            if uid is not None:
                attacks = [a for a in acts if a.verb == "attack" and a.target == uid]
                if attacks:
                    self.options = attacks
                    self.dirty = True
                    return
        if uid is not None and self.selectable(s.units[uid]):
            self.select(uid)
        else:
            self.select(None)

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """The unit under the mouse is named in full in the panel (counters abbreviate)."""
        sq = self.square_at(x, y)
        uid = self.state.grid.get(sq) if sq is not None else None
        if uid != self.hover:
            self.hover = uid
            self.dirty = True

    def show_help(self, on: bool) -> None:
        """F1: the help over the window (controls, legend, the rules for what is selected)."""
        self.help = on
        self.help_from = 0
        self.dirty = True

    def press(self, key: str) -> None:
        """A panel button or its key."""
        s = self.state
        if key == "menu":
            if self.menu is not None:
                self.window.show_view(self.menu)
            return
        if key == "help":
            self.show_help(not self.help)
            return
        if key.startswith("option"):
            i = int(key[6:])
            if i < len(self.options):
                self.act(self.options[i])
            return
        if key == "plan":
            self.plan += 1
            self.dirty = True
            return
        if key == "ai":
            if s.phase != "over":
                self.act(self.ai_choose(s))
            return
        if key == "undo":
            self.undo()
            return
        if key == "save":
            self.save()
            return
        if key == "load":
            self.load()
            return
        for b in self.buttons:
            if b.key == key and b.action is not None:
                self.act(b.action)
                return

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        keys = {
            arcade.key.ESCAPE: "menu",
            arcade.key.ENTER: "end_turn",
            arcade.key.C: "command",
            arcade.key.D: "double",
            arcade.key.W: "withdraw",
            arcade.key.SPACE: "ai",
            arcade.key.L: "allocate",
            arcade.key.S: "deploy",
            arcade.key.O: "off",
            arcade.key.P: "plan",
            arcade.key.U: "undo",
            arcade.key.F5: "save",
            arcade.key.F9: "load",
            arcade.key.F1: "help",
        }
        numbers = {getattr(arcade.key, f"KEY_{i}"): f"option{i - 1}" for i in range(1, 10)}
        self._layout()
        if self.help:  # the help takes the keys while it is shown: scroll, or close
            if symbol in (arcade.key.ESCAPE, arcade.key.F1):
                self.show_help(False)
            elif symbol in (arcade.key.DOWN, arcade.key.PAGEDOWN, arcade.key.UP, arcade.key.PAGEUP):
                step = 1 if symbol in (arcade.key.DOWN, arcade.key.PAGEDOWN) else -1
                if step < 0 or self.help_more:
                    self.help_from = max(0, self.help_from + step)
                self.dirty = True
            return
        self._sync()
        if symbol in keys:
            self.press(keys[symbol])
        elif symbol in numbers:
            self.press(numbers[symbol])

    def on_update(self, delta_time: float) -> None:
        self._layout()
        s = self.state
        if s.phase == "over" or self.human_to_act() or self.help or self.paused:
            return
        self._ai_clock += delta_time
        if self._ai_clock >= self.ai_delay:
            self._ai_clock = 0.0
            self.act(self.ai_choose(s))

    # -- drawing: the board ----------------------------------------------
    def _sync(self) -> None:
        self.canvas.begin()
        self.top.begin()
        self._sync_board()
        self._sync_panel()
        if self.help:
            self._sync_help()
        self.canvas.end()
        self.top.end()
        self.dirty = False

    def _sync_board(self) -> None:
        """The pieces, the highlights, the labels, the status strip, the legend and the callout."""
        s, cv, cell = self.state, self.canvas, self.cell
        for u in s.units.values():
            if u.square is not None:
                x, y = self.square_center(u.square)
                draw_counter(cv, s, u, (x, y, cell), self.words, u.id == self.selected, self.colors)
        for ld in s.leaders.values():  # the yellow corner: a leader with the unit
            sq = ld.square if ld.aboard is None else s.units[ld.aboard].square
            if ld.status == "active" and sq is not None:
                x, y = self.square_center(sq)
                cv.box(x + cell * 0.43 - cell * 0.09, y + cell * 0.43 - cell * 0.09, cell * 0.18, cell * 0.18, GOLD)
        if self.selected is not None and self.human_to_act():
            for a in self.unit_actions(self.selected):
                if a.verb == "move" and a.to is not None and a.to != OFF:
                    x, y = self.square_center(a.to)
                    cv.fill(x, y, cell - 6, cell - 6, MOVE_HL)
                elif a.verb == "attack" and s.units[a.target].square is not None:
                    x, y = self.square_center(s.units[a.target].square)  # type: ignore[arg-type]
                    cv.frame(x, y, cell - 4, cell - 4, TARGET_HL, 4)
        self._ghosts()
        draw_labels(cv, s.cfg.board, self.origin, cell)
        self._status_strip()
        right = self.window.width * BOARD_SHARE - 14
        top = self.bottom + LEGEND_H - 2
        for line in LEGEND:
            top = top - cv.para(line, 12, top, right - 12, DIM, 9).content_height - 2
        if self.callout is not None:
            x, y = self.square_center(self.callout.square)
            if self.callout.source is not None:  # a line from the attacker's square to the target's
                cv.shapes.append(shape_list.create_line(*self.square_center(self.callout.source), x, y, GOLD, 4))
            cv.frame(x, y, cell - 4, cell - 4, GOLD, 3)  # the square attacked
            pieces = [self._square_rect(u.square) for u in s.units.values() if u.square is not None]
            area = (8.0, self.bottom + LEGEND_H + 26, right, self.window.height - TOP_H - 4)
            draw_callout(self.top, self.callout, x, y, cell, area, pieces)

    def _status_strip(self) -> None:
        """Above the board, in the colour of the side to play: whose turn and phase, and the
        double move or panic when they are on."""
        s, h = self.state, self.window.height
        w = self.window.width * BOARD_SHARE
        if s.phase == "over":
            who = self.words.side(s.winner) if s.winner else "nobody (a draw)"
            text, color = f"The battle is over — winner: {who}", (70, 56, 34)
        else:
            phase = PHASES.get(s.phase, s.phase)
            who = self.words.side(s.side)
            plays = f"the computer plays {who}" if s.side in self.ai else f"{who} to play"
            text = f"Turn {s.turn} · {plays} · {phase}"
            if s.phase == "allocate":
                text = f"Turn {s.turn} · both sides allocate their units to their fleets in secret"
            color = self.colors[s.side]
        self.canvas.box(w / 2, h - TOP_H / 2, w, TOP_H, color)
        flags = []
        if s.double_now:
            flags.append("DOUBLE MOVE")
        flags += [f"{self.words.side(p)} PANICKED" for p in s.panicked]
        if not flags:
            self.canvas.text(text, 12, h - TOP_H / 2 - 5, INK, 12, bold=True)
            return
        self.canvas.text(text, 12, h - 17, INK, 11, bold=True)  # two lines: the flags below
        self.canvas.text(" · ".join(flags), 12, h - 35, (255, 226, 120), 10, bold=True)

    # -- drawing: the panel ------------------------------------------------
    def _sync_panel(self) -> None:
        w = self.window.width
        px = w * BOARD_SHARE + 12
        pw = w - px - 14
        y = self._panel_header(px, pw, self.window.height - 12)
        y = self._panel_buttons(px, pw, y - 6)
        y = self._panel_options(px, pw, y - 8)
        self._panel_log(px, pw, y - 8)

    def _panel_header(self, px: float, pw: float, y: float) -> float:
        """Title, superiority, what each side has LOST, the selected unit, the last refusal."""
        s, cv = self.state, self.canvas
        head, _, tail = self.title.partition(" — ")
        y = y - cv.para(head, px, y, pw, GOLD, 14, bold=True).content_height
        if tail:
            y = y - cv.para(tail, px, y, pw, GOLD, 11).content_height
        y -= 4
        if s.phase != "over" and (s.phase != "allocate" or s.turn > 1):
            y = y - cv.para(self.words.superiority(s), px, y, pw, INK, 10).content_height
        for side, line in zip(("A", "B"), self.words.losses(s), strict=True):
            color = WARN if side in s.panicked else DIM
            y = y - cv.para(line, px, y, pw, color, 10).content_height
        if s.phase == "over":
            who = self.words.side(s.winner) if s.winner else "nobody (a draw)"
            text = f"Winner: {who} — {name_sides(s.end_reason, self.side_names)}"
            y = y - cv.para(text, px, y, pw, GOLD, 11).content_height
        if self.selected is not None and self.selected in s.units:
            text = self.words.unit_line(s, s.units[self.selected])
            y = y - 4 - cv.para(text, px, y - 4, pw, INK, 10).content_height
        if self.hover is not None and self.hover != self.selected and self.hover in s.units:
            text = "Under the mouse: " + self.words.unit_line(s, s.units[self.hover])
            y = y - 4 - cv.para(text, px, y - 4, pw, DIM, 10).content_height
        if self.message:
            y = y - 4 - cv.para(self.message, px, y - 4, pw, WARN, 10).content_height
        return y

    def _offered_plan(self, acts: list[Action]) -> tuple[Action | None, int]:
        """The allocation or set-up plan the panel offers (P cycles them) and how many there are."""
        setup = [a for a in acts if a.verb in ("allocate", "deploy") and a.side not in self.ai]
        if not setup:
            return None, 0
        setup = [a for a in setup if a.side == setup[0].side]
        return setup[self.plan % len(setup)], len(setup)

    def _ghosts(self) -> None:
        """The offered set-up plan on the board: each unit pale on the square it would take."""
        s = self.state
        if s.phase != "deploy":
            return
        plan, _ = self._offered_plan(legal_actions(s))
        if plan is None:
            return
        cell = self.cell
        for uid, sq in plan.placements:
            x, y = self.square_center(sq)
            self.canvas.box(x, y, cell * 0.86, cell * 0.86, (*self.colors[s.units[uid].side], 90))
            name = self.words.name(uid)
            label = self.canvas.text(short_name(name, 12), x, y, INK, max(6.0, min(10.0, cell * 0.12)), center=True)
            fit_name(label, name, cell * 0.84 - 4)

    def _wanted(self) -> list[tuple[str, str, Action | None]]:
        """The panel's buttons: the phase's actions from the generator, then the window's own."""
        s = self.state
        acts = legal_actions(s) if s.phase != "over" else []
        wanted: list[tuple[str, str, Action | None]] = []
        plan, plans = self._offered_plan(acts)
        if plan is not None:
            key = "allocate" if plan.verb == "allocate" else "deploy"
            verb = "Allocate" if key == "allocate" else "Set up"
            wanted.append((key, f"{verb} [{'L' if key == 'allocate' else 'S'}]", plan))
            if plans > 1:
                wanted.append(("plan", f"Plan {self.plan % plans + 1}/{plans} [P]", None))
        labels = {
            "command": "Command checks [C]",
            "double": "Double move [D]",
            "withdraw": "Withdraw the army [W]",  # §10.4
            "end_turn": "End turn [Enter]",
        }
        wanted += [(a.verb, labels[a.verb], a) for a in acts if a.verb in labels]
        if self.selected is not None:
            off = [a for a in self.unit_actions(self.selected) if a.verb == "move" and a.to == OFF]
            if off:
                wanted.append(("off", "Leave the board [O]", off[0]))
        if s.phase != "over":
            wanted.append(("ai", "AI move [Space]", None))
        if self._undo:
            wanted.append(("undo", "Undo [U]", None))
        if self.standalone is not None:
            wanted += [("save", "Save [F5]", None), ("load", "Load [F9]", None)]
        wanted += [("help", "Help [F1]", None), ("menu", f"{self.menu_label} [Esc]", None)]
        return wanted

    def _panel_buttons(self, px: float, pw: float, y: float) -> float:
        s, cv = self.state, self.canvas
        self.buttons = []
        wanted = self._wanted()
        plan = next((a for k, _, a in wanted if k in ("allocate", "deploy")), None)
        if plan is not None:
            whose = f"Plan for {self.words.side(plan.side)}: "
            y = y - cv.para(whose + self._describe(s, plan), px, y, pw, DIM, 9).content_height - 4
        bw, bh = (pw - 10) / 3, 26.0
        row_y = y - bh
        for i, (key, label, action) in enumerate(wanted):
            col = i % 3
            if col == 0 and i:
                row_y -= bh + 6
            self.buttons.append(Button(key, label, px + col * (bw + 5), row_y, bw, bh, action))
            cv.text(label, px + col * (bw + 5) + bw / 2, row_y + bh / 2, INK, 9, center=True)
        return row_y

    def _panel_options(self, px: float, pw: float, y: float) -> float:
        """The attack-mode choice: each mode with its exact odds, before the roll."""
        if not self.options:
            return y
        s, cv = self.state, self.canvas
        a0 = self.options[0]
        who = self.words.name(a0.unit)
        text = f"{who} attacks {self.words.name(a0.target)} — choose a mode (exact odds, from the combat table):"
        y = y - cv.para(text, px, y, pw, GOLD, 10, bold=True).content_height - 2
        for i, a in enumerate(self.options[:9]):
            line = cv.para(f"[{i + 1}] {self.words.option(s, a)}", px + 4, y, pw - 8, INK, 10)
            h = line.content_height
            self.buttons.append(Button(f"option{i}", line.text, px, y - h - 1, pw, h + 2))
            y -= h + 3
        return y

    def _panel_log(self, px: float, pw: float, y: float) -> None:
        """The log in names (newest at the bottom), or once the battle is over its after-action
        report — as much as fits, every line wrapped inside the panel."""
        cv = self.canvas
        report = self.report_lines()
        y = y - cv.text("After-action report" if report else "Log", px, y - 12, GOLD, 11, bold=True).content_height - 4
        floor = self.bottom + 10.0
        if report:
            for line in report:
                t = cv.para(line, px, y, pw, DIM, 9)
                if y - t.content_height < floor:
                    cv.drop(t)
                    break
                y -= t.content_height + 1
            return
        kept: list[arcade.Text] = []
        room = y - floor
        for line in reversed(self.log):  # the newest lines that fit
            t = cv.para(line, px, y, pw, DIM, 9)
            if t.content_height + 1 > room:
                cv.drop(t)
                break
            room -= t.content_height + 1
            kept.append(t)
        for t in reversed(kept):
            t.y = y
            y -= t.content_height + 1

    def _describe(self, s: State, a: Action) -> str:
        """A set-up plan in words (an allocation shows only one's own side: it is secret)."""
        n = self.words.name
        if a.verb == "allocate":
            return "; ".join(f"{n(f)}: {', '.join(n(g) for g in gs) or '-'}" for f, gs in a.plan)
        b = s.cfg.board
        return ", ".join(f"{n(uid)} {b.name(sq)}" for uid, sq in a.placements)

    # -- drawing: the help ---------------------------------------------------
    def _sync_help(self) -> None:
        """F1 over the whole window: controls and legend on the left, on the right the rules
        sections for what is selected (docs/rules/battleboard.md, Up/Down to scroll)."""
        w, h, cv = self.window.width, self.window.height, self.top
        cv.box(w / 2, h / 2, w, h, BG)
        cv.text("Help — F1, Esc or a click closes it", 24, h - 34, GOLD, 15, bold=True)
        col = w * 0.36
        y = h - 54.0
        y = y - cv.para("Controls", 24, y, col, GOLD, 12, bold=True).content_height - 4
        for line in rules_help.CONTROLS:
            y = y - cv.para(line, 24, y, col, INK, 10).content_height - 6
        y = y - 6 - cv.para("Legend", 24, y - 6, col, GOLD, 12, bold=True).content_height - 4
        for line in LEGEND:
            y = y - cv.para(line, 24, y, col, INK, 10).content_height - 6
        s = self.state
        if self.selected is not None and self.selected in s.units:
            y = y - 6 - cv.para("Selected", 24, y - 6, col, GOLD, 12, bold=True).content_height - 4
            cv.para(self.words.unit_line(s, s.units[self.selected]), 24, y, col, INK, 10)
        x, rw = col + 56, w - col - 80
        numbers = rules_help.sections_for(self.state, bool(self.options))
        y = h - 54.0
        head = "Rules for what you are doing: battleboard.md §" + ", §".join(numbers)
        y = y - cv.para(head, x, y, rw, GOLD, 12, bold=True).content_height - 4
        paras = rules_help.rules_text(self.state, bool(self.options)).split("\n")
        self.help_from = min(self.help_from, max(0, len(paras) - 1))
        self.help_more = False
        for i, p in enumerate(paras[self.help_from :]):
            t = cv.para(p, x, y, rw, INK, 10)
            if y - t.content_height < self.bottom + 34:
                cv.drop(t)
                more = f"… {len(paras) - self.help_from - i} more paragraphs: Down arrow (Up goes back)"
                cv.text(more, x, self.bottom + 16, GOLD, 10)
                self.help_more = True
                break
            y -= t.content_height + 5

    def report_lines(self) -> list[str]:
        """The after-action report of a finished stand-alone battle (``bellum.report``), its
        after-battle rolls on a copy of the battle's dice; [] while it goes on."""
        if self.engagement is None or self.state.phase != "over":
            return []
        if self._report is None:
            out = outcome(self.state, self.engagement, Dice.from_state(self.dice.state()))
            rep = AfterAction(self.engagement, out, names=self.side_names, moments=moments(self.events))
            self._report = rep.summary(moments=6)
        return self._report

    def on_draw(self) -> None:
        self._layout()
        if self.dirty:
            self._sync()
        self.clear(color=BG)
        w, h = self.window.width, self.window.height
        arcade.draw_lrbt_rectangle_filled(w * BOARD_SHARE, w, 0, h, PANEL)
        for b in self.buttons:
            if not b.key.startswith("option"):
                arcade.draw_lrbt_rectangle_filled(b.left, b.left + b.width, b.bottom, b.bottom + b.height, (84, 66, 52))
            else:
                arcade.draw_lrbt_rectangle_filled(b.left, b.left + b.width, b.bottom, b.bottom + b.height, (60, 48, 38))
        if not self.help:  # the help covers the whole window
            self.board_shapes.draw()
            self.canvas.draw()
        self.top.draw()


def _where(s: State, uid: str) -> int | None:
    """The square of a unit, or of the fleet it is aboard."""
    u = s.units[uid]
    return u.square if u.aboard is None else s.units[u.aboard].square


def unit_line(s: State, u: Unit, side_names: dict[str, str] | None = None) -> str:
    """The selected unit in words, for the panel (``Words.unit_line``)."""
    return Words.of(s, side_names or {"A": "Side A", "B": "Side B"}).unit_line(s, u)
