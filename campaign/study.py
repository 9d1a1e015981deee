"""AI-against-AI wars over many seeds, counted by kind and year (docs/BALANCE.md).

``play_war(seed, turns, battles)`` plays one headless war exactly as ``bellum campaign
--ai both --headless`` does and returns what a balance table needs: how it ended, the
engagements of each kind (``campaign.chronicle.WAR_KINDS``) in all and by year, and the
seconds it took.  This module is the ``campaign`` kind of ``bellum study``
(``bellum.study``: ``tasks``, ``play`` — one war as a row of the results table — and
``summary``, the tables of docs/BALANCE.md); ``bellum balance`` is the same study under its
older name (``campaign.cli``).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import asdict, dataclass
from typing import Any

#: the battle modes of ``bellum campaign --battles``
BATTLE_MODES = ("auto", "battleboard", "tactical", "decisive-tactical")


@dataclass
class War:
    """One war's figures."""

    seed: int
    ended: str
    how: str
    winner: str
    counts: dict[str, int]
    by_year: dict[str, dict[str, int]]
    major: int
    fratricide: int
    seconds: float
    #: turns the war ran (fewer than asked when it ended early)
    turns: int


def play_war(seed: int, turns: int = 40, battles: str = "auto", scenario: str = "49bc") -> War:
    """One headless AI-against-AI war (the same loop as ``bellum campaign --headless``)."""
    from bellum.session import Session
    from campaign.ai import CampaignAI
    from campaign.chronicle import WAR_KINDS, is_major, war_kinds
    from campaign.engine import CampaignEngine
    from campaign.routes import settled

    t0 = time.perf_counter()
    session = Session(CampaignEngine(), scenario, seed)
    ai = CampaignAI()
    start = session.state.turn
    end = start + turns
    while session.state.turn < end and not session.state.result:
        action = settled(session.state, ai.choose(session.state), battles, seed * 7919 + len(session.actions))
        session.play(action)
    events = list(session.log)
    counts = dict.fromkeys(WAR_KINDS, 0)
    by_year: dict[str, dict[str, int]] = {}
    major = 0
    for e in events:
        year = str(e.data.get("date", "")).split(" ", 1)[-1]
        kinds = war_kinds(e)
        if is_major(e):
            kinds = [*kinds, "major battles"]
            major += 1
        for k in kinds:
            counts[k] = counts.get(k, 0) + 1
            row = by_year.setdefault(year, {})
            row[k] = row.get(k, 0) + 1
    s = session.state
    res = s.result
    return War(
        seed=seed,
        ended=s.date(),
        how=res.get("how", "undecided") if res else "undecided",
        winner=res.get("winner", "") if res else "",
        counts=counts,
        by_year=by_year,
        major=major,
        fratricide=s.fratricide,
        seconds=time.perf_counter() - t0,
        turns=s.turn - start,
    )


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seeds", default="1-20", metavar="A-B", help="the seeds to play, e.g. 1-20 or 3,5,8")
    p.add_argument("--turns", type=int, default=40, metavar="N", help="turns a war (40 = five years)")
    p.add_argument("--battles", choices=BATTLE_MODES, default="auto", help="how battles are fought (bellum campaign)")
    p.add_argument("--scenario", default="49bc", metavar="NAME", help="campaign scenario (default 49bc)")


def tasks(args: argparse.Namespace) -> list[tuple[int, int, str, str]]:
    """One war a seed: (seed, turns, battles, scenario)."""
    from bellum.errors import InputError
    from bellum.study import parse_seeds
    from campaign.state import MAX_TURNS

    if not 1 <= args.turns <= MAX_TURNS:
        raise InputError("--turns", "", f"{args.turns} is not a number of turns from 1 to {MAX_TURNS}")
    return [(s, args.turns, args.battles, args.scenario) for s in parse_seeds(args.seeds)]


