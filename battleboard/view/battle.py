"""The battleboard window: the board, units and fleets with their passengers, the
attack-mode choice with exact odds, results, panic and the log; hotseat or against
the AI.  The view only reads the model (``State``) and sends actions through
``rules.apply`` — every highlight comes from ``rules.legal_actions``.  A stand-alone battle
plays through a ``bellum.session.Session`` of ``battleboard.game.BattleboardEngine``: F5
saves it (scenario, seed, dice, action log, checksum), F9 loads it back; a battle of the
campaign has no session (the campaign's own save holds the war).

Drawing is batched: the board is one shape list (rebuilt only when the layout
changes), units and markers one sprite list, every text one pyglet batch; all are
re-synced from the model after each action.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import arcade
from arcade import shape_list
from pyglet.graphics import Batch

from battleboard.ai import choose
from battleboard.model import OFF, Action, State, Unit
from battleboard.odds import summary
from battleboard.resolve import BoardBattle, moments, outcome
from battleboard.rules import active_ground, apply, legal_actions, on_board, scores
from bellum.dice import Dice
from bellum.engagement import Engagement
from bellum.errors import BellumError, RuleError
from bellum.events import Event
from bellum.paths import SAVES
from bellum.report import AfterAction, name_sides
from bellum.session import Session
from bellum.view.widgets import Button

BG = (24, 20, 18)
PANEL = (44, 36, 30)
INK = (236, 222, 190)
DIM = (170, 150, 130)
GOLD = (222, 184, 96, 255)
SIDE_COLORS = {"A": (176, 36, 40), "B": (112, 48, 128)}  # Caesarian red, Senatorial purple
FEATURE_COLORS = {
    "clear": (128, 146, 92),
    "rough": (120, 104, 72),
    "river": (70, 120, 168),
    "walls": (96, 92, 88),
    "impassable": (60, 56, 50),
    "sea": (40, 86, 130),
}
DARK_INK = (40, 30, 26)
BADGE = (30, 26, 22)
#: the discipline letter's colour in a counter's badge: gold Imperator to grey Mob
DISCIPLINE_COLORS = {
    "I": (240, 200, 90),
    "V": (236, 222, 190),
    "R": (170, 200, 230),
    "M": (170, 160, 150),
    "B": (220, 150, 110),
}
DISCIPLINE_NAMES = {"I": "Imperator", "V": "Veteran", "R": "Recruit", "M": "Mob", "B": "Barbarian"}
MOVE_HL = (240, 220, 120, 110)
TARGET_HL = (250, 60, 40, 150)
SELECT_HL = (255, 240, 160, 255)
MODE_NAMES = {
    "phalanx": "Phalanx",
    "fire": "Fire",
    "wedge": "Wedge",
    "quincunx": "Quincunx",
    "testudo": "Testudo",
    "chariot": "Chariot",
    "elephant": "Elephant",
    "ram": "Ram",
}
LOG_LINES = 16


@dataclass(frozen=True)
class _Step:
    """What an undo restores: the state before an action and how long the logs were."""

    state: State
    log: int
    events: int


def _chars(width: float, size: float) -> int:
    """About how many characters of the panel's sans-serif at ``size`` points fit ``width`` pixels."""
    return max(20, int(width / (size * 0.78)))


