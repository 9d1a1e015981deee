"""The campaign's replay on its map (``bellum replay FILE`` for a campaign save or turn file).

The map shows the war as it stood after the current step — owners and forces, drawn by
``MapView`` from a ``CampaignGame`` that holds the frame's state (no session, nobody to
play) — and a panel on the left tells the step: what was done, what came of it, the dice
rolled, with the buttons.  The keys are the replay's (``bellum.view.replay.ReplayControls``:
→ ← action, ↑ ↓ turn, a number and Enter to jump, B a battle, Esc back); the mouse pans and
zooms the map, + − zoom, F fits it.  A step that is a move of a battle being fought shows
the map as the battle began (the move is told in the panel).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any

import arcade

from bellum.replay import Replay
from bellum.view.replay import BUTTON_H, Button, ReplayControls
from campaign.state import CampaignState
from campaign.view.game import CampaignGame
from campaign.view.mapview import SANS, TOP_BAR, MapView
from campaign.view.palette import BG_TOP, GOLD, INK, PARCHMENT

PANEL_W = 380
PANEL_BOTTOM = 180  # above the legend

DIM = (110, 90, 70)
WARN = (150, 40, 30)


@dataclass
class _Still:
    """What ``CampaignGame`` needs of a session to show a state: the state itself."""

    state: CampaignState
    scenario: str
    log: tuple[()] = ()


def campaign_state(replay: Replay, index: int) -> CampaignState:
    """The campaign as it stood at frame ``index`` (the last campaign state at or before it)."""
    for f in reversed(replay.frames[: index + 1]):
        if isinstance(f.state, CampaignState):
            return f.state
    raise ValueError("the replay holds no campaign state")


class ReplayGame(CampaignGame):
    """The map's model: the frame's state, and the replay's step for the top bar."""

    def __init__(self, replay: Replay) -> None:
        super().__init__(_Still(campaign_state(replay, 0), "49bc"), frozenset())  # type: ignore[arg-type]
        self.ais = {}
        self.replay = replay

    def show(self) -> None:
        state = campaign_state(self.replay, self.replay.index)
        if state is not self.session.state:
            self.session.state = state
            self.version += 1

    def title(self) -> str:
        return self.replay.title

    def turn_label(self) -> str:
        return f"Step {self.replay.index} of {len(self.replay.frames) - 1}"


