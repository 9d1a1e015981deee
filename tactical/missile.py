"""Missile combat (003 §8.1–§8.2, 000 §8.1): fire, reaction fire, return fire, hit and run
and the pilum's reaction, on the missile chart of ``tactical.charts``.
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
from tactical.effects import _combat_terrain, _rules, _unit, _weapon_name, add_hits, rampage
from tactical.hexes import flank_dirs, frontal_dirs
from tactical.rout import eliminate
from tactical.sight import line_of_sight
from tactical.state import State, Unit, frontal_hexes
from tactical.tables import TERRAINS


# -- missile fire ---------------------------------------------------------------------------
def _fire_arc_ok(state: State, firer: Unit, target: Unit) -> bool:
    """The target lies beyond the firer's frontal or flank hexes (000 §8.13), not behind it."""
    grid = state.field.grid
    f = firer.facing
    allowed = set(frontal_dirs(f)) | set(flank_dirs(f)) if not firer.column else {f}
    for th in target.hexes():
        line = grid.line(firer.hex, th)
        first = line[1] if len(line) > 1 else line[0]
        if any(grid.direction(firer.hex, h) in allowed for h in first if h >= 0):
            return True
    return False


def _fire_capable(firer: Unit) -> None:
    if not charts.may_fire(firer.type, firer.missile):
        raise RuleError(f"{firer.id} has no missile fire (002 Missile chart; 000 §8.14).")
    if firer.status != "full" or firer.engaged:
        raise RuleError(f"{firer.id} is disordered, routed or engaged and may not fire (003 §8.11).")


def fire_check(state: State, firer: Unit, target: Unit) -> int:
    """Whether ``firer`` may fire at ``target`` now; returns the range in hexes."""
    if not firer.on_map or not target.on_map:
        raise RuleError("Both units must be on the map.")
    if firer.side == target.side:
        raise RuleError(f"{target.id} is a friendly unit.")
    _fire_capable(firer)
    grid = state.field.grid
    rng = min(grid.distance(a, b) for a in firer.hexes() for b in target.hexes())
    assert firer.missile is not None
    if rng > charts.missile_range(firer.missile):
        raise RuleError(f"{target.id} is {rng} hexes away, beyond {firer.id}'s missile range.")
    if not _fire_arc_ok(state, firer, target):
        raise RuleError(f"{target.id} is behind {firer.id}: fire goes out through frontal and flank hexes (000 §8.13).")
    if rng > 1 and not any(line_of_sight(state, a, b) for a in firer.hexes() for b in target.hexes()):
        raise RuleError(f"{firer.id} has no line of sight to {target.id} (000 §8.13).")
    return rng


def fire_reaction(state: State, defender: Unit, target: Unit, dice: Dice, events: list[Event]) -> None:
    """The defender's reaction fire at one attacker before the shock roll (003 §8.2)."""
    _fire(state, defender, target, dice, events, reaction=True)


def weapon_name(unit: Unit) -> str:
    """The weapons-system name a unit fights with (``charts``; a graded cohort's grade)."""
    return _weapon_name(unit)


def _check_reaction_fire(state: State, defender: Unit, target: Unit) -> None:
    """003 §8.2: the defender may fire at one attacker before shock, unless engaged."""
    fire_check(state, defender, target)


