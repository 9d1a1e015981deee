"""The campaign window's frames (Mesa llvmpipe, 1280x800): the playing window with a game,
a selected force and its lit marches, the panels and the chronicle (docs/PERFORMANCE.md)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest


def _frame(window: Any, view: Any) -> None:
    view.on_draw()
    window.ctx.finish()


@pytest.fixture
def game_view(window: Any) -> Any:
    from campaign.view.game import CampaignGame
    from campaign.view.play import CampaignView

    game = CampaignGame.new("49bc", 1)
    ai = __import__("campaign.ai", fromlist=["CampaignAI"]).CampaignAI()
    for _ in range(60):
        if game.state.phase == "movement":
            break
        game.play(ai.choose(game.state))
    game.popups.clear()  # the turn's news, read: no dialog over the map
    view = CampaignView(game)
    window.show_view(view)
    game.select_force("caesar")
    view.zoom_at(*view.world_to_screen(*view.geo.pos("ravenna")), 2.5)
    view.on_update(1 / 60)
    view.on_mouse_motion(640, 420, 0, 0)  # a tooltip too
    for _ in range(3):
        _frame(window, view)
    assert view.dialog is None
    return view


def test_bench_campaign_window_still_frame(benchmark: Any, window: Any, game_view: Any) -> None:
    benchmark.pedantic(lambda: _frame(window, game_view), rounds=120, iterations=1, warmup_rounds=5)


def test_bench_campaign_window_panning_keys(benchmark: Any, window: Any, game_view: Any) -> None:
    """6 px a frame (the arrow keys at 60 frames a second): the world framebuffer is reused."""
    steps = itertools.cycle([(6, 0)] * 20 + [(-6, 0)] * 20)

    def frame() -> None:
        game_view.pan(*next(steps))
        _frame(window, game_view)

    benchmark.pedantic(frame, rounds=200, iterations=1, warmup_rounds=5)


def test_bench_campaign_window_panning_drag(benchmark: Any, window: Any, game_view: Any) -> None:
    """40 px a frame (a fast drag): the world is redrawn every few frames."""
    steps = itertools.cycle([(40, 0)] * 12 + [(-40, 0)] * 12)

    def frame() -> None:
        game_view.pan(*next(steps))
        _frame(window, game_view)

    benchmark.pedantic(frame, rounds=120, iterations=1, warmup_rounds=5)


def test_bench_campaign_window_wheel_zoom(benchmark: Any, window: Any, game_view: Any) -> None:
    """A wheel step each frame: the last world is drawn scaled until the wheel stops."""
    steps = itertools.cycle([1, -1])

    def frame() -> None:
        game_view.on_mouse_scroll(640, 400, 0, next(steps))
        game_view.on_update(1 / 60)
        _frame(window, game_view)

    benchmark.pedantic(frame, rounds=120, iterations=1, warmup_rounds=5)


def test_bench_campaign_window_world_redrawn(benchmark: Any, window: Any, game_view: Any) -> None:
    """The worst frame: the world framebuffer redrawn (a zoom step, a change on the map)."""

    def frame() -> None:
        game_view._world_valid = False
        _frame(window, game_view)

    benchmark.pedantic(frame, rounds=60, iterations=1, warmup_rounds=3)
