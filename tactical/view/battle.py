"""The tactical battle window: the GBoH map, counters, and every choice of an activation.

The view only reads the model and sends actions: every highlight and every button comes
from the one legal-action generator (``Session.legal_actions``); moves follow the movement
search's least-cost paths (``tactical.movement.reachable``, kept only where the generator
offers the same path); designations, shocks and fire show the exact odds of
``tactical.odds`` (the real resolver over every die face) before the player confirms; and
every action goes through ``Session.play`` (undo through ``Session.undo``, which refuses
once a die was rolled or the activation has ended).

The Shock segment follows 003 §8.3: the attacker first designates every combat (select an
attacker, click the enemy: the panel lists each designation the generator offers against
it with its odds as the position stands), then presses *Resolve*, then resolves the
designated combats in the order he likes (a pending combat is a button, or click its
defender): each with its own options (pursuit…) and the odds of the real next roll.

The defender's decisions (docs/rules/tactical.md §8.13): when a move, shock or hit and run
waits on the defending side (``State.reacting``), the side to act is the defender — the top
line says so, the panel asks the question in words, the map rings what waits (amber) and
who may react (green), a human defender's view is brought to the hex, and the choice list
holds exactly the generator's answers (each reaction and "No reaction"), a shock's with the
exact odds of the shock after that choice.  The AI plays whichever side is to act, the
defender included.

Drawing (``on_draw``): the ground is one mipmapped texture rendered once
(``tactical.view.terrain``); highlights one shape list rebuilt when the selection changes;
counters, facing notches and leaders one sprite list whose sprites are updated only where
the model changed (``tactical.view.sprites.CounterLayer``); world labels and the HUD one
pyglet batch each.  The world is drawn through a ``Camera2D`` (zoom and pan), the HUD
through a second camera that stays put.  A frame after a change draws every layer into an
offscreen framebuffer; an unchanged frame only copies that framebuffer to the screen.

The panel (issue 16), top to bottom: each side's rout points against its withdrawal level as a
bar; the selected piece; the Choices panel — every action the generator offers now, grouped
(``tactical.view.choices``: resolve, fire and shock rows with their exact odds, rally, the
rest, a Move row per piece with the count of hexes it can reach) — or, while a fire or combat
is looked at, its odds with Confirm / Cancel; the minimap (click to go there; the gold
rectangle is the map area's view); the dice and the log.  The camera opens on both battle
lines (``tactical.view.camera``); a leader's token writes his name by the abbreviation rule
(``bellum.view.names.abbreviate``), the hover card the full name; F1 opens the help (controls, legend, and
the rules section for what is selected: ``tactical.view.helptext``).  ``text_boxes`` lists
every text on screen with the place it must stay inside (the tests check none is cut or
overlaps another).

Mouse: left-click a unit to select it (an enemy: to read its counter in the panel), a
highlighted hex to move there (near one of its corners: to end facing that vertex), a
corner of the unit's own hex to turn, a red enemy to open the odds panel (again: the next
option), Confirm / Cancel under the odds, a button of the choice list to play it;
right-drag pans, the wheel zooms.  Keys: N the next piece that can act, Q / E turn, C carry
a unit with the selected leader, L every leader's command range, Enter confirm, Tab
another option, Esc cancel, U undo, P pass, R resolve, 1–9 the numbered choices (PgUp / PgDn
more), F1 help, F5 save, F9 load, arrows pan, + / - zoom, Home the whole field, Space centre on
the selection.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import arcade
from arcade import shape_list
from pyglet import gl
from pyglet.graphics import Batch

from bellum import slots
from bellum.errors import BellumError
from bellum.session import Session
from bellum.view import textfit
from tactical.actions import (
    Action,
    Designate,
    Fire,
    Move,
    Pass,
    React,
    Resolve,
    Shock,
)
from tactical.engagement import TacticalBattle
from tactical.hexes import FACING_CLOCK
from tactical.movement import mp_text, reachable
from tactical.state import Leader, State, Unit
from tactical.view import palette as P
from tactical.view.camera import opening_frame
from tactical.view.choices import Choice, build_choices
from tactical.view.geometry import HexLayout
from tactical.view.helptext import ABBREVIATION_WORDS, CONTROLS, COUNTER_WORDS, LEGEND, rules_text, section_for
from tactical.view.minimap import Minimap
from tactical.view.play import load_session, session_state, try_play
from tactical.view.sprites import CounterLayer, label_texture
from tactical.view.terrain import terrain_layer
from tactical.view.words import (
    actors_of,
    describe_variant,
    hex_words,
    log_tail,
    odds_lines,
    piece_words,
    reaction_prompt,
    target_of,
)

HEX = 36.0
#: a box in window pixels: (left, bottom, right, top)
Box = tuple[float, float, float, float]
PANEL_W = 360
TOP_H = 34
BOTTOM_H = 22
LOG_LINES = 7
#: characters of the log's font per panel line (for wrapping)
LOG_WIDTH = 52
#: rows of the Choices panel at most at once (PgUp / PgDn page through more; fewer when
#: they do not fit)
MAX_CHOICES = 14
#: the combat log's height, and the minimap's, at the bottom of the panel
LOG_H = 96
MINIMAP_H = 152
#: the panel's bottom margin, left free for a strip drawn over the window's foot (watch mode)
FOOT = 30
#: variants listed in the odds panel around the current one
MAX_VARIANTS = 6
#: where the rout-point bars begin in the panel
BAR_X = 228
#: the info's height in the panel (more, up to INFO_MAX, when its text needs it)
INFO_H = 94
INFO_MAX = 220
#: the width of each of the help's two columns
HELP_COL = 410
ZOOMS = (0.2, 0.25, 0.3, 0.35, 0.45, 0.55, 0.65, 0.8, 1.0, 1.25, 1.5, 2.0)
#: the zoom a battle opens at, centred on the action (Home shows the whole field)
START_ZOOM = 0.8


@dataclass
class Pending:
    """A fire, designation or shock the player is looking at before confirming: every
    variant the generator offers against ``target`` and the odds of the one shown."""

    target: str
    variants: list[Action]
    index: int = 0
    lines: list[str] | None = None
    odds: dict[Any, Fraction] | None = None
    cache: dict[Action, tuple[list[str], dict[Any, Fraction] | None]] = field(default_factory=dict)

    @property
    def action(self) -> Action:
        return self.variants[self.index]


class BattleView(arcade.View):
    """One tactical battle driven through a ``Session``.  ``ai_sides``: the sides the AI plays."""

    def __init__(
        self,
        session: Session[Any, Any] | None = None,
        *,
        battle: TacticalBattle | None = None,
        title: str = "Tactical battle",
        side_names: dict[str, str] | None = None,
        ai_sides: frozenset[str] = frozenset(),
        menu: arcade.View | None = None,
        save_path: Path | None = None,
        ai_delay: float = 0.35,
    ) -> None:
        super().__init__()
        #: a campaign battle (``tactical.engagement.TacticalRoute.begin``): the window plays
        #: through its session, and the route concludes it when the player leaves
        self.battle = battle
        if battle is None:
            assert session is not None, "a tactical view opens on a session or a battle"
            self._session = session
        session = self.session
        self.title = title
        self.side_names = side_names or {"A": "Side A", "B": "Side B"}
        self.ai_sides = ai_sides
        self.menu = menu
        #: the file F5 writes and F9 reads (None: the battle's file in the player's saves folder, ``save_file``)
        self.save_path = save_path
        #: seconds between two of the AI's actions (a watch mode's speed)
        self.ai_delay = ai_delay
        self._init_model()
        self._init_drawing()
        self.refresh()

    def _init_model(self) -> None:
        """What the HUD shows and the tests read."""
        self.selected: str | None = None
        #: the unit the selected leader takes with him (003 §4.2), or None
        self.carry: str | None = None
        self._ranges: dict[tuple[int, int], list[int]] = {}
        #: a piece clicked only to read its counter (an enemy): shown in the info panel
        self.inspected: str | None = None
        #: outline every command range of the side to act (key L), not only the activated leader's
        self.show_ranges = False
        #: reachable (hex, facing) nodes of the selected mover -> (cost in half MP, path)
        self.nodes: dict[int, tuple[int, tuple[str, ...]]] = {}
        #: hex -> least cost (half MP) over the reachable nodes in it
        self.reach: dict[int, int] = {}
        #: enemy id -> the generator's fire / designate / shock actions of the selection against it
        self.targets: dict[str, list[Action]] = {}
        self.pending: Pending | None = None
        self.choices: list[Choice] = []
        #: the first row of the Choices panel shown, the first rows of the pages before, and
        #: the first row not shown (the list pages by what fits)
        self.choice_first = 0
        self._pages: list[int] = []
        self.choice_next = 0
        self.message = ""
        #: F1: the help over the map area, and how far its rules text is scrolled
        self.help_open = False
        self.help_scroll = 0
        self._version = 0
        self._ai: Any = None
        self._ai_clock = 0.0
        self._legal_key: Any = None
        self._legal: list[Action] = []
        self._by_actor: dict[str, list[Action]] = {}
        #: the Choices panel's odds worked out in this state, by action
        self._odds_memo: dict[Action, str] = {}
        #: the piece under the mouse (its hover card)
        self.hovered: str | None = None

    def _init_drawing(self) -> None:
        self.layout = HexLayout(self.state.field.grid, HEX)
        self.world_camera = arcade.Camera2D()
        self.hud_camera = arcade.Camera2D()
        self.terrain = terrain_layer(self.window.ctx, self.state.field, self.layout)
        self.highlights: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        self.hud_shapes: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList(blend=False)
        self.button_shapes: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        self.overlay: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        self.counters = CounterLayer(self.layout)
        self.minimap = Minimap(self.state, self.layout)
        #: the movement cost written in each reachable hex: (hex, text), and their sprites
        self.cost_labels: list[tuple[int, str]] = []
        self.labels: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.hud_batch = Batch()
        self.help_batch = Batch()
        self.help_shapes: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        self._build_hud_texts()
        self._hud_size = (0, 0)
        self.choice_top = 0.0
        self.choice_bottom = 0.0
        #: the odds panel's buttons (left, bottom, right, top in window pixels)
        self.confirm_box: tuple[float, float, float, float] = (0, 0, 0, 0)
        self.cancel_box: tuple[float, float, float, float] = (0, 0, 0, 0)
        self._cache: Any = None
        self._cache_key: Any = None
        self._centred = False

    # -- the model --------------------------------------------------------------------------
    @property
    def session(self) -> Session[Any, Any]:
        """The game the window plays (a campaign battle's own session when there is one)."""
        return self.battle.session if self.battle is not None else self._session

    @session.setter
    def session(self, value: Session[Any, Any]) -> None:
        if self.battle is not None:
            self.battle.session = value
        else:
            self._session = value

    @property
    def state(self) -> State:
        return session_state(self.session)

    @property
    def sprites(self) -> arcade.SpriteList[arcade.Sprite]:
        return self.counters.sprites

    def legal(self) -> list[Action]:
        """The generator's actions for the current state (computed once per state; the state
        itself is the key, held so that its id cannot be reused by a later one)."""
        if self.session.state is not self._legal_key:
            self._legal = list(self.session.legal_actions())
            self._legal_key = self.session.state
            self._by_actor = {}
            self._odds_memo = {}
            for a in self._legal:
                actors = (a.unit,) if isinstance(a, Move) else actors_of(a)
                for uid in actors:
                    self._by_actor.setdefault(uid, []).append(a)
        return self._legal

    def actions_of(self, piece: str) -> list[Action]:
        """The generator's actions that ``piece`` moves, fires or attacks in (from ``legal``)."""
        self.legal()
        return self._by_actor.get(piece, [])

    def refresh(self, keep: str | None = None) -> None:
        """Re-sync everything from the model after an action, an undo or a load; ``keep``
        stays selected if it can still act."""
        self.counters.sync(self.state)
        self.minimap.sync(self.state)
        self._select(keep)
        if keep is not None and not (self.reach or self.targets):
            self._select(None)

    def _select(self, mover_id: str | None) -> None:
        self.selected = mover_id
        self.nodes, self.reach, self.targets = {}, {}, {}
        self.pending = None
        state = self.state
        if mover_id is not None:
            if self.carry is not None and mover_id not in state.leaders:
                self.carry = None
            offered = {
                a.path
                for a in self.actions_of(mover_id)
                if isinstance(a, Move) and a.unit == mover_id and a.carry == self.carry
            }
            if offered:
                mover: Unit | Leader = (
                    state.units[self.carry]
                    if self.carry is not None
                    else (state.units.get(mover_id) or state.leaders[mover_id])
                )
                r = reachable(state, mover)
                for node, path in r.notations(r.ends()).items():
                    if path in offered:
                        cost = r.dist[node]
                        self.nodes[node] = (cost, path)
                        h = node // 6
                        if cost < self.reach.get(h, 1 << 30):
                            self.reach[h] = cost
            for a in self.actions_of(mover_id):
                target = target_of(a)
                if target is not None:
                    self.targets.setdefault(target, []).append(a)
        self._build_choices()
        self._build_highlights()
        self._update_hud()

    def select(self, mover_id: str | None) -> None:
        """Select a unit or leader (or clear the selection)."""
        if mover_id is not None and mover_id not in self.state.units and mover_id not in self.state.leaders:
            raise KeyError(mover_id)
        self.message = ""
        self.inspected = None
        if mover_id != self.selected:
            self.carry = None
        self._select(mover_id)

    def next_piece(self) -> str | None:
        """Select the next unit or leader (by id) that still has a move, a fire or an attack,
        and bring it into view."""
        state = self.state
        pieces = sorted(
            pid
            for pid in (*state.units, *state.leaders)
            if any(not isinstance(a, Move) or a.unit == pid for a in self.actions_of(pid))
        )
        if not pieces:
            self.message = "No unit or leader has anything left to do: pass, rally or resolve."
            self._update_hud()
            return None
        after = [p for p in pieces if self.selected is None or p > self.selected]
        self.select((after or pieces)[0])
        self.centre_on_action(zoom=None)
        return self.selected

    def toggle_carry(self) -> bool:
        """With the activated leader selected: take the next friendly unit stacked with him
        along (003 §4.2), or none again."""
        if self.selected is None or self.selected not in self.state.leaders:
            return False
        units = sorted({a.carry for a in self.actions_of(self.selected) if isinstance(a, Move) and a.carry is not None})
        if not units:
            self.message = f"{self.selected} has no unit with him to take along."
            self._update_hud()
            return False
        order: list[str | None] = [None, *units]
        self.carry = order[(order.index(self.carry) + 1) % len(order)] if self.carry in order else None
        self._select(self.selected)
        return True

    def _build_choices(self) -> None:
        """The Choices panel's rows (``tactical.view.choices``): the selection's, or everyone's."""
        shown = self.selected if self.selected in self.state.units or self.selected in self.state.leaders else None
        self.choices = build_choices(self.state, self.legal(), shown, self._odds_memo)
        self.choice_first, self._pages = 0, []

    # -- actions ------------------------------------------------------------------------------
    def play(self, action: Action) -> bool:
        """Play ``action`` through the session; the rule's sentence on refusal."""
        keep = self.selected if isinstance(action, Move | Fire | Designate) else None
        if isinstance(action, Move) and action.carry is not None:
            keep = None
        _events, why = try_play(self.session, action)
        if why:
            self.message = why
            self._update_hud()
            return False
        self.message = ""
        self.carry = None
        self.refresh(keep)
        self._show_reaction()
        return True

    def _show_reaction(self) -> None:
        """A human defender asked to react (docs/rules/tactical.md §8.13) sees where: the map
        comes to the hex the waiting move reached, if it is out of view."""
        p = self.state.reacting
        if p is None or p.kind != "move" or p.side in self.ai_sides or not hasattr(self, "t_top"):
            return
        sx, sy = self.screen_point(*self.layout.centre(p.at))
        if not (0 < sx < self.window.width - PANEL_W and BOTTOM_H < sy < self.window.height - TOP_H):
            self.look_at(p.at)

    def choose(self, choice: Choice) -> bool:
        """A row of the Choices panel: play it; a Move row selects its piece and shows its
        reachable hexes; an odds row opens the odds panel on its options."""
        if choice.heading:
            return False
        if choice.group == "move" and choice.unit is not None:
            if self.selected != choice.unit:
                self.select(choice.unit)
            self._bring_into_view(choice.unit)
            return True
        if not choice.opens or choice.action is None:
            return self.play(choice.action) if choice.action is not None else False
        variants, target = list(choice.variants), choice.target
        self._select(actors_of(choice.action)[0])
        self._open(target, variants)
        return True

    def _bring_into_view(self, piece: str) -> None:
        """Slide the map to ``piece`` if it is outside the map area (zoom kept)."""
        p = self.state.units.get(piece) or self.state.leaders.get(piece)
        if p is None or not p.on_map:
            return
        left, bottom, right, top = self.map_area()
        sx, sy = self.screen_point(*self.layout.centre(p.hex))
        if not (left + 40 < sx < right - 40 and bottom + 40 < sy < top - 40):
            self._look_at(*self.layout.centre(p.hex))
            self._version += 1

    def move_to(self, hex_index: int, facing: int | None = None) -> bool:
        """Move the selected mover to ``hex_index`` (ending facing ``facing`` if given) by the
        generator's path; the cheapest end in that hex otherwise."""
        if self.selected is None:
            return False
        nodes = [n for n in self.nodes if n // 6 == hex_index and (facing is None or n % 6 == facing)]
        if not nodes:
            self.message = "That hex cannot be reached."
            self._update_hud()
            return False
        node = min(nodes, key=lambda n: (self.nodes[n][0], n))
        path = self.nodes[node][1]
        variants: list[Action] = [
            a
            for a in self.actions_of(self.selected)
            if isinstance(a, Move) and a.unit == self.selected and a.path == path and a.carry == self.carry
        ]
        if len(variants) > 1:  # the generator offers choices along this path (reactions): pick one
            self._open("", variants)
            return True
        return self.play(variants[0] if variants else Move(self.selected, path, carry=self.carry))

    def turn(self, step: int) -> bool:
        """Turn the selected unit ``step`` vertices clockwise in place (if offered)."""
        unit = self.state.units.get(self.selected or "")
        if unit is None:
            return False
        return self.move_to(unit.hex, (unit.facing + step) % 6)

    def aim(self, target: str) -> None:
        """Open the odds panel for the selection's fire, designation or shock against ``target``."""
        variants = self.targets.get(target)
        if not variants:
            self.message = f"{self.selected} cannot fire at, designate or shock {target} now."
            self._update_hud()
            return
        self._open(target, list(variants))

    def _open(self, target: str, variants: list[Action]) -> None:
        # the simplest option first: fewest attackers, no special choices
        variants.sort(key=lambda a: (len(describe_variant(a)), describe_variant(a)))
        self.pending = Pending(target, variants)
        self._compute_odds()
        self._build_highlights()
        self._update_hud()

    def cycle(self, step: int = 1) -> None:
        if self.pending is not None and len(self.pending.variants) > 1:
            self.pending.index = (self.pending.index + step) % len(self.pending.variants)
            self._compute_odds()
            self._build_highlights()
            self._update_hud()

    def confirm(self) -> bool:
        if self.pending is None:
            return False
        return self.play(self.pending.action)

    def cancel(self) -> None:
        if self.pending is not None:
            self.pending = None
            self._build_highlights()
            self._update_hud()
        else:
            self.select(None)

    def undo(self) -> bool:
        if not self.session.can_undo():
            self.message = "Nothing to take back: dice were rolled, or the activation has ended."
            self._update_hud()
            return False
        self.session.undo()
        self.refresh()
        self.message = "Taken back."
        self._update_hud()
        return True

    def save_file(self) -> Path:
        """``save_path``, or else the battle's file in the player's saves folder
        (``bellum.slots.saves_folder``, worked out at save time: ``$BELLUM_HOME`` is honoured)."""
        return self.save_path or slots.saves_folder("tactical") / f"{Path(self.session.scenario).stem}.toml"

    def save(self) -> Path | None:
        target = self.save_file()
        try:
            path = self.session.save(target)
        except OSError as exc:  # a full disc, a folder that cannot be written: one sentence
            self.message = f"Not saved: {target} cannot be written ({exc.strerror or exc})."
            self._update_hud()
            return None
        self.message = f"Saved to {path.name}."
        self._update_hud()
        return path

    def load(self, path: Path | None = None) -> bool:
        try:
            self.session = load_session(path or self.save_file(), self.session.scenario)
        except BellumError as why:
            self.message = str(why)
            self._update_hud()
            return False
        self._legal_key = None
        self.refresh()
        self.message = "Loaded."
        self._update_hud()
        return True

    def _compute_odds(self) -> None:
        pend = self.pending
        assert pend is not None
        action = pend.action
        if action not in pend.cache:
            pend.cache[action] = odds_lines(self.state, action)
        lines, pend.odds = pend.cache[action]
        head = []
        n = len(pend.variants)
        lo = max(0, min(pend.index - MAX_VARIANTS // 2, n - MAX_VARIANTS))
        for k in range(lo, min(n, lo + MAX_VARIANTS)):
            mark = ">" if k == pend.index else " "
            head.append(f"{mark} {k + 1}. {describe_variant(pend.variants[k])}")  # wrapped, never cut
        if n > MAX_VARIANTS:
            head.append(f"  ({n} options: Tab for the next)")
        tail = ["Tab / click the enemy again: next option"]
        pend.lines = [*head, "", *lines, "", *tail]

    # -- drawing: re-synced from the model ----------------------------------------------------
    def _build_highlights(self) -> None:
        self._version += 1
        sl: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        lay, state = self.layout, self.state
        self.labels = arcade.SpriteList()
        self.cost_labels = []
        active = state.leaders.get(state.seq.leader or "")
        if self.show_ranges:
            for ld in state.leaders.values():
                if ld.on_map and ld.side == state.seq.side and ld is not active:
                    self._range_outline(sl, ld, (236, 222, 190, 170))
        if active is not None and active.on_map and state.seq.phase in ("move", "shock"):
            self._range_outline(sl, active, (120, 200, 255, 200))
        if state.seq.group and state.seq.phase in ("move", "shock"):
            for uid in state.seq.group:
                u = state.units.get(uid)
                if u is not None and u.on_map:
                    for h in u.hexes():
                        sl.append(shape_list.create_line_loop(lay.corners(h, 0.99), (120, 200, 255, 220), 3))
        # designated combats (003 §8.3) over the counters: an arrow from each attacker, a ring
        overlay: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        for attackers, defender in state.designations:
            d = state.units.get(defender)
            if d is None or not d.on_map:
                continue
            dx, dy = lay.centre(d.hex)
            for h in d.hexes():
                overlay.append(shape_list.create_line_loop(lay.corners(h, 0.9), (230, 40, 30, 255), 3))
            for aid in attackers:
                a = state.units.get(aid)
                if a is not None and a.on_map:
                    ax, ay = lay.centre(a.hex)
                    _arrow(overlay, ax, ay, dx, dy, (230, 40, 30, 255))
        self._reaction_rings(overlay)
        self.overlay = overlay
        if self.selected is not None:
            mover = state.units.get(self.selected) or state.leaders.get(self.selected)
            if isinstance(mover, Leader) and mover.on_map:
                for i in self._within(mover.hex, mover.range):
                    sl.append(shape_list.create_polygon(lay.corners(i, 0.96), P.COMMAND_HL))
            occupied = {h for u in state.units.values() if u.on_map for h in u.hexes()}
            for h, cost in self.reach.items():
                sl.append(shape_list.create_polygon(lay.corners(h, 0.9), P.MOVE_HL))
                if h in occupied:  # the counter would hide its figures under the label
                    continue
                x, y = lay.centre(h)
                text = str(mp_text(cost))
                self.cost_labels.append((h, text))
                label = arcade.Sprite(label_texture(text), scale=0.5)
                label.position = (x - lay.size * 0.5 + label.width / 2, y - lay.size * 0.42)
                self.labels.append(label)
            for tid in self.targets:
                enemy = state.units[tid]
                for h in enemy.hexes():
                    sl.append(shape_list.create_polygon(lay.corners(h, 0.92), P.TARGET_HL))
            if mover is not None and mover.on_map:
                hexes = mover.hexes() if isinstance(mover, Unit) else (mover.hex,)
                for h in hexes:
                    sl.append(shape_list.create_line_loop(lay.corners(h, 0.97), P.SELECT_HL, 4))
            if self.carry is not None:
                cu = state.units.get(self.carry)
                if cu is not None and cu.on_map:
                    for h in cu.hexes():
                        sl.append(shape_list.create_line_loop(lay.corners(h, 0.85), (120, 200, 255, 255), 3))
        if self.pending is not None:
            action = self.pending.action
            for uid in actors_of(action):
                u = state.units.get(uid)
                if u is not None and u.on_map:
                    for h in u.hexes():
                        sl.append(shape_list.create_line_loop(lay.corners(h, 0.97), P.SELECT_HL, 4))
            t = state.units.get(self.pending.target)
            if t is not None and t.on_map:
                for h in t.hexes():
                    sl.append(shape_list.create_line_loop(lay.corners(h, 0.97), (255, 60, 40, 255), 5))
        self.highlights = sl

    def _reaction_rings(self, overlay: shape_list.ShapeElementList[Any]) -> None:
        """While the defender decides (docs/rules/tactical.md §8.13): an amber ring on what waits
        (the mover, the attackers, the hit-and-run firer), a green one on each piece the
        generator lets react."""
        state, lay = self.state, self.layout
        p = state.reacting
        if p is None:
            return
        if p.kind in ("move", "rampage"):
            waiting = [p.action.elephant] if p.kind == "rampage" else [p.action.carry or p.action.unit]
            reactors = {a.reaction.unit for a in self.legal() if isinstance(a, React) and a.reaction is not None}
        elif p.kind == "shock":
            waiting, reactors = list(p.action.attackers), {p.action.defender}
        else:
            waiting, reactors = [p.action.unit], {p.action.target}
        for ids, colour in ((waiting, (255, 170, 0, 255)), (sorted(reactors), (90, 220, 120, 255))):
            for pid in ids:
                piece = state.units.get(pid) or state.leaders.get(pid)
                if piece is None or not piece.on_map:
                    continue
                hexes = piece.hexes() if isinstance(piece, Unit) else (piece.hex,)
                for h in hexes:
                    overlay.append(shape_list.create_line_loop(lay.corners(h, 0.8), colour, 3))

    def _range_outline(self, sl: shape_list.ShapeElementList[Any], leader: Leader, colour: P.RGBA) -> None:
        """The border of the leader's command range (003 §4.2 / 000 §4.2): every hexside between a
        hex within range and one outside it."""
        for (x1, y1), (x2, y2) in self._range_border(leader.hex, leader.range):
            sl.append(shape_list.create_line(x1, y1, x2, y2, colour, 3))

    def _within(self, centre: int, radius: int) -> list[int]:
        """The hexes within ``radius`` of ``centre`` (a command range), computed once per place."""
        key = (centre, radius)
        if key not in self._ranges:
            grid = self.state.field.grid
            c0, r0 = grid.col_row(centre)
            rows = range(max(1, r0 - radius), min(grid.rows, r0 + radius) + 1)
            cols = range(max(1, c0 - radius - 1), min(grid.columns, c0 + radius + 1) + 1)
            near = ((r - 1) * grid.columns + (c - 1) for r in rows for c in cols)
            self._ranges[key] = [i for i in near if grid.distance(centre, i) <= radius]
        return self._ranges[key]

    def _range_border(self, centre: int, radius: int) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        grid, lay = self.state.field.grid, self.layout
        inside = set(self._within(centre, radius))
        return [lay.side_ends(i, d) for i in inside for d in range(6) if grid.nbr[i * 6 + d] not in inside]

    # -- HUD --------------------------------------------------------------------------------
    def _build_hud_texts(self) -> None:
        b = self.hud_batch
        inner = PANEL_W - 24
        self.t_top = arcade.Text("", 0, 0, P.INK, 13, bold=True, batch=b)
        self.t_help_key = arcade.Text("F1 help", 0, 0, P.GOLD, 12, bold=True, anchor_x="right", batch=b)
        #: rout points against the withdrawal level, a bar per side (003 §10.4)
        self.t_sides = {s: arcade.Text("", 0, 0, P.INK, 10, batch=b) for s in ("A", "B")}
        self.t_info = arcade.Text("", 0, 0, P.INK, 11, multiline=True, width=inner, anchor_y="top", batch=b)
        self.t_odds_head = arcade.Text("", 0, 0, P.GOLD, 12, bold=True, anchor_y="top", batch=b)
        self.t_odds = arcade.Text("", 0, 0, P.INK, 10, multiline=True, width=inner, anchor_y="top", batch=b)
        self.t_choices = [
            arcade.Text("", 0, 0, P.INK, 11, multiline=True, width=inner - 12, anchor_y="top", batch=b)
            for _ in range(MAX_CHOICES)
        ]
        self.t_details = [
            arcade.Text("", 0, 0, P.DIM, 10, multiline=True, width=inner - 26, anchor_y="top", batch=b)
            for _ in range(MAX_CHOICES)
        ]
        self.t_dice = arcade.Text("", 0, 0, P.GOLD, 10, batch=b)
        self.t_confirm = arcade.Text("", 0, 0, P.INK, 11, bold=True, anchor_x="center", batch=b)
        self.t_cancel = arcade.Text("", 0, 0, P.INK, 11, anchor_x="center", batch=b)
        self.t_map_head = arcade.Text("Field (click to go there)", 0, 0, P.GOLD, 10, bold=True, batch=b)
        self.t_log_head = arcade.Text("Combat log", 0, 0, P.GOLD, 11, bold=True, batch=b)
        self.t_log = arcade.Text("", 0, 0, P.DIM, 9, multiline=True, width=inner, anchor_y="top", batch=b)
        self.t_msg = arcade.Text("", 0, 0, P.BAD, 12, multiline=True, width=600, anchor_y="top", batch=b)
        #: the hex under the mouse: id, terrain, level, hexside features (in the bottom bar)
        self.t_hex = arcade.Text("", 0, 0, P.DIM, 10, anchor_x="right", batch=b)
        self._hover = -1
        self.t_keys = arcade.Text(
            "F1 help · N next · P pass · R resolve · U undo · Esc cancel · wheel zoom · right-drag pan",
            0, 0, P.DIM, 10, batch=b,
        )  # fmt: skip
        #: the hover card: the full name of the piece under the mouse
        self.t_tip = arcade.Text("", 0, 0, P.INK, 10, multiline=True, width=420, anchor_y="top", batch=b)
        self.tip_box: tuple[float, float, float, float] | None = None
        self._build_help_texts()

    def _build_help_texts(self) -> None:
        hb = self.help_batch
        self.h_heads = [
            arcade.Text(t, 0, 0, P.GOLD, 12, bold=True, anchor_y="top", batch=hb) for t in ("Controls", "Legend")
        ]
        self.h_controls = arcade.Text(
            "\n".join(CONTROLS), 0, 0, P.INK, 10, multiline=True, width=HELP_COL, anchor_y="top", batch=hb
        )
        self.h_legend = [
            arcade.Text(words, 0, 0, P.INK, 10, multiline=True, width=HELP_COL - 30, anchor_y="top", batch=hb)
            for _colour, words in LEGEND
        ]
        marks = " ".join(COUNTER_WORDS) + "\n\n" + " ".join(ABBREVIATION_WORDS)
        self.h_counter = arcade.Text(marks, 0, 0, P.DIM, 10, multiline=True, width=HELP_COL, anchor_y="top", batch=hb)
        self.h_title = arcade.Text(
            "", 0, 0, P.GOLD, 12, bold=True, multiline=True, width=HELP_COL, anchor_y="top", batch=hb
        )
        self.h_rules = arcade.Text("", 0, 0, P.INK, 10, multiline=True, width=HELP_COL, anchor_y="top", batch=hb)
        self.h_foot = arcade.Text(
            "PgUp / PgDn: scroll the rules · F1, Esc or a click: close", 0, 0, P.DIM, 10, anchor_x="right", batch=hb
        )

    def _layout_hud(self) -> None:
        w, h = self.window.width, self.window.height
        if (w, h) == self._hud_size:
            return
        self._hud_size = (w, h)
        self.hud_camera.match_window()
        self.world_camera.match_window()
        px = w - PANEL_W
        sl: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList(blend=False)  # opaque panels
        panel = P.PANEL
        sl.append(shape_list.create_rectangle_filled(w / 2, h - TOP_H / 2, w, TOP_H, panel))
        sl.append(shape_list.create_rectangle_filled(px + PANEL_W / 2, (h - TOP_H) / 2, PANEL_W, h - TOP_H, panel))
        sl.append(shape_list.create_line(px, 0, px, h - TOP_H, P.PANEL_EDGE, 2))
        sl.append(shape_list.create_line(0, h - TOP_H, w, h - TOP_H, P.PANEL_EDGE, 2))
        sl.append(shape_list.create_rectangle_filled((w - PANEL_W) / 2, BOTTOM_H / 2, w - PANEL_W, BOTTOM_H, panel))
        self.hud_shapes = sl
        x, top = px + 12, h - TOP_H
        self.t_top.position = (12, h - 23)
        self.t_help_key.position = (w - 12, h - 23)
        self.t_sides["A"].position = (x, top - 16)
        self.t_sides["B"].position = (x, top - 36)
        self.t_info.position = (x, top - 46)
        self.choice_top = top - 140
        # bottom up: the log, the dice, the minimap, the odds panel's buttons
        self.t_log.position = (x, FOOT + LOG_H)
        self.t_log_head.position = (x, FOOT + LOG_H + 4)
        self.t_dice.position = (x, FOOT + LOG_H + 22)
        map_bottom = FOOT + LOG_H + 38
        self.minimap.place((x, map_bottom, w - 12, map_bottom + MINIMAP_H), self.state)
        self.t_map_head.position = (x, map_bottom + MINIMAP_H + 5)
        # the odds panel hides the minimap: its buttons take the minimap's place
        buttons = map_bottom + 4
        self.confirm_box = (px + 8, buttons, px + PANEL_W / 2 - 4, buttons + 24)
        self.cancel_box = (px + PANEL_W / 2 + 4, buttons, w - 8, buttons + 24)
        self.t_confirm.position = ((self.confirm_box[0] + self.confirm_box[2]) / 2, buttons + 7)
        self.t_cancel.position = ((self.cancel_box[0] + self.cancel_box[2]) / 2, buttons + 7)
        self.choice_bottom = map_bottom + MINIMAP_H + 24
        self.t_msg.position = (12, h - TOP_H - 10)
        self.t_keys.position = (10, 6)
        self.t_hex.position = (w - PANEL_W - 10, 6)
        if not self._centred:
            self._centred = True
            self.frame_battle()
        self._update_hud()

    def fit_world(self) -> None:
        """Fit the whole map in the area left of the panel and centre it there."""
        mw, mh = self.layout.extent
        aw, ah = self.window.width - PANEL_W - 16, self.window.height - TOP_H - BOTTOM_H - 16
        z = max(ZOOMS[0], min(1.0, aw / mw, ah / mh))
        self.world_camera.zoom = z
        self._look_at(mw / 2, mh / 2)

    def _look_at(self, wx: float, wy: float) -> None:
        """Put world point (wx, wy) in the middle of the map area (left of the panel)."""
        z = self.world_camera.zoom
        self.world_camera.position = (wx + PANEL_W / 2 / z, wy + (TOP_H - BOTTOM_H) / 2 / z)
        self._centred = True  # placed: showing the view keeps it
        self._clear_hover()

    def _clear_hover(self) -> None:
        """The map moved under the mouse: no hover card until the mouse moves again."""
        if hasattr(self, "t_tip"):
            self._hover, self.hovered, self.tip_box = -1, None, None
            self.t_tip.text = ""

    def look_at(self, hex_index: int, zoom: float | None = None) -> None:
        """Centre the map area on a hex (at ``zoom`` if given)."""
        if zoom is not None:
            self.world_camera.zoom = zoom
        self._look_at(*self.layout.centre(hex_index))

    def map_area(self) -> tuple[float, float, float, float]:
        """The part of the window the map shows through: (left, bottom, right, top) in pixels."""
        return 0.0, float(BOTTOM_H), float(self.window.width - PANEL_W), float(self.window.height - TOP_H)

    def frame_battle(self) -> None:
        """The opening camera: both battle lines in view (``tactical.view.camera``); the whole
        field when there are not two sides on the map."""
        left, bottom, right, top = self.map_area()
        frame = opening_frame(self.state, self.layout, (right - left, top - bottom), ZOOMS)
        if frame is None:
            self.fit_world()
            return
        self.world_camera.zoom = frame[0]
        self._look_at(frame[1], frame[2])

    def centre_on_action(self, zoom: float | None = START_ZOOM) -> None:
        """Centre on the selection, else the activated leader, else the side to act."""
        state = self.state
        piece = None
        for pid in (self.selected, state.seq.leader):
            piece = state.units.get(pid or "") or state.leaders.get(pid or "")
            if piece is not None and piece.on_map:
                break
            piece = None
        if zoom is not None:
            self.world_camera.zoom = zoom
        if piece is not None:
            self._look_at(*self.layout.centre(piece.hex))
            return
        mine = [u.hex for u in state.units.values() if u.on_map and u.side == state.seq.side]
        if not mine:
            self.fit_world()
            return
        xs = [self.layout.centre(h)[0] for h in mine]
        ys = [self.layout.centre(h)[1] for h in mine]
        self._look_at(sum(xs) / len(xs), sum(ys) / len(ys))

    def _update_hud(self) -> None:
        self._version += 1
        if not hasattr(self, "t_top"):
            return
        self._update_top()
        self._update_bars()
        self.t_info.text = self._info_text()
        # the Choices panel starts under the info, at least INFO_H under its top (a long
        # question to the defender pushes it down, up to INFO_MAX)
        textfit.fit_lines(self.t_info, INFO_MAX, keep="head")
        x, top = self.window.width - PANEL_W + 12, self.t_info.y
        self.choice_top = top - max(INFO_H, self.t_info.content_height + 10)
        self.t_odds_head.position = (x, self.choice_top)
        self.t_odds.position = (x, self.choice_top - 20)
        bs: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        self._bar_shapes(bs)
        self.t_confirm.text = self.t_cancel.text = ""
        if self.pending is not None and self.pending.lines:
            self._update_odds_panel(bs)
        else:
            self._update_choice_rows(bs)
        self.button_shapes = bs
        rolls = self.session.dice.rolls[-3:]
        self.t_dice.text = "Dice: " + ("  ".join(f"{r.value} ({r.label})" for r in rolls) if rolls else "none yet")
        textfit.ellipsize(self.t_dice, PANEL_W - 24)
        self.t_log.text = "\n".join(log_tail([e.text for e in self.session.log], LOG_LINES, LOG_WIDTH))
        textfit.fit_lines(self.t_log, LOG_H - 2, keep="tail")
        self.t_msg.text = self.message
        self._update_help()

    def _update_top(self) -> None:
        state, seq = self.state, self.state.seq
        acting = state.acting
        side = self.side_names.get(acting, acting)
        who = seq.leader or (f"a group of {len(seq.group)}" if seq.group else "")
        phase = {"start": "before the battle", "over": "the battle is over"}.get(seq.phase, seq.phase)
        if seq.phase == "shock" and state.designations:
            phase = "shock: designating" if state.designating else "shock: resolving"
        if state.reacting is not None:
            phase = f"reacting to {self.side_names.get(seq.side, seq.side)}"
        ai = "  (AI)" if acting in self.ai_sides and seq.phase != "over" else ""
        self.t_top.text = f"{self.title}   ·   {side}{ai}: {phase}" + (f"  ·  {who}" if who else "")
        if state.winner:
            self.t_top.text = f"{self.title}   ·   {self.side_names.get(state.winner, state.winner)} wins"
        textfit.ellipsize(self.t_top, self.window.width - 120)

    def _update_bars(self) -> None:
        """Each side's rout points against its withdrawal level (docs/rules/tactical.md §7.4)."""
        state = self.state
        for side, t in self.t_sides.items():
            level = state.withdrawal.get(side)
            name = self.side_names.get(side, side)
            t.text = f"{name}: {state.rout_points[side]}" + (f"/{level} rout pts" if level else " rout pts")
            textfit.ellipsize(t, BAR_X - 16)

    def _bar_shapes(self, bs: shape_list.ShapeElementList[Any]) -> None:
        state = self.state
        x0, x1 = self.window.width - PANEL_W + BAR_X, self.window.width - 12
        for side, t in self.t_sides.items():
            y = t.y + 4
            level = state.withdrawal.get(side) or 0
            share = min(1.0, state.rout_points[side] / level) if level else 0.0
            bs.append(shape_list.create_rectangle_filled((x0 + x1) / 2, y, x1 - x0, 10, (70, 58, 46, 255)))
            if share > 0:
                fill = P.SIDE_FILL.get(side, (200, 200, 200))
                bs.append(
                    shape_list.create_rectangle_filled(
                        x0 + (x1 - x0) * share / 2, y, (x1 - x0) * share, 10, (*fill, 255)
                    )
                )
            bs.append(shape_list.create_rectangle_outline((x0 + x1) / 2, y, x1 - x0, 10, P.PANEL_EDGE, 1))

    def _update_odds_panel(self, bs: shape_list.ShapeElementList[Any]) -> None:
        assert self.pending is not None and self.pending.lines is not None
        self.t_odds_head.text = "Exact odds"
        self.t_map_head.text = ""
        self.t_odds.text = "\n".join(self.pending.lines)
        textfit.fit_lines(self.t_odds, self.t_odds.y - self.confirm_box[3] - 8, keep="head")
        for t in (*self.t_choices, *self.t_details):
            t.text = ""
        for c in self.choices:
            c.top = c.bottom = -1000.0
        self.choice_next = self.choice_first
        self.t_confirm.text, self.t_cancel.text = "Confirm (Enter)", "Cancel (Esc)"
        for box, fill in ((self.confirm_box, (120, 40, 30, 255)), (self.cancel_box, (70, 58, 46, 255))):
            left, bottom, right, top = box
            cx, cy, bw, bh = (left + right) / 2, (bottom + top) / 2, right - left, top - bottom
            bs.append(shape_list.create_rectangle_filled(cx, cy, bw, bh, fill))
            bs.append(shape_list.create_rectangle_outline(cx, cy, bw, bh, P.PANEL_EDGE, 1))

    def _update_choice_rows(self, bs: shape_list.ShapeElementList[Any]) -> None:
        """The Choices panel from ``choice_first``: as many rows as fit, headings in gold, each
        playable row numbered (keys 1-9) in a box, an odds row with its odds under it."""
        self.t_odds.text = ""
        self.t_map_head.text = "Field (click to go there)"
        for c in self.choices:
            c.top = c.bottom = -1000.0
        x = self.window.width - PANEL_W + 12
        y = self.choice_top - 20
        k = number = 0
        index = self.choice_first
        while index < len(self.choices) and k < MAX_CHOICES:
            c, t, d = self.choices[index], self.t_choices[k], self.t_details[k]
            if not c.heading:
                number += 1
            _put(t, c.label if c.heading else f"{number}. {c.label}")
            if t.bold != c.heading:  # a style change lays the text out again: only when it changes
                t.color, t.bold = (P.GOLD, True) if c.heading else (P.INK, False)
            t.position = (x + (0 if c.heading else 6), y - 2)
            _put(d, "" if c.heading else c.detail)
            d.position = (x + 20, y - 2 - t.content_height)
            height = t.content_height + (d.content_height if d.text else 0) + 4
            if y - height < self.choice_bottom:
                t.text = d.text = ""
                break
            c.top, c.bottom = y, y - height
            if not c.heading:
                edge = (200, 90, 70, 255) if c.opens else (110, 92, 70, 255)
                x1 = self.window.width - 8
                bs.append(
                    shape_list.create_rectangle_outline((x + x1) / 2 - 2, y - height / 2, x1 - x + 4, height, edge, 1)
                )
            y -= height + 3
            k += 1
            index += 1
        self.choice_next = index
        for t, d in zip(self.t_choices[k:], self.t_details[k:], strict=True):
            t.text = d.text = ""
        n = len(self.choices)
        # the numbers a player reads: the playable rows shown, of all the playable rows
        before = sum(1 for c in self.choices[: self.choice_first] if not c.heading)
        playable = sum(1 for c in self.choices if not c.heading)
        numbered = sum(1 for c in self.choices[self.choice_first : index] if not c.heading)
        shown = f"{before + 1}-{before + numbered}" if numbered else "none"
        more = f"  ({shown} of {playable}, PgUp/PgDn)" if index < n or self.choice_first else ""
        whose = f" of {self.selected}" if self.selected is not None else ""
        self.t_odds_head.text = (f"Choices{whose}{more}") if self.choices else ""
        textfit.ellipsize(self.t_odds_head, PANEL_W - 24)

    def _info_text(self) -> str:
        state = self.state
        shown = self.selected or self.inspected
        if state.reacting is not None and shown is None:
            lines = reaction_prompt(state)
            return "\n".join([*lines[:1], " ".join(lines[1:])] if len(lines) > 1 else lines)
        if shown is None or (shown not in state.units and shown not in state.leaders):
            side = self.side_names.get(state.acting, state.acting)
            if state.acting in self.ai_sides:
                return f"The computer plays {side}: what it may do is listed below, and the map shows each move."
            return (
                f"{side} to act: pick a row of the Choices below, or click one of your units or "
                "leaders on the map to see what it may do. F1: the controls, the marks and the rules."
            )
        u = state.units.get(shown)
        if u is not None:
            hexes = "/".join(state.field.grid.hex_id(h) for h in u.hexes())
            extra = ", engaged" if u.engaged else ""
            if u.id in state.regrouping:  # 001 10.43: back from pursuit, takes no orders
                extra += ", regrouping after pursuit"
            hits = f", {u.missile_hits} missile hits" if u.missile_hits else ""
            missile = f"  missile {u.missile}" if u.missile else ""
            return (
                f"{u.id}  {u.type} ({u.group or 'no group'}), side {self.side_names.get(u.side, u.side)}\n"
                f"Size {u.size}  TQ {u.tq}  MA {u.ma}{missile}  at {hexes} facing {FACING_CLOCK[u.facing]}\n"
                f"{u.status}{extra}{hits}\n"
                + (
                    f"{len(self.reach)} hexes reachable · {len(self.targets)} targets"
                    if self.selected
                    else "(not yours to act)"
                )
            )
        ld = state.leaders[shown]
        carry = f"\ntaking {self.carry} along (C: another / none)" if self.carry else ""
        return (
            f"{ld.id} ({ld.kind}), side {self.side_names.get(ld.side, ld.side)}\n"
            f"Initiative {ld.initiative}  command range {ld.range}"
            f"{'  elite' if ld.elite else ''}{'  overall commander' if ld.overall else ''}\n"
            + (f"{len(self.reach)} hexes reachable{carry}" if self.selected else "(not yours to act)")
        )

    # -- text boxes (for the tests: nothing cut, nothing overlapping) ---------------------------
    def text_boxes(self) -> list[tuple[str, Box, Box]]:
        """Every text on screen now: (name, its box, the box it must stay inside), boxes as
        (left, bottom, right, top) window pixels around the drawn glyphs' lines."""
        w, h = self.window.width, self.window.height
        px = w - PANEL_W
        top_bar: Box = (0, h - TOP_H, w, h)
        panel: Box = (px, 0, w, h - TOP_H)
        bottom_bar: Box = (0, 0, px, BOTTOM_H)
        named: list[tuple[str, arcade.Text, Box]] = [
            ("top", self.t_top, top_bar),
            ("help key", self.t_help_key, top_bar),
            *((f"rout points {s}", t, panel) for s, t in self.t_sides.items()),
            ("info", self.t_info, panel),
            ("panel head", self.t_odds_head, panel),
            ("odds", self.t_odds, panel),
            *((f"choice {k}", t, panel) for k, t in enumerate(self.t_choices)),
            *((f"choice odds {k}", t, panel) for k, t in enumerate(self.t_details)),
            ("confirm", self.t_confirm, self.confirm_box),
            ("cancel", self.t_cancel, self.cancel_box),
            ("minimap head", self.t_map_head, panel),
            ("dice", self.t_dice, panel),
            ("log head", self.t_log_head, panel),
            ("log", self.t_log, panel),
            ("keys", self.t_keys, bottom_bar),
            ("hex", self.t_hex, bottom_bar),
            ("message", self.t_msg, self.map_area()),
        ]
        if self.tip_box is not None and not self.help_open:
            named.append(("hover card", self.t_tip, self.tip_box))
        if self.help_open:
            left, bottom, right, top = self.map_area()
            inside: Box = (left + 14, bottom + 10, right - 14, top - 10)
            named += [(f"help {k}", t, inside) for k, t in enumerate(self._help_texts())]
        return [(name, _box(t), region) for name, t, region in named if t.text]

    def _help_texts(self) -> list[arcade.Text]:
        return [*self.h_heads, self.h_controls, *self.h_legend, self.h_counter, self.h_title, self.h_rules, self.h_foot]

    # -- help (F1) ----------------------------------------------------------------------------
    def toggle_help(self) -> None:
        """Open or close the help over the map area (F1)."""
        self.help_open = not self.help_open
        self.help_scroll = 0
        self._update_hud()

    def help_section(self) -> str:
        """The number of the rules section the help shows for what is selected now."""
        pending = self.pending.action if self.pending is not None else None
        return section_for(self.state, pending, self.selected)

    def _update_help(self) -> None:
        self.help_shapes = shape_list.ShapeElementList()
        if not self.help_open:
            return
        left, bottom, right, top = self.map_area()
        l, b, r, t = left + 14, bottom + 10, right - 14, top - 10
        hs = self.help_shapes
        hs.append(shape_list.create_rectangle_filled((l + r) / 2, (b + t) / 2, r - l, t - b, (30, 24, 20, 245)))
        hs.append(shape_list.create_rectangle_outline((l + r) / 2, (b + t) / 2, r - l, t - b, P.PANEL_EDGE, 2))
        x = l + 16
        self.h_heads[0].position = (x, t - 14)
        self.h_controls.position = (x, t - 36)
        y = t - 36 - self.h_controls.content_height - 14
        self.h_heads[1].position = (x, y)
        y -= 22
        for (colour, _), text in zip(LEGEND, self.h_legend, strict=True):
            hs.append(shape_list.create_rectangle_filled(x + 9, y - 7, 18, 12, colour))
            text.position = (x + 28, y)
            y -= text.content_height + 3
        self.h_counter.position = (x, y - 8)
        rx = x + HELP_COL + 30
        title, paras = rules_text(self.help_section())
        self.h_title.text = title
        self.h_title.position = (rx, t - 14)
        self.help_scroll = max(0, min(self.help_scroll, len(paras) - 1))
        self.h_rules.text = "\n\n".join(paras[self.help_scroll :])
        self.h_rules.position = (rx, t - 20 - self.h_title.content_height)
        textfit.fit_lines(self.h_rules, self.h_rules.y - b - 30, keep="head")
        self.h_foot.position = (r - 14, b + 10)

    # -- arcade -------------------------------------------------------------------------------
    def on_show_view(self) -> None:
        self._hud_size = (0, 0)
        self._layout_hud()

    def on_resize(self, width: int, height: int) -> None:
        self._hud_size = (0, 0)
        self._layout_hud()

    def on_draw(self) -> None:
        """One frame.  The whole picture is drawn into a framebuffer when anything on it has
        changed (the model, the selection, the HUD, the camera) and copied to the screen;
        an unchanged frame is only the copy."""
        self._layout_hud()
        ctx = self.window.ctx
        key = (tuple(self.world_camera.position), self.world_camera.zoom, ctx.screen.size, self._version)
        if self._cache is None or self._cache.size != ctx.screen.size:
            self._cache = ctx.framebuffer(color_attachments=[ctx.texture(ctx.screen.size, components=4)])
            self._cache_key = None
        if key != self._cache_key:
            self.terrain.prepare(self.world_camera)
            with self._cache.activate():
                self._cache.clear(color=(*P.BG, 255))
                self.draw_layers()
            self._cache_key = key
        blit_to_screen(ctx, self._cache)

    def draw_layers(self) -> None:
        """Every layer, bottom to top, on the framebuffer bound now."""
        self.terrain.prepare(self.world_camera)
        with self.world_camera.activate():
            self.terrain.draw(self.world_camera)
            self.highlights.draw()
            self.counters.draw()
            self.overlay.draw()
            self.labels.draw()
        with self.hud_camera.activate():
            self.hud_shapes.draw()
            self.button_shapes.draw()
            if self.pending is None:
                self.minimap.draw((self.world_point(0, BOTTOM_H), self.world_point(*self.map_area()[2:])))
            if self.tip_box is not None and not self.help_open:
                l, b, r, t = self.tip_box
                arcade.draw_lrbt_rectangle_filled(l, r, b, t, (30, 24, 20, 235))
                arcade.draw_lrbt_rectangle_outline(l, r, b, t, P.PANEL_EDGE, 1)
            self.hud_batch.draw()
            if self.help_open:
                self.help_shapes.draw()
                self.help_batch.draw()

    def on_update(self, delta_time: float) -> None:
        seq = self.state.seq
        if seq.phase == "over" or self.state.acting not in self.ai_sides or self.pending is not None:
            return
        self._ai_clock += delta_time
        if self._ai_clock >= self.ai_delay:
            self._ai_clock = 0.0
            self.ai_step()

    def ai_step(self) -> bool:
        """Let the AI play one action for the side to act (``tactical.ai``)."""
        try:
            from tactical.ai import TacticalAI
        except ImportError:
            self.message = "The tactical AI is not available: play both sides (hotseat)."
            self.ai_sides = frozenset()
            self._update_hud()
            return False
        if self._ai is None:
            self._ai = TacticalAI(self.session.seed)
        return self.play(self._ai.choose(self.state))

    # -- input -------------------------------------------------------------------------------
    def world_point(self, x: float, y: float) -> tuple[float, float]:
        p = self.world_camera.unproject((x, y))
        return float(p[0]), float(p[1])

    def screen_point(self, wx: float, wy: float) -> tuple[float, float]:
        p = self.world_camera.project((wx, wy))
        return float(p[0]), float(p[1])

    def choice_at(self, x: float, y: float) -> Choice | None:
        if self.pending is not None or x < self.window.width - PANEL_W:
            return None
        for c in self.shown_choices():
            if c.bottom <= y <= c.top and not c.heading:
                return c
        return None

    def shown_choices(self) -> list[Choice]:
        """The rows of the Choices panel on screen now (headings included)."""
        return self.choices[self.choice_first : self.choice_next]

    def numbered_choices(self) -> list[Choice]:
        """The playable rows on screen, in the order of their numbers (keys 1-9)."""
        return [c for c in self.shown_choices() if not c.heading]

    def page(self, step: int) -> None:
        """Show the next (``step`` 1) or previous (-1) page of the choice list."""
        if step > 0 and self.choice_next < len(self.choices):
            self._pages.append(self.choice_first)
            self.choice_first = self.choice_next
        elif step < 0 and self._pages:
            self.choice_first = self._pages.pop()
        else:
            return
        self._update_hud()

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        if button != arcade.MOUSE_BUTTON_LEFT:
            return
        if self.help_open:
            self.toggle_help()
            return
        if self.pending is None and self.minimap.inside(x, y):
            self._look_at(*self.minimap.world_at(x, y))
            self._version += 1
            return
        if x >= self.window.width - PANEL_W:
            c = self.choice_at(x, y)
            if c is not None:
                self.choose(c)
            elif self.pending is not None and _inside(self.confirm_box, x, y):
                self.confirm()
            elif self.pending is not None and _inside(self.cancel_box, x, y):
                self.cancel()
            return
        if y >= self.window.height - TOP_H or y <= BOTTOM_H:
            return
        self.click_world(*self.world_point(x, y))

    def click_world(self, wx: float, wy: float) -> None:
        """A left click at world point (wx, wy)."""
        lay, state = self.layout, self.state
        h = lay.hex_at(wx, wy)
        if h < 0:
            self.select(None)
            return
        cx, cy = lay.centre(h)
        near_corner = math.hypot(wx - cx, wy - cy) > lay.size * 0.55
        facing = lay.nearest_facing(h, wx, wy) if near_corner else None
        if self.selected is not None:
            enemy = next((u for u in state.units_at(h) if u.id in self.targets), None)
            if enemy is not None:
                if self.pending is not None and self.pending.target == enemy.id:
                    self.cycle()  # a second click on the target: the next option
                else:
                    self.aim(enemy.id)
                return
            if facing is not None and h * 6 + facing in self.nodes:
                self.move_to(h, facing)
                return
            if h in self.reach and h != self._mover_hex():
                self.move_to(h)
                return
        pending = [c for c in self.choices if c.opens and isinstance(c.action, Shock)]
        hit = next((c for c in pending if any(u.id == c.action.defender for u in state.units_at(h))), None)  # type: ignore[union-attr]
        if hit is not None:
            self.choose(hit)
            return
        mine = [u.id for u in state.units_at(h) if u.side == state.acting]
        mine += [ld.id for ld in state.leaders_at(h) if ld.side == state.acting]
        if not mine:
            self.select(None)
            others = [u.id for u in state.units_at(h)] + [ld.id for ld in state.leaders_at(h)]
            if others:  # an enemy (or a piece of the side not acting): show what it is
                self.inspected = others[0]
                self._update_hud()
            return
        if self.selected in mine:
            k = mine.index(self.selected)
            self.select(mine[(k + 1) % len(mine)] if len(mine) > 1 else self.selected)
        else:
            self.select(mine[0])

    def _mover_hex(self) -> int:
        st = self.state
        m = st.units.get(self.selected or "") or st.leaders.get(self.selected or "")
        return m.hex if m is not None else -1

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        left, bottom, right, top = self.map_area()
        inside = left <= x < right and bottom < y < top
        h = self.layout.hex_at(*self.world_point(x, y)) if inside else -1
        if h == self._hover:
            return
        self._hover = h
        self.t_hex.text = hex_words(self.state, h, names=False) if h >= 0 else ""
        textfit.ellipsize(self.t_hex, right - left - self.t_keys.content_width - 40)
        self.hovered = self.piece_at(h) if h >= 0 else None
        self._update_tip()
        self._version += 1

    def piece_at(self, h: int) -> str | None:
        """The leader in hex ``h`` (his token is on top), else its first unit, else None."""
        state = self.state
        leaders = [ld.id for ld in state.leaders_at(h)]
        units = [u.id for u in state.units_at(h)]
        return (leaders + units)[0] if leaders or units else None

    def _update_tip(self) -> None:
        """The hover card: the full name of each piece in the hex under the mouse and what it
        is, beside the hex and inside the map area."""
        if self.hovered is None:
            self.t_tip.text, self.tip_box = "", None
            return
        state = self.state
        here = self.piece_at(self._hover)
        pieces = [ld.id for ld in state.leaders_at(self._hover)] + [u.id for u in state.units_at(self._hover)]
        self.t_tip.text = "\n".join(piece_words(state, p, self.side_names) for p in pieces if p) or (here or "")
        w, h = self.t_tip.content_width + 12, self.t_tip.content_height + 8
        _left, bottom, right, top = self.map_area()
        hx, hy = self.screen_point(*self.layout.centre(self._hover))
        reach = self.layout.size * self.world_camera.zoom * 0.8
        x = min(hx + reach, right - w - 4)
        y = max(hy - reach, bottom + h + 4)
        y = min(y, top - 4)
        self.t_tip.position = (x + 6, y - 4)
        self.tip_box = (x, y - h, x + w, y)

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        if buttons & (arcade.MOUSE_BUTTON_RIGHT | arcade.MOUSE_BUTTON_MIDDLE):
            self.pan(-dx, -dy)

    def on_mouse_scroll(self, x: int, y: int, scroll_x: int, scroll_y: int) -> None:
        self.zoom(1 if scroll_y > 0 else -1)

    def pan(self, dx: float, dy: float) -> None:
        z = self.world_camera.zoom
        px, py = self.world_camera.position
        self.world_camera.position = (px + dx / z, py + dy / z)
        self._clear_hover()

    def zoom(self, step: int) -> None:
        """One zoom step, keeping the middle of the map area where it is."""
        z = self.world_camera.zoom
        mx = (self.window.width - PANEL_W) / 2
        my = BOTTOM_H + (self.window.height - TOP_H - BOTTOM_H) / 2
        centre = self.world_point(mx, my)
        k = min(range(len(ZOOMS)), key=lambda i: abs(ZOOMS[i] - z))
        self.world_camera.zoom = ZOOMS[max(0, min(len(ZOOMS) - 1, k + step))]
        self._look_at(*centre)

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        k = arcade.key
        if symbol == k.F1 or (self.help_open and symbol == k.ESCAPE):
            self.toggle_help()
        elif self.help_open and symbol in (k.PAGEDOWN, k.PAGEUP, k.DOWN, k.UP):
            self.help_scroll += 1 if symbol in (k.PAGEDOWN, k.DOWN) else -1
            self._update_hud()
        elif symbol == k.ESCAPE:
            if self.pending is not None or self.selected is not None:
                self.cancel()
            elif self.menu is not None:
                self.window.show_view(self.menu)
        elif k.KEY_1 <= symbol <= k.KEY_9:
            self._number_key(symbol - k.KEY_1)
        elif not self._command_key(symbol, modifiers):
            self._camera_key(symbol)

    def _number_key(self, i: int) -> None:
        """Keys 1-9: an option of the odds panel, or a numbered row of the Choices panel."""
        if self.pending is not None:
            if i < len(self.pending.variants):
                self.pending.index = i
                self._compute_odds()
                self._build_highlights()
                self._update_hud()
        elif i < len(self.numbered_choices()):
            self.choose(self.numbered_choices()[i])

    def _command_key(self, symbol: int, modifiers: int) -> bool:
        k = arcade.key
        simple = {
            k.ENTER: self.confirm, k.RETURN: self.confirm, k.Q: lambda: self.turn(-1), k.E: lambda: self.turn(1),
            k.C: self.toggle_carry, k.N: self.next_piece, k.U: self.undo, k.F5: self.save, k.F9: self.load,
        }  # fmt: skip
        if symbol in simple:
            simple[symbol]()
        elif symbol == k.TAB:
            self.cycle(-1 if modifiers & arcade.key.MOD_SHIFT else 1)
        elif symbol == k.L:
            self.show_ranges = not self.show_ranges
            self._build_highlights()
        elif symbol in (k.P, k.R):
            kind = Pass if symbol == k.P else Resolve
            action = next((a for a in self.legal() if isinstance(a, kind)), None)
            if action is not None:
                self.play(action)
        elif symbol in (k.PAGEDOWN, k.PAGEUP):
            self.page(1 if symbol == k.PAGEDOWN else -1)
        else:
            return False
        return True

    def _camera_key(self, symbol: int) -> None:
        k = arcade.key
        if symbol in (k.PLUS, k.EQUAL, k.NUM_ADD):
            self.zoom(1)
        elif symbol in (k.MINUS, k.NUM_SUBTRACT):
            self.zoom(-1)
        elif symbol == k.HOME:
            self.fit_world()
        elif symbol == k.SPACE:
            self.centre_on_action(zoom=None)
        elif symbol in (k.LEFT, k.RIGHT, k.UP, k.DOWN):
            step = 80
            self.pan(
                {k.LEFT: -step, k.RIGHT: step}.get(symbol, 0),
                {k.DOWN: -step, k.UP: step}.get(symbol, 0),
            )


def _put(text: arcade.Text, words: str) -> None:
    """Set a text's words only when they change (each change lays the text out again)."""
    if text.text != words:
        text.text = words


def _box(text: arcade.Text) -> Box:
    """The box of a text's drawn lines: its content's size from its anchored corner."""
    left, bottom = text.left, text.bottom
    if text.multiline and text.anchor_y == "top":
        bottom = text.y - text.content_height
    return (left, bottom, left + text.content_width, bottom + text.content_height)


def _inside(box: tuple[float, float, float, float], x: float, y: float) -> bool:
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def _arrow(sl: shape_list.ShapeElementList[Any], x1: float, y1: float, x2: float, y2: float, colour: P.RGBA) -> None:
    """A designation arrow from an attacker's hex toward its defender's, over the gap between
    the two counters (from a quarter to two thirds of the way, its head at the defender)."""
    ang = math.atan2(y2 - y1, x2 - x1)
    c, s = math.cos(ang), math.sin(ang)
    sx, sy = x1 + 0.25 * (x2 - x1), y1 + 0.25 * (y2 - y1)
    ex, ey = x1 + 0.62 * (x2 - x1), y1 + 0.62 * (y2 - y1)
    sl.append(shape_list.create_line(sx, sy, ex, ey, colour, 4))
    left = (ex - 10 * math.cos(ang - 0.5), ey - 10 * math.sin(ang - 0.5))
    right = (ex - 10 * math.cos(ang + 0.5), ey - 10 * math.sin(ang + 0.5))
    sl.append(shape_list.create_polygon([(ex + 6 * c, ey + 6 * s), left, right], colour))


def blit_to_screen(ctx: Any, src: Any) -> None:
    """Copy framebuffer ``src`` (the window's size) onto the screen and leave the screen bound
    for drawing and reading (arcade's ``copy_framebuffer`` would leave ``src`` bound for
    reading, and a screenshot would read the copy instead of the screen)."""
    screen_glo = _glo(ctx.screen)
    w, h = src.width, src.height
    gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, screen_glo)
    gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, _glo(src))
    gl.glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, gl.GL_COLOR_BUFFER_BIT, gl.GL_NEAREST)
    gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, screen_glo)


def _glo(fbo: Any) -> int:
    return int(fbo.glo.value if hasattr(fbo.glo, "value") else fbo.glo)
