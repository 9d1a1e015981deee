"""``bellum shot battleboard --scenario S --out F.png``: a battle a few turns in."""

from __future__ import annotations

import argparse

import arcade

from battleboard.ai import choose
from battleboard.rules import apply
from battleboard.scenario import load_scenario
from battleboard.view.window import battle_view
from bellum.dice import Dice
from bellum.events import Event


def shot_view(args: argparse.Namespace) -> arcade.View:
    sc, state = load_scenario(args.scenario or "sea-interception")
    dice = Dice(args.seed)
    log: list[Event] = []
    for _ in range(200):  # play with the AI until the second turn, so there is something to see
        if state.phase == "over" or (state.turn >= 2 and state.phase == "combat"):
            break
        state, events, _ = apply(state, choose(state), dice)
        log.extend(events)
    view = battle_view(sc, state, "none", args.seed)
    view.events.extend(log)
    view.log.extend(view.words.event(e) for e in log)
    return view
