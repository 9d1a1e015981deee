"""``bellum shot tactical [--scenario S] --out FILE.png``: the battle window a few actions in.

Without ``--scenario`` it shows Pharsalus once ``scenarios/tactical/pharsalus.toml``
exists, else the demo field.  It begins the battle, designates the first choice and
selects a unit, so the shot shows a selection with its reachable hexes.
"""

from __future__ import annotations

import argparse

import arcade

from bellum.paths import game_data
from tactical.view.app import battle_view
from tactical.view.battle import BattleView
from tactical.view.play import DEMO


def default_scenario() -> str:
    pharsalus = game_data("scenarios", "tactical", "pharsalus.toml")
    return str(pharsalus) if pharsalus.exists() else DEMO


def opening(view: BattleView) -> None:
    """Begin, activate the first leader offered, open the camera on both battle lines, and
    select the unit in view nearest the leader that can move."""
    from tactical.actions import Activate, Start

    for _ in range(2):
        first = next((a for a in view.legal() if isinstance(a, Start | Activate)), None)
        if first is not None and view.state.seq.phase in ("start", "activation"):
            view.play(first)
    view.frame_battle()
    state = view.state
    if state.seq.phase != "move":
        return
    leader = state.leaders.get(state.seq.leader or "")
    left, bottom, right, top = view.map_area()

    def in_view(h: int) -> bool:
        sx, sy = view.screen_point(*view.layout.centre(h))
        return left < sx < right and bottom < sy < top

    units = sorted(
        (u for u in state.units.values() if u.side == state.seq.side and u.on_map),
        key=lambda u: (not in_view(u.hex), state.field.grid.distance(u.hex, leader.hex) if leader else 0, u.id),
    )
    for u in units:
        view.select(u.id)
        if view.reach:
            break
    else:
        view.select(None)
    unit = state.units.get(view.selected or "")
    if unit is not None and not in_view(unit.hex):  # slide across to it, keeping both lines
        view._look_at(view.layout.centre(unit.hex)[0], view.world_point((left + right) / 2, (bottom + top) / 2)[1])


def shot_view(args: argparse.Namespace) -> arcade.View:
    view = battle_view(args.scenario or default_scenario(), seed=args.seed)
    opening(view)
    return view
