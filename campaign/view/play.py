"""The playing campaign window: the map of ``mapview`` with the game on it
(docs/rules/campaign.md §14, "Playing").

``CampaignView`` is a ``MapView`` over a ``CampaignGame`` (``campaign.view.game``).  On
top of the map it shows, under a fixed HUD camera, panels docked in two columns (left and
right), each folding to its title bar and moving to the other side, remembered in the
player's settings (``campaign.view.panels``):

* the **orders** (left): Undo, Save, Load, Report and Help first (they never move), who is
  to act, the phase's actions from the legal-action generator (end or pass the phase,
  supply, attacks, storms with their chance, stratagems, the Res Publica with its odds and
  cost), a page at a time;
* the **force** (left, below): the selected force's leaders and units, the forces it may join;
* **here** (left, below): what can be done at the selected place (recruiting with its cost…);
* **the war** (right, folded by default) and the **chronicle** (right): the hands of
  stratagems, the Res Publica, clients at war; the latest lines of the chronicle;
* the **message** in one fixed place at the bottom (a refusal, why Undo cannot, a save);
* **dialogs** (centre): the choice of march (plain or with a Military stratagem, or by
  sea) with the exact March Table odds, the reactive decisions (intercept, cut supply,
  accept battle at sea, commit stratagems), and the **battle dialog** — auto-resolve
  with the odds shown first, the battleboard, or the tactical engine;
* the **help** (F1, ``campaign.view.helppanel``): controls, legend, sequence of play, rules.

Every button has a tooltip (what it does, or why it is disabled); long labels wrap.

A click on a force selects it and lights its legal destinations on the map, each with
the chance that the march arrives; a click on a lit place moves it there (a sure march
at once, otherwise through the march dialog).  The battleboard choice opens
``battleboard.view.battle.BattleView`` on the engagement; when the battle is over (or the
player leaves it and lets the generals finish it), its ``Outcome`` comes back to the map
and is applied through the engine.

Controls besides the map's: Enter ends or passes the phase, C folds or opens the
chronicle, L shows or hides the map's legend, F1 the help, R lists the war's battles and
opens their after-action reports (campaign.md §14.4), Ctrl+Z undo, Ctrl+S save (a named
slot: ``loadscreen``), Ctrl+L load (the load screen), V the end of the war once it is over
(``victory``), Esc closes a dialog, clears the selection or returns to the menu.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import arcade
from arcade import shape_list
from pyglet.graphics import Batch

from bellum import slots
from bellum.engagement import Battle
from bellum.errors import BellumError, InputError
from bellum.report import AfterAction
from bellum.view.widgets import Button
from campaign import actions as A
from campaign import saveslots
from campaign.routes import is_decisive
from campaign.rules.common import force_name, place_name
from campaign.state import SIDE_NAMES as SIDE_TITLES_LOWER
from campaign.state import SIDES, side_title
from campaign.units import catalogue
from campaign.view import loadscreen, markers, victory
from campaign.view.game import ODDS_BATTLES, CampaignGame, Option, tactical_refusal
from campaign.view.helppanel import build_help
from campaign.view.mapview import SANS, SERIF, TOP_BAR, MapView, rgba
from campaign.view.palette import BG_TOP, GOLD, LABEL_INK, OWNER_INK, PARCHMENT, owner_kind
from campaign.view.panels import PANELS, TITLES, load_settings, map_share, save_settings, settings_path

#: the columns of docked panels (campaign.view.panels): their widths and the space around them
LEFT_W = 292
RIGHT_W = 340
PANEL_MARGIN = 8
PANEL_GAP = 6
HEADER_H = 24
#: the chronicle panel's height for its lines (more in a taller window), and the lines it may show
CHRONICLE_H = 64
CHRONICLE_LINES = 12
#: the message's fixed place: the bottom of the window, right of the map's legend
MESSAGE_LEFT = 246.0
MESSAGE_W = 560.0
#: the map view's own legend box (hidden while the legend panel is folded)
MAP_LEGEND_RECT = (9.0, 9.0, 237.0, 161.0)
#: the hover key of a button (its tooltip)
BUTTON_TIP = "tip:"
#: battles listed by the R key (the latest first)
REPORTS_SHOWN = 10
DIALOG_W = 560
BUTTON_H = 24
#: the hover key of a force counter (the map's tooltip otherwise names places)
FORCE_TIP = "force:"
#: how the chronicle and the after-action report name the engine that fought a battle
ENGINE_WORDS = {"battleboard": "the battleboard", "tactical": "the tactical engine"}
AI_DELAY = 0.15  # seconds between the computer's actions, so a player can follow them

INK = rgba(LABEL_INK)
DIM = (96, 80, 66, 255)
WARN = (150, 40, 30, 255)
BUTTON = (92, 60, 48, 255)
BUTTON_OFF = (160, 150, 136, 255)
BUTTON_INK = rgba(PARCHMENT)
#: a disabled button's words, and the panels' headings (dark enough to read on parchment)
OFF_INK = (70, 58, 48, 255)
HEAD_INK = (128, 78, 18, 255)
DEST_SURE = (40, 120, 60)
DEST_RISK = (200, 140, 30)
DEST_BAD = (170, 40, 30)
DEST_SEA = (40, 80, 150)


#: the button that writes the war's illustrated after-action report (``bellum aar``)
AAR_LABEL = "Illustrated report of the war"
AAR_NOTE = "maps, charts and every battle, as a web page"
AAR_BATTLE = "Illustrated report of this battle"
AAR_BATTLE_NOTE = "the field at its start, turning points and end, as a web page"


#: what a choice without odds or a cost does, for its tooltip (by the action's kind)
ACTION_TIPS: dict[type, str] = {
    A.Pass: "nothing more this phase: go on to the next (Enter)",
    A.EndPhase: "go on to the next phase (Enter)",
    A.Supply: "trace every force's supply and roll for those out of it (campaign.md §10)",
    A.Battle: "choose the Military stratagems you commit, with the odds of each (§12.2)",
    A.Merge: "the two forces become one, under the better leader (§8.4)",
    A.OfferNaval: "offer the enemy fleet battle at sea; it may refuse (§9.4)",
}
#: what each kind of stratagem is for (campaign.md §15)
STRATAGEM_USES = {
    "military": "for battles, forced marches, interceptions and training",
    "political": "for the Res Publica, recruiting, colonies, tribute and bribes",
    "agent": "for plots against enemy leaders",
}


def option_tip(o: Option) -> str:
    """A choice's tooltip: what it risks or costs, else what it does."""
    if o.detail:
        return f"{o.label}: {o.detail}"
    if isinstance(o.action, A.Take):
        return f"{o.label}: {STRATAGEM_USES.get(o.action.kind, 'kept in your hand until played')}"
    does = ACTION_TIPS.get(type(o.action))
    return f"{o.label}: {does}" if does else f"{o.label} (no die is rolled)"


def button_layer(key: str) -> str:
    """The layer a button belongs to by its key: the help's, a dialog's, or the panels'."""
    if key.startswith("help:"):
        return "help"
    return "dialog" if key.startswith("option") or key == "cancel" else "panel"


@dataclass
class Dialog:
    """A modal question: a title, lines of text and the answers."""

    title: str
    lines: list[str]
    #: (label, run, the note under it: why it is disabled, or what it risks)
    options: list[tuple[str, Callable[[], Any] | None, str]]
    cancel: bool = True


