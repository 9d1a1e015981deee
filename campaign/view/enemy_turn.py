"""The other side's turn played back on the map (issue 15, "the enemy's turn shown").

When the decision comes back to a person after a side he does not play (the computer, or
the other player of a game by e-mail) has moved, the window shows that half-turn
(``campaign.playback``) step by step: each march or voyage an arrow along its path, each
battle, siege or capture a mark at its place, the steps before it fading behind; a card at
the bottom says the step in words, what changed in the whole half-turn, and carries the
step control — Back, Play (a step a second), Next, Close (keys B, P, N, X; V shows the
last enemy turn again).

The arrows are drawn over the world on every frame the card shows (a few dozen shapes);
with no card nothing is drawn.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import arcade
from arcade import shape_list
from pyglet.graphics import Batch

from campaign.playback import Playback, Step, enemy_playback
from campaign.view.palette import BG_TOP, GOLD, LABEL_INK, OWNER_INK, PARCHMENT, owner_kind

WIDTH = 310.0
BUTTON_W, BUTTON_H = 64.0, 22.0
STEP_SECONDS = 1.0
SEA_ARROW = (40, 80, 150)
RETREAT_ARROW = (110, 100, 92)
SANS = ("DejaVu Sans", "Arial", "sans-serif")
BUTTONS = ("back", "play", "next", "close")


class EnemyTurn:
    """The playback of a ``MapView`` (see the module docstring)."""

    def __init__(self, view: Any) -> None:
        #: the ``campaign.view.mapview.MapView`` it belongs to (typed loosely: mapview imports this module)
        self.view = view
        self.playback: Playback | None = None
        self.last: Playback | None = None
        self.index = 0
        self.playing = False
        self.shown = False
        self._clock = 0.0
        self._seen = -1  # the side_turn index of the last half-turn shown
        self._log_len = -1
        self._shapes: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        self._shapes_key: tuple[Any, ...] | None = None
        self._hud_key: tuple[Any, ...] | None = None
        self.batch = Batch()
        self.texts: list[arcade.Text] = []
        self.hud_shapes: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        self.buttons: dict[str, tuple[float, float, float, float]] = {}
        self.rect = (0.0, 0.0, 0.0, 0.0)

    # ------------------------------------------------------------------ following the game
    def follow(self, model: Any) -> None:
        """Start the playback when a person is to act after another side's half-turn."""
        session = getattr(model, "session", None)
        humans = getattr(model, "humans", None)
        if session is None or humans is None:
            return
        log = session.log
        if len(log) == self._log_len:
            return
        self._log_len = len(log)
        if not model.human_to_act():
            return
        others = [s for s in ("caesarian", "senatorial") if s not in humans]
        found = enemy_playback(list(log), others) if others else None
        if found is None:
            return
        start, pb = found
        self.last = pb
        if start > self._seen:
            self._seen = start
            self.show(pb)

    def show(self, pb: Playback | None = None) -> None:
        pb = pb or self.last
        if pb is None:
            return
        self.playback, self.index, self.playing, self.shown, self._clock = pb, 0, False, True, 0.0
        self._changed()

    def close(self) -> None:
        self.shown = False
        self.playing = False
        self._changed()

    def step(self, by: int) -> None:
        if self.playback is None or not self.playback.steps:
            return
        self.index = max(0, min(len(self.playback.steps) - 1, self.index + by))
        self._follow_step()
        self._changed()

    def toggle_play(self) -> None:
        if self.playback is None:
            return
        if not self.playing and self.index >= len(self.playback.steps) - 1:
            self.index = 0
        self.playing = not self.playing
        self._clock = 0.0
        self._changed()

    def update(self, dt: float) -> None:
        if not (self.shown and self.playing and self.playback):
            return
        self._clock += dt
        if self._clock >= STEP_SECONDS:
            self._clock = 0.0
            if self.index >= len(self.playback.steps) - 1:
                self.playing = False
                self._changed()
            else:
                self.step(1)

    def current(self) -> Step | None:
        if not self.shown or self.playback is None or not self.playback.steps:
            return None
        return self.playback.steps[self.index]

    def _follow_step(self) -> None:
        """Bring the step's place into view if it is off the screen."""
        step = self.current()
        v = self.view
        if step is None or step.place is None or step.place not in v.geo.positions:
            return
        sx, sy = v.world_to_screen(*v.geo.pos(step.place))
        if not (60 <= sx <= v.window.width - 60 and 180 <= sy <= v.window.height - 60):
            v.camera.position = v.geo.pos(step.place)
            v._clamp()

    def _changed(self) -> None:
        self._hud_key = None
        self._shapes_key = None
        self.view._cache_valid = False

    def key(self) -> tuple[Any, ...]:
        """What the card shows and where (a change redraws the still frame)."""
        return (self.shown, id(self.playback), self.index, self.playing, self.origin() if self.shown else None)

    def origin(self) -> tuple[float, float]:
        """The card's bottom left: right of the minimap (or the legend), above the window's
        message when the view has one at the bottom (``message_rect``, the playing window's)."""
        v = self.view
        left = 10.0
        if v.minimap.shown:
            left = v.minimap.rect()[2] + 12
        elif v.legend_visible():
            left = v.legend_rect()[2] + 10
        message = getattr(v, "message_rect", None)
        bottom = 10.0 if not message else float(message[3]) + 6
        return left, bottom

    # ------------------------------------------------------------------ input
    def press(self, x: float, y: float) -> bool:
        """A click on the card: its buttons act; True when the click was on the card."""
        if not self.shown:
            return False
        for name, (l, b, r, t) in self.buttons.items():
            if l <= x <= r and b <= y <= t:
                {
                    "back": lambda: self.step(-1),
                    "next": lambda: self.step(1),
                    "play": self.toggle_play,
                    "close": self.close,
                }[name]()
                return True
        l, b, r, t = self.rect
        return l <= x <= r and b <= y <= t

    def key_press(self, symbol: int) -> bool:
        if symbol == arcade.key.V and self.last is not None:
            self.show()
            return True
        if not self.shown:
            return False
        acts = {arcade.key.N: lambda: self.step(1), arcade.key.B: lambda: self.step(-1)}
        acts |= {arcade.key.P: self.toggle_play, arcade.key.X: self.close}
        if symbol in acts:
            acts[symbol]()
            return True
        return False

    # ------------------------------------------------------------------ drawing
    def draw_world(self) -> None:
        """The arrows and marks of the steps up to the current one (world camera)."""
        if not self.shown or self.playback is None or not self.playback.steps:
            return
        z = float(self.view.camera.zoom)
        key = (id(self.playback), self.index, z)
        if key != self._shapes_key:
            self._shapes_key = key
            self._shapes = self._build_shapes(z)
        self._shapes.draw()

    def _color(self, step: Step) -> tuple[int, int, int]:
        if step.kind == "sail":
            return SEA_ARROW
        if step.kind == "retreat":
            return RETREAT_ARROW
        side = step.side or (self.playback.side if self.playback else "")
        return OWNER_INK[owner_kind(self.view.world, side)]

    def _build_shapes(self, z: float) -> shape_list.ShapeElementList[Any]:
        assert self.playback is not None
        out: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        geo = self.view.geo
        for k, step in enumerate(self.playback.steps[: self.index + 1]):
            age = self.index - k
            alpha = 255 if age == 0 else max(50, 170 - 30 * age)
            width = (5.0 if age == 0 else 3.0) / z
            color = (*self._color(step), alpha)
            pts = [geo.pos(p) for p in step.path if p in geo.positions]
            for p, q in itertools.pairwise(pts):
                if age == 0:
                    out.append(shape_list.create_line(p[0], p[1], q[0], q[1], (255, 246, 210, 220), width + 3 / z))
                out.append(shape_list.create_line(p[0], p[1], q[0], q[1], color, width))
            if len(pts) >= 2:
                out.append(_arrow_head(pts[-2], pts[-1], 14 / z if age == 0 else 9 / z, color))
            elif step.place is not None and step.place in geo.positions:
                x, y = geo.pos(step.place)
                r = (15 if age == 0 else 10) / z
                out.append(shape_list.create_ellipse_outline(x, y, r, r, color, width))
                if step.kind in ("battle", "storm", "surrender"):
                    out.append(shape_list.create_line(x - r, y - r, x + r, y + r, color, width))
                    out.append(shape_list.create_line(x - r, y + r, x + r, y - r, color, width))
        return out

    def draw_hud(self) -> None:
        """The card with the step in words, what changed and the step control (HUD camera)."""
        if not self.shown or self.playback is None:
            return
        if self._hud_key != self.key():
            self._hud_key = self.key()
            self._build_hud()
        self.hud_shapes.draw()
        self.batch.draw()

    def _text(self, text: str, x: float, y: float, size: float, **kw: Any) -> arcade.Text:
        t = arcade.Text(text, x, y, kw.pop("color", (*LABEL_INK, 255)), size, font_name=SANS, batch=self.batch, **kw)
        self.texts.append(t)
        return t

    def _build_hud(self) -> None:
        assert self.playback is not None
        pb = self.playback
        left, bottom = self.origin()
        self.batch, self.texts = Batch(), []
        w = int(WIDTH - 20)
        x = left + 10
        step = self.current()
        n = len(pb.steps)
        where = f"Step {self.index + 1} of {n}: {step.text}" if step else "Nothing to play back."
        lines = [
            self._text(pb.title(), x, 0, 10.5, bold=True),
            self._text(where, x, 0, 9, multiline=True, width=w),
            self._text("What changed: " + " ".join(pb.summary), x, 0, 8.5, multiline=True, width=w, italic=True),
            self._text("Keys: B back · P play · N next · X close · V again", x, 0, 8, color=(96, 80, 66, 255)),
        ]
        height = 10 + sum(t.content_height + 4 for t in lines) + BUTTON_H + 14
        top = bottom + height
        y = top - 8
        for t in lines:
            t.anchor_y = "top"
            t.position = (x, y)
            y -= t.content_height + 4
        self.rect = (left, bottom, left + WIDTH, top)
        sl = shape_list
        shapes: shape_list.ShapeElementList[Any] = sl.ShapeElementList()
        shapes.append(
            sl.create_rectangle_filled(left + WIDTH / 2, bottom + height / 2, WIDTH, height, (*PARCHMENT, 255))
        )
        shapes.append(
            sl.create_rectangle_outline(left + WIDTH / 2, bottom + height / 2, WIDTH, height, (*BG_TOP, 255), 2)
        )
        self.buttons = {}
        words = {"back": "◀ Back", "play": "Pause" if self.playing else "Play", "next": "Next ▶", "close": "Close"}
        for i, name in enumerate(BUTTONS):
            bx = x + i * (BUTTON_W + 10)
            by = bottom + 8
            self.buttons[name] = (bx, by, bx + BUTTON_W, by + BUTTON_H)
            fill = (92, 60, 48, 255) if name != "play" or not self.playing else (*GOLD, 255)
            shapes.append(sl.create_rectangle_filled(bx + BUTTON_W / 2, by + BUTTON_H / 2, BUTTON_W, BUTTON_H, fill))
            self._text(
                words[name],
                bx + BUTTON_W / 2,
                by + BUTTON_H / 2,
                9,
                color=(*PARCHMENT, 255),
                anchor_x="center",
                anchor_y="center",
            )
        self.hud_shapes = shapes


def _arrow_head(a: tuple[float, float], b: tuple[float, float], size: float, color: Any) -> Any:
    """A filled triangle pointing from ``a`` to ``b``, its tip at ``b``."""
    length = math.dist(a, b) or 1.0
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    bx, by = b[0] - ux * size, b[1] - uy * size
    nx, ny = -uy * size * 0.55, ux * size * 0.55
    return shape_list.create_polygon([(b[0], b[1]), (bx + nx, by + ny), (bx - nx, by - ny)], color)
