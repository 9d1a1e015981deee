"""The after-action report's charts (``bellum aar``): the war month by month, drawn with
matplotlib's Agg renderer — each side's strength, cities held, Res Publica markers,
stratagems held and spent, and the fratricide track.

Deterministic: the bundled DejaVu Sans font, no PNG metadata (no software name, no date),
a fixed size and resolution, so the same war gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from campaign.aar import Month
from campaign.state import SIDES

#: each side's colour on the charts (the map's inks: campaign.view.palette.OWNER_INK)
COLORS = {"caesarian": "#a8322d", "senatorial": "#5e3a7a"}
LABELS = {"caesarian": "Caesarians", "senatorial": "Senatorials"}


def war_charts(months: list[Month], path: Path) -> None:
    """Six small charts in one PNG at ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with matplotlib.rc_context(
        {
            "font.family": "DejaVu Sans",
            "font.size": 9,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "svg.hashsalt": "bellum",
            "path.simplify": False,
        }
    ):
        fig, axes = plt.subplots(3, 2, figsize=(12.0, 9.0), dpi=100)
        xs = list(range(len(months)))
        ticks = _ticks(months)
        panels: list[tuple[str, Callable[[Month, str], int]]] = [
            ("Strength on the map (SP)", lambda m, s: m.sp[s]),
            ("Cities held", lambda m, s: m.cities[s]),
            ("Res Publica markers", lambda m, s: m.res_publica[s]),
            ("Stratagems held", lambda m, s: m.stratagems[s]),
            ("Stratagems spent since the war began", lambda m, s: m.spent[s]),
        ]
        flat = [ax for row in axes for ax in row]
        for ax, (title, value) in zip(flat, panels, strict=False):
            for side in SIDES:
                ax.plot(
                    xs,
                    [value(m, side) for m in months],
                    color=COLORS[side],
                    label=LABELS[side],
                    linewidth=2,
                    drawstyle="steps-post" if "Res Publica" in title else "default",
                )
            _style(ax, title, ticks)
        ax = flat[5]
        ax.fill_between(xs, [m.fratricide for m in months], color="#6b5a3e", alpha=0.35, step="post")
        ax.plot(xs, [m.fratricide for m in months], color="#6b5a3e", linewidth=2, drawstyle="steps-post")
        _style(ax, "Fratricide (both sides)", ticks)
        flat[0].legend(loc="best", frameon=False)
        fig.tight_layout()
        fig.savefig(path, dpi=100, metadata={"Software": None}, pil_kwargs={"optimize": True})
        plt.close(fig)


def _ticks(months: list[Month]) -> tuple[list[int], list[str]]:
    """Every few turns' dates, at most a dozen labels."""
    step = max(1, -(-len(months) // 12))
    idx = list(range(0, len(months), step))
    return idx, [_short(months[i].date) for i in idx]


def _short(date: str) -> str:
    """ "April 49 BC" → "Apr 49"."""
    month, year = date.split()[:2]
    return f"{month[:3]} {year}"


def _style(ax: object, title: str, ticks: tuple[list[int], list[str]]) -> None:
    ax.set_title(title, loc="left", fontsize=10, fontweight="bold")  # type: ignore[attr-defined]
    ax.set_xticks(ticks[0], ticks[1], rotation=35, ha="right")  # type: ignore[attr-defined]
    ax.grid(axis="y", color="#dddddd", linewidth=0.6)  # type: ignore[attr-defined]
    ax.set_ylim(bottom=0)  # type: ignore[attr-defined]
    from matplotlib.ticker import MaxNLocator

    ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # type: ignore[attr-defined]  # counts: whole numbers
