"""The battleboard's side of the battle picker (``bellum.view.picker.BattleSource``): the
scenarios with their notes, sides and commanders, and a battle opened under the player's
settings — the optional rules (battleboard/options.py) into the session, the computer's
strength and speed into the window, and watch mode (``bellum.view.watch``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import arcade

from battleboard.model import Action, State
from battleboard.scenario import load_scenario, side_name
from battleboard.view.window import battle_view, new_session
from bellum.dice import Dice
from bellum.errors import InputError
from bellum.paths import scenario_files
from bellum.settings import SPEED_FACTOR, Settings
from bellum.view.picker import BattleInfo, SideInfo
from bellum.view.watch import BAR_H, Watched, WatchView

#: the computer's seats by the person's seat (``battleboard.view.window.ai_sides``)
AI_SIDES = {"A": "B", "B": "A", "hotseat": "none", "watch": "both"}
RULES_TEXT = "Battleboard rules (docs/rules/battleboard.md)"


def battle_info(path: Path) -> BattleInfo:
    try:
        sc, _ = load_scenario(str(path))
    except InputError as bad:
        return BattleInfo(str(path), path.stem, error=str(bad))
    title, _, subtitle = sc.name.partition(" — ")
    dated = re.fullmatch(r"(.+?),\s*((?:\w+\s+)?\d+\s*BC)", title)
    title, year = (dated.group(1), dated.group(2)) if dated else (title, "")
    sides = []
    for side in ("A", "B"):
        leaders = sorted((ld for ld in sc.leaders if ld.side == side), key=lambda ld: -ld.rating)
        sides.append(SideInfo(side, side_name(sc, side), tuple(ld.name or ld.id for ld in leaders)))
    kind = "a sea battle" if sc.battle.kind == "naval" else "a land battle"
    summary = f"{subtitle.capitalize() or kind}. {sc.description}".strip()
    return BattleInfo(str(path), title, year, summary, sc.note, tuple(sides), "", f"{RULES_TEXT}, {kind}")


def ai_player(strength: str, seed: int, dice: Callable[[], Dice]) -> Callable[[State], Action]:
    """The computer's player: the greedy baseline when easy, else the battleboard AI with its
    look-ahead (``battleboard.ai.Planner`` on the battle's ``dice``)."""
    if strength == "easy":
        from battleboard.ai_baselines import GreedyPlayer

        return GreedyPlayer(seed).choose
    from battleboard.ai import Planner

    return Planner(dice)


class BoardBattles:
    engine = "battleboard"
    heading = "Battleboard — choose a battle"

    def battles(self) -> list[BattleInfo]:
        return [battle_info(p) for p in scenario_files("battleboard")]

    def open(self, info: BattleInfo, seat: str, settings: Settings, back: arcade.View, seed: int = 1) -> arcade.View:
        """The battle ``info`` on the dice of ``seed`` (the picker draws a fresh one per battle)."""
        sc, state = load_scenario(info.path)
        session = new_session(info.path, seed, settings.options("battleboard") or None)
        view = battle_view(sc, state, AI_SIDES[seat], seed, menu=back, session=session)
        view.ai_choose = ai_player(settings.ai_strength, seed, lambda: view.dice)
        if seat != "watch":
            view.ai_delay /= SPEED_FACTOR[settings.speed]
            return view

        def step() -> None:
            view.act(view.ai_choose(view.state))

        def progress() -> int:
            return len(view.standalone.actions) if view.standalone is not None else 0

        view.bottom = BAR_H + 2  # the watch bar's room
        watched = Watched(step=step, progress=progress, over=lambda: view.state.phase == "over")
        return WatchView(view, watched, speed=settings.speed, back=back, title=info.title)


def watch_shot_view(args: Any) -> arcade.View:
    """``bellum shot watch --scenario NAME``: a battleboard battle watched, some actions in, paused."""
    from bellum.view.menu import MenuView

    path = next((p for p in scenario_files("battleboard") if p.stem == args.scenario), None)
    if path is None:
        raise InputError("bellum shot watch", "--scenario", "there is no such battleboard scenario")
    view = BoardBattles().open(battle_info(path), "watch", Settings(), MenuView())
    assert isinstance(view, WatchView)
    for _ in range(int(getattr(args, "steps", 0) or 14)):
        view.step()
    return view
