"""The battleboard rules: ONE legal-action generator and ``apply``.

``legal_actions(state)`` is what the window highlights, the AI searches and the
validator checks.  ``apply(state, action, dice)`` returns a new state and the
events; an illegal action raises ``RuleError`` and leaves the state untouched.
``play`` is the same rules applied in place without validation, for the AI's
auto-resolve (its actions come from the generator).

All chance goes through ``bellum.dice.Dice``; combat-table results may be forced
(rules cases) through ``Chance``.  Sections cited are docs/rules/battleboard.md;
``004 …`` is the naval house rules.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import NamedTuple

from battleboard.model import OFF, Action, Leader, State, Unit, other
from battleboard.tables import Combat
from bellum.dice import Dice
from bellum.errors import DiceError, RuleError
from bellum.events import Event

BOARDING_MODES = ("phalanx", "wedge", "quincunx")  # 004 Combat: Boarding
DISC_ORDER = {"I": 0, "V": 1, "R": 2, "B": 3, "M": 4}


class MissingResultError(DiceError):
    """A combat-table result was needed but none was forced."""

    def __init__(self, label: str, row: tuple[str, ...] = (), low: int = 0, mod: int = 0) -> None:
        self.label = label
        self.row = row
        self.low = low
        self.mod = mod
        super().__init__(f"a combat result was needed ({label}) but no forced result was given")


class Chance:
    """Dice plus, for rules cases and odds, forced combat-table results (FORMAT.md)."""

    __slots__ = ("actions", "dice", "drawn", "results", "used")

    def __init__(self, dice: Dice, results: Iterable[str] | None = None, *, record: list[Action] | None = None) -> None:
        self.dice = dice
        #: every action played with this chance, when asked for (a headless battle's save)
        self.actions = record
        self.results: deque[str] | None = None if results is None else deque(results)
        self.used = 0
        self.drawn: list[str] = []  # every combat result so far, for the log

    def combat(self, row: tuple[str, ...], low: int, mod: int, label: str) -> str:
        """One attack roll on a combat-table row (§8.2)."""
        self.used += 1
        if self.results is not None:
            if not self.results:
                raise MissingResultError(label, row, low, mod)
            r = self.results.popleft()
        else:
            i = self.dice.d10(label) + mod - low
            if i < 0:
                i = 0
            elif i >= len(row):
                i = len(row) - 1
            r = row[i]
        self.drawn.append(r)
        return r


# --------------------------------------------------------------------------
# queries
# --------------------------------------------------------------------------
def on_board(u: Unit) -> bool:
    return u.status == "active" and u.square is not None


def active_ground(s: State, fleet: Unit) -> Unit | None:
    """The fleet's active ground unit: the first passenger that is not an impeditus (004 Passengers)."""
    for pid in fleet.cargo:
        p = s.units[pid]
        if p.kind != "impeditus":
            return p
    return None


def unit_square(s: State, u: Unit) -> int | None:
    """Where a unit is: its own square, or its fleet's square for passengers."""
    if u.square is not None:
        return u.square
    if u.aboard is not None and u.status == "active":
        return s.units[u.aboard].square
    return None


def leader_square(s: State, ld: Leader) -> int | None:
    if ld.aboard is not None:
        return s.units[ld.aboard].square
    return ld.square


def leaders_with(s: State, u: Unit) -> list[Leader]:
    """Leaders standing with a land unit or aboard a fleet (§3.3)."""
    if s.naval:
        return [ld for ld in s.leaders.values() if ld.status == "active" and ld.aboard == u.id]
    return [
        ld
        for ld in s.leaders.values()
        if ld.status == "active" and ld.square is not None and ld.square == u.square and ld.side == u.side
    ]


def fights(s: State, u: Unit) -> bool:
    return s.cfg.tables.units.kinds[u.kind].rolls > 0


def present(s: State, side: str) -> bool:
    """Has ``side`` anything left to fight with on the board (§11.1)?"""
    for u in s.units.values():
        if u.side != side or u.status not in ("active", "reserve"):
            continue
        if s.naval:
            if u.kind == "fleet" and u.square is not None:
                return True
        elif u.kind != "impeditus" and (u.square is not None or u.status == "reserve"):
            return True
    return False


def fleets_held(s: State, side: str) -> int:
    """Fleets a naval force holds now, captured ones included (004 Panic)."""
    units = s.units  # every unit on the grid is on the board; at sea they are all fleets
    return sum(1 for uid in s.grid.values() if units[uid].side == side and units[uid].kind == "fleet")


def victory_lost(u: Unit) -> bool:
    """Does this unit count as lost by its owner for victory (§11.2, 004 Victory, 004 Escape)?"""
    if u.status in ("eliminated", "sunk", "drowned", "captured", "broken_through"):
        return True
    if u.status == "escaped":
        return not u.returns
    return u.side != u.owner  # a ship held by the enemy


def really_lost(u: Unit) -> bool:
    """Lost for the campaign: like ``victory_lost`` but broken-through ships sail on (a ship
    of one's own that the enemy captured is lost wherever it sails)."""
    if u.side != u.owner:
        return True
    return u.status != "broken_through" and victory_lost(u)


def sp_lost(s: State, side: str, *, for_victory: bool = True) -> int:
    test = victory_lost if for_victory else really_lost
    return sum(u.strength for u in s.units.values() if u.owner == side and test(u))


def scores(s: State) -> dict[str, int]:
    """SP each side has eliminated or captured (§11.2)."""
    return {"A": sp_lost(s, "B"), "B": sp_lost(s, "A")}


def land_lost(s: State, side: str) -> int:
    """SP a land force has lost for panic: eliminated, captured or fled (§10.1)."""
    return sum(
        u.strength
        for u in s.units.values()
        if u.owner == side and (u.status in ("eliminated", "captured", "escaped", "drowned", "sunk"))
    )


