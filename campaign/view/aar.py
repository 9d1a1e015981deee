"""The after-action report's pictures, rendered off-screen from the game's own views
(``bellum aar``, campaign.md §14.5).

- a map a season (or a year): the campaign window's map (``MapView``) on the war as it
  stood at the season's end — each side's territory and forces — with the season's
  marches and voyages drawn over it as arrows in the mover's colour, and its battles
  (numbered as in the report), sieges, storms and interceptions as markers;
- each battle's board or battlefield at its start, at its turning points and at its end:
  the battleboard window (``battleboard.view.battle.BattleView``) or the tactical window
  (``tactical.view.battle.BattleView``) showing the replayed state.

Images are PNGs beside the page, quantised to a palette to keep them small; the same war
gives the same pixels (no clock, no randomness, fixed sizes).
"""

from __future__ import annotations

import itertools
import math
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import arcade
from PIL import Image

from bellum.engagement import SIDES as AB
from bellum.events import Event, EventLog
from campaign.aar import Battle, Frame, Period, War
from campaign.view.game import CampaignGame
from campaign.view.mapview import MapView
from campaign.view.palette import OWNER_INK

WIDTH, HEIGHT = 1280, 800
#: colours of the map's overlay
HALO = (250, 246, 236)
INK = (40, 34, 28)
SEA_INK = (28, 70, 130)
MARKER_PX = 11.0
#: the ground's texels per world unit in the report's maps (the window: 1.25)
REPORT_TEXELS = 0.75


def save_png(image: Image.Image, path: Path) -> None:
    """``image`` as a small PNG: RGB quantised to 256 colours (deterministic)."""
    rgb = image.convert("RGB")
    rgb.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(path, optimize=True)


def grab(window: arcade.Window) -> Image.Image:
    return arcade.get_image(0, 0, window.width, window.height)


# ------------------------------------------------------------------ the maps


def render_maps(window: arcade.Window, war: War, folder: Path) -> list[str]:
    """One map a period (``War.periods``): the file names written."""
    from bellum.session import Session
    from campaign.engine import CampaignEngine

    game = PeriodGame(Session(CampaignEngine(), war.scenario, war.seed))
    view = ReportMap(model=game)
    window.show_view(view)
    view.hud_texts["map"].text = "After-action report"
    view.hud_texts["help"].text = ""
    names = []
    for i, p in enumerate(war.periods, 1):
        game.show(p)
        view.on_update(1 / 60)
        window.clear()
        view.on_draw()
        _overlay(view, p, _numbered(p, war))
        name = f"map-{i:02d}.png"
        save_png(grab(window), folder / name)
        names.append(name)
    return names


def _numbered(p: Period, war: War) -> dict[tuple[str, int], list[int]]:
    """(place, turn) -> the report's numbers of the battles fought there that turn."""
    out: dict[tuple[str, int], list[int]] = {}
    turn_of: dict[int, int] = {}
    turn = 0
    for i, e in enumerate(war.events):
        if e.kind == "turn":
            turn = int(e.data.get("turn", turn))
        turn_of[i] = turn
    for b in war.battles:
        key = (str(b.event.data.get("place", "")), turn_of.get(b.index, 0))
        if key[1] in p.turns:
            out.setdefault(key, []).append(b.number)
    return out


class ReportMap(MapView):
    """The campaign map at the whole-map zoom only: its ground at the resolution the screen
    shows (about a texel a pixel), which rasterises three times faster."""

    texels_per_unit = REPORT_TEXELS
    show_minimap = False  # issue 15 (wt15a): a report's picture needs no minimap


class PeriodGame(CampaignGame):
    """The campaign window's model showing the war at a period's end, read-only."""

    def __init__(self, session: Any) -> None:
        super().__init__(session, humans=frozenset({"caesarian", "senatorial"}))
        self.title_text = ""
        self.turns_text = ""

    def show(self, p: Period) -> None:
        self.session.state = p.state
        self.title_text = p.title
        first, last = p.turns[0] + 1, p.turns[-1] + 1
        self.turns_text = f"Turn {first}" if first == last else f"Turns {first}–{last}"
        self.version += 1

    def date_label(self) -> str:
        return self.title_text

    def turn_label(self) -> str:
        return self.turns_text

    def phase_label(self) -> str:
        return f"The war at {self.state.date()}"


