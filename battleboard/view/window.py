"""Opening a battle in its own window (``bellum board SCENARIO``)."""

from __future__ import annotations

from pathlib import Path

import arcade

from battleboard.model import Action, State
from battleboard.scenario import Scenario, engagement_of, side_name
from battleboard.view.battle import BattleView
from bellum.engagement import Engagement
from bellum.errors import InputError
from bellum.session import Session


def ai_sides(choice: str) -> frozenset[str]:
    return {"both": frozenset({"A", "B"}), "none": frozenset()}.get(choice, frozenset({choice}))


def battle_view(
    sc: Scenario,
    state: State,
    ai: str,
    seed: int,
    menu: arcade.View | None = None,
    *,
    session: Session[State, Action] | None = None,
    save_path: Path | None = None,
) -> BattleView:
    """The battle's window view; with a ``session`` (a stand-alone battle) it saves and loads,
    and plays on from the session's state and dice (``state`` and ``seed`` are then unused)."""
    names = {s: side_name(sc, s) for s in ("A", "B")}
    try:
        eng: Engagement | None = engagement_of(sc, sc.name)
    except InputError:  # a position the campaign contract cannot hold: no report, the battle still plays
        eng = None
    return BattleView(
        state,
        title=sc.name,
        side_names=names,
        ai=ai_sides(ai),
        seed=seed,
        menu=menu,
        engagement=eng,
        session=session,
        save_path=save_path,
    )


def new_session(scenario: str, seed: int, options: list[str] | None = None) -> Session[State, Action]:
    """A new stand-alone battle of ``scenario`` (a name or a path) as a game that saves;
    ``options``: the optional rules chosen for it (None: the scenario's own)."""
    from battleboard.game import BattleboardEngine

    return Session(BattleboardEngine(), scenario, seed, options)


def run_window(sc: Scenario, session: Session[State, Action], ai: str, save_path: Path | None = None) -> int:
    window = arcade.Window(1280, 800, f"Bellum Civile — {sc.name}", resizable=True, antialiasing=False)
    window.show_view(battle_view(sc, session.state, ai, session.seed, session=session, save_path=save_path))
    arcade.run()
    return 0