def moves_of(s: State, u: Unit) -> list[int]:
    """Squares a unit may end its move on this player turn (§7, 004 Movement)."""
    cfg = s.cfg
    kinds = cfg.tables.units.kinds
    spec = kinds[u.kind]
    board = cfg.board
    feats = cfg.tables.boards.features
    side = u.side
    if u.status == "reserve":
        home = board.home_row(side)
        return [
            home * board.columns + c
            for c in range(board.columns)
            if home * board.columns + c not in s.grid
            and spec.cls in feats[board.feature[home * board.columns + c]].passable
        ]
    if u.square is None:
        return []
    ma = spec.movement
    if u.captured:
        ma = cfg.tables.units.captured_fleet_movement
    elif s.double_now:
        ma *= 2
    if ma <= 0:
        return []
    grid = s.grid
    units = s.units
    enemy_adj = s.adj_cache.get(side)
    if enemy_adj is None:
        enemy_adj = set()
        for sq, uid in grid.items():
            if units[uid].side != side:
                enemy_adj.update(board.neighbors[sq])
        s.adj_cache[side] = enemy_adj
    start = u.square
    seen = {start}
    frontier = [start]
    out: list[int] = []
    nbs = board.neighbors
    enter, stop = cfg.terrain(spec.cls)
    for _ in range(ma):
        nxt: list[int] = []
        for sq in frontier:
            for n in nbs[sq]:
                if n in seen or not enter[n]:
                    continue
                occ = grid.get(n)
                if occ is not None and units[occ].side != side:
                    continue
                seen.add(n)
                if occ is None:
                    out.append(n)
                if stop[n] or n in enemy_adj:
                    continue  # §2.3 terrain, §7.2 contact
                nxt.append(n)
        frontier = nxt
    return out


def may_leave(s: State, u: Unit) -> str | None:
    """Why ``u`` may not move off the board now, or None if it may (§7.4, 004 Escape)."""
    board = s.cfg.board
    if u.square is None:
        return f"{u.id} is not on the board"
    row = board.row(u.square)
    if row == board.home_row(u.side):
        if u.side not in s.panicked:
            return f"{u.id} may not leave by its own edge before its force has panicked (004 Escape, §7.4)"
        if s.cfg.kind == "land" and u.moved:
            return f"{u.id} has already moved this turn"
        return None
    if row == board.home_row(other(u.side)):
        if s.naval and s.cfg.trigger == "interception" and u.side == s.active_side and u.kind == "fleet":
            if u.moved:
                return f"breaking through off the enemy edge takes {u.id}'s whole move (004 Escape)"
            return None
        return f"{u.id} may not leave by the enemy's edge (004 Escape, §7.4)"
    return f"{u.id} is not on a home-edge row and cannot leave the board"


def may_withdraw(s: State) -> str | None:
    """Why the side to play may not withdraw from the field now, or None if it may (§10.4)."""
    if s.naval:
        return "a fleet leaves a naval battle ship by ship, by its own edge (004 Escape)"
    if s.phase != "move":
        return "an army withdraws in its movement phase (§10.4)"
    if s.side not in s.panicked:
        return f"side {s.side} may not withdraw before its force has panicked (§10.4)"
    if s.moved_any:
        return "the withdrawal must be ordered before any unit moves (§10.4)"
    return None


def fire_targets(s: State, sq: int, side: str) -> list[int]:
    """Squares a Fire attack from ``sq`` reaches: adjacent, or two in a straight line with
    nothing between (§8.1, 004 Combat: Missile Fire)."""
    board = s.cfg.board
    grid = s.grid
    out = [n for n in board.neighbors[sq] if n in grid and s.units[grid[n]].side != side]
    for far, mid in board.lines2[sq]:
        if far in grid and mid not in grid and s.units[grid[far]].side != side:
            out.append(far)
    return out


def can_act(s: State, u: Unit) -> bool:
    return u.side == s.side and u.status == "active" and not u.failed


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
        return [Action("command")] if unit is None else []
    out: list[Action] = []
    if unit is None:
        if phase == "move" and s.side == s.superior and not s.double_used and not s.moved_any and s.turn >= 2:
            out.append(Action("double"))
        for u in s.units.values():
            if u.side == s.side:
                _unit_actions(s, u, out)
        for ld in s.leaders.values():
            if ld.side == s.side:
                _leader_actions(s, ld, out)
        if may_withdraw(s) is None:
            out.append(Action("withdraw"))
        out.append(Action("end_turn"))
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


def _unit_actions(s: State, u: Unit, out: list[Action], only: str = "") -> None:
    if u.status == "reserve":
        if s.phase == "move" and not u.failed and not u.moved:
            out.extend(Action("move", u.id, sq) for sq in moves_of(s, u))
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
    if s.phase == "move" and not u.moved and not u.attacked and only != "attack":
        out.extend(Action("move", u.id, sq) for sq in moves_of(s, u))
        if may_leave(s, u) is None:
            out.append(Action("move", u.id, to=OFF))
    if u.attacked or only == "move":
        return
    spec = s.cfg.tables.units.kinds[u.kind]
    if spec.rolls <= 0:
        return
    board = s.cfg.board
    adjacent = [s.grid[n] for n in board.neighbors[u.square] if n in s.grid and s.units[s.grid[n]].side != u.side]
    for mode in spec.modes:
        if mode == "fire":
            for sq in fire_targets(s, u.square, u.side):
                out.append(Action("attack", u.id, None, s.grid[sq], "fire"))
        elif mode != "ram":
            for t in adjacent:
                out.append(Action("attack", u.id, None, t, mode))


def _fleet_actions(s: State, f: Unit, out: list[Action], only: str = "") -> None:
    if f.square is None:
        return
    if s.phase == "move" and not f.moved and not f.attacked and only != "attack":
        out.extend(Action("move", f.id, sq) for sq in moves_of(s, f))
        if may_leave(s, f) is None:
            out.append(Action("move", f.id, to=OFF))
    if f.attacked or f.captured_now or only == "move":
        return
    board = s.cfg.board
    for n in board.neighbors[f.square]:
        t = s.grid.get(n)
        if t is not None and s.units[t].side != f.side:
            out.append(Action("attack", f.id, None, t, "ram"))
    for sq in fire_targets(s, f.square, f.side):
        t = s.grid[sq]
        if active_ground(s, s.units[t]) is not None:
            out.append(Action("attack", f.id, None, t, "fire"))


