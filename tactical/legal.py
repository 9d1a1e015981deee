"""The one legal-action generator of the tactical engine (python-chess's ``legal_moves``).

``legal_actions(state)`` lists every action the side to act may take now, built on the
same checks the engine applies (``MoveCosts`` and ``reachable`` for moves, ``fire_check``,
``plan_shock``, ``must_rally``…), so the UI highlights, the AI searches and the
validator checks one set.  The random-playout test applies every action it offers and
requires each to be accepted.

Leaderless groups: the generator offers, besides every leader, the group of the three
units whose ids sort first (the rules allow any three; listing every triple would
swamp the list).  Shock (003 §8.3): first designations — each defender against all
eligible attackers together, against each one alone, and against each pair when there
are three or more — then ``resolve``, then one ``shock`` per designated combat, in any
order (with the pursuit variant where cavalry attacks).

The defending side's decisions (docs/rules/tactical.md §8.13): while ``state.reacting``
holds a move, shock or hit and run that waits on the defender, the side to act is the
defender (``state.acting``) and the generator offers only its answers — ``decline`` and
every legal ``react``: each facing change and each orderly withdrawal (one per end hex,
mounted archers also firing) open to its units and leaders at the hex the mover reached
(``engine.move_reactions``), reaction fire at each attacker and each retreat before combat
(``combat.shock_reactions``), or return fire.  The engine halts only where at least one
such reaction is legal, so ``decline`` is never the sole choice offered.
"""

from __future__ import annotations

import functools
from itertools import combinations

from bellum.errors import RuleError
from tactical import charts
from tactical.actions import (
    Action,
    Activate,
    Continuity,
    Decline,
    Designate,
    Fire,
    Move,
    Pass,
    Rally,
    React,
    Resolve,
    Shock,
    Start,
    plain_moves,
)
from tactical.combat import (
    engaged_must_attack,
    fire_check,
    hit_and_run_check,
    hit_and_run_zone,
    may_return_fire,
    must_rally,
    plan_shock,
    shock_reactions,
)
from tactical.command import check_command
from tactical.engine import check_may_move, move_reactions, pending_mover, rampage_reactions
from tactical.hexes import Grid
from tactical.movement import MoveCosts, fingerprint, reachable
from tactical.state import Leader, State, Unit, frontal_hexes
from tactical.tables import HALF, NO


def move_actions(state: State, mover: Unit | Leader, snap: Snapshot | None = None) -> list[Move]:
    """Every legal move of one unit or leader (one per reachable end, by its least-cost path).
    ``snap``: the position's ``snapshot`` when the caller asks for many movers of one position."""
    try:
        check_may_move(state, mover)
    except RuleError:
        return []
    return list(_cached_moves(state, mover, snap or snapshot(state)))


#: a unit's place in a position fingerprint: hex, second hex, facing, status, column, MA
_Place = tuple[int, int, int, str, bool, int]


class Snapshot:
    """Where every unit and leader stands, taken once for all the movers of one position.

    The move cache compares snapshots by identity: ``snapshot`` hands back the battlefield's
    last snapshot object while the position has not changed, so a mover's cached moves are
    recognised as current in constant time; the hexes changed between two snapshots are worked
    out once for every mover that needs them (``changed``)."""

    __slots__ = ("_changed", "fingerprint", "ids", "leader_hexes", "leader_ids", "places")

    def __init__(self, state: State) -> None:
        self.ids = tuple(state.units)
        #: the position index's fingerprint (``movement.fingerprint``), handed to every search
        self.fingerprint = fingerprint(state)
        self.places: tuple[_Place, ...] = self.fingerprint[0]
        self.leader_ids = tuple(state.leaders)
        self.leader_hexes: tuple[int, ...] = self.fingerprint[1]
        self._changed: dict[tuple[Snapshot, int], set[int] | None] = {}

    def same(self, other: Snapshot) -> bool:
        return (
            self.places == other.places
            and self.leader_hexes == other.leader_hexes
            and self.ids == other.ids
            and self.leader_ids == other.leader_ids
        )

    def changed(self, state: State, old: Snapshot, rings: int) -> set[int] | None:
        """The nodes (``hex * 6 + facing``, every facing) of the hexes whose surroundings a
        search reads that differ from ``old`` — grown by ``rings`` rings of neighbours — or
        None when the units or leaders themselves differ."""
        key = (old, rings)
        if key in self._changed:
            return self._changed[key]
        out: set[int] | None = None
        if old.ids == self.ids and old.leader_ids == self.leader_ids:
            hexes = _changed_hexes(state, old.places, self.places, old.leader_hexes, self.leader_hexes)
            nbr = state.field.grid.nbr
            for _ in range(rings):
                hexes |= {j for h in hexes for j in nbr[h * 6 : h * 6 + 6] if j >= 0}
            out = {h * 6 + f for h in hexes for f in range(6)}
        if len(self._changed) > 64:
            self._changed.clear()
        self._changed[key] = out
        return out


