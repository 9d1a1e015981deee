"""``bellum battle SCENARIO`` opens the tactical window (``open_battle``)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import arcade

from tactical.engagement import TacticalBattle
from tactical.view.battle import BattleView
from tactical.view.play import DEMO, open_session

WIDTH, HEIGHT = 1280, 800


def scenario_names(session: Any) -> tuple[str, dict[str, str]]:
    """The battle's title and the sides' names from the scenario (``tactical.game.load``),
    or the file's name and A / B for a position file or the demo field."""
    if session.scenario == DEMO:
        return "Demo field", {"A": "Side A", "B": "Side B"}
    fallback = Path(session.scenario).stem.replace("-", " ").title()
    from tactical.game import is_position, load

    if is_position(session.scenario):
        return fallback, {"A": "Side A", "B": "Side B"}

    sc = load(session.scenario)
    return sc.model.name, {side: sc.model.sides[side].name for side in ("A", "B")}


def battle_view(
    scenario: str,
    *,
    seed: int = 1,
    ai_sides: Iterable[str] = (),
    menu: arcade.View | None = None,
    options: list[str] | None = None,
    **view_options: Any,
) -> BattleView:
    """``options``: the optional rules chosen for the battle (None: the scenario's own);
    ``view_options`` go to ``BattleView`` as they are (``ai_delay``: seconds between the AI's
    actions, a watch mode's speed)."""
    session = open_session(scenario, seed, options)
    title, names = scenario_names(session)
    return BattleView(session, title=title, side_names=names, ai_sides=frozenset(ai_sides), menu=menu, **view_options)


def engagement_view(
    battle: TacticalBattle, *, ai_sides: Iterable[str] = (), menu: arcade.View | None = None
) -> BattleView:
    """The window on a campaign battle begun by the tactical route (``TacticalRoute.begin``)."""
    title, names = scenario_names(battle.session)
    return BattleView(battle=battle, title=title, side_names=names, ai_sides=frozenset(ai_sides), menu=menu)


def open_battle(scenario_path: str, *, seed: int = 1, ai_sides: Iterable[str] = ()) -> None:
    """Open a window on ``scenario_path`` and run until it is closed."""
    # a View needs a window first.  No multisampling: the view draws into its own framebuffer
    # and copies it to the screen, and under llvmpipe a 4x screen makes that copy ~4x dearer
    window = arcade.Window(WIDTH, HEIGHT, "Bellum Civile", resizable=True, antialiasing=False)
    view = battle_view(scenario_path, seed=seed, ai_sides=ai_sides)
    window.set_caption(f"Bellum Civile — {view.title}")
    window.show_view(view)
    arcade.run()
