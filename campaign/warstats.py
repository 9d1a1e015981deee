"""The war in numbers, for the end-of-war screen (issue 15 item 7; campaign.md §21).

Who won and by which condition (``state.result``, set by ``campaign.rules.victory``), the
condition in words, and the war's statistics: turns played, battles by kind, sieges, the
strength each side lost in battle, leaders killed and taken, and the cities each side held at
the end of every turn — the last needs the states of the war, so ``months`` replays the
game's actions from its scenario and seed through an engine that takes a note at each change
of turn (``Counting``).  No arcade and no files here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bellum.dice import Dice
from bellum.events import Event
from bellum.session import Session
from campaign import actions as A
from campaign.chronicle import WAR_KINDS, war_counts
from campaign.engine import CampaignEngine
from campaign.map import roman_world
from campaign.rules.battle import Resolver
from campaign.rules.clients import world_tables
from campaign.state import SIDE_NAMES, SIDES, CampaignState, side_short, side_title

#: the battles of the war by kind, as the end-of-war screen lists them (from ``WAR_KINDS``)
BATTLE_KINDS = tuple(k for k in WAR_KINDS if k.endswith("battles") or k == "sea interceptions")


def condition(how: str) -> str:
    """What the condition ``how`` (``state.result["how"]``) asks, in words (campaign.md §21.1–§21.2)."""
    v = world_tables().victory
    end = f"when the last turn of {v.last_year_bc} BC is over"
    triumph = (
        f"holds Rome and at least {v.other_cities} other cities, meets its Political Requirement "
        "and has a Supreme Leader"
    )
    words = {
        "triumphant": f"Triumphant victory: {end}, the side {triumph}.",
        "conquering": f"Conquering victory: Triumphant, and at least {v.off_map} off-map regions held {end}.",
        "optimus": f"Optimus victory: Conquering, and at least {v.colonies} colonies in the side's cities; "
        "it ends the war at once.",
        "fratricide": f"Fratricide: Roman blood spilt by Romans passed {v.fratricide_limit}; "
        "the war ends at once and no side wins.",
        "both_lose": f"Both lose: {end}, neither side meets its Political Requirement in the Res Publica.",
        "undecided": f"Undecided: {end}, no side meets the conditions of a victory.",
    }
    return words.get(how, how.replace("_", " ").capitalize() + ".")


def headline(result: dict[str, str]) -> str:
    """Who won, in one line: "The Caesarians win a Conquering victory"."""
    winner, how = result.get("winner", ""), result.get("how", "")
    if winner in SIDE_NAMES:
        return f"{side_title(winner)} win {_article(how)} {how.capitalize()} victory"
    return {
        "fratricide": "No side wins: Rome bleeds white",
        "both_lose": "Both sides lose the war",
        "undecided": "The war ends undecided",
    }.get(how, "The war is over")


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


@dataclass(frozen=True)
class Month:
    """Where the war stood at the end of one campaign turn (the end-of-war screen's chart and
    the after-action report's, ``campaign.aar_charts``)."""

    turn: int
    date: str
    sp: dict[str, int]
    cities: dict[str, int]
    res_publica: dict[str, int]
    stratagems: dict[str, int]  # held
    spent: dict[str, int]  # spent since the war began
    fratricide: int


class Counting(CampaignEngine):
    """The campaign engine, noting each turn's end as it plays (``months``; the after-action
    report's replay, ``campaign.aar``, is one too)."""

    def __init__(self, resolver: Resolver | None = None) -> None:
        super().__init__(resolver=resolver)
        self.months: list[Month] = []
        self._noted: set[int] = set()
        self._spent = dict.fromkeys(SIDES, 0)
        self._expended = dict.fromkeys(SIDES, 0)

    def apply(self, state: CampaignState, action: A.Action, dice: Dice) -> tuple[CampaignState, list[Event]]:
        new, events = super().apply(state, action, dice)
        if new.turn != state.turn:
            self.note(state)
        return new, events

    def note(self, s: CampaignState) -> None:
        """The war at the end of ``s``'s turn (once a turn)."""
        if s.turn in self._noted:
            return
        self._noted.add(s.turn)
        cities = roman_world().cities()
        for side in SIDES:
            now = sum(s.expended.get(side, {}).values())
            self._spent[side] += now - self._expended[side] if now >= self._expended[side] else now
            self._expended[side] = now
        self.months.append(
            Month(
                turn=s.turn,
                date=s.date(),
                sp={side: sum(f.strength() for f in s.forces_of(side)) for side in SIDES},
                cities={side: sum(1 for c in cities if s.owner_side(c) == side) for side in SIDES},
                res_publica={side: s.res_publica.get(side, 0) for side in SIDES},
                stratagems={side: sum(s.stratagems.get(side, {}).values()) for side in SIDES},
                spent=dict(self._spent),
                fratricide=s.fratricide,
            )
        )

    def close(self, last: CampaignState) -> list[Month]:
        """Every turn's end, with the turn ``last`` stands in as it stands."""
        self.note(last)
        return self.months


def months(
    scenario: str, seed: int, actions: Sequence[dict[str, Any]], options: Sequence[str] | None = None
) -> list[Month]:
    """The end of every turn of the game ``scenario`` + ``seed`` + ``options`` + ``actions``,
    replayed (the turn the game stands in last, as it stands)."""
    engine = Counting()
    session = Session.replay(engine, scenario, seed, actions, options=options)
    return engine.close(session.state)


def start_date(scenario: str) -> str:
    """The scenario's first turn as the chronicle writes it ("January 49 BC"); "" for a
    scenario that cannot be read."""
    from bellum.errors import BellumError
    from campaign.engine import load

    try:
        return load(scenario).start
    except (BellumError, OSError):
        return ""


def cities_held(state: CampaignState) -> dict[str, int]:
    cities = roman_world().cities()
    return {s: sum(1 for c in cities if state.owner_side(c) == s) for s in SIDES}


@dataclass(frozen=True)
class WarStats:
    """The numbers the end-of-war screen shows."""

    turns: int
    first: str
    last: str
    battles: dict[str, int]
    sieges: dict[str, int]
    lost: dict[str, int]
    #: battles won by each side, and drawn ("")
    won: dict[str, int]
    leaders_killed: dict[str, int]
    leaders_taken: dict[str, int]
    cities: dict[str, int]
    res_publica: dict[str, int]
    fratricide: int
    months: list[Month] = field(default_factory=list)
    #: the largest battles, the most strength engaged first: (date, the chronicle's line)
    largest: list[tuple[str, str]] = field(default_factory=list)

    def lines(self) -> list[tuple[str, str]]:
        """(what, how many) rows, in the order the screen lists them."""
        rows = [
            ("Turns played", f"{self.turns} ({self.first} to {self.last})" if self.first else f"{self.turns}"),
            ("Battles", ", ".join(f"{n} {k}" for k, n in self.battles.items() if n) or "none"),
            (
                "Sieges",
                f"{self.sieges['begun']} begun, {self.sieges['starved']} cities starved out, "
                f"{self.sieges['stormed']} stormed, {self.sieges['lifted']} lifted",
            ),
            ("Battles won", f"{self._pair(self.won)}, drawn {self.won.get('', 0)}"),
            ("SP lost in battle", self._pair(self.lost)),
            ("Leaders killed", self._pair(self.leaders_killed)),
            ("Leaders taken captive", self._pair(self.leaders_taken)),
            ("Cities held at the end", self._pair(self.cities)),
            ("Res Publica markers", self._pair(self.res_publica)),
            ("Fratricide", f"{self.fratricide} (the war ends at once past {world_tables().victory.fratricide_limit})"),
        ]
        return rows

    @staticmethod
    def _pair(values: dict[str, int]) -> str:
        return ", ".join(f"{side_short(s)} {values.get(s, 0)}" for s in SIDES)


def war_stats(
    state: CampaignState, events: Iterable[Event], by_month: Sequence[Month] = (), scenario: str = ""
) -> WarStats:
    """The war's numbers from its last state and its event log (``by_month``: ``months``;
    ``scenario``: the game's scenario, by name or path, for its first turn when ``by_month``
    is not counted yet)."""
    evs = list(events)
    counts = war_counts(evs)
    lost = dict.fromkeys(SIDES, 0)
    won = dict.fromkeys((*SIDES, ""), 0)
    for e in evs:
        if e.kind == "battle":
            winner = e.data.get("winner") or ""
            won[winner if winner in won else ""] += 1
            for side, sp in (e.data.get("lost") or {}).items():
                if side in lost and isinstance(sp, int):
                    lost[side] += sp
    # how a city fell: the capture's ``how`` (campaign.rules.siege.capture); a capture without
    # one (a city won by politics or an event) is no siege's
    taken = [e.data.get("how") for e in evs if e.kind == "capture"]
    sieges = {
        "begun": counts["sieges begun"],
        "starved": taken.count("siege"),
        "stormed": taken.count("storm"),
        "lifted": sum(1 for e in evs if e.kind == "siege_lifted"),
    }
    if by_month:
        first, turns = by_month[0].date, state.turn - by_month[0].turn + 1
    else:
        first = start_date(scenario or state.scenario)
        turns = state.turn - _start_turn(first) + 1
    return WarStats(
        turns=turns,
        first=first,
        last=state.date(),
        battles={k: counts[k] for k in BATTLE_KINDS},
        sieges=sieges,
        lost=lost,
        won=won,
        leaders_killed=_by_leader_side([e for e in evs if e.kind == "leader_killed"]),
        leaders_taken=_by_leader_side([e for e in evs if e.kind == "captured"]),
        cities=cities_held(state),
        res_publica={s: state.res_publica.get(s, 0) for s in SIDES},
        fratricide=state.fratricide,
        months=list(by_month),
        largest=largest_battles(evs),
    )


def _start_turn(date: str) -> int:
    """The calendar's turn of the month ``date`` begins with ("April 49 BC" → 2; 0 unknown)."""
    from campaign.tables import tables

    month = date.split(" ")[0]
    return next((i for i, t in enumerate(tables().calendar.turns) if t.month == month), 0)


def largest_battles(events: Iterable[Event], most: int = 6) -> list[tuple[str, str]]:
    """The ``most`` battles with the most strength engaged, the largest first: (date, line)."""
    battles = [e for e in events if e.kind == "battle"]

    def engaged(e: Event) -> int:
        return sum(v for v in (e.data.get("engaged") or {}).values() if isinstance(v, int))

    ranked = sorted(range(len(battles)), key=lambda i: (-engaged(battles[i]), i))[:most]
    return [(str(battles[i].data.get("date", "")), battles[i].text) for i in ranked]


def _by_leader_side(events: list[Event]) -> dict[str, int]:
    """How many of ``events`` (each naming a ``leader``) befell each side's leaders."""
    from campaign.units import catalogue

    cat = catalogue()
    out = dict.fromkeys(SIDES, 0)
    for e in events:
        lid = e.data.get("leader")
        try:
            side = cat.leader(str(lid)).allegiance  # a client's leader has none: not counted
        except (KeyError, AttributeError):
            continue
        if side in out:
            out[side] += 1
    return out
