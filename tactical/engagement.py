"""The tactical engine's side of the battle-route contract (``bellum.engagement``):
an ``Engagement`` fought on GBoH hexes and its ``Outcome`` (docs/rules/campaign.md §12.7).

The tactical engine knows nothing of the campaign.  Whoever sends it an engagement says
how its forces become counters and how the result goes back, as a ``Conversion`` (the
campaign's is ``campaign.conversion``): an ``Army`` — the counters with the SP each
carries, the commanders rated, each side's name and withdrawal level, the ground — and
the ``Outcome`` read from the final tactical state.  This module does the rest: the
battlefield and the deployment (§12.7.2–§12.7.3), the generated scenario, its file for
the window, the headless battle AI against AI, and the ``Route`` the campaign asks.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal, Protocol

import tomli_w
from pydantic import BaseModel, ConfigDict, Field, model_validator

from bellum.dice import Dice
from bellum.engagement import SIDES, Discipline, Engagement, Outcome, Side
from bellum.errors import RuleError
from bellum.events import Event
from bellum.paths import game_data
from bellum.report import namer
from bellum.session import Session
from bellum.tomlio import load_model
from tactical.actions import Action
from tactical.game import TacticalEngine, opening_events
from tactical.hexes import Grid
from tactical.models import LeaderIn, TerrainName, UnitType, build_state
from tactical.report import moments
from tactical.scenario import (
    FieldIn,
    Scenario,
    ScenarioIn,
    ScenarioUnitIn,
    SideIn,
    load_scenario,
    to_position,
)
from tactical.state import State

#: AI actions a headless tactical battle may take before night falls on it (§12.7.5)
MAX_ACTIONS = 6000
Post = Literal["line", "screen", "wing", "camp"]
Grade = Literal["veteran", "recruit", "conscript"]
Missile = Literal["S", "BS", "A", "B", "C", "J", "MJ", "MA"]


# --------------------------------------------------------------------------- what the sender gives


class Patch(BaseModel):
    """Ground features scattered over the field: ``count`` patches of ``size`` hexes."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    count: int = Field(ge=1, le=20)
    size: tuple[int, int]
    terrain: TerrainName | None = None
    level: int | None = Field(default=None, ge=-3, le=3)

    @model_validator(mode="after")
    def _coherent(self) -> Patch:
        if self.terrain is None and self.level is None:
            raise ValueError("a patch gives a terrain, a level or both")
        if not 1 <= self.size[0] <= self.size[1] <= 40:
            raise ValueError("a patch size is [least, most] hexes, 1–40")
        return self


@dataclass(frozen=True)
class Counter:
    """One tactical counter and the SP of the sender's unit it carries (§12.7.1)."""

    id: str
    unit: str  # the sender's unit
    side: Side
    sp: int
    kind: str  # the sender's kind
    discipline: Discipline
    post: Post
    type: UnitType
    tq: int
    size: int
    ma: int | None
    missile: Missile | None
    grade: Grade | None
    cataphract: bool
    roman: bool


@dataclass(frozen=True)
class Commander:
    """A leader as the tactical map rates him (§12.7.3)."""

    id: str
    side: Side
    rating: int
    initiative: int
    range: int
    elite: bool
    overall: bool


@dataclass(frozen=True)
class Ground:
    """The place of the battle: its name, its terrain's patches and its features."""

    name: str
    terrain: str
    patches: tuple[Patch, ...]
    river: bool = False
    mountain_pass: bool = False
    coast: bool = False
    city: bool = False


@dataclass(frozen=True)
class Army:
    """Both sides as counters, ready to deploy."""

    counters: tuple[Counter, ...]
    commanders: tuple[Commander, ...]
    names: dict[Side, str]
    withdrawal: dict[Side, int]
    ground: Ground
    sp_per_counter: int = 1


class Conversion(Protocol):
    """How the sender's forces become an ``Army`` and a final state its ``Outcome``."""

    def army(self, eng: Engagement) -> Army:
        """Both sides as counters; ``RuleError`` for a battle the tactical map does not fight."""
        ...

    def outcome(self, eng: Engagement, final: State, turns: int) -> Outcome:
        """Every SP accounted for; a battle not over was broken off at nightfall (a draw)."""
        ...


# --------------------------------------------------------------------------- the battlefield


