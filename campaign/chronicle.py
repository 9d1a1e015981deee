"""The chronicle: readable lines from the campaign's events (docs/rules/campaign.md §14).

Every event carries its date; a chronicle line is "April 49 BC — Caesar marches from
Ravenna to Ariminum by the Via Popillia."  ``CHRONICLE_KINDS`` are the events worth a
line (marches, voyages, interceptions, battles, sieges, storms, captures, losses to
the march, forage and winter, leaders' fates); the rest (passes, phase changes) are
bookkeeping.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from bellum.events import Event
from bellum.report import AfterAction, from_data
from campaign.state import SIDE_NAMES, SIDES, CampaignState

CHRONICLE_KINDS = frozenset(
    {
        "march",
        "march_halt",
        "march_attrition",
        "scatter",
        "sail",
        "left_ashore",
        "interception",
        "voyage_stopped",
        "naval_offer",
        "naval_refused",
        "battle",
        "promotion",
        "bonus",
        "prize",
        "leader_killed",
        "executed",
        "captured",
        "retreat",
        "surrender",
        "flee",
        "capture",
        "siege",
        "siege_begun",
        "siege_lifted",
        "storm",
        "cut_declared",
        "escort_declared",
        "supply_cut",
        "forage",
        "adrift",
        "winter",
        "quarters",
        "merge",
        # the wider world and victory (campaign.md §19–§21)
        "historical_event",
        "client_joins",
        "client_declares",
        "client_leaves",
        "levy",
        "client_gone",
        "horde",
        "horde_moves",
        "horde_clash",
        "sack",
        "revolt",
        "revolt_none",
        "justice",
        "reforms",
        "wavering",
        "victory",
        # politics, stratagems and recruiting (campaign.md §15–§17)
        "politics",
        "veto",
        "marker",
        "dictator",
        "imperator",
        "tribune",
        "claim",
        "succession_lost",
        "recruit",
        "recruit_leader",
        "colony",
        "train",
        "tribute",
        "bribe",
        "desertion",
        "defection",
        "assassination",
        "spoils",
        "volunteers",
    }
)


def line(e: Event) -> str:
    date = e.data.get("date", "")
    text = f"{e.text} (A major battle.)" if is_major(e) else e.text
    return f"{date} — {text}" if date else text


def lines(events: Iterable[Event]) -> list[str]:
    return [line(e) for e in events if e.kind in CHRONICLE_KINDS]


class Chronicler:
    """The chronicle in the order things happened, under a header for each turn (its date,
    "— March 49 BC —") and for each side's half-turn ("The Senatorials play."), fed the
    events as they come (``feed``).  A header is written only when a line follows it, and
    a line always sits under its own date's header: the header comes from the line's date,
    never from a turn event read ahead of the lines of the turn before."""

    def __init__(self) -> None:
        self.date: str | None = None
        self.half: str | None = None  # the half-turn's header, waiting for its first line
        self.winter: set[str] = set()

    def feed(self, events: Iterable[Event]) -> list[str]:
        out: list[str] = []
        for e in events:
            if e.kind == "turn" and "(winter)" in e.text:
                self.winter.add(str(e.data.get("date", "")))
            if e.kind == "side_turn":
                self.half = e.text
                continue
            if e.kind not in CHRONICLE_KINDS:
                continue
            when = str(e.data.get("date", ""))
            if when and when != self.date:
                self.date = when
                out.append(f"— {when}{' (winter)' if when in self.winter else ''} —")
            if self.half is not None:
                out.append(self.half)
                self.half = None
            out.append(line(e))
        return out


def grouped(events: Iterable[Event]) -> list[str]:
    """The whole chronicle of ``events`` grouped by turn and half-turn (``Chronicler``)."""
    return Chronicler().feed(events)


#: a major battle: a land field battle in which each side fielded at least this many SP
#: (docs/BALANCE.md; design — Caesar's eight great battles, reference)
MAJOR_SP = 8


def is_major(e: Event) -> bool:
    """A land field battle in which each side brought at least ``MAJOR_SP`` SP."""
    if e.kind != "battle" or e.data.get("battle_kind") != "land" or e.data.get("trigger") != "battle":
        return False
    engaged = e.data.get("engaged", {})
    return len(engaged) == 2 and all(v >= MAJOR_SP for v in engaged.values())


def battle_reports(events: Iterable[Event], fought: str = "") -> list[AfterAction]:
    """The after-action report of every battle among ``events`` (``bellum.report``), from
    the engagement and outcome each battle event carries."""
    return [rep for _, rep in _battle_reports(list(events), fought)]


def _battle_reports(events: list[Event], fought: str) -> list[tuple[int, AfterAction]]:
    """``battle_reports`` with the index of each battle's event."""
    from campaign.map import roman_world

    cmap = roman_world()
    return [
        (
            i,
            from_data(
                e.data["report"],
                names=SIDE_NAMES,
                place=cmap.name(e.data.get("place", "")),
                fought="the tactical engine" if e.data.get("engine") == "tactical" else fought,
            ),
        )
        for i, e in enumerate(events)
        if e.kind == "battle" and isinstance(e.data.get("report"), dict)
    ]


