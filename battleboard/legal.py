"""The battleboard's ONE legal-action generator and its validator (docs/rules/battleboard.md).

``legal_actions(state)`` is what the window highlights, the AI searches and the validator
checks: ``check`` accepts an action only if the generator lists it (set-up and allocation,
whose placements are free, are checked square by square) and otherwise says why in one
sentence (``_why_not``).
"""

from __future__ import annotations

from battleboard.actions import Allocate, Attack, Command, Deploy, Double, EndTurn, Move, Stratagem, Withdraw
from battleboard.model import OFF, Action, Leader, State, Unit
from battleboard.queries import (
    BOARDING_MODES,
    DISC_ORDER,
    active_ground,
    can_leave,
    fire_targets,
    may_leave,
    may_withdraw,
    moves_of,
)
from bellum.errors import RuleError


# --------------------------------------------------------------------------
# the legal-action generator
# --------------------------------------------------------------------------
def legal_actions(s: State, unit: str | None = None, only: str = "") -> list[Action]:
    """Every legal action now (or only those of ``unit``, a unit or leader id; ``only`` =
    "move" or "attack" leaves out the other kind of a unit's actions)."""
    phase = s.phase
    if phase == "over":
        return []
    if phase == "allocate":
        return [a for a in _allocations(s) if unit is None]
    if phase == "deploy":
        return [a for a in _deployments(s) if unit is None]
    if phase == "command":
        return [Command()] if unit is None else []
    out: list[Action] = []
    if unit is None:
        if phase == "move" and s.side == s.superior and not s.double_used and not s.moved_any and s.turn >= 2:
            out.append(Double())
        for u in s.units.values():
            if u.side == s.side:
                _unit_actions(s, u, out)
        for ld in s.leaders.values():
            if ld.side == s.side:
                _leader_actions(s, ld, out)
        if may_withdraw(s) is None:
            out.append(Withdraw())
        out.append(EndTurn())
        return out
    if unit in s.units:
        u = s.units[unit]
        if u.side == s.side:
            _unit_actions(s, u, out, only)
    elif unit in s.leaders:
        ld = s.leaders[unit]
        if ld.side == s.side:
            _leader_actions(s, ld, out, only)
    return out


def first_setup_action(s: State) -> Action:
    """In a set-up phase (allocation or deployment): ``legal_actions(s)[0]``, the first
    canonical plan, without working out the others (the auto-resolve's AI takes it)."""
    acts = _allocations(s, only_first=True) if s.phase == "allocate" else _deployments(s, only_first=True)
    return acts[0]


def move_destinations(s: State, u: Unit, leave: bool = True) -> tuple[list[int], bool]:
    """What ``legal_actions(s, u.id, "move")`` offers a unit or fleet, without building the
    actions: the squares it may move to, in the generator's order, and whether it may also
    leave the board (the generator's last move, to ``OFF``): the same ``moves_of`` and
    ``can_leave`` behind the same gates as ``_unit_actions`` and ``_moves`` (a test checks they
    agree on every unit of many positions).  The AI reads it: it asks for many units' moves,
    most of them without wanting to leave the board (``leave`` False: not asked, and False)."""
    if s.phase != "move" or u.side != s.side or u.moved or u.failed:
        return [], False
    if u.status == "reserve":
        return moves_of(s, u), False
    if u.status != "active" or u.square is None or u.attacked or (s.naval and u.kind != "fleet"):
        return [], False
    return moves_of(s, u), leave and can_leave(s, u)


def _moves(s: State, u: Unit, out: list[Action], only: str = "") -> None:
    """A unit's or a fleet's moves: to every square it may reach, and off the board where it
    may leave it (§7.4, 004 Escape) — while it has neither moved nor attacked."""
    if s.phase == "move" and not u.moved and not u.attacked and only != "attack":
        out.extend(Move(u.id, sq) for sq in moves_of(s, u))
        if can_leave(s, u):
            out.append(Move(u.id, OFF))


def _unit_actions(s: State, u: Unit, out: list[Action], only: str = "") -> None:
    if u.status == "reserve":
        if s.phase == "move" and not u.failed and not u.moved:
            out.extend(Move(u.id, sq) for sq in moves_of(s, u))
        return
    if u.status != "active" or u.failed:
        return
    if s.naval:
        if u.kind == "fleet":
            _fleet_actions(s, u, out, only)
        elif u.aboard is not None and only != "move":
            _boarding_actions(s, u, out)
        return
    if u.square is None:
        return
    _moves(s, u, out, only)
    if u.attacked or only == "move":
        return
    spec = s.cfg.tables.units.kinds[u.kind]
    if spec.rolls <= 0:
        return
    grid = s.grid
    units = s.units
    side = u.side
    uid = u.id
    adjacent: list[str] = []
    for n in s.cfg.board.neighbors[u.square]:
        t = grid.get(n)
        if t is not None and units[t].side != side:
            adjacent.append(t)
    for mode in spec.modes:
        if mode == "fire":
            for sq in fire_targets(s, u.square, side):
                out.append(Attack(uid, grid[sq], "fire"))
        elif mode != "ram":
            for t in adjacent:
                out.append(Attack(uid, t, mode))


