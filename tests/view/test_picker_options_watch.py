"""The scenario picker, the options screen and watch mode in a real (hidden, headless) window,
driven by key presses as a person would (issue 16 items 3, 4 and 6): options toggled and then
seen in the engine's state, kept by a save and a load, every battle started from the picker,
a watched battle that advances and pauses, and no text cut or overlapping at 1280×800."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import arcade
import pytest

from battleboard.view.choose import BoardBattles
from bellum.settings import Settings, load_settings, save_settings
from bellum.view.menu import MenuView
from bellum.view.options import OptionsView
from bellum.view.picker import SEATS, BattlePicker
from bellum.view.watch import WatchView
from tactical.options import CHOICES
from tactical.state import OPTIONS
from tactical.view.choose import TacticalBattles
from tests.conftest import render

K = arcade.key
Box = tuple[float, float, float, float]


def box(t: arcade.Text) -> Box:
    return float(t.left), float(t.bottom), float(t.right), float(t.top)


def inside(inner: Box, outer: Box, slack: float = 1.0) -> bool:
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


def apart(a: Box, b: Box) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def press(view: Any, *keys: int) -> None:
    for k in keys:
        view.on_key_press(k, 0)


def picker_on(window: Any, source: Any, name: str, settings: Path) -> BattlePicker:
    picker = BattlePicker(MenuView(), source, settings_path=settings)
    render(window, picker)
    stems = [Path(p).stem for p in picker.paths]
    for _ in range(stems.index(name)):
        press(picker, K.DOWN)
    assert Path(picker.paths[picker.selected]).stem == name
    return picker


def colour_near(image: Any, colour: tuple[int, int, int], tol: int = 6) -> int:
    rgb = image.convert("RGB")
    return sum(
        n
        for n, (r, g, b) in rgb.getcolors(1 << 20)
        if abs(r - colour[0]) <= tol and abs(g - colour[1]) <= tol and abs(b - colour[2]) <= tol
    )


def test_tactical_options_toggled_reach_the_engine_and_survive_a_save(window: Any, tmp_path: Path) -> None:
    settings = tmp_path / "settings.toml"
    picker = picker_on(window, TacticalBattles(), "munda", settings)
    press(picker, K.O)
    options = window.current_view
    assert isinstance(options, OptionsView)
    before = render(window, options)
    keys = [c.key for c in CHOICES]
    for i in range(len(keys)):  # every tactical line one step on: sgboh, each toggle on, side A bids 20
        assert options.selected == i
        press(options, K.RIGHT, K.DOWN)
    after = render(window, options)
    assert colour_near(after, (120, 190, 110)) > colour_near(before, (120, 190, 110))  # the "on" outlines
    saved = load_settings(settings)
    assert set(saved.tactical) == OPTIONS | {"rules:sgboh", "rout-bid:A:20"}
    press(options, K.ESCAPE)
    assert window.current_view is picker
    press(picker, K.KEY_3)  # hotseat: nobody moves on his own
    press(picker, K.ENTER)
    battle: Any = window.current_view
    assert not picker.error and battle is not picker
    state = battle.session.state
    assert state.ruleset == "sgboh"
    assert state.options >= OPTIONS and "rout-bid:A:20" in state.options
    plain: Any = TacticalBattles().open(picker.battles[picker.selected], "hotseat", Settings(), picker)
    assert plain.state.ruleset == "charts-v1" and not OPTIONS & plain.state.options
    assert state.withdrawal["A"] < plain.state.withdrawal["A"]  # the bid was applied
    # F5 saves; a battle begun without options loads it (F9) and is back under its rules
    press(battle, K.F5)
    save_settings(Settings(), settings)
    picker.on_show_view()
    press(picker, K.ENTER)
    again: Any = window.current_view
    assert again is not battle and not OPTIONS & again.session.state.options
    press(again, K.F9)
    assert again.message == "Loaded."
    assert again.session.state.ruleset == "sgboh" and again.session.state.options >= OPTIONS


def test_battleboard_option_reaches_the_engine_and_survives_a_save(window: Any, tmp_path: Path) -> None:
    settings = tmp_path / "settings.toml"
    picker = picker_on(window, BoardBattles(), "mountain-pass", settings)
    press(picker, K.O)
    options = window.current_view
    assert [r.choice.key for r in options.rows] == ["light-l-as-b", "ai_strength", "speed"]
    press(options, K.SPACE, K.ESCAPE)
    assert load_settings(settings).battleboard == ["light-l-as-b"]
    press(picker, K.KEY_3, K.ENTER)
    battle: Any = window.current_view
    assert battle.state.cfg.options == frozenset({"light-l-as-b"})
    press(battle, K.F5)
    save_settings(Settings(), settings)
    picker.on_show_view()
    press(picker, K.ENTER)
    again: Any = window.current_view
    assert again.state.cfg.options == frozenset()
    press(again, K.F9)
    assert again.state.cfg.options == frozenset({"light-l-as-b"})


@pytest.mark.parametrize("source", [TacticalBattles(), BoardBattles()], ids=["tactical", "battleboard"])
def test_the_picker_starts_every_battle(window: Any, tmp_path: Path, source: Any) -> None:
    picker = BattlePicker(MenuView(), source, settings_path=tmp_path / "settings.toml")
    render(window, picker)
    n = len(picker.battles)
    assert n >= (5 if source.engine == "tactical" else 4)
    for i in range(n):
        info = picker.battles[i]
        assert info.note and len(info.sides) == 2 and all(s.commanders for s in info.sides), info.title
        window.show_view(picker)
        assert picker.selected == i
        press(picker, K.ENTER)
        assert window.current_view is not picker, picker.error
        assert type(window.current_view).__name__ == "BattleView"
        press(picker, K.DOWN)
    assert picker.selected == 0


def test_seats_give_the_computer_the_other_side(window: Any, tmp_path: Path) -> None:
    picker = picker_on(window, TacticalBattles(), "zela", tmp_path / "s.toml")
    seen = {}
    for seat in SEATS:
        picker.seat = SEATS.index(seat)
        press(picker, K.ENTER)
        view = window.current_view
        seen[seat] = view.inner.ai_sides if isinstance(view, WatchView) else view.ai_sides
        window.show_view(picker)
    assert seen == {
        "A": frozenset("B"),
        "B": frozenset("A"),
        "hotseat": frozenset(),
        "watch": frozenset("AB"),
    }


@pytest.mark.parametrize(
    ("source", "name"), [(TacticalBattles(), "zela"), (BoardBattles(), "sea-interception")], ids=["tactical", "board"]
)
def test_watch_mode_advances_and_pauses(window: Any, tmp_path: Path, source: Any, name: str) -> None:
    picker = picker_on(window, source, name, tmp_path / "s.toml")
    press(picker, K.KEY_4, K.ENTER)
    watch = window.current_view
    assert isinstance(watch, WatchView)
    assert watch.watched.progress() == 0
    for _ in range(6):
        watch.on_update(0.5)  # frame time only: each update is past the AI's delay
    moved = watch.watched.progress()
    assert moved >= 5
    press(watch, K.SPACE)
    assert watch.paused
    for _ in range(6):
        watch.on_update(0.5)
    assert watch.watched.progress() == moved
    press(watch, K.N)
    assert watch.watched.progress() == moved + 1 and watch.paused
    image = render(window, watch)
    assert watch.status().startswith("PAUSED")
    assert colour_near(image.crop((0, 800 - 30, 1280, 800)), (222, 184, 96), 10) > 50  # the bar's gold status
    press(watch, K.BRACKETRIGHT)
    assert watch.speed == "fast" and watch.inner.ai_delay < watch.base_delay
    press(watch, K.SPACE)
    watch.on_update(0.5)
    assert watch.watched.progress() > moved + 1
    press(watch, K.ESCAPE)
    assert window.current_view is picker.menu


def test_no_text_cut_or_overlapping(window: Any, tmp_path: Path) -> None:
    assert (window.width, window.height) == (1280, 800)
    screen = (0.0, 0.0, 1280.0, 800.0)
    options = OptionsView(MenuView(), path=tmp_path / "s.toml")
    render(window, options)
    vl = 1280 - 48 - 210
    for i, (left, bottom, _right, top) in enumerate(options.boxes):
        for t in (options.labels[i], options.lines[i]):
            b = box(t)
            assert inside(b, (left, bottom, vl - 6, top)), (t.text, b)
        assert inside(box(options.values[i]), (vl, bottom, vl + 210, top)), options.values[i].text
    for _k, t in enumerate(options.headings):
        assert all(apart(box(t), r) for r in options.boxes), t.text
        assert inside(box(t), screen)
    for source in (TacticalBattles(), BoardBattles()):
        picker = BattlePicker(MenuView(), source, settings_path=tmp_path / "s.toml")
        for i in range(len(picker.battles)):
            picker.selected = i
            render(window, picker)
            panel = (420.0, 40.0, 1264.0, 712.0)
            texts = [picker.title, picker.summary, picker.note, *picker.side_texts, picker.rules, picker.play_head]
            boxes = [box(t) for t in texts]
            for t, b in zip(texts, boxes, strict=True):
                assert inside(b, panel), (t.text, b)
            for a in range(len(boxes)):
                for c in range(a + 1, len(boxes)):
                    assert apart(boxes[a], boxes[c]), (texts[a].text, texts[c].text)
            seat_boxes = [(sb[0], sb[1], sb[2], sb[3]) for sb in picker.seat_boxes]
            for t, sb in zip(picker.seat_texts, seat_boxes, strict=True):
                assert inside(box(t), sb), t.text
            assert box(picker.hint)[3] <= seat_boxes[0][1] and box(picker.hint)[1] >= 100
            assert apart(box(picker.play_head), seat_boxes[0])
        for name, year in zip(picker.names, picker.years, strict=True):
            assert box(name)[2] < box(year)[0] and inside(box(name), (36, 0, 392, 800)), name.text
    watch = TacticalBattles().open(TacticalBattles().battles()[0], "watch", Settings(), MenuView())
    assert isinstance(watch, WatchView)
    render(window, watch)
    assert box(watch.bar)[2] < box(watch.state_text)[0]
    assert inside(box(watch.bar), screen) and inside(box(watch.state_text), screen)


def test_strength_and_speed_reach_the_battle_views(window: Any, tmp_path: Path) -> None:
    from battleboard.ai_baselines import GreedyPlayer as BoardGreedy
    from tactical.ai import TacticalAI
    from tactical.ai_baselines import GreedyPlayer

    easy_fast = Settings(ai_strength="easy", speed="fast")
    tac = TacticalBattles()
    info = next(b for b in tac.battles() if Path(b.path).stem == "zela")
    view: Any = tac.open(info, "A", easy_fast, MenuView())
    assert isinstance(view._ai, GreedyPlayer) and view.ai_delay == pytest.approx(0.35 / 2.5)
    strong: Any = tac.open(info, "A", Settings(ai_strength="strong"), MenuView())
    assert isinstance(strong._ai, TacticalAI) and strong._ai.exact_top == 3
    board = BoardBattles()
    bview: Any = board.open(board.battles()[0], "A", easy_fast, MenuView())
    assert getattr(bview.ai_choose, "__self__", None).__class__ is BoardGreedy
    assert bview.ai_delay == pytest.approx(0.12 / 2.5)


def test_the_mouse_picks_a_battle_a_seat_an_option_and_starts(window: Any, tmp_path: Path) -> None:
    settings = tmp_path / "s.toml"
    picker = BattlePicker(MenuView(), BoardBattles(), settings_path=settings)
    render(window, picker)

    def click(view: Any, b: Box) -> None:
        view.on_mouse_press(int((b[0] + b[2]) / 2), int((b[1] + b[3]) / 2), arcade.MOUSE_BUTTON_LEFT, 0)

    click(picker, picker.row_box(1))
    assert picker.selected == 1
    render(window, picker)
    click(picker, picker.button_boxes[1])  # Options…
    options: Any = window.current_view
    assert isinstance(options, OptionsView)
    render(window, options)
    click(options, options.boxes[0])
    assert load_settings(settings).battleboard == ["light-l-as-b"]
    press(options, K.ESCAPE)
    render(window, picker)
    click(picker, picker.seat_boxes[3])
    assert SEATS[picker.seat] == "watch"
    click(picker, picker.button_boxes[0])  # Start
    watch: Any = window.current_view
    assert isinstance(watch, WatchView) and watch.inner.state.cfg.options == frozenset({"light-l-as-b"})


def test_a_battle_that_cannot_start_says_why_above_the_buttons(window: Any, tmp_path: Path) -> None:
    settings = tmp_path / "s.toml"
    save_settings(Settings(tactical=["rout-bid:A:40"]), settings)
    picker = picker_on(window, TacticalBattles(), "gaugamela", settings)
    press(picker, K.ENTER)
    assert window.current_view is picker and "no Roman legion units" in picker.error
    render(window, picker)
    err = box(picker.err)
    assert inside(err, (420.0, 96.0, 1264.0, 712.0)) and err[3] <= box(picker.hint)[1]


@pytest.mark.parametrize(
    "argv", [["picker"], ["picker", "--scenario", "mountain-pass"], ["options"], ["watch", "--scenario", "zela"]]
)
def test_bellum_shot_renders_the_new_views(tmp_path: Path, argv: list[str]) -> None:
    import os
    import subprocess
    import sys

    from PIL import Image

    from tests.conftest import ROOT

    out = tmp_path / "view.png"
    env = {**os.environ, "BELLUM_HOME": str(tmp_path / "home")}
    r = subprocess.run(
        [sys.executable, "-m", "bellum", "shot", *argv, "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        env=env,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    image = Image.open(out)
    assert image.size == (1280, 800) and len(image.convert("RGB").getcolors(1 << 20) or []) > 20


def test_a_settings_file_that_cannot_be_read_is_kept_as_bak_before_it_is_rewritten(window: Any, tmp_path: Path) -> None:
    settings = tmp_path / "settings.toml"
    settings.write_text("tactical = [ 'not closed\n")
    broken = settings.read_bytes()
    options = OptionsView(path=settings)
    assert "keeps it as .bak" in options.message
    options.change(0)
    assert (tmp_path / "settings.toml.bak").read_bytes() == broken
    assert "kept as settings.toml.bak" in options.message
    load_settings(settings)  # the new file reads
    options.change(0)  # a second change keeps the .bak as it was
    assert (tmp_path / "settings.toml.bak").read_bytes() == broken
