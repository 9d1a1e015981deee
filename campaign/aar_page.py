"""The after-action report's page (``bellum aar``): ``index.md`` and a self-contained
``index.html`` (its pictures beside it), written from one list of blocks so both say the
same.  Pure text: the same war and pictures give the same bytes (no clock, no paths but the
pictures' own names).
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass

from bellum.engagement import SIDES as AB
from bellum.engagement import STANDING
from bellum.report import LEADER_WORDS
from campaign.aar import Battle, War, period_summary

#: the most happenings a season's caption lists
CAPTION_LINES = 10
#: the most lines a siege's or an interception's story tells
STORY_LINES = 12


@dataclass(frozen=True)
class Block:
    """One piece of the page: ``kind`` is h1/h2/h3/p/strong/img/table/ul; ``anchor`` a link target."""

    kind: str
    text: str = ""
    items: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    src: str = ""
    anchor: str = ""


def blocks(war: War, maps: list[str], frames: Mapping[tuple[int, str], str], charts: str = "charts.png") -> list[Block]:
    """The report, top to bottom."""
    out = _head(war)
    out.append(
        Block("h2", "The war, season by season" if _by_season(war) else "The war, year by year", anchor="the-war")
    )
    for p, name in zip(war.periods, maps, strict=True):
        out.append(Block("h3", p.title))
        out.append(Block("img", f"The war at the end of {p.title}", src=name))
        out.append(Block("p", period_summary(p, war)))
        told = p.caption[:CAPTION_LINES]
        more = len(p.caption) - len(told)
        if told:
            out.append(Block("ul", items=(*told, *([f"… and {more} more."] if more > 0 else []))))
    out += _month_by_month(war, charts)
    out.append(Block("h2", "The battles"))
    if not war.battles:
        out.append(Block("p", "No battle was fought."))
    for b in war.battles:
        out += battle_blocks(b, frames)
    if war.stories:
        out.append(Block("h2", "Sieges and interceptions", anchor="sieges"))
    for story in war.stories:
        told = story.lines[:STORY_LINES]
        more = len(story.lines) - len(told)
        out.append(Block("h3", story.title()))
        out.append(Block("ul", items=(*told, *([f"… and {more} more."] if more > 0 else []))))
        if story.end:
            out.append(Block("p", story.end))
    return out


def _head(war: War) -> list[Block]:
    """The report's title, the war's result and summary, where it was replayed from, the contents."""
    from campaign.chronicle import result, summary
    from campaign.engine import load

    try:
        title = load(war.scenario).title
    except Exception:  # a save of a scenario no longer shipped still has its report
        title = war.scenario
    first = war.months[0].date if war.months else war.state.date()
    last = war.state.date()
    return [
        Block("h1", f"After-action report: {title}"),
        Block("p", f"The war from {first} to {last}."),
        Block("strong", result(war.state)),
        Block("p", summary(war.state, war.events)),
        Block(
            "p",
            f"Replayed from the save {war.source.rsplit('/', 1)[-1]} (scenario {war.scenario}, seed {war.seed}): "
            f"{war.state.turn} turns played, {len(war.battles)} battles.",
        ),
        Block("h2", "Contents"),
        Block(
            "ul",
            items=(
                "[The war, season by season](#the-war)",
                "[The war month by month](#month-by-month)",
                *(f"[{b.number}. {b.title()}](#{b.anchor()})" for b in war.battles),
                *(["[Sieges and interceptions](#sieges)"] if war.stories else []),
            ),
        ),
    ]


#: the columns of the month-by-month table
MONTH_COLUMNS = (
    "turn",
    "date",
    "SP (Caes.)",
    "SP (Sen.)",
    "cities (Caes.)",
    "cities (Sen.)",
    "Res Publica",
    "stratagems held",
    "fratricide",
)


def _month_by_month(war: War, charts: str) -> list[Block]:
    """The charts of the war month by month, and their table."""
    rows = tuple(
        (
            str(m.turn + 1),
            m.date,
            str(m.sp["caesarian"]),
            str(m.sp["senatorial"]),
            str(m.cities["caesarian"]),
            str(m.cities["senatorial"]),
            f"{m.res_publica['caesarian']}–{m.res_publica['senatorial']}",
            f"{m.stratagems['caesarian']}–{m.stratagems['senatorial']}",
            str(m.fratricide),
        )
        for m in war.months
    )
    return [
        Block("h2", "The war month by month", anchor="month-by-month"),
        Block("img", "Strength, cities, Res Publica, stratagems and fratricide month by month", src=charts),
        Block("table", rows=(MONTH_COLUMNS, *rows)),
    ]


def battle_page(war: War, frames: Mapping[tuple[int, str], str]) -> list[Block]:
    """The report of one battle of the war (``bellum aar --battle N``)."""
    b = war.battles[0]
    source = war.source.rsplit("/", 1)[-1]
    return [
        Block("h1", f"After-action report: {b.title()}"),
        Block("p", f"Battle {b.number} of the war in the save {source} (scenario {war.scenario}, seed {war.seed})."),
        *battle_blocks(b, frames),
    ]


def _by_season(war: War) -> bool:
    return any(" " in p.title.removesuffix(" BC") for p in war.periods)


def battle_blocks(b: Battle, frames: Mapping[tuple[int, str], str]) -> list[Block]:
    rep = b.report
    out = [
        Block("h3", f"{b.number}. {b.title()}", anchor=b.anchor()),
        Block("strong", b.headline()),
        Block("p", _setting(b)),
    ]
    if any(frames.get((b.number, f.label)) for f in b.frames):
        # the battle windows colour their counters by side, the attacker (side A) red
        out.append(Block("p", f"On the pictures, red is {rep.side_name('A')} and purple {rep.side_name('B')}."))
    for f in b.frames:
        name = frames.get((b.number, f.label))
        if name:
            what = "the start" if f.label == "start" else ("the end" if f.label == "end" else f.label)
            board = "battlefield" if b.engine == "tactical" else ("sea" if rep.engagement.kind == "naval" else "board")
            out.append(Block("img", f"{b.title()}: the {board} at {what}", src=name))
    if b.missing:
        out.append(Block("p", b.missing))
    out.append(Block("table", rows=_losses(b)))
    lost = _leaders(b)
    if lost:
        out.append(Block("p", lost))
    if b.turning:
        out += [Block("p", "Turning points:"), Block("ul", items=tuple(b.turning))]
    follows = rep.consequences()
    if follows:
        out += [Block("p", "What follows:"), Block("ul", items=tuple(follows))]
    return out


def _setting(b: Battle) -> str:
    rep = b.report
    lines = rep.markdown().splitlines()
    setting = lines[2] if len(lines) > 2 else ""
    return f"{setting} {rep.verdict()}".strip()


def _losses(b: Battle) -> tuple[tuple[str, ...], ...]:
    """Per side: brought, killed, captured, scattered, worn away, lost in all, standing."""
    rep = b.report
    rows: list[tuple[str, ...]] = [("", _cap(rep.side_name("A")), _cap(rep.side_name("B")))]
    fates = {s: rep.fates(s) for s in AB}
    rows.append(("SP brought", str(rep.engaged("A")), str(rep.engaged("B"))))
    for key, word in (
        ("killed", "killed"),
        ("captured", "captured"),
        ("fled_lost", "scattered"),
        ("worn", "worn away"),
    ):
        if fates["A"].get(key) or fates["B"].get(key):
            rows.append((f"SP {word}", str(fates["A"].get(key, 0)), str(fates["B"].get(key, 0))))
    rows.append(
        (
            "SP lost",
            str(rep.outcome.strength_lost.get("A", 0)),
            str(rep.outcome.strength_lost.get("B", 0)),
        )
    )
    standing = {s: sum(f.strength for f in rep.outcome.units if f.side == s and f.fate in STANDING) for s in AB}
    rows.append(("SP standing after", str(standing["A"]), str(standing["B"])))
    units = {s: sum(1 for f in rep.outcome.units if f.side == s and f.fate not in STANDING) for s in AB}
    rows.append(("units lost", str(units["A"]), str(units["B"])))
    return tuple(rows)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _leaders(b: Battle) -> str:
    fates = {lf.id: lf.fate for lf in b.report.outcome.leaders}
    gone = [
        f"{ld.name or ld.id} {LEADER_WORDS.get(fates[ld.id], fates[ld.id])}"
        for ld in b.report.engagement.leaders
        if fates.get(ld.id, "survived") not in ("survived", "escaped")
    ]
    return ("Leaders: " + "; ".join(gone) + ".") if gone else ""


# ------------------------------------------------------------------ Markdown


def markdown(page: list[Block]) -> str:
    out: list[str] = []
    for b in page:
        if b.anchor:
            out.append(f'<a id="{b.anchor}"></a>')
            out.append("")
        if b.kind in ("h1", "h2", "h3"):
            out += ["#" * int(b.kind[1]) + " " + b.text, ""]
        elif b.kind == "p":
            out += [b.text, ""]
        elif b.kind == "strong":
            out += [f"**{b.text}**", ""]
        elif b.kind == "img":
            out += [f"![{b.text}]({b.src})", "", f"*{b.text}.*", ""]
        elif b.kind == "ul":
            out += [f"- {i}" for i in b.items] + [""]
        elif b.kind == "table":
            head, *body = b.rows
            out.append("| " + " | ".join(head) + " |")
            out.append("|" + "---|" * len(head))
            out += ["| " + " | ".join(r) + " |" for r in body]
            out.append("")
    return "\n".join(out).rstrip() + "\n"


# ------------------------------------------------------------------ HTML

STYLE = """
body { font-family: 'DejaVu Serif', Georgia, serif; max-width: 1320px; margin: 2em auto; padding: 0 1em;
       background: #f6f1e4; color: #2a231c; line-height: 1.45; }
h1, h2, h3 { font-family: 'DejaVu Sans', Arial, sans-serif; color: #3a1c22; }
h2 { border-bottom: 2px solid #c9a96a; padding-bottom: .2em; margin-top: 2em; }
figure { margin: 1em 0; }
figure img { max-width: 100%; border: 1px solid #8c7a5a; }
figcaption { font-style: italic; color: #5a4c3c; }
table { border-collapse: collapse; margin: .8em 0; font-family: 'DejaVu Sans', Arial, sans-serif; font-size: 90%; }
th, td { border: 1px solid #c2b08c; padding: .25em .6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #e8dcc0; }
strong.headline { display: block; font-size: 110%; margin: .6em 0; }
"""


def page_html(page: list[Block]) -> str:
    title = next((b.text for b in page if b.kind == "h1"), "After-action report")
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>{_e(title)}</title>",
        f"<style>{STYLE}</style>",
        "</head>",
        "<body>",
    ]
    for b in page:
        anchor = f' id="{_e(b.anchor)}"' if b.anchor else ""
        if b.kind in ("h1", "h2", "h3"):
            out.append(f"<{b.kind}{anchor}>{_e(b.text)}</{b.kind}>")
        elif b.kind == "p":
            out.append(f"<p{anchor}>{_e(b.text)}</p>")
        elif b.kind == "strong":
            out.append(f'<strong class="headline"{anchor}>{_e(b.text)}</strong>')
        elif b.kind == "img":
            out.append(
                f'<figure{anchor}><img src="{_e(b.src)}" alt="{_e(b.text)}" loading="lazy">'
                f"<figcaption>{_e(b.text)}.</figcaption></figure>"
            )
        elif b.kind == "ul":
            out.append(f"<ul{anchor}>" + "".join(f"<li>{_inline(i)}</li>" for i in b.items) + "</ul>")
        elif b.kind == "table":
            head, *body = b.rows
            out.append(f"<table{anchor}>")
            out.append("<tr>" + "".join(f"<th>{_e(c)}</th>" for c in head) + "</tr>")
            out += ["<tr>" + "".join(f"<td>{_e(c)}</td>" for c in r) + "</tr>" for r in body]
            out.append("</table>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _inline(text: str) -> str:
    """A list item: a Markdown link ``[words](#anchor)`` as an HTML link, else the text."""
    if text.startswith("[") and "](" in text and text.endswith(")"):
        words, _, target = text[1:-1].partition("](")
        return f'<a href="{_e(target)}">{_e(words)}</a>'
    return _e(text)
