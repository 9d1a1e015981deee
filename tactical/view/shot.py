"""``bellum shot tactical [--scenario S] --out FILE.png``: the battle window a few actions in.

Without ``--scenario`` it shows Pharsalus once ``scenarios/tactical/pharsalus.toml``
exists, else the demo field.  It begins the battle, designates the first choice and
selects a unit, so the shot shows a selection with its reachable hexes.
"""

from __future__ import annotations

import argparse

import arcade

from bellum.paths import SCENARIOS
from tactical.view.app import battle_view
from tactical.view.battle import BattleView
from tactical.view.play import DEMO


def default_scenario() -> str:
    pharsalus = SCENARIOS / "tactical" / "pharsalus.toml"
    return str(pharsalus) if pharsalus.exists() else DEMO


def opening(view: BattleView) -> None:
    """Begin, activate the first leader offered, select the unit nearest him that can move,
    and centre the camera on it at full size (legible counters)."""
    for _ in range(2):
        if view.choices and view.state.seq.phase in ("start", "activation"):
            view.play(view.choices[0].action)
    state = view.state
    if state.seq.phase == "move":
        leader = state.leaders.get(state.seq.leader or "")
        units = sorted(
            (u for u in state.units.values() if u.side == state.seq.side and u.on_map),
            key=lambda u: (state.field.grid.distance(u.hex, leader.hex) if leader else 0, u.id),
        )
        for u in units:
            view.select(u.id)
            if view.reach:
                break
        else:
            view.select(None)
    view.centre_on_action(zoom=1.0)


def shot_view(args: argparse.Namespace) -> arcade.View:
    view = battle_view(args.scenario or default_scenario(), seed=args.seed)
    opening(view)
    return view