def all_reports(events: Iterable[Event], fought: str = "") -> list[AfterAction | Story]:
    """Every battle's report and every siege's and interception's story, in the order they
    began (``--reports``, campaign.md §14.4)."""
    events = list(events)
    told: list[tuple[int, AfterAction | Story]] = [*_battle_reports(events, fought)]
    told += [(s.index, s) for s in stories(events)]
    return [rep for _, rep in sorted(told, key=lambda t: t[0])]


#: what a siege's story tells, besides its beginning and end
SIEGE_KINDS = frozenset(
    {"siege", "storm", "cut_declared", "escort_declared", "supply_cut", "battle", "bribe", "capture", "siege_lifted"}
)


@dataclass
class Story:
    """A report that is not a battle's: a siege from its beginning to its end, or an
    interception at sea (``write_reports``)."""

    kind: str  # "siege" or "interception"
    place: str
    date: str
    #: the index of the event it began with, among those it was told from
    index: int = 0
    lines: list[str] = field(default_factory=list)
    end: str = ""

    def title(self) -> str:
        from campaign.map import roman_world

        name = roman_world().name(self.place)
        what = "Siege of" if self.kind == "siege" else "Interception off"
        return f"{what} {name}, {self.date}"

    def markdown(self) -> str:
        out = [f"# {self.title()}", ""]
        out += [f"- {ln}" for ln in self.lines]
        if self.end:
            out += ["", self.end]
        return "\n".join(out)


def stories(events: Iterable[Event]) -> list[Story]:
    """Every siege (from ``siege_begun`` to its fall or lifting, with each attrition roll,
    storm, blockade and convoy battle at the city) and every interception, in the order
    they began (campaign.md §14.4)."""
    from campaign.map import roman_world

    cmap = roman_world()
    out: list[Story] = []
    open_sieges: dict[str, Story] = {}
    for i, e in enumerate(events):
        place = str(e.data.get("place", ""))
        if e.kind == "interception":
            found = bool(e.data.get("found"))
            story = Story("interception", place, str(e.data.get("date", "")), i, [line(e)])
            story.end = (
                "The fleet was found: the sea fight has its own battle report."
                if found
                else "The fleet was not found, and the voyage went on."
            )
            out.append(story)
            continue
        if e.kind == "siege_begun":
            story = Story("siege", place, str(e.data.get("date", "")), i, [line(e)])
            open_sieges[place] = story
            out.append(story)
            continue
        near = [c for c in open_sieges if place == c or (cmap.is_sea(place) and place in cmap.seas_of(c))]
        for city in near:
            if e.kind in SIEGE_KINDS:
                open_sieges[city].lines.append(line(e))
            if e.kind == "capture" and place == city:
                open_sieges.pop(city).end = f"{cmap.name(city)} fell."
            elif e.kind == "siege_lifted" and place == city:
                open_sieges.pop(city).end = "The siege was lifted."
    for story in open_sieges.values():
        story.end = "The siege goes on."
    return out


