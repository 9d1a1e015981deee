"""``bellum campaign``: play the campaign headless with the AI, print the chronicle, save
and load (docs/rules/campaign.md §14).

    bellum campaign --ai both --turns 8 --seed 1 --headless [--save F] [--load F] [--scenario 49bc]
                    [--reports DIR]
    bellum campaign [--ai senatorial|caesarian|none|both] [--seed S] [--load F] [--save F]

Without ``--headless`` the campaign window opens (``campaign.view.play.launch_game``):
you play the side the computer does not (``--ai none`` is hotseat, ``--ai both`` lets
you watch); the window saves to named slots and autosaves in the player's folder
(``saves/campaign/``; Ctrl+S, Ctrl+L: ``campaign.view.loadscreen``), and with ``--save F``
(or ``--load F``) Ctrl+S writes F at once, the Save button still asking for a named slot.

Every march, voyage, battle, siege and storm is one chronicle line; the run ends with a
summary line; ``--reports DIR`` writes every battle's after-action report there, one
Markdown file a battle (``bellum.report``).  Games go through ``bellum.session.Session``, so ``--save`` writes the
action log and ``--load`` replays it and refuses a save whose replay drifts.  Bad input
is one sentence and exit code 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from campaign.state import MAX_TURNS


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("campaign", help="play the campaign of 49 BC in a window, or headless with the AI")
    p.add_argument(
        "--ai",
        choices=("both", "caesarian", "senatorial", "none"),
        default=None,
        help="which side(s) the computer plays (window: senatorial unless given, none is hotseat; headless: both)",
    )
    p.add_argument("--turns", type=int, default=8, metavar="N", help="turns to play (8 make a year)")
    p.add_argument("--seed", type=int, default=1, metavar="S", help="the game's dice seed")
    p.add_argument("--headless", action="store_true", help="no window: print the chronicle")
    p.add_argument(
        "--save", metavar="FILE", help="headless: save the game here at the end; the window: Ctrl+S writes it"
    )
    p.add_argument("--load", metavar="FILE", help="continue a saved game")
    p.add_argument(
        "--scenario", metavar="NAME", help="scenario name or file (default 49bc; with --load: the save's, checked)"
    )
    p.add_argument("--reports", metavar="DIR", help="headless: write each battle's after-action report into DIR")
    p.add_argument(
        "--battles",
        choices=("auto", "battleboard", "tactical", "decisive-tactical"),
        default="auto",
        help="headless: how battles are fought — auto-resolved on the battleboard (auto, battleboard), every land "
        "battle on the tactical engine (tactical), or only the decisive ones there (decisive-tactical)",
    )
    p.set_defaults(func=run)

    r = subparsers.add_parser(
        "aar",
        help="write the illustrated after-action report of a saved war (maps, charts, every battle)",
    )
    r.add_argument("save", metavar="SAVE", help="a campaign save")
    r.add_argument("--out", required=True, metavar="DIR", help="the folder for index.md, index.html and the pictures")
    r.add_argument(
        "--maps",
        choices=("auto", "season", "year"),
        default="auto",
        help="one map a season or a year (auto: seasons for a war of up to two years)",
    )
    r.add_argument(
        "--battle", type=int, metavar="N", help="only the report of the war's battle N (numbered in the order fought)"
    )
    r.set_defaults(func=run_aar)

    b = subparsers.add_parser(
        "balance", help="play many AI-against-AI wars and print the balance tables (= bellum study campaign)"
    )
    from bellum.study import add_runner_arguments
    from campaign.study import add_arguments as add_study_arguments

    add_study_arguments(b)
    add_runner_arguments(b)
    b.set_defaults(study_module="campaign.study")
    b.set_defaults(func=run_balance)


def run(args: argparse.Namespace) -> int:
    from bellum.errors import InputError

    if not 0 <= args.turns <= MAX_TURNS:
        raise InputError("--turns", "", f"{args.turns} is not a number of turns from 0 to {MAX_TURNS}")
    from bellum.cli import check_seed

    check_seed(args.seed)
    _check_paths(args)
    if not args.headless:
        if os.environ.get("ARCADE_HEADLESS"):
            print(
                "bellum: there is no display for the campaign window here (ARCADE_HEADLESS is set); "
                "run with --headless to let the AI play",
                file=sys.stderr,
            )
            return 2
        launcher = _window_launcher()
        if launcher is None:
            print(
                "bellum: the campaign window could not be loaded; run with --headless to let the AI play",
                file=sys.stderr,
            )
            return 2
        code: int = launcher(args)
        return code
    if args.ai not in (None, "both"):
        raise InputError("--ai", "", "a headless campaign is played by the computer on both sides (use --ai both)")
    return _headless(args)


def _window_launcher() -> Any:
    """``campaign.view.play.launch_game(args)`` when the window can play a game, else None."""
    import importlib

    try:
        module = importlib.import_module("campaign.view.play")
    except ImportError:
        return None
    return getattr(module, "launch_game", None)


def _headless(args: argparse.Namespace) -> int:
    from bellum.errors import InputError
    from bellum.session import Session
    from campaign.ai import CampaignAI
    from campaign.chronicle import lines, result, summary
    from campaign.engine import CampaignEngine
    from campaign.routes import settled
    from campaign.scenario import resolve

    engine = CampaignEngine()
    if args.load:
        session = Session.load(engine, args.load, args.scenario)
        print(f"Loaded {args.load}: {session.state.date()}, {len(session.actions)} actions replayed.")
    else:
        scenario = args.scenario or "49bc"
        path = resolve(scenario)
        if not path.exists():
            raise InputError(scenario, "", "is no campaign scenario (give a name under scenarios/campaign or a file)")
        session = Session(engine, scenario, args.seed)
    start = len(session.log)
    ai = CampaignAI()
    end = session.state.turn + args.turns
    shown = start
    while session.state.turn < end and not session.state.result:
        # a battle for the tactical engine is fought here and its outcome kept in the action
        action = settled(
            session.state, ai.choose(session.state), args.battles, session.seed * 7919 + len(session.actions)
        )
        session.play(action)
        new = session.log.since(shown)
        shown = len(session.log)
        for text in lines(new):
            print(text)
    print(summary(session.state, session.log.since(start)))
    print(result(session.state))
    if args.reports:
        n = write_reports(list(session.log), args.reports)
        print(f"Wrote {n} after-action report{'s' if n != 1 else ''} to {args.reports}.")
    if args.save:
        session.save(args.save)
        print(f"Saved to {args.save}.")
    return 0


def run_aar(args: argparse.Namespace) -> int:
    """``bellum aar SAVE --out DIR``: the war's illustrated report (``campaign.view.aar``)."""
    from bellum.errors import InputError
    from bellum.saves import read_save

    data = read_save(args.save, "campaign")  # a bad save is refused before any folder is made
    if args.battle is not None:
        fought = sum(
            1 for e in data.events if e.get("kind") == "battle" and isinstance(e.get("data", {}).get("report"), dict)
        )
        if not 1 <= args.battle <= fought:
            raise InputError("--battle", "", f"{args.battle} is not a battle of this war (it has {fought})")
    _writable(args.out, "--out")
    if not os.environ.get("DISPLAY"):
        os.environ.setdefault("ARCADE_HEADLESS", "1")
    from campaign.view.aar import write

    try:
        index = write(args.save, args.out, args.maps, battle=args.battle)
    except OSError as exc:
        raise InputError(args.out, "", f"cannot be written ({exc.strerror or exc})") from None
    print(f"Wrote the after-action report to {index} and {index.with_suffix('.html')}.")
    return 0


