"""The end of the war (issue 15 item 7; campaign.md §21): who won and by which condition, the
result in the rules' words, and the war in numbers (``campaign.warstats``) beside a chart of
the cities each side held and its strength on the map, turn by turn (matplotlib).

It opens by itself in the campaign window when the rules end the war (``offer``, called each
frame; it takes the place of the "The war is over" pop-up), again with V, and from the load
screen for a save of a finished war.  The chart (``campaign.aar_charts.chart_image``, the
report's charts at the panel's size) is drawn in a worker thread while the numbers are
already shown, and redrawn when the window's size changes; in the window it needs the war's
states first, so the game's actions are replayed there too (``campaign.warstats.months``,
with the game's rule options); from a save, the load's own replay counted them.  Only the
texture is made on the main thread; a panel too small for a chart, or a chart that fails,
is said in one sentence.
"""

from __future__ import annotations

import weakref
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any

import arcade
from PIL import Image

from campaign.aar_charts import chart_image
from campaign.rules.common import leader_name
from campaign.state import SIDES, side_short
from campaign.view.mapview import rgba
from campaign.view.palette import GOLD, OWNER_INK, PARCHMENT
from campaign.view.screen import DIM, WARN, Screen
from campaign.warstats import Month, WarStats, condition, headline, months, war_stats

TITLE = "The war is over"
#: the smallest chart worth drawing (pixels); a smaller panel says so instead
CHART_MIN = (160, 120)
TOO_SMALL = "The window is too small for the chart; make it larger to see it."

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
        s = game.session
        self.stats = stats or war_stats(state, list(s.log), scenario=s.scenario)
        self.chart: arcade.Texture | None = None
        self.chart_problem = ""
        self.chart_box = (0.0, 0.0, 0.0, 0.0)
        #: the size the chart is drawn (or being drawn) at
        self._chart_size: tuple[int, int] | None = None
        self._future: Future[tuple[list[Month], Image.Image]] | None = None

    # ------------------------------------------------------------------ the chart
    def _want_chart(self, width: int, height: int) -> None:
        """Draw the chart at ``width`` × ``height`` in a worker thread (counting the war's
        months first when they are not counted yet), unless it is drawn or being drawn; the
        chart of the last size stays, stretched, until the new one is ready."""
        if self._future is not None or self._chart_size == (width, height):
            return
        self._chart_size = (width, height)
        if width < CHART_MIN[0] or height < CHART_MIN[1]:
            self.chart, self.chart_problem = None, TOO_SMALL
            return
        if self.chart_problem == TOO_SMALL:
            self.chart_problem = ""
        if self.chart_problem:
            return  # the war could not be counted: no second try
        s = self.game.session
        counted = list(self.stats.months)
        options = None if s.options is None else list(s.options)  # () is "no optional rules"
        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="war-chart")
        self._future = pool.submit(_draw, counted, s.scenario, s.seed, list(s.actions), options, width, height)
        pool.shutdown(wait=False)

    def on_update(self, delta_time: float) -> bool | None:
        f = self._future
        if f is not None and f.done():
            self._future = None
            try:
                by_month, image = f.result()
                size = self._chart_size or image.size
                self.chart = arcade.Texture(image, hash=f"war-chart-{id(self)}-{size[0]}x{size[1]}-{len(by_month)}")
            except Exception as no:  # the numbers stay; the chart says why it is missing, in one sentence
                self.chart_problem = f"The chart could not be drawn: {_sentence(no)}"
            else:
                if not self.stats.months:
                    s = self.game.session
                    self.stats = war_stats(self.game.state, list(s.log), by_month, scenario=s.scenario)
            self.invalidate()
        return None

    def wait(self) -> None:
        """Lay the screen out and wait for the chart (tests)."""
        self.ensure_built()
        if self._future is not None:
            wait([self._future])  # a failure is on_update's to tell
        self.on_update(0.0)

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
        left, low, right, top = self.chart_box
        self._want_chart(int(right - left), int(top - low))
        if self._future is not None and not self.stats.months:
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
        words = [f"{side_short(s)}: {leader_name(v)}" for s, v in sup.items() if v]
        return [("Supreme Leaders at the end", ", ".join(words) or "none")]

    def draw_extra(self) -> None:
        left, bottom, right, top = self.chart_box
        if self.chart is None or self.chart_problem or right - left < 1 or top - bottom < 1:
            return
        arcade.draw_texture_rect(self.chart, arcade.LBWH(left, bottom, right - left, top - bottom))

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


def _draw(
    counted: list[Month],
    scenario: str,
    seed: int,
    actions: list[dict[str, Any]],
    options: list[str] | None,
    width: int,
    height: int,
) -> tuple[list[Month], Image.Image]:
    """The worker thread's part: the war's months (replayed with the game's options when not
    ``counted`` yet) and the chart drawn from them (no arcade here: the texture is made on the
    main thread)."""
    by_month = counted or months(scenario, seed, actions, options)
    if not by_month:
        raise ValueError("the war has no turn to chart")
    return by_month, chart_image(by_month, width, height)


def _sentence(error: BaseException) -> str:
    """An error as the end of one sentence: its first line, ending with a full stop."""
    text = (str(error).strip().splitlines() or [type(error).__name__])[0].rstrip(".")
    return f"{text or type(error).__name__}."


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
