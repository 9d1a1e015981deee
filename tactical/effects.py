"""What combat does to units and leaders (003 §8–§10): disorder, rout, retreat, the hits of
002's Shock Results, an elephant's rampage, who is engaged — and the small questions every
kind of combat asks (where an attacker stands, the ruleset's chart names).  The missile
and shock modules build on this one; nothing here rolls to hit.
"""

from __future__ import annotations

from bellum.dice import Dice
from bellum.errors import RuleError
from bellum.events import Event
from tactical import charts
from tactical.actions import Designate as Designate
from tactical.actions import Fire as Fire
from tactical.actions import Rally as Rally
from tactical.actions import React as React
from tactical.actions import Resolve as Resolve
from tactical.actions import Shock as Shock
from tactical.hexes import flank_dirs, rear_dirs
from tactical.rout import eliminate, home_distance, rout_move, surroundings
from tactical.state import Leader, RampageWait, State, Unit, frontal_hexes
from tactical.tables import NO

#: option id of 001 10.43 (the regroup-box pursuit return)
REGROUP = "pursuit-regroup"


RESULT_TEXT = {
    "attacker_routs": "the attackers rout",
    "attacker_disordered": "the attackers are disordered",
    "no_effect": "no effect",
    "defender_disordered": "the defender is disordered",
    "defender_disordered_retreats": "the defender is disordered and retreats",
    "defender_routs": "the defender routs",
}


# -- helpers ----------------------------------------------------------------------------------
def _unit(state: State, uid: str) -> Unit:
    u = state.units.get(uid)
    if u is None:
        raise RuleError(f"There is no unit {uid}.")
    return u


def _adjacent_dirs(state: State, unit: Unit, other_hexes: tuple[int, ...]) -> set[int]:
    """The directions from ``unit``'s hexes in which ``other_hexes`` lie next to it."""
    grid = state.field.grid
    out: set[int] = set()
    for h in unit.hexes():
        for d in range(6):
            if grid.nbr[h * 6 + d] in other_hexes:
                out.add(d)
    return out


def attack_position(state: State, attacker: Unit, defender: Unit) -> str:
    """Where the attacker stands relative to the defender: front, flank or rear (FORMAT.md)."""
    grid = state.field.grid
    att = set(attacker.hexes())
    front = set(frontal_hexes(grid, defender))
    if att & front:
        return "front"
    flank: set[int] = set()
    rear: set[int] = set()
    if defender.column:
        f = defender.facing
        flank = {
            grid.nbr[h * 6 + d] for h in defender.hexes() for d in ((f - 1) % 6, (f + 1) % 6, (f - 2) % 6, (f + 2) % 6)
        }
        rear = {grid.nbr[defender.hex2 * 6 + (f + 3) % 6]}
    elif defender.double:
        f = defender.facing
        a, b = flank_dirs(f)
        flank = {grid.nbr[defender.hex * 6 + a], grid.nbr[defender.hex2 * 6 + b]}
        ra, rb = rear_dirs(f)
        rear = {grid.nbr[defender.hex * 6 + ra], grid.nbr[defender.hex * 6 + rb], grid.nbr[defender.hex2 * 6 + rb]}
    else:
        flank = {grid.nbr[defender.hex * 6 + d] for d in flank_dirs(defender.facing)}
        rear = {grid.nbr[defender.hex * 6 + d] for d in rear_dirs(defender.facing)}
    if att & rear:
        return "rear"
    if att & flank:
        return "flank"
    return "none"


def leader_with(state: State, unit: Unit) -> list[Leader]:
    return [ld for ld in state.leaders.values() if ld.on_map and ld.side == unit.side and ld.hex in unit.hexes()]


def _disorder(state: State, unit: Unit, events: list[Event], why: str) -> None:
    """A disorder result: full → disordered; disordered → routs (003 §8.3); chariots rout (§9.22)."""
    if not unit.on_map:
        return
    if unit.status == "disordered" or unit.type == "CH":
        if unit.type == "CH":
            _rout(state, unit, events, f"{why} (a chariot disordered routs, 003 §9.22)", chariot_survives=True)
        else:
            _rout(state, unit, events, f"{why}; already disordered")
        return
    if unit.type == "AT" and len(state.units_at(unit.hex)) == 1:
        eliminate(state, unit, events, "artillery alone in its hex is eliminated when disordered (003 §9.5)")
        return
    unit.status = "disordered"
    state.broke.add(unit.id)
    events.append(Event("disorder", f"{unit.id} is disordered ({why}).", {"unit": unit.id}))


