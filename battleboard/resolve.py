"""Auto-resolve, odds and the campaign contract (docs/rules/battleboard.md §12, §14).

Auto-resolve is the same rules played by two AIs with no window.  ``outcome`` turns a
finished battle into the campaign's ``Outcome``: every unit's fate, reconstitution and
promotion (§12), captured fleets converted (004 Victory), supply and movement (004
Victory).  ``odds`` plays an engagement N times and reports the distribution.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Literal

from battleboard.ai import play_turn
from battleboard.model import Action, State, Unit, other
from battleboard.position import BattleIn, BoardIn, Layout, Placed, PlacedLeader, build_state
from battleboard.rules import Chance, sp_lost
from battleboard.tables import Promotion as Promotion_T
from battleboard.tables import Tables, tables
from bellum.dice import Dice
from bellum.engagement import (
    FRATRICIDE_BLOCK,
    HEAVY_INFANTRY,
    KILLED,
    SIDES,
    CapturedFleet,
    Discipline,
    Engagement,
    Outcome,
    Promotion,
)
from bellum.errors import BellumError, MissingRollError
from bellum.events import Event
from bellum.report import without_references

MAX_ACTIONS = 20_000


#: the auto-resolve's play-outs a decision: none — both sides by the AI's own reading
#: (``ai.base_turn``).  A war auto-resolves hundreds of battles and the campaign AI weighs
#: each decision on dozens more (``odds``), which must be the very battles fought; the
#: look-ahead (100 to 300 times the work) is kept for the opponent a person faces
#: (``ai.Planner``), where it is measured (docs/AI.md).
AUTO_ROLLOUTS = 0


def autoplay(
    s: State,
    dice: Dice,
    ev: list[Event] | None = None,
    *,
    max_actions: int = MAX_ACTIONS,
    record: list[Action] | None = None,
    watch: Callable[[State], None] | None = None,
    copy: bool = True,
    rollouts: int | None = None,
) -> State:
    """Play ``s`` to the end with the AI on both sides; returns the finished copy (every
    action played is appended to ``record`` when given: a save's action log).
    ``watch`` (an after-action report's camera) sees the state after every player turn.
    ``copy=False`` plays ``s`` itself (a state made for this battle alone).  ``rollouts``: the
    AI's play-outs a decision (``ai.play_turn``); by default ``AUTO_ROLLOUTS``."""
    if copy:
        s = s.clone()
    chance = Chance(dice, record=record)
    for _ in range(max_actions):
        if s.phase == "over":
            return s
        play_turn(s, chance, ev, AUTO_ROLLOUTS if rollouts is None else rollouts)
        if watch is not None:
            watch(s)
    raise BellumError("the battle did not end (the AI made no progress)")


def state_from_engagement(eng: Engagement) -> State:
    """The battle an engagement asks for: forces off the board, set-up (and allocation at sea) to come."""
    naval = eng.kind == "naval"
    superior = eng.tactical_superiority()
    # the engagement's units and leaders are validated already (the contract's fields and
    # limits are the position's: ``SHARED_UNIT_FIELDS``); only the battle's line is new
    pos = Layout(
        _NO_BOARD,
        _battle_line(
            eng.kind,
            eng.terrain,
            eng.trigger,
            superior,
            eng.active,
            (eng.sides["A"].battle_stratagems, eng.sides["B"].battle_stratagems),
        ),
        [Placed.of(u.id, u.side, u.kind, u.discipline, u.strength, u.name) for u in eng.units],
        [PlacedLeader(ld.id, ld.side, ld.rating, ld.discipline, name=ld.name) for ld in eng.leaders],
    )
    s = build_state(pos, f"engagement {eng.id}", list(eng.options))
    if naval:
        s.phase = "allocate"
    return s


def set_up(eng: Engagement) -> tuple[State, int]:
    """The battle ``eng`` asks for, its set-up (allocation, deployment) played by the AI as
    ``autoplay`` plays it, and the number of player turns that took: what every auto-resolved
    battle of ``eng`` starts from (``autoplay`` plays a copy; never change the state itself).

    Kept for each set of what the set-up reads (``_set_up_key``): a war auto-resolves the
    same engagement hundreds of times and an odds preview dozens.  Exact because the set-up
    draws no chance: it is played here on strict dice with no rolls given, so a roll would
    raise (and that engagement is then set up anew for every battle, on the battle's dice) —
    the state after it is a function of the key and the tables alone, and a battle's dice are
    where they were before it."""
    t = tables()
    key = _set_up_key(eng, t)
    found = _SET_UPS.get(key)
    if found is not None and found[0].cfg.tables is t:
        return found
    s = state_from_engagement(eng)
    chance = Chance(Dice.forced(()))
    steps = 0
    try:
        while s.phase in _SET_UP_PHASES:  # one player turn each, as ``autoplay`` plays them
            play_turn(s, chance, None, AUTO_ROLLOUTS)
            steps += 1
    except MissingRollError:
        return state_from_engagement(eng), 0
    if len(_SET_UPS) >= 64:
        _SET_UPS.clear()
    found = _SET_UPS[key] = (s, steps)
    return found


_SET_UP_PHASES = ("allocate", "deploy")


def _set_up_key(eng: Engagement, t: Tables) -> tuple[object, ...]:
    """All that ``state_from_engagement`` reads of ``eng`` but its id (named only in errors),
    and the tables it reads (by identity: ``set_up`` checks the state's are these).  A unit's
    or a leader's part is every field it has (a pydantic model keeps its fields, and only
    them, in its ``__dict__``, in their order): more than the battle reads, never less."""
    sides = eng.sides
    return (
        id(t),
        eng.kind,
        eng.terrain,
        eng.trigger,
        eng.tactical_superiority(),
        eng.active,
        sides["A"].battle_stratagems,
        sides["B"].battle_stratagems,
        tuple(eng.options),
        tuple([tuple(u.__dict__.values()) for u in eng.units]),
        tuple([tuple(ld.__dict__.values()) for ld in eng.leaders]),
    )


_SET_UPS: dict[tuple[object, ...], tuple[State, int]] = {}


_NO_BOARD = BoardIn()  # an engagement's board is its terrain's, as the tables give it


@lru_cache(maxsize=256)
def _battle_line(
    kind: str, terrain: str | None, trigger: str | None, superior: str, active: str, stratagems: tuple[int, int]
) -> BattleIn:
    """An engagement's battle line, validated once for each set of values (``build_state``
    only reads it, and a position keeps nothing of it)."""
    return BattleIn(
        kind=kind,
        terrain=terrain,
        trigger=trigger,
        superior=superior,
        active=active,
        stratagems={"A": stratagems[0], "B": stratagems[1]},
    )


def promotion_quota(enemy_lost: int, t: Promotion_T | None = None) -> int:
    """How many of the winner's units may be promoted after a battle in which the enemy
    lost ``enemy_lost`` SP (battleboard.md §12.2; the tactical route counts the same)."""
    t = t or tables().battle.promotion
    return min(t.max, 1 + enemy_lost // t.per_sp) if enemy_lost else 0


def promotion_ladder() -> dict[Discipline, Discipline]:
    """The discipline a promoted unit rises to (battleboard.md §12.2)."""
    return dict(tables().battle.promotion.ladder)


def reconstitution_chance(discipline: Discipline) -> float:
    """The chance a winner's eliminated unit of ``discipline`` is rebuilt: a d10 at or above
    the table's number (battleboard.md §12.1)."""
    need = tables().battle.reconstitution[discipline]
    return max(0, 10 - need) / 10


def _captured_fleets(held: dict[str, list[Unit]], eng: Engagement) -> list[CapturedFleet]:
    """004 Victory: captured fleets (``held``: those each side holds, in unit order) are
    converted with free counters, else eliminated; when both sides hold captures, each first
    hands the other's back (net effect: free counters count the ones returned)."""
    captured: list[CapturedFleet] = []
    for side in SIDES:
        limit = eng.sides[side].free_fleet_counters
        free = None if limit is None else limit + len(held[other(side)])
        for f in held[side]:
            ok = free is None or free > 0
            if ok and free is not None:
                free -= 1
            captured.append(CapturedFleet(id=f.id, from_side=f.owner, to_side=side, converted=ok))
    return captured


def _promotions(s: State, candidates: list[Unit], enemy_lost: int) -> list[Promotion]:
    """§12.2: the winner's surviving units with kills (``candidates``, each of a discipline
    that can rise), most first, up to the quota that the enemy's SP lost give; only legions
    become Imperator."""
    if not candidates:
        return []
    t = s.cfg.tables.battle.promotion
    quota = promotion_quota(enemy_lost, t)
    candidates.sort(key=_promotion_order)
    out: list[Promotion] = []
    for u in candidates:
        if len(out) >= quota:
            break
        new = t.ladder[u.discipline]  # type: ignore[index]
        if new == "I" and u.kind != "legion":
            continue
        out.append(Promotion(id=u.id, side=u.owner, before=u.discipline, after=new))
    return out


def _promotion_order(u: Unit) -> tuple[int, int, str]:
    """Most kills first, then the strongest, then by id (§12.2)."""
    return (-u.kills, -u.strength, u.id)


def outcome(s: State, eng: Engagement, dice: Dice) -> Outcome:
    """The campaign's view of a finished battle, with the after-battle rolls (§12)."""
    if s.phase != "over":
        raise BellumError("the battle is not over yet")
    winner = s.winner
    fates, heavy_sp, held, continuing, candidates = _unit_fates(s, dice)
    lost = {side: sp_lost(s, side, for_victory=False) for side in SIDES}
    captured = _captured_fleets(held, eng)
    promotions = _promotions(s, candidates, sp_lost(s, other(winner), for_victory=False)) if winner is not None else []
    if promotions:
        rows = {row["id"]: row for row in fates}
        for p in promotions:
            rows[p.id]["discipline"] = p.after
    leaders = [
        {"id": ld.id, "side": ld.side, "fate": _LEADER_FATES.get(ld.status, ld.status)} for ld in s.leaders.values()
    ]
    # §12.4 fratricide: every full unit's worth (5 SP) of heavy infantry killed, per side
    heavy_killed = {"A": heavy_sp["A"] // FRATRICIDE_BLOCK, "B": heavy_sp["B"] // FRATRICIDE_BLOCK}
    trigger = eng.trigger
    active = eng.active
    supply = movement = None
    if trigger == "supply":
        supply = winner == active  # the winner decides; with no winner supply is cut (004 Victory)
    if trigger == "interception":
        movement = winner == active  # with no winner the moving force stops (004 Victory)
    taken = (winner == active) if trigger == "storm" else None  # the storming side must win
    loser = other(winner) if winner is not None else None
    retreats = loser is not None and not (s.naval and eng.sides[loser].friendly_port)  # type: ignore[index]
    # plain rows, validated once with the whole outcome (one pydantic pass, not one a unit)
    return Outcome.model_validate(
        {
            "engagement": eng.id,
            "winner": winner,
            "reason": s.end_reason,
            "turns": s.turn,
            "units": fates,
            "leaders": leaders,
            "strength_lost": lost,
            "captured_fleets": captured,
            "promotions": promotions,
            "loser_retreats": retreats,
            "supply_passes": supply,
            "movement_continues": movement,
            "city_taken": taken,
            "continuing_fleets": continuing,
            "heavy_infantry_killed": heavy_killed,
            "fratricide": FRATRICIDE_BLOCK * (heavy_killed["A"] + heavy_killed["B"]),
        }
    )


def _unit_fates(
    s: State, dice: Dice
) -> tuple[list[dict[str, object]], dict[str, int], dict[str, list[Unit]], list[str], list[Unit]]:
    """One pass over the units, in their order: each one's fate row (its discipline before
    any promotion), with the winner's reconstitution (§12.1) and the loser's prisoners
    (§12.3) rolled; the heavy infantry SP killed (§12.4), the fleets each side captured and holds, the fleets
    that broke through, and the winner's units that may be promoted (§12.2)."""
    t = s.cfg.tables.battle
    winner = s.winner
    naval = s.naval
    ladder = t.promotion.ladder
    fates: list[dict[str, object]] = []
    heavy_sp = {"A": 0, "B": 0}
    held: dict[str, list[Unit]] = {"A": [], "B": []}
    continuing: list[str] = []
    candidates: list[Unit] = []
    for u in s.units.values():
        st = u.status
        owner = u.owner
        kind = u.kind
        if st == "active" and owner == winner and u.kills > 0 and kind != "fleet" and u.discipline in ladder:
            candidates.append(u)
        if u.side != owner:
            if st == "active" or st == "broken_through":
                fate = "captured"
                if kind == "fleet":
                    held[u.side].append(u)
            else:
                fate = _FATES.get(st, st) if st != "escaped" else ("fled_returned" if u.returns else "fled_lost")
        elif st == "active":
            fate = "survived"
        elif st == "escaped":
            fate = "fled_returned" if u.returns else "fled_lost"
        else:
            fate = _FATES.get(st, st)
        if kind == "fleet" and st == "broken_through":
            continuing.append(u.id)
        if fate == "eliminated":
            if owner == winner and kind != "fleet":
                if dice.d10(f"reconstitution {u.id}") >= t.reconstitution[u.discipline]:  # type: ignore[index]
                    fate = "reconstituted"
            elif (
                winner is not None and not naval and dice.d10(f"prisoners {u.id}") >= t.prisoners[u.discipline]  # type: ignore[index]
            ):
                fate = "captured"
        if kind in HEAVY_INFANTRY and fate in KILLED:
            heavy_sp[owner] += u.strength
        fates.append(
            {
                "id": u.id,
                "side": owner,
                "fate": fate,
                "strength": u.strength,
                "discipline": u.discipline,
                "flipped": u.flipped,
            }
        )
    return fates, heavy_sp, held, continuing, candidates


#: a unit's fate by its status, where the two differ (escaped and captured ships aside)
_FATES = {"reserve": "survived"}
_LEADER_FATES = {"active": "survived", "eliminated": "executed"}


def refusal(eng: Engagement) -> str:
    """Why the battleboard does not fight ``eng``: never — it fights on land, at sea and at walls."""
    del eng
    return ""


class BoardBattle:
    """A battle for an engagement being fought in the battleboard window: the state it has
    reached, its dice and its events (the window plays on them)."""

    engine: Literal["battleboard"] = "battleboard"

    def __init__(self, eng: Engagement | None, state: State, dice: Dice) -> None:
        self.engagement = eng
        self.state = state
        self.dice = dice
        self.events: list[Event] = []

    def over(self) -> bool:
        return self.state.phase == "over"

    def conclude(self) -> tuple[Outcome, tuple[str, ...]]:
        """The outcome and the turning points; a battle not over is fought out by the AI."""
        if self.engagement is None:
            raise BellumError("a battle fought without an engagement has no outcome to send back")
        final = self.state if self.over() else autoplay(self.state, self.dice, self.events)
        return outcome(final, self.engagement, self.dice), moments(self.events)


class BoardRoute:
    """The battle route (``bellum.engagement.Route``) through the battleboard."""

    engine: Literal["battleboard"] = "battleboard"

    def refusal(self, eng: Engagement) -> str:
        return refusal(eng)

    def resolve(self, eng: Engagement, dice: Dice) -> Outcome:
        """Auto-resolve with the caller's dice: set up, fought by the AI on both sides, concluded."""
        start, steps = set_up(eng)
        return outcome(autoplay(start, dice, max_actions=MAX_ACTIONS - steps), eng, dice)

    def begin(self, eng: Engagement, seed: int) -> BoardBattle:
        return BoardBattle(eng, state_from_engagement(eng), Dice(seed))


ROUTE = BoardRoute()


def resolve_engagement(eng: Engagement, seed: int) -> Outcome:
    """Auto-resolve: set up, fight and conclude an engagement with two AIs."""
    return ROUTE.resolve(eng, Dice(seed, record=False))


def odds(eng: Engagement, n: int, seed: int = 1) -> dict[str, float]:
    """The distribution of winners over ``n`` auto-resolved battles, and the mean SP lost: the
    very battles the auto-resolve fights (``autoplay``, ``AUTO_ROLLOUTS``)."""
    if n < 1:
        raise ValueError("odds need at least one battle")
    wins: Counter[str] = Counter()
    lost = {"A": 0, "B": 0}
    start, steps = set_up(eng)
    for i in range(n):
        final = autoplay(start, Dice(seed + i * 7919, record=False), max_actions=MAX_ACTIONS - steps)
        wins[final.winner or "draw"] += 1
        for side in ("A", "B"):
            lost[side] += sp_lost(final, side, for_victory=False)
    return {
        "A": wins["A"] / n,
        "B": wins["B"] / n,
        "draw": wins["draw"] / n,
        "A_lost": lost["A"] / n,
        "B_lost": lost["B"] / n,
    }


#: the battleboard events an after-action report calls turning points (bellum.report):
#: units destroyed, sunk, captured or breaking through, panic, a side breaking or
#: withdrawing, flight; leaders only when they fall, are taken, drown or are put to death
MOMENT_KINDS = frozenset({"eliminated", "sunk", "captured", "break_through", "panic", "break", "withdraw", "flight"})
LEADER_LOSSES = frozenset({"killed", "captured", "drowned", "executed"})


def moments(events: Iterable[Event]) -> tuple[str, ...]:
    """The turning points of a battleboard battle, from its event log, each a sentence
    without the engine's rule references ("P1 is eliminated.", "side B panics.")."""
    return tuple(
        without_references(e.text)
        for e in events
        if e.kind in MOMENT_KINDS or (e.kind == "leader" and e.data.get("fate") in LEADER_LOSSES)
    )