def run_balance(args: argparse.Namespace) -> int:
    """``bellum balance``: ``bellum study campaign`` under its older name."""
    from bellum.study import run as run_study

    return run_study(args)


def _check_paths(args: argparse.Namespace) -> None:
    """Every path argument, before the game starts: one sentence for a file that cannot be
    read or written, or a reports folder that cannot be made."""
    from bellum.paths import check_output
    from bellum.tomlio import read_input

    if args.load:
        read_input(args.load)
    if args.save:
        check_output(args.save, "--save")
    if args.reports:
        _writable(args.reports)


def _writable(folder: str, flag: str = "--reports") -> None:
    """Refuse, before the game is played, a reports folder that cannot be made."""
    from pathlib import Path

    from bellum.errors import InputError
    from bellum.paths import check_output

    check_output(folder, flag, folder=True)
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(folder, "", f"cannot be made a folder for the reports ({exc.strerror or exc})") from None


def write_reports(events: list[Any], folder: str) -> int:
    """Every battle's after-action report among ``events`` — and the story of every siege
    and every interception (``campaign.chronicle.stories``) — one Markdown file each in
    ``folder`` (made if missing), numbered in the order they happened; the number written.
    A folder that cannot be written is one ``InputError`` sentence."""
    from pathlib import Path

    from bellum.errors import InputError
    from campaign.chronicle import all_reports, report_file_name

    reports = all_reports(events, fought="auto-resolve")
    out = Path(folder)
    try:
        out.mkdir(parents=True, exist_ok=True)
        for n, rep in enumerate(reports, 1):
            (out / report_file_name(n, rep)).write_text(rep.markdown() + "\n", encoding="utf-8")
    except OSError as exc:
        raise InputError(folder, "", f"cannot be written ({exc.strerror or exc})") from None
    return len(reports)