def report_file_name(n: int, rep: AfterAction | Story) -> str:
    """``03-battle-of-pharsalus-august-48-bc.md``: numbered in the order fought."""
    slug = re.sub(r"[^a-z0-9]+", "-", rep.title().lower()).strip("-")
    return f"{n:02d}-{slug}.md"


#: the kinds of engagement a war is counted by (the summary line, docs/BALANCE.md)
WAR_KINDS = (
    "land battles",
    "sea interceptions",
    "supply battles",
    "mutual sea battles",
    "sieges begun",
    "storms",
    "relief battles",
    "tactical battles",
)


def war_kinds(e: Event) -> list[str]:
    """The kinds of ``WAR_KINDS`` an event counts as (a relief battle is a land battle too;
    a tactical battle is also counted by its trigger)."""
    out: list[str] = []
    if e.kind == "interception":
        out.append("sea interceptions")
    elif e.kind == "siege_begun":
        out.append("sieges begun")
    elif e.kind == "storm":
        out.append("storms")
    elif e.kind == "battle":
        trigger = e.data.get("trigger")
        if e.data.get("battle_kind") == "land" and trigger == "battle":
            out.append("land battles")
            if e.data.get("relief"):
                out.append("relief battles")
        elif trigger == "supply":
            out.append("supply battles")
        elif trigger == "mutual":
            out.append("mutual sea battles")
        if e.data.get("engine") == "tactical":
            out.append("tactical battles")
    return out


def war_counts(events: Iterable[Event]) -> dict[str, int]:
    """How many of each of ``WAR_KINDS`` the events hold."""
    counts = dict.fromkeys(WAR_KINDS, 0)
    for e in events:
        for k in war_kinds(e):
            counts[k] += 1
    return counts


def counts_text(counts: dict[str, int]) -> str:
    """``12 land battles, 3 sea interceptions, …`` — each kind as ``N <kind>``."""
    return ", ".join(f"{counts[k]} {k}" for k in WAR_KINDS)


def summary(state: CampaignState, events: Iterable[Event]) -> str:
    """One line at the end of a run: the date, the cities each side holds, the battles of
    every kind (``WAR_KINDS``), the Res Publica and fratricide."""
    from campaign.map import roman_world

    cmap = roman_world()
    events = list(events)
    kinds = Counter(e.kind for e in events)
    major = sum(1 for e in events if is_major(e))
    held = {s: sum(1 for c in cmap.cities() if state.owner_side(c) == s) for s in SIDES}
    sp = {s: sum(f.strength() for f in state.forces_of(s)) for s in SIDES}
    rome = state.owner_side("roma")
    return (
        f"Summary, {state.date()}: "
        f"Caesarians hold {held['caesarian']} cities ({sp['caesarian']} SP), "
        f"Senatorials {held['senatorial']} ({sp['senatorial']} SP); Rome is "
        f"{'Caesarian' if rome == 'caesarian' else 'Senatorial' if rome == 'senatorial' else 'neutral'}; "
        f"{kinds['battle']} battles ({major} major): {counts_text(war_counts(events))}; "
        f"{kinds['siege']} siege rolls; "
        f"Res Publica {state.res_publica.get('caesarian', 0)}–{state.res_publica.get('senatorial', 0)}; "
        f"fratricide {state.fratricide}."
    )


def result(state: CampaignState) -> str:
    """The chronicle's last line: the war's result, or where it stands (campaign.md §21)."""
    from campaign.rules.victory import result_line

    return result_line(state)
