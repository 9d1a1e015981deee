"""Opening a battle in its own window (``bellum board SCENARIO``)."""

from __future__ import annotations

import arcade

from battleboard.model import State
from battleboard.scenario import Scenario, engagement_of, side_name
from battleboard.view.battle import BattleView
from bellum.engagement import Engagement
from bellum.errors import InputError


def ai_sides(choice: str) -> frozenset[str]:
    return {"both": frozenset({"A", "B"}), "none": frozenset()}.get(choice, frozenset({choice}))


def battle_view(sc: Scenario, state: State, ai: str, seed: int, menu: arcade.View | None = None) -> BattleView:
    names = {s: side_name(sc, s) for s in ("A", "B")}
    try:
        eng: Engagement | None = engagement_of(sc, sc.name)
    except InputError:  # a position the campaign contract cannot hold: no report, the battle still plays
        eng = None
    return BattleView(state, title=sc.name, side_names=names, ai=ai_sides(ai), seed=seed, menu=menu, engagement=eng)


def run_window(sc: Scenario, state: State, ai: str, seed: int) -> int:
    window = arcade.Window(1280, 800, f"Bellum Civile — {sc.name}", resizable=True, antialiasing=False)
    window.show_view(battle_view(sc, state, ai, seed))
    arcade.run()
    return 0
