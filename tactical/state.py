"""The tactical position: battlefield, units, leaders and where the sequence stands.

Fast internal dataclasses with slots; ``State.copy`` is the explicit copy every
action is applied to (the original is never touched, so a refused action leaves
the state exactly as it was).  Pydantic models for inputs live in
``tactical.models``; ids appear only at the edges.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tactical.hexes import Grid, hex2_dir
from tactical.tables import CLASS_INDEX, HEXSIDE_FEATURES, NO, TERRAINS, move_tables, unit_types

#: unit statuses on the map, and the two ways of leaving it
STATUSES = ("full", "disordered", "routed")
GONE = ("eliminated", "off_map")

#: one search key's steps in ``Battlefield.node_steps``: (cost slot, static cost, node reached),
#: and the key reached where keys are not nodes (``turn_once``)
StepList = tuple[tuple[int, ...], ...]
LEADER_KINDS = ("general", "tribune", "praefect_sociorum", "praefect_equitum", "proconsul")
#: leaders' movement allowance (000 §4.1: 16 for every leader; the project uses it in sgboh too)
LEADER_MA = 16
#: rulesets: 003 core, 003 + 000, and the 002 chart set (on top of 003 + 000)
RULESETS = ("sgboh", "simple-spqr", "charts-v1")
#: cohort grades (002's CO(Vet), CO(Rec), CO(Con); docs/rules/tactical-charts.md §8)
GRADES = ("veteran", "recruit", "conscript")
#: optional rules by id (docs/rules/tactical.md §9)
OPTIONS = frozenset(
    {
        "finished-leaders",  # 000 §3.2 #3
        "no-pilum",  # 001 No Pilum Variant
        "leaving-zoc",  # 001 7.23
        "routed-count",  # 001 10.32
        "retreat-to-reduce-hits",  # 001 10.37 (charts-v1)
        "pursuit-regroup",  # 001 10.43
    }
)


def other(side: str) -> str:
    return "B" if side == "A" else "A"


def edge_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


class Battlefield:
    """The map: grid, terrain, elevation, hexside features and roads (immutable).

    ``enter_costs(cls)`` is the static part of the cost model for one movement
    class: the cost (half MP) of stepping from each hex in each direction, with
    terrain, hexside and elevation already added (``NO`` if prohibited).
    """

    __slots__ = (
        "_cache",
        "_cheapest",
        "_index",
        "_moves",
        "_steps",
        "bridges",
        "era",
        "grid",
        "hexsides",
        "home",
        "level",
        "roads",
        "roman_roads",
        "terrain",
    )

    def __init__(
        self,
        grid: Grid,
        terrain: list[int],
        level: list[int],
        hexsides: dict[tuple[int, int], str],
        roads: frozenset[tuple[int, int]] = frozenset(),
        roman_roads: frozenset[tuple[int, int]] = frozenset(),
        bridges: frozenset[tuple[int, int]] = frozenset(),
        home: dict[str, str] | None = None,
        era: str = "alexander",
    ) -> None:
        self.grid = grid
        self.terrain = tuple(terrain)
        self.level = tuple(level)
        self.hexsides = dict(hexsides)
        self.roads = roads
        self.roman_roads = roman_roads
        self.bridges = bridges
        self.home = dict(home or {"A": "bottom", "B": "top"})
        self.era = era
        self._cache: dict[int, list[int]] = {}
        #: the search's step tables (``node_steps``, ``steps_by_budget``)
        self._steps: dict[tuple[Any, ...], list[Any]] = {}
        #: the cheapest step of each kind of mover (``cheapest_step``)
        self._cheapest: dict[tuple[Any, ...], int] = {}
        #: the legal-action generator's move cache (``tactical.legal``), shared by every copy
        self._moves: dict[Any, Any] = {}
        self._index: dict[Any, Any] = {}

    @classmethod
    def clear(cls, columns: int, rows: int, era: str = "alexander") -> Battlefield:
        n = columns * rows
        return cls(Grid.make(columns, rows), [0] * n, [0] * n, {}, era=era)

    def terrain_name(self, index: int) -> str:
        return TERRAINS[self.terrain[index]]

    def hexside(self, a: int, b: int) -> str | None:
        return self.hexsides.get(edge_key(a, b))

    def step_cost(self, cls: int, a: int, b: int) -> int:
        """Half-MP cost for class ``cls`` to step from ``a`` into its neighbour ``b``."""
        t = move_tables()
        key = edge_key(a, b)
        if key in self.roman_roads:
            return t.roman_road  # 002 Roman road: ½ MP from road hex to road hex
        cost = t.hex_cost[cls][self.terrain[b]]
        if cost >= NO:
            return NO
        feature = self.hexsides.get(key)
        if feature is not None and key not in self.bridges:
            extra = t.hexside_cost[self.era][cls][HEXSIDE_FEATURES.index(feature)]
            if extra >= NO:
                return NO
            cost += extra
        delta = self.level[b] - self.level[a]
        if delta:
            extra = t.level(cls, delta)
            if extra >= NO:
                return NO
            cost += extra
        return cost

    def enter_costs(self, cls: int) -> list[int]:
        """Static step costs for one class per ``index * 6 + direction`` (cached)."""
        table = self._cache.get(cls)
        if table is None:
            nbr = self.grid.nbr
            table = [NO] * len(nbr)
            for k, j in enumerate(nbr):
                if j >= 0:
                    table[k] = self.step_cost(cls, k // 6, j)
            self._cache[cls] = table
        return table

    @property
    def index_cache(self) -> dict[Any, Any]:
        """Scratch space for ``movement.position_index`` (keyed by full position fingerprints)."""
        return self._index

    @property
    def move_cache(self) -> dict[Any, Any]:
        """Scratch space for ``tactical.legal``'s move cache (positions of one battlefield)."""
        return self._moves

    def steps_by_budget(self, cls: int, turns: tuple[tuple[int, int], ...], leader: bool, ma2: int) -> list[Any]:
        """``node_steps`` for every budget from 0 to ``ma2``, in one list (cached): what a
        search of a mover with ``ma2`` half MP reads, indexed by the budget left."""
        key = ("by budget", cls, turns, leader, ma2)
        found = self._steps.get(key)
        if found is None:
            found = [self.node_steps(cls, turns, leader, r) for r in range(ma2 + 1)]
            self._steps[key] = found
        return found

    def cheapest_step(self, cls: int, turns: tuple[tuple[int, int], ...], leader: bool) -> int:
        """What the cheapest step of this kind of mover costs (cached): nothing where
        skirmishers turn; a search may then reach a node at the cost of the node it leaves,
        and with less left than this it can take no step at all."""
        key = (cls, turns, leader)
        found = self._cheapest.get(key)
        if found is None:
            full = self.node_steps(cls, turns, leader, NO)
            found = self._cheapest[key] = min((s[1] for t in full for s in t), default=0)
        return found

    def node_steps(self, cls: int, turns: tuple[tuple[int, int], ...], leader: bool, budget: int) -> list[StepList]:
        """The search's step table for one kind of mover, built once per map (cached): for each
        node ``hex * 6 + facing`` every step the terrain allows that costs at most ``budget``
        half MP, as (slot, static cost, node reached).  ``slot`` is the hex entered, or
        ``grid.size + hex`` for a facing change in ``hex`` — the index of the cost that
        ``movement`` adds to the step for the position.

        Single-hex units step into their two frontal hexes keeping their facing, then turn
        by ``turns`` ((vertices clockwise, cost) pairs); leaders (``leader``) step into all six
        neighbours and have no facing (only nodes ``hex * 6`` have steps).  Where a node
        reached by turning never gains by turning again (``turn_once``), the table is by
        search key (two a node) and each step also gives the key it reaches."""
        key = (cls, turns, leader, budget)
        table = self._steps.get(key)
        if table is not None:
            return table
        full = self._steps.get((cls, turns, leader, NO))
        if full is None:
            full = self._full_steps(cls, () if leader else turns, leader)
            self._steps[(cls, turns, leader, NO)] = full
        if budget >= max((s[1] for t in full for s in t), default=0):
            table = full  # nothing to leave out: the budgets above the dearest step share the table
        else:
            table = [t if all(s[1] <= budget for s in t) else tuple(s for s in t if s[1] <= budget) for t in full]
        self._steps[key] = table
        return table

    def _full_steps(self, cls: int, turns: tuple[tuple[int, int], ...], leader: bool) -> list[StepList]:
        """``node_steps`` before the budget filter."""
        static = self.enter_costs(cls)
        nbr = self.grid.nbr
        size = self.grid.size
        keyed = turn_once(turns)
        full: list[StepList] = []
        for node in range(len(nbr)):
            i, f = divmod(node, 6)
            steps: list[tuple[int, ...]] = []
            if leader:
                if f == 0:
                    for d in range(6):
                        j, c = nbr[i * 6 + d], static[i * 6 + d]
                        if j >= 0 and c < NO:
                            steps.append((j, c, j * 6))
                full.append(tuple(steps))
                continue
            for d in ((f + 5) % 6, f):
                j, c = nbr[i * 6 + d], static[i * 6 + d]
                if j >= 0 and c < NO:
                    steps.append((j, c, j * 6 + f, (j * 6 + f) * 2) if keyed else (j, c, j * 6 + f))
            ahead = tuple(steps)
            for k, tc in turns:
                nxt = i * 6 + (f + k) % 6
                steps.append((size + i, tc, nxt, nxt * 2 + 1) if keyed else (size + i, tc, nxt))
            full.append(tuple(steps))
            if keyed:
                full.append(ahead)  # the node reached by a turn: no turning again
        return full


