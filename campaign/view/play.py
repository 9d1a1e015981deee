"""The playing campaign window: the map of ``mapview`` with the game on it
(docs/rules/campaign.md §14, "Playing").

``CampaignView`` is a ``MapView`` over a ``CampaignGame`` (``campaign.view.game``).  On
top of the map it shows, under a fixed HUD camera:

* the **phase panel** (left): who is to act, the phase's actions from the legal-action
  generator (end or pass the phase, supply, attacks, storms with their chance, offers of
  battle at sea), undo, save and load;
* the **force panel** (left, below): the selected force's leaders and units, and the
  forces it may join;
* the **chronicle** (bottom right): the last lines of the campaign's chronicle;
* **dialogs** (centre): the choice of march (plain or with a Military stratagem, or by
  sea) with the exact March Table odds, the reactive decisions (intercept, cut supply,
  accept battle at sea, commit stratagems), and the **battle dialog** — auto-resolve
  with the odds shown first, the battleboard, or the tactical engine.

A click on a force selects it and lights its legal destinations on the map, each with
the chance that the march arrives; a click on a lit place moves it there (a sure march
at once, otherwise through the march dialog).  The battleboard choice opens
``battleboard.view.battle.BattleView`` on the engagement; when the battle is over (or the
player leaves it and lets the generals finish it), its ``Outcome`` comes back to the map
and is applied through the engine.

Controls besides the map's: Enter ends or passes the phase, C shows or hides the
chronicle, R lists the war's battles and opens their after-action reports (campaign.md
§14.4), Ctrl+Z undo, Ctrl+S save (a named slot: ``loadscreen``), Ctrl+L load (the load
screen), V the end of the war once it is over (``victory``), Esc closes a dialog, clears
the selection or returns to the menu.
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import arcade
from arcade import shape_list
from pyglet.graphics import Batch

from bellum.engagement import Battle
from bellum.errors import BellumError, InputError
from bellum.report import AfterAction
from bellum.view.widgets import Button
from campaign import actions as A
from campaign.routes import is_decisive
from campaign.rules.common import force_name, place_name
from campaign.state import SIDE_NAMES as SIDE_TITLES_LOWER
from campaign.state import SIDES, side_title
from campaign.units import catalogue
from campaign.view import loadscreen, markers, victory
from campaign.view.game import ODDS_BATTLES, CampaignGame, Option, tactical_refusal
from campaign.view.mapview import SANS, SERIF, TOP_BAR, MapView, rgba
from campaign.view.palette import BG_TOP, GOLD, LABEL_INK, OWNER_INK, PARCHMENT, owner_kind

PANEL_W = 300
CHRONICLE_W = 400
CHRONICLE_LINES = 7
MAX_PHASE_BUTTONS = 12
MAX_PLACE_BUTTONS = 8
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
DEST_SURE = (40, 120, 60)
DEST_RISK = (200, 140, 30)
DEST_BAD = (170, 40, 30)
DEST_SEA = (40, 80, 150)


#: the button that writes the war's illustrated after-action report (``bellum aar``)
AAR_LABEL = "Illustrated report of the war"
AAR_NOTE = "maps, charts and every battle, as a web page"
AAR_BATTLE = "Illustrated report of this battle"
AAR_BATTLE_NOTE = "the field at its start, turning points and end, as a web page"


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
        self._version = -1
        self._hud_key: tuple[Any, ...] | None = None
        self.play_batch = Batch()
        self.play_shapes: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        self._play_texts: list[arcade.Text] = []
        self._force_ids: list[str] = []
        self.dest_labels: dict[str, str] = {}
        self.show_chronicle = True
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
    def _hud_state(self) -> tuple[Any, ...]:
        return (
            self.game.version,
            id(self.dialog),
            self.window.width,
            self.window.height,
            self.game.selected_force,
            self.show_chronicle,
        )

    def _build_play_hud(self) -> None:
        """Rebuild the panels, the buttons and the dialog (when the game or the dialog changed)."""
        self._hud_key = self._hud_state()
        self.play_batch = Batch()
        self.play_shapes = shape_list.ShapeElementList()
        self.dialog_batch = Batch()
        self.dialog_shapes: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        self._play_texts = []
        self.buttons = []
        self.panel_rects: list[tuple[float, float, float, float]] = []
        w, h = self.window.width, self.window.height
        g = self.game
        # -- the phase panel ------------------------------------------------------
        x0, top = 10.0, h - TOP_BAR - 10
        y = top - 8
        s = g.state
        actor = s.actor
        who = side_title(actor)
        if getattr(s, "result", None):
            status = "The war is over"
        elif g.battle is not None:
            status = f"{g.battle.title}: choose how to fight it"
        elif g.handover is not None:
            status = f"Hand over to {SIDE_TITLES_LOWER[g.handover]}"
        elif g.human_to_act():
            status = f"{who} to act" + (" (you)" if len(g.humans) == 1 else "")
        elif actor in g.ais:
            status = f"{who} (the computer) are moving…"
        elif actor in g.remote:
            status = f"{who} decide on their own computer"
        else:
            status = "Nothing to do"
        y = self._line(status, x0 + 10, y, GOLD, 11.5, bold=True)
        if s.pending is not None:
            y = self._wrapped(g.pending_question(), x0 + 10, y, INK, 9.5, PANEL_W - 20)
        if g.message:
            y = self._wrapped(g.message, x0 + 10, y, WARN, 9.5, PANEL_W - 20)
        y -= 4
        options = g.phase_options()
        for o in options[:MAX_PHASE_BUTTONS]:
            y = self._button(o.label, x0 + 10, y, PANEL_W - 20, partial(self.choose_phase, o), key=f"phase:{o.label}")
            if o.detail:  # what it risks: a storm's or a roll's exact odds (campaign.md §14.3)
                y = self._wrapped(o.detail, x0 + 16, y + 2, DIM, 8.5, PANEL_W - 26)
        if len(options) > MAX_PHASE_BUTTONS:
            y = self._line(f"…and {len(options) - MAX_PHASE_BUTTONS} more choices.", x0 + 10, y, DIM, 8.5)
        places = g.action_places()
        if places:
            y = self._wrapped(
                f"{len(places)} places with something to do are ringed in gold: click one.",
                x0 + 10,
                y,
                DIM,
                8.5,
                PANEL_W - 20,
            )
        note = g.phase_note()
        if note:
            y = self._wrapped(note, x0 + 10, y, DIM, 8.5, PANEL_W - 20)
        quarter = (PANEL_W - 20 - 12) / 4
        row = y - BUTTON_H - 4
        self._add_button("undo", "Undo", x0 + 10, row, quarter, self.undo, enabled=g.can_undo())
        self._add_button("save", "Save", x0 + 14 + quarter, row, quarter, self.save)
        self._add_button("load", "Load", x0 + 18 + 2 * quarter, row, quarter, self.load)
        # the war's illustrated after-action report (``bellum aar``), written in the background
        self._add_button("report", "Report", x0 + 22 + 3 * quarter, row, quarter, self.write_aar)
        y = row - 8
        self._panel_box(x0, y, top, PANEL_W)
        # -- the force panel --------------------------------------------------------
        fid = g.selected_force
        if fid is not None and fid in s.forces:
            top2 = y - 8
            y2 = top2 - 8
            f = s.forces[fid]
            side = s.allegiance(f.side)
            ink = rgba(OWNER_INK[owner_kind(self.world, f.side)])
            lines = g.describe_force(fid)
            y2 = self._line(lines[0], x0 + 10, y2, ink, 11.5, bold=True)
            for ln in lines[1:]:
                y2 = self._wrapped(ln, x0 + 10, y2, INK, 9, PANEL_W - 20)
            moves = g.moves()
            if moves:
                y2 = self._line(f"{len(moves)} places it may reach are lit on the map.", x0 + 10, y2, DIM, 8.5)
            elif side == s.active and s.phase == "movement" and g.human_to_act():
                y2 = self._line("It cannot move any further this phase.", x0 + 10, y2, DIM, 8.5)
            for o in g.merges():
                y2 = self._button(o.label, x0 + 10, y2, PANEL_W - 20, partial(self.game.play, o.action), key="merge")
            self._panel_box(x0, y2 - 6, top2, PANEL_W)
            y = y2 - 6
        here = g.place_options(self.model.selected)
        if here and self.model.selected is not None:
            top3 = y - 8
            y3 = self._line(f"At {place_name(self.model.selected)}", x0 + 10, top3 - 8, GOLD, 11, bold=True)
            for i, o in enumerate(here[:MAX_PLACE_BUTTONS]):
                y3 = self._button(o.label, x0 + 10, y3, PANEL_W - 20, partial(self.game.play, o.action), key=f"here{i}")
                if o.detail:
                    y3 = self._wrapped(o.detail, x0 + 16, y3 + 2, DIM, 8.5, PANEL_W - 26)
            if len(here) > MAX_PLACE_BUTTONS:
                y3 = self._line(f"…and {len(here) - MAX_PLACE_BUTTONS} more.", x0 + 10, y3, DIM, 8.5)
            self._panel_box(x0, y3 - 6, top3, PANEL_W)
        # -- the war (top right, above the place panel) -------------------------------
        ww = 316
        wx0 = w - ww - 10
        wtop = h - TOP_BAR - 10
        wy = self._line("The war", wx0 + 10, wtop - 8, GOLD, 10.5, bold=True)
        for ln in g.war_lines():
            wy = self._wrapped(ln, wx0 + 10, wy, INK, 8.5, ww - 20)
        self._panel_box(wx0, wy - 4, wtop, ww)
        self.panel_drop = wtop - (wy - 4) + 8
        # -- the chronicle -----------------------------------------------------------
        cw = CHRONICLE_W
        cx0 = w - cw - 10
        bottom = 52.0  # above the scale bar and the help line
        yy = bottom + 8
        shown = g.chronicle[-CHRONICLE_LINES:] if self.show_chronicle else []
        for ln in reversed(shown):
            t = arcade.Text(
                ln,
                cx0 + 10,
                yy,
                INK,
                8.5,
                font_name=SANS,
                multiline=True,
                width=cw - 20,
                anchor_y="bottom",
                batch=self.play_batch,
            )
            if yy + t.content_height > h * 0.38:
                t.visible = False
                break
            self._play_texts.append(t)
            yy += t.content_height + 3
        if not g.chronicle and self.show_chronicle:
            yy = self._line("Nothing has happened yet.", cx0 + 10, yy + 14, DIM, 8.5) + 16
        head = arcade.Text(
            "Chronicle" if self.show_chronicle else "Chronicle (C shows it)",
            cx0 + 10,
            yy + 4,
            rgba(GOLD),
            10.5,
            font_name=SERIF,
            bold=True,
            batch=self.play_batch,
        )
        self._play_texts.append(head)
        self._panel_box(cx0, bottom, yy + 24, cw)
        # -- the dialog --------------------------------------------------------------
        if self.dialog is not None:
            self._build_dialog(self.dialog)
        self._layer_buttons()

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

    def _wrapped(self, text: str, x: float, y: float, color: Any, size: float, width: float) -> float:
        t = arcade.Text(
            text,
            x,
            y,
            color,
            size,
            font_name=SANS,
            multiline=True,
            width=int(width),
            anchor_y="top",
            batch=self.play_batch,
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
    ) -> Button:
        b = Button(key, label, left, bottom, width, height, run=run, enabled=enabled)
        self.buttons.append(b)
        return b

    def _button(self, label: str, x: float, y: float, width: float, run: Callable[[], Any], *, key: str) -> float:
        self._add_button(key, label, x, y - BUTTON_H, width, run)
        return y - BUTTON_H - 4

    def _build_dialog(self, d: Dialog) -> None:
        w, h = self.window.width, self.window.height
        dw = DIALOG_W
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
        height = 20 + title.content_height + 10 + sum(t.content_height + 4 for t in body) + 10
        opts = list(d.options) + ([("Cancel", self.close_dialog, "")] if d.cancel else [])
        height += sum(BUTTON_H + 6 + (14 if why else 0) for _, _, why in opts) + 10
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
        for i, (label, run, why) in enumerate(opts):
            key = "cancel" if label == "Cancel" and d.cancel and i == len(opts) - 1 else f"option{i}"
            self._add_button(key, label, left + 16, y - BUTTON_H, dw - 32, run, enabled=run is not None)
            y -= BUTTON_H + 6
            if why:
                t = arcade.Text(
                    why, left + 22, y + 2, DIM, 8.5, font_name=SANS, italic=True, anchor_y="top", batch=batch
                )
                texts.append(t)
                y -= 14
        self.dialog_texts = texts
        self.dialog_box = (left, bottom, left + dw, top)

    def hud_rects(self) -> list[tuple[float, float, float, float]]:
        self.refresh_hud()
        return super().hud_rects() + [(a - 1, b - 1, c + 1, d + 1) for a, b, c, d in self.panel_rects]

    def hud_opaque(self) -> bool:
        return self.dialog is None

    def _build_hud(self) -> None:
        super()._build_hud()
        self.hud_texts["map"].text = self.game.title()
        self.hud_texts["help"].text = (
            "click a force, then a lit place · Enter end phase · C chronicle · R battles · Ctrl+Z undo · Ctrl+S save"
            " · Ctrl+L load"
        )

    def _hud_extra_key(self) -> Any:
        self.refresh_hud()
        return self._hud_key

    def _draw_hud_extra(self) -> None:
        """The panels and their buttons, then the dialog over them: two shape lists and two
        text batches (drawn into the still frame; a panning frame draws them again)."""
        self.refresh_hud()
        self.play_shapes.draw()
        self.play_batch.draw()
        if self.dialog is not None:
            self.dialog_shapes.draw()
            self.dialog_batch.draw()

    def _draw_tooltip(self) -> None:
        if self.dialog is None:
            super()._draw_tooltip()

    def _layer_buttons(self) -> None:
        """Each button's box and label into its layer (the panels' or the dialog's), after
        the panel boxes so that they draw on top of them."""
        for b in self.buttons:
            in_dialog = b.key.startswith("option") or b.key == "cancel"
            shapes, batch = (
                (self.dialog_shapes, self.dialog_batch) if in_dialog else (self.play_shapes, self.play_batch)
            )
            fill = BUTTON if b.enabled else BUTTON_OFF
            shapes.append(
                shape_list.create_rectangle_filled(
                    b.left + b.width / 2, b.bottom + b.height / 2, b.width, b.height, fill
                )
            )
            t = arcade.Text(
                b.label,
                b.left + b.width / 2,
                b.bottom + b.height / 2,
                BUTTON_INK if b.enabled else (236, 230, 220, 255),
                9.5,
                font_name=SANS,
                anchor_x="center",
                anchor_y="center",
                batch=batch,
            )
            self._play_texts.append(t)

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
        self.refresh_hud()
        for b in self.buttons:
            if self.dialog is not None and not (b.key.startswith("option") or b.key == "cancel"):
                continue
            if b.hit(x, y):
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
                if self.dialog is not None and not (key.startswith("option") or key == "cancel"):
                    return False
                b.run()
                self._after_input()
                return True
        return False

    def _after_input(self) -> None:
        self._refresh_dialogs()
        self._sync_model()
        self._hud_key = None

    def on_panel(self, x: float, y: float) -> bool:
        """Whether a screen point is on a HUD panel or dialog (not the map)."""
        self.refresh_hud()
        if self.dialog is not None:
            return True
        if self.button_at(x, y) is not None:
            return True
        return any(left <= x <= right and bottom <= y <= top for left, bottom, right, top in self.hud_rects())

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> bool | None:
        """The tooltip names a force under the cursor (its leaders and units), else the place;
        nothing over a panel."""
        super().on_mouse_motion(x, y, dx, dy)
        if self.hover is not None and self.on_panel(x, y):
            self.hover = None
        elif self.hover is not None:
            fid = self.force_at(x, y)
            if fid is not None:
                self.hover = FORCE_TIP + fid
        return None

    def describe(self, place: str, with_links: bool = False) -> str:
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
            if b is not None and b.enabled and b.run is not None and button == arcade.MOUSE_BUTTON_LEFT:
                b.run()
                self._after_input()
            return None
        super().on_mouse_release(x, y, button, modifiers)
        self._after_input()
        return None

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        ctrl = modifiers & (arcade.key.MOD_CTRL | arcade.key.MOD_COMMAND)
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
            self.show_chronicle = not self.show_chronicle
        elif symbol == arcade.key.R and not ctrl and self.dialog is None:
            self.open_reports()
        elif ctrl and symbol == arcade.key.Z:
            self.undo()
        elif ctrl and symbol == arcade.key.S:
            self.save()
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
    return CampaignGame(session, humans, save_path=save or load)


def launch_game(args: argparse.Namespace) -> int:
    """``bellum campaign`` without ``--headless``: the campaign window."""
    game = game_from_args(args)
    window = arcade.Window(1280, 800, "Bellum Civile — the campaign", resizable=True, antialiasing=False)
    window.show_view(CampaignView(game))
    arcade.run()
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