def _fleet_actions(s: State, f: Unit, out: list[Action], only: str = "") -> None:
    if f.square is None:
        return
    if only != "attack":
        _moves(s, f, out, only)
    if f.attacked or f.captured_now or only == "move":
        return
    board = s.cfg.board
    grid = s.grid
    units = s.units
    side = f.side
    fid = f.id
    # the enemies alongside are rammed; they and those two squares off in a straight line with
    # nothing between may be fired at, in the order ``fire_targets`` lists them (§8.1)
    targets: list[str] = []
    for q in board.neighbors[f.square]:
        t = grid.get(q)
        if t is not None and units[t].side != side:
            targets.append(t)
            out.append(Attack(fid, t, "ram"))
    for q, mid in board.lines2[f.square]:
        t = grid.get(q)
        if t is not None and mid not in grid and units[t].side != side:
            targets.append(t)
    for t in targets:
        if active_ground(s, units[t]) is not None:
            out.append(Attack(fid, t, "fire"))


def _boarding_actions(s: State, g: Unit, out: list[Action]) -> None:
    assert g.aboard is not None
    fleet = s.units[g.aboard]
    if fleet.square is None or fleet.attacked or fleet.captured_now or active_ground(s, fleet) is not g:
        return
    modes = _boarding_modes(s, g.kind)
    if not modes:
        return
    for n in s.cfg.board.neighbors[fleet.square]:
        t = s.grid.get(n)
        if t is not None and s.units[t].side != g.side:
            for m in modes:
                out.append(Attack(g.id, t, m, True))
                out.append(Attack(g.id, t, m, False))


def _boarding_modes(s: State, kind: str) -> tuple[str, ...]:
    """The boarding modes of a ground unit of ``kind`` (phalanx, and those of its own among
    wedge and quincunx; none for a unit that does not fight), once per battle's tables."""
    key = ("boarding", kind)
    found = s.cfg.cache.get(key)
    if found is None:
        spec = s.cfg.tables.units.kinds[kind]
        modes = () if spec.rolls <= 0 else tuple(m for m in BOARDING_MODES if m == "phalanx" or m in spec.modes)
        found = s.cfg.cache[key] = modes
    assert isinstance(found, tuple)
    return found


def leader_unit(s: State, ld: Leader) -> Unit | None:
    """The unit a leader stands with (land) or the fleet he is aboard (§3.3)."""
    if ld.aboard is not None:
        return s.units[ld.aboard]
    if ld.square is None:
        return None
    uid = s.grid.get(ld.square)
    return s.units[uid] if uid is not None and s.units[uid].side == ld.side else None


def _leader_actions(s: State, ld: Leader, out: list[Action], only: str = "") -> None:
    if ld.status != "active":
        return
    u = leader_unit(s, ld)
    if u is not None and ld.plays < ld.rating and s.stratagems.get(ld.side, 0) > 0:
        if rally_target(s, u) is not None:
            out.append(Stratagem(ld.id, "rally"))
        if not u.inspired and not u.attacked:
            out.append(Stratagem(ld.id, "inspire"))
    if s.naval or ld.square is None or s.phase != "move" or ld.moved or only not in ("", "move"):
        return
    board = s.cfg.board
    reach = s.cfg.tables.battle.leader_move.range
    for sq, uid in s.grid.items():
        if sq != ld.square and s.units[uid].side == ld.side and board.distance(sq, ld.square) <= reach:
            out.append(Move(ld.id, sq))


def rally_target(s: State, u: Unit) -> Unit | None:
    if u.flipped:
        return u
    if u.kind == "fleet":
        g = active_ground(s, u)
        if g is not None and g.flipped:
            return g
    return None


