"""``bellum pbem`` (play by e-mail) and ``bellum replay`` (docs/PBEM.md)."""

from __future__ import annotations

import argparse
import importlib
from typing import Any


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("pbem", help="play a friend by e-mail: start a game, or play the turn file you received")
    sub = p.add_subparsers(dest="pbem_command", metavar="ACTION", required=True)
    n = sub.add_parser("new", help="start a game: writes the first turn file, to send to your opponent")
    n.add_argument("scenario", metavar="SCENARIO", help="a campaign scenario that ships with the game (e.g. 49bc)")
    n.add_argument("--as", dest="side", required=True, metavar="SIDE", help="your side: caesarians or senatorials")
    n.add_argument("--out", metavar="FILE", help="the turn file to write (default: in your data folder)")
    n.add_argument(
        "--battles",
        choices=("auto", "tactical", "decisive-tactical", "played", "played-tactical"),
        default="auto",
        help="how battles are fought: by the computer on the battleboard (auto), every land battle on the "
        "tactical engine, or only the decisive ones there; or 'played': the two players fight each battle "
        "between them on the battleboard, move by move, the turn file going back and forth "
        "('played-tactical': the land field battles on the tactical engine)",
    )
    n.set_defaults(func=_cmd_new)
    pl = sub.add_parser("play", help="check and play the turn file you received, then write the next one")
    pl.add_argument("file", metavar="FILE")
    pl.add_argument("--ai", action="store_true", help="let the computer play your part of the turn (no window)")
    pl.add_argument("--out", metavar="FILE", help="the turn file to write (default: in your data folder)")
    pl.set_defaults(func=_cmd_play)
    st = sub.add_parser("status", help="check a turn file and say who is to play")
    st.add_argument("file", metavar="FILE")
    st.set_defaults(func=_cmd_status)

    r = subparsers.add_parser("replay", help="watch a game again: a save, a turn file, or a battle's save")
    r.add_argument("file", metavar="FILE")
    r.set_defaults(func=_cmd_replay)


def _cmd_new(args: argparse.Namespace) -> int:
    from bellum.paths import check_output
    from bellum.pbem import new_game

    if args.out:
        check_output(args.out, "--out")
    out = new_game(args.scenario, args.side, args.out, {"battles": args.battles})
    print(f"A new game by e-mail: send {out} to your opponent.")
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    from bellum.paths import check_output
    from bellum.pbem import open_turn_file, play_ai

    if args.out:
        check_output(args.out, "--out")
    session = open_turn_file(args.file)
    if args.ai or session.turn_over():
        play_ai(session)
        out = session.finish(args.out)
        print(f"{_done(session)}: send {out} to your opponent.")
        return 0
    # the window that plays a turn file is the engine's (found by name: the kernel imports no engine)
    launch = importlib.import_module(f"{session.engine.name}.view.play").launch_pbem
    return int(launch(session, args.out))


def _done(session: Any) -> str:
    title = session.rules.title(session.me)
    n = len(session.actions)
    return f"Turn {session.number}: {title} played {n} action{'s' if n != 1 else ''}"


def _cmd_status(args: argparse.Namespace) -> int:
    from bellum.pbem import read_turn_file, replay, status

    doc, rules = read_turn_file(args.file)
    replay(doc, rules, args.file)
    print(status(args.file))
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from bellum.replay import load_replay
    from bellum.view.replay import run_replay

    return run_replay(load_replay(args.file))