def _rout(state: State, unit: Unit, events: list[Event], why: str, *, chariot_survives: bool = False) -> None:
    """A rout: skirmishers are eliminated (003 §9.3), and so is a chariot that suffers a rout
    (003 §9.22) — unless the rout is what a Disorder turns into for it (``chariot_survives``),
    and it was not routed already; others rout and move."""
    if not unit.on_map:
        return
    if unit.skirmisher:
        eliminate(state, unit, events, f"{why}: skirmishers do not survive a rout (003 §9.3)")
        return
    if unit.type == "CH" and (unit.status == "routed" or not chariot_survives):
        eliminate(state, unit, events, f"{why}: a chariot that suffers a rout is eliminated (003 §9.22)")
        return
    unit.status = "routed"
    unit.engaged = False
    state.broke.add(unit.id)
    events.append(Event("rout", f"{unit.id} routs ({why}).", {"unit": unit.id}))
    rout_move(state, unit, events)


def disorder_again_routs(state: State, unit: Unit, events: list[Event], why: str) -> None:
    """A disorder that is not a combat result (the penalty of an orderly withdrawal, 000 §6.52):
    full → disordered, and a unit already disordered routs, as for a combat result (003 §8.3;
    docs/rules/tactical.md §4.8)."""
    if unit.status == "disordered":
        _rout(state, unit, events, f"{why}; already disordered")
        return
    if unit.status == "full":
        unit.status = "disordered"
    events.append(Event("disorder", f"{unit.id} {why}: disordered.", {"unit": unit.id}))


def _shock_disorder(state: State, unit: Unit, cause: Unit, dice: Dice, events: list[Event]) -> None:
    """A Disorder shock result; an elephant rampages instead (003 §9.14)."""
    if unit.type == "EL" and unit.on_map:
        rampage(state, unit, cause, dice, events, hold=True)
        return
    _disorder(state, unit, events, "shock")


def _retreat(state: State, unit: Unit, attackers: list[Unit], events: list[Event], *, v1: bool = False) -> None:
    """One hex back, away from the attackers, keeping facing (003 §8.3); skirmishers are
    eliminated instead (§9.3); with nowhere to go the unit routs (docs §8.4) — in charts-v1
    it takes 002's hits instead."""
    if unit.skirmisher:
        eliminate(state, unit, events, "a skirmisher made to retreat is eliminated (003 §9.3)")
        return
    grid = state.field.grid
    att_hexes = [h for a in attackers if a.on_map for h in a.hexes()]
    enemy, fronts, friends = surroundings(state, unit)

    def dist(h: int) -> int:
        return min((grid.distance(h, a) for a in att_hexes), default=0)

    here = dist(unit.hex)
    rear = set(rear_dirs(unit.facing))
    best: tuple[tuple[int, int, int, int], int] | None = None
    for d in range(6):
        new: tuple[int, ...]
        if unit.double:
            new = (grid.nbr[unit.hex * 6 + d], grid.nbr[unit.hex2 * 6 + d])
        else:
            new = (grid.nbr[unit.hex * 6 + d],)
        if any(j < 0 or j in enemy or j in friends for j in new):
            continue
        if any(state.field.step_cost(unit.cls, h, j) >= NO for h, j in zip(unit.hexes(), new, strict=True)):
            continue
        if min(dist(j) for j in new) <= here:
            continue
        key = (int(any(j in fronts for j in new)), 0 if d in rear else 1, home_distance(state, unit.side, new[0]), d)
        if best is None or key < best[0]:
            best = (key, d)
    if best is None:
        if v1:
            add_hits(state, unit, charts.v1_constants().no_retreat_hits, events, "it could not retreat (002)")
            return
        _rout(state, unit, events, "it could not retreat")
        return
    d = best[1]
    unit.hex = grid.nbr[unit.hex * 6 + d]
    if unit.double:
        unit.hex2 = grid.nbr[unit.hex2 * 6 + d]
    unit.engaged = False
    events.append(Event("retreat", f"{unit.id} retreats to {grid.hex_id(unit.hex)}.", {"unit": unit.id}))


def refresh_engaged(state: State) -> None:
    """A unit stays engaged only while an enemy stands in its front or it in an enemy's (003 §8.3)."""
    grid = state.field.grid
    fronts: dict[str, set[int]] = {"A": set(), "B": set()}
    hexes: dict[str, set[int]] = {"A": set(), "B": set()}
    for u in state.units.values():
        if u.on_map:
            hexes[u.side].update(u.hexes())
            if u.status != "routed":
                fronts[u.side].update(frontal_hexes(grid, u))
    for u in state.units.values():
        if not u.engaged:
            continue
        if not u.on_map or u.status == "routed":
            u.engaged = False
            continue
        enemy = "B" if u.side == "A" else "A"
        mine = set(u.hexes())
        if not (set(frontal_hexes(grid, u)) & hexes[enemy] or mine & fronts[enemy]):
            u.engaged = False