def _boarding_actions(s: State, g: Unit, out: list[Action]) -> None:
    assert g.aboard is not None
    fleet = s.units[g.aboard]
    if fleet.square is None or fleet.attacked or fleet.captured_now or active_ground(s, fleet) is not g:
        return
    spec = s.cfg.tables.units.kinds[g.kind]
    if spec.rolls <= 0:
        return
    modes = [m for m in BOARDING_MODES if m == "phalanx" or m in spec.modes]
    for n in s.cfg.board.neighbors[fleet.square]:
        t = s.grid.get(n)
        if t is not None and s.units[t].side != g.side:
            for m in modes:
                out.append(Action("attack", g.id, None, t, m, True))
                out.append(Action("attack", g.id, None, t, m, False))


def _leader_unit(s: State, ld: Leader) -> Unit | None:
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
    u = _leader_unit(s, ld)
    if u is not None and ld.plays < ld.rating and s.stratagems.get(ld.side, 0) > 0:
        if _rally_target(s, u) is not None:
            out.append(Action("stratagem", ld.id, effect="rally"))
        if not u.inspired and not u.attacked:
            out.append(Action("stratagem", ld.id, effect="inspire"))
    if s.naval or ld.square is None or s.phase != "move" or ld.moved or only not in ("", "move"):
        return
    board = s.cfg.board
    reach = s.cfg.tables.battle.leader_move.range
    for sq, uid in s.grid.items():
        if sq != ld.square and s.units[uid].side == ld.side and board.distance(sq, ld.square) <= reach:
            out.append(Action("move", ld.id, to=sq))


def _rally_target(s: State, u: Unit) -> Unit | None:
    if u.flipped:
        return u
    if u.kind == "fleet":
        g = active_ground(s, u)
        if g is not None and g.flipped:
            return g
    return None


def _allocations(s: State) -> list[Action]:
    """Canonical allocations for each side still to allocate (§13.2): round robin in the
    order listed, strongest first, and strongest first from the last fleet.  Any other valid
    plan is accepted too."""
    out: list[Action] = []
    for side in ("A", "B"):
        if side in s.allocations:
            continue
        fleets = [
            u.id for u in s.units.values() if u.kind == "fleet" and u.side == side and u.status in ("active", "reserve")
        ]
        ground = [u for u in s.units.values() if u.side == side and u.kind != "fleet" and u.status == "active"]
        leaders = [ld.id for ld in s.leaders.values() if ld.side == side and ld.status == "active"]
        if not fleets:
            continue
        strongest = sorted(ground, key=lambda g: (g.kind == "impeditus", -g.strength))
        # the order listed, strongest first, and strongest first onto the last-listed fleets
        orders = [(ground, fleets), (strongest, fleets), (strongest, fleets[::-1])]
        seen: set[tuple[tuple[str, tuple[str, ...]], ...]] = set()
        for order, ships in orders:
            loads: dict[str, list[str]] = {f: [] for f in fleets}
            for i, g in enumerate(order):
                loads[ships[i % len(ships)]].append(g.id)
            plan = tuple((f, tuple(v)) for f, v in loads.items())
            if plan in seen:
                continue
            seen.add(plan)
            lplan = tuple((ld, fleets[i % len(fleets)]) for i, ld in enumerate(leaders))
            out.append(Action("allocate", side=side, plan=plan, leader_plan=lplan))
    return out


def _deployments(s: State) -> list[Action]:
    """Canonical set-ups for the side setting up (§4.2): the strongest in the front row centre,
    or the same line with the mounted units on the wings."""
    side = s.side
    squares = [
        sq
        for sq in s.cfg.board.deploy_squares(side)
        if sq not in s.grid and _passable(s, sq, "ship" if s.naval else "foot")
    ]
    mine = [u for u in s.units.values() if u.side == side and u.status == "reserve"]
    kinds = s.cfg.tables.units.kinds
    out: list[Action] = []
    by_strength = sorted(mine, key=lambda u: (-u.strength, DISC_ORDER[u.discipline]))
    horse_last = sorted(mine, key=lambda u: (kinds[u.kind].cls != "foot", -u.strength))
    for order in (by_strength, horse_last):
        placements: list[tuple[str, int]] = []
        free = list(squares)
        for u in order:
            cls = kinds[u.kind].cls
            for sq in free:
                if _passable(s, sq, cls):
                    placements.append((u.id, sq))
                    free.remove(sq)
                    break
        a = Action("deploy", side=side, placements=tuple(placements))
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


# --------------------------------------------------------------------------
# applying actions
# --------------------------------------------------------------------------
def apply(s: State, a: Action, dice: Dice, results: Iterable[str] | None = None) -> tuple[State, list[Event], Chance]:
    """Validate and apply ``a`` to a copy of ``s``: (new state, events, the chance used)."""
    check(s, a)
    new = s.clone()
    chance = Chance(dice, results)
    events: list[Event] = []
    play(new, a, chance, events)
    return new, events, chance


def play(s: State, a: Action, chance: Chance, ev: list[Event] | None = None) -> None:
    """Apply a legal action in place (no validation)."""
    verb = a.verb
    if chance.actions is not None:
        chance.actions.append(a)
    if verb == "move" and a.unit in s.units:
        # a move changes only what the mover's enemies are next to (§7.2 contact)
        s.adj_cache.pop("B" if s.units[a.unit].side == "A" else "A", None)
        if a.to == OFF:
            s.adj_cache.clear()
    elif verb not in ("double", "stratagem", "end_turn"):
        s.adj_cache.clear()
    if verb == "attack":
        _attack(s, a, chance, ev)
    elif verb == "move":
        _move(s, a, chance, ev)
    elif verb == "command":
        _command(s, chance, ev)
    elif verb == "end_turn":
        _end_turn(s, chance, ev)
    elif verb == "withdraw":
        _withdraw(s, chance, ev)
    elif verb == "double":
        s.double_used = True
        s.double_now = True
        _log(ev, "double", f"side {s.side} makes its double move (§5.5)", side=s.side)
    elif verb == "stratagem":
        _stratagem(s, a, ev)
    elif verb == "allocate":
        _allocate(s, a, ev)
    elif verb == "deploy":
        _deploy(s, a, ev)
    else:  # pragma: no cover - the generator never makes another verb
        raise RuleError(f"unknown action {verb}")
    if verb in ("attack", "command", "allocate", "deploy", "withdraw"):
        s.adj_cache.clear()  # losses, routs, captures and set-up change who stands where
    if s.phase != "over" and (verb != "move" or a.to == OFF) and verb not in ("double", "stratagem"):
        _check_panic(s, chance, ev)  # only losses can cause panic or end the battle
        _check_end(s, ev)


