"""The chronicle: readable lines from the campaign's events (docs/rules/campaign.md §14).

Every event carries its date; a chronicle line is "April 49 BC — Caesar marches from
Ravenna to Ariminum by the Via Popillia."  ``CHRONICLE_KINDS`` are the events worth a
line (marches, voyages, interceptions, battles, sieges, storms, captures, losses to
the march, forage and winter, leaders' fates); the rest (passes, phase changes) are
bookkeeping.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from bellum.events import Event
from campaign.state import SIDES, CampaignState

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
        "storm",
        "cut_declared",
        "supply_cut",
        "forage",
        "winter",
        "quarters",
        "merge",
    }
)


def line(e: Event) -> str:
    date = e.data.get("date", "")
    return f"{date} — {e.text}" if date else e.text


def lines(events: Iterable[Event]) -> list[str]:
    return [line(e) for e in events if e.kind in CHRONICLE_KINDS]


def summary(state: CampaignState, events: Iterable[Event]) -> str:
    """One line at the end of a run: the date, the cities each side holds, the battles."""
    from campaign.map import roman_world

    cmap = roman_world()
    kinds = Counter(e.kind for e in events)
    held = {s: sum(1 for c in cmap.cities() if state.owner_side(c) == s) for s in SIDES}
    sp = {s: sum(f.strength() for f in state.forces_of(s)) for s in SIDES}
    rome = state.owner_side("roma")
    return (
        f"Summary, {state.date()}: "
        f"Caesarians hold {held['caesarian']} cities ({sp['caesarian']} SP), "
        f"Senatorials {held['senatorial']} ({sp['senatorial']} SP); Rome is "
        f"{'Caesarian' if rome == 'caesarian' else 'Senatorial' if rome == 'senatorial' else 'neutral'}; "
        f"{kinds['battle']} battles, {kinds['storm']} storms, {kinds['siege']} siege rolls; "
        f"fratricide {state.fratricide}."
    )
