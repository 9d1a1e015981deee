"""The campaign window's help panel (F1): the controls, the legend, the sequence of play with
the phase now highlighted, and the rules searchable by section (issue 15 item 6).  What it
says comes from ``campaign.view.help``; this draws it over the map into the view's help
layer (its own shapes, text batch and ``help:`` buttons)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import arcade
from arcade import shape_list

from campaign.view import markers
from campaign.view.help import CONTROLS, LEGEND, plain, rule_sections, search, sequence_of_play
from campaign.view.mapview import SANS, SERIF, TOP_BAR, rgba
from campaign.view.palette import (
    BG_TOP,
    CROSS_COUNTRY,
    GOLD,
    LABEL_INK,
    OWNER_FILL,
    PARCHMENT,
    PROVINCE_BORDER,
    ROAD_NAMED,
    STRAIT,
    OwnerKind,
)

#: the campaign window the help is drawn into (``campaign.view.play.CampaignView``; not
#: imported here, so the window may import this module without a loop)
CampaignView = Any

TABS = (("controls", "Controls"), ("legend", "Legend"), ("sequence", "Sequence of play"), ("rules", "Rules"))
INK = rgba(LABEL_INK)
DIM = (96, 80, 66, 255)
HIGHLIGHT = (200, 150, 40)
#: the list of matching sections: its width and the rows it shows a page
LIST_W = 300
ROW_H = 30


def help_box(view: CampaignView) -> tuple[float, float, float, float]:
    """The help panel's box (left, bottom, right, top): most of the window, under the top bar."""
    w, h = view.window.width, view.window.height
    width = min(w - 60, 1180)
    left = (w - width) / 2
    return left, 30.0, left + width, h - TOP_BAR - 14


def build_help(view: CampaignView) -> None:
    """The whole panel: its box, the tabs and the chosen tab's page."""
    left, bottom, right, top = help_box(view)
    shapes = view.help_shapes
    view.help_sprites = arcade.SpriteList()
    w, h = view.window.width, view.window.height
    shapes.append(shape_list.create_rectangle_filled(w / 2, h / 2, w, h, (20, 10, 12, 90)))
    cx, cy = (left + right) / 2, (bottom + top) / 2
    shapes.append(shape_list.create_rectangle_filled(cx, cy, right - left, top - bottom, rgba(PARCHMENT, 252)))
    shapes.append(shape_list.create_rectangle_outline(cx, cy, right - left, top - bottom, rgba(BG_TOP), 3))
    title = arcade.Text(
        "Help", left + 16, top - 12, rgba(GOLD), 15, font_name=SERIF, bold=True, anchor_y="top", batch=view.help_batch
    )
    view._play_texts.append(title)
    x = left + 90
    for key, label in TABS:
        chosen = view.help_tab == key
        tip = f"Show the {label.lower()}" + (" (shown)" if chosen else "")
        view._add_button(
            f"help:tab:{key}", label, x, top - 38, 150, partial(_tab, view, key), tip=tip, enabled=not chosen
        )
        x += 156
    view._add_button(
        "help:close", "Close (F1)", right - 126, top - 38, 110, view.toggle_help, tip="Close the help (F1 or Esc)"
    )
    body_top = top - 52
    pages: dict[str, Callable[[CampaignView, float, float, float, float], None]] = {
        "controls": _controls,
        "legend": _legend,
        "sequence": _sequence,
        "rules": _rules,
    }
    pages[view.help_tab](view, left + 16, bottom + 12, right - 16, body_top)


def _tab(view: CampaignView, key: str) -> None:
    view.help_tab = key
    view.help_scroll = 0
    view._hud_key = None


def _text(view: CampaignView, text: str, x: float, y: float, width: float, **style: Any) -> float:
    """A wrapped text in the help layer; the y under it."""
    t = arcade.Text(
        text,
        x,
        y,
        style.pop("color", INK),
        style.pop("size", 10),
        font_name=SANS,
        multiline=True,
        width=int(width),
        anchor_y="top",
        batch=view.help_batch,
        **style,
    )
    view._play_texts.append(t)
    return y - t.content_height - 4


