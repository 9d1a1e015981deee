"""The one legal-action generator of the tactical engine (python-chess's ``legal_moves``).

``legal_actions(state)`` lists every action the side to act may take now, built on the
same checks the engine applies (``MoveCosts`` and ``reachable`` for moves, ``fire_check``,
``plan_shock``, ``must_rally``…), so the UI highlights, the AI searches and the
validator checks one set.  The random-playout test applies every action it offers and
requires each to be accepted.

Leaderless groups: the generator offers, besides every leader, the group of the three
units nearest the side's centre (the rules allow any three; listing every triple would
swamp the list).  Shock: each defender against all eligible attackers together, and
against each one alone.
"""

from __future__ import annotations

from itertools import combinations

from bellum.errors import RuleError
from tactical.actions import Action, Activate, Continuity, Fire, Move, Pass, Rally, Shock, Start
from tactical.combat import (
    engaged_must_attack,
    fire_check,
    hit_and_run_check,
    hit_and_run_zone,
    must_rally,
    plan_shock,
)
from tactical.command import check_command
from tactical.engine import check_may_move
from tactical.movement import reachable
from tactical.state import Leader, State, Unit, frontal_hexes


def move_actions(state: State, mover: Unit | Leader) -> list[Move]:
    """Every legal move of one unit or leader (one per reachable end, by its least-cost path)."""
    try:
        check_may_move(state, mover)
    except RuleError:
        return []
    reach = reachable(state, mover)
    ends = [n for n in reach.ends() if n != reach.costs.start]
    paths = reach.notations(ends)
    return [Move(mover.id, paths[n]) for n in ends]


def _group(state: State, side: str) -> tuple[str, ...] | None:
    mine = sorted(
        (u for u in state.units.values() if u.side == side and u.on_map and u.status != "routed"), key=lambda u: u.id
    )
    if not mine:
        return None
    return tuple(u.id for u in mine[:3])


def legal_actions(state: State) -> list[Action]:
    seq = state.seq
    side = seq.side
    phase = seq.phase
    if phase == "over":
        return []
    if phase == "start":
        return [Start()]
    leaders = sorted((ld for ld in state.leaders.values() if ld.on_map and ld.side == side), key=lambda ld: ld.id)
    if phase == "activation":
        acts: list[Action] = [Activate(leader=ld.id) for ld in leaders]
        g = _group(state, side)
        if g:
            acts.append(Activate(group=g))
        acts.append(Pass())
        return acts
    if phase == "continuity":
        acts = [Pass()]
        if seq.streak >= 3:
            return acts
        for ld in leaders:
            if seq.last == ld.id and (not ld.elite or seq.last_count >= 2):
                continue
            acts.append(Continuity(leader=ld.id))
        g = _group(state, side)
        if g:
            acts.append(Continuity(group=g))
        return acts
    acts = []
    own = sorted((u for u in state.units.values() if u.side == side and u.on_map), key=lambda u: u.id)
    if phase == "move":
        if seq.leader is not None:
            acts.extend(move_actions(state, state.leaders[seq.leader]))
            acts.extend(_carry_actions(state, state.leaders[seq.leader]))
        for u in own:
            acts.extend(move_actions(state, u))
        acts.extend(_fire_actions(state, own))
    if phase in ("move", "shock"):
        acts.extend(_shock_actions(state, own))
    for u in own:
        if must_rally(state, u) or (u.status == "full" and u.missile_hits > 0):
            acts.append(Rally(u.id))
    if not engaged_must_attack(state):
        acts.append(Pass())
    return [a for a in acts if _accepted(state, a)]


def _carry_actions(state: State, leader: Leader) -> list[Move]:
    """The activated leader moving with a unit stacked with him (003 §4.2): each of the unit's
    moves that the leader can follow (checked on a copy, without dice)."""
    from bellum.dice import Dice
    from bellum.errors import MissingRollError
    from tactical.engine import apply

    try:
        check_may_move(state, leader)
    except RuleError:
        return []
    out = []
    for u in state.units_at(leader.hex):
        if u.side != leader.side:
            continue
        for m in move_actions(state, u):
            carry = Move(leader.id, m.path, carry=u.id)
            try:
                apply(state, carry, Dice.forced([]))
            except RuleError:
                continue
            except MissingRollError:  # a roll the move needs (rough terrain, leaving a front): still legal
                pass
            out.append(carry)
    return out


def _accepted(state: State, action: Action) -> bool:
    """Final filter for the actions whose legality depends on more than the checks above
    (a voluntary rally next to the enemy, say): the engine's own checks, without dice."""
    if isinstance(action, Rally):
        from tactical.combat import resolve_rally

        trial = state.copy()
        try:
            from bellum.dice import Dice

            resolve_rally(trial, action, Dice(0), [])
        except RuleError:
            return False
    return True


def _fire_actions(state: State, own: list[Unit]) -> list[Fire]:
    out = []
    enemies = [e for e in state.units.values() if e.on_map and e.side != state.seq.side]
    for u in own:
        if u.missile is None or u.id in state.fired:
            continue
        try:
            check_command(state, u)
        except RuleError:
            continue
        zone = (
            hit_and_run_zone(state, u)
            if u.type in ("SK", "SK*", "LI", "LC") and u.id not in state.moved and u.status == "full"
            else None
        )
        for e in enemies:
            try:
                fire_check(state, u, e)
            except RuleError:
                pass
            else:
                out.append(Fire(u.id, e.id))
            if zone is not None:
                try:
                    hit_and_run_check(state, u, e, zone)
                except RuleError:
                    continue
                out.append(Fire(u.id, e.id, hit_and_run=True))
    return out


def _shock_actions(state: State, own: list[Unit]) -> list[Shock]:
    grid = state.field.grid
    out: list[Shock] = []
    by_target: dict[str, list[str]] = {}
    for u in own:
        if u.status == "routed" or u.id in state.fought:
            continue
        front = set(frontal_hexes(grid, u))
        for e in state.units.values():
            if e.on_map and e.side != u.side and front & set(e.hexes()):
                by_target.setdefault(e.id, []).append(u.id)
    for target, attackers in sorted(by_target.items()):
        options: set[tuple[str, ...]] = {(a,) for a in attackers}
        if len(attackers) > 1:
            options.add(tuple(attackers))
        if len(attackers) > 2:
            options.update(combinations(attackers, 2))
        for group in sorted(options):
            action = Shock(tuple(group), target)
            try:
                plan_shock(state, action)
            except RuleError:
                continue
            out.append(action)
            if any(state.units[a].cavalry for a in group):
                out.append(Shock(tuple(group), target, pursue=True))
    return out
