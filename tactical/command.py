"""Who may act in an activation: command range, order groups, Roman commanders, leaderless groups.

* An activated leader activates the combat units of one order group within his
  Command Range (003 §4.2; 000 §4.2): by default the units of one type (SK and
  SK* are one type), or the groups a scenario lists.  The first unit to act fixes
  the group for the rest of the activation.
* Roman commanders (000 §5.3): tribunes order legionary foot only, praefects
  sociorum alae foot only, either may order velites when velites are all they
  order; praefects equitum order Roman cavalry of one legion or ala per
  activation; proconsuls and generals order anyone.
* A leaderless group (003 §3.2 #2, 000 §3.2 #2): any three combat units, or units
  of one name and type that are contiguous (Roman legions and alae: within one
  hex of each other).
"""

from __future__ import annotations

from bellum.errors import RuleError
from tactical.hexes import Grid
from tactical.state import Leader, State, Unit


def is_ala(unit: Unit) -> bool:
    """Alae troops are told apart from legionary troops by their group name (docs §5.3)."""
    return "ala" in unit.group.lower().split() or "alae" in unit.group.lower().split()


def order_key(state: State, leader: Leader, unit: Unit) -> str:
    """The order group ``unit`` belongs to when ``leader`` orders it; RuleError if he may not."""
    base = "SK" if unit.type == "SK*" else unit.type
    kind = leader.kind
    if kind in ("general", "proconsul") or not state.spqr:
        return base
    if kind in ("tribune", "praefect_sociorum"):
        if not unit.roman or unit.mounted:
            raise RuleError(f"{leader.id} is a {kind.replace('_', ' ')} and may order only Roman foot (000 §5.32).")
        if unit.skirmisher:
            return "velites"  # 000 §5.32: any velites, when velites are all he orders
        if kind == "tribune" and is_ala(unit):
            raise RuleError(f"{leader.id} is a tribune and may order only legionary troops, not {unit.id} (000 §5.32).")
        if kind == "praefect_sociorum" and not is_ala(unit):
            raise RuleError(f"{leader.id} is a praefect sociorum and may order only alae troops (000 §5.32).")
        return base
    if kind == "praefect_equitum":
        if not (unit.roman and unit.cavalry):
            raise RuleError(f"{leader.id} is a praefect equitum and may order only Roman cavalry (000 §5.33).")
        return f"{base}/{unit.group}"  # one legion's or one ala's cavalry per activation
    raise RuleError(f"{leader.id} has an unknown command kind {kind!r}.")


def in_range(state: State, leader: Leader, unit: Unit) -> bool:
    grid = state.field.grid
    return leader.on_map and any(grid.distance(leader.hex, h) <= leader.range for h in unit.hexes())


def check_command(state: State, unit: Unit) -> str | None:
    """Whether ``unit`` may act in the current activation.  Returns the order group it joins
    (None when no group is fixed: leaderless groups, or a case without leaders); RuleError if not."""
    seq = state.seq
    if unit.side != seq.side:
        raise RuleError(f"{unit.id} belongs to side {unit.side}; it is side {seq.side}'s activation.")
    if unit.id in state.regrouping:
        raise RuleError(f"{unit.id} is returning from pursuit and takes no orders until back in play (001 10.43).")
    if seq.group is not None:
        if unit.id not in seq.group:
            raise RuleError(f"{unit.id} is not in the activated group.")
        return None
    if seq.leader is None:
        return None
    leader = state.leaders[seq.leader]
    if not in_range(state, leader, unit):
        raise RuleError(f"{unit.id} is beyond {leader.id}'s Command Range of {leader.range} hexes (003 §4.2).")
    if unit.double_depth:
        return None  # 003 §9.62: a double-depth phalanx may be activated by anyone
    key = order_key(state, leader, unit)
    if seq.order is not None and key != seq.order:
        raise RuleError(
            f"{leader.id} has already ordered the {seq.order} units this activation; {unit.id} is not one (003 §4.2)."
        )
    return key


def check_group(state: State, side: str, ids: tuple[str, ...]) -> None:
    """A leaderless group (003 §3.2 #2; 000 §3.2 #2); RuleError if the units do not form one."""
    if len(set(ids)) != len(ids):
        raise RuleError("A unit is named twice in the group.")
    units: list[Unit] = []
    for uid in ids:
        u = state.units.get(uid)
        if u is None:
            raise RuleError(f"There is no unit {uid}.")
        if u.side != side:
            raise RuleError(f"{uid} is not one of side {side}'s units.")
        if not u.on_map:
            raise RuleError(f"{uid} is no longer on the map.")
        units.append(u)
    if len(units) <= 3:
        return  # any three combat units, anywhere on the map
    names = {u.group for u in units}
    types = {u.type for u in units}
    if len(names) != 1 or not next(iter(names)) or len(types) != 1:
        raise RuleError("A group of more than three units must share one name and one type (003 §3.2).")
    reach = 2 if state.spqr and all(u.roman for u in units) else 1  # 000 §3.2: legions and alae within 1 hex
    if not _connected(state.field.grid, units, reach):
        raise RuleError("The units of a named group must be contiguous (003 §3.2).")


def _connected(grid: Grid, units: list[Unit], reach: int) -> bool:
    seen = {0}
    todo = [0]
    while todo:
        k = todo.pop()
        for m, other in enumerate(units):
            if m in seen:
                continue
            if any(grid.distance(a, b) <= reach for a in units[k].hexes() for b in other.hexes()):
                seen.add(m)
                todo.append(m)
    return len(seen) == len(units)
