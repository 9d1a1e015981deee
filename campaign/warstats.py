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
from campaign.rules.clients import world_tables
from campaign.state import SIDE_NAMES, SIDES, CampaignState, side_title

#: the battles of the war by kind, as the end-of-war screen lists them (from ``WAR_KINDS``)
BATTLE_KINDS = tuple(k for k in WAR_KINDS if k.endswith("battles") or k == "sea interceptions")


def condition(how: str) -> str:
    """What the condition ``how`` (``state.result["how"]``) asks, in words (campaign.md §21.1–§21.2)."""
    v = world_tables().victory
    triumph = (
        f"holds Rome and at least {v.other_cities} other cities, meets its Political Requirement "
        "and has a Supreme Leader"
    )
    words = {
        "triumphant": f"Triumphant victory: when the last turn of 45 BC is over, the side {triumph}.",
        "conquering": f"Conquering victory: Triumphant, and at least {v.off_map} off-map regions held "
        "when the last turn of 45 BC is over.",
        "optimus": f"Optimus victory: Conquering, and at least {v.colonies} colonies in the side's cities; "
        "it ends the war at once.",
        "fratricide": f"Fratricide: Roman blood spilt by Romans passed {v.fratricide_limit}; "
        "the war ends at once and no side wins.",
        "both_lose": "Both lose: when the last turn of 45 BC is over, neither side meets its Political "
        "Requirement in the Res Publica.",
        "undecided": "Undecided: when the last turn of 45 BC is over, no side meets the conditions of a victory.",
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


def short_name(side: str) -> str:
    """ "Caesarians": a side's name in a list."""
    return SIDE_NAMES.get(side, side).removeprefix("the ")


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


@dataclass(frozen=True)
class Month:
    """Where the war stood at the end of one turn."""

    turn: int
    date: str
    cities: dict[str, int]
    sp: dict[str, int]


def note(state: CampaignState) -> Month:
    cities = roman_world().cities()
    return Month(
        turn=state.turn,
        date=state.date(),
        cities={s: sum(1 for c in cities if state.owner_side(c) == s) for s in SIDES},
        sp={s: sum(f.strength() for f in state.forces_of(s)) for s in SIDES},
    )


class Counting(CampaignEngine):
    """The campaign engine, noting each turn's end as it plays (``months``)."""

    def __init__(self) -> None:
        super().__init__()
        self.months: list[Month] = []

    def apply(self, state: CampaignState, action: A.Action, dice: Dice) -> tuple[CampaignState, list[Event]]:
        new, events = super().apply(state, action, dice)
        if new.turn != state.turn:
            self.months.append(note(state))
        return new, events


def months(scenario: str, seed: int, actions: Sequence[dict[str, Any]]) -> list[Month]:
    """The end of every turn of the game ``scenario`` + ``seed`` + ``actions``, replayed (the
    turn the game stands in last, as it stands)."""
    engine = Counting()
    session = Session.replay(engine, scenario, seed, actions)
    return [*engine.months, note(session.state)]


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
            ("Turns played", f"{self.turns} ({self.first} to {self.last})"),
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
        return ", ".join(f"{short_name(s)} {values.get(s, 0)}" for s in SIDES)


def war_stats(state: CampaignState, events: Iterable[Event], by_month: Sequence[Month] = ()) -> WarStats:
    """The war's numbers from its last state and its event log (``by_month``: ``months``)."""
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
    captures = [e for e in evs if e.kind == "capture"]
    sieges = {
        "begun": counts["sieges begun"],
        "starved": sum(1 for e in captures if "starved out" in e.text),
        "stormed": sum(1 for e in captures if " falls to " in e.text),
        "lifted": sum(1 for e in evs if e.kind == "siege_lifted"),
    }
    first = by_month[0].date if by_month else "January 49 BC"
    return WarStats(
        turns=state.turn + 1,
        first=first,
        last=state.date(),
        battles={k: counts[k] for k in BATTLE_KINDS},
        sieges=sieges,
        lost=lost,
        won=won,
        leaders_killed=_by_leader_side([e for e in evs if e.kind == "leader_killed"]),
        leaders_taken=_by_leader_side([e for e in evs if e.kind == "captured"]),
        cities=note(state).cities,
        res_publica={s: state.res_publica.get(s, 0) for s in SIDES},
        fratricide=state.fratricide,
        months=list(by_month),
        largest=largest_battles(evs),
    )


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