@functools.cache
def turn_once(turns: tuple[tuple[int, int], ...]) -> bool:
    """Whether a node reached by turning never gains by turning again: any facing is one price
    (skirmishers, Roman foot), so each further turn costs no less than the one turn its hex's
    earlier facing offered to the same facing (or turns back to it, settled at less).

    Then the search tells the ways a node was reached apart: its key is ``node * 2`` where
    it was entered from another hex (or is the start), ``node * 2 + 1`` where it was reached
    by a turn, and the step tables of the second kind leave the turns out.  Only steps that
    cannot lower a cost are left out, so the search settles the same nodes, in the same
    order, from the same parents."""
    cost = dict(turns)
    return bool(turns) and all(
        (k + k2) % 6 == 0 or ((k + k2) % 6 in cost and cost[(k + k2) % 6] <= cost[k] + cost[k2])
        for k in cost
        for k2 in cost
    )


@dataclass(slots=True)
class Unit:
    """A combat unit.  ``hex`` is -1 once it has left the map (``status`` says how)."""

    id: str
    side: str
    type: str
    size: int
    tq: int
    ma: int
    hex: int
    facing: int
    hex2: int = -1
    missile: str | None = None
    status: str = "full"
    missile_hits: int = 0
    engaged: bool = False
    cataphract: bool = False
    roman: bool = False
    group: str = ""
    column: bool = False
    # derived from the catalogue at build (tactical.tables.unit_types)
    cls: int = 0
    mounted: bool = False
    cavalry: bool = False
    skirmisher: bool = False
    #: charts-v1 (002 Shock Results): the counter has a reduced side / shows it now
    reduced_side: bool = False
    reduced: bool = False
    #: a double-depth phalanx (003 §9.62)
    double_depth: bool = False
    #: a cohort's grade, ``veteran`` / ``recruit`` / ``conscript`` (002's CO(Vet), CO(Rec),
    #: CO(Con); docs/rules/tactical-charts.md §8): it picks the cohort's row and column of 002's
    #: Weapons System matrix and nothing else; ``None`` for every other unit and an ungraded CO
    grade: str | None = None

    @property
    def double(self) -> bool:
        return self.hex2 >= 0

    @property
    def on_map(self) -> bool:
        return self.hex >= 0 and self.status not in GONE

    @property
    def foot(self) -> bool:
        return not self.mounted

    def hexes(self) -> tuple[int, ...]:
        return (self.hex, self.hex2) if self.hex2 >= 0 else (self.hex,)

    def move_class(self) -> int:
        return CLASS_INDEX["column"] if self.column else self.cls


