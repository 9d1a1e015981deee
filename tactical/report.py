"""After-action reports of tactical battles (docs/rules/tactical.md §11): what each army
brought, what it lost, how close it came to its withdrawal level, the leaders who fell and
the battle's turning points, from the final state and the battle's event log.  Pure: the
CLI writes the text (``bellum battle … --headless --report FILE``); a campaign battle fought
on hexes is reported by the campaign through the engagement contract instead
(``campaign.conversion.tactical_moments``, campaign.md §14.4)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from bellum.engagement import SIDES
from bellum.events import Event
from bellum.report import name_sides, plural_name, without_references
from tactical.state import GONE, State

#: the events a report calls turning points: counters eliminated or routed, leaders lost,
#: elephants rampaging
MOMENT_KINDS = frozenset({"eliminated", "rout", "leader_lost", "rampage"})


def moments(events: Iterable[Event], named: Callable[[str], str] = lambda t: t) -> tuple[str, ...]:
    """The battle's turning points, each a sentence, ids read by ``named``."""
    return tuple(without_references(named(e.text)) for e in events if e.kind in MOMENT_KINDS)


def side_table(state: State, side: str) -> list[tuple[str, int, int, int, int]]:
    """Per unit type of ``side``: (type, fielded, eliminated or gone, routed, disordered)."""
    fielded: Counter[str] = Counter()
    gone: Counter[str] = Counter()
    routed: Counter[str] = Counter()
    disordered: Counter[str] = Counter()
    for u in state.units.values():
        if u.side != side:
            continue
        fielded[u.type] += 1
        if u.status in GONE:
            gone[u.type] += 1
        elif u.status == "routed":
            routed[u.type] += 1
        elif u.status == "disordered":
            disordered[u.type] += 1
    return [(t, fielded[t], gone[t], routed[t], disordered[t]) for t in sorted(fielded)]


def markdown(
    title: str,
    names: dict[str, str],
    state: State,
    events: Sequence[Event],
    winner: str | None,
    why: str,
) -> str:
    """The full report of a finished (or broken-off) tactical battle."""
    if winner is None:
        verdict = f"A draw: {name_sides(why, names)}."
    else:
        verdict = f"{names[winner]} {'win' if plural_name(names[winner]) else 'wins'}: {name_sides(why, names)}."
    md = [f"# {title}", "", f"**{verdict[:1].upper() + verdict[1:]}**", ""]
    lost_leaders = {e.data.get("leader") for e in events if e.kind == "leader_lost"}
    for side in SIDES:
        md += [f"## {names[side]}", ""]
        level = state.withdrawal.get(side, 0)
        md.append(f"Rout points {state.rout_points.get(side, 0)} of a withdrawal level of {level}.")
        leaders = [ld for ld in state.leaders.values() if ld.side == side]
        if leaders:
            fell = [ld.id for ld in leaders if ld.id in lost_leaders or ld.status == "eliminated"]
            md.append(f"Leaders: {len(leaders)}; lost: {', '.join(fell) if fell else 'none'}.")
        md += ["", "| type | fielded | eliminated | routed | disordered |", "|---|---|---|---|---|"]
        md += [f"| {t} | {n} | {g} | {r} | {d} |" for t, n, g, r, d in side_table(state, side)]
        md.append("")
    told = moments(events, lambda t: name_sides(t, names))
    if told:
        md += ["## How it went", ""] + [f"- {m}" for m in told] + [""]  # ids keep their case
    return "\n".join(md)