def _overlay(view: Any, p: Period, numbered: dict[tuple[str, int], list[int]]) -> None:
    """The period's moves as arrows and its fights as markers, over the drawn map."""
    view.window.default_camera.use()

    def at(place: str) -> tuple[float, float] | None:
        try:
            return view.world_to_screen(*view.geo.pos(place))  # type: ignore[no-any-return]
        except (KeyError, ValueError):
            return None

    for m in p.moves:
        pts = [q for q in (at(pl) for pl in m.path) if q is not None]
        if len(pts) < 2:
            continue
        color = OWNER_INK.get(m.side, INK)  # type: ignore[call-overload]
        _arrow(pts, color, dashed=m.kind == "sail")
    texts: list[arcade.Text] = []
    drawn: dict[str, int] = {}
    for s in p.sites:
        q = at(s.place)
        if q is None:
            continue
        k = drawn.get(s.place, 0)
        drawn[s.place] = k + 1
        x, y = q[0] + 14 * k, q[1]
        color = OWNER_INK.get(s.side or "", INK)  # type: ignore[call-overload]
        _marker(s.kind, x, y, color)
        if s.kind == "battle":
            nums = numbered.get((s.place, s.turn), [])
            if nums:
                n = nums.pop(0)
                texts.append(arcade.Text(str(n), x, y - 1, HALO, 9, anchor_x="center", anchor_y="center", bold=True))
    for t in texts:
        t.draw()
    _legend(view)


def _arrow(pts: Sequence[tuple[float, float]], color: tuple[int, int, int], dashed: bool) -> None:
    for width, c in ((6.0, HALO), (3.0, color)):
        for (x1, y1), (x2, y2) in itertools.pairwise(pts):
            if dashed and c is not HALO:
                _dashes(x1, y1, x2, y2, c, width)
            else:
                arcade.draw_line(x1, y1, x2, y2, c, width)
    (x1, y1), (x2, y2) = pts[-2], pts[-1]
    ang = math.atan2(y2 - y1, x2 - x1)
    size = 10.0
    tip = (x2, y2)
    left = (x2 - size * math.cos(ang - 0.45), y2 - size * math.sin(ang - 0.45))
    right = (x2 - size * math.cos(ang + 0.45), y2 - size * math.sin(ang + 0.45))
    arcade.draw_polygon_filled([tip, left, right], color)
    arcade.draw_polygon_outline([tip, left, right], HALO, 1.0)


def _dashes(x1: float, y1: float, x2: float, y2: float, c: tuple[int, int, int], width: float) -> None:
    length = math.dist((x1, y1), (x2, y2))
    if length == 0:
        return
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    d = 0.0
    while d < length:
        e = min(length, d + 7.0)
        arcade.draw_line(x1 + ux * d, y1 + uy * d, x1 + ux * e, y1 + uy * e, c, width)
        d = e + 5.0


def _marker(kind: str, x: float, y: float, color: tuple[int, int, int], r: float = MARKER_PX) -> None:
    if kind == "battle":
        arcade.draw_circle_filled(x, y, r, color)
        arcade.draw_circle_outline(x, y, r, INK, 2)
    elif kind == "siege":
        arcade.draw_lrbt_rectangle_outline(x - r, x + r, y - r, y + r, HALO, 5)
        arcade.draw_lrbt_rectangle_outline(x - r, x + r, y - r, y + r, color, 3)
    elif kind == "storm":
        pts = [(x, y + r), (x - r, y - r * 0.8), (x + r, y - r * 0.8)]
        arcade.draw_polygon_filled(pts, color)
        arcade.draw_polygon_outline(pts, INK, 2)
    else:  # an interception at sea
        pts = [(x, y + r), (x + r, y), (x, y - r), (x - r, y)]
        arcade.draw_polygon_filled(pts, SEA_INK)
        arcade.draw_polygon_outline(pts, HALO, 2)


LEGEND = (
    ("march", "a march (the mover's colour)"),
    ("sail", "a voyage"),
    ("battle", "a battle (the winner's colour, its number)"),
    ("siege", "a siege begun (the besieger's colour)"),
    ("storm", "a storm of a city"),
    ("interception", "an interception at sea"),
)


def _legend(view: Any) -> None:
    """What the overlay's marks mean, bottom right (the map's own legend is bottom left)."""
    w = 330
    x0, y0 = view.window.width - w - 12, 64
    h = 18 * len(LEGEND) + 12
    arcade.draw_lrbt_rectangle_filled(x0, x0 + w, y0, y0 + h, (*HALO, 235))
    arcade.draw_lrbt_rectangle_outline(x0, x0 + w, y0, y0 + h, INK, 1)
    grey = (90, 84, 76)
    for i, (kind, words) in enumerate(LEGEND):
        y = y0 + h - 15 - 18 * i
        x = x0 + 20
        if kind in ("march", "sail"):
            pts = [(x - 10, y), (x + 10, y)]
            _arrow(pts, grey, dashed=kind == "sail")
        else:
            _marker(kind, x, y, grey, r=6.5)
        arcade.Text(words, x0 + 40, y, INK, 10, anchor_y="center").draw()


