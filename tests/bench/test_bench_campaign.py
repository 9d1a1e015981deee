"""Campaign map benchmarks (issue 7): a land route across the map, and the map window's redraw.

Target for the redraw: median ≤ 16.7 ms (60 frames a second) for the whole map at
1280x800 under Mesa llvmpipe.  The GPU is made to finish each frame (``ctx.finish``)
so the time is the frame's, not just its submission.  A still frame copies the cached
map and draws the selection, tooltip and panel over it; a panning frame draws every
layer.  The baseline (one full-screen copy) is the floor for the machine at hand.
Run by ``bellum bench``.
"""

from __future__ import annotations

import itertools
from typing import Any

from campaign.map import roman_world


def test_bench_land_route_across_the_map(benchmark: Any) -> None:
    world = roman_world()
    route = world.land_route("gades", "antiochia")
    assert route is not None and len(route.path) > 20
    benchmark.pedantic(lambda: world.land_route("gades", "antiochia"), rounds=200, iterations=1)


def test_bench_land_route_avoiding_places(benchmark: Any) -> None:
    world = roman_world()
    assert world.land_route("caesarea", "alexandria", avoid=["pelusium"]) is not None
    benchmark.pedantic(
        lambda: world.land_route("gades", "antiochia", avoid=["roma", "corinthus"]), rounds=100, iterations=1
    )


def _frame(window: Any, view: Any) -> None:
    view.on_draw()  # the view clears or covers the whole screen itself
    window.ctx.finish()


def test_bench_baseline_full_screen_copy(benchmark: Any, window: Any) -> None:
    """The floor on this machine: copying one window-sized framebuffer to the screen,
    which a still frame of the map costs at least."""
    ctx = window.ctx
    fbo = ctx.framebuffer(color_attachments=[ctx.texture(ctx.screen.size, components=4)])

    def frame() -> None:
        ctx.copy_framebuffer(fbo, ctx.screen)
        ctx.finish()

    benchmark.pedantic(frame, rounds=120, iterations=1, warmup_rounds=5)


def test_bench_full_map_redraw(benchmark: Any, window: Any) -> None:
    from campaign.view.mapview import MapView
    from tests.campaign.bare_map import BareMap

    view = MapView(BareMap())
    window.show_view(view)
    view.model.select("roma")  # a selection and its links on screen too
    view.on_update(1 / 60)
    view.on_mouse_motion(640, 420, 0, 0)  # and a tooltip
    for _ in range(5):
        _frame(window, view)
    benchmark.pedantic(lambda: _frame(window, view), rounds=120, iterations=1, warmup_rounds=5)


def test_bench_map_redraw_while_panning(benchmark: Any, window: Any) -> None:
    """Every frame moves the camera, so the labels are re-placed (zoomed in on Italy)."""
    from campaign.view.mapview import MapView
    from tests.campaign.bare_map import BareMap

    view = MapView(BareMap())
    window.show_view(view)
    view.zoom_at(*view.world_to_screen(*view.geo.pos("roma")), 2.5)
    steps = itertools.cycle([(6, 0)] * 20 + [(-6, 0)] * 20)

    def frame() -> None:
        view.pan(*next(steps))
        _frame(window, view)

    for _ in range(5):
        frame()
    benchmark.pedantic(frame, rounds=120, iterations=1, warmup_rounds=5)
