"""Victory (docs/rules/campaign.md §21; reference: Victory).

The levels, each including the one before (reference):
- **Triumphant** — the side holds Rome and at least 25 other cities, meets its Political
  Requirement and has a Supreme Leader;
- **Conquering** — also at least 2 off-map regions;
- **Optimus** — also at least 5 colonies of its own; this ends the game at once.

The Political Requirement (reference): the Caesarians hold at least 4 Res Publica
markers; the Senatorials hold at least 2 while the Caesarians hold at most 1.  When both
sides fail it at the end of the game, both lose.  Fratricide (reference): once the level
passes 100 the game ends at once with no winner (a strength-5 heavy infantry unit killed
in battle adds 5, counted by the battle's outcome, §12.4).

When it is checked (design, §21.2): Optimus and Fratricide at every change of phase (so
"at once" is at the end of the step that brought it about); Triumphant and Conquering at
the end of the game, after the last turn of 45 BC (five years, as the published game's
campaign of 49–45).  A city counts for the side it fights for: a client's cities count
for its ally (§7.5).  Cities and off-map regions are the map's (``campaign.map``).
"""

from __future__ import annotations

from bellum.events import Event
from campaign.map import roman_world
from campaign.rules.clients import Victory, world_tables
from campaign.rules.common import counted, event, leader_name
from campaign.state import SIDE_NAMES, SIDES, CampaignState, enemy, side_title

LEVELS: tuple[str, ...] = ("triumphant", "conquering", "optimus")


def cities_held(state: CampaignState, side: str) -> int:
    """Cities other than Rome that fight for ``side``."""
    return sum(1 for c in roman_world().cities() if c != "roma" and state.owner_side(c) == side)


def off_map_held(state: CampaignState, side: str) -> int:
    return sum(1 for r in roman_world().off_map() if state.owner_side(r) == side)


def colonies_held(state: CampaignState, side: str) -> int:
    """Colonies founded (campaign.md §17.3) in cities that fight for ``side``."""
    return sum(1 for c in getattr(state, "colonies", ()) if state.owner_side(c) == side)


def political_requirement(state: CampaignState, side: str, v: Victory | None = None) -> bool:
    """The side's Political Requirement (reference: Victory)."""
    v = v or world_tables().victory
    caesar = state.res_publica.get(SIDES[0], 0)
    if side == SIDES[0]:
        return caesar >= v.caesar_markers
    return state.res_publica.get(SIDES[1], 0) >= v.senate_markers and caesar <= v.senate_caesar_max


def level(state: CampaignState, side: str) -> str | None:
    """The highest victory level ``side`` meets now, or None."""
    v = world_tables().victory
    if state.owner_side("roma") != side or not state.supreme.get(side):
        return None
    if cities_held(state, side) < v.other_cities or not political_requirement(state, side, v):
        return None
    if off_map_held(state, side) < v.off_map:
        return "triumphant"
    if colonies_held(state, side) < v.colonies:
        return "conquering"
    return "optimus"


def status(state: CampaignState, side: str) -> dict[str, object]:
    """Where ``side`` stands against each condition (for the window and the chronicle)."""
    v = world_tables().victory
    return {
        "rome": state.owner_side("roma") == side,
        "cities": cities_held(state, side),
        "cities_needed": v.other_cities,
        "political": political_requirement(state, side, v),
        "res_publica": state.res_publica.get(side, 0),
        "supreme": state.supreme.get(side) or "",
        "off_map": off_map_held(state, side),
        "off_map_needed": v.off_map,
        "colonies": colonies_held(state, side),
        "colonies_needed": v.colonies,
        "level": level(state, side) or "",
    }


def game_over_turn(state: CampaignState) -> bool:
    """Whether the state's turn lies after the game's last turn (§21.2)."""
    return state.year_bc() < world_tables().victory.last_year_bc


def check_victory(state: CampaignState) -> list[Event]:
    """Check the conditions that end the game now (in place on a copy the caller owns):
    fratricide and Optimus at any time, the rest once the last turn is over (§21.2)."""
    if state.result:
        return []
    v = world_tables().victory
    if state.fratricide > v.fratricide_limit:
        return _end(
            state,
            "",
            "fratricide",
            f"fratricide has reached {state.fratricide}: Rome bleeds white and no side wins the war.",
        )
    for side in SIDES:
        if level(state, side) == "optimus":
            return _end(state, side, "optimus", _why(state, side, "an Optimus victory"))
    if not game_over_turn(state):
        return []
    levels = {s: level(state, s) for s in SIDES}
    for side in SIDES:
        lv = levels[side]
        if lv is not None:
            return _end(state, side, lv, _why(state, side, f"a {lv.capitalize()} victory"))
    if not any(political_requirement(state, s, v) for s in SIDES):
        rp = state.res_publica
        return _end(
            state,
            "",
            "both_lose",
            "both sides fail their Political Requirement "
            f"(Res Publica: Caesarians {rp.get(SIDES[0], 0)}, Senatorials {rp.get(SIDES[1], 0)}): both lose.",
        )
    undecided = "no side meets its victory conditions: the war ends undecided. "
    return _end(state, "", "undecided", undecided + _standing(state))


def _why(state: CampaignState, side: str, what: str) -> str:
    sup = state.supreme.get(side)
    who = leader_name(sup) if sup else side_title(side)
    return (
        f"{SIDE_NAMES[side]} win {what} — {who} holds Rome and {cities_held(state, side)} other cities, "
        f"{counted(off_map_held(state, side), 'off-map region')}, "
        f"{counted(colonies_held(state, side), 'colony', 'colonies')}, "
        f"{state.res_publica.get(side, 0)} Res Publica markers (the enemy {state.res_publica.get(enemy(side), 0)})."
    )


def _standing(state: CampaignState) -> str:
    parts = []
    for s in SIDES:
        st = status(state, s)
        parts.append(
            f"{side_title(s)}: Rome {'yes' if st['rome'] else 'no'}, {st['cities']} other cities, "
            f"Political Requirement {'met' if st['political'] else 'not met'}"
        )
    return "; ".join(parts) + "."


def _end(state: CampaignState, winner: str, how: str, text: str) -> list[Event]:
    state.result = {"winner": winner, "how": how, "text": text}
    return [event(state, "victory", f"The war is over: {text}", winner=winner, how=how)]


def result_line(state: CampaignState) -> str:
    """The last line of a chronicle: who won and how, or where the war stands."""
    if state.result:
        return f"Result: {state.result['text']}"
    lv = {s: level(state, s) for s in SIDES}
    leading = [f"{side_title(s)} would win a {x.capitalize()} victory" for s, x in lv.items() if x]
    now = "; ".join(leading) if leading else "no side meets its victory conditions yet"
    return f"Result: the war goes on ({state.date()}): {now}. {_standing(state)}"
