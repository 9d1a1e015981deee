"""The tactical battle window: the GBoH map, counters, and every choice of an activation.

The view only reads the model and sends actions: every highlight comes from the one
legal-action generator (``Session.legal_actions``), moves follow the movement search's
least-cost paths (``tactical.movement.reachable``, kept only where the generator offers
the same path), fire and shock show the exact odds of ``tactical.odds`` before the
player confirms, and every action goes through ``Session.play`` (undo through
``Session.undo``, which refuses once a die was rolled).

Drawing is batched: the terrain is one shape list built once, highlights one shape list
rebuilt when the selection changes, counters, leaders and facing notches one sprite
list (textures cached per counter face), world labels and the HUD one pyglet batch
each.  The world is drawn through a ``Camera2D`` (zoom and pan); the HUD through a
second camera that stays put.

Mouse: left-click a unit to select it, a highlighted hex to move there (near one of its
corners: to end facing that vertex), a corner of the unit's own hex to turn, a red
enemy to open the odds panel; right-drag pans, the wheel zooms.  Keys: Q / E turn,
Enter confirm, Tab another attack option, Esc cancel, U undo, P pass, 1–9 the listed
choices, F5 save, F9 load, arrows pan, + / - zoom, Home recentre.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import arcade
from arcade import shape_list
from pyglet import gl
from pyglet.graphics import Batch

from bellum.errors import BellumError, RuleError
from bellum.odds import exact_distribution
from bellum.paths import SAVES
from bellum.session import Session
from tactical import odds as tac_odds
from tactical.actions import Action, Activate, Continuity, Fire, Move, Pass, Rally, Replace, Shock, Start
from tactical.combat import plan_shock
from tactical.engine import apply
from tactical.hexes import FACING_CLOCK
from tactical.movement import mp_text, reachable
from tactical.state import Leader, State, Unit
from tactical.view import palette as P
from tactical.view.geometry import HexLayout
from tactical.view.play import load_session, session_state, try_play
from tactical.view.sprites import counter_texture, facing_texture, leader_texture

HEX = 36.0
PANEL_W = 340
TOP_H = 34
LOG_LINES = 14
MAX_CHOICES = 9
ZOOMS = (0.2, 0.25, 0.3, 0.35, 0.5, 0.65, 0.8, 1.0, 1.25, 1.5, 2.0)


@dataclass
class Choice:
    """A button in the HUD's choice list: a non-map action (start, designate, pass, rally)."""

    label: str
    action: Action
    top: float = 0.0


@dataclass
class Pending:
    """A fire or shock the player is looking at before confirming: the variants and their odds."""

    target: str
    variants: list[Action]
    index: int = 0
    lines: list[str] | None = None
    odds: dict[Any, Fraction] | None = None

    @property
    def action(self) -> Action:
        return self.variants[self.index]


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def describe(action: Action) -> str:
    """The choice list's wording for a non-map action."""
    if isinstance(action, Start):
        return "Begin the battle (who goes first)"
    if isinstance(action, Activate | Continuity):
        who = action.leader or "group " + ",".join(action.group or ())
        return f"{'Activate' if isinstance(action, Activate) else 'Continuity:'} {who}"
    if isinstance(action, Pass):
        return "Pass (end / decline)"
    if isinstance(action, Rally):
        return f"Rally {action.unit}"
    if isinstance(action, Replace):
        return f"Replace {action.leader} at {action.hex}"
    return action.notation()


