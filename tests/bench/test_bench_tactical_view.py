"""Tactical window redraw (issue 5 §5): the full Pharsalus map (the demo field until the
scenario exists) with every counter, a unit selected with its reachable hexes, must
redraw in <= 16.7 ms median under Mesa llvmpipe.  Each round is one ``on_draw`` plus
``ctx.finish()`` so the GPU (software) work is inside the time.  A still frame copies
the framebuffer the view drew when something last changed; the second benchmark
redraws every layer each frame (a frame after an action, a selection or a pan).  Run by ``bellum bench``.
"""

from __future__ import annotations

from typing import Any

from tests.conftest import render


def test_bench_tactical_redraw_full_map(benchmark: Any, window: Any) -> None:
    from tactical.view.app import battle_view
    from tactical.view.shot import default_scenario, opening

    view = battle_view(default_scenario())
    opening(view)
    assert view.selected is not None and view.reach
    render(window, view)

    def frame() -> None:
        view.on_draw()  # the view covers the whole screen itself
        window.ctx.finish()

    for _ in range(5):
        frame()
    benchmark.pedantic(frame, rounds=120, iterations=1)


def test_bench_tactical_redraw_every_layer(benchmark: Any, window: Any) -> None:
    """The worst frame: something changed, so every layer is drawn again (then copied)."""
    from tactical.view.app import battle_view
    from tactical.view.shot import default_scenario, opening

    view = battle_view(default_scenario())
    opening(view)
    render(window, view)

    def frame() -> None:
        view._version += 1
        view.on_draw()
        window.ctx.finish()

    for _ in range(5):
        frame()
    benchmark.pedantic(frame, rounds=60, iterations=1)