def _log(ev: list[Event] | None, kind: str, text: str, **data: object) -> None:
    if ev is not None:
        ev.append(Event(kind, text, dict(data)))


def _move(s: State, a: Action, chance: Chance, ev: list[Event] | None) -> None:
    board = s.cfg.board
    if a.unit in s.leaders:
        ld = s.leaders[a.unit]
        ld.square = a.to
        ld.moved = True
        _log(ev, "move", f"{ld.id} rides to {board.name(a.to or 0)} (§7.5)", leader=ld.id)
        return
    u = s.units[a.unit]
    s.moved_any = True
    u.moved = True
    frm = u.square
    if a.to == OFF:
        assert frm is not None
        if board.row(frm) == board.home_row(u.side):
            _flee(s, u, chance, ev, "leaves by its own edge")
        else:
            _remove(s, u)
            u.status = "broken_through"
            for pid in u.cargo:
                s.units[pid].status = "broken_through"
            for ld in s.leaders.values():
                if ld.aboard == u.id and ld.status == "active":
                    ld.status = "escaped"
            _log(ev, "break_through", f"{u.id} breaks through off the enemy edge (004 Escape)", unit=u.id)
        return
    assert a.to is not None
    if frm is not None:
        del s.grid[frm]
        if not s.naval:
            for ld in s.leaders.values():
                if ld.square == frm and ld.status == "active" and ld.side == u.side:
                    ld.square = a.to
    else:
        u.status = "active"
    u.square = a.to
    s.grid[a.to] = u.id
    _log(ev, "move", f"{u.id} moves to {board.name(a.to)}", unit=u.id, to=board.name(a.to))


def _remove(s: State, u: Unit) -> None:
    if u.square is not None:
        s.grid.pop(u.square, None)
        u.square = None


def _flee(s: State, u: Unit, chance: Chance, ev: list[Event] | None, why: str, mod: int = 0) -> None:
    """Rout or leaving by one's own edge: the flight roll decides whether the unit returns
    or is dispersed (§10.3); pursuit modifies it (§10.4, §10.5)."""
    sq = u.square
    _remove(s, u)
    roll = chance.dice.d10(f"flight {u.id}")
    u.status = "escaped"
    u.returns = roll + mod >= s.cfg.tables.battle.flight[u.discipline]  # type: ignore[index]
    for pid in u.cargo:
        p = s.units[pid]
        p.status = "escaped"
        p.returns = u.returns
    for ld in s.leaders.values():
        if ld.status == "active" and (ld.aboard == u.id or (ld.aboard is None and ld.square == sq and sq is not None)):
            ld.status = "escaped"
            ld.square = None
    fate = "will return" if u.returns else "is dispersed"
    by = f"{roll}{mod:+d}" if mod else f"{roll}"
    _log(ev, "flight", f"{u.id} {why} and flees: it {fate} (flight roll {by}, §10.3)", unit=u.id, roll=roll, mod=mod)


def _in_contact(s: State, u: Unit) -> bool:
    board = s.cfg.board
    if u.square is None:
        return False
    return any(n in s.grid and s.units[s.grid[n]].side != u.side for n in board.neighbors[u.square])


def _leave_field(s: State, side: str, chance: Chance, ev: list[Event] | None, *, broken: bool) -> None:
    """A whole land force leaves the field: withdrawing (§10.4) or broken and pursued (§10.5).

    Units in reserve march off in good order.  In a withdrawal, units out of contact do
    too, and units next to the enemy break contact with a flight roll; when the force
    breaks every unit on the board flees, pursued."""
    pt = s.cfg.tables.battle.pursuit
    mod = pt.disengage
    if broken:
        mod = pt.broken
        kinds = s.cfg.tables.units.kinds
        if any(
            e.side != side and on_board(e) and not e.flipped and kinds[e.kind].cls == "horse" for e in s.units.values()
        ):
            mod += pt.horse
    for u in list(s.units.values()):
        if u.side != side or u.status not in ("active", "reserve"):
            continue
        if u.status == "active" and u.square is not None and (broken or _in_contact(s, u)):
            _flee(s, u, chance, ev, "routs, pursued," if broken else "breaks contact", mod)
            continue
        sq = u.square
        _remove(s, u)
        u.status = "escaped"
        u.returns = True
        for ld in s.leaders.values():
            if ld.status == "active" and ld.side == side and sq is not None and ld.square == sq:
                ld.status = "escaped"
                ld.square = None
        _log(ev, "flight", f"{u.id} leaves the field in good order (§10.4)", unit=u.id)
    for ld in s.leaders.values():
        if ld.status == "active" and ld.side == side:
            ld.status = "escaped"
            ld.square = None


def _withdraw(s: State, chance: Chance, ev: list[Event] | None) -> None:
    """§10.4: a panicked land force withdraws from the field."""
    _log(ev, "withdraw", f"side {s.side} withdraws from the field (§10.4)", side=s.side)
    _leave_field(s, s.side, chance, ev, broken=False)