class BattleView(arcade.View):
    """One tactical battle driven through a ``Session``.  ``ai_sides``: the sides the AI plays."""

    def __init__(
        self,
        session: Session[Any, Any],
        *,
        title: str = "Tactical battle",
        side_names: dict[str, str] | None = None,
        ai_sides: frozenset[str] = frozenset(),
        menu: arcade.View | None = None,
        save_path: Path | None = None,
    ) -> None:
        super().__init__()
        self.session = session
        self.title = title
        self.side_names = side_names or {"A": "Side A", "B": "Side B"}
        self.ai_sides = ai_sides
        self.menu = menu
        self.save_path = save_path or SAVES / f"tactical-{Path(session.scenario).stem}.toml"
        # -- the model the HUD shows (tests read these) --
        self.selected: str | None = None
        #: reachable (hex, facing) nodes of the selected mover -> (cost in half MP, path)
        self.nodes: dict[int, tuple[int, tuple[str, ...]]] = {}
        #: hex -> least cost (half MP) over the reachable nodes in it
        self.reach: dict[int, int] = {}
        #: enemy id -> the generator's fire / shock actions of the selected unit against it
        self.targets: dict[str, list[Action]] = {}
        self.pending: Pending | None = None
        self.choices: list[Choice] = []
        self.message = ""
        self._version = 0
        self._ai: Any = None
        self.ai_delay = 0.35
        self._ai_clock = 0.0
        self._legal_key: int | None = None
        self._legal: list[Action] = []
        # -- drawing --
        self.layout = HexLayout(self.state.field.grid, HEX)
        self.world_camera = arcade.Camera2D()
        self.hud_camera = arcade.Camera2D()
        self.terrain = shape_list.ShapeElementList()  # type: ignore[var-annotated]
        self.highlights = shape_list.ShapeElementList()  # type: ignore[var-annotated]
        self.hud_shapes = shape_list.ShapeElementList()  # type: ignore[var-annotated]
        self.sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.world_batch = Batch()
        self.label_batch = Batch()
        self.hud_batch = Batch()
        self._world_texts: list[arcade.Text] = []
        self._build_terrain()
        self._build_hud_texts()
        self._hud_size = (0, 0)
        self._cache: Any = None
        self._cache_key: Any = None
        self.refresh()

    # -- the model --------------------------------------------------------------------------
    @property
    def state(self) -> State:
        return session_state(self.session)

    def legal(self) -> list[Action]:
        """The generator's actions for the current state (computed once per state)."""
        key = id(self.session.state)
        if key != self._legal_key:
            self._legal = list(self.session.legal_actions())
            self._legal_key = key
        return self._legal

    def refresh(self) -> None:
        """Re-sync everything from the model after an action, an undo or a load."""
        self._select(None)
        self._build_choices()
        self._sync_sprites()
        self._update_hud()

    def _select(self, mover_id: str | None) -> None:
        self.selected = mover_id
        self.nodes, self.reach, self.targets = {}, {}, {}
        self.pending = None
        state = self.state
        if mover_id is not None:
            mover: Unit | Leader = state.units.get(mover_id) or state.leaders[mover_id]
            offered = {a.path for a in self.legal() if isinstance(a, Move) and a.unit == mover_id and a.carry is None}
            if offered:
                r = reachable(state, mover)
                ends = r.ends()
                for node, path in r.notations(ends).items():
                    if path in offered:
                        cost = r.dist[node]
                        self.nodes[node] = (cost, path)
                        h = node // 6
                        if cost < self.reach.get(h, 1 << 30):
                            self.reach[h] = cost
            for a in self.legal():
                if isinstance(a, Shock) and mover_id in a.attackers:
                    self.targets.setdefault(a.defender, []).append(a)
                elif isinstance(a, Fire) and a.unit == mover_id:
                    self.targets.setdefault(a.target, []).append(a)
        self._build_highlights()
        self._update_hud()

    def select(self, mover_id: str | None) -> None:
        """Select a unit or leader of the side to act (or clear the selection)."""
        if mover_id is not None and mover_id not in self.state.units and mover_id not in self.state.leaders:
            raise KeyError(mover_id)
        self.message = ""
        self._select(mover_id)

    def _build_choices(self) -> None:
        self.choices = []
        state = self.state
        for a in self.legal():
            if isinstance(a, Move | Shock | Fire):
                continue
            label = describe(a)
            if isinstance(a, Continuity):
                label += f"  ({_pct(continuity_odds(state, a))})"
            self.choices.append(Choice(label, a))
        self.choices = self.choices[:MAX_CHOICES]

    # -- actions ------------------------------------------------------------------------------
    def play(self, action: Action) -> bool:
        """Play ``action`` through the session; the rule's sentence on refusal."""
        _events, why = try_play(self.session, action)
        if why:
            self.message = why
            self._update_hud()
            return False
        self.message = ""
        self.refresh()
        return True

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
        return self.play(Move(self.selected, self.nodes[node][1]))

    def turn(self, step: int) -> bool:
        """Turn the selected unit ``step`` vertices clockwise in place (if offered)."""
        unit = self.state.units.get(self.selected or "")
        if unit is None:
            return False
        return self.move_to(unit.hex, (unit.facing + step) % 6)

    def aim(self, target: str) -> None:
        """Open the odds panel for the selected unit's fire or shock against ``target``."""
        variants = self.targets.get(target)
        if not variants:
            self.message = f"{self.selected} cannot fire at or shock {target} now."
            self._update_hud()
            return
        self.pending = Pending(target, variants)
        self._compute_odds()
        self._update_hud()

    def cycle(self) -> None:
        if self.pending is not None and len(self.pending.variants) > 1:
            self.pending.index = (self.pending.index + 1) % len(self.pending.variants)
            self._compute_odds()
            self._update_hud()

    def confirm(self) -> bool:
        if self.pending is None:
            return False
        return self.play(self.pending.action)

    def undo(self) -> bool:
        if not self.session.can_undo():
            self.message = "Nothing to take back: dice were rolled, or the activation has ended."
            self._update_hud()
            return False
        self.session.undo()
        self.message = "Taken back."
        self.refresh()
        self.message = "Taken back."
        self._update_hud()
        return True

    def save(self) -> Path:
        path = self.session.save(self.save_path)
        self.message = f"Saved to {path.name}."
        self._update_hud()
        return path

    def load(self, path: Path | None = None) -> bool:
        try:
            self.session = load_session(path or self.save_path)
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
        state = self.state
        action = pend.action
        lines: list[str] = []
        try:
            if isinstance(action, Shock):
                full = tac_odds.shock_odds(state, action)
                marginal = tac_odds.result_marginal(full)
                plan = plan_shock(state, action)
                atk = ", ".join(action.attackers)
                lines.append(f"Shock {atk} -> {action.defender}" + ("  (pursue)" if action.pursue else ""))
                lines.append(f"DRM total {plan.total:+d}")
                for result, p in sorted(marginal.items(), key=lambda kv: -kv[1]):
                    lines.append(f"  {result or 'no result'}: {_pct(p)}")
                pend.odds = marginal
                lines.extend(_fate_lines(state, full))
            elif isinstance(action, Fire):
                full = tac_odds.fire_odds(state, action)
                lines.append(
                    f"Fire {action.unit} -> {action.target}" + ("  (hit and run)" if action.hit_and_run else "")
                )
                hits: dict[str, Fraction] = {}
                before = state.units[action.target].missile_hits
                for outcome, p in full.items():
                    after = dict(outcome[2]).get(action.target, before)
                    label = "miss" if after == before else f"{after - before} hit{'s' if after - before > 1 else ''}"
                    hits[label] = hits.get(label, Fraction(0)) + p
                for label, p in sorted(hits.items(), key=lambda kv: -kv[1]):
                    lines.append(f"  {label}: {_pct(p)}")
                pend.odds = hits
                lines.extend(_fate_lines(state, full))
        except RuleError as why:
            lines = [str(why)]
        if len(pend.variants) > 1:
            lines.append(f"Tab: option {pend.index + 1} of {len(pend.variants)}")
        lines.append("Enter: confirm    Esc: cancel")
        pend.lines = lines

    # -- drawing: built once ----------------------------------------------------------------
    def _build_terrain(self) -> None:
        from tactical.tables import TERRAINS

        field, lay = self.state.field, self.layout
        sl = self.terrain
        w, h = lay.extent
        sl.append(shape_list.create_rectangle_filled(w / 2, h / 2, w + 60, h + 60, (60, 52, 40, 255)))
        grid_pts: list[tuple[float, float]] = []
        for i in range(field.grid.size):
            name = TERRAINS[field.terrain[i]]
            col = P.TERRAIN_COLORS.get(name, P.TERRAIN_COLORS["clear"])
            lv = field.level[i]
            if lv:
                t = min(0.28 * abs(lv), 0.75)
                tint = P.LEVEL_TINT if lv > 0 else (90, 110, 120)
                col = tuple(round(c * (1 - t) + k * t) for c, k in zip(col, tint, strict=True))  # type: ignore[assignment]
            corners = lay.corners(i)
            sl.append(shape_list.create_polygon(corners, (*col[:3], 255)))
            if name in ("woods", "marsh", "rough", "town"):
                self._terrain_marks(i, name)
            for k in range(3):
                grid_pts.extend((corners[k], corners[k + 1]))
            grid_pts.extend((corners[3], corners[4], corners[4], corners[5], corners[5], corners[0]))
        sl.append(shape_list.create_lines(grid_pts, P.GRID_LINE))
        contour: list[tuple[float, float]] = []
        for i in range(field.grid.size):
            for d in range(6):
                j = field.grid.nbr[i * 6 + d]
                if j > i and field.level[i] != field.level[j]:
                    contour.extend(lay.side_ends(i, d))
        for k in range(0, len(contour), 2):
            (x1, y1), (x2, y2) = contour[k], contour[k + 1]
            sl.append(shape_list.create_line(x1, y1, x2, y2, P.CONTOUR, 3))
        for (a, b), feat in field.hexsides.items():
            d = field.grid.direction(a, b)
            p, q = lay.side_ends(a, d)
            colour = P.BANK if feat == "steep_bank" else P.RIVER
            width = {"stream": 3, "minor_river": 5, "major_river": 8}.get(feat, 4)
            sl.append(shape_list.create_line(p[0], p[1], q[0], q[1], colour, width))
        for roads, colour, width in ((field.roads, P.ROAD, 4), (field.roman_roads, P.ROMAN_ROAD, 5)):
            for a, b in roads:
                (x1, y1), (x2, y2) = lay.centre(a), lay.centre(b)
                sl.append(shape_list.create_line(x1, y1, x2, y2, colour, width))
        for a, b in field.bridges:
            (x1, y1), (x2, y2) = lay.centre(a), lay.centre(b)
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            sl.append(shape_list.create_rectangle_filled(mx, my, 14, 10, (150, 120, 80, 255)))
        self._coord_texts()

    def _terrain_marks(self, i: int, name: str) -> None:
        x, y = self.layout.centre(i)
        s = self.layout.size
        if name == "woods":
            for dx, dy in ((-0.35, -0.2), (0.3, -0.15), (0.0, 0.3)):
                self.terrain.append(
                    shape_list.create_ellipse_filled(
                        x + dx * s, y + dy * s, s * 0.22, s * 0.22, (58, 90, 46, 255), num_segments=12
                    )
                )
        elif name == "marsh":
            for dy in (-0.25, 0.0, 0.25):
                self.terrain.append(
                    shape_list.create_line(x - s * 0.4, y + dy * s, x + s * 0.4, y + dy * s, (80, 120, 150, 255), 2)
                )
        elif name == "rough":
            for dx, dy in ((-0.3, -0.25), (0.25, 0.1), (-0.1, 0.3)):
                self.terrain.append(
                    shape_list.create_ellipse_filled(x + dx * s, y + dy * s, 5, 3, (110, 92, 66, 255), num_segments=8)
                )
        elif name == "town":
            self.terrain.append(shape_list.create_rectangle_filled(x, y, s * 0.7, s * 0.5, (140, 110, 96, 255)))

    def _coord_texts(self) -> None:
        """Hex ids in the top corner of every hex, drawn in the world batch."""
        grid, lay = self.state.field.grid, self.layout
        for i in range(grid.size):
            x, y = lay.centre(i)
            arcade.Text(
                grid.hex_id(i), x, y + lay.size * 0.62, (60, 56, 40), 6, anchor_x="center", batch=self.world_batch
            )

    # -- drawing: re-synced from the model ----------------------------------------------------
    def _sync_sprites(self) -> None:
        state, lay = self.state, self.layout
        self.sprites.clear()
        scale = lay.size * 1.12 / 64
        stacked: dict[int, int] = {}
        for u in sorted(state.units.values(), key=lambda u: u.id):
            if not u.on_map:
                continue
            tex = counter_texture(u.type, u.side, u.status, u.size, u.tq, u.ma, u.double)
            s = arcade.Sprite(tex, scale=scale)
            if u.double:
                (x1, y1), (x2, y2) = lay.centre(u.hex), lay.centre(u.hex2)
                s.position = ((x1 + x2) / 2, (y1 + y2) / 2)
                s.angle = -math.degrees(math.atan2(y2 - y1, x2 - x1))
            else:
                k = stacked.get(u.hex, 0)
                stacked[u.hex] = k + 1
                x, y = lay.centre(u.hex)
                s.position = (x + 5 * k, y - 5 * k)
            self.sprites.append(s)
            for h in u.hexes():
                notch = arcade.Sprite(facing_texture(), scale=0.9)
                notch.position = lay.vertex(h, u.facing, 0.78)
                notch.angle = -(90 - 60 * u.facing)
                self.sprites.append(notch)
        activated = state.seq.leader
        for ld in sorted(state.leaders.values(), key=lambda ld: ld.id):
            if not ld.on_map:
                continue
            tex = leader_texture(ld.id, ld.side, ld.initiative, ld.range, ld.overall, ld.id == activated)
            s = arcade.Sprite(tex, scale=0.62)
            x, y = lay.centre(ld.hex)
            s.position = (x + lay.size * 0.5, y + lay.size * 0.38)
            self.sprites.append(s)

    def _build_highlights(self) -> None:
        self._version += 1
        sl = shape_list.ShapeElementList()  # type: ignore[var-annotated]
        lay, state = self.layout, self.state
        self.label_batch = Batch()  # the old labels go with the old batch
        self._world_texts = []
        if self.selected is not None:
            mover = state.units.get(self.selected) or state.leaders.get(self.selected)
            if isinstance(mover, Leader) and mover.on_map:
                for i in range(state.field.grid.size):
                    if state.field.grid.distance(mover.hex, i) <= mover.range:
                        sl.append(shape_list.create_polygon(lay.corners(i, 0.96), P.COMMAND_HL))
            for h, cost in self.reach.items():
                sl.append(shape_list.create_polygon(lay.corners(h, 0.9), P.MOVE_HL))
                x, y = lay.centre(h)
                mp = mp_text(cost)
                self._world_texts.append(
                    arcade.Text(
                        f"{mp}",
                        x - lay.size * 0.5,
                        y - lay.size * 0.45,
                        (30, 20, 10),
                        9,
                        bold=True,
                        batch=self.label_batch,
                    )
                )
            for tid in self.targets:
                enemy = state.units[tid]
                for h in enemy.hexes():
                    sl.append(shape_list.create_polygon(lay.corners(h, 0.92), P.TARGET_HL))
            if mover is not None and mover.on_map:
                hexes = mover.hexes() if isinstance(mover, Unit) else (mover.hex,)
                for h in hexes:
                    sl.append(shape_list.create_line_loop(lay.corners(h, 0.97), P.SELECT_HL, 4))
        if self.pending is not None:
            for h in state.units[self.pending.target].hexes():
                sl.append(shape_list.create_line_loop(lay.corners(h, 0.97), (255, 60, 40, 255), 5))
        self.highlights = sl

    # -- HUD --------------------------------------------------------------------------------
    def _build_hud_texts(self) -> None:
        b = self.hud_batch
        self.t_top = arcade.Text("", 0, 0, P.INK, 13, bold=True, batch=b)
        self.t_points = arcade.Text("", 0, 0, P.DIM, 12, anchor_x="right", batch=b)
        self.t_info = arcade.Text("", 0, 0, P.INK, 11, multiline=True, width=PANEL_W - 24, batch=b)
        self.t_odds_head = arcade.Text("", 0, 0, P.GOLD, 12, bold=True, batch=b)
        self.t_odds = arcade.Text("", 0, 0, P.INK, 11, multiline=True, width=PANEL_W - 24, batch=b)
        self.t_choices = [arcade.Text("", 0, 0, P.INK, 11, batch=b) for _ in range(MAX_CHOICES)]
        self.t_dice = arcade.Text("", 0, 0, P.GOLD, 11, batch=b)
        self.t_log_head = arcade.Text("Combat log", 0, 0, P.GOLD, 12, bold=True, batch=b)
        self.t_log = arcade.Text("", 0, 0, P.DIM, 10, multiline=True, width=PANEL_W - 24, batch=b)
        self.t_msg = arcade.Text("", 0, 0, P.BAD, 12, batch=b)
        self.t_keys = arcade.Text(
            "Q/E turn · Enter confirm · Tab option · U undo · P pass · F5 save · F9 load · wheel zoom · right-drag pan",
            0,
            0,
            P.DIM,
            10,
            batch=b,
        )

    def _layout_hud(self) -> None:
        w, h = self.window.width, self.window.height
        if (w, h) == self._hud_size:
            return
        self._hud_size = (w, h)
        self.hud_camera.match_window()
        self.world_camera.match_window()
        px = w - PANEL_W
        sl = shape_list.ShapeElementList()  # type: ignore[var-annotated]
        panel = P.PANEL
        sl.append(shape_list.create_rectangle_filled(w / 2, h - TOP_H / 2, w, TOP_H, panel))
        sl.append(shape_list.create_rectangle_filled(px + PANEL_W / 2, (h - TOP_H) / 2, PANEL_W, h - TOP_H, panel))
        sl.append(shape_list.create_line(px, 0, px, h - TOP_H, P.PANEL_EDGE, 2))
        sl.append(shape_list.create_line(0, h - TOP_H, w, h - TOP_H, P.PANEL_EDGE, 2))
        sl.append(shape_list.create_rectangle_filled((w - PANEL_W) / 2, 11, w - PANEL_W, 22, panel))
        self.hud_shapes = sl
        x = px + 12
        self.t_top.position = (12, h - 23)
        self.t_points.position = (w - 12, h - 23)
        self.t_info.position = (x, h - TOP_H - 18)
        self.t_odds_head.position = (x, h - TOP_H - 150)
        self.t_odds.position = (x, h - TOP_H - 170)
        self.choice_top = h - TOP_H - 150
        for k, t in enumerate(self.t_choices):
            t.position = (x + 8, self.choice_top - 20 - 22 * k)
        self.t_dice.position = (x, 262)
        self.t_log_head.position = (x, 240)
        self.t_log.position = (x, 222)
        self.t_msg.position = (12, h - TOP_H - 22)
        self.t_keys.position = (10, 6)
        self._centre_world()

    def _centre_world(self) -> None:
        """Fit the whole map in the area left of the panel and centre it there."""
        mw, mh = self.layout.extent
        aw, ah = self.window.width - PANEL_W - 16, self.window.height - TOP_H - 22 - 16
        z = max(ZOOMS[0], min(1.0, aw / mw, ah / mh))
        self.world_camera.zoom = z
        self.world_camera.position = (mw / 2 + PANEL_W / 2 / z, mh / 2 + (TOP_H - 22) / 2 / z)

    def _update_hud(self) -> None:
        self._version += 1
        if not hasattr(self, "t_top"):
            return
        state, seq = self.state, self.state.seq
        side = self.side_names.get(seq.side, seq.side)
        who = seq.leader or ("group " + ",".join(seq.group) if seq.group else "")
        phase = {"start": "before the battle", "over": "the battle is over"}.get(seq.phase, seq.phase)
        ai = "  (AI)" if seq.side in self.ai_sides and seq.phase != "over" else ""
        self.t_top.text = f"{self.title}   ·   {side}{ai}: {phase}" + (f"  ·  {who}" if who else "")
        if state.winner:
            self.t_top.text = f"{self.title}   ·   {self.side_names.get(state.winner, state.winner)} wins"
        rp = state.rout_points
        wl = state.withdrawal
        self.t_points.text = (
            f"Rout points  {self.side_names.get('A', 'A')} {rp['A']}/{wl.get('A', '-')}"
            f"   {self.side_names.get('B', 'B')} {rp['B']}/{wl.get('B', '-')}"
        )
        self.t_info.text = self._info_text()
        if self.pending is not None and self.pending.lines:
            self.t_odds_head.text = "Exact odds"
            self.t_odds.text = "\n".join(self.pending.lines)
            for t in self.t_choices:
                t.text = ""
        else:
            self.t_odds_head.text = "Choices" if self.choices else ""
            self.t_odds.text = ""
            for k, t in enumerate(self.t_choices):
                t.text = f"{k + 1}. {self.choices[k].label}" if k < len(self.choices) else ""
        rolls = self.session.dice.rolls[-3:]
        self.t_dice.text = "Dice: " + ("  ".join(f"{r.value} ({r.label})" for r in rolls) if rolls else "none yet")
        events = list(self.session.log)[-LOG_LINES:]
        self.t_log.text = "\n".join(e.text[:70] for e in events)
        self.t_msg.text = self.message

    def _info_text(self) -> str:
        state = self.state
        if self.selected is None:
            return "Select a unit or leader of the side to act."
        u = state.units.get(self.selected)
        if u is not None:
            hexes = "/".join(state.field.grid.hex_id(h) for h in u.hexes())
            extra = ", engaged" if u.engaged else ""
            hits = f", {u.missile_hits} missile hits" if u.missile_hits else ""
            return (
                f"{u.id}  {u.type} ({u.group or 'no group'}), side {u.side}\n"
                f"Size {u.size}  TQ {u.tq}  MA {u.ma}  at {hexes} facing {FACING_CLOCK[u.facing]}\n"
                f"{u.status}{extra}{hits}\n"
                f"{len(self.reach)} hexes reachable · {len(self.targets)} targets"
            )
        ld = state.leaders[self.selected]
        return (
            f"{ld.id} ({ld.kind}), side {ld.side}\nInitiative {ld.initiative}  range {ld.range}"
            f"{'  elite' if ld.elite else ''}{'  overall commander' if ld.overall else ''}\n"
            f"{len(self.reach)} hexes reachable"
        )

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
            with self._cache.activate():
                self._cache.clear(color=(*P.BG, 255))
                self.draw_layers()
            self._cache_key = key
        blit_to_screen(ctx, self._cache)

    def draw_layers(self) -> None:
        """Every layer, bottom to top, on the framebuffer bound now."""
        with self.world_camera.activate():
            self.terrain.draw()
            self.highlights.draw()
            self.sprites.draw()
            self.world_batch.draw()
            self.label_batch.draw()
        with self.hud_camera.activate():
            self.hud_shapes.draw()
            if self.pending is None and self.choices:
                x0 = self.window.width - PANEL_W + 8
                for k in range(len(self.choices)):
                    y = self.choice_top - 20 - 22 * k
                    arcade.draw_lrbt_rectangle_outline(x0, self.window.width - 8, y - 6, y + 15, (96, 80, 60), 1)
            self.hud_batch.draw()

    def on_update(self, delta_time: float) -> None:
        seq = self.state.seq
        if seq.phase == "over" or seq.side not in self.ai_sides or self.pending is not None:
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
        chooser = self._ai.choose
        return self.play(chooser(self.state))

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
        for k, c in enumerate(self.choices):
            cy = self.choice_top - 20 - 22 * k
            if cy - 6 <= y <= cy + 15:
                return c
        return None

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        if button != arcade.MOUSE_BUTTON_LEFT:
            return
        c = self.choice_at(x, y)
        if c is not None:
            self.play(c.action)
            return
        if x >= self.window.width - PANEL_W or y >= self.window.height - TOP_H:
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
                self.aim(enemy.id)
                return
            if h in self.reach or (facing is not None and any(n == h * 6 + facing for n in self.nodes)):
                if facing is not None and h * 6 + facing in self.nodes:
                    self.move_to(h, facing)
                    return
                if h in self.reach and h != self._mover_hex():
                    self.move_to(h)
                    return
        mine = [u.id for u in state.units_at(h) if u.side == state.seq.side]
        mine += [ld.id for ld in state.leaders_at(h) if ld.side == state.seq.side]
        if not mine:
            self.select(None)
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

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        if buttons & (arcade.MOUSE_BUTTON_RIGHT | arcade.MOUSE_BUTTON_MIDDLE):
            self.pan(-dx, -dy)

    def on_mouse_scroll(self, x: int, y: int, scroll_x: int, scroll_y: int) -> None:
        self.zoom(1 if scroll_y > 0 else -1)

    def pan(self, dx: float, dy: float) -> None:
        z = self.world_camera.zoom
        px, py = self.world_camera.position
        self.world_camera.position = (px + dx / z, py + dy / z)

    def zoom(self, step: int) -> None:
        z = self.world_camera.zoom
        k = min(range(len(ZOOMS)), key=lambda i: abs(ZOOMS[i] - z))
        self.world_camera.zoom = ZOOMS[max(0, min(len(ZOOMS) - 1, k + step))]

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        k = arcade.key
        if symbol == k.ESCAPE:
            if self.pending is not None or self.selected is not None:
                self.select(None)
            elif self.menu is not None:
                self.window.show_view(self.menu)
        elif symbol in (k.ENTER, k.RETURN):
            self.confirm()
        elif symbol == k.TAB:
            self.cycle()
        elif symbol == k.Q:
            self.turn(-1)
        elif symbol == k.E:
            self.turn(1)
        elif symbol == k.U:
            self.undo()
        elif symbol == k.P:
            if any(isinstance(a, Pass) for a in self.legal()):
                self.play(Pass())
        elif symbol == k.F5:
            self.save()
        elif symbol == k.F9:
            self.load()
        elif k.KEY_1 <= symbol <= k.KEY_9:
            i = symbol - k.KEY_1
            if i < len(self.choices) and self.pending is None:
                self.play(self.choices[i].action)
        elif symbol in (k.PLUS, k.EQUAL, k.NUM_ADD):
            self.zoom(1)
        elif symbol in (k.MINUS, k.NUM_SUBTRACT):
            self.zoom(-1)
        elif symbol == k.HOME:
            self._centre_world()
        elif symbol in (k.LEFT, k.RIGHT, k.UP, k.DOWN):
            step = 80
            self.pan(
                {k.LEFT: -step, k.RIGHT: step}.get(symbol, 0),
                {k.DOWN: -step, k.UP: step}.get(symbol, 0),
            )


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


def continuity_odds(state: State, action: Continuity) -> Fraction:
    """The exact chance that a Continuity designation succeeds (the side keeps the move), by
    running the real rule over every die face (``bellum.odds.exact_distribution``)."""
    side = state.seq.side

    def run(dice: Any) -> bool:
        after, _ = apply(state, action, dice)
        return after.seq.side == side and after.seq.phase == "move"

    try:
        return exact_distribution(run).get(True, Fraction(0))
    except RuleError:
        return Fraction(0)


def _fate_lines(state: State, full: dict[Any, Fraction]) -> list[str]:
    """Each unit's chance of ending disordered, routed or eliminated (from the full odds)."""
    fates: dict[tuple[str, str], Fraction] = {}
    for outcome, p in full.items():
        for uid, status, _engaged in outcome[1]:
            if status != state.units[uid].status:
                fates[(uid, status)] = fates.get((uid, status), Fraction(0)) + p
    return [f"  {uid} {status}: {_pct(p)}" for (uid, status), p in sorted(fates.items())]
