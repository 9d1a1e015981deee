"""Campaign battles fought on the tactical engine: the campaign's side of the tactical
route (docs/rules/campaign.md §12.7) — its forces as GBoH counters and the losses back.

``CampaignConversion`` is the ``tactical.engagement.Conversion`` the campaign gives the
tactical route (``route(state)``): how each campaign unit becomes counters (by its
campaign kind, ``campaign/data/conversion.toml``), how its leaders are rated, what the
space's ground is (the campaign map), each side's name and withdrawal level; and, from
the final tactical state, the ``Outcome`` with every SP surviving, lost or captured.
The battlefield, the deployment, the scenario file and the headless battle are the
tactical engine's (``tactical.engagement``); the campaign imports only that module of it.

The entry points the window, the routes and the tests call::

    route(state=None, folder=None) -> TacticalRoute      (the campaign's tactical route)
    tactical_scenario(engagement, seed, *, state=None) -> ScenarioIn
    outcome_from_tactical(engagement, final_state, *, turns=0, state=None) -> Outcome
    ledger(engagement, final_state, *, state=None) -> dict[unit id, Ledger]
    resolve_tactical(engagement, dice, ai_both=True, max_actions=MAX_ACTIONS) -> Outcome
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from battleboard.resolve import promotion_ladder, promotion_quota, reconstitution_chance
from bellum.dice import Dice
from bellum.engagement import (
    FRATRICIDE_BLOCK,
    HEAVY_INFANTRY,
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
from bellum.tomlio import load_model
from campaign.units import DATA, catalogue
from tactical.engagement import (
    MAX_ACTIONS,
    SIDES,
    Army,
    Commander,
    Counter,
    Grade,
    Ground,
    Missile,
    Patch,
    Post,
    ScenarioIn,
    State,
    TacticalRoute,
    UnitType,
    battle_scenario,
    build,
    counter_names,
    fight,
    named_moments,
    rout_value,
    write,
)
from tactical.engagement import refusal as tactical_refusal

if TYPE_CHECKING:
    from campaign.state import CampaignState

CONVERSION_FILE = DATA / "conversion.toml"
#: the tactical engine's pieces the older names of this module stand for
build_tactical = build
write_tactical = write
tactical_moments = named_moments
tactical_names = counter_names


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
    """The tactical engine fights field battles on land (§12.7), with a line of battle."""
    why = tactical_refusal(eng)
    if why:
        raise RuleError(why)
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


def withdrawal_level(counters: list[Counter]) -> int:
    """The army's withdrawal level: the share of each counter's rout value its discipline
    gives (conversion.toml [withdrawal]), summed and rounded (§12.7.4)."""
    pct = tables().withdrawal.percent
    total = sum(rout_value(c) * pct[c.discipline] for c in counters)
    return max(1, round(total / 100))


# --------------------------------------------------------------------------- the ground


def ground(eng: Engagement) -> Ground:
    """The space's ground (campaign-map.md): its name, terrain and the patches the terrain
    scatters (conversion.toml [terrain]), river, pass, coast and city."""
    from campaign.map import roman_world

    s = roman_world().spaces.get(eng.where)
    if s is None:
        river, mountain_pass, coast = (eng.terrain == k for k in ("river", "pass", "coast"))
        return Ground(eng.where, "clear", tuple(tables().terrain["clear"].patches), river, mountain_pass, coast)
    patches = tuple(tables().terrain[s.terrain].patches)
    return Ground(s.name, s.terrain, patches, bool(s.rivers), s.mountain_pass, s.port, s.kind == "city")


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


def army(eng: Engagement, state: CampaignState | None = None) -> Army:
    """Both sides as the tactical map takes them (§12.7.1–§12.7.4)."""
    p = plan(eng, state)
    commanders = []
    for ld in eng.leaders:
        initiative, rng, elite = leader_ratings(ld)
        overall = ld.id == _overall(eng, ld.side)
        commanders.append(Commander(ld.id, ld.side, ld.rating, initiative, rng, elite, overall))
    return Army(
        counters=tuple(p.counters),
        commanders=tuple(commanders),
        names={s: _side_name(eng, s) for s in SIDES},
        withdrawal={s: withdrawal_level([c for c in p.counters if c.side == s]) for s in SIDES},
        ground=ground(eng),
        sp_per_counter=p.sp_per_counter,
    )


class CampaignConversion:
    """The campaign's ``tactical.engagement.Conversion``; ``state`` (a CampaignState) lets the
    mapping read each unit's campaign kind — the way there and back must be given the same."""

    def __init__(self, state: CampaignState | None = None) -> None:
        self.state = state

    def army(self, eng: Engagement) -> Army:
        return army(eng, self.state)

    def outcome(self, eng: Engagement, final: State, turns: int) -> Outcome:
        return outcome_from_tactical(eng, final, turns=turns, state=self.state)


