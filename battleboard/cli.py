"""``bellum board SCENARIO [--ai both|A|B|none] [--seed N] [--headless]``.

Headless, two AIs play the battle out and the last line is ``result: <side's name> (<A|B>)
wins (<why>)`` — the name from the scenario's ``[sides]``; ``result: side A wins`` without one — or ``result: draw
(<why>)``.  Otherwise the battle opens in the window (hotseat, or
against the AI for the side(s) named by ``--ai``).
"""

from __future__ import annotations

import argparse
import re
from typing import Any

AI_CHOICES = ("both", "A", "B", "none")


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("board", help="fight a battleboard battle (land or naval)")
    p.add_argument("scenario", metavar="SCENARIO", help="a name under scenarios/battleboard/ or a path")
    p.add_argument("--ai", choices=AI_CHOICES, default="B", help="which side(s) the AI plays (default B)")
    p.add_argument("--seed", type=int, default=1, help="the dice seed (default 1)")
    p.add_argument("--headless", action="store_true", help="no window: the AI plays it out and prints the result")
    p.set_defaults(func=_cmd_board)


def _cmd_board(args: argparse.Namespace) -> int:
    from battleboard.scenario import load_scenario, side_name
    from bellum.errors import InputError

    sc, state = load_scenario(args.scenario)
    if args.headless:
        if args.ai != "both":
            raise InputError("bellum board", "--headless", "needs --ai both, since nobody would play the other side")
        from battleboard.resolve import autoplay
        from bellum.dice import Dice
        from bellum.events import Event

        events: list[Event] = []
        final = autoplay(state, Dice(args.seed), events)
        for e in events:
            print(e.text)
        names = {side: side_name(sc, side) for side in ("A", "B")}
        why = re.sub(r"\bside ([AB])\b", lambda m: names[m.group(1)], final.end_reason)
        if final.winner is None:
            print(f"result: draw ({why})")
        else:
            name = names[final.winner]
            who = name if name == f"side {final.winner}" else f"{name} ({final.winner})"
            print(f"result: {who} wins ({why})")
        return 0
    from battleboard.view.window import run_window

    return run_window(sc, state, args.ai, args.seed)