class BattleView(arcade.View):
    """One battle.  ``ai`` is the set of sides the AI plays; ``menu`` the view to return to."""

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
            if save_path is None:
                self.save_path = SAVES / f"battleboard-{Path(session.scenario).stem}.toml"
        self.menu = menu
        self.menu_label = menu_label  # the Esc button's name (the campaign window: "Campaign")
        self.selected: str | None = None
        self.options: list[Action] = []  # the attacks offered for the chosen target
        self.log: list[str] = [f"{title}."]
        if session is not None:  # every event of the battle so far, for its after-action report
            self.events = list(session.log)
        self.log.extend(e.text for e in self.events)
        self.message = ""
        self.forced: list[str] | None = None  # test seam: combat results for the next action
        self.plan = 0  # which of the generator's allocation / set-up plans is offered
        self.ai_delay = 0.12
        self._ai_clock = 0.0
        #: the computer's player (``battleboard.ai.choose``; the options screen's strength may change it)
        self.ai_choose: Callable[[State], Action] = choose
        self.buttons: list[Button] = []
        self._layout_size: tuple[int, int] = (0, 0)
        self.board_shapes: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        self.hl_shapes: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        self.sprites: arcade.SpriteList[arcade.SpriteSolidColor] = arcade.SpriteList()
        self.batch = Batch()
        self._texts: list[arcade.Text] = []
        self.cell = 48.0
        self.origin = (20.0, 20.0)
        self.dirty = True

    # -- geometry ------------------------------------------------------
    def _layout(self) -> None:
        w, h = self.window.width, self.window.height
        if (w, h) == self._layout_size:
            return
        self._layout_size = (w, h)
        b = self.state.cfg.board
        area_w, area_h = w * 0.62 - 40, h - 80
        self.cell = max(16.0, min(area_w / b.columns, area_h / b.rows))
        self.origin = (20 + (area_w - self.cell * b.columns) / 2, 30 + (area_h - self.cell * b.rows) / 2)
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
                shape_list.create_rectangle_filled(x0, y0, b.columns * self.cell, 5, (*SIDE_COLORS[side], 255))
            )
        self.dirty = True

    def square_center(self, sq: int) -> tuple[float, float]:
        b = self.state.cfg.board
        r, c = divmod(sq, b.columns)
        return self.origin[0] + (c + 0.5) * self.cell, self.origin[1] + (r + 0.5) * self.cell

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
        for e in events:
            if e.kind == "allocate" and e.data.get("side") is not None:
                self.log.append(f"Side {e.data['side']} has allocated in secret.")
            else:
                self.log.append(e.text)
        self.message = ""
        self.selected = None
        self.options = []
        self.dirty = True
        return True

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
    def save(self) -> Path | None:
        """Save the battle (F5) to ``save_path``; a campaign battle is saved with the campaign."""
        if self.standalone is None or self.save_path is None:
            self.message = "This battle is saved with its campaign, not on its own."
            self.dirty = True
            return None
        try:
            path = self.standalone.save(self.save_path)
        except OSError as exc:
            self.message = f"Not saved: {self.save_path} cannot be written ({exc.strerror or exc})."
            self.dirty = True
            return None
        self.message = f"Saved to {path.name}."
        self.dirty = True
        return path

    def load(self, path: Path | None = None) -> bool:
        """Load a save of this battle (F9), replayed and checked (``Session.load``); a bad
        save or one of another battle is refused in one sentence and nothing changes."""
        from battleboard.game import BattleboardEngine

        path = path or self.save_path
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
        self.log = [f"{self.title}.", *(e.text for e in self.events), f"(loaded {path.name})"]
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

    def press(self, key: str) -> None:
        """A panel button or its key."""
        s = self.state
        if key == "menu":
            if self.menu is not None:
                self.window.show_view(self.menu)
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
        }
        numbers = {getattr(arcade.key, f"KEY_{i}"): f"option{i - 1}" for i in range(1, 10)}
        self._layout()
        self._sync_panel()
        if symbol in keys:
            self.press(keys[symbol])
        elif symbol in numbers:
            self.press(numbers[symbol])

    def on_update(self, delta_time: float) -> None:
        self._layout()
        s = self.state
        if s.phase == "over" or self.human_to_act():
            return
        self._ai_clock += delta_time
        if self._ai_clock >= self.ai_delay:
            self._ai_clock = 0.0
            self.act(self.ai_choose(s))

    # -- drawing -------------------------------------------------------
    def _sync(self) -> None:
        s = self.state
        self.sprites = arcade.SpriteList()
        self.hl_shapes = shape_list.ShapeElementList()
        self.batch = Batch()
        self._texts = []
        cell = self.cell
        for u in s.units.values():
            if u.square is None:
                continue
            self._counter(s, u)
        for ld in s.leaders.values():
            sq = ld.square if ld.aboard is None else s.units[ld.aboard].square
            if ld.status != "active" or sq is None:
                continue
            x, y = self.square_center(sq)
            self.sprites.append(
                arcade.SpriteSolidColor(int(cell * 0.16), int(cell * 0.16), x + cell * 0.3, y + cell * 0.3, GOLD)
            )
        if self.selected is not None and self.human_to_act():
            for a in self.unit_actions(self.selected):
                if a.verb == "move" and a.to is not None and a.to != OFF:
                    x, y = self.square_center(a.to)
                    self.hl_shapes.append(shape_list.create_rectangle_filled(x, y, cell - 6, cell - 6, MOVE_HL))
                elif a.verb == "attack":
                    t = s.units[a.target]
                    if t.square is not None:
                        x, y = self.square_center(t.square)
                        self.hl_shapes.append(
                            shape_list.create_rectangle_outline(x, y, cell - 4, cell - 4, TARGET_HL, 4)
                        )
        self._sync_panel()
        self.dirty = False

    def _counter(self, s: State, u: Unit) -> None:
        """One counter, read like a wargame counter: its id in the middle, its discipline in the
        top-left box, its kind and strength below (a fleet: its strength, then one chip per
        passenger with the passenger's kind and strength, the active ground unit edged in gold)."""
        cell = self.cell
        x, y = self.square_center(u.square)  # type: ignore[arg-type]
        color = SIDE_COLORS[u.side]
        if u.flipped:
            color = tuple((c + 255) // 2 for c in color)  # type: ignore[assignment]
        ink = INK if not u.flipped else DARK_INK
        if u.id == self.selected:
            self.sprites.append(arcade.SpriteSolidColor(int(cell * 0.9), int(cell * 0.9), x, y, SELECT_HL))
        self.sprites.append(arcade.SpriteSolidColor(int(cell * 0.78), int(cell * 0.78), x, y, (*color, 255)))
        if u.captured:  # a captured ship flies the captor's colours over the owner's hull: a strip
            owner = SIDE_COLORS[u.owner]
            self.sprites.append(
                arcade.SpriteSolidColor(int(cell * 0.1), int(cell * 0.5), x + cell * 0.33, y, (*owner, 255))
            )
        badge, ident, below = counter_labels(u)
        bx, by, bs = x - cell * 0.27, y + cell * 0.27, max(8, int(cell * 0.2))
        self.sprites.append(arcade.SpriteSolidColor(bs, bs, bx, by, (*BADGE, 255)))
        self._text(badge, bx, by, DISCIPLINE_COLORS.get(u.discipline, INK), max(6, cell * 0.13), center=True, bold=True)
        fleet = u.kind == "fleet"
        self._text(ident, x, y + cell * (0.1 if fleet else 0.06), ink, max(7, cell * 0.18), center=True, bold=True)
        self._text(below, x, y - cell * (0.08 if fleet else 0.24), ink, max(6, cell * 0.15), center=True)
        if not fleet:
            return
        g = active_ground(s, u)
        n = max(2, len(u.cargo))
        width = cell * 0.74 / n
        for i, pid in enumerate(u.cargo):
            px = x - cell * 0.37 + width * (i + 0.5)
            py = y - cell * 0.27
            if g is not None and pid == g.id:
                self.sprites.append(arcade.SpriteSolidColor(int(width - 1), int(cell * 0.22), px, py, GOLD))
            p = s.units[pid]
            pc = (236, 222, 190) if not p.flipped else (150, 140, 130)  # parchment; grey when flipped
            self.sprites.append(arcade.SpriteSolidColor(int(width - 5), int(cell * 0.17), px, py, (*pc, 255)))
            if cell >= 44:
                self._text(_kind_tag(p.kind) + str(p.strength), px, py, DARK_INK, max(6, cell * 0.12), center=True)

    def _text(
        self, text: str, x: float, y: float, color: Any, size: float, *, center: bool = False, bold: bool = False
    ) -> None:
        self._texts.append(
            arcade.Text(
                text,
                x,
                y,
                color,
                size,
                batch=self.batch,
                anchor_x="center" if center else "left",
                anchor_y="center" if center else "baseline",
                bold=bold,
            )
        )

    def _sync_panel(self) -> None:
        s = self.state
        w, h = self.window.width, self.window.height
        px = w * 0.62 + 10
        pw = w - px - 16
        y = h - 34
        head, _, tail = self.title.partition(" — ")
        self._text(head[:46], px, y, GOLD, 15, bold=True)
        y -= 24
        if tail:
            self._text(tail[:60], px, y, GOLD, 12)
            y -= 20
        sc = scores(s)
        phase = "the battle is over" if s.phase == "over" else f"turn {s.turn}: {self.side_names[s.side]} — {s.phase}"
        if s.phase == "allocate":
            phase = "secret allocation of units to fleets"
        self._text(phase, px, y, INK, 12)
        y -= 18
        pan = ", ".join(self.side_names[p] for p in s.panicked) or "nobody"
        names = self.side_names
        self._text(f"SP eliminated: {names['A']} {sc['A']} · {names['B']} {sc['B']}"[:80], px, y, DIM, 11)
        y -= 16
        self._text(f"Panicked: {pan}"[:80], px, y, DIM, 11)
        y -= 18
        if s.phase == "over":
            who = self.side_names[s.winner] if s.winner else "nobody (a draw)"
            for part in textwrap.wrap(f"Winner: {who} — {name_sides(s.end_reason, self.side_names)}", _chars(pw, 11)):
                self._text(part, px, y, GOLD, 11)
                y -= 18
        if self.selected is not None and self.selected in s.units:
            self._text(unit_line(s, s.units[self.selected])[:92], px, y, INK, 10)
            y -= 18
        if self.message:
            self._text(self.message[:90], px, y, (250, 140, 120), 10)
            y -= 18
        # buttons: the phase's actions from the generator
        self.buttons = []
        bw, bh = (pw - 10) / 3, 26
        row_y = y - bh - 4
        acts = legal_actions(s) if s.phase != "over" else []
        wanted: list[tuple[str, str, Action | None]] = []
        setup = [a for a in acts if a.verb in ("allocate", "deploy") and a.side not in self.ai]
        if setup:
            setup = [a for a in setup if a.side == setup[0].side]
            plan = setup[self.plan % len(setup)]
            verb = "Allocate" if plan.verb == "allocate" else "Set up"
            key = "allocate" if plan.verb == "allocate" else "deploy"
            wanted.append((key, f"{verb} {plan.side} [{'L' if key == 'allocate' else 'S'}]", plan))
            if len(setup) > 1:
                wanted.append(("plan", f"Plan {self.plan % len(setup) + 1}/{len(setup)} [P]", None))
            self._text(_describe(s, plan)[:92], px, y, DIM, 9)
            y -= 16
            row_y = y - bh - 4
        for a in acts:
            if a.verb == "command":
                wanted.append(("command", "Command checks [C]", a))
            elif a.verb == "double":
                wanted.append(("double", "Double move [D]", a))
            elif a.verb == "withdraw":
                wanted.append(("withdraw", "Withdraw the army [W]", a))  # §10.4
            elif a.verb == "end_turn":
                wanted.append(("end_turn", "End turn [Enter]", a))
        if self.selected is not None:
            off = [a for a in self.unit_actions(self.selected) if a.verb == "move" and a.to == OFF]
            if off:
                wanted.append(("off", "Leave the board [O]", off[0]))
        if s.phase != "over":
            wanted.append(("ai", "AI move [Space]", None))
        if self._undo:
            wanted.append(("undo", "Undo [U]", None))
        if self.standalone is not None:
            wanted.append(("save", "Save [F5]", None))
            wanted.append(("load", "Load [F9]", None))
        wanted.append(("menu", f"{self.menu_label} [Esc]", None))
        for i, (key, label, action) in enumerate(wanted):
            col = i % 3
            if col == 0 and i:
                row_y -= bh + 6
            self.buttons.append(Button(key, label, px + col * (bw + 5), row_y, bw, bh, action))
            self._text(label, px + col * (bw + 5) + bw / 2, row_y + bh / 2, INK, 9, center=True)
        y = row_y - 22
        # the attack-mode choice, with exact odds
        if self.options:
            self._text("Attack — choose a mode:", px, y, GOLD, 11)
            y -= 18
            for i, a in enumerate(self.options[:9]):
                o = summary(s, a)
                name = MODE_NAMES.get(a.mode, a.mode)
                if s.naval and a.mode not in ("ram", "fire"):
                    name = f"Board ({name}), {'capture' if a.capture else 'sink'}"
                text = (
                    f"[{i + 1}] {name}: target flipped {o['target_flipped']:.0%}, lost {o['target_eliminated']:.0%},"
                    f" attacker hurt {o['attacker_hurt']:.0%}"
                )
                self.buttons.append(Button(f"option{i}", text, px, y - 4, pw, 18))
                self._text(text, px, y, INK, 9)
                y -= 18
        # the log, or once the battle is over its after-action report
        y -= 6
        report = self.report_lines()
        self._text("After-action report" if report else "Log", px, y, GOLD, 11)
        y -= 16
        wrapped = [part for line in report for part in textwrap.wrap(line, _chars(pw, 9), subsequent_indent="  ")]
        for line in wrapped or self.log[-LOG_LINES:]:
            if y < 12:
                break
            self._text(line[:88], px, y, DIM, 9)
            y -= 14

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
        arcade.draw_lrbt_rectangle_filled(w * 0.62, w, 0, h, PANEL)
        for b in self.buttons:
            if not b.key.startswith("option"):
                arcade.draw_lrbt_rectangle_filled(b.left, b.left + b.width, b.bottom, b.bottom + b.height, (84, 66, 52))
        self.board_shapes.draw()
        self.hl_shapes.draw()
        self.sprites.draw()
        self.batch.draw()


def _describe(s: State, a: Action) -> str:
    """A set-up plan in words (an allocation shows only one's own side: it is secret)."""
    if a.verb == "allocate":
        return "; ".join(f"{f}: {', '.join(g) or '-'}" for f, g in a.plan)
    b = s.cfg.board
    return ", ".join(f"{uid} {b.name(sq)}" for uid, sq in a.placements)


def _kind_tag(kind: str) -> str:
    return {
        "legion": "Lg",
        "heavy_infantry": "HI",
        "auxiliary": "Ax",
        "cavalry": "Cv",
        "heavy_cavalry": "HC",
        "light_cavalry": "LC",
        "phalanx": "Ph",
        "mob": "Mb",
        "elephant": "El",
        "chariot": "Ch",
        "civis": "Cs",
        "impeditus": "Im",
    }.get(kind, kind[:2])


def counter_labels(u: Unit) -> tuple[str, str, str]:
    """What a counter shows: (discipline badge, id, kind and strength), e.g. ``("V", "X", "Lg 5")``;
    a fleet's last line is ``"Fl 3"`` (its passengers are chips of their own)."""
    ident = u.id if len(u.id) <= 8 else u.id[:7] + "…"
    tag = "Fl" if u.kind == "fleet" else _kind_tag(u.kind)
    return u.discipline, ident, f"{tag} {u.strength}"


def unit_line(s: State, u: Unit) -> str:
    """The selected unit in words, for the panel."""
    what = f"{u.id}: {u.kind.replace('_', ' ')}, {DISCIPLINE_NAMES.get(u.discipline, u.discipline)}, {u.strength} SP"
    if u.kind == "fleet":
        aboard = [
            f"{p} ({s.units[p].kind.replace('_', ' ')} {s.units[p].discipline}{s.units[p].strength})" for p in u.cargo
        ]
        what += "; carrying " + (", ".join(aboard) or "nobody")
    if u.flipped:
        what += "; disrupted"
    if u.failed:
        what += "; failed its command check"
    return what
