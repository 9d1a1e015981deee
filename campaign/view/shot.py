"""``bellum shot campaign --out F.png``: the campaign window at the start of the war, in the
Caesarians' first movement phase with Caesar's army selected and its marches lit (zoomed on northern Italy)."""

from __future__ import annotations

import argparse

import arcade

from campaign.ai import CampaignAI
from campaign.view.game import CampaignGame
from campaign.view.play import CampaignView

#: actions the computer may play for both sides to reach the first movement phase
SETUP_LIMIT = 60


def shot_view(args: argparse.Namespace) -> arcade.View:
    game = CampaignGame.new(seed=getattr(args, "seed", 1) or 1)
    ai = CampaignAI()
    for _ in range(SETUP_LIMIT):
        if game.state.phase == "movement" or not game.legal():
            break
        game.play(ai.choose(game.state))
    game.popups.clear()  # the turn's news, read
    view = CampaignView(game)
    if "caesar" in game.state.forces:
        game.select_force("caesar")
        x, y = view.world_to_screen(*view.geo.pos(game.state.forces["caesar"].location))
        view.zoom_at(x, y, 2.6)
        view.pan(view.window.width / 2 - x + 120, view.window.height / 2 - y - 60)
    return view
