"""The end of the war (issue 15 item 7; campaign.md §21): who won and by which condition, the
result in the rules' words, and the war in numbers (``campaign.warstats``) beside a chart of
the cities each side held and its strength on the map, turn by turn (matplotlib).

It opens by itself in the campaign window when the rules end the war (``offer``, called each
frame; it takes the place of the "The war is over" pop-up), again with V, and from the load
screen for a save of a finished war.  In the window the chart needs the war's states, so the
game's actions are replayed in a background thread (``campaign.warstats.months``) while the
numbers are already shown; from a save, the load's own replay counted them.
"""

from __future__ import annotations

import io
import weakref
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import arcade
from PIL import Image

from campaign.rules.common import leader_name
from campaign.state import SIDES
from campaign.view.mapview import rgba
from campaign.view.palette import GOLD, OWNER_INK, PARCHMENT
from campaign.view.screen import DIM, WARN, Screen
from campaign.warstats import Month, WarStats, condition, headline, months, short_name, war_stats

#: the chart's colours (the map's inks)
CHART_COLORS = {"caesarian": "#a8322d", "senatorial": "#5e3a7a"}
TITLE = "The war is over"

#: the games whose end has been shown (``offer`` shows it once)
_offered: weakref.WeakSet[Any] = weakref.WeakSet()


class VictoryView(Screen):
    """The end-of-war screen; ``back`` is where Esc and "Back" go."""

    def __init__(
        self, game: Any, back: arcade.View | None = None, menu: arcade.View | None = None, stats: WarStats | None = None
    ) -> None:
        super().__init__()
        self.game = game
        self.back = back
        self.menu = menu
        state = game.state
        self.result: dict[str, str] = dict(state.result) if state.result else {"how": "", "text": ""}
        self.stats = stats or war_stats(state, list(game.session.log))
        self.chart: arcade.Texture | None = None
        self.chart_problem = ""
        self._future: Future[list[Month]] | None = None
        if not self.stats.months:
            s = game.session
            pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="war-months")
            self._future = pool.submit(months, s.scenario, s.seed, list(s.actions))
            pool.shutdown(wait=False)

    # ------------------------------------------------------------------ the chart
    def on_update(self, delta_time: float) -> bool | None:
        f = self._future
        if f is not None and f.done():
            self._future = None
            try:
                by_month = f.result()
            except Exception as no:  # the numbers stay; the chart says why it is missing
                self.chart_problem = f"The chart could not be drawn: {no}"
            else:
                self.stats = war_stats(self.game.state, list(self.game.session.log), by_month)
            self.chart = None
            self.invalidate()
        return None

    def wait(self) -> None:
        """Wait for the chart's replay (tests)."""
        if self._future is not None:
            self._future.result()
        self.on_update(0.0)

    def chart_texture(self, width: int, height: int) -> arcade.Texture | None:
        if self.chart is None and len(self.stats.months) >= 1:
            self.chart = arcade.Texture(
                chart_image(self.stats.months, width, height),
                hash=f"war-chart-{id(self)}-{width}x{height}-{len(self.stats.months)}",
            )
        return self.chart

    # ------------------------------------------------------------------ the layout
    def build(self) -> None:
        w, h = self.window.width, self.window.height
        self.text(TITLE, w / 2, h - 16, rgba(GOLD), 24, bold=True, serif=True, anchor_x="center")
        winner = self.result.get("winner", "")
        ink = rgba(OWNER_INK[winner]) if winner in OWNER_INK else rgba(PARCHMENT)
        y = h - 92
        top_w = w - 80
        head = self.text(headline(self.result), w / 2, y, ink, 21, bold=True, serif=True, anchor_x="center")
        y -= head.content_height + 6
        text = self.result.get("text", "")
        y -= self.text(text[:1].upper() + text[1:], 56, y, size=11, width=top_w - 32).content_height + 4
        how = condition(self.result.get("how", ""))
        y -= self.text(how, 56, y, DIM, 10.5, italic=True, width=top_w - 32).content_height
        self.rects.insert(0, (40, w - 40, y - 10, h - 82, rgba(PARCHMENT, 252)))
        self.outlines.append((40, w - 40, y - 10, h - 82, rgba(GOLD)))
        panels_top = min(h - 210, y - 26)
        bottom = 70
        mid = w * 0.47
        self.panel(40, bottom, mid - 10, panels_top)
        y = self._numbers(56, panels_top - 14, mid - 66)
        self._largest(56, y - 8, mid - 66, bottom + 8)
        self.panel(mid + 10, bottom, w - 40, panels_top)
        self.text("Cities held and strength, turn by turn", mid + 26, panels_top - 14, size=12, bold=True, serif=True)
        self.chart_box = (mid + 20, bottom + 10, w - 50, panels_top - 42)
        if self._future is not None:
            self.text("Counting the war turn by turn…", mid + 26, panels_top - 60, DIM, 11)
        elif self.chart_problem:
            self.text(self.chart_problem, mid + 26, panels_top - 60, WARN, 10.5, width=w - mid - 90)
        bw = 260
        back = "Back to the map" if self.back is not None and hasattr(self.back, "game") else "Back"
        if self.menu is None:  # no menu behind this window (``bellum campaign``): one button
            self.button("back", back, w / 2 - bw / 2, 22, bw, self.go_back)
            return
        self.button("back", back, w / 2 - bw - 8, 22, bw, self.go_back)
        self.button("menu", "Main menu", w / 2 + 8, 22, bw, self.go_menu)

    def _numbers(self, x: float, y: float, width: float) -> float:
        y -= self.text("The war in numbers", x, y, size=12, bold=True, serif=True).content_height + 10
        label_w = 170
        for what, value in self.stats.lines() + self._leaders():
            a = self.text(what, x, y, size=10, bold=True, width=label_w - 8)
            b = self.text(value, x + label_w, y, size=10, width=width - label_w)
            y -= max(a.content_height, b.content_height) + 7
        return y

    def _largest(self, x: float, y: float, width: float, floor: float) -> None:
        """The largest battles, as many as the panel holds."""
        if not self.stats.largest:
            return
        head = self.text("The largest battles", x, y, size=12, bold=True, serif=True)
        y -= head.content_height + 8
        for date, line in self.stats.largest:
            t = self.text(f"{date} — {line}" if date else line, x, y, size=9.5, width=width)
            if y - t.content_height < floor:
                t.visible = False
                break
            y -= t.content_height + 5

    def _leaders(self) -> list[tuple[str, str]]:
        sup = {s: self.game.state.supreme.get(s) for s in SIDES}
        words = [f"{short_name(s)}: {leader_name(v)}" for s, v in sup.items() if v]
        return [("Supreme Leaders at the end", ", ".join(words) or "none")]

    def draw_extra(self) -> None:
        if self._future is not None or self.chart_problem:
            return
        left, bottom, right, top = self.chart_box
        tex = self.chart_texture(int(right - left), int(top - bottom))
        if tex is not None:
            arcade.draw_texture_rect(tex, arcade.LBWH(left, bottom, right - left, top - bottom))

    # ------------------------------------------------------------------ input
    def go_back(self) -> None:
        target = self.back or self.menu
        if target is not None:
            self.window.show_view(target)

    def go_menu(self) -> None:
        if self.menu is not None:
            self.window.show_view(self.menu)

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if symbol in (arcade.key.ESCAPE, arcade.key.ENTER, arcade.key.RETURN):
            self.go_back()
        return None