def _allocations(s: State, only_first: bool = False) -> list[Action]:
    """Canonical allocations for each side still to allocate (§13.2): round robin in the
    order listed, strongest first, and strongest first from the last fleet.  Any other valid
    plan is accepted too.  ``only_first``: only the first of them."""
    out: list[Action] = []
    fleets_of: dict[str, list[str]] = {"A": [], "B": []}
    ground_of: dict[str, list[Unit]] = {"A": [], "B": []}
    for u in s.units.values():  # one pass: each side's fleets and ground units, in the order listed
        if u.kind == "fleet":
            if u.status == "active" or u.status == "reserve":
                fleets_of[u.side].append(u.id)
        elif u.status == "active":
            ground_of[u.side].append(u)
    for side in ("A", "B"):
        fleets = fleets_of[side]
        if side in s.allocations or not fleets:
            continue
        ground = ground_of[side]
        leaders = [ld.id for ld in s.leaders.values() if ld.side == side and ld.status == "active"]
        listed = [g.id for g in ground]
        strongest = [g.id for g in sorted(ground, key=lambda g: (g.kind == "impeditus", -g.strength))]
        seen: set[tuple[tuple[str, tuple[str, ...]], ...]] = set()
        lplan = tuple((ld, fleets[i % len(fleets)]) for i, ld in enumerate(leaders))
        n = len(fleets)
        # round robin: the order listed, strongest first, and strongest first onto the
        # last-listed fleets (fleet j takes every n-th unit from the j-th, or the (n-1-j)-th)
        for order, first in ((listed, 0), (strongest, 0), (strongest, n - 1)):
            plan = tuple((f, tuple(order[abs(first - j) :: n])) for j, f in enumerate(fleets))
            if plan in seen:
                continue
            seen.add(plan)
            out.append(Allocate(side, plan, lplan))
            if only_first:
                return out
    return out


def _deployments(s: State, only_first: bool = False) -> list[Action]:
    """Canonical set-ups for the side setting up (§4.2): the strongest in the front row centre,
    or the same line with the mounted units on the wings (``only_first``: only the first)."""
    side = s.side
    cfg = s.cfg
    enter_first = cfg.terrain("ship" if s.naval else "foot")[0]
    key = ("deploy squares", side)
    ranked = cfg.cache.get(key)
    if ranked is None:
        ranked = cfg.cache[key] = tuple(cfg.board.deploy_squares(side))
    squares = [sq for sq in ranked if sq not in s.grid and enter_first[sq]]
    mine = [u for u in s.units.values() if u.side == side and u.status == "reserve"]
    kinds = cfg.tables.units.kinds
    out: list[Action] = []
    by_strength = sorted(mine, key=lambda u: (-u.strength, DISC_ORDER[u.discipline]))
    orders = [by_strength]
    if not only_first:
        orders.append(sorted(mine, key=lambda u: (kinds[u.kind].cls != "foot", -u.strength)))  # horse last
    enter_of = {u.kind: cfg.terrain(kinds[u.kind].cls)[0] for u in mine}  # may a unit of its class stand there
    for order in orders:
        placements: list[tuple[str, int]] = []
        free = list(squares)
        for u in order:
            enter = enter_of[u.kind]
            for sq in free:
                if enter[sq]:
                    placements.append((u.id, sq))
                    free.remove(sq)
                    break
        a = Deploy(side, tuple(placements))
        if a not in out:
            out.append(a)
    return out


def _passable(s: State, sq: int, cls: str) -> bool:
    return cls in s.cfg.tables.boards.features[s.cfg.board.feature[sq]].passable


# --------------------------------------------------------------------------
# validation
# --------------------------------------------------------------------------
def check(s: State, a: Action) -> None:
    """Raise RuleError (one sentence) unless ``a`` is legal now."""
    if s.phase == "over":
        raise RuleError("the battle is over")
    if a.verb == "allocate":
        _check_allocation(s, a)
        return
    if a.verb == "deploy":
        _check_deployment(s, a)
        return
    if a in legal_actions(s, a.unit or None):
        return
    raise RuleError(_why_not(s, a))