def _command(s: State, chance: Chance, ev: list[Event] | None) -> None:
    """Every unit of the phasing side checks command (§6, 004 Passengers)."""
    t = s.cfg.tables.command
    table = t.table
    panicked = s.side in s.panicked
    naval = s.naval
    for u in list(s.units.values()):
        if u.side != s.side or u.status != "active":
            continue
        if u.square is None:
            if not naval or u.aboard is None:
                continue
            fleet = s.units[u.aboard]
            if fleet.square is None or fleet.side != u.side:
                continue
        disc = u.discipline
        for ld in s.leaders.values():  # §6.2 lending discipline
            if (
                ld.status == "active"
                and ld.side == u.side
                and ((naval and ld.aboard == u.id) or (not naval and ld.square is not None and ld.square == u.square))
                and DISC_ORDER[ld.discipline] < DISC_ORDER[disc]
            ):
                disc = ld.discipline
        roll = chance.dice.d10(f"command {u.id}")
        mod = (t.flipped if u.flipped else 0) + (t.panicked if panicked else 0)
        i = min(max(roll + mod - t.low, 0), t.high - t.low)
        res = table[disc][i]  # type: ignore[index]
        was_flipped = u.flipped
        if res == "-":
            u.failed = False
            if was_flipped and not panicked and roll == t.rally_on:
                u.flipped = False
                _log(ev, "rally", f"{u.id} rallies (command roll {roll}, §6.1)", unit=u.id)
        elif res == "F" or was_flipped:
            u.failed = True
            _log(ev, "command", f"{u.id} fails its command check (roll {roll}, §6.1)", unit=u.id, roll=roll)
        else:
            u.flipped = True
            _log(ev, "command", f"{u.id} is disrupted by confusion (roll {roll}, §6.1)", unit=u.id, roll=roll)
        if panicked and was_flipped and res != "-" and u.square is not None:
            _flee(s, u, chance, ev, "routs")  # §6.3; at sea only fleets rout (004 Passengers)
    s.phase = "move"


def _stratagem(s: State, a: Action, ev: list[Event] | None) -> None:
    """§9.2 stratagem plays in battle."""
    ld = s.leaders[a.unit]
    u = _leader_unit(s, ld)
    assert u is not None
    ld.plays += 1
    s.stratagems[ld.side] -= 1
    if a.effect == "rally":
        t = _rally_target(s, u)
        assert t is not None
        t.flipped = False
        _log(ev, "stratagem", f"{ld.id} plays a stratagem: {t.id} rallies (§9.2)", leader=ld.id, unit=t.id)
    else:
        u.inspired = True
        _log(ev, "stratagem", f"{ld.id} plays a stratagem: {u.id} is inspired (§9.2)", leader=ld.id, unit=u.id)


def _allocate(s: State, a: Action, ev: list[Event] | None) -> None:
    """Held secret until both sides have allocated (004 Setup)."""
    s.allocations[a.side] = a
    _log(ev, "allocate", f"side {a.side} has allocated its units to its fleets (in secret)", side=a.side)
    need = {side for side in ("A", "B") if any(u.kind == "fleet" and u.side == side for u in s.units.values())}
    if not need <= set(s.allocations):
        return
    for alloc in s.allocations.values():
        for fid, gids in alloc.plan:
            fleet = s.units[fid]
            fleet.cargo = list(gids)
            for g in gids:
                s.units[g].aboard = fid
        for lid, fid in alloc.leader_plan:
            s.leaders[lid].aboard = fid
            s.leaders[lid].square = None
    _log(ev, "allocate", "both sides reveal their allocations (004 Setup)")
    s.allocations = {}
    _after_setup_step(s)


def _after_setup_step(s: State) -> None:
    waiting = [u for u in s.units.values() if u.status == "reserve" and (u.kind == "fleet" or not s.naval)]
    if waiting and len(s.deployed) < 2:
        s.phase = "deploy"
        s.side = other(s.superior) if other(s.superior) not in s.deployed else s.superior
    else:
        s.phase = "command"
        s.side = s.superior
        s.turn = max(s.turn, 1)


def _deploy(s: State, a: Action, ev: list[Event] | None) -> None:
    for uid, sq in a.placements:
        u = s.units[uid]
        u.square = sq
        u.status = "active"
        s.grid[sq] = uid
        if not s.naval:
            for ld in s.leaders.values():
                if ld.side == u.side and ld.status == "active" and ld.square is None and ld.aboard is None:
                    ld.square = sq  # leaders stand with the first units set up (§3.3)
                    break
    s.deployed.append(a.side)
    _log(ev, "deploy", f"side {a.side} sets up {len(a.placements)} units (§4.2)", side=a.side)
    _after_setup_step(s)


def _end_turn(s: State, chance: Chance, ev: list[Event] | None) -> None:
    """§5.6: reset the player turn; the other side's command phase; the turn limit (§5.1)."""
    for u in s.units.values():
        if u.side == s.side or u.owner == s.side:
            u.moved = u.attacked = u.failed = u.inspired = u.captured_now = False
    for ld in s.leaders.values():
        ld.moved = False
    s.double_now = False
    s.moved_any = False
    _check_panic(s, chance, ev)
    _check_end(s, ev)
    if s.phase == "over":
        return
    second = other(s.superior)
    if s.side == second and s.turn >= s.cfg.max_turns:
        _finish(s, ev, f"the last turn ({s.cfg.max_turns}) is over")
        return
    s.side = other(s.side)
    if s.side == s.superior:
        s.turn += 1
    s.phase = "command"
    _log(ev, "turn", f"turn {s.turn}: side {s.side} to play", side=s.side, turn=s.turn)


# --------------------------------------------------------------------------
# combat
# --------------------------------------------------------------------------
class Fighter:
    """The part of a unit the combat series works on (§8.3)."""

    __slots__ = ("dead", "flipped", "l_as_b", "mod", "uid")

    def __init__(self, uid: str, flipped: bool, mod: int, l_as_b: bool) -> None:
        self.uid = uid
        self.flipped = flipped
        self.mod = mod
        self.l_as_b = l_as_b
        self.dead = False

    def hit(self, result: str) -> None:
        """Apply B or L (§8.4)."""
        if (result == "L" and not self.l_as_b) or self.flipped:
            self.dead = True
        else:
            self.flipped = True

    def key(self) -> tuple[int, bool, bool]:
        return (self.mod, self.flipped, self.l_as_b)


