"""The war month by month in charts, drawn with matplotlib's Agg renderer (``Figure``, not
pyplot: the end-of-war screen draws them in a worker thread) — each side's strength, cities
held, Res Publica markers, stratagems held and spent, and the fratricide track.  The
after-action report (``bellum aar``) draws all six panels into a PNG (``war_charts``); the
end-of-war screen (``campaign.view.victory``) two of them, at its panel's size
(``chart_image``).

Deterministic: the bundled DejaVu Sans font, no PNG metadata (no software name, no date),
a fixed size and resolution, so the same war gives the same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from campaign.state import SIDES, side_short
from campaign.warstats import Month

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from PIL import Image

#: each side's colour on the charts (a little lighter than the map's inks, palette.OWNER_INK)
COLORS = {"caesarian": "#a8322d", "senatorial": "#5e3a7a"}
#: the fratricide track's colour (both sides)
FRATRICIDE = "#6b5a3e"
#: the panels a chart may hold: key -> (title, the value of a side in a month)
PANELS: dict[str, tuple[str, Callable[[Month, str], int]]] = {
    "sp": ("Strength on the map (SP)", lambda m, s: m.sp[s]),
    "cities": ("Cities held", lambda m, s: m.cities[s]),
    "res_publica": ("Res Publica markers", lambda m, s: m.res_publica[s]),
    "stratagems": ("Stratagems held", lambda m, s: m.stratagems[s]),
    "spent": ("Stratagems spent since the war began", lambda m, s: m.spent[s]),
    "fratricide": ("Fratricide (both sides)", lambda m, s: m.fratricide),
}
#: the after-action report's six panels, two to a row
REPORT = ("sp", "cities", "res_publica", "stratagems", "spent", "fratricide")
#: the end-of-war screen's two, one above the other
VICTORY = ("cities", "sp")


def war_charts(months: list[Month], path: Path) -> None:
    """The report's six small charts in one PNG at ``path``."""
    with _style_context():
        fig = figure(months, REPORT, 1200, 900, columns=2)
        fig.savefig(path, dpi=100, metadata={"Software": None}, pil_kwargs={"optimize": True})


def chart_image(months: Sequence[Month], width: int, height: int, panels: Sequence[str] = VICTORY) -> Image.Image:
    """``panels`` one above the other on a transparent ground, ``width`` × ``height`` pixels
    (each at least 1; the caller keeps the size sensible)."""
    from PIL import Image

    with _style_context():
        fig = figure(months, panels, width, height, columns=1, transparent=True)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=100, transparent=True)
    buf.seek(0)
    return Image.open(buf).convert("RGBA").resize((width, height))


def figure(
    months: Sequence[Month], panels: Sequence[str], width: int, height: int, columns: int, transparent: bool = False
) -> Figure:
    """The charts ``panels`` (keys of ``PANELS``) in a figure of ``width`` × ``height`` pixels
    at 100 dpi, ``columns`` to a row (the first panel holds the legend)."""
    from matplotlib.figure import Figure

    rows = -(-len(panels) // columns)
    fig = Figure(figsize=(width / 100, height / 100), dpi=100)
    grid = fig.subplots(rows, columns, squeeze=False, sharex=columns == 1)
    flat = [ax for row in grid for ax in row]
    if transparent:
        fig.patch.set_alpha(0.0)
    xs = list(range(len(months)))
    ticks = _ticks(months)
    for ax, key in zip(flat, panels, strict=False):
        title, value = PANELS[key]
        if transparent:
            ax.set_facecolor("none")
        if key == "fratricide":
            track = [m.fratricide for m in months]
            ax.fill_between(xs, track, color=FRATRICIDE, alpha=0.35, step="post")
            ax.plot(xs, track, color=FRATRICIDE, linewidth=2, drawstyle="steps-post")
        else:
            for side in SIDES:
                ax.plot(
                    xs,
                    [value(m, side) for m in months],
                    color=COLORS[side],
                    label=side_short(side),
                    linewidth=2,
                    drawstyle="steps-post" if key == "res_publica" else "default",
                )
        _style(ax, title, ticks)
    flat[0].legend(loc="best", frameon=False)
    fig.tight_layout()
    return fig


def _style_context() -> Any:
    import matplotlib

    return matplotlib.rc_context(
        {
            "font.family": "DejaVu Sans",
            "font.size": 9,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "svg.hashsalt": "bellum",
            "path.simplify": False,
        }
    )


def _ticks(months: Sequence[Month]) -> tuple[list[int], list[str]]:
    """Every few turns' dates, at most a dozen labels."""
    step = max(1, -(-len(months) // 12))
    idx = list(range(0, len(months), step))
    return idx, [_short(months[i].date) for i in idx]


def _short(date: str) -> str:
    """ "April 49 BC" → "Apr 49"."""
    parts = date.split()
    return f"{parts[0][:3]} {parts[1]}" if len(parts) >= 2 else date


def _style(ax: Any, title: str, ticks: tuple[list[int], list[str]]) -> None:
    from matplotlib.ticker import MaxNLocator

    ax.set_title(title, loc="left", fontsize=10, fontweight="bold")
    ax.set_xticks(ticks[0], ticks[1], rotation=35, ha="right")
    ax.grid(axis="y", color="#dddddd", linewidth=0.6)
    ax.set_ylim(bottom=0)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # counts: whole numbers