def route(state: CampaignState | None = None, folder: Path | None = None) -> TacticalRoute:
    """The tactical route for campaign battles (``folder``: where a window's battle is written)."""
    return TacticalRoute(CampaignConversion(state), folder)


def tactical_scenario(eng: Engagement, seed: int, *, state: CampaignState | None = None) -> ScenarioIn:
    """The engagement as a tactical scenario (§12.7): the same engagement and seed always give
    the same field; the counters do not depend on the seed."""
    return route(state).scenario(eng, seed)


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
            recovered = math.floor(eliminated * reconstitution_chance(u.discipline) + 0.5)
        lost = eliminated - recovered
        surviving = u.strength - lost - captured
        out[u.id] = Ledger(u.id, u.side, u.strength, surviving, lost, captured, shaken or eliminated > 0)
    return out


def outcome_from_tactical(
    eng: Engagement, final: State, *, turns: int = 0, state: CampaignState | None = None
) -> Outcome:
    """The campaign's ``Outcome`` of a tactical battle (§12.7.5).  A battle that is not over
    was broken off at nightfall: a draw, with the losses so far."""
    book = ledger(eng, final, state=state)
    winner: Side | None = final.winner if final.seq.phase == "over" else None  # type: ignore[assignment]
    by_id = {u.id: u for u in eng.units}
    lost: dict[Side, int] = {"A": 0, "B": 0}
    fates: list[UnitFate] = []
    heavy_sp: dict[Side, int] = {"A": 0, "B": 0}
    for uid, row in book.items():
        u = by_id[uid]
        lost[u.side] += row.lost + row.captured
        if u.kind in HEAVY_INFANTRY:
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
        quota = promotion_quota(lost["B" if winner == "A" else "A"])
        steady = [
            by_id[f.id]
            for f in fates
            if f.side == winner
            and f.fate == "survived"
            and not f.flipped
            and by_id[f.id].kind == "legion"
            and by_id[f.id].discipline in promotion_ladder()
        ]
        steady.sort(key=lambda u: (-u.strength, u.id))
        for u in steady[:quota]:
            new: Discipline = promotion_ladder()[u.discipline]
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


def resolve_tactical(eng: Engagement, dice: Dice, ai_both: bool = True, max_actions: int = MAX_ACTIONS) -> Outcome:
    """Fight the engagement on the tactical map with the AI on both sides and return its
    ``Outcome`` (§12.7.6).  The battlefield is drawn with the same dice.  Usable as a campaign
    ``Resolver``: ``CampaignEngine(resolver=resolve_tactical)``."""
    if not ai_both:
        raise RuleError("A headless tactical battle needs the AI on both sides; open the battle window to play it.")
    return route().resolve(eng, dice, max_actions=max_actions)


def fight_tactical(
    eng: Engagement,
    dice: Dice,
    max_actions: int = MAX_ACTIONS,
    watch: Callable[[State, list[Event], int], None] | None = None,
) -> tuple[ScenarioIn, State, int]:
    """The battle of ``resolve_tactical``, AI against AI, on the same dice: the generated
    scenario, the final state and the activations played.  ``watch`` (an after-action
    report's camera) sees the state after every action, with that action's events and the
    activations so far (``tactical.engagement.fight``)."""
    sc_in = battle_scenario(eng, army(eng), dice)
    final, activations = fight(build(sc_in), dice, max_actions, watch)
    return sc_in, final, activations