def _pairs(
    view: CampaignView, rows: tuple[tuple[str, str], ...], left: float, bottom: float, right: float, top: float
) -> None:
    """Two columns of (what, meaning) rows, in two halves side by side when they do not fit one."""
    half = (right - left - 20) / 2
    x, y = left, top
    for what, means in rows:
        if y < bottom + 30 and x == left:
            x, y = left + half + 20, top
        a = _text(view, what, x, y, 170, bold=True)
        b = _text(view, means, x + 176, y, half - 180)
        y = min(a, b) - 2


def _controls(view: CampaignView, left: float, bottom: float, right: float, top: float) -> None:
    _pairs(view, CONTROLS, left, bottom, right, top)


def _legend(view: CampaignView, left: float, bottom: float, right: float, top: float) -> None:
    """Each symbol drawn as the map draws it, then its name and meaning."""
    half = (right - left - 20) / 2
    x, y = left, top
    for sample, what, means in LEGEND:
        if y < bottom + 30 and x == left:
            x, y = left + half + 20, top
        if sample:
            _sample(view, sample, x + 14, y - 9)
        a = _text(view, what, x + 36, y, 184, bold=True)
        b = _text(view, means, x + 226, y, half - 230)
        y = min(a, b, y - 24) - 2


def _sample(view: CampaignView, sample: str, cx: float, cy: float) -> None:
    """A legend's sample: a swatch or a line in the map's colours, or the map's own marker."""
    kind, _, arg = sample.partition(":")
    shapes = view.help_shapes
    if kind == "fill":
        shapes.append(shape_list.create_rectangle_filled(cx, cy, 26, 14, rgba(OWNER_FILL[owner_of(arg)])))
        shapes.append(shape_list.create_rectangle_outline(cx, cy, 26, 14, rgba(BG_TOP), 1))
    elif kind == "line":
        color, width, dashed = {
            "road": (ROAD_NAMED, 3.0, False),
            "cross": (CROSS_COUNTRY, 1.4, True),
            "strait": (STRAIT, 3.0, True),
            "border": (PROVINCE_BORDER, 1.6, True),
        }[arg]
        steps = 3 if dashed else 1
        for k in range(steps):
            a = cx - 13 + k * 26 / steps
            shapes.append(
                shape_list.create_line(a, cy, a + 26 / steps * (0.6 if dashed else 1), cy, rgba(color), width)
            )
    else:
        texture, tint = _marker(kind, arg)
        sprite = arcade.Sprite(texture, center_x=cx, center_y=cy)
        sprite.scale = 22 / markers.SIZE
        if tint is not None:
            sprite.color = tint
        view.help_sprites.append(sprite)


def _marker(kind: str, arg: str) -> tuple[arcade.Texture, tuple[int, int, int, int] | None]:
    """The map's own marker texture for a legend row (``campaign.view.markers``)."""
    makers: dict[str, Callable[[], arcade.Texture]] = {
        "city": lambda: markers.city_texture("neutral", False, False),
        "capital": lambda: markers.city_texture("neutral", True, False),
        "income": lambda: markers.city_texture("neutral", True, True),
        "anchor": markers.anchor_texture,
        "colony": markers.colony_texture,
        "region": lambda: markers.region_texture("neutral"),
        "pass": markers.pass_texture,
        "counter": lambda: markers.counter_texture("caesarian", False),
        "counter-leader": lambda: markers.counter_texture("caesarian", True),
        "ring": markers.select_ring_texture,
    }
    color = {"gold": rgba(GOLD), "green": rgba((40, 120, 60))}.get(arg) if kind == "ring" else None
    return makers[kind](), color


def owner_of(name: str) -> OwnerKind:
    kinds: dict[str, OwnerKind] = {"caesarian": "caesarian", "senatorial": "senatorial", "client": "client"}
    return kinds.get(name, "neutral")