class CampaignView(MapView):
    """The campaign window (see the module docstring)."""

    def __init__(self, game: CampaignGame, menu: arcade.View | None = None) -> None:
        self.game = game
        self.dialog: Dialog | None = None
        self.buttons: list[Button] = []
        self.battle_view: Any = None
        #: the battle the battle window fights, begun by its engine's route (bellum.engagement)
        self.fight: Battle | None = None
        self.aar_job: Any = None  # the report being written in the background (``write_aar``)
        self.ai_delay = AI_DELAY
        self._ai_clock = 0.0
        self._warned_close = False  # a failed autosave said so when the window was first closed
        self._version = -1
        self._hud_key: tuple[Any, ...] | None = None
        self.play_batch = Batch()
        self.play_shapes: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        self._play_texts: list[arcade.Text] = []
        self._force_ids: list[str] = []
        self.dest_labels: dict[str, str] = {}
        #: the panels' remembered state (folded, docked): the player's settings file
        self.settings_file = settings_path()
        self.settings, problem = load_settings(self.settings_file)
        if problem:
            game.message = problem
        #: the page each list of choices shows, and where each paged list is (for the wheel)
        self.pages: dict[str, int] = {}
        self.page_lists: dict[str, tuple[float, float, float, float]] = {}
        self.button_texts: dict[str, arcade.Text] = {}
        self.panel_rects: list[tuple[float, float, float, float]] = []
        self.message_rect: tuple[float, float, float, float] | None = None
        self.dialog_shapes: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        self.help_shapes: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        self.help_batch = Batch()
        self.help_sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        #: the help panel (F1): open, its tab, the rules search and the section shown
        self.help_open = False
        self.help_tab = "controls"
        self.help_query = ""
        self.help_section = -1
        self.help_scroll = 0
        super().__init__(game, menu=menu)

    # ------------------------------------------------------------------ following the game
    def _sync_model(self, force: bool = False) -> None:
        changed = self.game.version != self._version
        if changed:
            self._version = self.game.version
            self._selected_drawn = "-"  # the destinations depend on the game, not only the place
        super()._sync_model(force)
        if changed or force:
            self._hud_key = None

    def _build_forces(self) -> None:
        super()._build_forces()
        self._force_ids = [f.id for f in self._forces if f.place in self.geo.positions]
        chosen = self.game.selected_force
        for sprite, fid in zip(self.force_sprites, self._force_ids, strict=True):
            sprite.alpha = 255 if chosen is None or fid == chosen else 225

    def _build_selection(self) -> None:
        """With a force selected: its legal destinations, each lit by the odds of getting
        there (green sure, amber a risk, red poor, blue by sea) and labelled; otherwise the
        map's own selection (a place and its links)."""
        moves = self.game.moves()
        fid = self.game.selected_force
        if fid is None or fid not in self.game.state.forces:
            super()._build_selection()
            for place in self.game.action_places():
                if place in self.geo.positions:
                    x, y = self.geo.pos(place)
                    ring = arcade.Sprite(markers.select_ring_texture(), center_x=x, center_y=y)
                    ring.scale = 20 / markers.SIZE
                    ring.color = rgba(GOLD)
                    self.ring.append(ring)
            self._describe_selection()
            return
        self._selected_drawn = self.model.selected
        self.overlay = shape_list.ShapeElementList()
        self.ring = arcade.SpriteList()
        self.overlay_batch = Batch()
        self.overlay_labels = []
        self.cost_discs = arcade.SpriteList()
        self.dest_labels = {}
        force = self.game.state.forces[fid]
        here = force.location
        a = self.geo.pos(here) if here in self.geo.positions else None
        for dest, options in sorted(moves.items()):
            if dest not in self.geo.positions:
                continue
            b = self.geo.pos(dest)
            color = self._dest_color(options)
            path = options[0].action.path if isinstance(options[0].action, A.March | A.Sail) else (here, dest)
            pts = [self.geo.pos(p) for p in path if p in self.geo.positions]
            for p, q in itertools.pairwise(pts):
                self.overlay.append(shape_list.create_line(p[0], p[1], q[0], q[1], rgba((255, 246, 210), 200), 5.0))
                self.overlay.append(shape_list.create_line(p[0], p[1], q[0], q[1], rgba(color, 230), 2.2))
            ring = arcade.Sprite(markers.select_ring_texture(), center_x=b[0], center_y=b[1])
            ring.scale = 18 / markers.SIZE
            ring.color = rgba(color)
            self.ring.append(ring)
            text = self.game.best_odds(options)
            self.dest_labels[dest] = text
            self.overlay_labels.append(
                self._label(self.overlay_batch, dest, text, b, 0, -14, 0, color, 9, anchor_x="center", bold=True)
            )
        if a is not None:
            big = arcade.Sprite(markers.select_ring_texture(), center_x=a[0], center_y=a[1])
            big.scale = 28 / markers.SIZE
            self.ring.append(big)
        self._describe_selection()
        self._dynamic_dirty = True
        self._world_valid = False
        self._cache_valid = False

    def _dest_color(self, options: list[Option]) -> tuple[int, int, int]:
        marches = [o.action for o in options if isinstance(o.action, A.March) and not o.action.stratagem]
        if not marches:
            return DEST_SEA
        odds = self.game.odds_of(marches[0])
        if odds.sure:
            return DEST_SURE
        return DEST_RISK if odds.arrive >= 0.7 else DEST_BAD

    def _describe_selection(self) -> None:
        """The top-right panel: the selected place and the forces in it."""
        place = self.model.selected
        if place is None:
            self.panel.text = ""
            return
        lines = [self.describe(place)]
        here = [f for f in self.game.state.forces.values() if f.location == place and (f.units or f.leaders)]
        if here:
            lines.append("")
            for f in here:
                side = self.game.state.allegiance(f.side)
                who = side_title(side) if side else f.side.capitalize()
                lines.append(f"{self.game.force_title(f.id)} — {who}, {f.strength()} SP")
        self.panel.text = "\n".join(lines)

    # ------------------------------------------------------------------ the HUD
    @property
    def show_chronicle(self) -> bool:
        return not self.settings.panel("chronicle").collapsed

    @show_chronicle.setter
    def show_chronicle(self, shown: bool) -> None:
        self.settings.panel("chronicle").collapsed = not shown
        self._remember()

    def _hud_state(self) -> tuple[Any, ...]:
        return (
            self.game.version,
            id(self.dialog),
            self.window.width,
            self.window.height,
            self.game.selected_force,
            self.model.selected,
            self.settings.model_dump_json(),
            tuple(sorted(self.pages.items())),
            (self.help_open, self.help_tab, self.help_query, self.help_section, self.help_scroll),
        )

    def _build_play_hud(self) -> None:
        """Rebuild the panels, the buttons, the message, the dialog and the help (when the
        game, the dialog, the window's size or a panel changed): two docked columns of
        panels that fold to their title bar (``campaign.view.panels``)."""
        self._hud_key = self._hud_state()
        self.play_batch = Batch()
        self.play_shapes = shape_list.ShapeElementList()
        self.dialog_batch = Batch()
        self.dialog_shapes = shape_list.ShapeElementList()
        self.help_batch = Batch()
        self.help_shapes = shape_list.ShapeElementList()
        self._play_texts = []
        self.buttons = []
        self.button_texts = {}
        self.panel_rects = []
        self.panel_at: dict[str, tuple[float, float, float, float]] = {}
        w, h = self.window.width, self.window.height
        top = h - TOP_BAR - 8
        bodies = self._panel_bodies()
        self._build_column("left", PANEL_MARGIN, top, LEFT_W, bodies)
        right = self._build_column("right", w - RIGHT_W - PANEL_MARGIN, top, RIGHT_W, bodies)
        self.panel_drop = top - right + 4 if right < top else 0.0  # the map's place panel goes below
        self._build_message()
        if self.dialog is not None:
            self._build_dialog(self.dialog)
        if self.help_open:
            build_help(self)
        self._layer_buttons()

    def _build_column(
        self, dock: str, x: float, top: float, width: float, bodies: dict[str, Callable[[float, float, float], float]]
    ) -> float:
        """The panels docked on one side, stacked from the top; the bottom reached."""
        y = top
        for name in PANELS:
            state = self.settings.panel(name)
            body = bodies.get(name)
            if state.dock != dock or body is None:
                continue
            y = self._panel(name, x, y, width, body) - PANEL_GAP
        return y

    def _panel_bodies(self) -> dict[str, Callable[[float, float, float], float]]:
        """The panels shown now and what fills each (x, top, width -> bottom)."""
        g = self.game
        bodies: dict[str, Callable[[float, float, float], float]] = {"orders": self._orders_body}
        if g.selected_force is not None and g.selected_force in g.state.forces:
            bodies["force"] = self._force_body
        if self.model.selected is not None and g.place_options(self.model.selected):
            bodies["place"] = self._place_body
        bodies["war"] = self._war_body
        bodies["chronicle"] = self._chronicle_body
        return bodies

    def _panel(
        self, name: str, x: float, top: float, width: float, body: Callable[[float, float, float], float]
    ) -> float:
        """A panel: its title bar (fold and dock buttons on the right), then its body unless
        folded; the parchment box behind both.  Returns its bottom."""
        state = self.settings.panel(name)
        title = TITLES[name]
        if name == "chronicle" and state.collapsed and self.game.chronicle:
            title += f" ({len(self.game.chronicle)})"
        self._line(title, x + 8, top - 4, HEAD_INK, 10.5, bold=True)
        side = "right" if state.dock == "left" else "left"
        fold_tip = (
            f"Open the {TITLES[name].lower()} panel"
            if state.collapsed
            else f"Fold the {TITLES[name].lower()} panel to its title"
        )
        self._add_button(
            f"fold:{name}",
            "+" if state.collapsed else "−",
            x + width - 28,
            top - 21,
            22,
            partial(self.fold, name),
            height=18,
            tip=fold_tip,
        )
        self._add_button(
            f"dock:{name}",
            "⇄",
            x + width - 54,
            top - 21,
            22,
            partial(self.dock, name),
            height=18,
            tip=f"Dock the {TITLES[name].lower()} panel on the {side} of the window",
        )
        bottom = top - HEADER_H
        if not state.collapsed:
            bottom = body(x, bottom, width) - 4
        self._panel_box(x, bottom, top, width)
        self.panel_at[name] = (x, bottom, x + width, top)
        return bottom

    def fold(self, name: str) -> None:
        """Fold a panel to its title bar, or open it (remembered)."""
        state = self.settings.panel(name)
        state.collapsed = not state.collapsed
        self._remember()

    def dock(self, name: str) -> None:
        """Move a panel to the other side of the window (remembered)."""
        state = self.settings.panel(name)
        state.dock = "right" if state.dock == "left" else "left"
        self._remember()

    def _remember(self) -> None:
        self._hud_key = None
        try:
            save_settings(self.settings, self.settings_file)
        except OSError as no:
            self.game.message = f"The window's settings could not be written: {no.strerror or no}."
            self.game.version += 1

    def _status(self) -> str:
        g, s = self.game, self.game.state
        who = side_title(s.actor)
        if getattr(s, "result", None):
            return "The war is over"
        if g.battle is not None:
            return f"{g.battle.title}: choose how to fight it"
        if g.handover is not None:
            return f"Hand over to {SIDE_TITLES_LOWER[g.handover]}"
        if g.human_to_act():
            return f"{who} to act" + (" (you)" if len(g.humans) == 1 else "")
        if s.actor in g.ais:
            return f"{who} (the computer) are moving…"
        if s.actor in g.remote:
            return f"{who} decide on their own computer"
        return "Nothing to do"

    def _toolbar(self, x: float, y: float, width: float) -> float:
        """Undo, Save, Load, Report and Help: always first in the orders, so they never move."""
        g = self.game
        why = g.undo_refusal()
        tips = {
            "undo": why or "Take back your last step (Ctrl+Z)",
            "save": "Save the game in a named slot"
            + (f" (Ctrl+S writes {g.save_path.name})" if g.save_path is not None else " (Ctrl+S)"),
            "load": "Load a saved game: every save, the newest first (Ctrl+L)",
            "report": "Write the war's illustrated after-action report, as a web page",
            "help": "Controls, the legend, the sequence of play and the rules (F1)",
        }
        runs: dict[str, Callable[[], Any]] = {
            "undo": self.undo,
            "save": self.save,
            "load": self.load,
            "report": self.write_aar,
            "help": self.toggle_help,
        }
        each = (width - 4 * 4) / 5
        for i, (key, run) in enumerate(runs.items()):
            self._add_button(
                key,
                key.capitalize(),
                x + i * (each + 4),
                y - BUTTON_H,
                each,
                run,
                enabled=key != "undo" or not why,
                tip=tips[key],
            )
        return y - BUTTON_H - 6

    def _orders_body(self, x: float, y: float, width: float) -> float:
        """The toolbar, who is to act, the waiting question and the phase's actions (a page
        at a time), then a line of help."""
        g = self.game
        y = self._toolbar(x + 8, y - 4, width - 16)
        y = self._line(self._status(), x + 8, y, HEAD_INK, 11, bold=True)
        if g.state.pending is not None:
            y = self._wrapped(g.pending_question(), x + 8, y, INK, 9.5, width - 16)
        options = [(o, partial(self.choose_phase, o), f"phase:{o.label}") for o in g.phase_options()]
        y = self._option_list("phase", options, x + 8, y - 2, width - 16, self._rows())
        places = g.action_places()
        if places:
            y = self._wrapped(
                f"{len(places)} places with something to do are ringed in gold: click one.",
                x + 8,
                y,
                DIM,
                8.5,
                width - 16,
            )
        note = g.phase_note()
        if note:
            y = self._wrapped(note, x + 8, y, DIM, 8.5, width - 16)
        return y

    def _rows(self) -> int:
        """How many choices a list shows on a page (more in a taller window)."""
        return max(4, min(12, int((self.window.height - 500) / 50)))

    def _option_list(
        self,
        name: str,
        options: Sequence[tuple[Option, Callable[[], Any], str]],
        x: float,
        y: float,
        width: float,
        rows: int,
    ) -> float:
        """Choices as buttons, ``rows`` a page, with Previous / Next when there are more (the
        wheel over the list turns the pages too): every choice can be reached."""
        pages = max(1, -(-len(options) // rows))
        page = min(self.pages.get(name, 0), pages - 1)
        self.pages[name] = page
        for o, run, key in options[page * rows : (page + 1) * rows]:
            tip = option_tip(o)
            y = self._button(o.label, x, y, width, run, key=key, tip=tip)
            if o.detail:  # what it risks or costs: the exact odds (campaign.md §14.3)
                y = self._wrapped(o.detail, x + 6, y + 2, DIM, 8.5, width - 6)
        if pages > 1:
            half = (width - 70) / 2
            prev, nxt = partial(self.turn_page, name, -1), partial(self.turn_page, name, 1)
            self._add_button(
                f"page:{name}:-1",
                "‹ Previous",
                x,
                y - BUTTON_H,
                half,
                prev,
                enabled=page > 0,
                tip="The previous page of choices",
            )
            self._add_button(
                f"page:{name}:1",
                "Next ›",
                x + width - half,
                y - BUTTON_H,
                half,
                nxt,
                enabled=page < pages - 1,
                tip="The next page of choices",
            )
            t = arcade.Text(
                f"{page + 1} of {pages}",
                x + width / 2,
                y - BUTTON_H / 2,
                DIM,
                9,
                font_name=SANS,
                anchor_x="center",
                anchor_y="center",
                batch=self.play_batch,
            )
            self._play_texts.append(t)
            self.page_lists[name] = (x, y - BUTTON_H, x + width, y + 4)
            y -= BUTTON_H + 4
        return y

    def turn_page(self, name: str, step: int) -> None:
        self.pages[name] = max(0, self.pages.get(name, 0) + step)
        self._hud_key = None

    def _force_body(self, x: float, y: float, width: float) -> float:
        """The selected force: leaders, units, movement, and the forces it may join."""
        g, s = self.game, self.game.state
        fid = g.selected_force or ""
        f = s.forces[fid]
        ink = rgba(OWNER_INK[owner_kind(self.world, f.side)])
        lines = g.describe_force(fid)
        y = self._wrapped(lines[0], x + 8, y - 4, ink, 11, width - 16, bold=True)
        for ln in lines[1:]:
            y = self._wrapped(ln, x + 8, y, INK, 9, width - 16)
        moves = g.moves()
        if moves:
            y = self._line(f"{len(moves)} places it may reach are lit on the map.", x + 8, y, DIM, 8.5)
        elif s.allegiance(f.side) == s.active and s.phase == "movement" and g.human_to_act():
            y = self._line("It cannot move any further this phase.", x + 8, y, DIM, 8.5)
        merges = [(o, partial(self.game.play, o.action), "merge") for o in g.merges()]
        return self._option_list("merge", merges, x + 8, y, width - 16, self._rows())

    def _place_body(self, x: float, y: float, width: float) -> float:
        """What can be done at the selected place (recruiting, colonies, tribute, bribes…)."""
        place = self.model.selected or ""
        y = self._wrapped(f"At {place_name(place)}", x + 8, y - 4, HEAD_INK, 11, width - 16, bold=True)
        here = self.game.place_options(place)
        options = [(o, partial(self.game.play, o.action), f"here{i}") for i, o in enumerate(here)]
        return self._option_list("place", options, x + 8, y, width - 16, self._rows())

    def _war_body(self, x: float, y: float, width: float) -> float:
        for ln in self.game.war_lines():
            y = self._wrapped(ln, x + 8, y - 2, INK, 8.5, width - 16) + 2
        return y

    def _chronicle_body(self, x: float, y: float, width: float) -> float:
        """The latest lines of the chronicle, newest at the bottom, as many as fit a few lines' height."""
        g = self.game
        if not g.chronicle:
            return self._line("Nothing has happened yet.", x + 8, y - 2, DIM, 8.5)
        room = CHRONICLE_H if self.window.height < 1000 else CHRONICLE_H * 1.6
        texts: list[arcade.Text] = []
        used = 0.0
        for ln in reversed(g.chronicle[-CHRONICLE_LINES:]):
            t = arcade.Text(
                ln,
                x + 8,
                0,
                INK,
                8.5,
                font_name=SANS,
                multiline=True,
                width=int(width - 16),
                anchor_y="top",
                batch=self.play_batch,
            )
            if texts and used + t.content_height > room:
                t.visible = False
                break
            used += t.content_height + 3
            texts.append(t)
        y -= 2
        for t in reversed(texts):
            t.y = y
            self._play_texts.append(t)
            y -= t.content_height + 3
        return y

    def _build_message(self) -> None:
        """The game's last message (a refusal, a save) in its fixed place at the bottom of
        the window: it never pushes a button, and OK clears it."""
        self.message_rect = None
        text = self.game.message
        if not text:
            return
        w = self.window.width
        left = MESSAGE_LEFT
        width = max(260.0, min(MESSAGE_W, w - left - 420))
        t = arcade.Text(
            text,
            left + 10,
            0,
            WARN,
            9.5,
            font_name=SANS,
            multiline=True,
            width=int(width - 70),
            anchor_y="top",
            batch=self.play_batch,
        )
        height = max(BUTTON_H + 8, t.content_height + 12)
        bottom = 8.0
        t.y = bottom + height - 6
        self._play_texts.append(t)
        self._add_button(
            "dismiss",
            "OK",
            left + width - 52,
            bottom + (height - BUTTON_H) / 2,
            44,
            self.dismiss,
            tip="Clear the message",
        )
        self._panel_box(left, bottom, bottom + height, width)
        self.message_rect = (left, bottom, left + width, bottom + height)

    def dismiss(self) -> None:
        self.game.message = ""
        self.game.version += 1

    def _panel_box(self, x0: float, bottom: float, top: float, width: float) -> None:
        """A parchment box behind a panel (drawn before its texts: shapes draw under the batch)."""
        cx, cy = x0 + width / 2, (bottom + top) / 2
        self.panel_rects.append((x0, bottom, x0 + width, top))
        self.play_shapes.append(shape_list.create_rectangle_filled(cx, cy, width, top - bottom, rgba(PARCHMENT)))
        self.play_shapes.append(shape_list.create_rectangle_outline(cx, cy, width, top - bottom, rgba(BG_TOP), 2))

    def _line(self, text: str, x: float, y: float, color: Any, size: float, *, bold: bool = False) -> float:
        t = arcade.Text(text, x, y, color, size, font_name=SANS, bold=bold, anchor_y="top", batch=self.play_batch)
        self._play_texts.append(t)
        return y - t.content_height - 3

    def _wrapped(
        self,
        text: str,
        x: float,
        y: float,
        color: Any,
        size: float,
        width: float,
        *,
        bold: bool = False,
        batch: Batch | None = None,
    ) -> float:
        t = arcade.Text(
            text,
            x,
            y,
            color,
            size,
            font_name=SANS,
            bold=bold,
            multiline=True,
            width=int(width),
            anchor_y="top",
            batch=batch or self.play_batch,
        )
        self._play_texts.append(t)
        return y - t.content_height - 3

    def _add_button(
        self,
        key: str,
        label: str,
        left: float,
        bottom: float,
        width: float,
        run: Callable[[], Any] | None,
        *,
        enabled: bool = True,
        height: float = BUTTON_H,
        tip: str = "",
        size: float = 9.5,
    ) -> Button:
        """A button; its label wraps onto more lines (the button grows down from its top)
        rather than being cut."""
        top = bottom + height
        t = arcade.Text(
            label,
            left + width / 2,
            top,
            BUTTON_INK if enabled else OFF_INK,
            size,
            font_name=SANS,
            multiline=True,
            width=max(8, int(width - 10)),
            align="center",
            anchor_x="center",
            anchor_y="top",
            batch=self._batch_for(key),
        )
        height = max(height, t.content_height + 8)
        t.y = top - (height - t.content_height) / 2
        b = Button(key, label, left, top - height, width, height, run=run, enabled=enabled, tip=tip or label)
        self.buttons.append(b)
        self.button_texts[key] = t
        return b

    def _batch_for(self, key: str) -> Batch:
        layer = button_layer(key)
        return self.help_batch if layer == "help" else self.dialog_batch if layer == "dialog" else self.play_batch

    def _button(
        self, label: str, x: float, y: float, width: float, run: Callable[[], Any], *, key: str, tip: str = ""
    ) -> float:
        b = self._add_button(key, label, x, y - BUTTON_H, width, run, tip=tip)
        return b.bottom - 4

    def _build_dialog(self, d: Dialog) -> None:
        """The dialog in the middle of the window; its answers wrap rather than being cut."""
        w, h = self.window.width, self.window.height
        dw = min(DIALOG_W, w - 40)
        texts: list[arcade.Text] = []
        batch = self.dialog_batch
        title = arcade.Text(
            d.title,
            0,
            0,
            rgba(GOLD),
            14,
            font_name=SERIF,
            bold=True,
            anchor_y="top",
            multiline=True,
            width=dw - 32,
            batch=batch,
        )
        body = [
            arcade.Text(ln, 0, 0, INK, 10, font_name=SANS, multiline=True, width=dw - 32, anchor_y="top", batch=batch)
            for ln in d.lines
        ]
        opts = list(d.options) + ([("Cancel", self.close_dialog, "")] if d.cancel else [])
        # the buttons first, at the top of the window, to know their heights
        made = []
        for i, (label, run, why) in enumerate(opts):
            key = "cancel" if label == "Cancel" and d.cancel and i == len(opts) - 1 else f"option{i}"
            tip = why or ("Close this dialog without choosing (Esc)" if key == "cancel" else f"{label} ({d.title})")
            b = self._add_button(key, label, 0, 0, dw - 32, run, enabled=run is not None, tip=tip)
            note = None
            if why:  # why it is disabled, or what it risks: wrapped under the button
                note = arcade.Text(
                    why,
                    0,
                    0,
                    DIM,
                    8.5,
                    font_name=SANS,
                    italic=True,
                    multiline=True,
                    width=dw - 44,
                    anchor_y="top",
                    batch=batch,
                )
            made.append((b, note))
        height: float = 20 + title.content_height + 10 + sum(t.content_height + 4 for t in body) + 10
        height += sum(b.height + 6 + (note.content_height + 4 if note else 0) for b, note in made) + 10
        left, top = (w - dw) / 2, min(h - TOP_BAR - 20, h / 2 + height / 2)
        bottom = top - height
        shapes = self.dialog_shapes
        shapes.append(shape_list.create_rectangle_filled(w / 2, h / 2, w, h, (20, 10, 12, 90)))
        shapes.append(
            shape_list.create_rectangle_filled(w / 2 + 4, (top + bottom) / 2 - 4, dw, height, (30, 20, 16, 120))
        )
        shapes.append(shape_list.create_rectangle_filled(w / 2, (top + bottom) / 2, dw, height, rgba(PARCHMENT, 250)))
        shapes.append(shape_list.create_rectangle_outline(w / 2, (top + bottom) / 2, dw, height, rgba(BG_TOP), 3))
        y = top - 14
        for t in (title, *body):
            t.x, t.y = left + 16, y
            y -= t.content_height + (10 if t is title else 4)
            texts.append(t)
        y -= 6
        for b, note in made:
            self._move_button(b, left + 16, y - b.height)
            y -= b.height + 6
            if note is not None:
                note.x, note.y = left + 22, y + 2
                texts.append(note)
                y -= note.content_height + 4
        self.dialog_texts = texts
        self.dialog_box = (left, bottom, left + dw, top)

    def _move_button(self, b: Button, left: float, bottom: float) -> None:
        t = self.button_texts[b.key]
        t.x += left - b.left
        t.y += bottom - b.bottom
        b.left, b.bottom = left, bottom

    def hud_rects(self) -> list[tuple[float, float, float, float]]:
        self.refresh_hud()
        rects = super().hud_rects()
        if self.settings.panel("legend").collapsed:
            rects = [r for r in rects if r != MAP_LEGEND_RECT]
        return rects + [(a - 1, b - 1, c + 1, d + 1) for a, b, c, d in self.panel_rects]

    def hud_opaque(self) -> bool:
        return self.dialog is None and not self.help_open

    def map_share(self) -> float:
        """The share of the window the map shows, with no dialog or help open: what the top
        bar, the panels, the message and the help line leave."""
        return map_share(self.hud_rects(), self.window.width, self.window.height)

    def _build_hud(self) -> None:
        super()._build_hud()
        self.hud_texts["map"].text = self.game.title()
        self.hud_texts["help"].text = "F1 help · Enter end phase · Ctrl+Z undo · Ctrl+S save · C chronicle · L legend"
        if self.settings.panel("legend").collapsed:  # the map's legend hidden: F1 shows it too
            for t in self.legend_texts:
                t.visible = False
            w, h = self.window.width, self.window.height
            self.hud_shapes = shape_list.ShapeElementList()
            self.hud_shapes.append(shape_list.create_rectangle_filled(w / 2, h - TOP_BAR / 2, w, TOP_BAR, rgba(BG_TOP)))
            self.hud_shapes.append(shape_list.create_rectangle_filled(w / 2, h - TOP_BAR - 1.5, w, 3, rgba(GOLD)))

    def toggle_legend(self) -> None:
        self.fold("legend")
        self._build_hud()
        self._cache_valid = False

    def _hud_extra_key(self) -> Any:
        self.refresh_hud()
        return self._hud_key

    def _draw_hud_extra(self) -> None:
        """The panels and their buttons, then the dialog, then the help over them (shape
        lists and text batches, drawn into the still frame)."""
        self.refresh_hud()
        self.play_shapes.draw()
        self.play_batch.draw()
        if self.dialog is not None:
            self.dialog_shapes.draw()
            self.dialog_batch.draw()
        if self.help_open:
            self.help_shapes.draw()
            self.help_sprites.draw()
            self.help_batch.draw()

    def _draw_tooltip(self) -> None:
        tip = self.hover is not None and self.hover.startswith(BUTTON_TIP)
        if tip or (self.dialog is None and not self.help_open):
            super()._draw_tooltip()

    def _layer_buttons(self) -> None:
        """Each button's box into its layer (the panels', the dialog's or the help's), after
        the panel boxes so that it draws on top of them (its label is already in the batch)."""
        layers = {"panel": self.play_shapes, "dialog": self.dialog_shapes, "help": self.help_shapes}
        for b in self.buttons:
            fill = BUTTON if b.enabled else BUTTON_OFF
            layers[button_layer(b.key)].append(
                shape_list.create_rectangle_filled(
                    b.left + b.width / 2, b.bottom + b.height / 2, b.width, b.height, fill
                )
            )

    def active_layer(self) -> str:
        return "help" if self.help_open else "dialog" if self.dialog is not None else "panel"

    def toggle_help(self) -> None:
        self.help_open = not self.help_open
        self._hud_key = None

    # ------------------------------------------------------------------ acting
    def choose_phase(self, o: Option) -> None:
        a = o.action
        if isinstance(a, A.Battle):
            opts = self.game.commit_options(a.place)
            if len(opts) == 1:
                self.game.play(opts[0].action)
            else:
                self.open_dialog(
                    Dialog(
                        f"Attack at {place_name(a.place)}",
                        ["How many Military stratagems do you commit to win tactical superiority?"],
                        [(x.label, partial(self._play_and_close, x.action), x.detail) for x in opts],
                    )
                )
            return
        self.game.decide(a)  # a supply phase stops at each convoy battle's choice (§10.2)

    def _play_and_close(self, action: A.Action) -> None:
        self.dialog = None
        if self.game.state.pending is not None:
            self.game.decide(action)
        else:
            self.game.play(action)

    def open_reports(self) -> None:
        """The war's battles, the latest first: each opens its after-action report (§14.4)."""
        reports = self.game.reports()
        shown = reports[-REPORTS_SHOWN:][::-1]
        lines = (
            [f"{len(reports)} battle{'s' if len(reports) != 1 else ''} fought so far; the latest first."]
            if reports
            else ["No battle has been fought yet."]
        )
        options: list[tuple[str, Callable[[], Any] | None, str]] = [
            (rep.title(), partial(self._show_report, rep), "") for rep in shown
        ]
        options.append((AAR_LABEL, self.write_aar, AAR_NOTE))
        self.open_dialog(Dialog("Battles of the war", lines, options))

    def _show_report(self, rep: AfterAction) -> None:
        self.open_dialog(
            Dialog(
                rep.title(),
                rep.summary(),
                [("Back to the battles", self.open_reports, ""), (AAR_LABEL, self.write_aar, AAR_NOTE)],
            )
        )

    def write_aar(self, battle: int | None = None) -> None:
        """The illustrated report of the war so far — or of its battle number ``battle`` —
        written in the background (``bellum aar``)."""
        from campaign.aar_job import start_report

        self.dialog = None
        try:
            folder, self.aar_job = start_report(self.game.session, battle)
        except OSError as no:
            self.game.message = f"The report could not be started: {no.strerror or no}."
        else:
            from bellum.paths import user_folder

            where = folder / "index.html"
            if where.is_relative_to(user_folder()):  # a path without spaces cannot wrap: keep it short
                where = where.relative_to(user_folder())
            self.game.message = (
                f"Writing the illustrated report (about a minute): {where.as_posix()} in your own folder "
                "(bellum version shows where)."
            )
        self.game.version += 1

    def open_dialog(self, d: Dialog) -> None:
        self.dialog = d
        self._hud_key = None

    def close_dialog(self) -> None:
        self.dialog = None
        self._hud_key = None

    def undo(self) -> None:
        self.game.undo()

    def save(self) -> None:
        loadscreen.open_save_dialog(self)  # a named slot (issue 15 item 5)

    def quick_save(self) -> None:
        """Ctrl+S: the file ``--save`` (or ``--load``) named when there is one, at once;
        otherwise the save dialog (the Save button always opens the dialog)."""
        if self.game.save_path is not None and not self.game.remote:
            self.game.save()
        else:
            self.save()

    def on_hide_view(self) -> None:
        """Leaving the map (a battle, a dialog, the menu): the autosave being written is
        finished first, and a failure becomes the game's message."""
        loadscreen.settle_autosave(self.game)

    def on_close(self) -> bool:
        """The window being closed: the autosave being written is finished first; one that
        failed keeps the window open once, saying so (a second close closes)."""
        if loadscreen.settle_autosave(self.game) and not self._warned_close:
            self._warned_close = True
            self.game.message += " Close the window again to quit without it."
            self.game.version += 1
            return True  # handled: the window stays open
        return False

    def load(self) -> None:
        loadscreen.open_load_screen(self)

    def _take_over(self) -> None:
        self.close_dialog()
        self.game.take_over()

    def move_to(self, place: str) -> None:
        opts = self.game.move_to(place)
        if not opts:
            return
        lines = [f"{force_name(self.game.state.forces[self.game.selected_force or ''])} → {place_name(place)}"]
        for path in dict.fromkeys(o.action.path for o in opts if isinstance(o.action, A.March | A.Sail)):
            lines.append(self.game.describe_path(path))
        sea = all(isinstance(o.action, A.Sail) for o in opts)
        self.open_dialog(
            Dialog(
                f"{'Voyage' if sea else 'March'} to {place_name(place)}",
                lines,
                [(f"{o.label} — {o.detail}", partial(self._play_and_close, o.action), "") for o in opts],
            )
        )

    def _refresh_dialogs(self) -> None:
        """Open the dialog the game now asks for: the battle choice, or a reactive decision."""
        g = self.game
        if self.dialog is not None:
            return
        if g.handover is not None:
            who = side_title(g.handover)
            self.open_dialog(
                Dialog(
                    f"{who} to play",
                    [
                        f"Hand the computer to {SIDE_TITLES_LOWER[g.handover]}.",
                        "Their hand of stratagems and their choices stay hidden until they take over.",
                    ],
                    [(f"We are {SIDE_TITLES_LOWER[g.handover]}: show our hand", self._take_over, "")],
                    cancel=False,
                )
            )
        elif g.battle is not None:
            self.open_dialog(self.battle_dialog())
        elif g.popups and (g.state.pending is None or g.remote) and not g.ai_to_act():
            title, lines = g.popups.pop(0)
            options: list[tuple[str, Callable[[], Any] | None, str]] = [("Continue", self.close_dialog, "")]
            if title.startswith("After-action report"):  # the end of a battle
                n = len(g.reports())
                options.append((AAR_BATTLE, partial(self.write_aar, n), AAR_BATTLE_NOTE))
                options.append((AAR_LABEL, self.write_aar, AAR_NOTE))
            self.open_dialog(Dialog(title, lines or [" "], options, cancel=False))
        elif g.pbem_battle_to_fight():
            self.open_pbem_battle()
        elif g.state.pending is not None and g.human_to_act():
            self.open_dialog(
                Dialog(
                    g.pending_title(),
                    [g.pending_question()],
                    [
                        (o.label + (f" — {o.detail}" if o.detail else ""), partial(self._decide, o.action), "")
                        for o in g.pending_options()
                    ],
                    cancel=False,
                )
            )

    def _decide(self, action: A.Action) -> None:
        self.dialog = None
        self.game.decide(action)

    # ------------------------------------------------------------------ battles
    def battle_dialog(self) -> Dialog:
        """Auto-resolve (odds first), the battleboard or the tactical engine (issue 7 item 6)."""
        b = self.game.battle
        assert b is not None
        eng = b.engagement
        cat = catalogue()
        lines = []
        for letter in ("A", "B"):
            units = [u for u in eng.units if u.side == letter]
            leaders = [ld.name or ld.id for ld in eng.leaders if ld.side == letter]
            sp = sum(u.strength for u in units)
            who = b.names[letter] + (" (computer)" if letter in b.ai_letters else "")
            role = "attack" if letter == eng.active else "defend"
            lead = f", led by {', '.join(leaders)}" if leaders else ""
            lines.append(f"{who} {role}: {len(units)} units, {sp} SP{lead}.")
        del cat
        odds = self.game.battle_odds()
        na, nb = b.names["A"], b.names["B"]
        lines.append(
            f"Auto-resolve odds ({ODDS_BATTLES} battles fought by the battleboard AI): {na} win {odds['A']:.0%}, "
            f"{nb} {odds['B']:.0%}, no victory {odds['draw']:.0%}; SP lost on average {odds['A_lost']:.1f} "
            f"and {odds['B_lost']:.1f}."
        )
        sa, sb = eng.sides["A"].superiority_stratagems, eng.sides["B"].superiority_stratagems
        sup = eng.tactical_superiority()
        lines.append(
            f"Military stratagems committed: {na} {sa}, {nb} {sb}"
            + f" — tactical superiority (sets up last, moves first): {b.names[sup]}."
            + f" The {eng.terrain} battleboard."
        )
        why = tactical_refusal(eng)
        ok = not why
        choices: list[tuple[str, Callable[[], Any] | None, str]] = [
            ("Auto-resolve", self.auto_resolve, ""),
            ("Fight it on the battleboard", self.open_battleboard, ""),
            ("Fight it with the tactical engine", self.open_tactical if ok else None, "" if ok else why),
        ]
        if is_decisive(eng):
            # a decisive battle (campaign.md §12.8): the tactical engine is offered first
            lines.append("A decisive battle: the war may turn on it. Fight it out on the tactical map?")
            choices = [choices[2], choices[0], choices[1]]
        return Dialog(f"{b.title} — {eng.turn}", lines, choices, cancel=False)

    def auto_resolve(self) -> None:
        self.dialog = None
        self.game.auto_resolve()

    def open_battleboard(self) -> Any:
        """Open the battleboard on the waiting engagement (its route begins the battle);
        ``on_show_view`` asks the battle for its outcome."""
        from battleboard.resolve import ROUTE
        from battleboard.view.battle import BattleView

        b = self.game.battle
        assert b is not None
        self.dialog = None
        battle = ROUTE.begin(b.engagement, self._battle_seed())
        view = BattleView(
            battle=battle,
            title=f"{b.title} — {b.engagement.turn}",
            side_names=b.names,
            ai=b.ai_letters,
            menu=self,
            menu_label="Campaign",
        )
        self.battle_view, self.fight = view, battle
        self.window.show_view(view)
        return view

    def open_pbem_battle(self) -> Any:
        """A game by e-mail: the battle being fought move by move, this side to move."""
        from campaign.pbem import PlayedTacticalBattle
        from campaign.view.pbem_battle import PbemBattleView, tactical_view

        session: Any = self.game.session
        tactical = isinstance(session.battle, PlayedTacticalBattle)
        view = tactical_view(session, self) if tactical else PbemBattleView(session, self)
        self.battle_view = view
        self.window.show_view(view)
        return view

    def open_tactical(self) -> Any:
        """Open the tactical window on the engagement converted to GBoH counters
        (``campaign.conversion``, docs/rules/campaign.md §12.7); ``on_show_view`` converts
        the losses back."""
        from campaign.conversion import route
        from tactical.view.app import engagement_view

        b = self.game.battle
        assert b is not None
        self.dialog = None
        try:
            # the way back is given the same campaign state, so both plan the counters alike
            battle = route(self.game.state, tactical_folder()).begin(b.engagement, self._battle_seed())
            view = engagement_view(battle, ai_sides=b.ai_letters, menu=self)
        except BellumError as no:
            self.game.message = str(no)
            self.game.version += 1
            return None
        self.battle_view, self.fight = view, battle
        self.window.show_view(view)
        return view

    def _battle_seed(self) -> int:
        return (self.game.session.seed * 1_000_003 + len(self.game.session.actions)) % (2**62)

    def on_show_view(self) -> None:
        """Back from a battle window: a finished battle's outcome is applied; an unfinished
        one is resumed, or ended — on the battleboard the generals (its AI) fight it out,
        on the tactical map night falls and it is broken off (a draw, the losses so far)."""
        bv, fight = self.battle_view, self.fight
        if bv is not None and hasattr(bv, "campaign"):  # a battle of a game by e-mail
            self.battle_view = self.fight = None
            if self.game.pbem_battle_to_fight():
                self.open_dialog(
                    Dialog(
                        "The battle is being fought",
                        ["Your side must move: the turn file goes out when the other side must decide."],
                        [("Return to the battle", self.open_pbem_battle, "")],
                        cancel=False,
                    )
                )
            return
        if bv is None or fight is None or self.game.battle is None:
            self.battle_view = self.fight = None
            return
        if fight.over():
            self._finish_battle()
            return
        tactical = fight.engine == "tactical"
        end = (
            "Break it off at nightfall (a draw, with the losses so far)"
            if tactical
            else "Let the generals fight it out (the battleboard AI)"
        )
        self.open_dialog(
            Dialog(
                f"{self.game.battle.title} is not over",
                [f"The battle is still being fought on the {'tactical map' if tactical else 'battleboard'}."],
                [
                    ("Return to the battle", partial(self.window.show_view, bv), ""),
                    (end, self._finish_battle, ""),
                ],
                cancel=False,
            )
        )

    def _finish_battle(self) -> None:
        """The outcome of the battle window's battle, applied through the engine."""
        fight, b = self.fight, self.game.battle
        self.dialog = None
        if fight is None or b is None:
            return
        self.battle_view = self.fight = None
        try:
            out, moments = fight.conclude()
        except BellumError as no:  # the battle stays to be fought another way
            self.game.message = f"The battle's result could not be brought back: {no}"
            self.game.version += 1
            return
        self.game.finish_battle(out, fought=ENGINE_WORDS[out.engine], moments=moments)

    # ------------------------------------------------------------------ input
    def force_at(self, sx: float, sy: float) -> str | None:
        """The force counter under a screen point (the top of a stack first)."""
        wx, wy = self.screen_to_world(sx, sy)
        best = None
        for sprite, fid in zip(self.force_sprites, self._force_ids, strict=True):
            half = sprite.width / 2
            if abs(sprite.center_x - wx) <= half and abs(sprite.center_y - wy) <= half:
                best = fid  # later counters are drawn on top
        return best

    def click(self, sx: float, sy: float) -> str | None:
        """A click on the map: a lit destination moves the selected force; a counter
        selects its force; a place selects it (and the mover's force there)."""
        g = self.game
        fid = self.force_at(sx, sy)
        place = self.place_at(sx, sy)
        moves = g.moves()
        target = None
        if fid is not None and g.state.forces[fid].location in moves:
            target = g.state.forces[fid].location
        elif fid is None and place in moves:
            target = place
        if target is not None:
            self.move_to(target)
            self._sync_model()
            return target
        if fid is not None:
            g.select_force(fid)
            place = g.state.forces[fid].location
        else:
            g.select(place)
            mine = [
                f.id
                for f in g.state.forces.values()
                if place is not None and f.location == place and g.state.allegiance(f.side) == g.actor and f.units
            ]
            g.selected_force = mine[0] if mine else None
            g.version += 1
        self._sync_model()
        return place

    def button_at(self, x: float, y: float) -> Button | None:
        """The button under a point, in the layer that takes clicks now (the help over a
        dialog over the panels)."""
        self.refresh_hud()
        layer = self.active_layer()
        for b in self.buttons:
            if button_layer(b.key) == layer and b.hit(x, y):
                return b
        return None

    def refresh_hud(self) -> None:
        """Rebuild the panels and buttons now if the game or the dialog changed."""
        if self._hud_key != self._hud_state():
            self._build_play_hud()

    def press(self, key: str) -> bool:
        """Press the HUD button ``key`` (as a click would); False if there is none."""
        self.refresh_hud()
        for b in list(self.buttons):
            if b.key == key and b.enabled and b.run is not None:
                if button_layer(key) != self.active_layer():
                    return False
                b.run()
                self._after_input()
                return True
        return False

    def _run_button(self, b: Button) -> None:
        """A click on a button: it runs, or — disabled — says why in the message's place."""
        if b.enabled and b.run is not None:
            b.run()
        elif b.tip and b.tip != b.label:
            self.game.message = b.tip
            self.game.version += 1
        self._after_input()

    def _after_input(self) -> None:
        self._refresh_dialogs()
        self._sync_model()
        self._hud_key = None

    def on_panel(self, x: float, y: float) -> bool:
        """Whether a screen point is on a HUD panel, the message, a dialog or the help (not the map)."""
        self.refresh_hud()
        if self.dialog is not None or self.help_open:
            return True
        if self.button_at(x, y) is not None:
            return True
        return any(left <= x <= right and bottom <= y <= top for left, bottom, right, top in self.hud_rects())

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> bool | None:
        """The tooltip: a button's (what it does, or why it is disabled), else a force under
        the cursor (its leaders and units), else the place; nothing over a panel."""
        super().on_mouse_motion(x, y, dx, dy)
        b = self.button_at(x, y)
        if b is not None:
            self.hover = f"{BUTTON_TIP}{b.key}|{self.game.version}"
        elif self.hover is not None and self.on_panel(x, y):
            self.hover = None
        elif self.hover is not None:
            fid = self.force_at(x, y)
            if fid is not None:
                self.hover = FORCE_TIP + fid
        return None

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool | None:
        """The wheel over a list of choices turns its pages; over another panel it does
        nothing; over the map it zooms."""
        self.refresh_hud()
        if self.help_open:
            self.help_scroll = max(0, self.help_scroll + (1 if scroll_y < 0 else -1))
            self._hud_key = None
            return None
        if self.dialog is None:
            for name, (left, bottom, right, _top) in self.page_lists.items():
                panel = next((r for r in self.panel_rects if r[0] <= left and r[2] >= right and r[1] <= bottom), None)
                if panel is not None and panel[0] <= x <= panel[2] and panel[1] <= y <= panel[3]:
                    self.turn_page(name, 1 if scroll_y < 0 else -1)
                    return None
        if self.on_panel(x, y):
            return None
        return super().on_mouse_scroll(x, y, scroll_x, scroll_y)

    def describe(self, place: str, with_links: bool = False) -> str:
        if place.startswith(BUTTON_TIP):
            key = place[len(BUTTON_TIP) :].rsplit("|", 1)[0]
            return next((b.tip for b in self.buttons if b.key == key), "")
        if place.startswith(FORCE_TIP):
            fid = place[len(FORCE_TIP) :]
            if fid in self.game.state.forces:
                return "\n".join(self.game.describe_force(fid))
            return ""
        return super().describe(place, with_links)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        if self.dialog is None and self.map_press(x, y):  # issue 15 (wt15a): enemy-turn card, minimap
            self._after_input()
            return None
        if self.on_panel(x, y):
            self._pressed = False
            self._on_hud = True
            return None
        self._on_hud = False
        return super().on_mouse_press(x, y, button, modifiers)

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> bool | None:
        if getattr(self, "_on_hud", False):
            return None
        return super().on_mouse_drag(x, y, dx, dy, buttons, modifiers)

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        if getattr(self, "_on_hud", False):
            self._on_hud = False
            b = self.button_at(x, y)
            if b is not None and button == arcade.MOUSE_BUTTON_LEFT:
                self._run_button(b)
            return None
        super().on_mouse_release(x, y, button, modifiers)
        self._after_input()
        return None

    def on_text(self, text: str) -> None:
        """Typing while the help's rules are shown searches them."""
        if self.help_open and self.help_tab == "rules" and text.isprintable() and len(self.help_query) < 40:
            self.help_query += text
            self.help_section, self.help_scroll = -1, 0
            self.pages["help:rules"] = 0
            self._hud_key = None

    def _help_key(self, symbol: int) -> None:
        """Keys while the help is open: F1 or Esc close it, Backspace edits the search."""
        if symbol in (arcade.key.F1, arcade.key.ESCAPE):
            self.toggle_help()
        elif symbol == arcade.key.BACKSPACE and self.help_query:
            self.help_query = self.help_query[:-1]
            self.help_section, self.help_scroll = -1, 0
            self._hud_key = None

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        ctrl = modifiers & (arcade.key.MOD_CTRL | arcade.key.MOD_COMMAND)
        if self.help_open:
            self._help_key(symbol)
            return None
        if symbol == arcade.key.F1:
            self.toggle_help()
            return None
        if symbol == arcade.key.ESCAPE:
            if self.dialog is not None:
                if self.dialog.cancel:
                    self.close_dialog()
                return None
            if self.game.selected_force is not None:
                self.game.select_force(None)
                self.game.select(None)
                self._sync_model()
                return None
        elif symbol == arcade.key.C and not ctrl:
            self.fold("chronicle")
        elif symbol == arcade.key.L and not ctrl:
            self.toggle_legend()
        elif symbol == arcade.key.R and not ctrl and self.dialog is None:
            self.open_reports()
        elif ctrl and symbol == arcade.key.Z:
            self.undo()
        elif ctrl and symbol == arcade.key.S:
            self.quick_save()
        elif ctrl and symbol == arcade.key.L:
            self.load()
        elif symbol == arcade.key.V and not ctrl and self.game.state.result and self.dialog is None:
            victory.show(self)  # the end of the war again (issue 15 item 7)
        elif symbol in (arcade.key.ENTER, arcade.key.RETURN) and self.dialog is None:
            opts = [o for o in self.game.phase_options() if isinstance(o.action, A.EndPhase | A.Pass | A.Supply)]
            if opts:
                self.game.decide(opts[0].action)
        if symbol in (arcade.key.ENTER, arcade.key.RETURN) or ctrl:
            self._after_input()
            return None
        result = super().on_key_press(symbol, modifiers)
        self._after_input()
        return result

    def on_update(self, delta_time: float) -> None:
        if self.dialog is None and self.game.ai_to_act():
            self._ai_clock += delta_time
            if self._ai_clock >= self.ai_delay:
                self._ai_clock = 0.0
                self.game.ai_step()
                self._refresh_dialogs()
        else:
            self._ai_clock = 0.0
            self._refresh_dialogs()
        super().on_update(delta_time)
        # issue 15 items 5 and 7: the autosave of each turn, the end-of-war screen
        loadscreen.autosave_tick(self.game)
        victory.offer(self)


# ---------------------------------------------------------------------- starting a game


def humans_for(ai: str | None) -> frozenset[str]:
    """The sides a person plays, from ``--ai`` (the sides the computer plays)."""
    if ai in (None, "senatorial"):
        return frozenset({SIDES[0]})
    if ai == "caesarian":
        return frozenset({SIDES[1]})
    if ai == "none":
        return frozenset(SIDES)
    return frozenset()


def game_from_args(args: argparse.Namespace) -> CampaignGame:
    """The game ``bellum campaign`` asks for: a new one, or a saved one replayed."""
    from bellum.session import Session
    from campaign.engine import CampaignEngine
    from campaign.scenario import resolve

    humans = humans_for(getattr(args, "ai", None))
    load = getattr(args, "load", None)
    save = getattr(args, "save", None)
    if load:
        session = Session.load(CampaignEngine(), load, getattr(args, "scenario", None))
    else:
        scenario = getattr(args, "scenario", None) or "49bc"
        if not resolve(scenario).exists():
            raise InputError(scenario, "", "is no campaign scenario (give a name under scenarios/campaign or a file)")
        session = Session(CampaignEngine(), scenario, getattr(args, "seed", 1))
    game_id = saveslots.game_of(slots.read_card(load).meta, session.scenario) if load else ""
    return CampaignGame(session, humans, save_path=save or load, game_id=game_id)


def launch_game(args: argparse.Namespace) -> int:
    """``bellum campaign`` without ``--headless``: the campaign window."""
    game = game_from_args(args)
    window = arcade.Window(1280, 800, "Bellum Civile — the campaign", resizable=True, antialiasing=False)
    window.show_view(CampaignView(game))
    arcade.run()
    problem = loadscreen.settle_autosave(game)
    if problem:
        print(problem, file=sys.stderr)
        return 1
    return 0


def pbem_game(session: Any, out: str | None = None) -> CampaignGame:
    """A received turn (``bellum.pbem.PbemSession``) as the window's game: this computer's
    side played by its person, the other side by nobody here."""
    game = CampaignGame(session, frozenset({session.me}))
    game.send_to = Path(out) if out else None
    game.popups.append(
        (
            f"Your turn: {side_title(session.me)}",
            ["The turn file is checked: every action re-played, the dice follow the chain.", session.status()],
        )
    )
    return game


def launch_pbem(session: Any, out: str | None = None) -> int:
    """``bellum pbem play FILE``: the received turn in the window, this computer's side played
    by its person; the next turn file is written once the decision passes to the other side."""
    game = pbem_game(session, out)
    window = arcade.Window(1280, 800, "Bellum Civile — a game by e-mail", resizable=True, antialiasing=False)
    window.show_view(CampaignView(game))
    arcade.run()
    return 0


def open_game(window: arcade.Window, game: CampaignGame, menu: arcade.View | None = None) -> CampaignView:
    view = CampaignView(game, menu=menu)
    window.show_view(view)
    return view


def tactical_folder() -> Path:
    """Where the tactical scenarios of campaign battles are written (one file per battle)."""
    import tempfile

    return Path(tempfile.gettempdir()) / "bellum-campaign-battles"
