"""The tactical window driven headless through real activations: selection, move, turn,
shock with the exact-odds panel, Continuity, undo, save and load — checked on the model
and on the screenshot."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, render

SHOCK_POSITION = """
rules = "simple-spqr"
[map]
columns = 10
rows = 8
[[units]]
id = "A1"
side = "A"
type = "LG"
size = 6
tq = 7
ma = 5
hex = "0505"
facing = 12
roman = true
[[units]]
id = "A2"
side = "A"
type = "LG"
size = 6
tq = 7
ma = 5
hex = "0705"
facing = 12
roman = true
[[units]]
id = "B1"
side = "B"
type = "LG"
size = 6
tq = 6
ma = 5
hex = "0504"
facing = 6
roman = true
[[leaders]]
id = "LA"
side = "A"
hex = "0506"
initiative = 5
range = 4
[[leaders]]
id = "LB"
side = "B"
hex = "0503"
initiative = 4
range = 4
[sequence]
side = "A"
leader = "LA"
phase = "move"
[withdrawal]
A = 20
B = 20
"""


def _view(scenario: str = "demo", seed: int = 1) -> Any:
    from tactical.view.app import battle_view

    return battle_view(scenario, seed=seed)


def _begin(view: Any) -> None:
    """Start the battle and activate Caesar (the demo's elite commander goes first)."""
    view.play(view.choices[0].action)  # start
    caesar = next(c for c in view.choices if "Caesar" in c.label)
    assert view.play(caesar.action)
    assert view.state.seq.phase == "move" and view.state.seq.leader == "Caesar"


def _pixel(view: Any, image: Any, hex_index: int, dx: float = 0.0, dy: float = 0.0) -> tuple[int, int, int]:
    x, y = view.layout.centre(hex_index)
    sx, sy = view.screen_point(x + dx, y + dy)
    return tuple(image.convert("RGB").getpixel((int(sx), int(view.window.height - sy))))  # type: ignore[return-value]


def test_select_highlights_exactly_the_generators_moves(window: Any) -> None:
    from tactical.actions import Move

    view = _view()
    _begin(view)
    render(window, view)
    before = render(window, view)
    view.select("A5")
    after = render(window, view)
    legal_paths = {a.path for a in view.legal() if isinstance(a, Move) and a.unit == "A5" and a.carry is None}
    assert view.selected == "A5" and view.reach
    assert {path for _cost, path in view.nodes.values()} == legal_paths
    grid = view.state.field.grid
    start = view.state.units["A5"].hex
    ends = {next((grid.index(t) for t in reversed(p) if not t.startswith("face:")), start) for p in legal_paths}
    assert set(view.reach) == ends
    target = max(view.reach, key=lambda h: (grid.distance(h, view.state.units["A5"].hex), h))
    if view.state.units_at(target):
        target = next(h for h in view.reach if not view.state.units_at(h) and not view.state.leaders_at(h))
    p0, p1 = _pixel(view, before, target, 8, 6), _pixel(view, after, target, 8, 6)
    assert p1 != p0 and p1[0] > p0[0] and p1[1] > p0[1]  # the yellow move highlight


def test_click_moves_by_the_generators_path_and_undo_takes_it_back(window: Any) -> None:
    view = _view()
    _begin(view)
    view.select("A5")
    unit = view.state.units["A5"]
    start = unit.hex
    target = next(h for h in sorted(view.reach) if view.state.field.grid.distance(h, start) == 2)
    render(window, view)
    view.click_world(*view.layout.centre(target))
    moved = view.state.units["A5"]
    assert moved.hex == target
    assert view.session.actions[-1]["action"].startswith("move A5")
    shot = render(window, view)
    assert _pixel(view, shot, target) != _pixel(view, shot, start)  # a counter now stands there
    assert view.session.can_undo()
    assert view.undo()
    assert view.state.units["A5"].hex == start


def test_turn_in_place_by_key_and_by_corner_click(window: Any) -> None:
    import arcade

    view = _view()
    _begin(view)
    view.select("A5")
    facing = view.state.units["A5"].facing
    render(window, view)
    view.on_key_press(arcade.key.E, 0)
    assert view.state.units["A5"].facing == (facing + 1) % 6
    assert view.session.actions[-1]["action"] == f"move A5 face:{(2, 4, 6, 8, 10, 12)[facing]}"
    view.undo()
    view.select("A5")
    h = view.state.units["A5"].hex
    wx, wy = view.layout.vertex(h, (facing - 1) % 6, 0.8)
    view.click_world(wx, wy)
    assert view.state.units["A5"].facing == (facing - 1) % 6
    shot = render(window, view)
    notch = _pixel(
        view,
        shot,
        h,
        *(v - c for v, c in zip(view.layout.vertex(h, (facing - 1) % 6, 0.78), view.layout.centre(h), strict=True)),
    )
    assert notch[0] > 200 and notch[1] > 190  # the yellow facing notch at the new vertex


def test_shock_odds_panel_shows_the_exact_odds_and_confirm_plays_it(window: Any, tmp_path: Path) -> None:
    from tactical.odds import result_marginal, shock_odds

    path = tmp_path / "shock.toml"
    path.write_text(SHOCK_POSITION)
    view = _view(str(path))
    render(window, view)
    view.select("A1")
    assert "B1" in view.targets
    before = render(window, view)
    view.click_world(*view.layout.centre(view.state.field.grid.index("0504")))
    assert view.pending is not None and view.pending.target == "B1"
    expected = result_marginal(shock_odds(view.state, view.pending.action))
    assert view.pending.odds == expected
    for result, p in expected.items():
        assert f"{result or 'no result'}: {float(p) * 100:.1f}%" in view.t_odds.text
    assert abs(sum(expected.values()) - 1) == 0
    panel = render(window, view)
    box = (window.width - 330, 150, window.width - 10, 400)
    assert before.crop(box).tobytes() != panel.crop(box).tobytes()
    rolls = len(view.session.dice.rolls)
    assert view.confirm()
    assert len(view.session.dice.rolls) > rolls
    assert any(e.kind == "shock" for e in view.session.log)
    assert not view.session.can_undo()  # dice were rolled
    assert not view.undo() and "dice" in view.message.lower()


def test_continuity_choice_shows_its_odds_and_rolls(window: Any) -> None:
    from tactical.actions import Continuity, Pass
    from tactical.view.battle import continuity_odds

    view = _view()
    _begin(view)
    for _ in range(6):
        if view.state.seq.phase == "continuity":
            break
        assert any(isinstance(a, Pass) for a in view.legal())
        view.play(Pass())
    assert view.state.seq.phase == "continuity"
    render(window, view)
    picks = [c for c in view.choices if isinstance(c.action, Continuity)]
    assert picks
    for c in picks:
        assert f"({float(continuity_odds(view.state, c.action)) * 100:.1f}%)" in c.label
    shot = render(window, view)
    assert any(t.text.startswith("1. ") for t in view.t_choices)
    rolls = len(view.session.dice.rolls)
    y = view.choice_top - 20 - 22 * view.choices.index(picks[0])
    view.on_mouse_press(window.width - 100, int(y + 4), 1, 0)  # click the button
    assert len(view.session.dice.rolls) == rolls + 1 or view.state.seq.phase != "continuity"
    assert view.session.actions[-1]["action"].startswith("continuity")
    assert shot.convert("RGB").getcolors(maxcolors=100000)


def test_save_and_load_restore_the_game(window: Any, tmp_path: Path) -> None:
    view = _view()
    _begin(view)
    view.select("A5")
    view.turn(1)
    view.save_path = tmp_path / "t.toml"
    view.save()
    facing = view.state.units["A5"].facing
    view.undo()
    assert view.state.units["A5"].facing != facing
    assert view.load()
    assert view.state.units["A5"].facing == facing
    render(window, view)


def test_zoom_and_pan_move_the_world_but_not_the_hud(window: Any) -> None:
    view = _view()
    render(window, view)
    h = 0
    a = view.screen_point(*view.layout.centre(h))
    view.zoom(1)
    view.pan(40, 0)
    b = view.screen_point(*view.layout.centre(h))
    assert a != b
    shot = render(window, view)
    assert shot.convert("RGB").getpixel((window.width - 5, window.height // 2)) == (40, 32, 27)


def test_bellum_shot_tactical_writes_a_picture(tmp_path: Path) -> None:
    from PIL import Image

    out = tmp_path / "t.png"
    env = dict(os.environ)
    env.setdefault("ARCADE_HEADLESS", "1")
    proc = subprocess.run(
        [sys.executable, "-m", "bellum", "shot", "tactical", "--out", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    colours = Image.open(out).convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 20


def test_a_bad_scenario_is_one_sentence(tmp_path: Path) -> None:
    from bellum.errors import InputError

    bad = tmp_path / "bad.toml"
    bad.write_text(SHOCK_POSITION.replace('hex = "0505"', 'hex = "9999"'))
    with pytest.raises(InputError, match="9999"):
        _view(str(bad))