def chart_image(by_month: list[Month], width: int, height: int) -> Image.Image:
    """Two small charts, one above the other: the cities each side held and its strength on the
    map (SP) at the end of every turn."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    with matplotlib.rc_context(
        {"font.family": "DejaVu Sans", "font.size": 9, "axes.spines.top": False, "axes.spines.right": False}
    ):
        fig, axes = plt.subplots(2, 1, figsize=(width / 100, height / 100), dpi=100, sharex=True)
        fig.patch.set_alpha(0.0)
        xs = list(range(len(by_month)))
        step = max(1, -(-len(by_month) // 10))
        ticks = xs[::step]
        labels = [_short(by_month[i].date) for i in ticks]
        for ax, title, value in (
            (axes[0], "Cities held", lambda m, s: m.cities[s]),
            (axes[1], "Strength on the map (SP)", lambda m, s: m.sp[s]),
        ):
            ax.set_facecolor("none")
            for side in SIDES:
                ax.plot(
                    xs,
                    [value(m, side) for m in by_month],
                    color=CHART_COLORS[side],
                    label=short_name(side),
                    linewidth=2,
                )
            ax.set_title(title, loc="left", fontsize=10, fontweight="bold")
            ax.grid(axis="y", color="#cfc3a6", linewidth=0.6)
            ax.set_ylim(bottom=0)
            ax.yaxis.set_major_locator(MaxNLocator(integer=True, nbins=5))
        axes[1].set_xticks(ticks, labels, rotation=30, ha="right")
        axes[0].legend(loc="lower right", bbox_to_anchor=(1.0, 1.0), frameon=False, ncols=2)
        fig.tight_layout()
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=100, transparent=True)
        plt.close(fig)
    buf.seek(0)
    return Image.open(buf).convert("RGBA").resize((width, height))


def _short(date: str) -> str:
    """ "April 49 BC" → "Apr 49"."""
    parts = date.split()
    return f"{parts[0][:3]} {parts[1]}" if len(parts) >= 2 else date


# ---------------------------------------------------------------------- the window's hooks


def offer(view: Any) -> bool:
    """Show the end of the war once, when the rules have ended it and nothing else waits (it
    takes the place of the "The war is over" pop-up); True when it was shown."""
    game = view.game
    if not game.state.result or game in _offered or game.battle is not None:
        return False
    d = getattr(view, "dialog", None)
    if d is not None and d.title == TITLE:
        view.close_dialog()
    elif d is not None or any(t != TITLE for t, _ in game.popups):
        return False
    game.popups[:] = [p for p in game.popups if p[0] != TITLE]
    _offered.add(game)
    show(view)
    return True


def show(view: Any) -> VictoryView | None:
    """The end-of-war screen over the campaign window (V once the war is over)."""
    if not view.game.state.result:
        return None
    screen = VictoryView(view.game, back=view, menu=getattr(view, "menu", None))
    view.window.show_view(screen)
    return screen