class Deployment(BaseModel):
    """``tactical/data/deployment.toml``: the field's size and each side's deployment rows."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rows: int = Field(ge=8, le=60)
    min_columns: int = Field(ge=8, le=99)
    max_columns: int = Field(ge=8, le=99)
    margin: int = Field(ge=0, le=10)
    lines: dict[Side, tuple[int, ...]]
    screen: dict[Side, int]

    @model_validator(mode="after")
    def _coherent(self) -> Deployment:
        if self.min_columns > self.max_columns:
            raise ValueError("min_columns is more than max_columns")
        if set(self.lines) != set(SIDES) or set(self.screen) != set(SIDES):
            raise ValueError("lines and screen give a row for each side, A and B")
        rows = [r for s in SIDES for r in (*self.lines[s], self.screen[s])]
        if not all(1 <= r <= self.rows for r in rows) or len(rows) != len(set(rows)):
            raise ValueError(f"the deployment rows must be distinct rows of the field (1–{self.rows})")
        if not all(1 <= len(self.lines[s]) <= 3 for s in SIDES):
            raise ValueError("each side deploys in one to three lines")
        return self


@cache
def deployment() -> Deployment:
    return load_model(Deployment, game_data("tactical", "data", "deployment.toml"))


@dataclass
class _Layout:
    columns: int
    at: dict[str, str]  # counter id -> hex id
    deploy: set[str]  # hex ids where counters stand
    span: tuple[int, int]  # the columns the armies occupy
    leaders: dict[str, str]  # leader id -> hex id


def _line_count(n: int) -> int:
    return 1 if n <= 6 else 2 if n <= 16 else 3


def _layout(army: Army, extra_columns: int) -> _Layout:
    """Where every counter stands (§12.7.2): the line in the centre in up to three lines,
    legion by legion; the screen one row ahead of it; the horse on the wings (right first),
    two deep; leaders with the counters they command."""
    shape: dict[Side, tuple[int, int, int]] = {}
    for s in SIDES:
        mine = [c for c in army.counters if c.side == s]
        n_line = sum(1 for c in mine if c.post == "line")
        n_wing = sum(1 for c in mine if c.post == "wing")
        n_screen = sum(1 for c in mine if c.post == "screen")
        lines = _line_count(n_line)
        width = max(math.ceil(n_line / lines) if n_line else 0, n_screen)
        shape[s] = (width, math.ceil(math.ceil(n_wing / 2) / 2), lines)
    need = max(w + 2 * wg for w, wg, _ in shape.values())
    d = deployment()
    columns = max(d.min_columns, min(d.max_columns, need + 2 * d.margin + extra_columns))
    if need + 2 * d.margin + extra_columns > d.max_columns:
        raise RuleError("The armies are too large for the tactical map even at the largest counter scale.")
    at: dict[str, str] = {}
    order = list(dict.fromkeys(c.unit for c in army.counters))
    centre = (columns + 1) // 2
    lo, hi = columns, 1
    leaders: dict[str, str] = {}
    for s in SIDES:
        lines = shape[s][2]
        mine = sorted(
            (c for c in army.counters if c.side == s),
            key=lambda c: ("IVRMB".index(c.discipline), order.index(c.unit), c.id),
        )
        line = [c for c in mine if c.post == "line"]
        screen = [c for c in mine if c.post == "screen"]
        wing = [c for c in mine if c.post == "wing"]
        rows = d.lines[s]
        per_line = math.ceil(len(line) / lines) if line else 0
        left = centre - (per_line // 2)
        for i, c in enumerate(line):
            r, k = divmod(i, per_line)
            at[c.id] = f"{left + k:02d}{rows[r]:02d}"
        sl = centre - len(screen) // 2
        for i, c in enumerate(screen):
            at[c.id] = f"{sl + i:02d}{d.screen[s]:02d}"
        # the horse: alternately right and left wing, two rows deep, outward from the line
        right_edge = left + max(per_line, 1) - 1
        sides_right = [c for i, c in enumerate(wing) if i % 2 == 0]
        sides_left = [c for i, c in enumerate(wing) if i % 2 == 1]
        # A faces 12: its right is the east; B faces 6: its right is the west
        east, west = (sides_right, sides_left) if s == "A" else (sides_left, sides_right)
        for i, c in enumerate(east):
            r, k = divmod(i, max(1, math.ceil(len(east) / 2)))
            at[c.id] = f"{right_edge + 1 + k:02d}{rows[r]:02d}"
        for i, c in enumerate(west):
            r, k = divmod(i, max(1, math.ceil(len(west) / 2)))
            at[c.id] = f"{left - 1 - k:02d}{rows[r]:02d}"
        for c in mine:
            col = int(at[c.id][:2])
            lo, hi = min(lo, col), max(hi, col)
        right, left_wing = (east, west) if s == "A" else (west, east)
        front = line[:per_line]
        # the commander's post: the middle of the second line (else of the only one)
        rest = line[per_line : 2 * per_line] or front
        centre_post = [rest[len(rest) // 2]] if rest else (right or left_wing or screen)[:1]
        # the ends of the front line, seen from the side's own ranks
        ends = (front[-1:], front[:1]) if s == "A" else (front[:1], front[-1:])
        leaders.update(_place_leaders(army, s, centre_post, right or ends[0], left_wing or ends[1], mine, at))
    return _Layout(columns, at, set(at.values()), (lo, hi), leaders)


def _place_leaders(
    army: Army,
    side: Side,
    centre: list[Counter],
    right: list[Counter],
    left: list[Counter],
    everyone: list[Counter],
    at: dict[str, str],
) -> dict[str, str]:
    """The overall commander with the middle of the second line (else the first), the next two
    with the right and left wings (else the line's ends), the rest spread along the army
    (§12.7.3)."""
    mine = sorted(
        (ld for ld in army.commanders if ld.side == side),
        key=lambda ld: (not ld.overall, -ld.rating, -ld.initiative, ld.id),
    )
    posts = [at[group[0].id] for group in (centre, right, left) if group]
    spread = [at[c.id] for c in everyone if c.post == "line"] or [at[c.id] for c in everyone]
    out: dict[str, str] = {}
    for i, ld in enumerate(mine):
        if i < len(posts):
            out[ld.id] = posts[i]
        else:
            j = (i - len(posts) + 1) * len(spread) // (len(mine) - len(posts) + 1)
            out[ld.id] = spread[min(j, len(spread) - 1)]
    return out


def _battlefield(army: Army, dice: Dice) -> tuple[FieldIn, _Layout]:
    """The field of battle for the ground (campaign.md §12.7.2)."""
    ground = army.ground
    river, mountain_pass, coast, city = ground.river, ground.mountain_pass, ground.coast, ground.city
    sea_side = dice.roll(2, "battlefield: the coast's side") if coast else 0
    extra = 2 if coast else 0
    lay = _layout(army, extra)
    rows = deployment().rows
    grid = Grid.make(lay.columns, rows)
    terrain_at: dict[str, TerrainName] = {}
    level_at: dict[str, int] = {}
    deploy = {grid.index(h) for h in lay.deploy}
    lo, hi = lay.span
    if sea_side:
        sea_cols = (1, 2) if sea_side == 1 else (lay.columns - 1, lay.columns)
        for r in range(1, rows + 1):
            for c in sea_cols:
                terrain_at[f"{c:02d}{r:02d}"] = "impassable"
    if mountain_pass:
        for r in range(1, rows + 1):
            for c in range(1, lay.columns + 1):
                if c < lo - 1 or c > hi + 1:
                    terrain_at[f"{c:02d}{r:02d}"] = "impassable"
    for k, patch in enumerate(ground.patches):
        for n in range(patch.count):
            size = patch.size[0] + dice.roll(patch.size[1] - patch.size[0] + 1, f"battlefield: patch {k}.{n} size") - 1
            start = dice.roll(grid.size, f"battlefield: patch {k}.{n} place") - 1
            h = start
            cells = [h]
            while len(cells) < size:
                d = dice.roll(6, f"battlefield: patch {k}.{n} spread") - 1
                j = grid.nbr[h * 6 + d]
                if j >= 0:
                    h = j
                    if j not in cells:
                        cells.append(j)
            for h in cells:
                hid = grid.hex_id(h)
                if patch.terrain is not None and h not in deploy and terrain_at.get(hid) != "impassable":
                    terrain_at[hid] = patch.terrain
                if patch.level is not None:
                    level_at[hid] = max(level_at.get(hid, 0), patch.level)
    if city:
        # the town behind the defender's lines, toward its home edge (B at the top)
        mid = (lo + hi) // 2
        for c in range(mid - 1, mid + 2):
            for r in (2, 3):
                if 1 <= c <= lay.columns and grid.index(f"{c:02d}{r:02d}") not in deploy:
                    terrain_at[f"{c:02d}{r:02d}"] = "town"
    hexsides: dict[str, Literal["minor_river"]] = {}
    if river:
        # a river down one flank of the armies, as the Enipeus at Pharsalus (research notes §1)
        flank = dice.roll(2, "battlefield: the river's flank")
        edge = lo - 2 if flank == 1 else hi + 1
        edge = max(1, min(lay.columns - 1, edge))
        for h in range(grid.size):
            if grid.col_row(h)[0] > edge:
                continue
            for j in grid.neighbours(h):
                if grid.col_row(j)[0] > edge:
                    hexsides[f"{grid.hex_id(h)}/{grid.hex_id(j)}"] = "minor_river"
    areas: list[dict[str, object]] = [{"hexes": [h], "terrain": t} for h, t in sorted(terrain_at.items())]
    areas += [{"hexes": [h], "level": lv} for h, lv in sorted(level_at.items()) if lv]
    fld = FieldIn.model_validate(
        {"columns": lay.columns, "rows": rows, "era": "caesar", "areas": areas, "hexsides": hexsides}
    )
    return fld, lay


# --------------------------------------------------------------------------- the scenario


def battle_scenario(eng: Engagement, army: Army, dice: Dice) -> ScenarioIn:
    """The engagement as a tactical scenario: the field drawn with ``dice``, both armies
    deployed, the side with tactical superiority first (§12.7)."""
    fld, lay = _battlefield(army, dice)
    units = [
        ScenarioUnitIn(
            id=c.id,
            side=c.side,
            type=c.type,
            size=c.size,
            tq=c.tq,
            ma=c.ma or _default_ma(c.type),
            at=[lay.at[c.id]],
            facing=12 if c.side == "A" else 6,
            missile=c.missile,
            group=c.unit,
            roman=c.roman,
            grade=c.grade,
            cataphract=c.cataphract,
        )
        for c in army.counters
    ]
    leaders = [
        LeaderIn(
            id=ld.id,
            side=ld.side,
            hex=lay.leaders[ld.id],
            initiative=ld.initiative,
            range=ld.range,
            elite=ld.elite,
            overall=ld.overall,
        )
        for ld in army.commanders
    ]
    sides = {
        s: SideIn(name=army.names[s], home="bottom" if s == "A" else "top", withdrawal=army.withdrawal[s])
        for s in SIDES
    }
    return ScenarioIn(
        name=f"Battle of {army.ground.name}"[:80],
        year=eng.turn,
        description=(
            f"Campaign engagement {eng.id} on {army.ground.terrain} ground; "
            f"{army.sp_per_counter} SP a counter (docs/rules/campaign.md §12.7)."
        ),
        sources=["docs/rules/campaign.md §12.7 (generated from the campaign)"],
        rules="charts-v1",
        first=eng.tactical_superiority(),
        sides=sides,
        field=fld,
        units=units,
        leaders=leaders,
    )


def _default_ma(typ: str) -> int:
    from tactical.tables import unit_types

    return unit_types()[typ].ma


def rout_value(c: Counter) -> int:
    """What the counter adds to its army's rout points when eliminated, by the engine's own
    count (``tactical.rout.rout_value``: its TQ; SK, EL and CH 2)."""
    from tactical.rout import rout_value as engine_rout_value
    from tactical.state import make_unit

    return engine_rout_value(make_unit(c.id, c.side, c.type, c.size, c.tq, c.ma or 1, -1, 0))


def build(sc: ScenarioIn) -> Scenario:
    """The scenario validated and built exactly as ``tactical.scenario.load_scenario`` does."""
    source = f"tactical scenario {sc.name!r}"
    state = build_state(to_position(sc, source), source)
    return Scenario(sc, state, Path(source))


def write(sc: ScenarioIn, path: str | Path) -> Path:
    """Write the scenario as a TOML file and read it back through the tactical loader.  When
    ``path`` is a folder the file is named by its content (``battle-<hash>.toml``): the tactical
    engine caches scenarios by path (``tactical.game.load``), so one file must never be
    rewritten with another battle in the same process."""
    text = tomli_w.dumps(sc.model_dump(mode="json", exclude_none=True))
    p = Path(path)
    if p.is_dir():
        p = p / f"battle-{hashlib.sha256(text.encode()).hexdigest()[:12]}.toml"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    load_scenario(p)
    return p


def fight(
    sc: Scenario,
    dice: Dice,
    max_actions: int = MAX_ACTIONS,
    watch: Callable[[State, list[Event], int], None] | None = None,
) -> tuple[State, int]:
    """The battle played out by the AI on both sides: the final state and the activations
    it took (a battle still going after ``max_actions`` is broken off at nightfall).
    ``watch`` (an after-action report's camera) sees the state after the opening and after
    every action, with that action's events and the activations so far."""
    from tactical.ai import TacticalAI
    from tactical.engine import apply

    state, events = opening_events(sc, dice)
    if watch is not None:
        watch(state, events, 0)
    players = {"A": TacticalAI(dice.d10("tactical AI seed A")), "B": TacticalAI(dice.d10("tactical AI seed B"))}
    activations = 0
    for _ in range(max_actions):
        if state.seq.phase == "over":
            break
        before = state.seq.phase
        # the side to act: the defender while a reaction waits on it (tactical.md §8.13)
        action = players[state.acting].choose(state)
        state, happened = apply(state, action, dice)
        if before in ("activation", "continuity") and state.seq.phase not in ("activation", "continuity"):
            activations += 1
        if watch is not None:
            watch(state, happened, activations)
    return state, activations


def counter_names(eng: Engagement, final: State) -> dict[str, str]:
    """Counter and leader ids of a battle fought for ``eng`` → the names of the units and
    leaders they stand for ("leg_xiii-2" → "Legio XIII (2)")."""
    names = {u.id: u.name for u in eng.units if u.name}
    label = {ld.id: ld.name for ld in eng.leaders if ld.name}
    for cid, unit in final.units.items():
        base = names.get(unit.group)
        if base:
            label[cid] = base if cid == unit.group else f"{base} ({cid.rsplit('-', 1)[-1]})"
    return label


def named_moments(eng: Engagement, final: State, events: Iterable[Event]) -> tuple[str, ...]:
    """The turning points of a tactical battle fought for ``eng``, its counters named after
    the units they carry ("leg_xiii-2 routs (002 shock)." → "Legio XIII (2) routs.")."""
    return moments(events, namer(counter_names(eng, final)))


# --------------------------------------------------------------------------- the route


def refusal(eng: Engagement) -> str:
    """Why the tactical engine does not fight ``eng`` ('' when it does): field battles on land."""
    if eng.kind != "land":
        return "A naval battle is fought on the battleboard, not on the tactical map."
    if eng.trigger != "battle":
        return "The storm of a city is settled by the siege rules, not on the tactical map."
    return ""


class TacticalBattle:
    """A battle for an engagement being fought in the tactical window: its ``Session``
    (the window plays through it) and the conversion back."""

    engine: Literal["tactical"] = "tactical"

    def __init__(self, eng: Engagement, session: Session[State, Action], conversion: Conversion) -> None:
        self.engagement = eng
        self.session = session
        self.conversion = conversion

    def over(self) -> bool:
        return self.session.state.seq.phase == "over"

    def conclude(self) -> tuple[Outcome, tuple[str, ...]]:
        """The outcome and the turning points; a battle not over is broken off at nightfall."""
        final = self.session.state
        out = self.conversion.outcome(self.engagement, final, 0)
        return out, named_moments(self.engagement, final, list(self.session.log))


class TacticalRoute:
    """The battle route (``bellum.engagement.Route``) through the tactical engine."""

    engine: Literal["tactical"] = "tactical"

    def __init__(self, conversion: Conversion, folder: Path | None = None) -> None:
        self.conversion = conversion
        self.folder = folder

    def refusal(self, eng: Engagement) -> str:
        return refusal(eng)

    def scenario(self, eng: Engagement, seed: int) -> ScenarioIn:
        """The engagement as a tactical scenario: the same engagement and seed give the same field."""
        return battle_scenario(eng, self.conversion.army(eng), Dice(seed, record=False))

    def resolve(self, eng: Engagement, dice: Dice, *, max_actions: int = MAX_ACTIONS) -> Outcome:
        """Fought AI against AI headless; the battlefield is drawn with the same dice (§12.7.6)."""
        why = refusal(eng)
        if why:
            raise RuleError(why)
        final, turns = fight(build(battle_scenario(eng, self.conversion.army(eng), dice)), dice, max_actions)
        return self.conversion.outcome(eng, final, turns)

    def begin(self, eng: Engagement, seed: int) -> TacticalBattle:
        """A battle for the window: the scenario written to ``folder`` (the window's save and
        load name it) and a session opened on it with ``seed``."""
        why = refusal(eng)
        if why:
            raise RuleError(why)
        if self.folder is None:
            raise RuleError("There is no folder to write the tactical battle to.")
        path = write(self.scenario(eng, seed), self.folder)
        return TacticalBattle(eng, Session(TacticalEngine(), str(path), seed), self.conversion)


#: what the campaign's side of the route uses (this module is the tactical engine's one door)
__all__ = [
    "MAX_ACTIONS",
    "SIDES",
    "Army",
    "Commander",
    "Conversion",
    "Counter",
    "Grade",
    "Ground",
    "Missile",
    "Patch",
    "Post",
    "ScenarioIn",
    "State",
    "TacticalBattle",
    "TacticalRoute",
    "TerrainName",
    "UnitType",
    "battle_scenario",
    "build",
    "counter_names",
    "fight",
    "named_moments",
    "refusal",
    "rout_value",
    "write",
]
