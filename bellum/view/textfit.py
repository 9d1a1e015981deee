"""Fitting a text into the room it has, by measured pixels (never by counting characters):
first a smaller font, down to a floor, then the words cut and an ellipsis put at the end.
Every window's labels use these (the battle picker, the battleboard's counters, the tactical
panel, the campaign's save screens).

The measure is arcade's own (``Text.content_width`` / ``content_height``), so what fits here
fits on the screen.
"""

from __future__ import annotations

import arcade

ELLIPSIS = "…"


def shrink(text: arcade.Text, width: float, floor: float, step: float = 1.0) -> None:
    """Make ``text``'s font smaller by ``step`` points until it fits ``width`` pixels or its
    size reaches ``floor``."""
    while text.content_width > width and text.font_size - step >= floor - 1e-9:
        text.font_size -= step


def ellipsize(text: arcade.Text, width: float) -> None:
    """Shorten a one-line text to ``width`` pixels, ending it with an ellipsis: whole words
    first while more than one is left, then letters."""
    if text.content_width <= width:
        return
    words = text.text.split(" ")
    while len(words) > 1 and text.content_width > width:
        words.pop()
        text.text = " ".join(words) + " " + ELLIPSIS
    while len(text.text) > 1 and text.content_width > width:
        text.text = text.text[:-2].rstrip() + ELLIPSIS


def fit(text: arcade.Text, width: float, size: float | None = None, floor: float | None = None) -> None:
    """Fit a one-line text into ``width`` pixels: set its font to ``size`` (when given), make
    it smaller down to ``floor`` points (when given), then ellipsize what still overflows."""
    if size is not None:
        text.font_size = size
    if floor is not None:
        shrink(text, width, floor)
    ellipsize(text, width)


def fit_lines(text: arcade.Text, height: float, keep: str = "head") -> None:
    """Drop whole lines of a multiline text (the last ones for ``keep="head"``, the first for
    ``"tail"``) until it fits ``height`` pixels."""
    lines = text.text.split("\n")
    while len(lines) > 1 and text.content_height > height:
        lines = lines[:-1] if keep == "head" else lines[1:]
        text.text = "\n".join(lines)