def _fire(
    state: State,
    firer: Unit,
    target: Unit,
    dice: Dice,
    events: list[Event],
    *,
    reaction: bool = False,
    as_range: int | None = None,
    hit_and_run: bool = False,
) -> None:
    """One volley; ``as_range`` fires as if at that range (hit and run, its return fire, a
    mounted archer's withdrawal fire), skipping the range, arc and sight checks."""
    if as_range is None:
        rng = fire_check(state, firer, target)
    else:
        _fire_capable(firer)
        rng = as_range
    assert firer.missile is not None
    field = state.field
    hit_no = charts.missile_hit_number(firer.missile, rng, target_type=target.type)
    if hit_no is None:
        raise RuleError(f"{firer.id}'s {firer.missile} missiles cannot reach {target.id} at {rng} hexes.")
    grid = field.grid
    adjacent_frontal = rng == 1 and bool(set(firer.hexes()) & set(frontal_hexes(grid, target)))
    drm = charts.missile_drms(
        firer.missile,
        target.type,
        firer_hits=firer.missile_hits,
        firer_moved=firer.id in state.moved or hit_and_run,
        firer_mounted=firer.mounted,
        hit_and_run=hit_and_run,
        target_cataphract=target.cataphract,
        target_missile=target.missile,
        adjacent_frontal=adjacent_frontal,
    )
    terr = charts.terrain_missile_drm(
        _rules(state),
        terrain=_combat_terrain(TERRAINS[field.terrain[target.hex]]),
        level_difference=field.level[target.hex] - field.level[firer.hex],
        missile_type=firer.missile,
    )
    if terr is None:
        raise RuleError(f"{target.id} cannot be fired on there.")
    roll = dice.d10(f"{firer.id} fires at {target.id}")
    modified = roll + drm + terr
    hit = modified <= hit_no
    what = "reaction fire" if reaction else "fires"
    events.append(
        Event(
            "fire",
            f"{firer.id} {what} at {target.id} ({rng} hex{'es' if rng > 1 else ''}): roll {roll} "
            f"{drm + terr:+d} = {modified} against {hit_no}: {'a hit' if hit else 'no effect'}.",
            {"roll": roll, "drm": drm + terr, "hit": hit},
        )
    )
    if not hit:
        return
    if target.type == "EL":
        # 003 §8.15: an elephant takes no missile hits: it may rampage instead
        check = dice.d10(f"{target.id} rampage check")
        if check > target.tq:
            rampage(state, target, firer, dice, events, hold=not reaction)
        return
    target.missile_hits += 1
    if target.missile_hits > target.tq:
        eliminate(state, target, events, "more missile hits than its TQ (003 §8.15)")


def resolve_fire(state: State, action: Fire, dice: Dice, events: list[Event]) -> None:
    """Missile fire by an activated unit (000 §8.11-8.13), once per activation, before or after its move."""
    from tactical.command import check_command

    seq = state.seq
    if seq.phase != "move":
        raise RuleError("Missile fire belongs to the Move/Fire segment (003 §3.1).")
    firer = _unit(state, action.unit)
    target = _unit(state, action.target)
    if firer.side != seq.side:
        raise RuleError(f"{firer.id} is not one of side {seq.side}'s units.")
    if firer.id in state.fired:
        raise RuleError(f"{firer.id} has already fired in this activation.")
    key = check_command(state, firer)
    if action.hit_and_run:
        hit_and_run_check(state, firer, target)
        if action.return_fire:
            check_return_fire(state, action)
    else:
        if action.return_fire:
            raise RuleError("Return fire answers a hit and run only (003 §9.3).")
        fire_check(state, firer, target)
    if key is not None and seq.order is None:
        seq.order = key
    seq.leader_done = True
    state.fired.add(firer.id)
    if action.hit_and_run:
        state.moved.add(firer.id)  # the hit and run is its move: it stays where it is
        _fire(state, firer, target, dice, events, as_range=1, hit_and_run=True)
        if action.return_fire and may_return_fire(state, action):
            return_fire(state, action, dice, events)
        return
    _fire(state, firer, target, dice, events)


def check_return_fire(state: State, action: Fire) -> None:
    """Whether the target of a hit and run has return fire at all (003 §9.3; 001 No Pilum #5)."""
    if not action.hit_and_run:
        raise RuleError("Return fire answers a hit and run only (003 §9.3).")
    firer, target = _unit(state, action.unit), _unit(state, action.target)
    if not _pilum_reaction(state, target, firer):
        _fire_capable(target)


def may_return_fire(state: State, action: Fire) -> bool:
    """Whether the target of the hit and run just fired may fire back now (003 §9.3)."""
    firer, target = state.units[action.unit], state.units[action.target]
    if not (target.on_map and firer.on_map and target.status == "full" and not target.engaged):
        return False
    if _pilum_reaction(state, target, firer):
        return True
    try:
        _fire_capable(target)
    except RuleError:
        return False
    return True