def snapshot(state: State) -> Snapshot:
    """The position's ``Snapshot``: the battlefield's last one while nothing has moved since."""
    snap = Snapshot(state)
    cache = state.field.move_cache
    last = cache.get(Snapshot)
    if last is not None and last.same(snap):
        return last  # type: ignore[no-any-return]
    cache[Snapshot] = snap
    return snap


def _cached_moves(state: State, mover: Unit | Leader, snap: Snapshot) -> list[Move]:
    """The moves of ``mover``, reused from an earlier position when nothing the search looked
    at has changed since.

    A search reads the position only in the hexes it settled nodes in and their neighbours
    (two rings for a double-sized unit, whose second hex and its neighbours count): enemy and friendly
    units there, enemy fronts covering them, elephants next to them, enemy leaders.  So a
    result stays true while every unit or leader that changed place, facing or status since
    left all of those hexes alone — before and after the change, its hexes, its front and,
    for an elephant, the hexes next to it.  The cache lives on the battlefield (shared by the
    copies ``apply`` makes); ``tests/tactical/test_designation.py`` proves cached and fresh
    moves equal along random games.  Option ``leaving-zoc`` reads every enemy's
    surroundings, so it is never cached."""
    if "leaving-zoc" in state.options:
        return _fresh_moves(state, mover, snap)[0]
    if isinstance(mover, Leader):
        key: tuple[object, ...] = ("leader", mover.id, mover.side, mover.hex, mover.ma)
    else:
        key = (mover.id, mover.type, mover.cls, mover.hex, mover.hex2, mover.facing, mover.status, mover.column)
        key += (mover.ma,)
    key += (state.ruleset, state.options)
    cache = state.field.move_cache
    entry = cache.get(key)
    if entry is not None:
        old, settled, moves = entry
        if old is snap:
            return moves  # type: ignore[no-any-return]
        # the search read the settled hexes and their neighbours (two rings for a double
        # unit): equivalently, no changed hex may have a settled hex within that reach (the
        # changed hexes, grown by the reach, come as nodes: every facing of each)
        changed = snap.changed(state, old, 2 if isinstance(mover, Unit) and mover.hex2 >= 0 else 1)
        if changed is not None and changed.isdisjoint(settled):
            cache[key] = (snap, settled, moves)
            return moves  # type: ignore[no-any-return]
    moves, settled = _fresh_moves(state, mover, snap)
    if len(cache) > 4096:
        cache.clear()
    cache[key] = (snap, settled, moves)
    return moves


def _fresh_moves(state: State, mover: Unit | Leader, snap: Snapshot | None = None) -> tuple[list[Move], set[int]]:
    """The moves of ``mover`` by a new search, and the nodes the search settled."""
    reach = reachable(state, mover, MoveCosts(state, mover, known=snap.fingerprint if snap else None))
    moves = plain_moves(mover.id, reach.end_path_list())
    return moves, set(reach.order)


def _changed_hexes(
    state: State,
    old: tuple[_Place, ...],
    new: tuple[_Place, ...],
    old_leaders: tuple[int, ...],
    new_leaders: tuple[int, ...],
) -> set[int]:
    """Every hex whose surroundings a search reads that differs between two positions."""
    out: set[int] = set()
    if old != new:
        grid = state.field.grid
        for a, b, u in zip(old, new, state.units.values(), strict=True):
            if a == b:
                continue
            for hx, hx2, facing, _status, column, _ma in (a, b):
                if hx < 0:
                    continue
                probe = Unit(u.id, u.side, u.type, u.size, u.tq, u.ma, hx, facing, hx2, column=column)
                out.update(probe.hexes())
                out.update(frontal_hexes(grid, probe))
                if u.type == "EL":
                    out.update(j for h in probe.hexes() for j in grid.neighbours(h))
    if old_leaders != new_leaders:
        for x, y in zip(old_leaders, new_leaders, strict=True):
            if x != y:
                out.update(h for h in (x, y) if h >= 0)
    return out


