"""``apply(state, action, dice) -> (new_state, events)``: the tactical rules' single entry point.

The state given is never modified: the action is played on ``state.copy()``.  An
illegal action raises ``RuleError`` (one sentence for the player) before any die
is rolled, so a refused action leaves both the state and the dice untouched.

A move is validated step by step against the same ``MoveCosts`` the search
uses (``tactical.movement``).  It is first walked without dice (and without
reactions; a case's written reactions are assumed to succeed) to refuse anything
illegal before a roll; then played for real.  If a reaction changes the position
so that the rest of the path is no longer open, the mover stops where it stands
(docs/rules/tactical.md §4.9).

The defending side decides its own reactions (docs/rules/tactical.md §8.13): a move halts at
the first hex where an enemy unit or leader may react (003 §7.16, 000 §6.5, §7.15), a shock
waits before its roll where the defender may fire or retreat (003 §8.2-8.3, §9.16), a hit
and run waits where its target may fire back (003 §9.3).  ``State.reacting`` then records
what waits and the side to act is the defender, who plays ``react ...`` or ``decline``; the
move walks on, the shock is rolled, and play returns to the phasing side.  The phasing side's
own actions may not carry the defender's choices; ``apply_with_choices`` (cases, odds and
tests) plays an action written with them as the defender's answers.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from bellum.dice import Dice
from bellum.errors import RuleError
from bellum.events import Event
from tactical import combat, special
from tactical.actions import (
    Action,
    Activate,
    Continuity,
    Decline,
    Designate,
    Face,
    Fire,
    Move,
    Pass,
    Rally,
    React,
    Reaction,
    Replace,
    Resolve,
    Shock,
    Start,
)
from tactical.command import check_command, is_ala
from tactical.hexes import CLOCK_FACING, CLOCK_SIDE, FACING_CLOCK, frontal_dirs, rear_dirs
from tactical.movement import MoveCosts, Token, movement_allowance, mp_text, roman_foot
from tactical.sequence import activate, continuity, pass_turn, who_goes_first
from tactical.state import Leader, Pending, RampageWait, State, Unit, frontal_hexes, other
from tactical.tables import HALF, NO, TERRAIN_INDEX

_WOODS = TERRAIN_INDEX["woods"]
_MARSH = TERRAIN_INDEX["marsh"]
_ROUGH = TERRAIN_INDEX["rough"]
_RIVERS = ("minor_river", "major_river", "rocky_river_bed")


class Outcome:
    """What the last action did that a caller may ask about (``mp`` spent, for cases and the UI)."""

    __slots__ = ("mp",)

    def __init__(self) -> None:
        self.mp: int | float | None = None


def apply(state: State, action: Action | Any, dice: Dice) -> tuple[State, list[Event]]:
    """Play ``action`` on a copy of ``state``; return the new state and what happened."""
    if state.seq.phase == "over":
        raise RuleError(f"The battle is over; side {state.winner} has won.")
    new = state.copy()
    events: list[Event] = []
    done: Any = action
    # a rampage set off by this action may wait for withdrawals before it (000 §6.51)
    new.hold_rampages = rampage_may_wait if new.spqr else None
    if state.reacting is not None:
        if not isinstance(action, React | Decline):
            raise RuleError(
                f"Side {state.reacting.side} must first decide its reaction to {_waiting(state)} "
                "('react …' or 'decline')."
            )
        done = _answer(new, action, dice, events)
    elif isinstance(action, React | Decline):
        raise RuleError("No enemy move, shock or hit and run waits on a reaction now.")
    elif isinstance(action, Move):
        _move(new, action, dice, events)
    elif isinstance(action, Face):
        _move(new, Move(action.unit, (f"face:{action.to}",)), dice, events)
    elif isinstance(action, Continuity):
        continuity(new, action.leader, action.group, dice, events)
    elif isinstance(action, Activate):
        activate(new, action.leader, action.group, events)
    elif isinstance(action, Pass):
        pass_turn(new, dice, events)
    elif isinstance(action, Start):
        who_goes_first(new, dice, events)
    elif isinstance(action, Replace):
        _replace(new, action, dice, events)
    elif isinstance(action, Shock):
        done = _shock(new, action, dice, events)
    elif isinstance(action, Fire):
        _refuse_choices(action)
        combat.resolve_fire(new, action, dice, events)
        _open_return_fire(new, action, events)
    elif isinstance(action, Designate | Resolve | Rally):
        combat.handle(new, action, dice, events)
    else:
        raise RuleError(f"{action!r} is not an action of the tactical game.")
    new.hold_rampages = None
    _open_rampages(new, dice, events)
    # -- hook: scenario special rules (tactical/special.py, docs/scenarios.md §Special rules);
    # a shock that waits on the defender has not happened yet --
    if done is not None:
        special.after_action(state, new, done, dice, events)
    settle_leaders(new, events)
    check_end(new, events)
    if new.seq.phase == "over":
        new.reacting = None  # a decision left waiting when an army withdraws is moot (003 §10.4)
        new.rampages.clear()
    return new, events


def settle_leaders(state: State, events: list[Event]) -> None:
    """A leader left in a hex an enemy unit now holds (a rout, retreat, pursuit or advance ended
    there) goes to the nearest friendly unit, or is captured if none can be reached
    (003 §6.7; 000 §4.31 #1, #3; docs §4.10)."""
    grid = state.field.grid
    leader_hexes = {ld.hex for ld in state.leaders.values() if ld.on_map}
    if not any(u.hex in leader_hexes or u.hex2 in leader_hexes for u in state.units.values() if u.on_map):
        return  # no unit stands with any leader (the common case, checked in one pass)
    for ld in sorted(state.leaders.values(), key=lambda x: x.id):
        if not ld.on_map or not any(u.side != ld.side for u in state.units_at(ld.hex)):
            continue
        dest = _nearest_friend(state, ld)
        if dest < 0:
            ld.status = "eliminated"
            ld.hex = -1
            events.append(Event("leader_lost", f"{ld.id} is overrun and captured.", {"leader": ld.id}))
        else:
            ld.hex = dest
            events.append(Event("leader_displaced", f"{ld.id} escapes to {grid.hex_id(dest)}.", {"leader": ld.id}))


def check_end(state: State, events: list[Event]) -> None:
    """The battle ends when an army's rout points reach its withdrawal level (003 §10.4, docs §7.4)
    or when a side has no combat unit left on the map."""
    if state.seq.phase == "over":
        return
    for side in ("A", "B"):
        level = state.withdrawal.get(side, 0)
        mine = [u for u in state.units.values() if u.side == side]
        gone = bool(mine) and all(u.status == "eliminated" for u in mine)
        points = state.rout_points[side]
        if "routed-count" in state.options:
            # 001 10.32: routed units still on the map count as if eliminated
            from tactical.rout import rout_value

            points += sum(rout_value(u) for u in mine if u.on_map and u.status == "routed")
        if (level > 0 and points >= level) or gone:
            other_side = "B" if side == "A" else "A"
            state.seq.phase = "over"
            state.winner = other_side
            why = f"its rout points reach {points}" if not gone else "it has no units left"
            events.append(
                Event(
                    "withdrawal",
                    f"Side {side}'s army withdraws ({why}); side {other_side} wins.",
                    {"side": side, "winner": other_side},
                )
            )
            return


# -- the defending side's decisions (docs/rules/tactical.md §8.13) -------------------------------
def _waiting(state: State) -> str:
    p = state.reacting
    assert p is not None
    grid = state.field.grid
    if p.kind == "move":
        return f"{p.action.carry or p.action.unit}'s move into {grid.hex_id(p.at)}"
    if p.kind == "shock":
        return f"the shock on {p.action.defender}"
    if p.kind == "rampage":
        return f"{p.action.elephant}'s rampage"
    return f"{p.action.unit}'s hit and run"


def _refuse_choices(action: Move | Shock | Fire) -> None:
    """The phasing side does not choose the defender's reactions (docs §8.13): they are the
    defender's, taken when the game asks it."""
    if isinstance(action, Move) and action.reactions:
        raise RuleError(
            "The moving side does not choose the enemy's reactions; the enemy decides them as the move reaches them "
            "(003 §7.16, 000 §6.5)."
        )
    if isinstance(action, Shock) and (action.reaction_fire or action.retreat_before_combat or action.reduce_hits):
        raise RuleError(
            "The defender itself chooses reaction fire or a retreat before combat, once the shock comes (003 §8.2-8.3)."
        )
    if isinstance(action, Fire) and action.return_fire:
        raise RuleError("The target of a hit and run decides itself whether to fire back (003 §9.3).")


def _shock(state: State, action: Shock, dice: Dice, events: list[Event]) -> Shock | None:
    """A designated shock (003 §8.3): resolved at once, or held while the defender decides on
    reaction fire or a retreat before combat (003 §8.2-8.3, §9.16; 001 10.37)."""
    _refuse_choices(action)
    combat.take_designation(state, action)
    plan = combat.plan_shock(state, action, designated=True)
    if not combat.shock_reactions(state, action):
        combat.resolve_shock(state, action, dice, events, designated=True)
        combat.trim_designations(state, events)
        return action
    state.seq.phase = "shock"
    state.seq.leader_done = True
    side = plan.defender.side
    state.reacting = Pending("shock", side, action)
    events.append(
        Event(
            "react_wait",
            f"{'+'.join(action.attackers)} close on {action.defender}: side {side} may fire or retreat first.",
            {"defender": action.defender, "side": side},
        )
    )
    return None


def _open_return_fire(state: State, action: Fire, events: list[Event]) -> None:
    """After a hit and run its target may fire back (003 §9.3): the game waits on its side."""
    if action.hit_and_run and combat.may_return_fire(state, action):
        side = state.units[action.target].side
        state.reacting = Pending("fire", side, action)
        events.append(
            Event(
                "react_wait",
                f"{action.target} may fire back at {action.unit} (side {side} decides).",
                {"unit": action.target, "side": side},
            )
        )


def _answer(state: State, action: React | Decline, dice: Dice, events: list[Event]) -> Any:
    """The defender's decision on what ``state.reacting`` holds; returns the action whose
    consequences are now complete (the shock, once it is resolved) for the special rules."""
    p = state.reacting
    assert p is not None
    if p.kind == "move":
        _answer_move(state, p, action, dice, events)
        return action
    if p.kind == "rampage":
        _answer_rampage(state, p, action, dice, events)
        return action
    if p.kind == "shock":
        shock: Shock = p.action
        if isinstance(action, React):
            combat.check_shock_react(state, shock, action)
            shock = dataclasses.replace(
                shock, reaction_fire=action.fire, retreat_before_combat=action.rbc, reduce_hits=action.reduce_hits
            )
        state.reacting = None
        combat.resolve_shock(state, shock, dice, events, designated=True)
        combat.trim_designations(state, events)
        return shock
    fire: Fire = p.action
    if isinstance(action, React):
        if not action.return_fire or action.reaction or action.fire or action.rbc or action.reduce_hits:
            raise RuleError("After a hit and run its target may only fire back ('react return_fire') or decline.")
        state.reacting = None
        combat.return_fire(state, fire, dice, events)
    else:
        state.reacting = None
    return action


def _answer_move(state: State, p: Pending, action: React | Decline, dice: Dice, events: list[Event]) -> None:
    """A reaction (or none) as the enemy move waits in ``p.at``; when no further reaction is
    taken there, leaders left alone beside the mover go (000 §4.31) and the move walks on."""
    grid = state.field.grid
    rest: Move = p.action
    mover = pending_mover(state, p)
    at = grid.hex_id(p.at)
    if isinstance(action, React):
        r = action.reaction
        if r is None or action.fire or action.rbc or action.reduce_hits or action.return_fire:
            raise RuleError(
                f"As {mover.id} moves, a reaction is a facing change or an orderly withdrawal "
                f"('react UNIT@{at} face:F' or 'react UNIT@{at} withdraw:HEX,…')."
            )
        if r.at != at:
            raise RuleError(f"{mover.id} stands in {at}; a reaction now is taken at {at}.")
        who = state.units.get(r.unit) or state.leaders.get(r.unit)
        if who is None or who.side != p.side:
            raise RuleError(f"{r.unit} is not a unit or leader of side {p.side}.")
        if r.unit in p.done:
            raise RuleError(f"{r.unit} has already reacted as {mover.id} reached {at}.")
        if (r.face is None) == (r.withdraw is None):
            raise RuleError(f"The reaction of {r.unit} must either change facing or withdraw.")
        if r.face is not None:
            _reaction_facing(state, mover, p.before, r, dice, events)
        else:
            _withdraw(state, mover, p.before, r, dice, events)
        p = dataclasses.replace(p, done=p.done | {r.unit}, changed=True)
        if mover.on_map and move_reactions(state, mover, p.before, p.done):
            state.reacting = p  # another unit may still react here
            return
    state.reacting = None
    if not mover.on_map:
        state.last_mp = mp_text(p.spent)
        return
    if _after_entry(state, mover, p.before, [], dice, events):
        p = dataclasses.replace(p, changed=True)
    _walk_on(state, mover, rest, parse_path(state, mover, rest.path), dice, events, p)


# -- withdrawal before a rampaging elephant (000 §6.51; docs/rules/tactical.md §8.7) ---------------
def rampage_reactions(state: State, elephant: Unit, side: str, done: frozenset[str]) -> list[Reaction]:
    """The withdrawals ``side``'s units within two hexes of a rampaging ``elephant`` may make
    before its rolls (000 §6.51 — friend or foe of the elephant): the orderly-withdrawal rules
    (§6.51-6.55) with the elephant as the unit withdrawn from; no mounted archer's volley (at a
    friendly elephant it would make no sense, and the rule gives it only against a mover)."""
    grid = state.field.grid
    at = grid.hex_id(elephant.hex)
    out: list[Reaction] = []
    for u in sorted(state.units.values(), key=lambda x: x.id):
        if u.side != side or not u.on_map or u is elephant or u.type == "EL" or u.id in done:
            continue
        if _min_distance(state, u.hexes(), elephant.hexes()) > 2:
            continue
        out.extend(r for r in _withdrawals(state, elephant, u, at) if not r.fire)
    return out


def rampage_may_wait(state: State, elephant: Unit) -> bool:
    """Whether any unit may withdraw before this rampage (the engine then queues it)."""
    return any(rampage_reactions(state, elephant, side, frozenset()) for side in (other(elephant.side), elephant.side))


def _rampage_pending(state: State, wait: RampageWait, done: frozenset[str]) -> Pending | None:
    """The next side that may still withdraw before ``wait``'s rampage: the elephant's enemy
    first, then its own side (units about to be trampled by a friendly elephant, 000 §6.51)."""
    elephant = state.units[wait.elephant]
    for side in (other(elephant.side), elephant.side):
        if f"side:{side}" not in done and rampage_reactions(state, elephant, side, done):
            return Pending("rampage", side, wait, at=elephant.hex, done=done)
    return None


def _open_rampages(state: State, dice: Dice, events: list[Event]) -> None:
    """Roll the queued rampages in order, stopping at the first that a side may answer by
    withdrawing (``State.reacting``); a shock a rampage's rolls broke up is called off."""
    while state.reacting is None and state.rampages:
        wait = state.rampages[0]
        elephant = state.units[wait.elephant]
        if elephant.on_map:
            p = _rampage_pending(state, wait, frozenset())
            if p is not None:
                state.reacting = p
                events.append(
                    Event(
                        "react_wait",
                        f"Side {p.side} may withdraw units before {wait.elephant}'s rampage (000 §6.51).",
                        {"unit": wait.elephant, "side": p.side},
                    )
                )
                return
        _roll_first_rampage(state, dice, events)


def _roll_first_rampage(state: State, dice: Dice, events: list[Event]) -> None:
    """The first queued rampage is rolled now (003 §9.14) for the units still near it."""
    wait = state.rampages.pop(0)
    elephant = state.units[wait.elephant]
    if elephant.on_map:
        combat.roll_rampage(state, elephant, state.units[wait.cause], dice, events)
        combat.refresh_engaged(state)
        if state.designations and not state.designating:
            combat.trim_designations(state, events)


def _answer_rampage(state: State, p: Pending, action: React | Decline, dice: Dice, events: list[Event]) -> None:
    """A withdrawal before the rampage (or the side's refusal); the rampage is rolled once
    neither side may or will withdraw any more."""
    wait: RampageWait = p.action
    elephant = state.units[wait.elephant]
    at = state.field.grid.hex_id(p.at)
    done = p.done
    if isinstance(action, React):
        r = action.reaction
        if r is None or r.withdraw is None or r.face is not None or action.fire or action.rbc or action.return_fire:
            raise RuleError(
                f"Before {wait.elephant}'s rampage a unit may only withdraw "
                f"('react UNIT@{at} withdraw:HEX,…', 000 §6.51)."
            )
        if r.fire:
            raise RuleError("A unit withdrawing before a rampage does not fire (000 §6.51, §6.55).")
        if r.at != at:
            raise RuleError(f"{wait.elephant} rampages in {at}; a withdrawal before it is taken at {at}.")
        who = state.units.get(r.unit)
        if who is None or who.side != p.side:
            raise RuleError(f"{r.unit} is not a unit of side {p.side}.")
        if r.unit in done:
            raise RuleError(f"{r.unit} has already withdrawn before {wait.elephant}'s rampage.")
        if _min_distance(state, who.hexes(), elephant.hexes()) > 2:
            raise RuleError(f"{r.unit} is not within two hexes of {wait.elephant} (000 §6.51).")
        _withdraw(state, elephant, (), r, dice, events, rampage=True)
        done = done | {r.unit}
        if rampage_reactions(state, elephant, p.side, done):
            state.reacting = dataclasses.replace(p, done=done)  # another unit may still withdraw
            return
    done = done | {f"side:{p.side}"}
    state.reacting = _rampage_pending(state, wait, done)
    if state.reacting is None:
        _roll_first_rampage(state, dice, events)


def pending_mover(state: State, p: Pending) -> Unit:
    """The unit whose move waits in ``p`` (a leader's move waits only for the unit he takes)."""
    rest: Move = p.action
    return state.units[rest.carry or rest.unit]


def move_reactions(state: State, mover: Unit, before: tuple[int, ...], done: frozenset[str]) -> list[Reaction]:
    """Every reaction the mover's enemy may take now that ``mover`` entered its hex, coming from
    ``before`` (units in ``done`` already reacted here): a reaction facing change by a unit the
    mover has just come next to (003 §7.16, 000 §7.15), an orderly withdrawal by a unit or leader
    it has just come within two hexes of (000 §6.5, §4.31; 003 §6.7), mounted archers firing as
    they go (000 §6.55).  One withdrawal per hex it may end in, by its cheapest path."""
    grid = state.field.grid
    at = grid.hex_id(mover.hex)
    mine = mover.hexes()
    out: list[Reaction] = []
    friends: list[Unit] | None = None
    centre = mover.hex
    for u in sorted(state.units.values(), key=lambda x: x.id):
        if u.side == mover.side or not u.on_map or u.id in done or grid.distance(u.hex, centre) > 4:
            continue  # (a double-sized unit's second hex is next to its first: 4 bounds both)
        now = _min_distance(state, u.hexes(), mine)
        if now > 2:
            continue
        earlier = _min_distance(state, u.hexes(), before)
        turns = u.status == "full" and not u.double and not u.column and u.id not in state.reacted
        if now == 1 and earlier != 1 and turns:
            if friends is None:
                friends = [v for v in state.units.values() if v.on_map and v.side == mover.side and v is not mover]
            if not any(_min_distance(state, u.hexes(), v.hexes()) == 1 for v in friends):
                for f in ((u.facing + 1) % 6, (u.facing + 5) % 6):
                    if not _traps_passing_mover(state, mover, u, f):
                        out.append(Reaction(u.id, at, face=FACING_CLOCK[f]))
        if earlier > 2:
            out.extend(_withdrawals(state, mover, u, at))
    for ld in sorted(state.leaders.values(), key=lambda x: x.id):
        if ld.side == mover.side or not ld.on_map or ld.id in done or grid.distance(ld.hex, centre) > 3:
            continue
        if _withdrawal_instant(state, ld, mover, before):
            out.extend(_withdrawals(state, mover, ld, at))
    return out


def _withdrawals(state: State, mover: Unit, who: Unit | Leader, at: str) -> list[Reaction]:
    """The orderly withdrawals open to ``who`` (000 §6.51-6.55): away from the mover at every
    step, within the difference in MA, one path per hex it may end in (the cheapest)."""
    my_ma = who.ma if isinstance(who, Leader) else movement_allowance(who)
    their_ma = movement_allowance(mover)
    if my_ma <= their_ma:
        return []
    costs = MoveCosts(state, who)
    try:
        _withdrawer_check(state, who, False, costs)
    except RuleError:
        return []
    grid = state.field.grid
    budget = (my_ma - their_ma) * HALF
    start = who.hex
    frontier: dict[int, tuple[int, int, tuple[str, ...]]] = {
        start: (0, _min_distance(state, (start,), mover.hexes()), ())
    }
    ends: dict[int, tuple[str, ...]] = {}
    while frontier:
        nxt: dict[int, tuple[int, int, tuple[str, ...]]] = {}
        for cur, (spent, dist, path) in sorted(frontier.items()):
            for d in range(6):
                c, nd, why = _withdraw_step(state, costs, mover, cur, d, dist)
                if why is not None or spent + c > budget:
                    continue
                j = grid.nbr[cur * 6 + d]
                if j not in nxt or spent + c < nxt[j][0]:
                    nxt[j] = (spent + c, nd, (*path, grid.hex_id(j)))
        for j, (_c, _nd, path) in nxt.items():
            if isinstance(who, Leader) or costs.may_end(j * 6 + who.facing):
                ends.setdefault(j, path)
        frontier = nxt
    archer = isinstance(who, Unit) and who.missile == "MA" and who.status == "full"
    out: list[Reaction] = []
    for j in sorted(ends):
        out.append(Reaction(who.id, at, withdraw=ends[j]))
        if archer:
            out.append(Reaction(who.id, at, withdraw=ends[j], fire=True))
    return out


def apply_with_choices(state: State, action: Action | Any, dice: Dice) -> tuple[State, list[Event]]:
    """Play the phasing side's ``action`` with the defender's choices written on it (a move's
    ``reactions``, a shock's ``reaction_fire`` / ``rbc`` / ``reduce_hits``, a hit and run's
    ``return_fire``) as the defender's own answers when the game asks for them; any other
    decision point is declined (``cases/FORMAT.md``: a choice not given is declined).  For the
    case runner, the odds and tests; a choice that cannot be taken refuses the whole action."""
    given: list[Reaction] = []
    answer: React | None = None
    if isinstance(action, Move) and action.reactions:
        _check_written_reactions(state, action)
        given = list(action.reactions)
        action = dataclasses.replace(action, reactions=())
    elif isinstance(action, Shock) and (action.reaction_fire or action.retreat_before_combat or action.reduce_hits):
        answer = React(fire=action.reaction_fire, rbc=action.retreat_before_combat, reduce_hits=action.reduce_hits)
        action = dataclasses.replace(action, reaction_fire=None, retreat_before_combat=None, reduce_hits=False)
        combat.check_shock_react(state, action, answer)
    elif isinstance(action, Fire) and action.return_fire:
        combat.check_return_fire(state, action)
        answer = React(return_fire=True)
        action = dataclasses.replace(action, return_fire=False)
    new, events = apply(state, action, dice)
    grid = state.field.grid
    while new.reacting is not None:
        p = new.reacting
        reply: React | Decline = Decline()
        if p.kind == "move":
            r = next((r for r in given if r.at == grid.hex_id(p.at) and r.unit not in p.done), None)
            if r is not None:
                given.remove(r)
                reply = React(reaction=r)
        elif answer is not None:
            reply, answer = answer, None
        new, more = apply(new, reply, dice)
        events += more
    if given:
        r = given[0]
        raise RuleError(f"{r.unit} cannot react at {r.at}: the mover does not reach it in a way that allows it.")
    if answer is not None:
        raise RuleError("The defender has no such choice here (003 §8.2-8.3, §9.3).")
    return new, events


def _check_written_reactions(state: State, action: Move) -> None:
    """A move's written reactions, walked without dice (every reaction assumed to succeed)."""
    mover = _mover(state, action.unit)
    reactions = list(action.reactions)
    if action.carry is not None:
        mover = _mover(state, action.carry)
    _check_reactions(state, mover, reactions)
    trial = state.copy()
    t_mover = _mover(trial, mover.id)
    tokens = parse_path(trial, t_mover, action.path)
    if isinstance(t_mover, Unit):
        check_may_move(trial, t_mover)
    _walk(trial, t_mover, tokens, reactions, None, [])


# -- movement -------------------------------------------------------------------------------
def parse_path(state: State, mover: Unit | Leader, path: tuple[str, ...]) -> list[Token]:
    """Path notation to tokens: ``CCRR`` a hex entered, ``face:H`` a facing change (clock hour)."""
    grid = state.field.grid
    tokens: list[Token] = []
    for raw in path:
        if not isinstance(raw, str):
            raise RuleError(f"{raw!r} is not a hex or a facing change.")
        if raw.startswith("face:"):
            hour = raw[5:]
            column = isinstance(mover, Unit) and mover.column
            table = CLOCK_SIDE if column else CLOCK_FACING
            if not hour.isdigit() or int(hour) not in table:
                raise RuleError(f"{raw} is not a facing: use face:12, 2, 4, 6, 8 or 10.")
            tokens.append(("face", table[int(hour)]))
        elif raw.startswith(("column:", "line:")):
            tokens.append(("formation", _formation_token(raw)))
        else:
            try:
                tokens.append(("hex", grid.index(raw)))
            except ValueError as exc:
                raise RuleError(f"{exc}.") from None
    return tokens


def _formation_token(raw: str) -> int:
    kind, _, hour = raw.partition(":")
    if not hour.isdigit():
        raise RuleError(f"{raw} is not a formation change.")
    h = int(hour)
    if kind == "column":
        if h not in CLOCK_SIDE:
            raise RuleError(f"{raw}: a column faces a hexside: 1, 3, 5, 7, 9 or 11 (000 §6.46).")
        return 6 + CLOCK_SIDE[h]
    if h not in CLOCK_FACING:
        raise RuleError(f"{raw}: a line faces a vertex: 12, 2, 4, 6, 8 or 10.")
    return CLOCK_FACING[h]


def _mover(state: State, uid: str) -> Unit | Leader:
    if uid in state.units:
        return state.units[uid]
    if uid in state.leaders:
        return state.leaders[uid]
    raise RuleError(f"There is no unit or leader {uid}.")


def check_may_move(state: State, mover: Unit | Leader) -> str | None:
    """Whether the mover may start a move now (003 §4.2, §6.1, §6.4, §10.25; 000 §6.12, §6.14);
    returns the order group a unit joins (``tactical.command``)."""
    seq = state.seq
    if seq.phase != "move":
        raise RuleError("Units move only in the Move/Fire segment of an activation (003 §3.1).")
    if isinstance(mover, Leader):
        if not mover.on_map:
            raise RuleError(f"{mover.id} is no longer on the field.")
        if seq.leader != mover.id:
            raise RuleError(f"Only the activated leader may move, and {mover.id} is not activated (003 §6.1).")
        if seq.leader_done or mover.id in state.moved:
            raise RuleError(f"{mover.id} moves before his units act, and only once (003 §4.2).")
        return None
    if not mover.on_map:
        raise RuleError(f"{mover.id} is no longer on the map.")
    if mover.status == "routed":
        raise RuleError(f"{mover.id} is routed and moves only by rout movement (003 §10.25).")
    if mover.engaged:
        raise RuleError(f"{mover.id} is engaged and may not move (003 §6.3-6.4).")
    if mover.id in state.moved or mover.id in state.fought:
        raise RuleError(f"{mover.id} has already moved in this activation (000 §6.12).")
    # -- hook: a scenario special rule may hold the unit in place (tactical/special.py) --
    held = special.refuse_move(state, mover)
    if held is not None:
        raise RuleError(held)
    return check_command(state, mover)


def _move(state: State, action: Move, dice: Dice, events: list[Event]) -> None:
    _refuse_choices(action)
    if action.carry is not None:
        _move_with_leader(state, action, dice, events)
        return
    mover = _mover(state, action.unit)
    key = check_may_move(state, mover)
    tokens = parse_path(state, mover, action.path)
    if not tokens:
        raise RuleError("A move needs at least one hex or facing change.")
    # dry run: refuse anything illegal before a die is rolled
    trial = state.copy()
    _walk(trial, _mover(trial, mover.id), tokens, [], None, [])
    if isinstance(mover, Unit):
        if key is not None and state.seq.order is None:
            state.seq.order = key
        state.seq.leader_done = True
    state.moved.add(mover.id)
    _walk_on(state, mover, action, tokens, dice, events, None)


def _move_with_leader(state: State, action: Move, dice: Dice, events: list[Event]) -> None:
    """003 §4.2 / 000 §4.2 exception: the activated leader moves with a combat unit stacked with
    him.  The unit's path must be legal for the unit (its facing and costs) and the same hexes
    within the leader's MP; the unit joins the leader's order group."""
    leader = state.leaders.get(action.unit)
    if leader is None:
        raise RuleError(f"{action.unit} is not a leader; only a leader takes a unit with him.")
    check_may_move(state, leader)
    unit = state.units.get(action.carry or "")
    if unit is None or unit.side != leader.side or not unit.on_map or leader.hex not in unit.hexes():
        raise RuleError(f"{action.carry} is not a unit stacked with {leader.id} (003 §4.2).")
    key = check_may_move(state, unit)
    tokens = parse_path(state, unit, action.path)
    if not tokens:
        raise RuleError("A move needs at least one hex or facing change.")
    trial = state.copy()
    _walk(trial, trial.units[unit.id], tokens, [], None, [])
    # the leader walks the same hexes, the unit beside him costing him nothing
    lead_trial = state.copy()
    lead_trial.units[unit.id].hex = -1
    lead_trial.units[unit.id].hex2 = -1
    lead_tokens = [t for t in tokens if t[0] == "hex"]
    if lead_tokens:
        _walk(lead_trial, lead_trial.leaders[leader.id], lead_tokens, [], None, [])
    if key is not None and state.seq.order is None:
        state.seq.order = key
    state.seq.leader_done = True
    state.moved.update((unit.id, leader.id))
    _walk_on(state, unit, action, tokens, dice, events, None)


def _walk_on(
    state: State,
    mover: Unit | Leader,
    action: Move,
    tokens: list[Token],
    dice: Dice,
    events: list[Event],
    resume: Pending | None,
) -> None:
    """Walk ``tokens`` for real; halt where the defender may react (``State.reacting``), or
    finish the move (the leader carrying a unit goes with it, 003 §4.2)."""
    spent = _walk(state, mover, tokens, [], dice, events, halt=action, resume=resume)
    if action.carry is not None:
        leader = state.leaders[action.unit]
        if mover.on_map:
            leader.hex = mover.hex
        if state.reacting is None:
            events.append(Event("move", f"{leader.id} moves with {mover.id}.", {"unit": leader.id}))
    if state.reacting is None:
        state.last_mp = spent


def _check_reactions(state: State, mover: Unit | Leader, reactions: list[Reaction]) -> None:
    grid = state.field.grid
    seen: set[tuple[str, str]] = set()
    for r in reactions:
        who = state.units.get(r.unit) or state.leaders.get(r.unit)
        if who is None:
            raise RuleError(f"There is no unit or leader {r.unit} to react.")
        if who.side == mover.side:
            raise RuleError(f"{r.unit} is on the moving side and cannot react.")
        try:
            grid.index(r.at)
        except ValueError as exc:
            raise RuleError(f"reaction of {r.unit}: {exc}.") from None
        if (r.face is None) == (r.withdraw is None):
            raise RuleError(f"The reaction of {r.unit} must either change facing or withdraw.")
        if (r.unit, r.at) in seen:
            raise RuleError(f"{r.unit} is given two reactions at {r.at}.")
        seen.add((r.unit, r.at))
        if isinstance(mover, Leader):
            raise RuleError("Nobody reacts to a leader's move.")


def _walk(
    state: State,
    mover: Unit | Leader,
    tokens: list[Token],
    reactions: list[Reaction],
    dice: Dice | None,
    events: list[Event],
    *,
    halt: Move | None = None,
    resume: Pending | None = None,
) -> int | float:
    """Play the path one step at a time with the live cost model; return the MP spent.

    ``reactions``: reactions given in advance (a dry run checking a case's written choices).
    ``halt``: the move being played for real — at the first hex where the defender may react
    the walk stops and ``state.reacting`` records the rest of ``halt``'s path.  ``resume``:
    that record, when the walk goes on after the defender's decision."""
    spent = 0
    pending = list(reactions)
    first = True
    reacted_any = False
    origin = _node(mover)
    start_hex = mover.hex
    left_start = False
    if resume is not None:
        spent, first, reacted_any, origin = resume.spent, False, resume.changed, -1
        start_hex, left_start = resume.start, True
    raw_path = halt.path if halt is not None else ()
    # the cost model is rebuilt only when something besides the mover's own step changed the
    # position (a reaction, a withdrawal, a threatened leader, a roll): the mover is never its
    # own friend or enemy, so its steps alone leave every other rule where it was
    mc: MoveCosts | None = None
    seen = -1
    for step, tok in enumerate(tokens):
        if tok[0] == "formation":
            if not first:
                raise RuleError("A phalanx changes formation only as it is given its order (000 §6.46).")
            _change_formation(state, mover, tok[1])
            origin = _node(mover)
            first = False
            mc = None
            continue
        first = False
        if mc is None or seen != len(events):
            mc = MoveCosts(state, mover, origin, start_hex)
            seen = len(events)
        else:
            mc.start = origin
        node = _node(mover)
        before = (mover.hex,) if isinstance(mover, Leader) else mover.hexes()
        found = _step(state, mc, mover, node, tok, spent, reacted_any, events)
        if found is None:
            break
        nxt, cost = found
        spent += cost
        _place(state, mover, nxt)
        if tok[0] == "hex":
            origin = -1  # only the hex the move began in is exempt from the ZOC stop
            if not left_start and isinstance(mover, Unit):
                left_start = True
                if mc.leave_check and dice is not None:
                    _leaving_check(state, mover, dice, events)
        if isinstance(mover, Unit) and tok[0] == "face" and not mover.double:
            _rough_facing_check(state, mover, dice, events)
        if tok[0] == "hex":
            if isinstance(mover, Unit):
                if halt is not None and dice is not None and move_reactions(state, mover, before, frozenset()):
                    # the defender may react here (003 §7.16, 000 §6.5): the move waits on it
                    rest = dataclasses.replace(halt, path=tuple(raw_path[step + 1 :]), reactions=())
                    _wait_for_reaction(state, mover, rest, spent, start_hex, before, reacted_any, events)
                    return spent
                if _after_entry(state, mover, before, pending, dice, events):
                    reacted_any = True
                    mc = None
            else:
                state_events_leader_moved(state, mover, events)
    if pending:
        r = pending[0]
        raise RuleError(f"{r.unit} cannot react at {r.at}: the mover does not reach it in a way that allows it.")
    return _end_walk(state, mover, mc if seen == len(events) else None, spent, events)


def _step(
    state: State,
    mc: MoveCosts,
    mover: Unit | Leader,
    node: int,
    tok: Token,
    spent: int,
    reacted_any: bool,
    events: list[Event],
) -> tuple[int, int] | None:
    """The next step of a walk, ``tok`` from ``node``: its node and its cost (half MP), refused
    when the rules do not offer it or the MP run out; None when an enemy's reaction stopped
    the move (the walk ends there)."""
    options = {t: (n, c) for n, c, t in mc.successors(node)}
    if tok not in options:
        if not reacted_any:
            raise RuleError(_why_not(state, mc, mover, node, tok))
        events.append(
            Event("move_stopped", f"{mover.id} can go no further after the enemy's reaction.", {"unit": mover.id})
        )
        return None
    nxt, cost = options[tok]
    if spent + cost > mc.ma2:
        raise RuleError(
            f"{mover.id} has {mp_text(mc.ma2)} MP and this path needs more ({mp_text(spent + cost)} so far)."
        )
    return nxt, cost


def _wait_for_reaction(
    state: State,
    mover: Unit,
    rest: Move,
    spent: int,
    start_hex: int,
    before: tuple[int, ...],
    reacted_any: bool,
    events: list[Event],
) -> None:
    """The move stops where the defender may react (003 §7.16, 000 §6.5): ``state.reacting``
    records the rest of it (``rest``) until the defender decides."""
    grid = state.field.grid
    state.reacting = Pending(
        "move", other(mover.side), rest, mover.hex, spent, start_hex, before, frozenset(), reacted_any
    )
    events.append(
        Event(
            "react_wait",
            f"{mover.id} reaches {grid.hex_id(mover.hex)}: side {other(mover.side)} may react.",
            {"unit": mover.id, "hex": grid.hex_id(mover.hex)},
        )
    )


def _end_walk(state: State, mover: Unit | Leader, mc: MoveCosts | None, spent: int, events: list[Event]) -> int | float:
    """The end of a move: a unit may not end it stacked where the rules forbid (003 §6.9,
    000 §6.6); the move's event; the MP spent.  ``mc``: the walk's cost model if still current."""
    grid = state.field.grid
    if isinstance(mover, Unit) and mover.on_map:
        if mc is None:
            mc = MoveCosts(state, mover)
        if not mc.may_end(_node(mover)):
            raise RuleError(
                f"{mover.id} may not end its move stacked in {grid.hex_id(mover.hex)} (003 §6.9; 000 §6.6)."
            )
    if isinstance(mover, Unit) and mover.on_map:
        where = grid.hex_id(mover.hex)
        text = f"{mover.id} moves to {where} facing {_clock(mover)} ({mp_text(spent)} MP)."
    else:
        where = grid.hex_id(mover.hex) if mover.hex >= 0 else "-"
        text = f"{mover.id} moves to {where} ({mp_text(spent)} MP)."
    events.append(Event("move", text, {"unit": mover.id, "hex": where, "mp": mp_text(spent)}))
    return mp_text(spent)


def _leaving_check(state: State, unit: Unit, dice: Dice, events: list[Event]) -> None:
    """001 7.23: infantry leaving the front of an enemy with its very MA roll; over the TQ, the
    difference in hits (the Simple rules' missile hits)."""
    roll = dice.d10(f"{unit.id} leaves an enemy front")
    if roll > unit.tq:
        combat.add_hits(state, unit, roll - unit.tq, events, "leaving an enemy front (001 7.23)")


def state_events_leader_moved(state: State, leader: Leader, events: list[Event]) -> None:
    """Nothing happens to a moving leader on entry; kept as the single place to add such rules."""
    del state, leader, events


def _clock(unit: Unit) -> int:
    return (2 * unit.facing + 1) if unit.column else FACING_CLOCK[unit.facing]


def _node(mover: Unit | Leader) -> int:
    if isinstance(mover, Leader):
        return mover.hex * 6
    return mover.hex * 6 + mover.facing


def _place(state: State, mover: Unit | Leader, node: int) -> None:
    i, f = divmod(node, 6)
    if isinstance(mover, Leader):
        mover.hex = i
        return
    grid = state.field.grid
    mover.hex = i
    mover.facing = f
    if mover.column:
        mover.hex2 = grid.nbr[i * 6 + (f + 3) % 6]
    elif mover.hex2 >= 0:
        mover.hex2 = grid.nbr[i * 6 + (f + 1) % 6]


def _why_not(state: State, mc: MoveCosts, mover: Unit | Leader, node: int, tok: Token) -> str:
    """The player's sentence for a step the generator does not offer."""
    grid = state.field.grid
    name = mover.id
    if mc.stops(node):
        return f"{name} entered the front of an enemy unit with an equal or higher MA and must stop (003 §7.2)."
    i, f = divmod(node, 6)
    if tok[0] == "face":
        if isinstance(mover, Leader):
            return "Leaders have no facing (000 §6.14)."
        if mover.column:
            return f"{name} is in column and may not change facing (000 §6.47)."
        if i in mc.zoc_any and not mover.double:
            return f"{name} is in an enemy unit's front and may not change facing (000 §7.12)."
        if mover.double:
            return (
                f"{name} is a phalanx: it turns only by pivoting one half forward in clear terrain, "
                "or by reversing face (000 §6.43-6.45)."
            )
        return f"{name} may not turn to face {FACING_CLOCK[tok[1]]} here."
    j = tok[1]
    target = grid.hex_id(j)
    if isinstance(mover, Unit) and not mover.double and not mover.column:
        dirs = frontal_dirs(f)
        if grid.direction(i, j) not in dirs:
            return (
                f"{target} is not one of {name}'s frontal hexes; a unit enters only the hexes to its front (000 §6.32)."
            )
    elif isinstance(mover, Leader) and grid.direction(i, j) < 0:
        return f"{target} is not next to {grid.hex_id(i)}."
    if j in mc.enemy or j in mc.enemy_leaders:
        return f"{target} holds an enemy unit, which no unit may enter (000 §6.62)."
    if j in mc.no_entry:
        return f"{name} left the front of an enemy as fast as itself and may not move next to an enemy (001 7.23)."
    if isinstance(mover, Unit) and mover.cavalry and j in mc.el_adj:
        return "Cavalry may not move next to an enemy elephant (003 §9.15)."
    d = grid.direction(i, j)
    if d >= 0 and mc.static[i * 6 + d] >= NO:
        return f"{name} may not enter {target}: the terrain is prohibited to it (000 §6.23; 002)."
    return f"{name} may not enter {target} from {grid.hex_id(i)}."


def _rough_facing_check(state: State, unit: Unit, dice: Dice | None, events: list[Event]) -> None:
    """000 §7.13: a unit other than skirmishers that turns in a rough hex is disordered on a roll over its TQ."""
    if unit.skirmisher or state.field.terrain[unit.hex] != _ROUGH or dice is None:
        return
    roll = dice.d10(f"{unit.id} turns in rough terrain")
    if roll > unit.tq and unit.status == "full":
        unit.status = "disordered"
        events.append(
            Event(
                "disorder",
                f"{unit.id} turns in rough terrain, rolls {roll} over TQ {unit.tq}: disordered.",
                {"unit": unit.id, "roll": roll},
            )
        )


def _change_formation(state: State, mover: Unit | Leader, code: int) -> None:
    """000 §6.46: a phalanx not routed and not in an enemy front forms column (MA 6, faces a hexside)
    or, given a new order, forms line again; no MP."""
    if not isinstance(mover, Unit) or mover.type != "PH" or not mover.double:
        raise RuleError("Only a double-sized phalanx changes between line and column (000 §6.46).")
    mc = MoveCosts(state, mover)
    if any(h in mc.zoc_any for h in mover.hexes()):
        raise RuleError(f"{mover.id} is in an enemy unit's front and may not change formation (000 §6.46).")
    grid = state.field.grid
    a, b = mover.hex, mover.hex2
    if code >= 6:  # to column, facing hexside d: the front is whichever half lies that way
        if mover.column:
            raise RuleError(f"{mover.id} is already in column.")
        d = code - 6
        if grid.nbr[b * 6 + d] >= 0 and grid.direction(a, b) == d:
            front, rear = b, a
        elif grid.direction(b, a) == d:
            front, rear = a, b
        else:
            raise RuleError(f"{mover.id} can form column only along its line, facing {_axis(grid.direction(a, b))}.")
        mover.column, mover.hex, mover.hex2, mover.facing = True, front, rear, d
    else:
        if not mover.column:
            raise RuleError(f"{mover.id} is already in line.")
        f = code
        front, rear = mover.hex, mover.hex2
        c = mover.facing
        if f == (c - 1) % 6:
            anchor, second = rear, front
        elif f == (c + 2) % 6:
            anchor, second = front, rear
        else:
            raise RuleError(
                f"{mover.id} can form line facing {FACING_CLOCK[(c - 1) % 6]} or {FACING_CLOCK[(c + 2) % 6]}."
            )
        mover.column, mover.hex, mover.hex2, mover.facing = False, anchor, second, f


def _axis(d: int) -> str:
    return f"{2 * d + 1} or {2 * ((d + 3) % 6) + 1}"


# -- what an entry sets off: reactions, withdrawals, threatened leaders ------------------------
def _after_entry(
    state: State, mover: Unit, before: tuple[int, ...], pending: list[Reaction], dice: Dice | None, events: list[Event]
) -> bool:
    """Reactions the opponent asked for at this hex, then leaders left alone next to the mover."""
    grid = state.field.grid
    here = grid.hex_id(mover.hex)
    did = False
    for r in [r for r in pending if r.at == here]:
        pending.remove(r)
        if r.face is not None:
            _reaction_facing(state, mover, before, r, dice, events)
        else:
            _withdraw(state, mover, before, r, dice, events)
        did = True
    for ld in sorted(state.leaders.values(), key=lambda x: x.id):
        if ld.side == mover.side or not ld.on_map:
            continue
        if any(grid.distance(ld.hex, h) == 1 for h in mover.hexes()) and not _with_friendly_unit(state, ld):
            _threatened_leader(state, mover, ld, dice, events)
            did = True
    return did


def _with_friendly_unit(state: State, ld: Leader) -> bool:
    return any(u.side == ld.side for u in state.units_at(ld.hex))


def _min_distance(state: State, a: tuple[int, ...], b: tuple[int, ...]) -> int:
    grid = state.field.grid
    return min(grid.distance(x, y) for x in a for y in b)


def _reaction_facing(
    state: State, mover: Unit, before: tuple[int, ...], r: Reaction, dice: Dice | None, events: list[Event]
) -> None:
    """003 §7.16 / 000 §7.15: a full-strength single-hex unit tries to turn one vertex when an enemy
    moves next to it; a roll over its TQ fails and disorders it; cavalry turning to face infantry
    need not roll."""
    unit = state.units.get(r.unit)
    if unit is None or not unit.on_map:
        raise RuleError(f"{r.unit} is not a unit on the map and cannot change facing in reaction.")
    if unit.double or unit.column:
        raise RuleError(f"{r.unit} is double-sized and may not change facing in reaction (003 §7.16).")
    if unit.status != "full":
        raise RuleError(f"{r.unit} is not in full order and may not change facing in reaction (003 §7.16).")
    if r.unit in state.reacted:
        raise RuleError(f"{r.unit} has already changed facing in reaction this phase (003 §7.16).")
    if _min_distance(state, unit.hexes(), mover.hexes()) != 1 or _min_distance(state, unit.hexes(), before) == 1:
        raise RuleError(f"{r.unit} may change facing in reaction only as the enemy moves next to it (003 §7.16).")
    for u in state.units.values():
        if u.on_map and u.side == mover.side and u is not mover and _min_distance(state, unit.hexes(), u.hexes()) == 1:
            raise RuleError(f"{r.unit} is already next to another enemy unit and may not react (003 §7.16, docs §4.7).")
    to = r.face if r.face is not None else -1
    if to not in CLOCK_FACING or (CLOCK_FACING[to] - unit.facing) % 6 not in (1, 5):
        raise RuleError(f"A reaction facing change turns one vertex; {r.unit} cannot turn to {to} (003 §7.16).")
    if _traps_passing_mover(state, mover, unit, CLOCK_FACING[to]):
        raise RuleError(
            f"{mover.id} is passing through a friend's hex: {r.unit} may not turn to bring it into its front there "
            "(docs/rules/tactical.md §8.13)."
        )
    state.reacted.add(r.unit)
    if unit.cavalry and not mover.mounted:
        unit.facing = CLOCK_FACING[to]
        events.append(
            Event("react", f"{r.unit} (cavalry) turns to face {to} as infantry comes up (003 §7.16).", {"unit": r.unit})
        )
        return
    if dice is None:
        unit.facing = CLOCK_FACING[to]
        return
    roll = dice.d10(f"{r.unit} reaction facing change")
    if roll <= unit.tq:
        unit.facing = CLOCK_FACING[to]
        events.append(
            Event(
                "react",
                f"{r.unit} rolls {roll} (TQ {unit.tq}) and turns to face {to}.",
                {"unit": r.unit, "roll": roll, "success": True},
            )
        )
    else:
        unit.status = "disordered"
        events.append(
            Event(
                "react",
                f"{r.unit} rolls {roll} over TQ {unit.tq}: it fails to turn and is disordered.",
                {"unit": r.unit, "roll": roll, "success": False},
            )
        )


def _traps_passing_mover(state: State, mover: Unit, unit: Unit, facing: int) -> bool:
    """Whether turning ``unit`` to ``facing`` would put a mover that is passing through a friend's
    hex (003 §6.92) into its front, where the mover could neither stop (stacking) nor go on
    (003 §7.2).  **Interpretation** (docs §8.13): such a turn is not allowed there."""
    if not any(u is not mover and u.side == mover.side for h in mover.hexes() for u in state.units_at(h)):
        return False
    probe = Unit(unit.id, unit.side, unit.type, unit.size, unit.tq, unit.ma, unit.hex, facing, unit.hex2)
    if not set(frontal_hexes(state.field.grid, probe)) & set(mover.hexes()):
        return False
    return not MoveCosts(state, mover).may_end(_node(mover))


def _approach(state: State, unit: Unit, mover: Unit) -> str:
    """Where the enemy comes from: front, flank or rear (docs §4.8)."""
    grid = state.field.grid
    base = _min_distance(state, (unit.hex,), mover.hexes())
    fa, fb = frontal_dirs(unit.facing)
    ra, rb = rear_dirs(unit.facing)

    def closer(d: int) -> bool:
        j = grid.nbr[unit.hex * 6 + d]
        return j >= 0 and _min_distance(state, (j,), mover.hexes()) < base

    if closer(fa) or closer(fb):
        return "front"
    if closer(ra) or closer(rb):
        return "rear"
    return "flank"


def _withdraw(
    state: State,
    mover: Unit,
    before: tuple[int, ...],
    r: Reaction,
    dice: Dice | None,
    events: list[Event],
    *,
    rampage: bool = False,
) -> None:
    """Orderly withdrawal (000 §6.5, 003 §6.7): a unit (or leader) with a higher MA than an enemy
    coming within two hexes — or than an elephant rampaging within two hexes (``rampage``,
    000 §6.51) — steps back up to the difference in MP, keeping its facing."""
    who, cur = _withdraw_check(state, mover, before, r, rampage=rampage)
    grid = state.field.grid
    who.hex = cur
    events.append(Event("withdraw", f"{r.unit} withdraws to {grid.hex_id(cur)}.", {"unit": r.unit}))
    if isinstance(who, Unit):
        _withdrawal_penalty(state, who, mover, dice, events)
        if r.fire and dice is not None and who.status == "full":
            combat.fire_as(state, who, mover, 2, dice, events)  # 000 §6.55: always at two hexes


def _withdraw_check(
    state: State, mover: Unit, before: tuple[int, ...], r: Reaction, *, rampage: bool = False
) -> tuple[Unit | Leader, int]:
    """Whether the withdrawal ``r`` is allowed now (000 §6.51-6.56); the withdrawer and the hex
    it ends in.  Reads the position only."""
    grid = state.field.grid
    who: Unit | Leader | None = state.units.get(r.unit) or state.leaders.get(r.unit)
    assert who is not None
    if not who.on_map:
        raise RuleError(f"{r.unit} is not on the map.")
    mine = (who.hex,) if isinstance(who, Leader) else who.hexes()
    now = _min_distance(state, mine, mover.hexes())
    if not rampage and not _withdrawal_instant(state, who, mover, before):
        raise RuleError(f"{r.unit} may withdraw only at the instant the enemy comes within two hexes (000 §6.51).")
    my_ma = who.ma if isinstance(who, Leader) else movement_allowance(who)
    their_ma = movement_allowance(mover)
    if my_ma <= their_ma:
        raise RuleError(
            f"{r.unit} may withdraw only from an enemy with a lower MA ({my_ma} against {their_ma}) (000 §6.51)."
        )
    costs = MoveCosts(state, who)
    _withdrawer_check(state, who, r.fire, costs)
    budget = (my_ma - their_ma) * HALF
    spent = 0
    cur = who.hex
    dist = now
    for raw in r.withdraw or ():
        try:
            j = grid.index(raw)
        except ValueError as exc:
            raise RuleError(f"withdrawal of {r.unit}: {exc}.") from None
        d = grid.direction(cur, j)
        if d < 0:
            raise RuleError(f"{r.unit} withdraws one hex at a time; {raw} is not next to {grid.hex_id(cur)}.")
        c, nd, why = _withdraw_step(state, costs, mover, cur, d, dist)
        if why:
            raise RuleError(why.format(unit=r.unit, hex=raw))
        spent += c
        if spent > budget:
            raise RuleError(f"{r.unit} may withdraw only {my_ma - their_ma} MP (000 §6.51).")
        cur, dist = j, nd
    if not r.withdraw:
        raise RuleError(f"{r.unit}'s withdrawal names no hex.")
    if isinstance(who, Unit) and not costs.may_end(cur * 6 + who.facing):
        raise RuleError(f"{r.unit} may not end its withdrawal stacked there (000 §6.55).")
    return who, cur


def _withdrawal_instant(state: State, who: Unit | Leader, mover: Unit, before: tuple[int, ...]) -> bool:
    """The instant a withdrawal may be made: the mover has just come within two hexes (000 §6.51),
    or, for a leader alone in his hex, has just come next to him (000 §4.31)."""
    mine = (who.hex,) if isinstance(who, Leader) else who.hexes()
    now = _min_distance(state, mine, mover.hexes())
    earlier = _min_distance(state, mine, before)
    if now <= 2 < earlier:
        return True
    return isinstance(who, Leader) and now == 1 < earlier and not _with_friendly_unit(state, who)


def _withdrawer_check(state: State, who: Unit | Leader, fire: bool, costs: MoveCosts) -> None:
    """What the withdrawing unit itself must be (000 §6.51, §6.55; 003 §9.21; docs §4.8)."""
    if not isinstance(who, Unit):
        return
    if who.status == "routed" or who.engaged:
        raise RuleError(f"{who.id} is routed or engaged and may not withdraw (000 §6.51).")
    if who.double:
        raise RuleError(f"{who.id} is double-sized and does not withdraw (docs §4.8).")
    if who.type == "CH":
        raise RuleError("Chariots do not withdraw (003 §9.21).")
    if fire and who.missile != "MA":
        raise RuleError(f"Only mounted archers fire as they withdraw, and {who.id} is not one (000 §6.55).")
    if who.hex in costs.zoc_any:
        raise RuleError(f"{who.id} is in an enemy unit's front and may not withdraw (000 §6.55).")
    # -- hook: a scenario special rule holding the unit in place holds it against withdrawal too --
    held = special.refuse_move(state, who)
    if held is not None:
        raise RuleError(held)


def _withdraw_step(
    state: State, costs: MoveCosts, mover: Unit, cur: int, d: int, dist: int
) -> tuple[int, int, str | None]:
    """One withdrawal step from ``cur`` in direction ``d`` (000 §6.51, §6.55): its cost in half
    MP, the new distance to the mover, and why it is refused (a template) or None."""
    grid = state.field.grid
    j = grid.nbr[cur * 6 + d]
    c = costs.enter(cur, d) if j >= 0 else NO
    if c >= NO:
        return c, 0, "{unit} may not withdraw into {hex}."
    if state.field.terrain[j] in (_WOODS, _MARSH) or state.field.hexside(cur, j) in _RIVERS:
        return c, 0, "{unit} may not withdraw into woods, marsh or across a river (000 §6.55)."
    if j in costs.zoc_any:
        return c, 0, "{unit} may not withdraw into an enemy unit's front (000 §6.55)."
    nd = _min_distance(state, (j,), mover.hexes())
    if nd <= dist:
        return c, nd, f"{{unit}} must withdraw away from {mover.id} (000 §6.51)."
    return c, nd, None


def _withdrawal_penalty(state: State, unit: Unit, mover: Unit, dice: Dice | None, events: list[Event]) -> None:
    """After withdrawing (000 §6.52; 003 §6.7): docs §4.8 sets out both rulesets."""
    if unit.mounted or dice is None:
        return
    approach = _approach(state, unit, mover)
    if state.spqr:
        if roman_foot(unit) and unit.type in ("LG", "CO"):
            roll = dice.d10(f"{unit.id} withdrawal check")
            if roll > unit.tq:
                combat.disorder_again_routs(
                    state, unit, events, f"rolls {roll} over TQ {unit.tq} after withdrawing (000 §6.52 #1)"
                )
            return
        if unit.skirmisher and approach == "front":
            return  # 000 §6.52 exception: skirmishers and velites approached from the front
        combat.disorder_again_routs(state, unit, events, "withdraws on foot (000 §6.52 #2)")
        return
    roll = dice.d10(f"{unit.id} withdrawal check")
    total = roll + (2 if approach == "rear" else 0)
    if total > unit.tq:
        combat.disorder_again_routs(
            state,
            unit,
            events,
            f"rolls {roll}{' +2 (from behind)' if approach == 'rear' else ''} over TQ {unit.tq} "
            "after withdrawing (003 §6.7)",
        )


def _threatened_leader(state: State, mover: Unit, ld: Leader, dice: Dice | None, events: list[Event]) -> None:
    """A leader alone when an enemy unit moves next to him (000 §4.31; 003 §6.7): he goes to the
    nearest friendly unit; against a mounted enemy (000) a roll of 3-9 kills or captures him; if he
    cannot get through, he is lost."""
    grid = state.field.grid
    if state.spqr and mover.mounted and dice is not None:
        roll = dice.d10(f"{ld.id} threatened by {mover.id}")
        if roll >= 3:
            ld.status = "eliminated"
            ld.hex = -1
            events.append(
                Event(
                    "leader_lost",
                    f"{ld.id} is caught by {mover.id} (rolls {roll}) (000 §4.31).",
                    {"leader": ld.id, "roll": roll},
                )
            )
            return
    dest = _nearest_friend(state, ld)
    if dest < 0:
        ld.status = "eliminated"
        ld.hex = -1
        events.append(
            Event(
                "leader_lost", f"{ld.id} cannot reach a friendly unit and is captured (000 §4.31).", {"leader": ld.id}
            )
        )
        return
    ld.hex = dest
    events.append(
        Event(
            "leader_displaced",
            f"{ld.id} rides to the nearest friendly unit at {grid.hex_id(dest)}.",
            {"leader": ld.id, "hex": grid.hex_id(dest)},
        )
    )


def _nearest_friend(state: State, ld: Leader) -> int:
    """The hex of the nearest friendly combat unit a leader can reach without crossing enemy units
    or enemy fronts (000 §4.31 #3); ties go to the unit named first; -1 if none."""
    grid = state.field.grid
    blocked: set[int] = set()
    targets: dict[int, str] = {}
    for u in state.units.values():
        if not u.on_map:
            continue
        if u.side != ld.side:
            blocked.update(u.hexes())
            blocked.update(frontal_hexes(grid, u) if u.status != "routed" else ())
        else:
            for h in u.hexes():
                if h not in targets or u.id < targets[h]:
                    targets[h] = u.id
    frontier = [ld.hex]
    seen = {ld.hex}
    while frontier:
        found = [h for h in frontier if h in targets and h != ld.hex]
        if found:
            return min(found, key=lambda h: targets[h])
        nxt: list[int] = []
        for h in frontier:
            for j in grid.neighbours(h):
                if j in seen:
                    continue
                seen.add(j)
                if j in targets or j not in blocked:
                    nxt.append(j)
        frontier = nxt
    return -1


# -- leaders ---------------------------------------------------------------------------------
def _replace(state: State, action: Replace, dice: Dice, events: list[Event]) -> None:
    """The overall commander uses his activation to bring back a dead leader (000 §3.1 A, §4.32):
    tribunes and praefects come back as they were, any number of times; other leaders only while
    replacement leaders remain; a dead overall commander is not replaced, except by a proconsul
    taking over (000 §4.33, §5.35).  The activation then ends (docs §5.4)."""
    seq = state.seq
    if not state.spqr:
        raise RuleError("Leader replacement is a Simple SPQR rule (000 §4.32).")
    if seq.phase != "move" or seq.leader is None or seq.leader_done or seq.leader in state.moved:
        raise RuleError("A leader is replaced by the overall commander at the start of his activation (000 §3.1).")
    oc = state.leaders[seq.leader]
    dead = state.leaders.get(action.leader)
    if dead is None:
        raise RuleError(f"There is no leader {action.leader}.")
    if dead.side != oc.side or dead.status != "eliminated":
        raise RuleError(f"{action.leader} is not a dead leader of side {oc.side}.")
    grid = state.field.grid
    try:
        where = grid.index(action.hex)
    except ValueError as exc:
        raise RuleError(f"{exc}.") from None
    if action.by is not None:
        pro = state.leaders.get(action.by)
        if not dead.overall or pro is None or pro.kind != "proconsul" or not pro.on_map or pro.side != oc.side:
            raise RuleError("Only a proconsul on the field takes over from a dead overall commander (000 §5.35).")
        pro.overall = True
        events.append(Event("replace", f"{pro.id} takes over as overall commander (000 §5.35).", {"leader": pro.id}))
        pass_turn(state, dice, events)
        return
    if not oc.overall:
        raise RuleError(f"{oc.id} is not the overall commander and cannot replace leaders (000 §4.32).")
    if dead.overall:
        raise RuleError("A dead overall commander is not replaced (000 §4.33).")
    if dead.kind == "general":
        pool = [k for k, r in enumerate(state.replacements) if r.side == oc.side]
        if not pool:
            raise RuleError(f"Side {oc.side} has no replacement leaders left (000 §4.32).")
        rep = state.replacements.pop(pool[0])
        dead.initiative, dead.range, dead.elite, dead.replacement = rep.initiative, rep.range, False, True
    units_here = [u for u in state.units_at(where) if u.side == oc.side]
    if not any(_may_command(state, dead, u) for u in units_here):
        raise RuleError(f"{action.leader} must be placed with a unit he can command.")
    dead.status = "active"
    dead.hex = where
    dead.finished = "finished-leaders" in state.options
    events.append(Event("replace", f"{dead.id} takes the field at {action.hex} (000 §4.32).", {"leader": dead.id}))
    pass_turn(state, dice, events)


def _may_command(state: State, leader: Leader, unit: Unit) -> bool:
    kind = leader.kind
    if kind in ("general", "proconsul"):
        return True
    if kind == "praefect_equitum":
        return unit.roman and unit.cavalry
    if not unit.roman or unit.mounted:
        return False
    if unit.skirmisher:
        return True
    return is_ala(unit) == (kind == "praefect_sociorum")