def _rules(state: State) -> str:
    return state.ruleset


#: 002's Weapons System matrix prints the cohort in three grades (CO (Vet), CO (Rec), CO (Con)),
#: filed as rows and columns with LG, HI and MI (weapons_charts_v1.toml [groups]); 003's matrix
#: files all three with HI (weapons_sgboh.toml [alias]); docs/rules/tactical-charts.md §8
_GRADE_CHART_TYPE = {"veteran": "CO(Vet)", "recruit": "CO(Rec)", "conscript": "CO(Con)"}


def _weapon_name(unit: Unit) -> str:
    """The weapons system a unit is chosen by (003 §8.3, 002 note): its type, or a graded
    cohort's CO(Vet) / CO(Rec) / CO(Con)."""
    return _GRADE_CHART_TYPE[unit.grade] if unit.grade is not None else unit.type


def _combat_terrain(name: str) -> str:
    return "clear" if name == "impassable" else name


def rampage(state: State, elephant: Unit, cause: Unit, dice: Dice, events: list[Event], *, hold: bool = False) -> None:
    """003 §9.14: roll for each non-elephant unit within two hexes, starting with the unit that
    set it off, then clockwise; a roll over its TQ disorders it; 0, 1, 8 or 9 also ends the
    rampage with the elephant eliminated; an elephant still there at the end is eliminated.

    ``hold``: the rampage comes from a shock result or a volley (not reaction fire, whose shock
    still has to be rolled).  If the engine may pause there (``state.hold_rampages``) and a unit
    may withdraw before the elephant (000 §6.51), the rampage is queued and rolled once the
    withdrawals are decided (``engine``; docs/rules/tactical.md §8.7)."""
    if hold and state.hold_rampages is not None and state.hold_rampages(state, elephant):
        state.rampages.append(RampageWait(elephant.id, cause.id))
        events.append(
            Event(
                "rampage_wait",
                f"{elephant.id} rampages (003 §9.14); units near it may withdraw first (000 §6.51).",
                {"unit": elephant.id},
            )
        )
        return
    roll_rampage(state, elephant, cause, dice, events)


def roll_rampage(state: State, elephant: Unit, cause: Unit, dice: Dice, events: list[Event]) -> None:
    """The rampage's rolls (003 §9.14), for the units within two hexes now."""
    grid = state.field.grid
    centre = elephant.hex
    events.append(Event("rampage", f"{elephant.id} rampages (003 §9.14).", {"unit": elephant.id}))
    around = [
        u
        for u in state.units.values()
        if u.on_map and u is not elephant and u.type != "EL" and min(grid.distance(centre, h) for h in u.hexes()) <= 2
    ]
    ordered = sorted(around, key=lambda u: (u is not cause, _clock_angle(state, centre, u.hex), u.id))
    for u in ordered:
        if not u.on_map:
            continue
        r = dice.d10(f"rampage against {u.id}")
        if r > u.tq:
            _disorder(state, u, events, f"{elephant.id}'s rampage")
        if r in (0, 1, 8, 9):
            break
    if elephant.on_map:
        eliminate(state, elephant, events, "the rampage ends")


def _clock_angle(state: State, centre: int, h: int) -> float:
    import math

    q1, r1 = state.field.grid.axial[centre]
    q2, r2 = state.field.grid.axial[h]
    x = (q2 - q1) + (r2 - r1) / 2
    y = (r2 - r1) * 0.866
    return (math.atan2(x, -y)) % (2 * math.pi)


# -- charts-v1: 002's Shock Results -------------------------------------------------------
def add_hits(state: State, unit: Unit, n: int, events: list[Event], why: str) -> None:
    """Hits from 002's Shock Results join the unit's missile hits; more hits than its TQ
    eliminate it (003 §8.15, docs §8.11)."""
    if not unit.on_map or n <= 0:
        return
    unit.missile_hits += n
    events.append(
        Event("hits", f"{unit.id} takes {n} hit{'s' if n > 1 else ''} ({why}).", {"unit": unit.id, "hits": n})
    )
    if unit.missile_hits > unit.tq:
        eliminate(state, unit, events, "more hits than its TQ (003 §8.15)")