def _sequence(view: CampaignView, left: float, bottom: float, right: float, top: float) -> None:
    """The turn's steps (campaign.md §7.2), the one now marked and in gold."""
    s = view.game.state
    y = _text(view, f"{view.game.date_label()} — the turn in order (campaign.md §7.2):", left, top, right - left)
    for label, now in sequence_of_play(s.active, s.phase):
        mark = "▶ " if now else "    "
        color = rgba(HIGHLIGHT) if now else INK
        y = _text(
            view, mark + label + ("  (now)" if now else ""), left + 10, y, right - left - 20, color=color, bold=now
        )
    note = view.game.phase_note()
    if note:
        _text(view, note, left, y - 8, right - left, color=DIM)


def _rules(view: CampaignView, left: float, bottom: float, right: float, top: float) -> None:
    """The search line, the matching sections a page at a time, and the section chosen."""
    query = view.help_query
    y = _text(view, f"Search the rules: {query}▏", left, top, LIST_W + 200, size=11, bold=True)
    y = _text(view, "Type words to search; Backspace deletes.", left, y, LIST_W, color=DIM, size=8.5)
    sections = rule_sections()
    hits = search(sections, query)
    rows = max(3, int((y - bottom - 40) / ROW_H))
    pages = max(1, -(-len(hits) // rows))
    page = min(view.pages.get("help:rules", 0), pages - 1)
    view.pages["help:rules"] = page
    if not hits:
        _text(view, "No section holds all these words.", left, y, LIST_W, color=DIM)
    for sec in hits[page * rows : (page + 1) * rows]:
        index = sections.index(sec)
        b = view._add_button(
            f"help:section:{index}",
            plain(f"{sec.doc} §{sec.number}  {sec.title}" if sec.number else f"{sec.doc}  {sec.title}"),
            left,
            y - 26,
            LIST_W,
            partial(_show, view, index),
            height=24,
            size=8.5,
            tip=f"Read {sec.cite()}: {sec.title}",
        )
        y = b.bottom - 4
    if pages > 1:
        half = (LIST_W - 70) / 2
        view._add_button(
            "help:page:-1", "‹ Previous", left, bottom, half, partial(_page, view, -1), tip="Earlier matches"
        )
        view._add_button(
            "help:page:1", "Next ›", left + LIST_W - half, bottom, half, partial(_page, view, 1), tip="More matches"
        )
        _text(view, f"{page + 1} of {pages}", left + LIST_W / 2 - 20, bottom + 19, 60, color=DIM, size=9)
    shown = view.help_section if view.help_section >= 0 else (sections.index(hits[0]) if hits else -1)
    if shown >= 0:
        _section(view, shown, left + LIST_W + 20, bottom, right, top)


def _show(view: CampaignView, index: int) -> None:
    view.help_section, view.help_scroll = index, 0
    view._hud_key = None


def _page(view: CampaignView, step: int) -> None:
    view.pages["help:rules"] = max(0, view.pages.get("help:rules", 0) + step)
    view._hud_key = None


def _section(view: CampaignView, index: int, left: float, bottom: float, right: float, top: float) -> None:
    """A section's text from its paragraph ``help_scroll`` on, as much as fits (the wheel
    scrolls it by paragraphs)."""
    sec = rule_sections()[index]
    y = _text(view, f"{sec.cite()} — {sec.title}", left, top, right - left, color=rgba(GOLD), size=12, bold=True)
    paragraphs = [p for p in plain(sec.text).split("\n\n") if p.strip()]
    view.help_scroll = min(view.help_scroll, max(0, len(paragraphs) - 1))
    start = view.help_scroll
    for i, para in enumerate(paragraphs[start:], start):
        t = arcade.Text(
            " ".join(para.split()) if not para.lstrip().startswith(("|", "-", "1.")) else para,
            left,
            y,
            INK,
            9.5,
            font_name=SANS,
            multiline=True,
            width=int(right - left),
            anchor_y="top",
            batch=view.help_batch,
        )
        if y - t.content_height < bottom + 24 and i > start:
            t.visible = False
            more = len(paragraphs) - i
            _text(
                view,
                f"… {more} more paragraph{'s' if more != 1 else ''}: scroll the wheel.",
                left,
                y,
                400,
                color=DIM,
                size=8.5,
            )
            break
        view._play_texts.append(t)
        y -= t.content_height + 6
