"""bellum.view.textfit: texts fitted by measured pixels (a real, hidden window's fonts)."""

from __future__ import annotations

from typing import Any

import arcade

from bellum.view import textfit


def test_fit_shrinks_to_the_floor_then_ellipsizes(window: Any) -> None:
    text = arcade.Text("Caesar crosses the Rubicon", 0, 0, (0, 0, 0, 255), 15)
    room = text.content_width * 0.8
    textfit.fit(text, room, 15, floor=9)  # a smaller font is enough
    assert 9 <= text.font_size < 15 and text.text == "Caesar crosses the Rubicon"
    assert text.content_width <= room
    textfit.fit(text, 60, 15, floor=9)  # not even at the floor: words cut, an ellipsis
    assert text.font_size == 9 and text.text.endswith("…") and text.content_width <= 60


def test_ellipsize_keeps_a_text_that_fits_and_cuts_letters_last(window: Any) -> None:
    text = arcade.Text("Pharsalus", 0, 0, (0, 0, 0, 255), 12)
    textfit.ellipsize(text, text.content_width + 1)
    assert text.text == "Pharsalus"
    textfit.ellipsize(text, text.content_width / 2)
    assert text.text.endswith("…") and len(text.text) < len("Pharsalus")


def test_shrink_by_half_points_and_fit_lines(window: Any) -> None:
    text = arcade.Text("Marcus Antonius", 0, 0, (0, 0, 0, 255), 10)
    textfit.shrink(text, 1, 8.5, step=0.5)
    assert text.font_size == 8.5
    lines = arcade.Text("one\ntwo\nthree\nfour", 0, 0, (0, 0, 0, 255), 10, multiline=True, width=300)
    one_line = lines.content_height / 4
    textfit.fit_lines(lines, one_line * 2.5, keep="tail")
    assert lines.text.split("\n")[-1] == "four" and lines.content_height <= one_line * 2.5 + 1
