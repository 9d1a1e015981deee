"""The tactical engine's side of the battle picker (``bellum.view.picker.BattleSource``): the
scenarios with their notes, sides and commanders, and a battle opened under the player's
settings — the optional rules (tactical/options.py) into the session, the computer's strength
and speed into the window, and watch mode (``bellum.view.watch``) for the computer on both sides."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import arcade

from bellum.errors import InputError
from bellum.paths import scenario_files
from bellum.settings import SPEED_FACTOR, Settings
from bellum.view.picker import BattleInfo, SideInfo
from bellum.view.watch import Watched, WatchView
from tactical.view.app import battle_view

#: the computer's seats by the person's seat
AI_SIDES = {"A": ("B",), "B": ("A",), "hotseat": (), "watch": ("A", "B")}


def leader_name(lid: str) -> str:
    return lid.replace("-", " ").replace("_", " ")


def battle_info(path: Path) -> BattleInfo:
    """What the picker shows of a scenario (its error sentence if it cannot be read)."""
    from tactical.game import load

    try:
        sc = load(str(path))
    except InputError as bad:
        return BattleInfo(str(path), path.stem.replace("-", " ").title(), error=str(bad))
    m = sc.model
    sides = []
    for side in ("A", "B"):
        leaders = sorted((ld for ld in sc.state.leaders.values() if ld.side == side), key=lambda ld: not ld.overall)
        sides.append(SideInfo(side, sc.side_name(side), tuple(leader_name(ld.id) for ld in leaders)))
    rules_text = f"Ruleset {m.rules} (the scenario's)"
    return BattleInfo(str(path), m.name, m.year, m.description, m.note, tuple(sides), m.rules, rules_text)


def ai_player(strength: str, seed: int) -> Any:
    """The computer's player at ``strength`` (docs/AI.md: the greedy baseline, the AI, the AI
    scoring more attacks with exact odds)."""
    if strength == "easy":
        from tactical.ai_baselines import GreedyPlayer

        return GreedyPlayer(seed)
    from tactical.ai import TacticalAI

    return TacticalAI(seed, exact_top=3) if strength == "strong" else TacticalAI(seed)


class TacticalBattles:
    engine = "tactical"
    heading = "Tactical battles — choose a battle"

    def battles(self) -> list[BattleInfo]:
        return [battle_info(p) for p in scenario_files("tactical")]

    def open(self, info: BattleInfo, seat: str, settings: Settings, back: arcade.View, seed: int = 1) -> arcade.View:
        """The battle ``info`` on the dice of ``seed`` (the picker draws a fresh one per battle)."""
        options = settings.options("tactical") or None
        view = battle_view(info.path, seed=seed, ai_sides=AI_SIDES[seat], menu=back, options=options)
        view._ai = ai_player(settings.ai_strength, view.session.seed)
        if seat != "watch":
            view.ai_delay /= SPEED_FACTOR[settings.speed]
            return view
        watched = Watched(
            step=view.ai_step,
            progress=lambda: len(view.session.actions),
            over=lambda: view.state.seq.phase == "over",
        )
        return WatchView(view, watched, speed=settings.speed, back=back, title=info.title)


def watch_shot_view(args: Any) -> arcade.View:
    """``bellum shot watch [--scenario NAME]``: a battle watched, a few actions in, paused."""
    from bellum.view.menu import MenuView

    path = next((p for p in scenario_files("tactical") if p.stem == (args.scenario or "pharsalus")), None)
    if path is None:
        raise InputError("bellum shot watch", "--scenario", "there is no such tactical scenario")
    view = TacticalBattles().open(battle_info(path), "watch", Settings(), MenuView())
    assert isinstance(view, WatchView)
    for _ in range(int(getattr(args, "steps", 0) or 60)):
        view.step()
    return view
