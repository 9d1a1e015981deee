"""``bellum board SCENARIO [--ai both|A|B|none] [--seed N] [--headless] [--save F] [--load F] [--report F]``.

Headless, two AIs play the battle out and the last line is ``result: <side's name> (<A|B>)
wins (<why>)`` — the name from the scenario's ``[sides]``; ``result: side A wins`` without one — or ``result: draw
(<why>)``; ``--report FILE`` also writes its after-action report (``bellum.report``, with
the battle's turning points) as Markdown.  ``--save FILE`` writes the battle (scenario, seed,
dice, action log, checksum: ``battleboard.game``) when it ends, headless, or as the window's
save file (F5); ``--load FILE`` continues a saved battle of the same scenario.  Otherwise
the battle opens in the window (hotseat, or against the AI for the side(s) named by ``--ai``).
"""

from __future__ import annotations

import argparse
from typing import Any

AI_CHOICES = ("both", "A", "B", "none")


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("board", help="fight a battleboard battle (land or naval)")
    p.add_argument("scenario", metavar="SCENARIO", help="a name under scenarios/battleboard/ or a path")
    p.add_argument("--ai", choices=AI_CHOICES, default="B", help="which side(s) the AI plays (default B)")
    p.add_argument("--seed", type=int, default=1, help="the dice seed (default 1)")
    p.add_argument("--headless", action="store_true", help="no window: the AI plays it out and prints the result")
    p.add_argument("--report", metavar="FILE", help="headless: write the battle's after-action report here (Markdown)")
    p.add_argument("--save", metavar="FILE", help="save the battle here (headless: at its end; the window: F5)")
    p.add_argument("--load", metavar="FILE", help="continue a saved battle of this scenario")
    p.set_defaults(func=_cmd_board)


def _cmd_board(args: argparse.Namespace) -> int:
    from pathlib import Path

    from battleboard.game import BattleboardEngine, encode_action, load
    from battleboard.model import Action, State
    from battleboard.scenario import side_name
    from bellum.cli import check_seed
    from bellum.errors import InputError
    from bellum.paths import check_output
    from bellum.session import Session

    check_seed(args.seed)
    sc, _ = load(args.scenario)
    if args.report and not args.headless:
        raise InputError("bellum board", "--report", "is written for a headless battle (add --headless --ai both)")
    if args.headless and args.ai != "both":
        raise InputError("bellum board", "--headless", "needs --ai both, since nobody would play the other side")
    for flag in ("report", "save"):
        if getattr(args, flag):
            check_output(getattr(args, flag), f"--{flag}")
    engine = BattleboardEngine()
    # a save refuses to load as another battle, and replays from the scenario named here
    session: Session[State, Action] = (
        Session.load(engine, args.load, args.scenario) if args.load else Session(engine, args.scenario, args.seed)
    )
    if not args.headless:
        from battleboard.view.window import run_window

        return run_window(sc, session, args.ai, save_path=Path(args.save) if args.save else None)
    from battleboard.resolve import autoplay
    from bellum.events import Event
    from bellum.report import name_sides

    events: list[Event] = []
    played: list[Action] = []
    autoplay(session.state, session.dice, events, record=played)
    # the battle as a session (each action checked again by the rules): what a save holds
    session = Session.replay(
        engine, session.scenario, session.seed, [*session.actions, *map(encode_action, played)], source="the battle"
    )
    final = session.state
    for e in events:
        print(e.text)
    names = {side: side_name(sc, side) for side in ("A", "B")}
    why = name_sides(final.end_reason, names)
    if args.save:
        session.save(args.save)
    if args.report:
        _write_report(args, sc, final, list(session.log), session.seed)
    if final.winner is None:
        print(f"result: draw ({why})")
    else:
        name = names[final.winner]
        who = name if name == f"side {final.winner}" else f"{name} ({final.winner})"
        print(f"result: {who} wins ({why})")
    return 0


def _write_report(args: argparse.Namespace, sc: Any, final: Any, events: list[Any], seed: int) -> None:
    """The after-action report of the finished battle, written to ``args.report``."""
    from pathlib import Path

    from battleboard.resolve import moments, outcome
    from battleboard.scenario import engagement_of
    from bellum.dice import Dice
    from bellum.errors import InputError
    from bellum.report import AfterAction

    eng = engagement_of(sc, args.scenario)
    # the after-battle rolls (promotions, captured fleets) on dice of their own, so the
    # battle printed above is the one the seed gives without a report
    out = outcome(final, eng, Dice(seed + 1))
    rep = AfterAction(eng, out, fought="the battleboard", moments=moments(events), heading=sc.name)
    try:
        Path(args.report).write_text(rep.markdown() + "\n", encoding="utf-8")
    except OSError as exc:
        raise InputError(args.report, "", f"cannot be written ({exc.strerror or exc})") from None
    print(f"report: {args.report}")
