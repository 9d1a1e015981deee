"""The war in numbers and its chart (``campaign.warstats``, ``campaign.aar_charts``,
``campaign.view.victory``): sieges counted on the capture's own ``how``, the dates from the
scenario and the victory table, and the end-of-war screen's chart at any window size."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bellum.events import Event
from campaign.engine import load
from campaign.rules.clients import world_tables
from campaign.state import initial_state
from campaign.warstats import condition, war_stats
from tests.conftest import keep_screen, render

ROOT = Path(__file__).resolve().parents[2]


def test_sieges_are_counted_on_the_capture_s_how_not_its_words() -> None:
    state = initial_state(load("49bc"))
    events = [
        Event("siege", "Caesarians besiege Massilia.", {"place": "massilia"}),
        Event("capture", "Massilia gives in.", {"place": "massilia", "how": "siege"}),
        Event("capture", "The walls of Corfinium are carried.", {"place": "corfinium", "how": "storm"}),
        Event("capture", "Brundisium, starved out, falls to the Caesarians.", {"how": "occupy"}),
        Event("capture", "Utica opens its gates to the Senatorials.", {"place": "utica"}),  # politics: none
        Event("capture", "Ravenna falls to the Caesarians.", {}),  # an event without one: no siege's
        Event("siege_lifted", "The siege of Salonae is lifted.", {}),
    ]
    stats = war_stats(state, events)
    assert stats.sieges["starved"] == 1 and stats.sieges["stormed"] == 1 and stats.sieges["lifted"] == 1
    row = dict(stats.lines())["Sieges"]
    assert "1 cities starved out, 1 stormed, 1 lifted" in row


def test_the_war_s_dates_come_from_its_scenario_and_the_victory_table(tmp_path: Path) -> None:
    text = (ROOT / "scenarios" / "campaign" / "49bc.toml").read_text(encoding="utf-8")
    assert 'start_month = "January"' in text
    later = tmp_path / "spring48.toml"
    later.write_text(text.replace('start_month = "January"', 'start_month = "April"'), encoding="utf-8")
    scenario = load(str(later))
    state = initial_state(scenario)
    stats = war_stats(state, [], scenario=str(later))
    assert stats.first == "April 49 BC" and stats.turns == 1  # the first turn, not January's
    assert dict(stats.lines())["Turns played"] == "1 (April 49 BC to April 49 BC)"
    assert war_stats(initial_state(load("49bc")), []).first == "January 49 BC"
    last = world_tables().victory.last_year_bc
    for how in ("triumphant", "conquering", "both_lose", "undecided"):
        assert f"the last turn of {last} BC is over" in condition(how)


def finished_game() -> Any:
    from campaign.view.game import CampaignGame
    from tests.campaign.test_save_slots import finished, played

    game = CampaignGame(played(4), frozenset({"caesarian"}))
    finished(game)
    return game


@pytest.mark.window
def test_the_victory_screen_in_a_tiny_window_says_so_and_draws_the_chart_when_larger(
    window: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A window dragged very small: the layout's chart box is empty or negative; the screen
    says in one sentence that the chart needs room, draws every frame without an error, and
    draws the chart once the window is large again."""
    from campaign.view.victory import TOO_SMALL, VictoryView

    screen = VictoryView(finished_game())
    size = {"w": 320, "h": 200}
    monkeypatch.setattr(type(window), "width", property(lambda _: size["w"]))
    monkeypatch.setattr(type(window), "height", property(lambda _: size["h"]))
    render(window, screen)
    screen.wait()
    for _ in range(3):
        render(window, screen)
    assert screen.chart is None and screen.chart_problem == TOO_SMALL
    assert TOO_SMALL in [t.text for t in screen.texts]
    monkeypatch.undo()
    screen.on_resize(window.width, window.height)
    screen.wait()
    shot = render(window, screen)
    assert screen.chart_problem == "" and screen.chart is not None
    assert len(screen.stats.months) >= 1
    left, bottom, right, top = screen.chart_box
    chart = shot.crop((int(left), int(window.height - top), int(right), int(window.height - bottom)))
    assert len(set(chart.getdata())) > 20
    keep_screen(shot, "campaign-victory-resized.png", tmp_path)


@pytest.mark.window
def test_a_chart_that_cannot_be_drawn_is_one_sentence(window: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from campaign.view import victory

    def broken(*_: Any, **__: Any) -> Any:
        raise RuntimeError("no fonts here\nTraceback (most recent call last): ...")

    monkeypatch.setattr(victory, "chart_image", broken)
    screen = victory.VictoryView(finished_game())
    render(window, screen)
    screen.wait()
    render(window, screen)
    assert screen.chart is None
    assert screen.chart_problem == "The chart could not be drawn: no fonts here."
    assert screen.chart_problem in [t.text for t in screen.texts]


@pytest.mark.window
def test_the_chart_s_replay_takes_the_game_s_options(window: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The war is counted again with the rule options the game was played with (a campaign
    game has none yet: the options are handed on as the session holds them)."""
    from campaign import warstats
    from campaign.view import victory

    seen: list[Any] = []

    def counting(scenario: str, seed: int, actions: Any, options: Any = None) -> Any:
        seen.append(options)
        return warstats.months(scenario, seed, actions)

    monkeypatch.setattr(victory, "months", counting)
    game = finished_game()
    game.session.options = ("a rule",)
    screen = victory.VictoryView(game)
    render(window, screen)
    screen.wait()
    assert seen == [["a rule"]] and screen.chart is not None and screen.stats.months