def make_unit(
    uid: str, side: str, utype: str, size: int, tq: int, ma: int, hex_: int, facing: int, **kw: object
) -> Unit:
    """A unit with its catalogue-derived flags filled in."""
    spec = unit_types()[utype]
    grade = kw.get("grade")
    if grade is not None and (utype != "CO" or grade not in GRADES):
        raise ValueError(f"only a cohort (CO) has a grade, one of {', '.join(GRADES)}")
    unit = Unit(uid, side, utype, size, tq, ma, hex_, facing, **kw)  # type: ignore[arg-type]
    unit.cls = CLASS_INDEX[spec.class_]
    unit.mounted = spec.mounted
    unit.cavalry = spec.cavalry
    unit.skirmisher = spec.skirmisher
    return unit


@dataclass(slots=True)
class Leader:
    id: str
    side: str
    hex: int
    initiative: int
    range: int
    elite: bool = False
    overall: bool = False
    kind: str = "general"
    ma: int = LEADER_MA
    status: str = "active"  # active | eliminated
    finished: bool = False  # 000 §3.2 #3, option "finished-leaders"
    replacement: bool = False

    @property
    def on_map(self) -> bool:
        return self.status == "active" and self.hex >= 0


@dataclass(frozen=True, slots=True)
class Replacement:
    """A replacement leader the overall commander may bring on (000 §4.32)."""

    side: str
    initiative: int
    range: int