def _why_not(s: State, a: Action) -> str:
    board = s.cfg.board
    if s.phase in ("allocate", "deploy"):
        return f"the battle is still in its {s.phase} phase"
    if a.verb == "command":
        return "command checks are made at the start of a player turn, and they are done"
    if a.verb == "withdraw":
        return may_withdraw(s) or "the army cannot withdraw now (§10.4)"
    if s.phase == "command" and a.verb not in ("command",):
        return f"side {s.side} must make its command checks first (§5.2)"
    if a.verb == "double":
        if s.side != s.superior:
            return "only the side with tactical superiority has a double move (§5.5)"
        if s.double_used:
            return "the double move has already been used (§5.5)"
        if s.turn < 2:
            return "the double move may be used from the second turn on (§5.5)"
        return "the double move must be declared before any unit moves (§5.5)"
    who = s.units.get(a.unit) if a.unit else None
    ld = s.leaders.get(a.unit) if a.unit else None
    if a.unit and who is None and ld is None:
        return f"there is no unit or leader {a.unit}"
    side = who.side if who is not None else (ld.side if ld is not None else s.side)
    if side != s.side:
        return f"{a.unit} belongs to side {side}, and it is side {s.side}'s turn"
    if ld is not None:
        if ld.status != "active":
            return f"{ld.id} is out of the battle"
        if a.verb == "stratagem":
            if ld.plays >= ld.rating:
                return f"{ld.id} has already played as many stratagems as his rating (§9.2)"
            if s.stratagems.get(ld.side, 0) <= 0:
                return f"side {ld.side} has no stratagem left to play (§9.2)"
            return f"{ld.id} cannot play {a.effect or 'that'} now (§9.2)"
        if s.naval:
            return "leaders never move by themselves at sea (004 Movement)"
        return f"{ld.id} may move only to a friendly unit within 3 squares, once a turn (§7.5)"
    if who is None:  # an action of a saved game that names no unit
        return f"a {a.verb.replace('_', ' ')} must name the unit that makes it"
    if who.status != "active" and who.status != "reserve":
        return f"{who.id} is out of the battle ({who.status})"
    if who.failed:
        return f"{who.id} failed its command check and may not move or attack this turn (§6.1)"
    if a.verb == "move":
        if s.naval and who.kind != "fleet":
            return "ground units and leaders never move by themselves; fleets carry them (004 Movement)"
        if s.phase != "move":
            return "the movement phase ended with the first attack (§5.3)"
        if who.moved:
            return f"{who.id} has already moved this turn"
        if who.attacked:
            return f"{who.id} has attacked and may no longer move (§5.4)"
        if a.to == OFF:
            return may_leave(s, who) or f"{who.id} cannot leave the board now"
        name = board.name(a.to) if a.to is not None and 0 <= a.to < board.columns * board.rows else "?"
        if a.to is not None and a.to in s.grid:
            return f"{name} is occupied"
        return f"{who.id} cannot reach {name} this turn (§7)"
    if a.verb == "attack":
        t = s.units.get(a.target)
        if t is None:
            return f"there is no unit {a.target}"
        if t.side == who.side:
            return f"{t.id} is a friendly unit"
        if s.naval:
            return _why_not_naval(s, who, t, a)
        if who.attacked:
            return f"{who.id} has already attacked this turn"
        modes = s.cfg.tables.units.kinds[who.kind].modes
        if a.mode not in modes:
            return f"{who.id} ({who.kind}) cannot attack in {a.mode or 'no'} mode (§8.1)"
        if a.mode == "fire":
            return f"{t.id} is out of range: fire reaches an adjacent square or two in a straight line, nothing between"
        return f"{t.id} is not adjacent to {who.id} (§8.1)"
    if a.verb == "stratagem":
        return "only leaders play stratagems (§9.2)"
    return "that is not a legal action now"


def _why_not_naval(s: State, who: Unit, t: Unit, a: Action) -> str:
    if a.mode == "fire" and who.kind != "fleet":
        return "ground units never use missile fire (004 Combat: Missile Fire)"
    if a.mode == "ram" and who.kind != "fleet":
        return "only a fleet can ram (004 Combat: Ramming)"
    if t.kind != "fleet":
        return "at sea every attack targets an enemy fleet (004 Combat)"
    fleet = who if who.kind == "fleet" else (s.units[who.aboard] if who.aboard else None)
    if fleet is None or fleet.square is None:
        return f"{who.id} is not aboard a fleet on the board"
    if fleet.attacked:
        return f"{fleet.id} or its passenger has already attacked this turn (004 Combat)"
    if fleet.captured_now:
        return f"{fleet.id} was captured this turn and may not attack (004 Combat: Boarding)"
    board = s.cfg.board
    adjacent = t.square is not None and t.square in board.neighbors[fleet.square]
    if who.kind != "fleet":
        if active_ground(s, fleet) is not who:
            return f"{who.id} is not the active ground unit of {fleet.id} (004 Passengers)"
        if a.mode not in BOARDING_MODES or (
            a.mode != "phalanx" and a.mode not in s.cfg.tables.units.kinds[who.kind].modes
        ):
            return f"{who.id} cannot board in {a.mode} mode (004 Combat: Boarding)"
        if not adjacent:
            return f"{t.id} is not adjacent: boarding needs an adjacent enemy fleet (004 Combat: Boarding)"
    if a.mode == "ram" and not adjacent:
        return f"{t.id} is not adjacent: ramming needs an adjacent fleet (004 Combat: Ramming)"
    if a.mode == "fire":
        if t.square is None or t.square not in fire_targets(s, fleet.square, fleet.side):
            return (
                f"{t.id} is out of missile range: adjacent, or two squares in a straight line with "
                "nothing between (004 Combat: Missile Fire)"
            )
        if active_ground(s, t) is None:
            return f"{t.id} carries no active ground unit, and missile fire never hits ships (004 Combat: Missile Fire)"
    if a.mode not in ("ram", "fire") and who.kind == "fleet":
        return "a fleet attacks by ramming or missile fire; its active ground unit boards (004 Combat)"
    return "that attack is not legal now"


