"""Battle positions — the notation of ``../shared/cases/FORMAT.md`` (Battleboard section),
shared by rules cases, scenarios and the campaign's engagements — and building a
``State`` from one.  Bad input raises one ``InputError`` sentence.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Literal, NamedTuple, Protocol

from pydantic import BaseModel, ConfigDict, Field

from battleboard.model import Board, Config, Leader, State, Unit, other
from battleboard.tables import KINDS, Tables, tables
from bellum.engagement import Discipline, UnitKind
from bellum.engagement import Side as EngSide
from bellum.errors import InputError
from bellum.tomlio import PieceId

# one name for each concept: the contract's literals (bellum/engagement.py)
Side = EngSide
Disc = Discipline
Kind = UnitKind
OPTIONS = frozenset({"light-l-as-b"})
assert set(KINDS) == set(Kind.__args__)  # type: ignore[attr-defined]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class BoardIn(_Strict):
    columns: int | None = Field(default=None, ge=3, le=26)
    rows: int | None = Field(default=None, ge=4, le=30)
    terrain: str | None = None
    features: dict[str, str] = {}


class BattleIn(_Strict):
    kind: Literal["land", "naval"] = "land"
    terrain: str | None = None
    trigger: Literal["battle", "storm", "mutual", "supply", "interception"] | None = None
    superior: Side = "A"
    active: Side = "A"
    original_fleets: dict[Side, int] | None = None
    original_sp: dict[Side, int] | None = None
    panicked: list[Side] = []
    stratagems: dict[Side, int] = {}
    side: Side | None = None
    phase: Literal["command", "move", "combat"] | None = None
    turn: int = Field(default=1, ge=1, le=99)
    double_used: bool = False
    max_turns: int | None = Field(default=None, ge=1, le=99)


class UnitIn(_Strict):
    id: PieceId
    side: Side
    kind: Kind
    discipline: Disc = "R"
    strength: int = Field(ge=1, le=20)
    square: str | None = None
    flipped: bool = False
    aboard: str | None = None
    active: bool = False
    captured: bool = False
    moved: bool = False
    attacked: bool = False
    failed: bool = False
    name: str = ""


class LeaderIn(_Strict):
    id: PieceId
    side: Side
    rating: int = Field(ge=1, le=4)
    discipline: Disc = "V"
    square: str | None = None
    aboard: str | None = None
    name: str = ""


#: what a unit and a leader of a position share with the engagement contract's
#: ``ForceUnit`` and ``ForceLeader`` (battleboard.md §14): the two convert field for field
SHARED_UNIT_FIELDS: set[str] = {"id", "side", "kind", "discipline", "strength", "name"}
SHARED_LEADER_FIELDS: set[str] = {"id", "side", "rating", "discipline", "name"}


class Position(_Strict):
    board: BoardIn = BoardIn()
    battle: BattleIn = BattleIn()
    units: list[UnitIn] = Field(min_length=1)
    leaders: list[LeaderIn] = []


class UnitLike(Protocol):
    """What ``build_state`` reads of a unit: a position's ``UnitIn`` or a ``Placed``."""

    @property
    def id(self) -> str: ...
    @property
    def side(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def discipline(self) -> str: ...
    @property
    def strength(self) -> int: ...
    @property
    def square(self) -> str | None: ...
    @property
    def flipped(self) -> bool: ...
    @property
    def aboard(self) -> str | None: ...
    @property
    def active(self) -> bool: ...
    @property
    def captured(self) -> bool: ...
    @property
    def moved(self) -> bool: ...
    @property
    def attacked(self) -> bool: ...
    @property
    def failed(self) -> bool: ...
    @property
    def name(self) -> str: ...


class LeaderLike(Protocol):
    """What ``build_state`` reads of a leader: a position's ``LeaderIn`` or a ``PlacedLeader``."""

    @property
    def id(self) -> str: ...
    @property
    def side(self) -> str: ...
    @property
    def rating(self) -> int: ...
    @property
    def discipline(self) -> str: ...
    @property
    def square(self) -> str | None: ...
    @property
    def aboard(self) -> str | None: ...
    @property
    def name(self) -> str: ...


class PositionLike(Protocol):
    """What ``build_state`` reads of a position: a validated ``Position`` or a ``Layout``."""

    @property
    def board(self) -> BoardIn: ...
    @property
    def battle(self) -> BattleIn: ...
    @property
    def units(self) -> Sequence[UnitLike]: ...
    @property
    def leaders(self) -> Sequence[LeaderLike]: ...


class Placed(NamedTuple):
    """A unit already validated elsewhere (an engagement's ``ForceUnit``: the same fields and
    limits as ``UnitIn``), read by ``build_state`` without validating it again."""

    id: str
    side: str
    kind: str
    discipline: str
    strength: int
    square: str | None = None
    flipped: bool = False
    aboard: str | None = None
    active: bool = False
    captured: bool = False
    moved: bool = False
    attacked: bool = False
    failed: bool = False
    name: str = ""

    @staticmethod
    def of(uid: str, side: str, kind: str, discipline: str, strength: int, name: str) -> Placed:
        """A unit not yet set up (every other field its default), made without keywords."""
        out: Placed = tuple.__new__(
            Placed, (uid, side, kind, discipline, strength, None, False, None, False, False, False, False, False, name)
        )
        return out


class PlacedLeader(NamedTuple):
    """A leader already validated elsewhere (an engagement's ``ForceLeader``), as ``Placed``."""

    id: str
    side: str
    rating: int
    discipline: str
    square: str | None = None
    aboard: str | None = None
    name: str = ""


class Layout(NamedTuple):
    """A position made of pieces already validated (an engagement's forces): ``build_state``
    reads it as it reads a ``Position`` (issue 20: no second pydantic pass per battle)."""

    board: BoardIn
    battle: BattleIn
    units: Sequence[Placed]
    leaders: Sequence[PlacedLeader]


def build_board(pos: PositionLike, t: Tables, src: str | Path) -> Board:
    kind = pos.battle.kind
    terrain = pos.battle.terrain or pos.board.terrain or ("sea" if kind == "naval" else "field")
    spec = t.boards.boards.get(terrain)
    if spec is None:
        raise InputError(src, "battle.terrain", f"{terrain!r} is not a board ({', '.join(sorted(t.boards.boards))})")
    if spec.kind != kind:
        raise InputError(src, "battle.terrain", f"the {terrain} board is for {spec.kind} battles, not {kind}")
    columns = pos.board.columns or spec.columns
    rows = pos.board.rows or spec.rows
    deploy = min(spec.deploy_rows, max(1, (rows - 1) // 2))
    features: dict[int, str] = {}
    for r, f in spec.feature_rows.items():
        if r.isdigit() and 1 <= int(r) <= rows:
            for c in range(columns):
                features[(int(r) - 1) * columns + c] = f
    for col, f in spec.feature_columns.items():
        c = ord(col[:1].lower() or "?") - ord("a")
        if 0 <= c < columns:
            for r0 in range(rows):
                features[r0 * columns + c] = f
    probe = _board(terrain, kind, columns, rows, deploy, (), spec.base)
    extra = dict(spec.squares)
    extra.update(pos.board.features)
    for name, f in extra.items():
        sq = probe.parse(name)
        if sq is None:
            if name in pos.board.features:
                raise InputError(src, f"board.features.{name}", "is not a square of this board")
            continue
        if f not in t.boards.features:
            raise InputError(src, f"board.features.{name}", f"{f!r} is not a square feature")
        features[sq] = f
    return _board(terrain, kind, columns, rows, deploy, tuple(sorted(features.items())), spec.base)


@lru_cache(maxsize=256)
def _board(
    terrain: str, kind: str, columns: int, rows: int, deploy: int, features: tuple[tuple[int, str], ...], base: str
) -> Board:
    return Board.build(terrain, kind, columns, rows, deploy, dict(features), base)


def build_state(pos: PositionLike, src: str | Path, options: list[str] | None = None) -> State:
    """The battle this position describes (cases, scenarios, engagements)."""
    t = tables()
    opts = frozenset(options or [])
    bad = sorted(opts - OPTIONS)
    if bad:
        raise InputError(src, "options", f"{bad[0]!r} is not a battleboard option ({', '.join(sorted(OPTIONS))})")
    b = pos.battle
    naval = b.kind == "naval"
    trigger = b.trigger or ("mutual" if naval else "battle")
    if naval == (trigger in ("battle", "storm")):
        raise InputError(src, "battle.trigger", f"{trigger!r} is not a trigger for a {b.kind} battle")
    board = build_board(pos, t, src)
    max_turns = b.max_turns or (t.battle.max_turns.naval if naval else t.battle.max_turns.land)
    cfg = _config(t, board, b.kind, trigger, opts, max_turns)
    units, grid = _units(pos, t, board, src)
    _passengers(pos, t, units, src)
    if naval:
        for f in units.values():
            if f.captured:
                f.captor = f.cargo[0] if f.cargo else None
    leaders = _leaders(pos, board, units, grid, src)
    return _opening(pos, cfg, units, leaders, grid, src)


def _config(t: Tables, board: Board, kind: str, trigger: str, opts: frozenset[str], max_turns: int) -> Config:
    """The battle's ``Config``, one per set of tables, board, kind, trigger, options and turn
    limit: its derived lookups (``Config.cache``) are worked out once, not in every battle."""
    key = (id(t), id(board), kind, trigger, opts, max_turns)
    found = _CONFIGS.get(key)
    if found is None or found.tables is not t or found.board is not board:
        if len(_CONFIGS) >= 256:
            _CONFIGS.clear()
        found = _CONFIGS[key] = Config(t, board, kind, trigger, opts, max_turns)
    return found


_CONFIGS: dict[tuple[int, int, str, str, frozenset[str], int], Config] = {}


def _units(pos: PositionLike, t: Tables, board: Board, src: str | Path) -> tuple[dict[str, Unit], dict[int, str]]:
    """The units, each on a square it may stand on, in reserve, or (for now) aboard nothing;
    and the squares they hold."""
    b = pos.battle
    naval = b.kind == "naval"
    units: dict[str, Unit] = {}
    grid: dict[int, str] = {}
    for i, ui in enumerate(pos.units):
        if ui.id in units:
            raise InputError(src, f"units[{i}].id", f"the id {ui.id!r} is used twice")
        square, aboard, kind = ui.square, ui.aboard, ui.kind
        if naval != (kind == "fleet") and aboard is None and square is not None:
            raise InputError(src, f"units[{i}]", f"a {kind} cannot stand on a square in a {b.kind} battle")
        if not naval and kind == "fleet":
            raise InputError(src, f"units[{i}]", "fleets fight only in naval battles")
        if kind == "fleet" and aboard is not None:
            raise InputError(src, f"units[{i}].aboard", "a fleet cannot be carried")
        if aboard is not None and square is not None:
            raise InputError(src, f"units[{i}]", "a passenger has no square of its own")
        captured = ui.captured
        u = Unit(
            ui.id,
            ui.side,
            other(ui.side) if captured else ui.side,
            kind,
            ui.discipline,
            ui.strength,
            None,
            ui.flipped,
            "active",
            None,
            [],
            captured,
            None,
            False,
            ui.moved,
            ui.attacked,
            ui.failed,
            False,
            False,
            0,
            ui.name or ui.id,
        )
        if square is not None:
            u.square = grid_square(t, board, ui, grid, src, f"units[{i}].square")
            grid[u.square] = ui.id
        elif aboard is None:
            u.status = "reserve"
        units[ui.id] = u
    return units, grid


def grid_square(t: Tables, board: Board, ui: UnitLike, grid: dict[int, str], src: str | Path, place: str) -> int:
    """The square a unit of the position stands on: on the board, free, and passable to it."""
    assert ui.square is not None
    sq = board.parse(ui.square)
    if sq is None:
        raise InputError(src, place, f"{ui.square!r} is not a square of this board")
    if sq in grid:
        raise InputError(src, place, f"{ui.square} already holds {grid[sq]}")
    cls = t.units.kinds[ui.kind].cls
    feats = t.boards.features
    if cls not in feats[board.feature[sq]].passable:
        raise InputError(src, place, f"a {ui.kind} cannot stand on {board.feature[sq]} ({ui.square})")
    return sq


def _passengers(pos: PositionLike, t: Tables, units: dict[str, Unit], src: str | Path) -> None:
    """Ground units aboard their side's fleets, the active one first (004 Passengers)."""
    cap = t.units.fleet_capacity
    actives: dict[str, str] = {}
    for i, ui in enumerate(pos.units):
        if ui.aboard is None:
            if ui.active:
                raise InputError(src, f"units[{i}].active", "only a passenger can be the active ground unit")
            continue
        f = units.get(ui.aboard)
        if f is None or f.kind != "fleet":
            raise InputError(src, f"units[{i}].aboard", f"{ui.aboard!r} is not a fleet of this battle")
        if f.side != ui.side:
            raise InputError(src, f"units[{i}].aboard", f"{ui.aboard} belongs to the other side")
        units[ui.id].aboard = f.id
        if ui.active:
            if ui.kind == "impeditus":
                raise InputError(src, f"units[{i}].active", "an impeditus is never the active ground unit")
            if f.id in actives:
                raise InputError(src, f"units[{i}].active", f"{f.id} already has {actives[f.id]} as its active unit")
            actives[f.id] = ui.id
            f.cargo.insert(0, ui.id)
        else:
            f.cargo.append(ui.id)
        if len(f.cargo) > cap:
            raise InputError(src, f"units[{i}].aboard", f"{f.id} can carry at most {cap} ground units (004 Setup)")


def _leaders(
    pos: PositionLike, board: Board, units: dict[str, Unit], grid: dict[int, str], src: str | Path
) -> dict[str, Leader]:
    """The leaders: aboard a fleet of their side, or with a friendly unit on land."""
    naval = pos.battle.kind == "naval"
    leaders: dict[str, Leader] = {}
    for i, li in enumerate(pos.leaders):
        place = f"leaders[{i}]"
        if li.id in leaders or li.id in units:
            raise InputError(src, f"{place}.id", f"the id {li.id!r} is used twice")
        ld = Leader(li.id, li.side, li.rating, li.discipline, name=li.name or li.id)
        if li.aboard is not None:
            f = units.get(li.aboard)
            if f is None or f.kind != "fleet" or f.side != li.side:
                raise InputError(src, f"{place}.aboard", f"{li.aboard!r} is not a fleet of side {li.side}")
            ld.aboard = f.id
        elif li.square is not None:
            sq = board.parse(li.square)
            if sq is None:
                raise InputError(src, f"{place}.square", f"{li.square!r} is not a square of this board")
            if naval:
                raise InputError(src, place, "at sea a leader is aboard a fleet (004 Movement)")
            if sq not in grid or units[grid[sq]].side != li.side:
                raise InputError(
                    src, f"{place}.square", f"a leader stands with a friendly unit, and {li.square} has none"
                )
            ld.square = sq
        leaders[li.id] = ld
    return leaders


def _opening(
    pos: PositionLike,
    cfg: Config,
    units: dict[str, Unit],
    leaders: dict[str, Leader],
    grid: dict[int, str],
    src: str | Path,
) -> State:
    """The state and the phase it opens in: allocation at sea while troops or leaders wait
    for a fleet, deployment when nothing is placed, else as the position says."""
    b = pos.battle
    naval = b.kind == "naval"
    cap = cfg.tables.units.fleet_capacity
    fleets = [u for u in units.values() if u.kind == "fleet"]
    if naval:
        for side in ("A", "B"):
            if not any(f.side == side for f in fleets):
                raise InputError(
                    src, "units", f"side {side} has no fleet: a naval battle needs one on each side (004 Setup)"
                )
    loose = [u for u in units.values() if naval and u.kind != "fleet" and u.aboard is None]
    loose_leaders = [ld for ld in leaders.values() if ld.aboard is None and ld.square is None]
    placed = [u for u in units.values() if u.square is not None]
    if naval and loose and any(u.aboard is not None for u in units.values()):
        raise InputError(src, "units", "either every ground unit is aboard a fleet or none is (allocation)")
    for u in loose:
        u.status = "active"
    for side in ("A", "B"):
        waiting = sum(1 for u in loose if u.side == side)
        room = cap * sum(1 for f in fleets if f.side == side)
        if waiting > room:
            raise InputError(
                src, "units", f"side {side} has {waiting} ground units but its fleets carry at most {room} (004 Setup)"
            )
    original_fleets = b.original_fleets or {s: sum(1 for f in fleets if f.owner == s) for s in ("A", "B")}
    original_sp = b.original_sp or {s: sum(u.strength for u in units.values() if u.owner == s) for s in ("A", "B")}
    state = State(
        cfg,
        units,
        leaders,
        grid,
        b.side or b.superior,
        b.phase or "move",
        b.turn,
        b.superior,
        b.active,
        {"A": original_fleets.get("A", 0), "B": original_fleets.get("B", 0)},
        {"A": original_sp.get("A", 0), "B": original_sp.get("B", 0)},
        {"A": b.stratagems.get("A", 0), "B": b.stratagems.get("B", 0)},
        sorted(set(b.panicked)),
        b.double_used,
    )
    if naval and (loose or loose_leaders):
        state.phase = "allocate"
        state.turn = 1
        state.side = b.superior
        for f in fleets:
            if f.square is None:
                f.status = "reserve"
    elif not placed:
        state.phase = "deploy"
        state.side = other(b.superior)
    elif naval and any(f.square is None for f in fleets):
        raise InputError(src, "units", "every fleet needs a square, or none (set-up)")
    if loose_leaders and not naval and placed:
        raise InputError(src, f"leaders.{loose_leaders[0].id}", "needs a square (or aboard at sea)")
    return state
