"""``bellum battle SCENARIO [--ai both|A|B|none] [--against ai|random|greedy] [--seed N] [--headless]
[--save F] [--load F] [--report F]`` (issue 5 §4, §5).

Without ``--headless`` the battle window opens.  Headless, the computer plays every side:
the ``--ai`` sides with the tactical AI, any other side with the ``--against`` player (the
baselines of docs/AI.md).  The battle is printed as it is fought — who goes first, each
activation and Continuity roll, each shock and missile fire with its roll, routs,
eliminations, rallies — and ends with one line: ``result: <side name> wins (<why>)`` or
``result: draw (<why>)``.  ``--report FILE`` also writes the battle's after-action report
(``tactical.report``, docs/rules/tactical.md §11) as Markdown.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: a battle that reaches this many actions without a withdrawal is a draw (docs/AI.md)
ACTION_LIMIT = 6000

#: the events a headless battle prints as they happen
PRINTED = frozenset(
    {
        "first",
        "activate",
        "continuity",
        "shock",
        "fire",
        "rout",
        "eliminated",
        "rally",
        "leader_lost",
        "withdrawal",
        "shock_called_off",
        "react",
        "withdraw",
        "retreat_before_combat",
    }
)


def register(sub: Any) -> None:
    p = sub.add_parser("battle", help="fight a tactical battle (a window, or --headless for computer play)")
    p.add_argument("scenario", metavar="SCENARIO", help="a scenario name (pharsalus) or a .toml path")
    p.add_argument("--ai", choices=("both", "A", "B", "none"), default="B", help="the sides the tactical AI plays")
    p.add_argument(
        "--against",
        choices=("ai", "random", "greedy"),
        default=None,
        help="headless: who plays the sides --ai leaves (the AI, or a baseline player of docs/AI.md)",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--headless", action="store_true", help="no window: print the battle as it is fought")
    p.add_argument("--save", metavar="FILE", help="save the battle at its end")
    p.add_argument("--load", metavar="FILE", help="continue a saved battle")
    p.add_argument("--report", metavar="FILE", help="headless: write the battle's after-action report here (Markdown)")
    p.set_defaults(func=_cmd_battle)


def play_out(
    session: Any,
    players: dict[str, Any],
    out: Callable[[str], None] | None = None,
    limit: int = ACTION_LIMIT,
) -> tuple[str | None, str]:
    """Let ``players`` (side -> object with ``choose(state)``) play until an army withdraws or
    ``limit`` actions have been played; return (the winning side or None, why)."""
    for _ in range(limit):
        state = session.state
        if state.seq.phase == "over":
            break
        # the side to act: the defender while a reaction waits on it (docs/rules/tactical.md §8.13)
        events = session.play(players[state.acting].choose(state))
        if out is not None:
            for e in events:
                if e.kind in PRINTED:
                    out(e.text)
    return verdict(session.state, limit)


def verdict(state: Any, limit: int = ACTION_LIMIT) -> tuple[str | None, str]:
    """The winner (or None) and why, in words (003 §10.4: an army whose rout points reach its
    withdrawal level withdraws)."""
    points = state.rout_points
    if state.winner is not None:
        loser = "B" if state.winner == "A" else "A"
        level = state.withdrawal.get(loser, 0)
        if all(u.status == "eliminated" for u in state.units.values() if u.side == loser):
            return state.winner, f"side {loser} has no units left"
        return state.winner, f"side {loser}'s rout points reach {points[loser]} of its withdrawal level {level}"
    return None, f"no army withdrew within {limit} actions; rout points A {points['A']}, B {points['B']}"


def make_player(kind: str, seed: int) -> Any:
    """A player by name: ``ai`` (``TacticalAI``), ``random`` or ``greedy`` (the baselines)."""
    from tactical.ai import TacticalAI
    from tactical.ai_baselines import GreedyPlayer, RandomPlayer

    if kind == "random":
        return RandomPlayer(seed)
    if kind == "greedy":
        return GreedyPlayer(seed)
    return TacticalAI(seed)


def _cmd_battle(args: argparse.Namespace) -> int:
    from bellum.errors import InputError
    from bellum.session import Session
    from tactical.actions import Action
    from tactical.game import TacticalEngine, load
    from tactical.state import State

    if not 0 <= args.seed < 2**63:
        raise InputError("--seed", "", f"{args.seed} is not a seed (a whole number from 0 to 2^63 − 1)")
    engine = TacticalEngine()
    sc = load(args.scenario)
    from bellum.paths import check_output
    from bellum.tomlio import read_input

    for path, flag in ((args.report, "--report"), (args.save, "--save")):
        if path:
            check_output(path, flag)
    if args.load:
        read_input(args.load)
    if not args.headless:
        try:
            from tactical.view.app import open_battle  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            print("bellum: the battle window is not available in this build; use --headless.", file=sys.stderr)
            return 2
        sides = {"both": ("A", "B"), "A": ("A",), "B": ("B",), "none": ()}[args.ai]
        open_battle(str(sc.path), seed=args.seed, ai_sides=sides)
        return 0
    ai_sides = {"both": ("A", "B"), "A": ("A",), "B": ("B",), "none": ()}[args.ai]
    if len(ai_sides) < 2 and args.against is None:
        print(
            f"bellum: headless play needs a computer player for every side: use --ai both, or name the other "
            f"side's player with --against ai|random|greedy (--ai {args.ai} leaves a side to nobody).",
            file=sys.stderr,
        )
        return 2
    session: Session[State, Action] = (
        Session.load(engine, args.load) if args.load else Session(engine, args.scenario, args.seed)
    )
    if args.load and Path(load(session.scenario).path).resolve() != Path(sc.path).resolve():
        # the names come from the save, not the argument: a save refuses to load as another battle
        raise InputError(args.load, "save.scenario", f"is a save of {session.scenario}, not of {args.scenario}")
    # the seeds of docs/AI.md: the AI on side A seed N, on side B N + 1; a baseline N + 1000
    players = {
        side: make_player("ai", args.seed + k) if side in ai_sides else make_player(args.against, args.seed + 1000)
        for k, side in enumerate(("A", "B"))
    }
    for side in ("A", "B"):
        who = "the AI" if side in ai_sides else f"the {args.against} player"
        print(f"{sc.side_name(side)} (side {side}): {who}")
    winner, why = play_out(session, players, print)
    if args.save:
        session.save(args.save)
    if args.report:
        _write_report(args.report, sc, session, winner, why)
    if winner is None:
        print(f"result: draw ({why})")
    else:
        print(f"result: {sc.side_name(winner)} wins ({why})")
    return 0


def _write_report(path: str, sc: Any, session: Any, winner: str | None, why: str) -> None:
    """The after-action report of the battle just fought, written to ``path``."""
    from bellum.errors import InputError
    from tactical.report import markdown

    names = {side: sc.side_name(side) for side in ("A", "B")}
    text = markdown(sc.model.name, names, session.state, list(session.log), winner, why)
    try:
        Path(path).write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        raise InputError(path, "", f"cannot be written ({exc.strerror or exc})") from None
    print(f"report: {path}")
