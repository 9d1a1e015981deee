"""The ``bellum`` command line.

``bellum`` alone opens the main menu.  Subcommands come from the kernel
(``version``, ``case``, ``shot``) and from each engine's ``cli`` module
(``tactical.cli``, ``battleboard.cli``, ``campaign.cli``), which register their
own commands when they exist.  Bad input ends with one sentence on stderr and
exit code 2 — never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from bellum import __version__
from bellum.errors import BellumError, InputError

#: engine modules that may add subcommands (``register(subparsers)``)
ENGINE_CLI_MODULES = ("tactical.cli", "battleboard.cli", "campaign.cli", "bellum.pbem_cli")


#: the seeds a game takes: what a save holds (``bellum.saves``), so every game saved loads again
MAX_SEED = 2**63 - 1


def check_seed(seed: int, flag: str = "--seed") -> int:
    """``seed`` if a save can hold it, else one ``InputError`` sentence naming the flag."""
    if not 0 <= seed <= MAX_SEED:
        raise InputError(flag, "", f"{seed} is not a seed (a whole number from 0 to 2^63 − 1)")
    return seed


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see '{self.prog} --help')\n")


def _cmd_version(args: argparse.Namespace) -> int:
    from bellum.paths import data_origin, user_folder

    print(f"Bellum Civile {__version__}")
    print(f"game data: {data_origin()}")
    print(f"your scenarios and saves: {user_folder()}")
    return 0


def _cmd_case(args: argparse.Namespace) -> int:
    from bellum.cases import run_cases

    return run_cases(args.paths, sys.stdout)


def _cmd_shot(args: argparse.Namespace) -> int:
    from bellum.shot import shot

    return shot(args)


def _cmd_bench(args: argparse.Namespace) -> int:
    from bellum.bench import run

    return run(args)


def _cmd_study(args: argparse.Namespace) -> int:
    from bellum.study import run

    return run(args)


def _cmd_check(args: argparse.Namespace) -> int:
    from bellum.formats import check_files

    return check_files(args.files, args.as_id)


def _cmd_schemas(args: argparse.Namespace) -> int:
    from bellum.formats import run_schemas

    return run_schemas(args)


def _cmd_menu(args: argparse.Namespace) -> int:
    from bellum.view.menu import run_menu

    run_menu()
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="bellum",
        description="Bellum Civile — Rome's civil war, 49–45 BC: campaign, battleboard and tactical battles.",
        epilog="With no command, bellum opens the game's main menu in a window.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("version", help="print the game's version and where its data was found")
    p.set_defaults(func=_cmd_version)

    p = sub.add_parser("menu", help="open the main menu (the same as no command)")
    p.set_defaults(func=_cmd_menu)

    p = sub.add_parser("case", help="run rules cases (files or folders of *.toml)")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.set_defaults(func=_cmd_case)

    from bellum.shot import add_shot_arguments

    p = sub.add_parser("shot", help="render a view headless to a PNG")
    add_shot_arguments(p)
    p.set_defaults(func=_cmd_shot)

    from bellum.bench import add_arguments as add_bench_arguments

    p = sub.add_parser("bench", help="run the benchmark suite and print medians (docs/PERFORMANCE.md)")
    add_bench_arguments(p)
    p.set_defaults(func=_cmd_bench)

    from bellum.study import add_arguments as add_study_arguments

    p = sub.add_parser(
        "study",
        help="AI-against-AI campaigns or battles over many seeds, on every core or a Dask cluster (docs/BALANCE.md, "
        "docs/AI.md)",
    )
    add_study_arguments(p)
    p.set_defaults(func=_cmd_study)

    from bellum.formats import add_check_arguments, add_schemas_arguments, engine_modules

    p = sub.add_parser("check", help="check data files a modder wrote: scenarios, maps, tables, saves")
    add_check_arguments(p)
    p.set_defaults(func=_cmd_check)

    p = sub.add_parser("schemas", help="write the JSON schemas of every data format (docs/MODDING.md)")
    add_schemas_arguments(p)
    p.set_defaults(func=_cmd_schemas)

    for module in engine_modules(ENGINE_CLI_MODULES):
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    try:
        if func is None:
            return _cmd_menu(args)
        code: int = func(args)
        return code
    except InputError as bad:
        print(f"bellum: {bad}", file=sys.stderr)
        return 2
    except BellumError as err:
        print(f"bellum: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # pyglet's, raised when a window is asked for where there is no screen
        if type(exc).__name__ != "NoSuchDisplayException":
            raise
        print("bellum: there is no display to open a window on; use --headless (or set DISPLAY)", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