def return_fire(state: State, action: Fire, dice: Dice, events: list[Event]) -> None:
    """The target of a hit and run fires back, as at one hex (003 §9.3), or a legion answers a
    light cavalry hit and run with its javelins (001 No Pilum #5)."""
    firer, target = state.units[action.unit], state.units[action.target]
    if not may_return_fire(state, action):
        raise RuleError(f"{target.id} cannot fire back now.")
    if _pilum_reaction(state, target, firer):
        r = dice.d10(f"{target.id} reaction fire")
        hit = r <= 3
        events.append(
            Event(
                "fire",
                f"{target.id} answers with its javelins: {r}, {'a hit' if hit else 'no effect'} (001 No Pilum).",
                {"roll": r, "hit": hit},
            )
        )
        if hit:
            add_hits(state, firer, 1, events, "legion reaction fire")
    else:
        _fire(state, target, firer, dice, events, reaction=True, as_range=1)


def hit_and_run_zone(state: State, firer: Unit) -> set[int]:
    """The hexes ``firer`` could reach for a hit and run: 2 MP (SK/LI) without passing a friendly
    combat unit, or 4 MP (missile LC) passing friends at +1 (003 §9.3, §9.41)."""
    from tactical.movement import MoveCosts, reachable

    mc = MoveCosts(state, firer)
    cavalry = firer.type == "LC"
    mc.ma2 = min(mc.ma2, (4 if cavalry else 2) * 2)
    if not cavalry:
        mc.no_entry.update(mc.friends)
    return {node // 6 for node in reachable(state, firer, mc).dist}


def hit_and_run_check(state: State, firer: Unit, target: Unit, zone: set[int] | None = None) -> None:
    """003 §9.3: SK and LI (and §9.41 missile-armed LC) that start their move within 2 MP (LC: 4 MP)
    of a target, not adjacent to it, fire as at one hex without moving; SK/LI only at a target
    with the same or lower MA and not through a friendly combat unit (LC may, at +1 MP)."""
    from tactical.movement import movement_allowance

    light = firer.type in ("SK", "SK*", "LI")
    cavalry = firer.type == "LC" and firer.missile is not None
    if not (light or cavalry):
        raise RuleError(f"{firer.id} is not a skirmisher, light infantry or missile light cavalry (003 §9.3, §9.41).")
    _fire_capable(firer)
    if firer.id in state.moved:
        raise RuleError(f"{firer.id} has moved; a hit and run is made instead of moving (003 §9.3).")
    grid = state.field.grid
    if not target.on_map or target.side == firer.side:
        raise RuleError(f"{target.id} is not an enemy unit on the map.")
    if min(grid.distance(a, b) for a in firer.hexes() for b in target.hexes()) == 1:
        raise RuleError(f"{firer.id} is next to {target.id}; a hit and run starts from further off (003 §9.3).")
    if light and movement_allowance(target) > movement_allowance(firer):
        raise RuleError(f"{target.id} is faster than {firer.id}: no hit and run against it (003 §9.3).")
    if zone is None:
        zone = hit_and_run_zone(state, firer)
    near = {j for h in target.hexes() for j in grid.neighbours(h)}
    if not zone & near:
        mp = 4 if cavalry else 2
        raise RuleError(f"{target.id} is not within {mp} MP of {firer.id} for a hit and run (003 §9.3, §9.41).")


def _pilum_reaction(state: State, legion: Unit, firer: Unit) -> bool:
    """001 No Pilum #5: with the option, a legion unit attacked frontally by light cavalry's hit
    and run may fire back once (docs §9)."""
    return (
        "no-pilum" in state.options
        and legion.type in ("LG", "CO")
        and firer.type == "LC"
        and legion.status == "full"
        and bool(set(firer.hexes()) & _front_arc(state, legion))
    )


def _front_arc(state: State, unit: Unit) -> set[int]:
    """Hexes within two of ``unit`` whose line leaves it through a frontal hex (the hit and run
    comes from there, as if adjacent)."""
    grid = state.field.grid
    front = set(frontal_dirs(unit.facing))
    out = set()
    for i in range(grid.size):
        dist = grid.distance(unit.hex, i)
        if 1 <= dist <= 4:
            first = grid.line(unit.hex, i)[1]
            if any(h >= 0 and grid.direction(unit.hex, h) in front for h in first):
                out.add(i)
    return out