def _group(state: State, side: str) -> tuple[str, ...] | None:
    mine = sorted(
        (u for u in state.units.values() if u.side == side and u.on_map and u.status != "routed"), key=lambda u: u.id
    )
    if not mine:
        return None
    return tuple(u.id for u in mine[:3])


def legal_actions(state: State, *, moves: bool = True) -> list[Action]:
    """Every legal action now; ``moves=False`` leaves out the moves (the engine object checks a
    move against its mover's own list, ``move_actions``)."""
    seq = state.seq
    side = seq.side
    phase = seq.phase
    if phase == "over":
        return []
    if state.reacting is not None:
        return reaction_actions(state)
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
        snap = snapshot(state)
        if seq.leader is not None and moves:
            acts.extend(move_actions(state, state.leaders[seq.leader], snap))
            acts.extend(_carry_actions(state, state.leaders[seq.leader], snap))
        for u in own if moves else ():
            acts.extend(move_actions(state, u, snap))
        acts.extend(_fire_actions(state, own))
    designating = phase == "move" or (phase == "shock" and state.designating)
    if designating:
        acts.extend(_cached_designations(state, own))
        if state.designations:
            # designated shocks must be resolved (003 §8.3): no pass, no rally before 'resolve'
            if not engaged_must_attack(state):
                acts.append(Resolve())
            return acts
    elif state.designations:
        return list(_resolutions(state))
    for u in own:
        if must_rally(state, u) or (u.status == "full" and u.missile_hits > 0):
            rally = Rally(u.id)
            if _accepted(state, rally):
                acts.append(rally)
    if not engaged_must_attack(state):
        acts.append(Pass())
    return acts


def reaction_actions(state: State) -> list[Action]:
    """The defender's answers to what ``state.reacting`` holds (docs/rules/tactical.md §8.13)."""
    p = state.reacting
    assert p is not None
    acts: list[Action] = [Decline()]
    if p.kind == "move":
        mover = pending_mover(state, p)
        acts.extend(React(reaction=r) for r in move_reactions(state, mover, p.before, p.done))
    elif p.kind == "shock":
        acts.extend(shock_reactions(state, p.action))
    elif p.kind == "rampage":
        elephant = state.units[p.action.elephant]
        acts.extend(React(reaction=r) for r in rampage_reactions(state, elephant, p.side, p.done))
    elif may_return_fire(state, p.action):
        acts.append(React(return_fire=True))
    return acts


def _carry_actions(state: State, leader: Leader, snap: Snapshot) -> list[Move]:
    """The activated leader moving with a unit stacked with him (003 §4.2): each of the unit's
    moves whose hexes the leader can walk within his MP, the unit beside him costing him nothing
    (the check ``engine._move_with_leader`` makes, run here over the leader's own cost model)."""
    try:
        check_may_move(state, leader)
    except RuleError:
        return []
    out: list[Move] = []
    for u in state.units_at(leader.hex):
        if u.side != leader.side:
            continue
        moves = move_actions(state, u, snap)
        if not moves:
            continue
        # the leader's costs in this position with the unit off the map (the engine walks him
        # over a copy without it): only his friends differ, the unit being friendly
        mc = MoveCosts(state, leader, known=snap.fingerprint)
        friends = dict(mc.friends)
        for h in u.hexes():
            rest = [f for f in friends.get(h, ()) if f.id != u.id]
            if rest:
                friends[h] = rest
            else:
                friends.pop(h, None)
        mc.friends = friends
        out.extend(_carried(state, mc, u, moves))
    return out