class CampaignReplayView(ReplayControls, MapView):
    def __init__(self, replay: Replay, parent: arcade.View | None = None, menu: arcade.View | None = None) -> None:
        self.replay = replay
        self.parent = parent
        self.typed = ""
        self.message = ""
        self.game = ReplayGame(replay)
        self.buttons: list[Button] = []
        self.texts: list[arcade.Text] = []
        self.panel_boxes: list[tuple[float, float, float, float, tuple[int, ...]]] = []
        self._built: Any = None
        MapView.__init__(self, self.game, menu=menu)

    def _build_hud(self) -> None:
        super()._build_hud()
        self.hud_texts["map"].text = self.replay.title
        self.hud_texts[
            "help"
        ].text = (
            "→ ← action · ↑ ↓ turn · number + Enter: jump · B battle · Esc back · F whole map · wheel zoom · drag pan"
        )

    # -- the panel --------------------------------------------------------------
    def _panel_key(self) -> Any:
        return (self.replay.index, self.typed, self.message, self.window.width, self.window.height)

    def _text(self, text: str, x: float, y: float, color: tuple[int, ...], size: float, **kw: Any) -> float:
        self.texts.append(arcade.Text(text, x, y, color, size, font_name=SANS, **kw))  # type: ignore[arg-type]
        return y - size * 1.55

    def _wrapped(self, text: str, x: float, y: float, color: tuple[int, ...], size: float, limit: float) -> float:
        for part in textwrap.wrap(text, max(20, int((PANEL_W - 24) / (size * 0.74)))) or [""]:
            if y < limit:
                break
            y = self._text(part, x, y, color, size)
        return y

    def _button(self, label: str, x: float, y: float, w: float, run: Any, enabled: bool = True) -> None:
        self.buttons.append(Button(label, x, y, w, run, enabled))
        self.panel_boxes.append((x, x + w, y, y + BUTTON_H, (196, 178, 146) if enabled else (150, 140, 125)))
        self._text(label, x + w / 2, y + 9, INK if enabled else DIM, 10.5, anchor_x="center", bold=True)

    def _build_panel(self) -> None:
        r = self.replay
        f = r.frame
        h = self.window.height
        self.texts, self.buttons, self.panel_boxes = [], [], []
        left, right, bottom, top = 10.0, 10.0 + PANEL_W, float(PANEL_BOTTOM), h - TOP_BAR - 10.0
        self.panel_boxes.append((left, right, bottom, top, PARCHMENT))
        self.panel_boxes.append((left, right, top - 30, top, BG_TOP))
        x = left + 12
        # the buttons first, from the bottom: the text above them stops where they begin
        half = (PANEL_W - 36) / 2
        row = bottom + 12
        self._button("◀ Turn", x, row, half, lambda: self.turn_step(-1), r.index > 0)
        self._button("Turn ▶", x + half + 12, row, half, lambda: self.turn_step(1), r.index < len(r.frames) - 1)
        row += BUTTON_H + 8
        self._button("◀ Action", x, row, half, lambda: self.step(-1), r.index > 0)
        self._button("Action ▶", x + half + 12, row, half, lambda: self.step(1), r.index < len(r.frames) - 1)
        row += BUTTON_H + 8
        if f.battles:
            self._button(f"Open {f.battles[0][0]} (B)"[:44], x, row, PANEL_W - 24, self.open_battle)
            row += BUTTON_H + 8
        note = self.message or (f"Jump to turn {self.typed}… (Enter)" if self.typed else "")
        if note:
            row = self._wrapped(note, x, row + 6, WARN, 9.5, 0) + 9.5 * 1.55 * 2
        floor = row + 6
        self._text(r.turns[f.turn][:52], x, top - 21, GOLD, 11, bold=True)
        y = top - 50
        y = self._wrapped(f.title, x, y, BG_TOP, 11.5, floor)
        y -= 4
        for line in f.lines:
            if y < floor + 60:
                y = self._text("…", x, y, DIM, 9.5)
                break
            y = self._wrapped(line, x, y, INK, 9.5, floor + 40)
        if f.dice and y > floor + 20:
            y = self._text("Dice rolled", x, y - 4, BG_TOP, 10, bold=True)
            for i, d in enumerate(f.dice):
                if y - 14 < floor:
                    self._text(f"…and {len(f.dice) - i} more.", x + 8, y, DIM, 9)
                    break
                y = self._text(d, x + 8, y, INK, 9)

    def refresh_panel(self) -> None:
        self.game.show()
        key = self._panel_key()
        if key != self._built:
            self._built = key
            self._build_panel()

    def on_draw(self) -> None:
        self.game.show()  # the frame's state before the top bar reads it
        super().on_draw()

    def _hud_extra_key(self) -> Any:
        self.refresh_panel()
        return self._built

    def _draw_hud_extra(self) -> None:
        self.refresh_panel()
        for left, right, bottom, top, color in self.panel_boxes:
            arcade.draw_lrbt_rectangle_filled(left, right, bottom, top, color)  # type: ignore[arg-type]
        arcade.draw_lrbt_rectangle_outline(
            10, 10 + PANEL_W, PANEL_BOTTOM, self.window.height - TOP_BAR - 10, BG_TOP, 1.5
        )
        for t in self.texts:
            t.draw()

    def hud_rects(self) -> list[tuple[float, float, float, float]]:
        top = self.window.height - TOP_BAR - 10
        return [*super().hud_rects(), (9.0, PANEL_BOTTOM - 1.0, 11.0 + PANEL_W, top + 1.0)]

    # -- input ------------------------------------------------------------------
    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if self.replay_key(symbol):
            self.refresh_panel()
            self._sync_model()
            return None
        return super().on_key_press(symbol, modifiers)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        self.refresh_panel()
        for b in self.buttons:
            if b.hit(x, y):
                b.action()
                self.refresh_panel()
                self._sync_model()
                return None
        if 10 <= x <= 10 + PANEL_W and PANEL_BOTTOM <= y <= self.window.height - TOP_BAR - 10:
            return None
        return super().on_mouse_press(x, y, button, modifiers)


def view(replay: Replay, parent: arcade.View | None = None, menu: arcade.View | None = None) -> arcade.View:
    """The replay window for a campaign (``bellum.view.replay.replay_view``)."""
    return CampaignReplayView(replay, parent=parent, menu=menu)
