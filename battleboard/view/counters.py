"""The board's pieces drawn on a ``Canvas``: named counters with their type symbol, strength,
morale badge and state marks, fleets with their passengers (the active one first), the
row and column labels in the log's notation, and the callout of the last attack's dice."""

from __future__ import annotations

from dataclasses import dataclass

import arcade

from battleboard.model import Board, State, Unit
from battleboard.view.canvas import Canvas
from battleboard.view.words import KIND_TAGS, STATE_MARKS, Words, passengers, short_name

INK = (236, 222, 190)
DIM = (170, 150, 130)
DARK_INK = (40, 30, 26)
BADGE = (30, 26, 22)
GOLD = (222, 184, 96, 255)
SELECT_HL = (255, 240, 160, 255)
CAESARIAN, SENATORIAL = (176, 36, 40), (112, 48, 128)  # Caesarian red, Senatorial purple
SIDE_COLORS = {"A": CAESARIAN, "B": SENATORIAL}  # by letter, when the factions are not known


def faction_colors(factions: dict[str, str]) -> dict[str, tuple[int, int, int]]:
    """Each side's colour by its faction ("caesarian", "Pompeians"...): Caesar's red, the
    Senate's purple; the letters' colours when the factions do not tell them apart."""

    def color(name: str) -> tuple[int, int, int] | None:
        low = name.lower()
        if "caesar" in low:
            return CAESARIAN
        if any(w in low for w in ("senat", "pompe", "optimat")):
            return SENATORIAL
        return None

    got = {side: color(name) for side, name in factions.items()}
    a, b = got.get("A"), got.get("B")
    if a is not None and b is not None and a != b:
        return {"A": a, "B": b}
    if a is not None and b is None:
        return {"A": a, "B": SENATORIAL if a == CAESARIAN else CAESARIAN}
    if b is not None and a is None:
        return {"B": b, "A": SENATORIAL if b == CAESARIAN else CAESARIAN}
    return dict(SIDE_COLORS)


#: the discipline letter's colour in a counter's badge: gold Imperator to grey Mob
DISCIPLINE_COLORS = {
    "I": (240, 200, 90),
    "V": (236, 222, 190),
    "R": (170, 200, 230),
    "M": (170, 160, 150),
    "B": (220, 150, 110),
}
MARK_COLORS = {"F": (255, 120, 100), "a": (236, 222, 190), "m": (236, 222, 190)}
CALLOUT = (20, 16, 14, 235)


def counter_labels(u: Unit, name: str, limit: int = 10) -> tuple[str, str, str]:
    """What a counter shows: (morale badge, short name, type and strength), e.g.
    ``("V", "Legio X", "Lg 5")``; a fleet's last line is ``"Fl 3"`` (its passengers are chips)."""
    return u.discipline, short_name(name, limit), f"{KIND_TAGS.get(u.kind, u.kind[:2])} {u.strength}"


def state_mark(u: Unit) -> str:
    """The counter's state letter: failed its check, attacked, or moved this player turn."""
    if u.failed:
        return STATE_MARKS["failed"]
    if u.attacked:
        return STATE_MARKS["attacked"]
    return STATE_MARKS["moved"] if u.moved else ""


def pale(color: tuple[int, int, int]) -> tuple[int, int, int]:
    r, g, b = color
    return (r + 255) // 2, (g + 255) // 2, (b + 255) // 2


def draw_counter(
    cv: Canvas,
    s: State,
    u: Unit,
    at: tuple[float, float, float],
    words: Words,
    selected: bool,
    colors: dict[str, tuple[int, int, int]] = SIDE_COLORS,
) -> None:
    """One counter centred at ``at`` (x, y, the square's size): morale badge top left, name
    in the middle, type and strength below, a state mark bottom right; a disrupted counter
    is pale and lettered in dark ink; ``colors`` the sides' colours."""
    x, y, cell = at
    color = pale(colors[u.side]) if u.flipped else colors[u.side]
    ink = DARK_INK if u.flipped else INK
    if selected:
        cv.box(x, y, cell * 0.95, cell * 0.95, SELECT_HL)
    cv.box(x, y, cell * 0.86, cell * 0.86, color)
    if u.captured:  # a captured ship flies the captor's colours over the owner's hull: a strip
        cv.box(x + cell * 0.36, y, cell * 0.08, cell * 0.5, colors[u.owner])
    badge, name, below = counter_labels(u, words.name(u.id), 12)
    bs = max(10.0, cell * 0.22)
    bx, by = x - cell * 0.43 + bs / 2, y + cell * 0.43 - bs / 2
    cv.box(bx, by, bs, bs, BADGE)
    cv.text(badge, bx, by, DISCIPLINE_COLORS.get(u.discipline, INK), max(6.0, cell * 0.12), center=True, bold=True)
    fleet = u.kind == "fleet"
    size = max(6.0, min(10.0, cell * 0.12))
    label = cv.text(name, x, y + cell * (0.085 if fleet else 0.05), ink, size, center=True, bold=True)
    fit_name(label, words.name(u.id), cell * 0.84 - 4)
    cv.text(below, x, y - cell * (0.095 if fleet else 0.2), ink, size, center=True)
    mark = state_mark(u)
    if mark:
        mx, my = x + cell * 0.43 - bs / 2, y - cell * 0.43 + bs / 2
        if not fleet:
            cv.box(mx, my, bs, bs, BADGE)
            cv.text(mark, mx, my, MARK_COLORS[mark], max(6.0, cell * 0.12), center=True, bold=True)
    if fleet:
        _passenger_chips(cv, s, u, x, y, cell, mark)


