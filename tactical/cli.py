"""``bellum battle SCENARIO [--ai both|A|B|none] [--seed N] [--headless] [--save F] [--load F]``."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

#: a battle that reaches this many actions without a withdrawal is a draw (project rule)
ACTION_LIMIT = 6000


def register(sub: Any) -> None:
    p = sub.add_parser("battle", help="fight a tactical battle (a window, or --headless for AI play)")
    p.add_argument("scenario", metavar="SCENARIO", help="a scenario name (pharsalus) or a .toml path")
    p.add_argument("--ai", choices=("both", "A", "B", "none"), default="B")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--headless", action="store_true", help="no window: print the battle as it is fought")
    p.add_argument("--save", metavar="FILE", help="save the battle at its end")
    p.add_argument("--load", metavar="FILE", help="continue a saved battle")
    p.set_defaults(func=_cmd_battle)


def play_out(session: Any, players: dict[str, Any], out: Callable[[str], None] | None = None) -> tuple[str | None, str]:
    """Let ``players`` (side -> object with ``choose(state)``) play until the battle ends;
    return (winner side or None, why)."""
    for _ in range(ACTION_LIMIT):
        state = session.state
        if state.seq.phase == "over":
            break
        action = players[state.seq.side].choose(state)
        events = session.play(action)
        if out is not None:
            for e in events:
                if e.kind in (
                    "activate",
                    "continuity",
                    "shock",
                    "fire",
                    "rout",
                    "withdrawal",
                    "rally",
                    "eliminated",
                    "first",
                    "leader_lost",
                ):
                    out(e.text)
    state = session.state
    if state.winner is not None:
        loser = "B" if state.winner == "A" else "A"
        return state.winner, f"{loser}'s rout points reach {state.rout_points[loser]}"
    return None, f"no army withdrew within {ACTION_LIMIT} actions"


def _cmd_battle(args: argparse.Namespace) -> int:
    from bellum.session import Session
    from tactical.actions import Action
    from tactical.ai import TacticalAI
    from tactical.game import TacticalEngine, load
    from tactical.state import State

    engine = TacticalEngine()
    sc = load(args.scenario)
    if not args.headless:
        try:
            from tactical.view.app import open_battle  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            print("The battle window is not available in this build; use --headless.")
            return 2
        sides = {"both": ("A", "B"), "A": ("A",), "B": ("B",), "none": ()}[args.ai]
        open_battle(str(sc.path), seed=args.seed, ai_sides=sides)
        return 0
    if args.ai != "both":
        print("Headless play needs --ai both (nobody is there to play the other side).")
        return 2
    session: Session[State, Action] = (
        Session.load(engine, args.load) if args.load else Session(engine, args.scenario, args.seed)
    )
    players = {"A": TacticalAI(args.seed), "B": TacticalAI(args.seed + 1)}
    winner, why = play_out(session, players, print)
    if args.save:
        session.save(args.save)
    if winner is None:
        print(f"result: draw ({why})")
    else:
        print(f"result: {sc.side_name(winner)} wins ({why})")
    return 0
