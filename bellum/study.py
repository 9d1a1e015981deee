"""``bellum study``: AI-against-AI games over many seeds, on every core or on a cluster.

A study is a list of independent games, each a pure function of its arguments (the seed
among them): ``campaign`` plays wars (``campaign.study``), ``battles`` plays tactical
battles against the baselines or AI against AI (``tactical.study``).  Each engine's study
module gives the same four things:

* ``add_arguments(parser)`` — its own options;
* ``tasks(args)`` — the games to play, as tuples of plain values;
* ``play(task)`` — one game (a module-level function, so it travels to another process or
  machine), returning one row of the results table: a dict of plain values;
* ``summary(rows)`` — the Markdown tables of its page in docs/ (BALANCE.md, AI.md).

``run_tasks`` plays the games one at a time (``--jobs 1``), on a pool of processes
(``--jobs N``; 0 = every core) or on a Dask distributed cluster (``--scheduler ADDRESS``),
with a progress bar on stderr.  The rows come back in the order of the tasks whatever the
order the games finish in, and no row holds a time or anything else the worker count could
change, so a study is deterministic by seed: ``--jobs 1`` and ``--jobs 2`` write the same
table (``tests/kernel/test_study.py``).  How long the study took is printed on stderr.
"""

from __future__ import annotations

import argparse
import csv
import importlib
import io
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from bellum.errors import InputError

#: the kinds of study and the engine module that plays each
STUDY_MODULES = {"campaign": "campaign.study", "battles": "tactical.study"}

Row = dict[str, Any]
Task = tuple[Any, ...]


def parse_seeds(text: str, flag: str = "--seeds") -> list[int]:
    """Seeds written as ranges and single seeds: ``1-20``, ``3,5,8``, ``1-10,15``."""
    seeds: list[int] = []
    try:
        for part in text.split(","):
            lo, _, hi = part.strip().partition("-")
            a, b = int(lo), int(hi or lo)
            if not (0 <= a <= b < 2**63) or b - a > 100_000:
                raise ValueError
            seeds.extend(range(a, b + 1))
    except ValueError:
        raise InputError(flag, "", f"{text!r} is not a list of seeds such as 1-20 or 3,5,8") from None
    return seeds


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="study", metavar="KIND", required=True, parser_class=type(p))
    for kind, name in STUDY_MODULES.items():
        module = importlib.import_module(name)
        summary = " ".join((module.__doc__ or kind).strip().split("\n\n")[0].split())
        q = sub.add_parser(kind, help=summary, description=summary)
        module.add_arguments(q)
        add_runner_arguments(q)
        q.set_defaults(study_module=name)


def add_runner_arguments(q: argparse.ArgumentParser) -> None:
    q.add_argument(
        "--jobs", type=int, default=0, metavar="J", help="games played at once here (0, the default: one a core)"
    )
    q.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="play the games on a Dask distributed cluster through its scheduler (tcp://host:8786)",
    )
    q.add_argument("--out", metavar="FILE", help="write the results table here: one row a game (.csv or .json)")
    q.add_argument("--summary", metavar="FILE", help="write the summary tables (Markdown) here rather than print them")
    q.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    """``bellum study KIND …``: play the games, write the tables."""
    from bellum.paths import check_output

    module = importlib.import_module(args.study_module)
    for flag in ("out", "summary"):
        path = getattr(args, flag)
        if path is not None:
            check_output(path, f"--{flag}")
    if args.out is not None and Path(args.out).suffix.lower() not in (".csv", ".json"):
        raise InputError("--out", "", f"{args.out} should end in .csv or .json (the table's format)")
    todo: list[Task] = module.tasks(args)
    t0 = time.perf_counter()
    rows = run_tasks(module.play, todo, jobs=args.jobs, scheduler=args.scheduler, progress=not args.quiet)
    took = time.perf_counter() - t0
    if args.out is not None:
        write_rows(rows, args.out)
    text = module.summary(rows)
    if args.summary is not None:
        Path(args.summary).write_text(text + "\n", encoding="utf-8")
    else:
        print(text)
    where = f"the cluster at {args.scheduler}" if args.scheduler else f"{workers(args.jobs)} process(es)"
    print(f"bellum study: {len(rows)} games in {took:.1f} s on {where}", file=sys.stderr)
    return 0


def workers(jobs: int) -> int:
    """The processes ``--jobs`` asks for: itself, or one a core for 0."""
    if jobs < 0 or jobs > 256:
        raise InputError("--jobs", "", f"{jobs} is not a number of processes from 0 (one a core) to 256")
    return jobs or os.cpu_count() or 1


def run_tasks(
    play: Callable[[Task], Row],
    tasks: Sequence[Task],
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    progress: bool = False,
) -> list[Row]:
    """``play`` each task — here, on ``jobs`` processes, or on the Dask cluster at
    ``scheduler`` — and return the rows in the order of ``tasks``."""
    rows: list[Row | None] = [None] * len(tasks)
    bar = _bar(len(tasks), progress)
    try:
        if scheduler is not None:
            _on_cluster(play, tasks, scheduler, rows, bar)
        elif workers(jobs) == 1 or len(tasks) <= 1:
            for i, task in enumerate(tasks):
                rows[i] = play(task)
                bar.update(1)
        else:
            with ProcessPoolExecutor(max_workers=min(workers(jobs), len(tasks))) as pool:
                futures = {pool.submit(play, task): i for i, task in enumerate(tasks)}
                for done in as_completed(futures):
                    rows[futures[done]] = done.result()
                    bar.update(1)
    finally:
        bar.close()
    return [r for r in rows if r is not None]


def _on_cluster(
    play: Callable[[Task], Row], tasks: Sequence[Task], address: str, rows: list[Row | None], bar: Any
) -> None:
    try:
        from distributed import Client
        from distributed import as_completed as dask_completed
    except ImportError:  # pragma: no cover - a dependency of the game
        raise InputError("--scheduler", address, "needs Dask distributed: pip install 'dask[distributed]'") from None
    try:
        client = Client(address, timeout=20)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as exc:
        raise InputError("--scheduler", address, f"no Dask scheduler answers there ({exc})") from None
    with client:
        futures = client.map(play, list(tasks), pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        for done in dask_completed(futures):  # type: ignore[no-untyped-call]
            rows[index[done.key]] = done.result()
            bar.update(1)


def _bar(total: int, shown: bool) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, unit="game", file=sys.stderr, disable=not shown, dynamic_ncols=True, leave=False)


def write_rows(rows: list[Row], path: str) -> None:
    """The results table: CSV (a header, one line a game; a nested value is one JSON cell) or
    JSON (a list of objects)."""
    if Path(path).suffix.lower() == ".json":
        text = json.dumps(rows, indent=1, sort_keys=False) + "\n"
    else:
        buf = io.StringIO()
        names = list(dict.fromkeys(k for r in rows for k in r))
        writer = csv.DictWriter(buf, fieldnames=names, lineterminator="\n")
        writer.writeheader()
        for r in rows:  # nested values (counts by kind, by year…) as one JSON cell
            writer.writerow({k: _cell(v) for k, v in r.items()})
        text = buf.getvalue()
    Path(path).write_text(text, encoding="utf-8")


def _cell(value: Any) -> Any:
    return json.dumps(value, sort_keys=True) if isinstance(value, dict | list) else value
