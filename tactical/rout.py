"""Rout movement and leaving the map (003 §8.3 Rout, §10.21-10.24, §6.92).

A routed unit moves half its printed MA, rounded up (003 §10.21), toward its home
edge (``cases/FORMAT.md``: side A's is the bottom row unless the map says
otherwise).  Each step enters one of the two hexes nearer the home edge, paying
terrain costs; it never enters an enemy hex or prohibited terrain, prefers hexes
outside enemy fronts, then empty hexes, then the cheaper, then the one nearer its
starting column (docs/rules/tactical.md §7.2 — the Standard rout rules the seeds
refer to are not in them).  With movement left on its home-edge row it leaves the
map and is eliminated (003 §8.3).  If it would end stacked with a friendly unit it
moves one hex further; if it cannot, it is eliminated (003 §6.92).  A router that can pay a
friend's hex but not the +1 MP for passing through it would end on that friend too: it enters
it and the same rule applies (docs/rules/tactical.md §7.2).
"""

from __future__ import annotations

from bellum.events import Event
from tactical.state import State, Unit, frontal_hexes
from tactical.tables import HALF, NO, move_tables

#: what an eliminated unit adds to its army's rout points (reference/gboh.md; docs §7.4)
_TWO_POINT_TYPES = ("SK", "SK*", "EL", "CH")


def rout_value(unit: Unit) -> int:
    """Rout points of an eliminated unit: its TQ, twice that if double-sized; SK, EL and CH 2."""
    if unit.type in _TWO_POINT_TYPES:
        return 2
    return unit.tq * (2 if unit.double else 1)


def eliminate(state: State, unit: Unit, events: list[Event], why: str, status: str = "eliminated") -> None:
    """Take a unit off the map, count its rout points, displace leaders left alone with it."""
    unit.status = status
    unit.hex = -1
    unit.hex2 = -1
    unit.engaged = False
    if status == "eliminated":
        state.rout_points[unit.side] += rout_value(unit)
    events.append(Event("eliminated", f"{unit.id} is eliminated ({why}).", {"unit": unit.id, "status": status}))


def home_distance(state: State, side: str, index: int) -> int:
    """Rows between a hex and the side's home edge (0 on the edge row)."""
    _, r = state.field.grid.col_row(index)
    if state.field.home.get(side, "bottom" if side == "A" else "top") == "bottom":
        return state.field.grid.rows - r
    return r - 1


def surroundings(state: State, unit: Unit, *, routed_fronts: bool = True) -> tuple[set[int], set[int], set[int]]:
    """The hexes about ``unit`` that decide where it may fall back: those its enemies stand
    in, their frontal hexes (a routed enemy's too unless ``routed_fronts`` is False), and
    those its friends stand in."""
    grid = state.field.grid
    enemy: set[int] = set()
    fronts: set[int] = set()
    friends: set[int] = set()
    for u in state.units.values():
        if not u.on_map or u is unit:
            continue
        if u.side != unit.side:
            enemy.update(u.hexes())
            if routed_fronts or u.status != "routed":
                fronts.update(frontal_hexes(grid, u))
        else:
            friends.update(u.hexes())
    return enemy, fronts, friends


def rout_move(state: State, unit: Unit, events: list[Event]) -> None:
    """Move one routed unit its rout distance toward home (003 §10.21)."""
    if not unit.on_map:
        return
    grid = state.field.grid
    t = move_tables()
    budget = ((unit.ma + 1) // 2) * HALF
    home_bottom = state.field.home.get(unit.side, "bottom" if unit.side == "A" else "top") == "bottom"
    dirs = (2, 3) if home_bottom else (0, 5)  # SE, SW toward the bottom; NE, NW toward the top
    enemy, fronts, friends = surroundings(state, unit, routed_fronts=False)
    unit.facing = 3 if home_bottom else 0
    start_col = grid.col_row(unit.hex)[0]

    def best_step() -> tuple[int, int, bool] | None:
        """The chosen step: its direction, its cost and whether it enters a friend's hex."""
        best: tuple[tuple[int, int, int, int], int, int] | None = None
        for d in dirs:
            cost = 0
            new_hexes = []
            for h in unit.hexes():
                j = grid.nbr[h * 6 + d]
                c = state.field.step_cost(unit.cls, h, j) if j >= 0 else NO
                if j < 0 or j in enemy or c >= NO:
                    break
                if j in friends:
                    c += t.pass_through
                cost = max(cost, c)
                new_hexes.append(j)
            else:
                key = (
                    int(any(x in fronts for x in new_hexes)),
                    int(any(x in friends for x in new_hexes)),
                    cost,
                    abs(grid.col_row(new_hexes[0])[0] - start_col),
                )
                if best is None or key < best[0]:
                    best = (key, d, cost)
        return None if best is None else (best[1], best[2], best[0][1] == 1)

    def step(d: int) -> None:
        unit.hex = grid.nbr[unit.hex * 6 + d]
        if unit.hex2 >= 0:
            unit.hex2 = grid.nbr[unit.hex2 * 6 + d]

    def off_map_now() -> bool:
        return any(home_distance(state, unit.side, h) == 0 for h in unit.hexes())

    spent = 0
    while spent < budget:
        if off_map_now():
            eliminate(state, unit, events, "routed off the map")
            return
        choice = best_step()
        if choice is None:
            break
        if spent + choice[1] > budget:
            # 003 §6.92: a router whose way home runs into a friend's hex, and who can pay the
            # hex but not the +1 for the friend, would end its rout on that friend: it enters
            # and is moved one hex more below (or eliminated) — it does not stand still
            if choice[2] and spent + choice[1] - t.pass_through <= budget:
                step(choice[0])
            break
        step(choice[0])
        spent += choice[1]
    if any(h in friends for h in unit.hexes()):
        # 003 §6.92: one hex more so as not to end stacked; failing that, eliminated
        if off_map_now():
            eliminate(state, unit, events, "routed off the map")
            return
        choice = best_step()
        if choice is not None:
            step(choice[0])
        if choice is None or any(h in friends for h in unit.hexes()):
            eliminate(state, unit, events, "its rout ended on a friendly unit and it could not move on (003 §6.92)")
            return
    where = grid.hex_id(unit.hex)
    events.append(Event("rout_move", f"{unit.id} routs to {where}.", {"unit": unit.id, "hex": where}))


def rout_all(state: State, side: str, events: list[Event]) -> None:
    """Every routed unit of ``side`` moves (003 §10.22: on a Continuity roll of 8 or 9)."""
    for unit in sorted(state.units.values(), key=lambda u: u.id):
        if unit.side == side and unit.on_map and unit.status == "routed":
            rout_move(state, unit, events)