def _carried(state: State, mc: MoveCosts, unit: Unit, moves: list[Move]) -> list[Move]:
    """Those of ``unit``'s ``moves`` the leader of ``mc`` can walk: the hexes of each path in
    turn, each a step of his within the MP left.  Paths sharing their first hexes share the
    walk (``walked``: where the leader stands, and the MP spent, after a sequence of hexes;
    None once he cannot follow)."""
    grid = state.field.grid
    index = _hex_index(grid)
    is_hex = index.__contains__  # a path's other words are facing changes
    walked: dict[tuple[str, ...], tuple[int, int] | None] = {(): (mc.start, 0)}
    out: list[tuple[str, ...]] = []
    for m in moves:
        hexes = tuple(filter(is_hex, m.path))
        if hexes not in walked:
            done = len(hexes) - 1
            while hexes[:done] not in walked:
                done -= 1
            at = walked[hexes[:done]]
            for k in range(done, len(hexes)):
                if at is not None:
                    # the leader's step into the next hex (``MoveCosts.successors``: he has no
                    # facing and steps into any neighbour)
                    node, spent = at
                    i, j = node // 6, index[hexes[k]]
                    d = grid.direction(i, j)
                    cost = mc.enter(i, d) if d >= 0 else NO
                    at = None if cost >= NO or spent + cost > mc.ma2 else (j * 6, spent + cost)
                walked[hexes[: k + 1]] = at
        if walked[hexes] is not None:
            out.append(m.path)
    return plain_moves(mc.mover.id, out, carry=unit.id)


@functools.cache
def _hex_index(grid: Grid) -> dict[str, int]:
    """Every hex id of a map with its index (the grid's size alone decides them)."""
    return {h: i for i, h in enumerate(grid.ids)}


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
    grid = state.field.grid
    enemies = [e for e in state.units.values() if e.on_map and e.side != state.seq.side]
    by_column = _EnemyColumns(grid.columns, enemies)
    for u in own:
        if u.missile is None or u.id in state.fired:
            continue
        try:
            check_command(state, u)
        except RuleError:
            continue
        zone = (
            hit_and_run_zone(state, u)
            if u.type in ("SK", "SK*", "LI", "LC")
            and u.id not in state.moved
            and u.status == "full"
            and _enemy_within_zone_reach(state, u, by_column)
            else None
        )
        # cheap filters first: fire_check refuses anything beyond the missile range, and
        # hit_and_run_check any target with no hex next to the zone; neither can hold for an
        # enemy whose columns are all further than that (a step changes the column by one)
        reach = charts.missile_range(u.missile)
        near_zone = {j for h in zone for j in grid.neighbours(h)} if zone is not None else set()
        columns = [h % grid.columns for h in u.hexes()]
        lo, hi = min(columns) - reach, max(columns) + reach
        if near_zone:
            lo = min(lo, *(h % grid.columns for h in near_zone))
            hi = max(hi, *(h % grid.columns for h in near_zone))
        mine = u.hexes()
        for e in by_column.between(lo, hi):
            theirs = e.hexes()
            if len(mine) == 1 == len(theirs):
                near = grid.distance(mine[0], theirs[0]) <= reach
            else:
                near = min(grid.distance(a, b) for a in mine for b in theirs) <= reach
            if near:
                try:
                    fire_check(state, u, e)
                except RuleError:
                    pass
                else:
                    out.append(Fire(u.id, e.id))
            if zone is not None and near_zone.intersection(theirs):
                try:
                    hit_and_run_check(state, u, e, zone)
                except RuleError:
                    continue
                out.append(Fire(u.id, e.id, hit_and_run=True))
    return out


class _EnemyColumns:
    """The enemies by the map columns their hexes stand in, so a firer looks only at those
    within reach (the fire actions stay linear in the units on a wide field)."""

    __slots__ = ("columns", "enemies", "index")

    def __init__(self, columns: int, enemies: list[Unit]) -> None:
        self.columns = columns
        self.enemies = enemies
        self.index: list[list[int]] = [[] for _ in range(columns)]
        for k, e in enumerate(enemies):
            for c in {h % columns for h in e.hexes()}:
                self.index[c].append(k)

    def between(self, lo: int, hi: int) -> list[Unit]:
        """The enemies with a hex in columns ``lo``..``hi`` (0-based), in the list's order."""
        found: set[int] = set()
        for c in range(max(0, lo), min(self.columns - 1, hi) + 1):
            found.update(self.index[c])
        return [self.enemies[k] for k in sorted(found)]