def play(task: tuple[int, int, str, str]) -> dict[str, Any]:
    """One war as a row of the results table (everything but the time it took)."""
    row = asdict(play_war(*task))
    del row["seconds"]
    return row


def summary(rows: list[dict[str, Any]]) -> str:
    return markdown([War(**row, seconds=0.0) for row in rows], seconds=False)


def study(seeds: list[int], turns: int = 40, battles: str = "auto", jobs: int = 2) -> list[War]:
    """Play a war for each seed, ``jobs`` at a time on separate processes (``bellum.study``)."""
    from bellum.study import run_tasks

    rows = run_tasks(play, [(s, turns, battles, "49bc") for s in seeds], jobs=jobs)
    return [War(**row, seconds=0.0) for row in rows]


SHORT = {
    "land battles": "land",
    "sea interceptions": "intercept",
    "supply battles": "supply",
    "mutual sea battles": "mutual",
    "sieges begun": "sieges",
    "storms": "storms",
    "relief battles": "relief",
    "tactical battles": "tactical",
}


def markdown(wars: list[War], seconds: bool = True) -> str:
    """The tables of docs/BALANCE.md: one row a war, the means and the games that saw each
    kind, and the kinds by year (``seconds``: with each war's wall-clock time)."""
    from campaign.chronicle import WAR_KINDS

    kinds = list(WAR_KINDS)
    head = "| seed | ended | how | winner | " + " | ".join(SHORT[k] for k in kinds) + " | major | fratricide |"
    head += " s |" if seconds else ""
    rule = "|" + "---|" * (len(kinds) + 6 + seconds)
    rows = [head, rule]
    for w in wars:
        cells = " | ".join(str(w.counts.get(k, 0)) for k in kinds)
        winner = {"caesarian": "Caesarians", "senatorial": "Senatorials"}.get(w.winner, "—")
        line = f"| {w.seed} | {w.ended} | {w.how} | {winner} | {cells} | {w.major} | {w.fratricide} |"
        rows.append(line + (f" {w.seconds:.0f} |" if seconds else ""))
    n = max(1, len(wars))
    means = " | ".join(f"{sum(w.counts.get(k, 0) for w in wars) / n:.2f}" for k in kinds)
    seen = " | ".join(f"{sum(1 for w in wars if w.counts.get(k, 0))}/{len(wars)}" for k in kinds)
    major = sum(w.major for w in wars)
    tail = " |" if seconds else ""
    rows.append(f"| mean | | | | {means} | {major / n:.2f} | {sum(w.fratricide for w in wars) / n:.0f} |{tail}")
    rows.append(f"| games with one | | | | {seen} | | |{tail}")
    winners = {s: sum(1 for w in wars if w.winner == s) for s in ("caesarian", "senatorial")}
    none = len(wars) - sum(winners.values())
    turns = sum(w.turns for w in wars)
    rows.append("")
    rows.append(
        f"Winners: Caesarians {winners['caesarian']}, Senatorials {winners['senatorial']}, no winner {none}. "
        f"Major battles: {major} in {turns} turns, {4 * major / max(1, turns):.2f} every four turns."
    )
    years = sorted({y for w in wars for y in w.by_year}, key=lambda y: -int(y.split()[0]) if y[:1].isdigit() else 0)
    rows.append("")
    rows.append("| year | games | " + " | ".join(SHORT[k] for k in kinds) + " | major |")
    rows.append("|" + "---|" * (len(kinds) + 3))
    for y in years:
        if not y[:1].isdigit():
            continue
        games = sum(1 for w in wars if y in w.by_year)
        per = " | ".join(f"{sum(w.by_year.get(y, {}).get(k, 0) for w in wars) / n:.2f}" for k in kinds)
        maj = sum(w.by_year.get(y, {}).get("major battles", 0) for w in wars) / n
        rows.append(f"| {y} | {games} | {per} | {maj:.2f} |")
    return "\n".join(rows)
