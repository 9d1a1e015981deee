"""Shock combat (003 §8.3): designation, the shock plan and every DRM (``shock_drms``, listed
by name so the UI can show the sum and its parts and the cases can check ``drm``), the
resolution on the Shock Results (003, and 002's ``charts-v1``), pursuit, retreat before
combat, the defender's reactions, rally (003 §10.27) and the regroup box; ``handle`` routes
the combat actions for the engine.  ``tactical.odds`` runs these resolvers over every die
face for exact odds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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
from tactical.command import in_range
from tactical.effects import (
    REGROUP,
    RESULT_TEXT,
    _combat_terrain,
    _disorder,
    _retreat,
    _rout,
    _rules,
    _shock_disorder,
    _unit,
    _weapon_name,
    add_hits,
    attack_position,
    leader_with,
    refresh_engaged,
)
from tactical.missile import _check_reaction_fire, _fire, resolve_fire
from tactical.rout import eliminate, home_distance
from tactical.state import Leader, State, Unit, frontal_hexes
from tactical.tables import NO, TERRAINS
from tactical.variants import legion_unit


# -- shock ------------------------------------------------------------------------------------
@dataclass(slots=True)
class ShockPlan:
    attackers: list[Unit]
    defender: Unit
    weapon: str
    defender_weapon: str
    drms: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.drms.values())


def _weapon_choice(state: State, attackers: list[Unit], defender: Unit, choice: str | None) -> Unit:
    """The attacker chooses first (003 §8.3, 002 note): by default the unit whose type gives him
    most; a named type (a graded cohort answers to "CO" and to its grade's "CO(Vet)") picks the
    best of the attackers of that type."""
    pool = attackers
    if choice is not None:
        pool = [a for a in attackers if choice in (a.type, _weapon_name(a))]
        if not pool:
            raise RuleError(f"No attacking unit is of type {choice} (003 §8.3 Weapons System).")
    return max(pool, key=lambda a: (_weapons_value(state, a, defender), a.id))


def _weapons_value(state: State, attacker: Unit, defender: Unit) -> int:
    pos = attack_position(state, attacker, defender)
    value = charts.weapons_drm(
        _rules(state),
        _chart_type(attacker),
        _chart_type(defender),
        frontal_moving=not attacker.engaged and pos == "front",
        flank_or_rear=pos in ("flank", "rear"),
        cataphract=defender.cataphract,
    )
    return -99 if value is None else value


def plan_shock(state: State, action: Shock, *, designated: bool = False) -> ShockPlan:
    """Check a shock is allowed and compute every DRM (003 §8.3); RuleError if not allowed.

    ``designated``: the combat was designated earlier in this Shock segment, so command was
    checked then and stands (003 §8.3: the designation may not change as resolution proceeds)."""
    seq = state.seq
    if seq.phase not in ("move", "shock"):
        raise RuleError("Shock attacks come after movement, before the Rally segment (003 §3.1).")
    if not action.attackers:
        raise RuleError("A shock needs at least one attacking unit.")
    if len(set(action.attackers)) != len(action.attackers):
        raise RuleError("An attacking unit is named twice.")
    defender = _unit(state, action.defender)
    if not defender.on_map:
        raise RuleError(f"{defender.id} is no longer on the map.")
    if defender.side == seq.side:
        raise RuleError(f"{defender.id} is one of side {seq.side}'s own units.")
    attackers = [_unit(state, a) for a in action.attackers]
    grid = state.field.grid
    for a in attackers:
        if a.side != seq.side:
            raise RuleError(f"{a.id} is not one of side {seq.side}'s units.")
        if not a.on_map or a.status == "routed":
            raise RuleError(f"{a.id} cannot attack: it is routed or gone (003 §10.25).")
        if a.id in state.fought:
            raise RuleError(f"{a.id} has already attacked in this activation.")
        if not designated:
            _check_shock_command(state, a)
        if not set(frontal_hexes(grid, a)) & set(defender.hexes()):
            raise RuleError(f"{defender.id} is not in a frontal hex of {a.id} (003 §8.3).")
        refusal = charts.attack_refusal(_rules(state), a.type, defender.type)
        if refusal is not None:
            raise RuleError(refusal)
    if defender.status == "routed":
        return ShockPlan(attackers, defender, attackers[0].type, defender.type, {})
    weapon_unit = _weapon_choice(state, attackers, defender, action.weapon)
    if action.defender_weapon not in (None, defender.type, _weapon_name(defender)):
        raise RuleError(f"{defender.id} is of type {defender.type}; it has no other weapons system to choose.")
    drms = shock_drms(state, attackers, defender, weapon_unit)
    return ShockPlan(attackers, defender, _weapon_name(weapon_unit), _weapon_name(defender), drms)


def _check_shock_command(state: State, unit: Unit) -> None:
    """Units that moved this activation, or stand in the activated leader's range (003 §8.3;
    000 §5.36: ranges count for shock whatever the leader's kind), or the activated group."""
    seq = state.seq
    if unit.id in state.regrouping:
        raise RuleError(f"{unit.id} is returning from pursuit and may not attack (001 10.43).")
    if unit.id in state.moved:
        return
    if seq.group is not None:
        if unit.id not in seq.group:
            raise RuleError(f"{unit.id} is not in the activated group.")
        return
    if seq.leader is None:
        return
    leader = state.leaders[seq.leader]
    if not in_range(state, leader, unit):
        raise RuleError(f"{unit.id} is beyond {leader.id}'s Command Range and did not move (003 §8.3).")


def shock_drms(state: State, attackers: list[Unit], defender: Unit, weapon_unit: Unit) -> dict[str, int]:
    """Every modifier of 003 §8.3, by name (zeros left out)."""
    rules = _rules(state)
    field = state.field
    positions = {a.id: attack_position(state, a, defender) for a in attackers}
    d: dict[str, int] = {}
    d["size"] = charts.size_ratio_drm(
        rules,
        sum(a.size for a in attackers),
        defender.size,
        attacker_types=[a.type for a in attackers],
        defender_types=[defender.type],
    )
    d["tq"] = charts.tq_ratio_drm(max(a.tq for a in attackers), defender.tq)
    weapons = charts.weapons_drm(
        rules,
        _chart_type(weapon_unit),
        _chart_type(defender),
        frontal_moving=not weapon_unit.engaged and positions[weapon_unit.id] == "front",
        flank_or_rear=positions[weapon_unit.id] in ("flank", "rear"),
        cataphract=defender.cataphract,
    )
    assert weapons is not None
    d["weapons"] = weapons
    d["missile_hits"] = defender.missile_hits - sum(a.missile_hits for a in attackers)
    separate = charts.load_charts(rules).weapons.separate_flank_drm
    if separate and "flank" in positions.values():
        d["flank"] = 2
    if separate and "rear" in positions.values():
        d["rear"] = 3
    terr = []
    for a in attackers:
        sides = sorted({f for h in a.hexes() for j in defender.hexes() if (f := field.hexside(h, j)) is not None})
        v = charts.terrain_shock_drm(
            rules,
            terrain=_combat_terrain(TERRAINS[field.terrain[defender.hex]]),
            level_difference=max(field.level[h] for h in defender.hexes()) - max(field.level[h] for h in a.hexes()),
            hexsides=sides,
        )
        if v is None:
            raise RuleError(f"{defender.id} may not be shock attacked there (003 terrain table).")
        terr.append(v)
    d["terrain"] = min(terr)  # the value most favourable to the defender (002 note)
    d["disorder"] = (1 if defender.status == "disordered" else 0) - sum(a.status == "disordered" for a in attackers)
    if any(not a.engaged for a in attackers):
        d["moving"] = 1
    # 003 §9.62: double-depth phalanxes, +1 attacking, -1 defending, besides the rest
    dd = (1 if any(a.double_depth for a in attackers) else 0) - (1 if defender.double_depth else 0)
    if dd:
        d["double_depth"] = dd
    if any(leader_with(state, a) for a in attackers):
        d["leader"] = 1
    if leader_with(state, defender):
        d["leader"] = d.get("leader", 0) - 1
    if state.spqr and "no-pilum" not in state.options:
        pila = [a for a in attackers if legion_unit(a) and not a.engaged and a.missile == "J"]
        if pila:
            d["pilum"] = 1  # 000 §8.14: legion javelins as a shock bonus (docs §8.6)
    if "no-pilum" in state.options:
        _no_pilum_drms(state, d, weapon_unit, defender, positions[weapon_unit.id])
    return {k: v for k, v in d.items() if v}


#: 001 No Pilum #2-#3 move a legion's or an elephant's attack two columns along the Standard
#: Clash of Spears chart; the Simple rules' matrix counts one column as one DRM (docs §9)
NO_PILUM_COLUMNS = 2


#: the types that fight as HC or LC (RC and BC attack as HC, 003 matrix aliases; docs §9)
_HORSE = ("HC", "LC", "RC", "BC")


def _no_pilum_drms(state: State, d: dict[str, int], weapon_unit: Unit, defender: Unit, position: str) -> None:
    """001 No Pilum #2-#4 (option ``no-pilum``; docs/rules/tactical.md §9)."""
    frontal_moving = position == "front" and not weapon_unit.engaged
    if frontal_moving and legion_unit(weapon_unit) and defender.type == "EL":
        d["no_pilum"] = NO_PILUM_COLUMNS  # #2: column 5 instead of 3
    elif frontal_moving and weapon_unit.type == "EL" and legion_unit(defender):
        d["no_pilum"] = -NO_PILUM_COLUMNS  # #3: column 5 instead of 7
    elif (
        position == "front"
        and weapon_unit.type in _HORSE
        and legion_unit(defender)
        and defender.id in state.pressed
        and d["weapons"] < 0
    ):
        # #4: the legion is superior to horse attacking it frontally only if it began the
        # activation with no enemy in its zone of control; else its edge counts as 0, as 003's
        # bracketed cells count for horse attacking through a flank or the rear
        d["no_pilum"] = -d["weapons"]


def _chart_type(unit: Unit) -> str:
    """The type a unit fights as on the matrix: a double-depth phalanx is "DD PH" (002), a
    graded cohort its grade's CO(Vet) / CO(Rec) / CO(Con) (002; an ungraded CO stays "CO",
    which the charts read as CO(Rec)).  Only the matrix sees the grade: for movement, missile
    fire, the pilum (000 §8.14) and orderly withdrawal (000 §6.52) every cohort is a CO."""
    return "DD PH" if unit.double_depth else _weapon_name(unit)


def _replan(state: State, plan: ShockPlan, attackers: list[Unit], defender: Unit) -> ShockPlan:
    """The shock plan again after something before the roll changed the attackers or the
    defender (a disorder, reaction fire): the same weapon where an attacker still carries it."""
    weapon_unit = next((a for a in attackers if plan.weapon in (a.type, _weapon_name(a))), attackers[0])
    return ShockPlan(
        attackers,
        defender,
        _weapon_name(weapon_unit),
        plan.defender_weapon,
        shock_drms(state, attackers, defender, weapon_unit),
    )


def resolve_shock(
    state: State,
    action: Shock,
    dice: Dice,
    events: list[Event],
    drms: dict[str, int] | None = None,
    *,
    designated: bool = False,
) -> None:
    """003 §8.3: reaction fire, one roll, the result, engagement, pursuit, leader casualties.

    ``drms``: the modifiers ``plan_shock`` already gave for this very position (the odds
    enumerator passes them so as not to recompute them for every die face).
    ``designated``: the combat was designated (``take_designation``), so command stands."""
    if drms is None:
        plan = plan_shock(state, action, designated=designated)
    else:
        atts = [state.units[a] for a in action.attackers]
        plan = ShockPlan(atts, state.units[action.defender], action.weapon or atts[0].type, "", dict(drms))
    seq = state.seq
    seq.phase = "shock"
    seq.leader_done = True
    for a in plan.attackers:
        state.fought.add(a.id)
    ready = _before_the_roll(state, action, plan, dice, events)
    if ready is None:
        return
    plan = ready
    attackers, defender = plan.attackers, plan.defender
    roll = dice.d10("shock")
    total = plan.total
    modified = roll + total
    if state.ruleset == "charts-v1":
        _resolve_v1(state, action, plan, roll, dice, events)
        return
    outcome = charts.shock_result(_rules(state), modified)
    result = outcome.result
    parts = ", ".join(f"{k} {v:+d}" for k, v in plan.drms.items()) or "no modifiers"
    events.append(
        Event(
            "shock",
            f"{'+'.join(a.id for a in attackers)} shock {defender.id}: roll {roll} {total:+d} ({parts}) = {modified}: "
            f"{RESULT_TEXT[result]}.",
            {"roll": roll, "drm": total, "modified": modified, "result": result, "drms": dict(plan.drms)},
        )
    )
    was_moving = {a.id: not a.engaged for a in attackers}
    defender_hex = defender.hex
    if outcome.engaged:
        for u in [*attackers, defender]:
            u.engaged = True
    _shock_result(state, result, attackers, defender, dice, events)
    if result in ("defender_routs", "defender_disordered", "defender_disordered_retreats") and (
        defender.status == "routed" or not defender.on_map
    ):
        _pursuit(state, action, attackers, defender, defender_hex, was_moving, dice, events)
    if action.advance and result in ("defender_routs", "defender_disordered_retreats"):
        _advance(state, attackers, defender_hex, events)
    _leader_casualties(state, attackers, defender, dice, events)
    refresh_engaged(state)


def _before_the_roll(state: State, action: Shock, plan: ShockPlan, dice: Dice, events: list[Event]) -> ShockPlan | None:
    """What happens before the shock roll (003 §8.3, §9.16): a routed defender is cut down,
    cavalry retreats before combat, cavalry facing elephants is disordered, reaction fire.
    The plan to roll with (re-made when the position changed), or None when the shock ends here."""
    attackers, defender = plan.attackers, plan.defender
    if defender.status == "routed":
        eliminate(state, defender, events, "a routed unit that is shock attacked is eliminated (003 §8.3)")
        events.append(Event("shock", f"{defender.id} was routed and is cut down.", {"result": None}))
        return None
    if action.retreat_before_combat is not None:
        _retreat_before_combat(state, attackers, defender, action.retreat_before_combat, events)
        return None
    if any(a.type == "EL" for a in attackers) and defender.cavalry and defender.status == "full":
        # 003 §9.16: cavalry attacked by elephants that does not retreat before combat is disordered first
        _disorder(state, defender, events, "cavalry facing elephants without retreating (003 §9.16)")
        plan = _replan(state, plan, attackers, defender)
    if action.reaction_fire is not None:
        target = next((a for a in attackers if a.id == action.reaction_fire), None)
        if target is None:
            raise RuleError(f"{action.reaction_fire} is not one of the attackers.")
        _check_reaction_fire(state, defender, target)
        _fire(state, defender, target, dice, events, reaction=True)
        attackers = [a for a in attackers if a.on_map]
        if not attackers:
            return None
        plan = _replan(state, plan, attackers, defender)
    return plan


def _shock_result(
    state: State, result: str, attackers: list[Unit], defender: Unit, dice: Dice, events: list[Event]
) -> None:
    """The shock result table's verdict on the units (003 §8.3)."""
    if result == "attacker_routs":
        for a in attackers:
            _rout(state, a, events, "shock")
    elif result == "attacker_disordered":
        for a in attackers:
            _shock_disorder(state, a, defender, dice, events)
    elif result == "defender_disordered":
        _shock_disorder(state, defender, attackers[0], dice, events)
    elif result == "defender_disordered_retreats":
        # a disordered unit (or a chariot) disordered again routs; otherwise disorder and one hex back;
        # elephants do not rampage on this result (003 §9.14)
        already = defender.status == "disordered" or defender.type == "CH"
        _disorder(state, defender, events, "shock")
        if not already and defender.on_map and defender.status == "disordered":
            _retreat(state, defender, attackers, events)
    elif result == "defender_routs":
        _rout(state, defender, events, "shock")


# -- designation (003 §8.3) -----------------------------------------------------------------
def designate(state: State, action: Designate, events: list[Event]) -> None:
    """003 §8.3: before any shock is resolved the attacker names which units attack which
    defender.  Each attacker is checked as a shock attacker (``plan_shock``); naming a defender
    already designated adds the attackers to that combat (docs/rules/tactical.md §8.2)."""
    seq = state.seq
    if seq.phase not in ("move", "shock"):
        raise RuleError("Shock attacks are designated after movement, before the Rally segment (003 §3.1).")
    if seq.phase == "shock" and not state.designating:
        raise RuleError("Designation is over; the designated shocks are being resolved (003 §8.3).")
    if not action.attackers:
        raise RuleError("A shock needs at least one attacking unit.")
    taken = {a: d for atts, d in state.designations for a in atts}
    for a in action.attackers:
        if a in taken:
            raise RuleError(f"{a} is already designated to attack {taken[a]} (003 §8.3).")
    index = next((i for i, (_, d) in enumerate(state.designations) if d == action.defender), None)
    combined = (state.designations[index][0] if index is not None else ()) + tuple(action.attackers)
    plan_shock(state, Shock(combined, action.defender))
    if index is None:
        state.designations.append((combined, action.defender))
    else:
        state.designations[index] = (combined, action.defender)
    seq.phase = "shock"
    seq.leader_done = True
    events.append(
        Event(
            "designate",
            f"{'+'.join(combined)} will shock {action.defender}.",
            {"attackers": list(combined), "defender": action.defender},
        )
    )


def close_designation(state: State, events: list[Event]) -> None:
    """``resolve``: designation is over (003 §8.3); engaged units that must attack (003 §7.3)
    have to be designated first."""
    seq = state.seq
    if seq.phase != "shock" or not state.designating:
        raise RuleError("There is no shock designation to close now (003 §8.3).")
    must = engaged_must_attack(state)
    if must:
        raise RuleError(f"{must[0].id} is engaged and must be designated to shock attack (003 §7.3).")
    state.designating = False
    trim_designations(state, events)
    n = len(state.designations)
    events.append(Event("resolve", f"Designation is over: {n} shock{'s' if n != 1 else ''} to resolve.", {"count": n}))


def take_designation(state: State, action: Shock) -> None:
    """A shock is resolved only as designated (003 §8.3): remove its designation, or refuse."""
    seq = state.seq
    if seq.phase == "move" or (seq.phase == "shock" and state.designating):
        raise RuleError(
            "Shocks are designated first ('designate'), then resolved after 'resolve' closes designation (003 §8.3)."
        )
    if seq.phase != "shock":
        raise RuleError("Shock attacks come after movement, before the Rally segment (003 §3.1).")
    index = next((i for i, (_, d) in enumerate(state.designations) if d == action.defender), None)
    if index is None:
        raise RuleError(f"No shock against {action.defender} was designated (003 §8.3).")
    atts = state.designations[index][0]
    if set(action.attackers) != set(atts) or len(action.attackers) != len(atts):
        raise RuleError(
            f"{action.defender} is attacked by {', '.join(atts)} as designated; "
            "the designation may not change (003 §8.3)."
        )
    del state.designations[index]


def trim_designations(state: State, events: list[Event]) -> None:
    """Designated combats that an earlier resolution made impossible (003 §8.3, docs §8.2):
    attackers that can no longer attack the defender drop out; with none left, or the defender
    gone, the combat is called off."""
    if not state.designations:
        return
    grid = state.field.grid
    keep: list[tuple[tuple[str, ...], str]] = []
    for atts, d in state.designations:
        dfn = state.units.get(d)
        live: tuple[str, ...] = ()
        if dfn is not None and dfn.on_map:
            dh = set(dfn.hexes())
            live = tuple(
                a
                for a in atts
                if (u := state.units[a]).on_map
                and u.status != "routed"
                and a not in state.fought
                and set(frontal_hexes(grid, u)) & dh
            )
        if live:
            try:
                plan_shock(state, Shock(live, d), designated=True)
            except RuleError:
                live = ()
        if not live:
            events.append(Event("shock_called_off", f"The designated shock on {d} cannot take place.", {"defender": d}))
            continue
        if live != atts:
            gone = [a for a in atts if a not in live]
            events.append(
                Event(
                    "shock_called_off",
                    f"{', '.join(gone)} can no longer attack {d}.",
                    {"defender": d, "attackers": gone},
                )
            )
        keep.append((live, d))
    state.designations = keep


def _pursuit(
    state: State,
    action: Shock,
    attackers: list[Unit],
    defender: Unit,
    vacated: int,
    was_moving: dict[str, bool],
    dice: Dice,
    events: list[Event],
) -> None:
    """003 §8.3 Pursuit: moving cavalry that routs its enemy may pursue (not against SK)."""
    if not action.pursue or defender.skirmisher:
        return
    pursuers = [
        a
        for a in attackers
        if a.on_map and a.cavalry and was_moving[a.id] and a.type in charts.pursuing_types() and a.status != "routed"
    ]
    if not pursuers:
        return
    cav = pursuers[0]
    leader = bool(leader_with(state, cav))
    roll = dice.d10(f"{cav.id} pursuit")
    if not charts.pursues(cav.type, max(1, cav.tq), roll, leader=leader):
        events.append(Event("pursuit", f"{cav.id} rolls {roll} and does not pursue.", {"unit": cav.id}))
        return
    if defender.on_map:
        eliminate(state, defender, events, f"cut down by {cav.id}'s pursuit (003 §8.3)")
    if not cav.double and not any(u.on_map and u is not cav and vacated in u.hexes() for u in state.units.values()):
        cav.hex = vacated  # the hex the defender held when attacked (003 §8.3)
    cav.engaged = False
    second = dice.d10(f"{cav.id} pursuit return")
    if second > cav.tq:
        cav.status = "off_map"
        cav.hex = -1
        if REGROUP in state.options:
            state.regrouping.add(cav.id)  # 001 10.43: straight to the regroup box, with a pursuit marker
        events.append(Event("pursuit", f"{cav.id} pursues off the map (rolls {second}).", {"unit": cav.id}))
    else:
        if cav.status == "full":
            cav.status = "disordered"
            state.broke.add(cav.id)
        events.append(Event("pursuit", f"{cav.id} pursues and is disordered (rolls {second}).", {"unit": cav.id}))


def _leader_casualties(state: State, attackers: list[Unit], defender: Unit, dice: Dice, events: list[Event]) -> None:
    """003 §8.3 Leaders: one roll per leader in the combat, attacker's first; a 0 kills."""
    rule = charts.leader_casualty(_rules(state))
    seen: list[Leader] = []
    for a in attackers:
        for ld in leader_with(state, a):
            if ld not in seen:
                seen.append(ld)
    for ld in leader_with(state, defender) if defender.on_map else []:
        if ld not in seen:
            seen.append(ld)
    for ld in seen:
        dead = True
        for k in range(rule.rolls):
            r = dice.d10(f"{ld.id} casualty" + (f" #{k + 1}" if k else ""))
            if r != rule.kill_on:
                dead = False
                break
        if dead:
            ld.status = "eliminated"
            ld.hex = -1
            events.append(Event("leader_lost", f"{ld.id} falls in the fighting (003 §8.3).", {"leader": ld.id}))


# -- rally ----------------------------------------------------------------------------------
def _rally_command(state: State, unit: Unit) -> bool:
    seq = state.seq
    if seq.group is not None:
        return unit.id in seq.group
    if seq.leader is None:
        return True
    return in_range(state, state.leaders[seq.leader], unit)  # 000 §5.36: any leader kind


def must_rally(state: State, unit: Unit) -> bool:
    """003 §10.27: a routed or disordered unit that did not move or fight this activation and
    is in the activated leader's range, not broken in this same activation."""
    return (
        unit.on_map
        and unit.side == state.seq.side
        and unit.status in ("disordered", "routed")
        and unit.id not in state.moved
        and unit.id not in state.fought
        and unit.id not in state.fired
        and unit.id not in state.broke
        and unit.id not in state.rallied
        and unit.id not in state.regrouping
        and _rally_command(state, unit)
    )


def resolve_rally(state: State, action: Rally, dice: Dice, events: list[Event]) -> None:
    seq = state.seq
    if seq.phase not in ("move", "shock", "rally"):
        raise RuleError("Rally belongs to an activation's Rally segment (003 §3.1).")
    unit = _unit(state, action.unit)
    if unit.side != seq.side:
        raise RuleError(f"{unit.id} is not one of side {seq.side}'s units.")
    if state.designations:
        raise RuleError("The designated shocks must all be resolved before the Rally segment (003 §8.3).")
    if seq.phase != "rally":
        must = engaged_must_attack(state)
        if must:
            raise RuleError(f"{must[0].id} is engaged and must shock attack before the Rally segment (003 §7.3).")
    if must_rally(state, unit):
        seq.phase = "rally"
        _rally_roll(state, unit, dice, events)
        return
    if unit.status == "full" and unit.missile_hits > 0:
        # voluntary rally: instead of moving or fighting, not next to an enemy, remove two hits
        if unit.id in state.moved or unit.id in state.fought or unit.id in state.fired or unit.id in state.rallied:
            raise RuleError(f"{unit.id} has acted this activation; a voluntary rally replaces moving and fighting.")
        if not _rally_command(state, unit):
            raise RuleError(f"{unit.id} is not in the activated leader's Command Range (003 §10.27).")
        grid = state.field.grid
        if any(
            u.on_map and u.side != unit.side and min(grid.distance(a, b) for a in u.hexes() for b in unit.hexes()) == 1
            for u in state.units.values()
        ):
            raise RuleError(f"{unit.id} is next to an enemy unit and may not rally voluntarily (003 §10.27).")
        seq.phase = "rally"
        state.rallied.add(unit.id)
        unit.missile_hits = max(0, unit.missile_hits - 2)
        events.append(Event("rally", f"{unit.id} rallies and removes missile hits.", {"unit": unit.id}))
        return
    raise RuleError(f"{unit.id} has nothing to rally now (003 §10.27).")


def _rally_roll(state: State, unit: Unit, dice: Dice, events: list[Event]) -> None:
    routed = unit.status == "routed"
    drm = charts.rally_drm(disordered=not routed, leader=bool(leader_with(state, unit)))
    roll = dice.d10(f"{unit.id} rally")
    outcome = charts.rally_result(max(1, unit.tq), roll + drm, routed=routed)
    state.rallied.add(unit.id)
    before = unit.status
    if outcome == "eliminated":
        eliminate(state, unit, events, "it fails to rally (003 §10.27)")
        return
    unit.status = outcome
    if outcome == "routed" and before != "routed":
        unit.engaged = False
    events.append(
        Event(
            "rally",
            f"{unit.id} rolls {roll} {drm:+d}: {before} → {outcome}.",
            {"unit": unit.id, "roll": roll, "result": outcome},
        )
    )


def mandatory_rally(state: State, dice: Dice, events: list[Event]) -> None:
    """The Rally segment's mandatory attempts not yet made (003 §10.27), in unit order."""
    for unit in sorted(state.units.values(), key=lambda u: u.id):
        if must_rally(state, unit):
            _rally_roll(state, unit, dice, events)


def engaged_must_attack(state: State) -> list[Unit]:
    """003 §7.3: engaged units in the activated leader's range that must still shock attack."""
    seq = state.seq
    out: list[Unit] = []
    if seq.phase == "shock" and not state.designating:
        return out  # designation is over: nothing more can be designated (003 §8.3)
    grid = state.field.grid
    pending = {a for atts, _ in state.designations for a in atts}
    for u in state.units.values():
        if not (u.on_map and u.side == seq.side and u.engaged and u.status != "routed" and u.id not in state.fought):
            continue
        if u.id in pending:
            continue
        if not _rally_command(state, u):
            continue
        front = set(frontal_hexes(grid, u))
        targets = [e for e in state.units.values() if e.on_map and e.side != u.side and set(e.hexes()) & front]
        for e in targets:
            try:
                plan_shock(state, Shock((u.id,), e.id))
            except RuleError:
                continue
            out.append(u)
            break
    return out


def handle(state: State, action: Any, dice: Dice, events: list[Event]) -> None:
    if isinstance(action, Designate):
        designate(state, action, events)
    elif isinstance(action, Resolve):
        close_designation(state, events)
    elif isinstance(action, Shock):
        take_designation(state, action)
        resolve_shock(state, action, dice, events, designated=True)
        trim_designations(state, events)
    elif isinstance(action, Fire):
        resolve_fire(state, action, dice, events)
    elif isinstance(action, Rally):
        resolve_rally(state, action, dice, events)


def pursuers_return(state: State, side: str, rolled_for: str | None, events: list[Event]) -> None:
    """003 §8.3: on a Continuity roll of 0 or 1 every off-map pursuer of the side comes back
    within Command Range of a leader other than the one rolled for (docs §8.5: the first such
    leader by id; each unit in the nearest empty hex to him, facing the enemy)."""
    back = sorted((u for u in state.units.values() if u.side == side and u.status == "off_map"), key=lambda u: u.id)
    if not back:
        return
    leaders = sorted(
        (ld for ld in state.leaders.values() if ld.on_map and ld.side == side and ld.id != rolled_for),
        key=lambda ld: ld.id,
    )
    if not leaders:
        return
    leader = leaders[0]
    grid = state.field.grid
    taken = {h for u in state.units.values() if u.on_map for h in u.hexes()}
    order = sorted(
        (i for i in range(grid.size) if grid.distance(i, leader.hex) <= leader.range),
        key=lambda i: (grid.distance(i, leader.hex), i),
    )
    facing = 0 if state.field.home.get(side, "bottom") == "bottom" else 3
    for u in back:
        spot = next((i for i in order if i not in taken and state.field.step_cost(u.cls, i, i) < NO), -1)
        if spot < 0:
            continue
        taken.add(spot)
        u.hex, u.facing, u.status, u.engaged = spot, facing, "disordered", False
        events.append(Event("pursuit_return", f"{u.id} returns from pursuit near {leader.id}.", {"unit": u.id}))


def regroup_return(state: State, side: str, events: list[Event]) -> None:
    """Option ``pursuit-regroup`` (001 10.43, docs/rules/tactical.md §8.5): at the end of an
    activation of its overall commander, each of the side's cavalry with a pursuit marker marches
    its printed MA toward the nearest leader who could order it — from the regroup box it enters
    by a hex of the enemy's home edge — never next to an enemy unit; within that leader's Command
    Range the marker goes and the unit is back in play, disordered (the "moved side")."""
    from tactical.command import order_key
    from tactical.movement import MoveCosts, movement_allowance, reachable
    from tactical.tables import HALF, move_tables

    grid = state.field.grid
    enemy = "B" if side == "A" else "A"
    for u in sorted((state.units[k] for k in state.regrouping), key=lambda x: x.id):
        if u.side != side or u.status == "eliminated":
            continue
        leaders = []
        for ld in state.leaders.values():
            if not ld.on_map or ld.side != side:
                continue
            try:
                order_key(state, ld, u)
            except RuleError:
                continue
            leaders.append(ld)
        if not leaders:
            continue
        enemy_hexes = {h for e in state.units.values() if e.on_map and e.side == enemy for h in e.hexes()}
        near_enemy = enemy_hexes | {j for h in enemy_hexes for j in grid.neighbours(h)}
        spent = 0
        if not u.on_map:
            edge = [i for i in range(grid.size) if home_distance(state, enemy, i) == 0]
            taken = {h for x in state.units.values() if x.on_map for h in x.hexes()}
            table = move_tables().hex_cost[u.cls]
            entries = [i for i in edge if i not in taken and i not in near_enemy and table[state.field.terrain[i]] < NO]
            if not entries:
                continue  # no way in this time; it stays in the regroup box
            leader = min(leaders, key=lambda ld: (min(grid.distance(ld.hex, i) for i in entries), ld.id))
            column = grid.col_row(leader.hex)[0]
            entry = min(entries, key=lambda i: (grid.distance(leader.hex, i), abs(grid.col_row(i)[0] - column), i))
            own_home = state.field.home.get(side, "bottom" if side == "A" else "top")
            u.hex, u.facing = entry, 3 if own_home == "bottom" else 0  # facing its own lines
            u.status, u.engaged = "disordered", False
            spent = table[state.field.terrain[entry]]
            events.append(Event("regroup", f"{u.id} comes back from pursuit at {grid.hex_id(entry)}.", {"unit": u.id}))
        else:
            leader = min(leaders, key=lambda ld: (grid.distance(ld.hex, u.hex), ld.id))
        mc = MoveCosts(state, u)
        mc.ma2 = max(0, movement_allowance(u) * HALF - spent)
        mc.no_entry.update(near_enemy)
        reach = reachable(state, u, mc)
        column = grid.col_row(leader.hex)[0]
        best = min(
            reach.ends(),
            key=lambda n: (grid.distance(leader.hex, n // 6), reach.dist[n], abs(grid.col_row(n // 6)[0] - column), n),
        )
        u.hex, u.facing = divmod(best, 6)
        if in_range(state, leader, u):
            state.regrouping.discard(u.id)
            events.append(Event("regroup", f"{u.id} is back in play near {leader.id} (001 10.43).", {"unit": u.id}))
        else:
            events.append(Event("regroup", f"{u.id} marches back toward {leader.id} (001 10.43).", {"unit": u.id}))


def _retreat_before_combat(
    state: State, attackers: list[Unit], defender: Unit, path: tuple[str, ...], events: list[Event]
) -> None:
    """003 §8.3 Cavalry: cavalry shocked by infantry (or, §9.16, by elephants) may move two hexes
    away in any direction before the roll, unless next to enemy cavalry; the attack is spent."""
    grid = state.field.grid
    cur = rbc_end(state, attackers, defender, path)
    defender.hex = cur
    defender.engaged = False
    events.append(
        Event(
            "retreat_before_combat",
            f"{defender.id} retreats before combat to {grid.hex_id(cur)}.",
            {"unit": defender.id},
        )
    )
    events.append(Event("shock", "The attack falls on empty ground.", {"result": None}))


def rbc_allowed(state: State, attackers: list[Unit], defender: Unit) -> None:
    """Whether ``defender`` may retreat before combat at all (003 §8.3 Cavalry, §9.16)."""
    grid = state.field.grid
    if not defender.cavalry:
        raise RuleError(f"{defender.id} is not cavalry and cannot retreat before combat (003 §8.3).")
    elephants = any(a.type == "EL" for a in attackers)
    if not elephants and not all(a.foot for a in attackers):
        raise RuleError("Cavalry retreats before combat only from infantry (or elephants) (003 §8.3, §9.16).")
    if defender.status == "routed" or defender.double:
        raise RuleError(f"{defender.id} cannot retreat before combat.")
    for u in state.units.values():
        if u.on_map and u.side != defender.side and u.cavalry and grid.distance(u.hex, defender.hex) == 1:
            raise RuleError(f"{defender.id} is next to enemy cavalry and may not retreat before combat (003 §8.3).")


def rbc_end(state: State, attackers: list[Unit], defender: Unit, path: tuple[str, ...], costs: Any = None) -> int:
    """The hex a retreat before combat along ``path`` ends in (003 §8.3: two hexes, ending farther
    from the attackers, where the unit may stand); RuleError if it is not allowed."""
    grid = state.field.grid
    rbc_allowed(state, attackers, defender)
    if len(path) != 2:
        raise RuleError("A retreat before combat is two hexes (003 §8.3).")
    from tactical.movement import MoveCosts

    if costs is None:
        costs = MoveCosts(state, defender)
    att_hexes = [h for a in attackers for h in a.hexes()]
    cur = defender.hex
    for raw in path:
        try:
            j = grid.index(raw)
        except ValueError as exc:
            raise RuleError(f"retreat before combat: {exc}.") from None
        d = grid.direction(cur, j)
        if d < 0 or costs.enter(cur, d) >= NO:
            raise RuleError(f"{defender.id} cannot retreat into {raw}.")
        cur = j
    if min(grid.distance(cur, h) for h in att_hexes) <= min(grid.distance(defender.hex, h) for h in att_hexes):
        raise RuleError(f"{defender.id} must end its retreat before combat farther from the attackers (003 §8.3).")
    if not costs.may_end(cur * 6 + defender.facing):
        raise RuleError(f"{defender.id} may not end its retreat stacked there.")
    return cur


def rbc_paths(state: State, attackers: list[Unit], defender: Unit) -> list[tuple[str, ...]]:
    """Every retreat before combat open to ``defender``: one two-hex path per hex it may end in."""
    try:
        rbc_allowed(state, attackers, defender)
    except RuleError:
        return []
    from tactical.movement import MoveCosts

    grid = state.field.grid
    costs = MoveCosts(state, defender)
    ends: dict[int, tuple[str, ...]] = {}
    for j in grid.neighbours(defender.hex):
        for k in grid.neighbours(j):
            if k == defender.hex or k in ends:
                continue
            path = (grid.hex_id(j), grid.hex_id(k))
            try:
                ends[rbc_end(state, attackers, defender, path, costs)] = path
            except RuleError:
                continue
    return [ends[k] for k in sorted(ends)]


def shock_reactions(state: State, action: Shock) -> list[React]:
    """The defender's choices before a designated shock is rolled (docs/rules/tactical.md §8.13):
    reaction fire at any one attacker (003 §8.2), with option retreat-to-reduce-hits the choice
    to give ground for a hit fewer (001 10.37, charts-v1), or a cavalry retreat before combat
    (003 §8.3, §9.16).  Empty when the defender has none (the shock is rolled at once)."""
    defender = state.units[action.defender]
    if not defender.on_map or defender.status == "routed":
        return []
    attackers = [state.units[a] for a in action.attackers]
    out: list[React] = []
    fires: list[str | None] = [None]
    # cavalry facing elephants that stays is disordered first and cannot fire (003 §9.16, §8.11)
    if not (defender.cavalry and defender.status == "full" and any(a.type == "EL" for a in attackers)):
        for a in attackers:
            try:
                _check_reaction_fire(state, defender, a)
            except RuleError:
                continue
            fires.append(a.id)
    reduce = [False, True] if _reduce_offered(state) else [False]
    for f in fires:
        for r in reduce:
            if f is not None or r:
                out.append(React(fire=f, reduce_hits=r))
    out.extend(React(rbc=path) for path in rbc_paths(state, attackers, defender))
    return out


def _reduce_offered(state: State) -> bool:
    return "retreat-to-reduce-hits" in state.options and state.ruleset == "charts-v1"


def check_shock_react(state: State, action: Shock, react: React) -> None:
    """Whether the defender may answer ``action`` with ``react`` (its checks, before any die)."""
    if react.reaction is not None or react.return_fire:
        raise RuleError("Before a shock the defender may fire, retreat before combat, or decline (003 §8.2-8.3).")
    defender = _unit(state, action.defender)
    attackers = [_unit(state, a) for a in action.attackers]
    if not (react.fire or react.rbc or react.reduce_hits):
        raise RuleError("A reaction to a shock names reaction fire, a retreat before combat or reduce_hits.")
    if defender.status == "routed":
        raise RuleError(f"{defender.id} is routed and does nothing but die (003 §8.3).")
    if react.rbc is not None:
        if react.fire or react.reduce_hits:
            raise RuleError("Cavalry that retreats before combat neither fires nor stays to fight (003 §8.3).")
        rbc_end(state, attackers, defender, react.rbc)
        return
    if react.fire is not None:
        target = next((a for a in attackers if a.id == react.fire), None)
        if target is None:
            raise RuleError(f"{react.fire} is not one of the attackers.")
        if defender.cavalry and defender.status == "full" and any(a.type == "EL" for a in attackers):
            raise RuleError(
                f"{defender.id} stays to face elephants and is disordered: it may not fire (003 §9.16, §8.11)."
            )
        _check_reaction_fire(state, defender, target)
    if react.reduce_hits and not _reduce_offered(state):
        raise RuleError("Retreating to reduce hits is option retreat-to-reduce-hits of charts-v1 (001 10.37).")


def _advance(state: State, attackers: list[Unit], vacated: int, events: list[Event]) -> None:
    """003 §8.5: after the defender retreats or routs, one attacker may advance into its hex."""
    if any(u.on_map and vacated in u.hexes() for u in state.units.values()):
        return  # pursuit took the hex, or someone stands there
    for a in attackers:
        if a.on_map and not a.double and a.status != "routed" and not a.engaged:
            if state.field.step_cost(a.cls, a.hex, vacated) >= NO:
                continue
            a.hex = vacated
            events.append(
                Event("advance", f"{a.id} advances to {state.field.grid.hex_id(vacated)} (003 §8.5).", {"unit": a.id})
            )
            return


def fire_as(state: State, firer: Unit, target: Unit, rng: int, dice: Dice, events: list[Event]) -> None:
    """Fire treated as at a fixed range (000 §6.55: a mounted archer withdrawing fires at 2)."""
    _fire(state, firer, target, dice, events, as_range=rng)


def _reduce(state: State, unit: Unit, enemies: list[Unit], events: list[Event]) -> None:
    """002: flip to the reduced side, new TQ = old TQ - 2, keep half the hits (rounded down), retreat."""
    c = charts.v1_constants()
    unit.reduced = True
    unit.tq = max(1, unit.tq - c.reduce_tq_loss)
    unit.missile_hits //= 2
    state.broke.add(unit.id)
    events.append(Event("reduce", f"{unit.id} is reduced (TQ {unit.tq}).", {"unit": unit.id}))
    if unit.on_map:
        _retreat(state, unit, enemies, events, v1=True)


def _v1_effect(
    state: State, unit: Unit, eff: Any, enemies: list[Unit], dice: Dice, events: list[Event], fewer: bool = False
) -> None:
    if not unit.on_map or eff.kind == "none":
        return
    if fewer and eff.hits > 2 and eff.kind in ("hits", "check") and _vacant_retreat(state, unit, enemies):
        # 001 10.37: more than two hits: one fewer for a retreat into a vacant hex out of enemy fronts
        eff = eff.model_copy(update={"hits": eff.hits - 1, "retreat": True})
        events.append(Event("hits", f"{unit.id} gives ground to take one hit fewer (001 10.37).", {"unit": unit.id}))
    if eff.kind == "check":
        r = dice.d10(f"{unit.id} shock check")
        if r + eff.add > unit.tq:
            events.append(Event("check", f"{unit.id} rolls {r} + {eff.add} over TQ {unit.tq}.", {"unit": unit.id}))
            if eff.fail == "reduce":
                _reduce(state, unit, enemies, events)
            else:
                _rout(state, unit, events, "002 shock check failed")
            return
        add_hits(state, unit, eff.hits, events, "shock")
        if eff.retreat and unit.on_map:
            _retreat(state, unit, enemies, events, v1=True)
        return
    if eff.kind == "hits":
        add_hits(state, unit, eff.hits, events, "shock")
        if eff.retreat and unit.on_map:
            _retreat(state, unit, enemies, events, v1=True)
    elif eff.kind == "reduce":
        if unit.reduced_side and not unit.reduced:
            _reduce(state, unit, enemies, events)
        else:
            _rout(state, unit, events, "002 shock")
    elif eff.kind == "rout":
        _rout(state, unit, events, "002 shock")


def _v1_column(unit: Unit, side: Any) -> Any:
    """002's "units with a reduced side" column: a unit that can still be reduced."""
    return side.reduced if unit.reduced_side and not unit.reduced else side.unreduced


def _resolve_v1(state: State, action: Shock, plan: ShockPlan, roll: int, dice: Dice, events: list[Event]) -> None:
    """charts-v1 (002 Shock Results, docs §8.11): the modified roll picks a row; the defender's
    effect, then each attacker's (in the order named), then pursuit and leader casualties."""
    attackers, defender = plan.attackers, plan.defender
    modified = roll + plan.total
    row = charts.shock_result_v1(modified)
    parts = ", ".join(f"{k} {v:+d}" for k, v in plan.drms.items()) or "no modifiers"
    result = f"v1:{row.label}"
    events.append(
        Event(
            "shock",
            f"{'+'.join(a.id for a in attackers)} shock {defender.id}: roll {roll} {plan.total:+d} ({parts}) = "
            f"{modified}: row {row.label}.",
            {"roll": roll, "drm": plan.total, "modified": modified, "result": result, "drms": dict(plan.drms)},
        )
    )
    was_moving = {a.id: not a.engaged for a in attackers}
    defender_hex = defender.hex
    fewer = (
        action.reduce_hits
        and "retreat-to-reduce-hits" in state.options
        and not all(a.missile_hits >= a.tq for a in attackers)
    )
    _v1_effect(state, defender, _v1_column(defender, row.defender), attackers, dice, events, fewer)
    for a in attackers:
        _v1_effect(state, a, _v1_column(a, row.attacker), [defender], dice, events)
    # units left face to face stay locked in combat
    grid = state.field.grid
    if defender.on_map and defender.status != "routed":
        for a in attackers:
            if a.on_map and a.status != "routed" and set(frontal_hexes(grid, a)) & set(defender.hexes()):
                a.engaged = defender.engaged = True
    if defender.status == "routed" or not defender.on_map:
        _pursuit(state, action, attackers, defender, defender_hex, was_moving, dice, events)
    if action.advance and defender_hex not in defender.hexes():
        _advance(state, attackers, defender_hex, events)
    _leader_casualties(state, attackers, defender, dice, events)
    refresh_engaged(state)


def _vacant_retreat(state: State, unit: Unit, enemies: list[Unit]) -> bool:
    """001 10.37: a hex next to the unit, empty even of friends, out of every enemy front, and
    farther from the attackers."""
    if unit.double:
        return False
    grid = state.field.grid
    taken = {h for u in state.units.values() if u.on_map for h in u.hexes()}
    fronts = {h for u in state.units.values() if u.on_map and u.side != unit.side for h in frontal_hexes(grid, u)}
    near = [h for e in enemies if e.on_map for h in e.hexes()]
    here = min((grid.distance(unit.hex, h) for h in near), default=0)
    for j in grid.neighbours(unit.hex):
        if j in taken or j in fronts or state.field.step_cost(unit.cls, unit.hex, j) >= NO:
            continue
        if min((grid.distance(j, h) for h in near), default=1) > here:
            return True
    return False
