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
from tactical.view.battle import BOTTOM_H, PANEL_W, TOP_H, BattleView
from tactical.view.play import DEMO


def default_scenario() -> str:
    pharsalus = game_data("scenarios", "tactical", "pharsalus.toml")
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
    frame_the_front(view)


def frame_the_front(view: BattleView) -> None:
    """Centre between the selection and the nearest enemy when both fit the map area at a
    legible zoom, so the picture shows the two lines facing each other."""
    state = view.state
    piece = state.units.get(view.selected or "") or state.leaders.get(view.selected or "")
    if piece is None or not piece.on_map:
        return
    lay = view.layout
    enemies = [u for u in state.units.values() if u.on_map and u.side != piece.side]
    if not enemies:
        return
    (x1, y1) = lay.centre(piece.hex)
    (x2, y2) = min((lay.centre(u.hex) for u in enemies), key=lambda p: (p[0] - x1) ** 2 + (p[1] - y1) ** 2)
    area_w = view.window.width - PANEL_W - 80
    area_h = view.window.height - TOP_H - BOTTOM_H - 80
    for zoom in (1.0, 0.8):
        if abs(x2 - x1) * zoom <= area_w and abs(y2 - y1) * zoom <= area_h:
            view.world_camera.zoom = zoom
            view._look_at((x1 + x2) / 2, (y1 + y2) / 2)
            return


def shot_view(args: argparse.Namespace) -> arcade.View:
    view = battle_view(args.scenario or default_scenario(), seed=args.seed)
    opening(view)
    return view
