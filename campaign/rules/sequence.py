"""The sequence of play (docs/rules/campaign.md §7.2; reference: scale and sequence).

A turn opens with the Historical Events slot, then each side in turn — the Caesarians
first — plays stratagems → Res Publica → recruiting → movement → combat → supply.  A
new turn lets the Tribune negate again and, each January, returns the expended boxes
to the counter mixes; a side's stratagems phase opens its half-turn: leaders' plays
are counted afresh and the side's stratagem income is owed (campaign.md §15); in the
muster month it receives new commanders and the spring levy (§17.7–§17.8).
"""

from __future__ import annotations

from bellum.dice import Dice
from bellum.events import Event
from campaign.rules.common import event
from campaign.rules.muster import spring_muster
from campaign.rules.respublica import elect_consuls
from campaign.rules.stratagems import open_half_turn
from campaign.rules.supply import barbarians_and_others_winter, open_supply_phase
from campaign.rules.victory import check_victory
from campaign.state import SIDE_PHASES, SIDES, STRATAGEM_TYPES, CampaignState, side_title
from campaign.tables import tables


def new_turn(state: CampaignState) -> list[Event]:
    """A new turn: the Tribune may negate again; at each January the expended boxes go
    back to the counter mix and the side holding Rome has the consuls elected (§15.4,
    §16.3, §16.5)."""
    state.tribune_used = False
    if state.turn % len(tables().calendar.turns) != 0:
        return []
    for side in SIDES:
        state.expended[side] = dict.fromkeys(STRATAGEM_TYPES, 0)
    return [
        event(state, "year_turns", "The year turns: spent stratagems return to both sides' counter mixes."),
        *elect_consuls(state),
    ]


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
    turn_begins = turn != state.turn
    state.turn, state.phase, state.active = turn, phase, active
    state.pending = None
    if turn_begins:
        events.append(event(state, "turn", f"— {state.date()}{' (winter)' if state.winter() else ''} —", turn=turn))
        events += new_turn(state)
    if phase == "movement":
        state.spent = {}
    elif phase == "combat":
        state.fought = ()
    elif phase == "supply":
        open_supply_phase(state)
    if phase == SIDE_PHASES[0]:
        events.append(event(state, "side_turn", f"{side_title(active)} play.", side=active))
        events += open_half_turn(state)
        events += spring_muster(state)  # campaign.md §17.7–§17.8
    events += check_victory(state)  # campaign.md §21.2
    return events