# ------------------------------------------------------------------ the battles


def render_battles(window: arcade.Window, war: War, folder: Path) -> dict[tuple[int, str], str]:
    """Every battle's frames: (battle number, frame label) -> file name."""
    out: dict[tuple[int, str], str] = {}
    with tempfile.TemporaryDirectory(prefix="bellum-aar-") as tmp:
        for b in war.battles:
            if not b.frames:
                continue
            draw = _board_frames if b.engine == "battleboard" else _field_frames
            for k, (frame, image) in enumerate(draw(window, b, Path(tmp))):
                name = f"battle-{b.number:02d}-{k + 1}.png"
                save_png(image, folder / name)
                out[(b.number, frame.label)] = name
    return out


def _board_frames(window: arcade.Window, b: Battle, tmp: Path) -> list[tuple[Frame, Image.Image]]:
    from battleboard.view.battle import BattleView

    names: dict[str, str] = {s: b.report.side_name(s) for s in AB}
    out = []
    for f in b.frames:
        # the panel's heading is the title before " — " (one line: no date), the rest below it
        title = f"{_short_title(b)} — {b.report.engagement.turn}, {f.label}"
        view = BattleView(f.state.clone(), title=title, side_names=names, seed=1)
        view.log = [f"{b.title()}: {f.label}.", *f.log]
        out.append((f, _shoot(window, view)))
    return out


def _field_frames(window: arcade.Window, b: Battle, tmp: Path) -> list[tuple[Frame, Image.Image]]:
    from campaign.conversion import write_tactical
    from tactical.view.app import battle_view

    path = write_tactical(b.scenario, tmp)
    view = battle_view(str(path), seed=1)
    # the top bar holds the title, the side to act and the rout points: the place alone (the
    # line beneath it has the battle's whole title)
    view.title = b.report.place or _short_title(b)
    view.side_names = {s: b.report.side_name(s) for s in AB}
    out = []
    for f in b.frames:
        view.session.state = f.state
        view.session.log = EventLog([Event("log", text) for text in f.log])
        view.refresh()
        view.choices = []  # a picture of the battle, not a turn to play: no choices offered
        view._version += 1
        view.message = f"{b.title()} — {f.label}"
        window.show_view(view)
        view.fit_world()
        out.append((f, _shoot(window, view, show=False)))
    return out


def _short_title(b: Battle) -> str:
    """ "Battle of Genua" (the report's title without its date)."""
    return b.title().removesuffix(f", {b.report.engagement.turn}")


def _shoot(window: arcade.Window, view: Any, show: bool = True) -> Image.Image:
    if show:
        window.show_view(view)
    window.clear()
    view.on_draw()
    return grab(window)


def render(
    war: War, folder: Path, window: arcade.Window | None = None, maps: bool = True
) -> tuple[list[str], dict[tuple[int, str], str]]:
    """Every picture of the report into ``folder``: (map files, battle frame files)."""
    own = window is None
    if window is None:
        try:
            before: arcade.Window | None = arcade.get_window()
        except RuntimeError:
            before = None
        window = arcade.Window(WIDTH, HEIGHT, "Bellum Civile — after-action report", visible=False, antialiasing=False)
    try:
        drawn = render_maps(window, war, folder) if maps else []
        battles = render_battles(window, war, folder)
    finally:
        if own:
            window.close()
            if before is not None:  # the window that was active before stays the active one
                arcade.set_window(before)
                before.switch_to()
    return drawn, battles


def write(
    save: str | Path,
    folder: str | Path,
    by: str = "auto",
    window: arcade.Window | None = None,
    battle: int | None = None,
) -> Path:
    """The whole report of the war in ``save`` — or of its battle number ``battle`` alone:
    ``folder/index.md``, ``folder/index.html``, the charts and every picture beside them;
    the Markdown file's path."""
    from campaign.aar import replay
    from campaign.aar_charts import war_charts
    from campaign.aar_page import battle_page, blocks, markdown, page_html

    out = Path(folder)
    war = replay(save, by, only=battle)
    out.mkdir(parents=True, exist_ok=True)
    if battle is None:
        war_charts(war.months, out / "charts.png")
    maps, frames = render(war, out, window, maps=battle is None)
    page = blocks(war, maps, frames) if battle is None else battle_page(war, frames)
    (out / "index.md").write_text(markdown(page), encoding="utf-8")
    (out / "index.html").write_text(page_html(page), encoding="utf-8")
    return out / "index.md"
