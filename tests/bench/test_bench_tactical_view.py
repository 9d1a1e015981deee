"""Tactical window redraw (issue 5 §5): the full Pharsalus map with every counter, a unit
selected with its reachable hexes, must redraw in <= 16.7 ms median under Mesa llvmpipe.

Each round is one ``on_draw`` plus ``ctx.finish()`` so the (software) GPU work is inside
the time.  The worst ordinary frame is the one after a change (an action, a selection, a
pan): every layer is drawn again — the ground copied from its texture, highlights,
counters, labels, HUD — into the offscreen framebuffer, which is then copied to the
screen.  A still frame is only that copy.  A zoom step also renders the ground texture
again (measured separately: it happens once per wheel step, not per frame).
Run by ``bellum bench``; medians in docs/PERFORMANCE.md.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.conftest import render


def _pharsalus(window: Any) -> Any:
    from tactical.view.app import battle_view
    from tactical.view.shot import default_scenario, opening

    view = battle_view(default_scenario())
    opening(view)
    assert view.selected is not None and view.reach
    render(window, view)
    view.fit_world()  # the whole field: every counter on the screen
    return view


def test_bench_tactical_redraw_every_layer(benchmark: Any, window: Any) -> None:
    """A frame after a change: every layer of the whole field drawn again."""
    view = _pharsalus(window)
    on_screen = [s for s in view.sprites if 0 <= view.screen_point(*s.position)[0] <= window.width]
    assert len(on_screen) == len(view.sprites) > 200

    def frame() -> None:
        view._version += 1
        view.on_draw()
        window.ctx.finish()

    for _ in range(5):
        frame()
    benchmark.pedantic(frame, rounds=120, iterations=1)


@pytest.mark.benchmark(timer=time.process_time)
def test_bench_tactical_redraw_every_layer_cpu(benchmark: Any, window: Any) -> None:
    """The same frame timed in CPU seconds of the whole process (llvmpipe's threads included):
    the work a frame costs, whatever else the shared machine is running.  With the
    rasteriser's threads in parallel the wall time on an idle machine is at most this."""
    view = _pharsalus(window)

    def frame() -> None:
        view._version += 1
        view.on_draw()
        window.ctx.finish()

    for _ in range(5):
        frame()
    benchmark.pedantic(frame, rounds=120, iterations=1)


@pytest.mark.benchmark(timer=time.process_time)
def test_bench_tactical_still_frame_cpu(benchmark: Any, window: Any) -> None:
    """The still frame (the copy to the window's 4x-multisampled screen) in CPU seconds."""
    view = _pharsalus(window)

    def frame() -> None:
        view.on_draw()
        window.ctx.finish()

    for _ in range(5):
        frame()
    benchmark.pedantic(frame, rounds=120, iterations=1)


def test_bench_tactical_redraw_every_layer_zoomed(benchmark: Any, window: Any) -> None:
    """The same at full counter size (zoom 1.0), where the ground fills the map area."""
    view = _pharsalus(window)
    view.centre_on_action(zoom=1.0)

    def frame() -> None:
        view._version += 1
        view.on_draw()
        window.ctx.finish()

    for _ in range(5):
        frame()
    benchmark.pedantic(frame, rounds=120, iterations=1)


def test_bench_tactical_still_frame(benchmark: Any, window: Any) -> None:
    """Nothing changed: the last picture copied to the screen."""
    view = _pharsalus(window)

    def frame() -> None:
        view.on_draw()
        window.ctx.finish()

    for _ in range(5):
        frame()
    benchmark.pedantic(frame, rounds=120, iterations=1)


def test_bench_tactical_zoom_step(benchmark: Any, window: Any) -> None:
    """A wheel step: the ground texture rendered at the new zoom, then every layer."""
    view = _pharsalus(window)
    zooms = iter([0.8, 0.65] * 1000)

    def frame() -> None:
        view.world_camera.zoom = next(zooms)
        view.on_draw()
        window.ctx.finish()

    frame()
    benchmark.pedantic(frame, rounds=20, iterations=1)


def test_bench_tactical_sync_after_a_move(benchmark: Any, window: Any) -> None:
    """The model side of a frame after an action: re-sync the counters (one moved) and the HUD."""
    from tactical.actions import Move

    view = _pharsalus(window)
    before = view.session.state
    move = next(a for a in view.legal() if isinstance(a, Move) and a.unit in view.state.units)
    view.play(move)
    after = view.session.state

    def sync() -> None:
        view.session.state = before
        view.counters.sync(view.state)
        view.session.state = after
        view.counters.sync(view.state)

    benchmark.pedantic(sync, rounds=50, iterations=1)
    assert view.counters.changed <= 3


def test_bench_tactical_click_select_and_draw(benchmark: Any, window: Any) -> None:
    """A click that selects another unit, end to end: its reachable hexes (the movement search,
    filtered by the generator's moves), the highlights and cost labels, the HUD, the frame."""
    view = _pharsalus(window)
    from tactical.actions import Move

    movers = sorted({a.unit for a in view.legal() if isinstance(a, Move) and a.unit in view.state.units})[:2]
    assert len(movers) == 2
    turn = iter(movers * 1000)

    def click() -> None:
        view.select(next(turn))
        view.on_draw()
        window.ctx.finish()

    click()
    benchmark.pedantic(click, rounds=40, iterations=1)