@dataclass(slots=True)
class Seq:
    """Where the sequence of play stands (003 §3, 000 §3).

    phase: ``start`` (nobody has gone yet), ``activation`` (``side`` designates a
    leader or group without a roll), ``move`` / ``shock`` / ``rally`` (the
    segments of an activation), ``continuity`` (``side`` designates and rolls),
    ``over``.
    """

    side: str = "A"
    phase: str = "start"
    leader: str | None = None
    group: tuple[str, ...] | None = None
    last: str | None = None
    last_count: int = 0
    streak: int = 0
    freebie: bool = False
    #: this free activation comes from the three-in-succession rule: no Continuity after it
    returns: bool = False
    #: the order group fixed by the first unit to act (003 §4.2)
    order: str | None = None
    #: the activated leader has finished his own movement (a unit has acted, 003 §4.2)
    leader_done: bool = False


@dataclass(frozen=True, slots=True)
class Pending:
    """A decision the defending side must take before play goes on (docs/rules/tactical.md §8.13).

    ``kind``: ``move`` (an enemy move halted where ``side`` may react: 003 §7.16, 000 §6.5,
    §7.15), ``shock`` (a shock about to be rolled: reaction fire 003 §8.2, retreat before
    combat 003 §8.3, §9.16, 001 10.37), ``fire`` (return fire after a hit and run, 003 §9.3) or
    ``rampage`` (units near a rampaging elephant may withdraw first, 000 §6.51: ``action`` is a
    ``RampageWait``, ``at`` the elephant's hex, ``done`` the units that withdrew and ``side:X``
    for each side that declined).
    ``action``: the phasing side's action that waits — the shock or hit and run, or for a move
    the rest of its path (``Move`` with the hexes still to walk).  A halted move also keeps the
    MP spent so far (half MP), the hex it began in, the mover's hexes before it entered ``at``,
    the units that already reacted at ``at``, and whether any reaction changed the position."""

    kind: str
    side: str
    action: Any
    at: int = -1
    spent: int = 0
    start: int = -1
    before: tuple[int, ...] = ()
    done: frozenset[str] = frozenset()
    changed: bool = False


@dataclass(frozen=True, slots=True)
class RampageWait:
    """A rampage that waits while units near the elephant may withdraw before it (000 §6.51):
    ``Pending.action`` of a ``rampage`` decision.  ``cause``: the unit that set it off (it is
    rolled for first, 003 §9.14)."""

    elephant: str
    cause: str

    def notation(self) -> str:
        return f"rampage {self.elephant}"