class Setup(NamedTuple):
    """What the dice of one attack work on: the mode, the number of rolls, the attacker and
    each defender as (modifier, flipped, L-counts-as-B), and the defensive fire modifier."""

    mode: str
    rolls: int
    att: tuple[int, bool, bool]
    defs: tuple[tuple[int, bool, bool], ...]
    firer_mod: int | None


def run_series(
    att: Fighter,
    defenders: list[Fighter],
    rolls: int,
    row: tuple[str, ...],
    low: int,
    att_flip_mod: int,
    def_flip_mod: int,
    chance: Chance,
    label: str,
) -> int:
    """Roll up to ``rolls`` attacks on ``row`` against the defenders in turn (§8.3,
    004 Combat: Boarding): stop on A, on running out of rolls, or when every defender is
    gone.  Returns the number of rolls made."""
    i = 0
    used = 0
    n = len(defenders)
    while used < rolls and i < n:
        d = defenders[i]
        mod = att.mod + d.mod + (att_flip_mod if att.flipped else 0) + (def_flip_mod if d.flipped else 0)
        r = chance.combat(row, low, mod, label)
        used += 1
        if r == "A":
            if att.flipped:
                att.dead = True
            else:
                att.flipped = True
            break
        if r == "B" or r == "L":
            d.hit(r)
            if d.dead:
                i += 1
    return used


def defensive_fire(att: Fighter, firer_mod: int, row: tuple[str, ...], low: int, chance: Chance, label: str) -> str:
    """One Fire roll by the defender at the attacker before its series (§8.6)."""
    r = chance.combat(row, low, firer_mod + att.mod, label)
    if r == "B" or r == "L":
        att.hit(r)
    return r


def _light_rule(s: State, defender: Unit, attacker: Unit) -> bool:
    """Option light-l-as-b: L counts as B against light units unless heavy cavalry attacks (004, §16)."""
    if "light-l-as-b" not in s.cfg.options:
        return False
    kinds = s.cfg.tables.units.kinds
    return kinds[defender.kind].light and attacker.kind != "heavy_cavalry"


def _leader_bonus(s: State, u: Unit) -> int:
    m = s.cfg.tables.combat.modifiers
    for ld in leaders_with(s, u):
        if ld.rating >= m.leader_rating:
            return m.leader_bonus
    return 0


def attack_setup(s: State, a: Action) -> tuple[Setup, tuple[str, ...]]:
    """Everything the dice work on in an attack, and the ids of (attacker, defenders...).

    The same setup serves ``_attack`` and the odds (battleboard.odds)."""
    cfg = s.cfg
    tb = cfg.tables
    m = tb.combat.modifiers
    kinds = tb.units.kinds
    feats = tb.boards.features
    board = cfg.board
    who = s.units[a.unit]
    tgt = s.units[a.target]
    mode = a.mode
    if s.naval:
        fleet = who if who.kind == "fleet" else s.units[who.aboard or ""]
        amod = m.attacker_discipline[who.discipline] + _leader_bonus(s, fleet)  # type: ignore[index]
        if fleet.inspired:
            amod += m.inspire
        att = Fighter(who.id, who.flipped, amod, False)
        if mode == "ram":
            d = Fighter(tgt.id, tgt.flipped, m.defender_discipline[tgt.discipline], True)  # type: ignore[index]
            return _setup(mode, kinds["fleet"].rolls, att, [d], None)
        if mode == "fire":
            g = active_ground(s, tgt)
            assert g is not None
            dmod = m.defender_discipline[g.discipline] + vs_modifier(s, mode, g.kind)  # type: ignore[index]
            return _setup(
                mode, kinds["fleet"].rolls, att, [Fighter(g.id, g.flipped, dmod, _light_rule(s, g, who))], None
            )
        defenders = []
        for pid in tgt.cargo:  # impediti never defend (004 Combat: Boarding)
            p = s.units[pid]
            if p.kind == "impeditus":
                continue
            dmod = m.defender_discipline[p.discipline] + vs_modifier(s, mode, p.kind)  # type: ignore[index]
            defenders.append(Fighter(p.id, p.flipped, dmod, _light_rule(s, p, who)))
        if not (tgt.captured and defenders):  # a captured ship reverts when its captor falls (§13.8)
            fm = m.defender_discipline[tgt.discipline]  # type: ignore[index]
            defenders.append(Fighter(tgt.id, tgt.flipped, fm, True))  # L counts as B against a ship
        return _setup(mode, kinds[who.kind].rolls, att, defenders, None)
    assert who.square is not None and tgt.square is not None
    amod = m.attacker_discipline[who.discipline] + _leader_bonus(s, who)  # type: ignore[index]
    amod += feats[board.feature[who.square]].attack_from
    if who.inspired:
        amod += m.inspire
    tfeat = feats[board.feature[tgt.square]]
    dmod = m.defender_discipline[tgt.discipline]  # type: ignore[index]
    if not (mode == "testudo" and tfeat.testudo_ignores):
        dmod += tfeat.defend
    dmod += vs_modifier(s, mode, tgt.kind)
    if mode != "fire" and not tfeat.no_flank:  # §8.5
        front = 1 if tgt.side == "A" else -1
        dr = board.row(who.square) - board.row(tgt.square)
        if dr == 0:
            dmod += m.flank
        elif dr == -front:
            dmod += m.rear
    att = Fighter(who.id, who.flipped, amod, _light_rule(s, who, tgt))
    d = Fighter(tgt.id, tgt.flipped, dmod, _light_rule(s, tgt, who))
    fmod = None
    if mode != "fire" and "fire" in kinds[tgt.kind].modes and not tgt.flipped:  # §8.6
        # the defender fires with its discipline; the attacker defends with its own (§8.6)
        fmod = m.attacker_discipline[tgt.discipline] + m.defender_discipline[who.discipline]  # type: ignore[index]
    return _setup(mode, kinds[who.kind].rolls, att, [d], fmod)