def fit_name(label: arcade.Text, full: str, room: float) -> None:
    """Fit a counter's name into ``room`` pixels: a little smaller (to 8.5 points), then
    abbreviated by rule (``short_name``) to 8 letters, then smaller still (to 7.5 points),
    then abbreviated further."""
    limit = len(label.text)
    for floor_size, floor_limit in ((8.5, 8), (7.5, 3)):
        while label.content_width > room and label.font_size > floor_size:
            label.font_size -= 0.5
        while label.content_width > room and limit > floor_limit:
            limit -= 1
            label.text = short_name(full, limit)


def _passenger_chips(cv: Canvas, s: State, u: Unit, x: float, y: float, cell: float, mark: str) -> None:
    """A fleet's passengers as chips along its foot, the active ground unit first and in gold."""
    aboard = passengers(s, u)
    slots = max(2, len(aboard)) + (1 if mark else 0)
    width = cell * 0.82 / slots
    first = aboard[0] if aboard and s.units[aboard[0]].kind != "impeditus" else None
    py = y - cell * 0.27
    for i, pid in enumerate(aboard):
        px = x - cell * 0.41 + width * (i + 0.5)
        if pid == first:
            cv.box(px, py, width - 1, cell * 0.22, GOLD)
        p = s.units[pid]
        cv.box(px, py, width - 5, cell * 0.17, (236, 222, 190) if not p.flipped else (150, 140, 130))
        if cell >= 44:
            tag = KIND_TAGS.get(p.kind, p.kind[:2]) + str(p.strength)
            cv.text(tag, px, py, DARK_INK, max(6.0, min(cell * 0.1, (width - 6) / 2.2)), center=True)
    if mark:
        mx = x + cell * 0.41 - width / 2
        cv.box(mx, py, width - 5, cell * 0.17, (30, 26, 22))
        cv.text(mark, mx, py, MARK_COLORS[mark], max(6, cell * 0.1), center=True, bold=True)


def draw_labels(cv: Canvas, b: Board, origin: tuple[float, float], cell: float) -> None:
    """Column letters under the board and row numbers left of it: the log's "d5"."""
    ox, oy = origin
    for c in range(b.columns):
        cv.text(chr(ord("a") + c), ox + (c + 0.5) * cell, oy - 11, DIM, 11, center=True, bold=True)
    for r in range(b.rows):
        cv.text(str(r + 1), ox - 13, oy + (r + 0.5) * cell, DIM, 11, center=True, bold=True)


@dataclass(frozen=True)
class Callout:
    """The last attack on the board: where, the dice faces, the combat results and what came of it."""

    square: int  # the target's
    lines: tuple[str, ...]
    source: int | None = None  # the attacker's (its fleet's, when boarding)


Rect = tuple[float, float, float, float]  # left, bottom, right, top


def _overlap(a: Rect, b: Rect) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def draw_callout(cv: Canvas, c: Callout, x: float, y: float, cell: float, area: Rect, pieces: list[Rect]) -> None:
    """A box by the target square (x, y) with the attack's dice and result: to its right,
    left, above or below — wherever it hides the least of the other ``pieces`` — and kept
    inside ``area`` (the board's part of the window)."""
    w = 270.0
    last = len(c.lines) - 1
    texts = [
        cv.para(line, 0, 0, w - 16, GOLD if i == 0 else DIM if i == last else INK, 9 if i == last else 10, bold=i == 0)
        for i, line in enumerate(c.lines)
    ]
    h = 12 + sum(t.content_height for t in texts)
    half = cell / 2
    spots = [(x + half, y + h / 2), (x - half - w, y + h / 2), (x - w / 2, y + half + h), (x - w / 2, y - half)]
    best: tuple[float, float, float] | None = None
    for left, top in spots:
        left = min(max(area[0], left), area[2] - w)
        top = min(max(area[1] + h, top), area[3])
        rect = (left, top - h, left + w, top)
        hidden = sum(_overlap(rect, p) for p in pieces) + 4 * _overlap(rect, (x - half, y - half, x + half, y + half))
        if best is None or hidden < best[0]:
            best = (hidden, left, top)
    assert best is not None
    _, left, top = best
    cv.box(left + w / 2, top - h / 2, w, h, CALLOUT)
    cv.frame(left + w / 2, top - h / 2, w, h, GOLD, 2)
    at = top - 6
    for t in texts:
        t.position = (left + 8, at)
        at -= t.content_height