def _check_allocation(s: State, a: Action) -> None:
    """Secret simultaneous allocation within capacity (004 Setup, §13.2)."""
    if s.phase != "allocate":
        raise RuleError("units are allocated to fleets only before a naval battle (004 Setup)")
    side = a.side
    if side not in ("A", "B"):
        raise RuleError("an allocation must name side A or B")
    if side in s.allocations:
        raise RuleError(f"side {side} has already allocated its units (004 Setup)")
    fleets = {
        u.id for u in s.units.values() if u.kind == "fleet" and u.side == side and u.status in ("active", "reserve")
    }
    ground = {u.id for u in s.units.values() if u.kind != "fleet" and u.side == side and u.status == "active"}
    leaders = {ld.id for ld in s.leaders.values() if ld.side == side and ld.status == "active"}
    cap = s.cfg.tables.units.fleet_capacity
    seen: set[str] = set()
    loads: dict[str, int] = dict.fromkeys(fleets, 0)
    for fid, gids in a.plan:
        if fid not in fleets:
            raise RuleError(f"{fid} is not a fleet of side {side}")
        for g in gids:
            if g not in ground:
                raise RuleError(f"{g} is not a ground unit of side {side}")
            if g in seen:
                raise RuleError(f"{g} is allocated twice")
            seen.add(g)
        if loads[fid]:
            raise RuleError(f"{fid} is named twice in the allocation")
        loads[fid] = len(gids)
        if len(gids) > cap:
            raise RuleError(f"{fid} can carry at most {cap} ground units (004 Setup)")
        if gids and s.units[gids[0]].kind == "impeditus" and any(s.units[g].kind != "impeditus" for g in gids):
            raise RuleError(f"an impeditus cannot be the active ground unit of {fid} (004 Passengers)")
    missing = sorted(ground - seen)
    if missing:
        raise RuleError(f"{missing[0]} must be allocated to a fleet (004 Setup)")
    if loads and max(loads.values()) > min(loads.values()) + 1:
        raise RuleError("each fleet must carry one ground unit before any carries two (004 Setup)")
    lseen: set[str] = set()
    for lid, fid in a.leader_plan:
        if lid not in leaders:
            raise RuleError(f"{lid} is not a leader of side {side}")
        if fid not in fleets:
            raise RuleError(f"{fid} is not a fleet of side {side}")
        if lid in lseen:
            raise RuleError(f"{lid} is allocated twice")
        lseen.add(lid)
    if leaders - lseen:
        raise RuleError(f"{sorted(leaders - lseen)[0]} must be allocated to a fleet (004 Setup)")


def _check_deployment(s: State, a: Action) -> None:
    """Set-up in one's deployment rows, the inferior side first (§4.2)."""
    if s.phase != "deploy":
        raise RuleError("set-up is over")
    if a.side != s.side:
        raise RuleError(f"side {s.side} sets up now (the side with tactical superiority sets up last, §4.2)")
    allowed = set(s.cfg.board.deploy_squares(a.side))
    mine = {u.id for u in s.units.values() if u.side == a.side and u.status == "reserve"}
    used: set[int] = set()
    kinds = s.cfg.tables.units.kinds
    for uid, sq in a.placements:
        if uid not in mine:
            raise RuleError(f"{uid} is not a unit of side {a.side} waiting to be set up")
        if sq not in allowed:
            raise RuleError(f"{s.cfg.board.name(sq)} is not in side {a.side}'s deployment rows (§4.2)")
        if sq in used or sq in s.grid:
            raise RuleError(f"{s.cfg.board.name(sq)} is already taken")
        if not _passable(s, sq, kinds[s.units[uid].kind].cls):
            raise RuleError(f"{uid} cannot stand on {s.cfg.board.name(sq)} (§2.3)")
        used.add(sq)
    placed = {uid for uid, _ in a.placements}
    if len(placed) != len(a.placements):
        raise RuleError("a unit is placed twice")
    if s.naval and placed != {uid for uid in mine if s.units[uid].kind == "fleet"}:
        raise RuleError("every fleet must be set up (004 Setup)")