def vs_modifier(s: State, mode: str, kind: str) -> int:
    """The mode-against-kind modifier of combat.toml (§8.2)."""
    key = ("vs", mode, kind)
    found = s.cfg.cache.get(key)
    if found is None:
        entries = s.cfg.tables.combat.mode_vs_kind
        found = s.cfg.cache[key] = sum(e.modifier for e in entries if e.mode == mode and kind in e.defenders)
    return found


def _setup(mode: str, rolls: int, att: Fighter, defs: list[Fighter], fmod: int | None) -> tuple[Setup, tuple[str, ...]]:
    setup = Setup(mode, rolls, att.key(), tuple(d.key() for d in defs), fmod)
    return setup, (att.uid, *(d.uid for d in defs))


def resolve_setup(
    combat: Combat, setup: Setup, uids: tuple[str, ...], chance: Chance
) -> tuple[Fighter, list[Fighter], str, int]:
    """Defensive fire, then the series, on fresh fighters: the real resolver (§8.3–§8.6)."""
    m = combat.modifiers
    low = combat.low
    att = Fighter(uids[0], setup.att[1], setup.att[0], setup.att[2])
    defenders = [Fighter(uid, k[1], k[0], k[2]) for uid, k in zip(uids[1:], setup.defs, strict=True)]
    fire_result = ""
    if setup.firer_mod is not None:
        mod = setup.firer_mod + (m.defender_flipped if att.flipped else 0)
        probe = Fighter(att.uid, att.flipped, 0, att.l_as_b)
        fire_result = defensive_fire(probe, mod, combat.row("fire"), low, chance, f"defensive fire on {att.uid}")
        att.flipped, att.dead = probe.flipped, probe.dead
    used = 0
    if not att.dead:
        label = f"{setup.mode} {att.uid}"
        row = combat.row(setup.mode)
        used = run_series(att, defenders, setup.rolls, row, low, m.attacker_flipped, m.defender_flipped, chance, label)
    return att, defenders, fire_result, used


def resolve_fighters(s: State, a: Action, chance: Chance) -> tuple[Fighter, list[Fighter], str, int]:
    setup, uids = attack_setup(s, a)
    return resolve_setup(s.cfg.tables.combat, setup, uids, chance)


def _attack(s: State, a: Action, chance: Chance, ev: list[Event] | None) -> None:
    s.phase = "combat"
    who = s.units[a.unit]
    tgt = s.units[a.target]
    fleet = who if (not s.naval or who.kind == "fleet") else s.units[who.aboard or ""]
    fleet.attacked = True
    who.attacked = True
    who.inspired = False
    fleet.inspired = False
    first = len(chance.drawn)
    att, defenders, fire_result, _ = resolve_fighters(s, a, chance)
    if ev is not None:
        what = {"ram": "rams", "fire": "fires at"}.get(a.mode, "boards" if s.naval else f"attacks ({a.mode})")
        rolled = chance.drawn[first + (1 if fire_result else 0) :]
        text = f"{who.id} {what} {tgt.id}: {' '.join(rolled) or 'no roll'}"
        _log(ev, "attack", text, unit=who.id, target=tgt.id, mode=a.mode, results=rolled)
    if fire_result:
        _log(ev, "defensive_fire", f"{tgt.id} fires at {who.id} first: {fire_result} (§8.6)", result=fire_result)
    # the defenders' fates
    kills = 0
    for d in defenders:
        u = s.units[d.uid]
        if d.dead:
            if u.kind == "fleet" and s.naval:
                if a.mode not in ("ram", "fire") and a.capture:
                    _capture(s, u, who, chance, ev)
                else:
                    _sink(s, u, chance, ev)
            else:
                _eliminate(s, u, chance, ev)
            kills += 1
        elif d.flipped and not u.flipped:
            u.flipped = True
            _log(ev, "disrupted", f"{u.id} is disrupted", unit=u.id)
    who.kills += kills
    # the attacker's fate (A flips the rammer's or firer's ship, not its passengers, 004)
    if att.dead:
        if who.kind == "fleet":
            _sink(s, who, chance, ev)
        else:
            _eliminate(s, who, chance, ev)
    elif att.flipped and not who.flipped:
        who.flipped = True
        _log(ev, "disrupted", f"{who.id} is disrupted", unit=who.id)


def _eliminate(s: State, u: Unit, chance: Chance, ev: list[Event] | None) -> None:
    """A ground unit or land unit is eliminated (§8.4); leaders with it roll (§9.3)."""
    sq = u.square
    _remove(s, u)
    u.status = "eliminated"
    _log(ev, "eliminated", f"{u.id} is eliminated", unit=u.id)
    if u.aboard is not None:
        fleet = s.units[u.aboard]
        if u.id in fleet.cargo:
            fleet.cargo.remove(u.id)
        if fleet.captor == u.id:  # 004 Combat: Boarding — the ship reverts
            fleet.side = fleet.owner
            fleet.captured = False
            fleet.captor = None
            _log(ev, "revert", f"{fleet.id} reverts to side {fleet.owner}", unit=fleet.id)
        return
    if sq is None:
        return
    for ld in s.leaders.values():
        if ld.status == "active" and ld.aboard is None and ld.square == sq and ld.side == u.side:
            _leader_loss(s, ld, sq, chance, ev)


def _leader_loss(s: State, ld: Leader, sq: int, chance: Chance, ev: list[Event] | None) -> None:
    """§9.3 leader casualties."""
    t = s.cfg.tables.battle.leader_loss
    roll = chance.dice.d10(f"leader {ld.id}")
    if roll in t.killed:
        ld.status = "killed"
        ld.square = None
        _log(ev, "leader", f"{ld.id} is killed (roll {roll}, §9.3)", leader=ld.id, fate="killed")
        return
    board = s.cfg.board
    near = sorted(
        (board.distance(q, sq), board.name(q), q)
        for q, uid in s.grid.items()
        if s.units[uid].side == ld.side and board.distance(q, sq) <= t.joins_within
    )
    if roll in t.captured or not near:
        ld.status = "captured"
        ld.square = None
        _log(ev, "leader", f"{ld.id} is captured (roll {roll}, §9.3)", leader=ld.id, fate="captured")
        return
    ld.square = near[0][2]
    _log(ev, "leader", f"{ld.id} escapes to {near[0][1]} (roll {roll}, §9.3)", leader=ld.id, fate="escaped")


