"""The sequence of play (docs/rules/campaign.md §7.2; reference: scale and sequence).

A turn opens with the Historical Events slot, then each side in turn — the Caesarians
first — plays stratagems → Res Publica → recruiting → movement → combat → supply.  The
events, stratagems, Res Publica and recruiting phases are passed explicitly with a
``Pass`` action until issue 8 gives them their rules.
"""

from __future__ import annotations

from bellum.dice import Dice
from bellum.events import Event
from campaign.rules.common import event
from campaign.rules.supply import barbarians_and_others_winter, open_supply_phase
from campaign.state import SIDE_PHASES, SIDES, CampaignState, side_title


def next_phase(state: CampaignState) -> tuple[int, str, str]:
    """(turn, phase, active side) after the current phase."""
    if state.phase == "events":
        return state.turn, SIDE_PHASES[0], SIDES[0]
    i = SIDE_PHASES.index(state.phase)
    if i + 1 < len(SIDE_PHASES):
        return state.turn, SIDE_PHASES[i + 1], state.active
    s = SIDES.index(state.active)
    if s + 1 < len(SIDES):
        return state.turn, SIDE_PHASES[0], SIDES[s + 1]
    return state.turn + 1, "events", SIDES[0]


def advance(state: CampaignState, dice: Dice) -> list[Event]:
    """Move ``state`` (a copy the caller owns) to the next phase and open it."""
    events: list[Event] = []
    if state.phase == "supply" and state.active == SIDES[-1] and state.winter():
        events += barbarians_and_others_winter(state, dice)
    turn, phase, active = next_phase(state)
    new_turn = turn != state.turn
    state.turn, state.phase, state.active = turn, phase, active
    state.pending = None
    if new_turn:
        events.append(event(state, "turn", f"— {state.date()}{' (winter)' if state.winter() else ''} —", turn=turn))
    if phase == "movement":
        state.spent = {}
    elif phase == "combat":
        state.fought = ()
    elif phase == "supply":
        open_supply_phase(state)
    if phase == SIDE_PHASES[0]:
        events.append(event(state, "side_turn", f"{side_title(active)} play.", side=active))
    return events
