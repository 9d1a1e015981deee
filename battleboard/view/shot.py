"""``bellum shot battleboard --scenario S --out F.png``: a battle a few turns in; and the
scenes of docs/screens (``python -m battleboard.view.shot FOLDER``), each reached by input
events as a person would: the land and sea boards after an attack (its dice on the board),
the attack-mode choice with its odds, and the help over it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import arcade

from battleboard.ai import choose
from battleboard.rules import apply, legal_actions
from battleboard.scenario import load_scenario
from battleboard.view.battle import BattleView
from battleboard.view.window import battle_view
from bellum.dice import Dice
from bellum.events import Event

#: the screens of docs/screens/README.md: file name -> (scenario, what is shown)
SCENES = {
    "battleboard-land.png": ("field-pharsalus", "attacked"),
    "battleboard-naval.png": ("sea-interception", "attacked"),
    "battleboard-odds.png": ("sea-interception", "odds"),
    "battleboard-help.png": ("sea-interception", "help"),
}


def shot_view(args: argparse.Namespace) -> BattleView:
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


def click(view: BattleView, sq: int) -> None:
    x, y = view.square_center(sq)
    view.on_mouse_press(int(x), int(y), arcade.MOUSE_BUTTON_LEFT, 0)


def scene(window: arcade.Window, scenario: str, shown: str, seed: int = 2) -> BattleView:
    """A battle a few turns in, then by clicks and keys: a unit selected, an enemy clicked
    (the attack modes with their odds), and — ``attacked`` — the first mode chosen (its dice
    and result on the board) or — ``help`` — F1 pressed."""
    view = shot_view(argparse.Namespace(scenario=scenario, seed=seed))
    window.show_view(view)
    view.on_draw()
    for _ in range(200):  # the AI plays on (Space) until the side to play may attack
        if view.state.phase == "over" or any(a.verb == "attack" for a in legal_actions(view.state)):
            break
        view.on_key_press(arcade.key.SPACE, 0)
    s = view.state
    attacks = [a for a in legal_actions(s) if a.verb == "attack"]
    attacks.sort(key=lambda a: a.mode != "ram")  # at sea the ram first: it is offered first
    if not attacks:
        return view
    a = attacks[0]
    unit = s.units[a.unit]
    fleet = s.units[unit.aboard] if unit.aboard else unit
    click(view, fleet.square)  # type: ignore[arg-type]
    click(view, s.units[a.target].square)  # type: ignore[arg-type]
    if shown == "help":
        view.on_key_press(arcade.key.F1, 0)
    elif shown == "attacked":
        view.on_key_press(arcade.key.KEY_1, 0)
        if view.state.naval:  # a fleet with passengers selected: its panel line names them
            mine = [u for u in view.state.units.values() if u.cargo and u.side == view.state.side and u.square]
            if mine:
                click(view, mine[0].square)  # type: ignore[arg-type]
    return view


def main(folder: str) -> int:
    """Write the screens of docs/screens into ``folder`` at 1280×800."""
    window = arcade.Window(1280, 800, "Bellum Civile — battleboard screens", visible=False, antialiasing=False)
    for name, (scenario, shown) in SCENES.items():
        view = scene(window, scenario, shown)
        window.clear()
        view.on_draw()
        arcade.get_image(0, 0, window.width, window.height).save(Path(folder) / name)
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