def _enemy_within_zone_reach(state: State, firer: Unit, by_column: _EnemyColumns) -> bool:
    """Whether any enemy could lie next to ``firer``'s hit-and-run zone (003 §9.3, §9.41): the
    zone's hexes are at most 2 MP away (4 for light cavalry), every step costs at least the
    cheapest step of the firer's class, so a target is within that many hexes plus one.  Only
    a filter: ``hit_and_run_check`` decides (no zone is searched when nobody is near)."""
    cls = firer.move_class()
    key = ("cheapest step", cls)
    cache = state.field.index_cache
    cheapest = cache.get(key)
    if cheapest is None:
        # the least of all is the least below NO (at C speed: the table has a cost for each of
        # the map's nodes, asked again in every new position)
        cheapest = cache[key] = min(state.field.enter_costs(cls))
    if cheapest <= 0:
        return True
    limit = (4 if firer.type == "LC" else 2) * HALF
    radius = limit // cheapest + 1
    grid = state.field.grid
    column = firer.hex % grid.columns
    near = by_column.between(column - radius, column + radius)
    return any(grid.distance(firer.hex, h) <= radius for e in near for h in e.hexes())


def designation_actions(state: State) -> list[Designate]:
    """The designations the generator offers now (003 §8.3): only in the move segment or while
    the shock segment is still designating, and not while the defender decides."""
    seq = state.seq
    if state.reacting is not None or not (seq.phase == "move" or (seq.phase == "shock" and state.designating)):
        return []
    own = sorted((u for u in state.units.values() if u.side == seq.side and u.on_map), key=lambda u: u.id)
    return _designations(state, own)


def _cached_designations(state: State, own: list[Unit]) -> list[Designate]:
    """``_designations``, reused while nothing they read has changed: the position (the
    battlefield's ``Snapshot``, recognised by identity: every unit's hexes, facing and status,
    every leader's hex), the activation (side, phase, leader or group), the designations made,
    the units that fought, moved or regroup, the leaders' ranges, the rules and options.
    ``tests/tactical/test_legal.py`` checks cached and fresh equal along random games."""
    seq = state.seq
    key = (
        seq.side,
        seq.phase,
        seq.leader,
        None if seq.group is None else tuple(seq.group),
        state.designating,
        tuple(state.designations),
        tuple(sorted(state.fought)),
        tuple(sorted(state.moved)),
        tuple(sorted(state.regrouping)),
        tuple((ld.id, ld.hex, ld.range, ld.on_map) for ld in state.leaders.values()),
        state.ruleset,
        state.options,
    )
    snap = snapshot(state)
    cache = state.field.move_cache
    entry = cache.get(_DESIGNATIONS)
    if entry is not None and entry[0] == key and entry[1] is snap:
        return list(entry[2])
    out = _designations(state, own)
    cache[_DESIGNATIONS] = (key, snap, out)
    return list(out)


#: the move cache's entry for the last position's designations (``_cached_designations``)
_DESIGNATIONS = "designations"


def _designations(state: State, own: list[Unit]) -> list[Designate]:
    """003 §8.3: the designations still open — attackers not yet designated nor fought, against
    each enemy in their front (a defender already designated may be joined)."""
    grid = state.field.grid
    out: list[Designate] = []
    taken = {a for atts, _ in state.designations for a in atts}
    already = {d: atts for atts, d in state.designations}
    by_target: dict[str, list[str]] = {}
    enemy_at: dict[int, list[str]] = {}  # a hex may hold two Roman units (000 §6.6)
    for enemy in state.units.values():
        if enemy.on_map and enemy.side != state.seq.side:
            for h in enemy.hexes():
                enemy_at.setdefault(h, []).append(enemy.id)
    for u in own:
        if u.status == "routed" or u.id in state.fought or u.id in taken:
            continue
        targets = {e for h in frontal_hexes(grid, u) for e in enemy_at.get(h, ())}
        for e in sorted(targets):
            by_target.setdefault(e, []).append(u.id)
    for target, attackers in sorted(by_target.items()):
        options: set[tuple[str, ...]] = {(a,) for a in attackers}
        if len(attackers) > 1:
            options.add(tuple(attackers))
        if len(attackers) > 2:
            options.update(combinations(attackers, 2))
        for group in sorted(options):
            try:
                plan_shock(state, Shock(already.get(target, ()) + group, target))
            except RuleError:
                continue
            out.append(Designate(group, target))
    return out


def _resolutions(state: State) -> list[Shock]:
    """One ``shock`` per designated combat, resolved in any order (003 §8.3); cavalry attackers
    may choose to pursue."""
    out: list[Shock] = []
    for atts, d in state.designations:
        out.append(Shock(atts, d))
        if any(state.units[a].cavalry for a in atts):
            out.append(Shock(atts, d, pursue=True))
    return out
