"""Campaign battles fought on the tactical engine: forces to GBoH counters and losses back
(docs/rules/campaign.md §12.7).

The API (what the campaign window's battle dialog calls)::

    tactical_scenario(engagement, seed, *, state=None) -> tactical.scenario.ScenarioIn
        the battle as a tactical scenario: a battlefield generated from the space's terrain,
        both forces deployed as counters, leaders rated from the campaign leaders, withdrawal
        levels; RuleError for a battle the tactical engine does not fight (naval, storm).
        ``state`` (a CampaignState) lets the mapping read each unit's campaign kind;
        without it the kind is inferred from the battleboard kind and the side's faction.
    build_tactical(scenario_in) -> tactical.scenario.Scenario     (validated, starting State)
    write_tactical(scenario_in, path) -> Path                      (a scenario file the
        tactical window, ``bellum battle`` and ``Session(TacticalEngine(), path, seed)`` open)
    outcome_from_tactical(engagement, final_state, *, turns=0, state=None) -> bellum.engagement.Outcome
        every campaign SP accounted for as surviving, lost or captured; leaders killed or
        captured; winner (a battle not over is broken off at nightfall: a draw);
        promotions, fratricide, the loser's retreat.
    ledger(engagement, final_state, *, state=None) -> dict[unit id, Ledger]     (sp = surviving + lost + captured)
    resolve_tactical(engagement, dice, ai_both=True, max_actions=MAX_ACTIONS) -> Outcome
        generate, play AI against AI headless and convert back; a campaign ``Resolver``.

Why here and not in ``tactical/``: the conversion needs the campaign's map (the space's
terrain, rivers, passes, ports) and its counter set, and the campaign already depends on
the battle engines (``campaign.rules.battle``) while they know nothing of it; the tactical
engine stays a self-contained GBoH game whose only input is a scenario.  The mapping
itself is data: ``campaign/data/conversion.toml``.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal, get_args

import tomli_w
from pydantic import BaseModel, ConfigDict, Field, model_validator

from bellum.dice import Dice
from bellum.engagement import (
    FRATRICIDE_BLOCK,
    Discipline,
    Engagement,
    ForceLeader,
    ForceUnit,
    LeaderFate,
    Outcome,
    Promotion,
    Side,
    UnitFate,
)
from bellum.errors import BellumError, InputError, RuleError
from bellum.events import Event
from bellum.report import namer
from bellum.tomlio import load_model
from campaign.units import DATA, catalogue
from tactical.hexes import Grid
from tactical.models import LeaderIn, TerrainName, UnitType
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

if TYPE_CHECKING:
    from campaign.state import CampaignState

CONVERSION_FILE = DATA / "conversion.toml"
#: AI actions a headless tactical battle may take before night falls on it (§12.7.5)
MAX_ACTIONS = 6000
SIDES: tuple[Side, Side] = ("A", "B")
Post = Literal["line", "screen", "wing", "camp"]
Grade = Literal["veteran", "recruit", "conscript"]
Missile = Literal["S", "BS", "A", "B", "C", "J", "MJ", "MA"]


# --------------------------------------------------------------------------- the mapping as data


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ScaleT(_Model):
    max_counters: int = Field(ge=4, le=200)
    max_sp_per_counter: int = Field(ge=1, le=5)


class LeadersT(_Model):
    initiative_base: int = Field(ge=0, le=9)
    discipline_bonus: dict[Discipline, int]
    range_base: int = Field(ge=0, le=10)
    elite_rating: int = Field(ge=1, le=5)
    elite_discipline: Discipline


class WithdrawalT(_Model):
    percent: dict[Discipline, int]


class AfterT(_Model):
    routed_loser: Literal["captured", "lost", "survived"]


class Override(_Model):
    type: UnitType | None = None
    missile: Missile | None = None
    size: int | None = Field(default=None, ge=1, le=30)
    ma: int | None = Field(default=None, ge=1, le=20)


class KindT(_Model):
    """How one campaign kind becomes counters (§12.7.1)."""

    post: Post
    type: UnitType | None = None
    grade: dict[Discipline, Grade] = {}
    tq: dict[Discipline, int] = {}
    size: int = Field(default=1, ge=1, le=30)
    ma: int | None = Field(default=None, ge=1, le=20)
    missile: Missile | None = None
    cataphract: bool = False
    roman: bool = False
    by_discipline: dict[Discipline, Override] = {}

    @model_validator(mode="after")
    def _coherent(self) -> KindT:
        if self.post != "camp":
            if self.type is None:
                raise ValueError("a kind that takes the field needs a tactical type")
            if not self.tq:
                raise ValueError("a kind that takes the field needs a TQ for its disciplines")
        for d, q in self.tq.items():
            if not 0 <= q <= 9:
                raise ValueError(f"TQ {q} for discipline {d} is not 0–9")
        if self.grade and self.type != "CO":
            raise ValueError("only a cohort (CO) has a grade")
        return self


class Patch(_Model):
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


class TerrainT(_Model):
    patches: list[Patch] = Field(max_length=20)


class InferT(_Model):
    model_config = ConfigDict(extra="allow", frozen=True)
    by_faction: dict[str, dict[str, str]] = {}


class ConversionTables(_Model):
    scale: ScaleT
    leaders: LeadersT
    withdrawal: WithdrawalT
    after: AfterT
    kinds: dict[str, KindT]
    infer: InferT
    terrain: dict[str, TerrainT]

    def inferred(self) -> dict[str, str]:
        return {k: str(v) for k, v in (self.infer.model_extra or {}).items()}


def _check(t: ConversionTables, source: Path) -> None:
    """Every land kind of the counter set has an entry with a TQ for each of its disciplines;
    inference names real kinds; every campaign terrain has its patches."""
    from campaign.map import Terrain
    from campaign.units import BATTLEBOARD_KINDS

    cat = catalogue()
    for kid, k in cat.kinds.items():
        if k.is_fleet:
            continue
        entry = t.kinds.get(kid)
        if entry is None:
            raise InputError(source, f"kinds.{kid}", "is missing: every land kind of units.toml needs a mapping")
        if entry.post != "camp":
            missing = [d for d in k.disciplines if d not in entry.tq]
            if missing:
                raise InputError(source, f"kinds.{kid}.tq", f"has no TQ for discipline {', '.join(missing)}")
            if entry.grade and any(d not in entry.grade for d in k.disciplines):
                raise InputError(source, f"kinds.{kid}.grade", "must give a grade for every discipline of the kind")
    for kid in t.kinds:
        if kid not in cat.kinds:
            raise InputError(source, f"kinds.{kid}", "is no unit kind of campaign/data/units.toml")
    tables_ = [("infer", t.inferred())] + [(f"infer.by_faction.{f}", m) for f, m in t.infer.by_faction.items()]
    for place, mapping in tables_:
        for bb, kid in mapping.items():
            if bb not in BATTLEBOARD_KINDS:
                raise InputError(source, f"{place}.{bb}", "is not a battleboard kind")
            if kid not in t.kinds or cat.kinds[kid].battleboard != bb:
                raise InputError(source, f"{place}.{bb}", f"names {kid!r}, which is no campaign kind fighting as {bb}")
    for bb in BATTLEBOARD_KINDS:
        if bb != "fleet" and bb not in t.inferred():
            raise InputError(source, f"infer.{bb}", "is missing: every land battleboard kind needs a default")
    for name in get_args(Terrain):
        if name not in t.terrain:
            raise InputError(source, f"terrain.{name}", "is missing: every campaign terrain needs its patches")


def load_tables(path: str | Path = CONVERSION_FILE) -> ConversionTables:
    p = Path(path)
    t = load_model(ConversionTables, p)
    _check(t, p)
    return t


@cache
def tables() -> ConversionTables:
    return load_tables()


# --------------------------------------------------------------------------- the plan: counters


@dataclass(frozen=True)
class Counter:
    """One tactical counter and the campaign SP it carries (§12.7.1)."""

    id: str
    unit: str  # the campaign unit
    side: Side
    sp: int
    kind: str  # the campaign kind
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


@dataclass
class Plan:
    """Which counters each campaign unit becomes: a pure function of the engagement (and of the
    campaign kinds, which never change the counters' ids or SP)."""

    sp_per_counter: int
    counters: list[Counter]
    camp: list[ForceUnit]
    kinds: dict[str, str]
    by_unit: dict[str, list[Counter]] = field(default_factory=dict)


def campaign_kinds(eng: Engagement, state: CampaignState | None = None) -> dict[str, str]:
    """Each unit's campaign kind: from the campaign state when given, else inferred from its
    battleboard kind and its side's faction (conversion.toml [infer])."""
    t = tables()
    known: dict[str, str] = {}
    if state is not None:
        known = {u.id: u.kind for f in state.forces.values() for u in f.units}
    base = t.inferred()
    out: dict[str, str] = {}
    for u in eng.units:
        kid = known.get(u.id)
        if kid is None or kid not in t.kinds:
            faction = eng.sides[u.side].faction
            kid = t.infer.by_faction.get(faction, {}).get(u.kind, base.get(u.kind, ""))
        out[u.id] = kid
    return out


def _shares(sp: int, per: int) -> list[int]:
    """``sp`` split into counters of at most ``per`` SP, as even as possible, larger first."""
    n = max(1, math.ceil(sp / per))
    q, r = divmod(sp, n)
    return [q + 1] * r + [q] * (n - r)


def _post_of(u: ForceUnit) -> Post:
    """The post by battleboard kind alone, so the counters never depend on inference."""
    t = tables()
    return t.kinds[t.inferred()[u.kind]].post


def plan(eng: Engagement, state: CampaignState | None = None) -> Plan:
    """The counters of both sides (§12.7.1)."""
    _fits(eng)
    t = tables()
    kinds = campaign_kinds(eng, state)
    field_units = [u for u in eng.units if _post_of(u) != "camp"]
    per = 1
    while per < t.scale.max_sp_per_counter and any(
        sum(len(_shares(u.strength, per)) for u in field_units if u.side == s) > t.scale.max_counters for s in SIDES
    ):
        per += 1
    taken = {u.id for u in eng.units} | {ld.id for ld in eng.leaders}
    counters: list[Counter] = []
    by_unit: dict[str, list[Counter]] = {}
    for n, u in enumerate(field_units):
        spec = t.kinds[kinds[u.id]]
        over = spec.by_discipline.get(u.discipline, Override())
        shares = _shares(u.strength, per)
        for k, sp in enumerate(shares, start=1):
            cid = u.id if len(shares) == 1 else f"{u.id}-{k}"
            if len(cid) > 40 or (cid in taken and cid != u.id):
                cid = f"{u.side}{n}-{k}"
            taken.add(cid)
            typ = over.type or spec.type
            assert typ is not None
            size = min(30, (over.size or spec.size) * sp)
            c = Counter(
                id=cid,
                unit=u.id,
                side=u.side,
                sp=sp,
                kind=kinds[u.id],
                discipline=u.discipline,
                post=spec.post,
                type=typ,
                tq=spec.tq.get(u.discipline, min(spec.tq.values())),
                size=size,
                ma=over.ma or spec.ma,
                missile=over.missile or (spec.missile if over.type is None else None),
                grade=spec.grade.get(u.discipline) if typ == "CO" else None,
                cataphract=spec.cataphract,
                roman=spec.roman,
            )
            counters.append(c)
            by_unit.setdefault(u.id, []).append(c)
    camp = [u for u in eng.units if _post_of(u) == "camp"]
    return Plan(per, counters, camp, kinds, by_unit)


def _fits(eng: Engagement) -> None:
    """The tactical engine fights field battles on land (§12.7)."""
    if eng.kind != "land":
        raise RuleError("A naval battle is fought on the battleboard, not on the tactical map.")
    if eng.trigger != "battle":
        raise RuleError("The storm of a city is settled by the siege rules, not on the tactical map.")
    fighting = {u.side for u in eng.units if _post_of(u) != "camp"}
    for s in SIDES:
        if s not in fighting:
            raise RuleError(
                f"Side {s} has only baggage and engineers there: "
                "there is no line of battle to fight on the tactical map."
            )


# --------------------------------------------------------------------------- leaders


def leader_ratings(ld: ForceLeader) -> tuple[int, int, bool]:
    """(Initiative, Command Range, Elite) of a campaign leader (§12.7.3)."""
    t = tables().leaders
    initiative = max(1, min(9, t.initiative_base + ld.rating + t.discipline_bonus.get(ld.discipline, 0)))
    elite = ld.rating >= t.elite_rating and ld.discipline == t.elite_discipline
    return initiative, t.range_base + ld.rating, elite


def _overall(eng: Engagement, side: Side) -> str | None:
    """The side's overall commander: its Supreme Leader, else the best rated, else the first
    listed (the campaign lists a force's commander first)."""
    mine = [(-n, ld) for n, ld in enumerate(eng.leaders) if ld.side == side]
    if not mine:
        return None
    best = max(mine, key=lambda x: (x[1].supreme, x[1].rating, leader_ratings(x[1])[0], x[0]))
    return best[1].id


# --------------------------------------------------------------------------- withdrawal


def rout_value(c: Counter) -> int:
    """What the counter adds to its army's rout points when eliminated, by the engine's own
    count (``tactical.rout.rout_value``: its TQ; SK, EL and CH 2)."""
    from tactical.rout import rout_value as engine_rout_value
    from tactical.state import make_unit

    return engine_rout_value(make_unit(c.id, c.side, c.type, c.size, c.tq, c.ma or 1, -1, 0))


def withdrawal_level(counters: list[Counter]) -> int:
    """The army's withdrawal level: the share of each counter's rout value its discipline
    gives (conversion.toml [withdrawal]), summed and rounded (§12.7.4)."""
    pct = tables().withdrawal.percent
    total = sum(rout_value(c) * pct[c.discipline] for c in counters)
    return max(1, round(total / 100))


# --------------------------------------------------------------------------- the battlefield

ROWS = 20
#: rows of each side's lines, front first (B at the top faces 6, A at the bottom faces 12)
_LINE_ROWS = {"B": (7, 6, 5), "A": (14, 15, 16)}
_SCREEN_ROW = {"B": 8, "A": 13}
MIN_COLUMNS, MAX_COLUMNS = 24, 54
MARGIN = 3


@dataclass
class _Layout:
    columns: int
    at: dict[str, str]  # counter id -> hex id
    deploy: set[str]  # hex ids where counters stand
    span: tuple[int, int]  # the columns the armies occupy
    leaders: dict[str, str]  # leader id -> hex id


def _line_count(n: int) -> int:
    return 1 if n <= 6 else 2 if n <= 16 else 3


def _layout(eng: Engagement, p: Plan, extra_columns: int) -> _Layout:
    """Where every counter stands (§12.7.2): the line in the centre in up to three lines,
    legion by legion; the screen one row ahead of it; the horse on the wings (right first),
    two deep; leaders with the counters they command."""
    shape: dict[Side, tuple[int, int, int]] = {}
    for s in SIDES:
        mine = [c for c in p.counters if c.side == s]
        n_line = sum(1 for c in mine if c.post == "line")
        n_wing = sum(1 for c in mine if c.post == "wing")
        n_screen = sum(1 for c in mine if c.post == "screen")
        lines = _line_count(n_line)
        width = max(math.ceil(n_line / lines) if n_line else 0, n_screen)
        shape[s] = (width, math.ceil(math.ceil(n_wing / 2) / 2), lines)
    need = max(w + 2 * wg for w, wg, _ in shape.values())
    columns = max(MIN_COLUMNS, min(MAX_COLUMNS, need + 2 * MARGIN + extra_columns))
    if need + 2 * MARGIN + extra_columns > MAX_COLUMNS:
        raise RuleError("The armies are too large for the tactical map even at the largest counter scale.")
    at: dict[str, str] = {}
    centre = (columns + 1) // 2
    lo, hi = columns, 1
    leaders: dict[str, str] = {}
    for s in SIDES:
        lines = shape[s][2]
        mine = sorted(
            (c for c in p.counters if c.side == s),
            key=lambda c: ("IVRMB".index(c.discipline), _order(p, c.unit), c.id),
        )
        line = [c for c in mine if c.post == "line"]
        screen = [c for c in mine if c.post == "screen"]
        wing = [c for c in mine if c.post == "wing"]
        rows = _LINE_ROWS[s]
        per_line = math.ceil(len(line) / lines) if line else 0
        left = centre - (per_line // 2)
        for i, c in enumerate(line):
            r, k = divmod(i, per_line)
            at[c.id] = f"{left + k:02d}{rows[r]:02d}"
        sl = centre - len(screen) // 2
        for i, c in enumerate(screen):
            at[c.id] = f"{sl + i:02d}{_SCREEN_ROW[s]:02d}"
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
        leaders.update(_place_leaders(eng, s, centre_post, right or ends[0], left_wing or ends[1], mine, at))
    return _Layout(columns, at, set(at.values()), (lo, hi), leaders)


def _order(p: Plan, unit: str) -> int:
    ids = list(p.by_unit)
    return ids.index(unit) if unit in ids else len(ids)


def _place_leaders(
    eng: Engagement,
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
        (ld for ld in eng.leaders if ld.side == side),
        key=lambda ld: (ld.id != _overall(eng, side), -ld.rating, -leader_ratings(ld)[0], ld.id),
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


def _place(eng: Engagement) -> tuple[str, str, bool, bool, bool, bool]:
    """(name, terrain, river, pass, coast, city) of the space (campaign-map.md)."""
    from campaign.map import roman_world

    cmap = roman_world()
    s = cmap.spaces.get(eng.where)
    if s is None:
        return eng.where, "clear", eng.terrain == "river", eng.terrain == "pass", eng.terrain == "coast", False
    return s.name, s.terrain, bool(s.rivers), s.mountain_pass, s.port, s.kind == "city"


def _battlefield(eng: Engagement, p: Plan, dice: Dice) -> tuple[FieldIn, _Layout]:
    """The field of battle for the space's terrain (§12.7.2)."""
    _, terrain, river, mountain_pass, coast, city = _place(eng)
    sea_side = dice.roll(2, "battlefield: the coast's side") if coast else 0
    extra = 2 if coast else 0
    lay = _layout(eng, p, extra)
    grid = Grid.make(lay.columns, ROWS)
    terrain_at: dict[str, TerrainName] = {}
    level_at: dict[str, int] = {}
    deploy = {grid.index(h) for h in lay.deploy}
    lo, hi = lay.span
    if sea_side:
        sea_cols = (1, 2) if sea_side == 1 else (lay.columns - 1, lay.columns)
        for r in range(1, ROWS + 1):
            for c in sea_cols:
                terrain_at[f"{c:02d}{r:02d}"] = "impassable"
    if mountain_pass:
        for r in range(1, ROWS + 1):
            for c in range(1, lay.columns + 1):
                if c < lo - 1 or c > hi + 1:
                    terrain_at[f"{c:02d}{r:02d}"] = "impassable"
    for k, patch in enumerate(tables().terrain[terrain].patches):
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
        {"columns": lay.columns, "rows": ROWS, "era": "caesar", "areas": areas, "hexsides": hexsides}
    )
    return fld, lay


# --------------------------------------------------------------------------- the scenario


def _side_name(eng: Engagement, side: Side) -> str:
    from campaign.rules.common import leader_name
    from campaign.state import SIDE_NAMES

    faction = eng.sides[side].faction
    who = SIDE_NAMES.get(faction, faction).removeprefix("the ")
    boss = _overall(eng, side)
    if boss is None:
        return who[:60]
    try:
        return f"{leader_name(boss)} ({who})"[:60]
    except KeyError:
        return who[:60]


def _generate(eng: Engagement, dice: Dice, state: CampaignState | None) -> ScenarioIn:
    p = plan(eng, state)
    fld, lay = _battlefield(eng, p, dice)
    place, terrain, *_ = _place(eng)
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
        for c in p.counters
    ]
    leaders = []
    for ld in eng.leaders:
        initiative, rng, elite = leader_ratings(ld)
        leaders.append(
            LeaderIn(
                id=ld.id,
                side=ld.side,
                hex=lay.leaders[ld.id],
                initiative=initiative,
                range=rng,
                elite=elite,
                overall=ld.id == _overall(eng, ld.side),
            )
        )
    sides = {
        s: SideIn(
            name=_side_name(eng, s),
            home="bottom" if s == "A" else "top",
            withdrawal=withdrawal_level([c for c in p.counters if c.side == s]),
        )
        for s in SIDES
    }
    return ScenarioIn(
        name=f"Battle of {place}"[:80],
        year=eng.turn,
        description=(
            f"Campaign engagement {eng.id} on {terrain} ground; "
            f"{p.sp_per_counter} SP a counter (docs/rules/campaign.md §12.7)."
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


def tactical_scenario(eng: Engagement, seed: int, *, state: CampaignState | None = None) -> ScenarioIn:
    """The engagement as a tactical scenario (§12.7): the same engagement and seed always give
    the same field; the counters do not depend on the seed."""
    return _generate(eng, Dice(seed, record=False), state)


def build_tactical(sc: ScenarioIn) -> Scenario:
    """The scenario validated and built exactly as ``tactical.scenario.load_scenario`` does."""
    from tactical.models import build_state

    source = f"tactical scenario {sc.name!r}"
    state = build_state(to_position(sc, source), source)
    return Scenario(sc, state, Path(source))


def write_tactical(sc: ScenarioIn, path: str | Path) -> Path:
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


# --------------------------------------------------------------------------- back to the campaign


@dataclass(frozen=True)
class Ledger:
    """Where a campaign unit's SP went (§12.7.5): ``sp == surviving + lost + captured``."""

    unit: str
    side: Side
    sp: int
    surviving: int
    lost: int
    captured: int
    disrupted: bool


def _recovery(discipline: Discipline) -> float:
    """The share of eliminated SP the winner recovers: a battleboard reconstitution roll's
    chance (battleboard.md §12.1: d10 at or above the table's number)."""
    from battleboard.tables import tables as bb_tables

    need = bb_tables().battle.reconstitution[discipline]
    return max(0, 10 - need) / 10


def ledger(eng: Engagement, final: State, *, state: CampaignState | None = None) -> dict[str, Ledger]:
    """Every campaign unit's SP split into surviving, lost and captured (§12.7.5).  ``state``
    must be what ``tactical_scenario`` was given, so the counters are planned the same way."""
    p = plan(eng, state)
    winner = final.winner if final.seq.phase == "over" else None
    routed_fate = tables().after.routed_loser
    out: dict[str, Ledger] = {}
    for u in eng.units:
        beaten = winner is not None and u.side != winner
        if u.id not in p.by_unit:  # in camp: the baggage follows its army's fortune
            taken = u.strength if beaten else 0
            out[u.id] = Ledger(u.id, u.side, u.strength, u.strength - taken, 0, taken, False)
            continue
        eliminated = captured = 0
        shaken = False
        for c in p.by_unit[u.id]:
            t = final.units.get(c.id)
            if t is None:
                raise BellumError(f"the tactical battle has no counter {c.id} for {u.id}")
            if t.status == "eliminated":
                eliminated += c.sp
            elif t.status == "routed" and beaten:
                shaken = True
                if routed_fate == "captured":
                    captured += c.sp
                elif routed_fate == "lost":
                    eliminated += c.sp
            elif t.status in ("disordered", "routed"):
                shaken = True
        recovered = 0
        if winner is not None and u.side == winner and eliminated:
            recovered = math.floor(eliminated * _recovery(u.discipline) + 0.5)
        lost = eliminated - recovered
        surviving = u.strength - lost - captured
        out[u.id] = Ledger(u.id, u.side, u.strength, surviving, lost, captured, shaken or eliminated > 0)
    return out


def outcome_from_tactical(
    eng: Engagement, final: State, *, turns: int = 0, state: CampaignState | None = None
) -> Outcome:
    """The campaign's ``Outcome`` of a tactical battle (§12.7.5).  A battle that is not over
    was broken off at nightfall: a draw, with the losses so far."""
    from battleboard.tables import tables as bb_tables

    book = ledger(eng, final, state=state)
    winner: Side | None = final.winner if final.seq.phase == "over" else None  # type: ignore[assignment]
    by_id = {u.id: u for u in eng.units}
    lost: dict[Side, int] = {"A": 0, "B": 0}
    fates: list[UnitFate] = []
    heavy_sp: dict[Side, int] = {"A": 0, "B": 0}
    for uid, row in book.items():
        u = by_id[uid]
        lost[u.side] += row.lost + row.captured
        if u.kind in ("legion", "heavy_infantry"):
            # killed, not taken or fled: the same count as battleboard.md §12.4 (campaign.md §21.3)
            heavy_sp[u.side] += row.lost
        if row.surviving > 0:
            fates.append(
                UnitFate(
                    id=uid,
                    side=u.side,
                    fate="survived",
                    strength=row.surviving,
                    discipline=u.discipline,
                    flipped=row.disrupted,
                )
            )
        else:
            fate = "captured" if row.captured == row.sp else "eliminated"
            fates.append(UnitFate(id=uid, side=u.side, fate=fate, strength=u.strength, discipline=u.discipline))
    promotions: list[Promotion] = []
    if winner is not None:
        pt = bb_tables().battle.promotion
        enemy_lost = lost["B" if winner == "A" else "A"]
        quota = min(pt.max, 1 + enemy_lost // pt.per_sp) if enemy_lost else 0
        steady = [
            by_id[f.id]
            for f in fates
            if f.side == winner
            and f.fate == "survived"
            and not f.flipped
            and by_id[f.id].kind == "legion"
            and by_id[f.id].discipline in ("R", "V")
        ]
        steady.sort(key=lambda u: (-u.strength, u.id))
        up = {"R": "V", "V": "I"}
        for u in steady[:quota]:
            new: Discipline = up[u.discipline]  # type: ignore[assignment]
            promotions.append(Promotion(id=u.id, side=u.side, before=u.discipline, after=new))
        promoted = {p.id: p.after for p in promotions}
        fates = [f.model_copy(update={"discipline": promoted[f.id]}) if f.id in promoted else f for f in fates]
    leaders: list[LeaderFate] = []
    for ld in eng.leaders:
        t = final.leaders.get(ld.id)
        lf: Literal["survived", "killed", "captured"] = "survived"
        if t is not None and t.status == "eliminated":
            lf = "captured" if winner is not None and ld.side != winner else "killed"
        leaders.append(LeaderFate(id=ld.id, side=ld.side, fate=lf))
    heavy = {s: heavy_sp[s] // FRATRICIDE_BLOCK for s in SIDES}
    return Outcome(
        engagement=eng.id,
        engine="tactical",
        winner=winner,
        reason=_reason(eng, final, winner, book),
        turns=turns,
        units=fates,
        leaders=leaders,
        strength_lost=lost,
        promotions=promotions,
        loser_retreats=winner is not None,
        heavy_infantry_killed=heavy,
        fratricide=FRATRICIDE_BLOCK * (heavy["A"] + heavy["B"]),
    )


def _reason(eng: Engagement, final: State, winner: Side | None, book: Mapping[str, Ledger]) -> str:
    taken = sum(r.captured for r in book.values())
    prisoners = f"; {taken} SP taken prisoner" if taken else ""
    if winner is None:
        return "night fell on the tactical battle before either army withdrew" + prisoners
    loser: Side = "B" if winner == "A" else "A"
    level = final.withdrawal.get(loser, 0)
    points = final.rout_points[loser]
    return f"side {loser} withdrew from the tactical battle ({points} rout points of {level}){prisoners}"


# --------------------------------------------------------------------------- headless play


def tactical_moments(eng: Engagement, final: State, events: Iterable[Event]) -> tuple[str, ...]:
    """The turning points of a tactical battle fought for ``eng``, its counters named after
    the campaign units they carry ("leg_xiii-2 routs (002 shock)." → "Legio XIII (2) routs.")."""
    names = {u.id: u.name for u in eng.units if u.name}
    label = {ld.id: ld.name for ld in eng.leaders if ld.name}
    for cid, unit in final.units.items():
        base = names.get(unit.group)
        if base:
            label[cid] = base if cid == unit.group else f"{base} ({cid.rsplit('-', 1)[-1]})"
    return moments(events, namer(label))


def resolve_tactical(eng: Engagement, dice: Dice, ai_both: bool = True, max_actions: int = MAX_ACTIONS) -> Outcome:
    """Fight the engagement on the tactical map with the AI on both sides and return its
    ``Outcome`` (§12.7.6).  The battlefield is drawn with the same dice.  Usable as a campaign
    ``Resolver``: ``CampaignEngine(resolver=resolve_tactical)``."""
    from tactical.ai import TacticalAI
    from tactical.engine import apply
    from tactical.game import opening

    if not ai_both:
        raise RuleError("A headless tactical battle needs the AI on both sides; open the battle window to play it.")
    state = opening(build_tactical(_generate(eng, dice, None)), dice)
    players = {"A": TacticalAI(dice.d10("tactical AI seed A")), "B": TacticalAI(dice.d10("tactical AI seed B"))}
    activations = 0
    for _ in range(max_actions):
        if state.seq.phase == "over":
            break
        before = state.seq.phase
        # the side to act: the defender while a reaction waits on it (tactical.md §8.13)
        action = players[state.acting].choose(state)
        state, _events = apply(state, action, dice)
        if before in ("activation", "continuity") and state.seq.phase not in ("activation", "continuity"):
            activations += 1
    return outcome_from_tactical(eng, state, turns=activations)