def _sink(s: State, f: Unit, chance: Chance, ev: list[Event] | None) -> None:
    """A ship sinks with all aboard; leaders may jump to an adjacent friendly fleet (004 Passengers)."""
    sq = f.square
    _remove(s, f)
    f.status = "sunk"
    for pid in f.cargo:
        s.units[pid].status = "drowned"
    _log(ev, "sunk", f"{f.id} is sunk with {len(f.cargo)} unit(s) aboard", unit=f.id)
    board = s.cfg.board
    cmd = s.cfg.tables.command
    for ld in s.leaders.values():
        if ld.aboard != f.id or ld.status != "active":
            continue
        friends = sorted(
            (board.name(n), s.grid[n])
            for n in (board.neighbors[sq] if sq is not None else ())
            if n in s.grid and s.units[s.grid[n]].side == ld.side
        )
        if not friends:
            ld.status = "drowned"
            _log(
                ev,
                "leader",
                f"{ld.id} drowns: no friendly ship alongside (004 Passengers)",
                leader=ld.id,
                fate="drowned",
            )
            continue
        roll = chance.dice.d10(f"jump {ld.id}")
        i = min(max(roll - cmd.low, 0), cmd.high - cmd.low)
        if cmd.table[ld.discipline][i] == "F":  # type: ignore[index]
            ld.status = "drowned"
            _log(ev, "leader", f"{ld.id} drowns (roll {roll}, 004 Passengers)", leader=ld.id, fate="drowned")
        else:
            ld.aboard = friends[0][1]
            _log(
                ev,
                "leader",
                f"{ld.id} jumps to {friends[0][1]} (roll {roll}, 004 Passengers)",
                leader=ld.id,
                fate="escaped",
            )


def _capture(s: State, f: Unit, boarder: Unit, chance: Chance, ev: list[Event] | None) -> None:
    """The boarding unit takes the ship (004 Combat: Boarding)."""
    own = s.units[boarder.aboard or ""]
    if boarder.id in own.cargo:
        own.cargo.remove(boarder.id)
    for pid in f.cargo:  # impediti aboard are taken
        s.units[pid].status = "captured"
    f.cargo = [boarder.id]
    boarder.aboard = f.id
    f.side = boarder.side
    f.captured = True
    f.captor = boarder.id
    f.captured_now = True
    f.attacked = True
    f.flipped = True  # it was destroyed: it fights on disrupted
    for ld in s.leaders.values():
        if ld.aboard == f.id and ld.status == "active":
            ld.status = "eliminated"
            _log(
                ev,
                "leader",
                f"{ld.id} is taken with {f.id} and put to death (004 Combat: Boarding)",
                leader=ld.id,
                fate="executed",
            )
    _log(ev, "captured", f"{boarder.id} captures {f.id} (004 Combat: Boarding)", unit=f.id, by=boarder.id)


# --------------------------------------------------------------------------
# panic and the end of the battle
# --------------------------------------------------------------------------
def _check_panic(s: State, chance: Chance, ev: list[Event] | None) -> None:
    """§10.1 land panic by SP lost, §10.5 breaking; 004 Panic by fleets held (captured ones count)."""
    b = s.cfg.tables.battle.panic
    for side in ("A", "B"):
        if side in s.panicked:
            if not s.naval:
                _check_break(s, side, chance, ev)
            continue
        if s.naval:
            orig = s.original_fleets.get(side, 0)
            if orig <= 0 or s.phase in ("allocate", "deploy"):
                continue
            num, den = b.naval_fraction
            if fleets_held(s, side) * den <= orig * num:
                s.panicked.append(side)
                s.panicked.sort()
                _log(ev, "panic", f"side {side} panics: it holds half or fewer of its fleets (004 Panic)", side=side)
        else:
            orig = s.original_sp.get(side, 0)
            if orig > 0 and land_lost(s, side) * 100 >= orig * b.land_percent:
                s.panicked.append(side)
                s.panicked.sort()
                _log(ev, "panic", f"side {side} panics (§10.1)", side=side)
                _check_break(s, side, chance, ev)


def _check_break(s: State, side: str, chance: Chance, ev: list[Event] | None) -> None:
    """§10.5: a panicked land force that has lost ``break_percent`` of its SP breaks."""
    orig = s.original_sp.get(side, 0)
    if orig <= 0 or s.phase in ("deploy", "over") or not present(s, side):
        return
    if land_lost(s, side) * 100 >= orig * s.cfg.tables.battle.panic.break_percent:
        _log(ev, "break", f"side {side} breaks and flees the field (§10.5)", side=side)
        _leave_field(s, side, chance, ev, broken=True)


def _check_end(s: State, ev: list[Event] | None) -> None:
    if s.phase in ("allocate", "deploy"):
        return
    a, b = present(s, "A"), present(s, "B")
    if a and b:
        return
    if not a and not b:
        _finish(s, ev, "neither side has anything left on the board")
    else:
        _finish(s, ev, f"side {'B' if a else 'A'} has nothing left on the board")


def _finish(s: State, ev: list[Event] | None, why: str) -> None:
    """§11.2 victory by strength points."""
    sc = scores(s)
    if sc["A"] != sc["B"]:
        s.winner = "A" if sc["A"] > sc["B"] else "B"
        reason = f"{sc[s.winner]} SP to {sc[other(s.winner)]}; {why}"
    else:
        pa, pb = present(s, "A"), present(s, "B")
        if pa != pb:
            s.winner = "A" if pa else "B"
            reason = f"{sc['A']} SP each, and it holds the field; {why}"
        else:
            s.winner = None
            reason = f"{sc['A']} SP each; {why}"
    s.phase = "over"
    s.end_reason = reason
    _log(ev, "end", f"the battle ends: {reason}", winner=s.winner)
