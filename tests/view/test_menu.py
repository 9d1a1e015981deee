"""The main menu in a real (hidden, headless) window: screenshots and input."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path
from typing import Any

import arcade
from PIL import Image

from bellum.view.menu import GOLD, MenuView
from tests.conftest import ROOT, render


def distinct_colors(image: Any) -> int:
    colors = image.convert("RGB").getcolors(maxcolors=1 << 20)
    return len(colors)


def test_menu_screenshot_is_not_blank(window: Any) -> None:
    image = render(window, MenuView())
    assert distinct_colors(image) > 20
    # the gold title is drawn in the top third
    top = image.convert("RGB").crop((0, 0, window.width, window.height // 3))
    assert any(
        abs(r - GOLD[0]) < 8 and abs(g - GOLD[1]) < 8 and abs(b - GOLD[2]) < 8
        for _, (r, g, b) in top.getcolors(1 << 20)
    )


def test_keyboard_moves_the_highlight_and_redraws(window: Any) -> None:
    view = MenuView()
    first = render(window, view)
    n = len(view.entries)
    view.on_key_press(arcade.key.DOWN, 0)
    assert view.selected == 1 % n
    view.on_key_press(arcade.key.UP, 0)
    view.on_key_press(arcade.key.UP, 0)
    assert view.selected == (n - 1) % n
    if n > 1:
        second = render(window, view)
        assert first.tobytes() != second.tobytes()


def test_mouse_hover_selects_entry(window: Any) -> None:
    view = MenuView()
    render(window, view)
    left, right, bottom, top = view.button_box(len(view.entries) - 1)
    view.on_mouse_motion((left + right) / 2, (bottom + top) / 2, 0, 0)
    assert view.selected == len(view.entries) - 1
    assert view.entries[-1].label == "Quit"


def test_bellum_shot_menu_writes_a_real_png(tmp_path: Path) -> None:
    out = tmp_path / "menu.png"
    r = subprocess.run(
        [sys.executable, "-m", "bellum", "shot", "menu", "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    image = Image.open(out)
    assert image.size == (1280, 800)
    assert distinct_colors(image) > 20


def test_shot_falls_back_to_xvfb(tmp_path: Path) -> None:
    """Where EGL is missing, `bellum shot` renders under xvfb-run (forced here)."""
    import os
    import shutil

    assert shutil.which("xvfb-run"), "xvfb-run is installed by `make test` (Debian package xvfb)"
    out = tmp_path / "menu-xvfb.png"
    env = {k: v for k, v in os.environ.items() if k not in ("ARCADE_HEADLESS", "DISPLAY")}
    env["BELLUM_SHOT_BACKEND"] = "xvfb"
    r = subprocess.run(
        [sys.executable, "-m", "bellum", "shot", "menu", "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=180,
        env=env,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    assert distinct_colors(Image.open(out)) > 20


def test_engine_pickers_list_scenarios_and_open_a_battle(window: Any) -> None:
    """The shared battle picker (bellum/view/picker.py) behind both engines' menu entries."""
    import battleboard.view.entry as bb_entry
    import tactical.view.entry as tac_entry

    menu = MenuView()
    for entry in (bb_entry, tac_entry):
        entry.launch(window, menu)
        picker = window.current_view
        assert picker.paths and len(picker.names) == len(picker.paths)
        render(window, picker)
        picker.on_key_press(arcade.key.DOWN, 0)
        assert picker.selected == 1 % len(picker.paths)
        picker.on_key_press(arcade.key.H, 0)  # hotseat
        picker.on_key_press(arcade.key.ENTER, 0)  # open the chosen battle
        assert window.current_view is not picker and not picker.error
        window.show_view(menu)


def test_every_entry_fits_between_the_title_and_the_footer(window: Any) -> None:
    """More entries (Options, and those to come) shrink the buttons instead of running off."""
    view = MenuView()
    render(window, view)
    labels = [e.label for e in view.entries]
    assert "Options" in labels and labels[-1] == "Quit"
    for _extra in range(3):
        boxes = [view.button_box(i) for i in range(len(view.entries))]
        assert boxes[0][3] <= window.height * 0.56
        assert boxes[-1][2] - 34 - 12 > view.footer.top  # the blurb between the last button and the footer
        for a, b in itertools.pairwise(boxes):
            assert a[2] > b[3]  # no overlap
        view.entries.insert(1, view.entries[1])