@dataclass(slots=True)
class State:
    field: Battlefield
    ruleset: str
    options: frozenset[str]
    units: dict[str, Unit]
    leaders: dict[str, Leader]
    seq: Seq
    #: units that moved or fired in this activation (003 §10.27, 000 §6.12)
    moved: set[str] = dataclasses.field(default_factory=set)
    #: units that shock attacked or were attacked in this activation
    fought: set[str] = dataclasses.field(default_factory=set)
    #: units that took their one reaction facing change in this phase (003 §7.16)
    reacted: set[str] = dataclasses.field(default_factory=set)
    #: units that fired in this activation (000 §8.11)
    fired: set[str] = dataclasses.field(default_factory=set)
    #: units disordered or routed in this activation: they do not rally in it (003 §10.27)
    broke: set[str] = dataclasses.field(default_factory=set)
    #: units that made their rally attempt in this activation
    rallied: set[str] = dataclasses.field(default_factory=set)
    replacements: list[Replacement] = dataclasses.field(default_factory=list)
    rout_points: dict[str, int] = dataclasses.field(default_factory=lambda: {"A": 0, "B": 0})
    #: army withdrawal levels (003 §10.4): a side whose rout points reach its level withdraws
    withdrawal: dict[str, int] = dataclasses.field(default_factory=dict)
    winner: str | None = None
    #: designated shocks not yet resolved, ``(attackers, defender)`` in designation order (003 §8.3)
    designations: list[tuple[tuple[str, ...], str]] = dataclasses.field(default_factory=list)
    #: designation is still open in this activation's Shock segment (003 §8.3); ``resolve`` closes it
    designating: bool = True
    #: option pursuit-regroup (001 10.43): cavalry with a pursuit marker, in the regroup box
    #: (off the map) or marching back on the map, not yet back in play
    regrouping: set[str] = dataclasses.field(default_factory=set)
    #: the defending side's decision the game waits on, if any (docs/rules/tactical.md §8.13)
    reacting: Pending | None = None
    #: option no-pilum (001 No Pilum #4): legion units that began this activation with an enemy
    #: unit in their front (``variants.pressed_legions``)
    pressed: frozenset[str] = frozenset()
    #: rampages set off but not yet rolled, first the one ``reacting`` may wait on (000 §6.51)
    rampages: list[RampageWait] = dataclasses.field(default_factory=list)
    #: set by the engine while a rampage may wait for withdrawals: whether any unit may withdraw
    #: before this elephant (``engine.rampage_may_wait``); None elsewhere (odds, special rules)
    hold_rampages: Callable[[State, Unit], bool] | None = None
    #: movement points the last move spent (an outcome, not carried by ``copy``)
    last_mp: int | float | None = None
    #: derived lookups (``movement.position_index``), keyed by fingerprints; not copied
    cache: dict[Any, Any] = dataclasses.field(default_factory=dict)

    def copy(self) -> State:
        s = self.seq
        return State(
            self.field,
            self.ruleset,
            self.options,
            {k: _copy_unit(u) for k, u in self.units.items()},
            {k: _copy_leader(ld) for k, ld in self.leaders.items()},
            dataclasses.replace(s),  # every field of Seq is immutable
            set(self.moved),
            set(self.fought),
            set(self.reacted),
            set(self.fired),
            set(self.broke),
            set(self.rallied),
            list(self.replacements),
            dict(self.rout_points),
            dict(self.withdrawal),
            self.winner,
            list(self.designations),
            self.designating,
            set(self.regrouping),
            self.reacting,
            self.pressed,
            list(self.rampages),
        )

    def clear_activation(self) -> None:
        """Forget what units did in the activation that has ended."""
        for name in ("moved", "fought", "reacted", "fired", "broke", "rallied"):
            getattr(self, name).clear()
        self.designations.clear()
        self.designating = True

    # -- queries ------------------------------------------------------------
    @property
    def acting(self) -> str:
        """The side to act now: the defending side while a reaction waits on it, else the
        phasing side (``seq.side``)."""
        return self.reacting.side if self.reacting is not None else self.seq.side

    @property
    def spqr(self) -> bool:
        """000's changes are in force (simple-spqr, and charts-v1 built on it)."""
        return self.ruleset != "sgboh"

    def live_units(self) -> list[Unit]:
        return [u for u in self.units.values() if u.on_map]

    def units_at(self, index: int) -> list[Unit]:
        return [u for u in self.units.values() if u.on_map and (u.hex == index or u.hex2 == index)]

    def leaders_at(self, index: int) -> list[Leader]:
        return [ld for ld in self.leaders.values() if ld.on_map and ld.hex == index]

    def zoc_hexes(self, unit: Unit) -> tuple[int, ...]:
        """The hexes a unit's front covers (000 §7.2: its two, or three, frontal hexes)."""
        if not unit.on_map or unit.status == "routed":
            return ()
        return frontal_hexes(self.field.grid, unit)


def frontal_hexes(grid: Grid, unit: Unit) -> tuple[int, ...]:
    """FORMAT.md frontal hexes; a column has one, the hex across its front hexside (000 §6.46)."""
    nbr = grid.nbr
    f = unit.facing
    base = unit.hex * 6
    if unit.column:
        j = nbr[base + f]
        return (j,) if j >= 0 else ()
    a = nbr[base + (f + 5) % 6]
    b = nbr[base + f]
    if unit.hex2 >= 0:
        c = nbr[unit.hex2 * 6 + f]
        return tuple(j for j in (a, b, c) if j >= 0)
    if a >= 0 and b >= 0:
        return (a, b)
    return tuple(j for j in (a, b) if j >= 0)


def double_hex2(grid: Grid, anchor: int, facing: int) -> int:
    return grid.nbr[anchor * 6 + hex2_dir(facing)] if anchor >= 0 else -1


def _copy_unit(u: Unit) -> Unit:
    return Unit(
        u.id,
        u.side,
        u.type,
        u.size,
        u.tq,
        u.ma,
        u.hex,
        u.facing,
        u.hex2,
        u.missile,
        u.status,
        u.missile_hits,
        u.engaged,
        u.cataphract,
        u.roman,
        u.group,
        u.column,
        u.cls,
        u.mounted,
        u.cavalry,
        u.skirmisher,
        u.reduced_side,
        u.reduced,
        u.double_depth,
        u.grade,
    )


def _copy_leader(ld: Leader) -> Leader:
    return Leader(
        ld.id,
        ld.side,
        ld.hex,
        ld.initiative,
        ld.range,
        ld.elite,
        ld.overall,
        ld.kind,
        ld.ma,
        ld.status,
        ld.finished,
        ld.replacement,
    )
