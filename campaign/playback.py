"""The other side's half-turn, told again on the map (issue 15, "the enemy's turn shown").

Built from the campaign's recorded events (``Session.log``): every side's half-turn opens
with a ``side_turn`` event, and what happened in it — marches and voyages with their
paths, battles, sieges, storms, captures, retreats, recruits — carries the places it
happened at.  ``last_half_turn`` cuts the log at the latest half-turn of a side that has
ended; ``playback`` turns it into ``Step``s the window draws one by one (an arrow along
a path, a mark at a place) and a "what changed" summary.

Pure: no arcade, no I/O — the events in, plain data out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bellum.events import Event
from campaign.chronicle import line
from campaign.map import roman_world
from campaign.state import SIDE_NAMES

#: how a step is drawn: along a path (an arrow) or at a place (a mark)
PATH_KINDS = frozenset({"march", "sail", "retreat", "scatter", "horde_moves"})
PLACE_KINDS = frozenset(
    {
        "battle",
        "siege",
        "siege_begun",
        "siege_lifted",
        "storm",
        "capture",
        "surrender",
        "march_halt",
        "interception",
        "voyage_stopped",
        "recruit",
        "recruit_leader",
        "levy",
        "sack",
        "revolt",
        "colony",
        "bribe",
        "merge",
    }
)
#: the events worth a step of their own (the rest of the half-turn is in the summary only)
STEP_KINDS = PATH_KINDS | PLACE_KINDS


@dataclass(frozen=True, slots=True)
class Step:
    """One thing the other side did (or that happened to him), as the map shows it.

    ``path`` is the places an arrow runs through (two or more), ``place`` where a mark
    goes (the path's end for a move); ``text`` is the chronicle's line."""

    kind: str
    text: str
    place: str | None
    path: tuple[str, ...] = ()
    side: str | None = None
    force: str | None = None


@dataclass(frozen=True, slots=True)
class Playback:
    """The steps of one side's half-turn and what changed in it."""

    side: str
    date: str
    steps: tuple[Step, ...]
    summary: tuple[str, ...]

    def title(self) -> str:
        who = SIDE_NAMES.get(self.side, self.side).removeprefix("the ").capitalize()
        return f"{who}' turn, {self.date}" if who.endswith("s") else f"{who}'s turn, {self.date}"


def half_turns(events: Sequence[Event]) -> list[tuple[int, int, str]]:
    """Every half-turn in ``events``: (first index, end index, side), in order.  A half-turn
    runs from its ``side_turn`` event to the next ``side_turn`` or ``turn`` event."""
    out: list[tuple[int, int, str]] = []
    start: int | None = None
    side = ""
    for i, e in enumerate(events):
        if e.kind in ("side_turn", "turn") and start is not None:
            out.append((start, i, side))
            start = None
        if e.kind == "side_turn":
            start, side = i, str(e.data.get("side", ""))
    if start is not None:
        out.append((start, len(events), side))
    return out


def last_half_turn(events: Sequence[Event], sides: Iterable[str]) -> tuple[int, list[Event]] | None:
    """The latest half-turn played by one of ``sides`` that has ended (another half-turn
    began after it): its ``side_turn`` event's index and its events; None if there is none."""
    wanted = set(sides)
    spans = half_turns(events)
    for k in range(len(spans) - 1, -1, -1):
        start, end, side = spans[k]
        ended = k + 1 < len(spans) or any(e.kind == "turn" for e in events[end:])
        if side in wanted and ended:
            return start, list(events[start:end])
    return None


def _step(e: Event, last_battle: str | None, names: set[str]) -> Step | None:
    data = e.data
    side = data.get("side")
    force = data.get("force")
    if e.kind in PATH_KINDS:
        path = tuple(str(p) for p in data.get("path", ()) if str(p) in names)
        if e.kind == "retreat" and last_battle and data.get("place"):
            path = (last_battle, str(data["place"]))
        path = tuple(p for p in path if p in names)
        if len(path) >= 2:
            return Step(e.kind, line(e), path[-1], path, side, force)
        place = path[-1] if path else data.get("place")
        return Step(e.kind, line(e), place if place in names else None, (), side, force)
    if e.kind in PLACE_KINDS:
        place = data.get("place")
        return Step(e.kind, line(e), place if place in names else None, (), side, force)
    return None


def summary(side: str, events: Sequence[Event]) -> tuple[str, ...]:
    """What changed in the half-turn, in a few lines: moves, battles with their losses,
    sieges, the places that changed hands, recruits."""
    world = roman_world()
    count = Counter(e.kind for e in events)
    out: list[str] = []
    moves = count["march"] + count["scatter"]
    if moves or count["sail"]:
        out.append(f"{_n(moves, 'march', 'marches')}, {_n(count['sail'], 'voyage', 'voyages')}.")
    lost: Counter[str] = Counter()
    for e in events:
        if e.kind == "battle":
            for s, sp in dict(e.data.get("lost", {})).items():
                lost[str(s)] += int(sp)
    if count["battle"]:
        losses = ", ".join(f"{SIDE_NAMES.get(s, s)} lose {sp} SP" for s, sp in sorted(lost.items()))
        out.append(f"{_n(count['battle'], 'battle', 'battles')}" + (f": {losses}." if losses else "."))
    sieges = count["siege"] + count["siege_begun"] + count["storm"]
    if sieges:
        out.append(f"{_n(sieges, 'siege or storm', 'sieges and storms')}.")
    taken = [e for e in events if e.kind in ("capture", "sack", "revolt", "wavering") and e.data.get("place")]
    gained = [world.name(str(e.data["place"])) for e in taken if e.data.get("side") == side]
    others = [world.name(str(e.data["place"])) for e in taken if e.data.get("side") != side]
    who = SIDE_NAMES.get(side, side)
    if gained:
        out.append(f"{who[:1].upper()}{who[1:]} take {', '.join(gained)}.")
    if others:
        out.append(f"Changed hands: {', '.join(others)}.")
    if count["recruit"] or count["recruit_leader"]:
        out.append(f"{_n(count['recruit'] + count['recruit_leader'], 'recruit', 'recruits')}.")
    return tuple(out) or ("Nothing moved on the map.",)


def _n(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def playback(events: Sequence[Event], side: str) -> Playback:
    """The steps of a half-turn's events (from its ``side_turn`` event on) and its summary."""
    names = set(roman_world().graph.nodes)
    steps: list[Step] = []
    last_battle: str | None = None
    for e in events:
        if e.kind == "battle":
            last_battle = str(e.data.get("place", "")) or None
        step = _step(e, last_battle, names)
        if step is not None:
            steps.append(step)
    date = next((str(e.data["date"]) for e in events if e.data.get("date")), "")
    return Playback(side, date, tuple(steps), summary(side, events))


def enemy_playback(events: Sequence[Event], sides: Iterable[str]) -> tuple[int, Playback] | None:
    """The latest ended half-turn of one of ``sides`` (the other players') as a playback,
    with the index of its ``side_turn`` event (to show each half-turn once)."""
    found = last_half_turn(events, sides)
    if found is None:
        return None
    start, evs = found
    return start, playback(evs, str(evs[0].data.get("side", "")))
