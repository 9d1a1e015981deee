"""The sequence of play: who goes first, Continuity, free activations, the end of an activation.

003 §3, §5; 000 §3, §5 (docs/rules/tactical.md §2).  There are no turns: an
activated leader (or leaderless group) acts through the Move/Fire, Shock and
Rally segments, then his side designates another leader and rolls against that
leader's Initiative.  A failure hands the opponent a free activation.  Three
activations in succession hand the opponent a free activation after which he
does not roll: play returns to the side that had gone three times.
"""

from __future__ import annotations

from bellum.dice import Dice
from bellum.errors import RuleError
from bellum.events import Event
from tactical.combat import REGROUP, engaged_must_attack, mandatory_rally, pursuers_return, regroup_return
from tactical.command import check_group
from tactical.rout import rout_all
from tactical.state import Leader, State, other
from tactical.variants import pressed_legions

FINISHED = "finished-leaders"


def _leader(state: State, lid: str, side: str) -> Leader:
    leader = state.leaders.get(lid)
    if leader is None:
        raise RuleError(f"There is no leader {lid}.")
    if leader.side != side:
        raise RuleError(f"{lid} is not one of side {side}'s leaders.")
    if not leader.on_map:
        raise RuleError(f"{lid} is no longer on the field.")
    return leader


def who_goes_first(state: State, dice: Dice, events: list[Event], first: str | None = None) -> None:
    """003 §3.3 / 000 §3.3: a scenario may fix the first side; in simple-spqr a side with the only
    elite commander goes first; otherwise both roll, the high roll goes first (ties roll again)."""
    seq = state.seq
    if seq.phase != "start":
        raise RuleError("The battle has already begun.")
    if first is None and state.spqr:
        elite = {ld.side for ld in state.leaders.values() if ld.on_map and ld.elite}
        if len(elite) == 1:
            first = next(iter(elite))
            events.append(
                Event("first", f"Only side {first} has an elite commander: it goes first (000 §3.3).", {"side": first})
            )
    while first is None:
        a, b = dice.d10("who goes first: A"), dice.d10("who goes first: B")
        if a != b:
            first = "A" if a > b else "B"
            events.append(
                Event(
                    "first",
                    f"A rolls {a}, B rolls {b}: side {first} goes first (003 §3.2).",
                    {"side": first, "rolls": [a, b]},
                )
            )
    seq.side = first
    seq.phase = "activation"
    seq.freebie = True
    seq.returns = False
    seq.streak = 0


def _begin(state: State, side: str, leader: str | None, group: tuple[str, ...] | None, free: bool) -> None:
    seq = state.seq
    target = leader if leader is not None else "group"
    if target == seq.last and seq.side == side:
        seq.last_count += 1
    else:
        seq.last_count = 1
    seq.last = target
    seq.side = side
    seq.leader = leader
    seq.group = group
    seq.phase = "move"
    seq.streak += 1
    seq.freebie = free
    seq.order = None
    seq.leader_done = False
    state.clear_activation()
    if "no-pilum" in state.options:
        state.pressed = pressed_legions(state)  # 001 No Pilum #4: as the activation starts
    if leader is not None and FINISHED in state.options:
        state.leaders[leader].finished = True  # 000 §3.2 #3


def activate(state: State, leader: str | None, group: tuple[str, ...] | None, events: list[Event]) -> None:
    """A free designation, no roll (003 §3.2, §5.1): after the opponent failed or went three times,
    or at the start of the battle."""
    seq = state.seq
    if seq.phase != "activation":
        raise RuleError(f"Side {seq.side} has no free activation to take now.")
    side = seq.side
    if leader is not None:
        _leader(state, leader, side)
    elif group is not None:
        check_group(state, side, group)
    else:
        raise RuleError("Name a leader or a group to activate.")
    returns = seq.returns
    _begin(state, side, leader, group, free=True)
    seq.returns = returns
    who = leader if leader is not None else "a group of " + ", ".join(group or ())
    events.append(
        Event(
            "activate",
            f"Side {side} activates {who} without a roll.",
            {"side": side, "leader": leader, "group": list(group or ())},
        )
    )


def continuity(
    state: State, leader: str | None, group: tuple[str, ...] | None, dice: Dice, events: list[Event]
) -> None:
    """Designate and roll (003 §3.2; 000 §3.2): at or under Initiative activates the leader,
    0–1 a leaderless group; otherwise play passes to the opponent for a free activation."""
    seq = state.seq
    side = seq.side
    if seq.phase != "continuity":
        raise RuleError(f"It is not side {side}'s Continuity phase; finish the activation first.")
    if seq.streak >= 3:
        raise RuleError(
            f"Side {side} has gone three times in succession; play passes to side {other(side)} (003 §3.2)."
        )
    ld: Leader | None = None
    if leader is not None:
        ld = _leader(state, leader, side)
        if seq.last == leader and (not ld.elite or seq.last_count >= 2):
            if ld.elite:
                raise RuleError(f"{leader} is elite but may not go three times in succession (003 §4.1).")
            raise RuleError(f"{leader} has just been activated; designate another leader (003 §3.2).")
    elif group is not None:
        check_group(state, side, group)
    else:
        raise RuleError("Name a leader or a group for Continuity.")
    roll = dice.d10(f"Continuity for {leader or 'a group'}")
    adjusted = roll + (1 if ld is not None and ld.finished and FINISHED in state.options else 0)
    need = ld.initiative if ld is not None else 1
    ok = adjusted <= need
    text = f"Side {side} rolls {roll}" + (f" (+1 finished = {adjusted})" if adjusted != roll else "")
    text += f" for {leader or 'a leaderless group'} (needs {need} or less): "
    text += "activated." if ok else f"play passes to side {other(side)}."
    events.append(Event("continuity", text, {"side": side, "roll": roll, "adjusted": adjusted, "success": ok}))
    # 003 §10.22: a Continuity roll of 8-9 moves all the roller's routed units; 000 §3.2 #3: the adjusted roll
    if adjusted >= 8:
        rout_all(state, side, events)
    # 003 §8.3: a roll of 0-1 brings off-map pursuing cavalry back
    if adjusted <= 1 and REGROUP not in state.options:
        pursuers_return(state, side, leader, events)
    if ok:
        _begin(state, side, leader, group, free=False)
    else:
        _hand_over(state, returns=False)


def _hand_over(state: State, returns: bool) -> None:
    """Play passes to the opponent, who designates without a roll (003 §3.2, §5.1)."""
    seq = state.seq
    seq.side = other(seq.side)
    seq.phase = "activation"
    seq.leader = None
    seq.group = None
    seq.streak = 0
    seq.freebie = True
    seq.returns = returns
    seq.order = None


def end_activation(state: State, dice: Dice, events: list[Event], *, declined: bool = False) -> None:
    """The activation ends: mandatory rally (003 §10.27), then Continuity — or, after the free
    go of the three-in-succession rule, play returns to the other side, who rolls (003 §3.2 #1)."""
    seq = state.seq
    if not declined:
        must = engaged_must_attack(state)
        if must:
            raise RuleError(f"{must[0].id} is engaged and must shock attack before the activation ends (003 §7.3).")
        mandatory_rally(state, dice, events)
    side = seq.side
    if REGROUP in state.options and seq.leader is not None and state.leaders[seq.leader].overall:
        regroup_return(state, side, events)  # 001 10.43: at the end of the overall commander's activation
    _refresh_finished(state, other(side))
    state.clear_activation()
    seq.order = None
    seq.leader_done = False
    if seq.returns:
        seq.side = other(side)
        seq.phase = "continuity"
        seq.leader = None
        seq.group = None
        seq.streak = 0
        seq.freebie = False
        seq.returns = False
        events.append(
            Event("pass", f"Side {side}'s free go ends without Continuity; side {seq.side} rolls.", {"side": seq.side})
        )
        return
    seq.phase = "continuity"
    events.append(Event("pass", f"Side {side}'s activation ends; Continuity.", {"side": side}))


def _refresh_finished(state: State, side: str) -> None:
    """000 §3.2 #3: when the opponent finishes an activation and all of a side's leaders are
    finished, they all turn back."""
    if FINISHED not in state.options:
        return
    mine = [ld for ld in state.leaders.values() if ld.side == side and ld.on_map]
    if mine and all(ld.finished for ld in mine):
        for ld in mine:
            ld.finished = False


def pass_turn(state: State, dice: Dice, events: list[Event]) -> None:
    """``pass``: end the activation, or decline Continuity / a free activation."""
    seq = state.seq
    if state.designations:
        raise RuleError("The designated shocks must be resolved: 'resolve', then one 'shock' each (003 §8.3).")
    if seq.phase in ("move", "shock", "rally"):
        end_activation(state, dice, events)
    elif seq.phase == "continuity":
        side = seq.side
        three = seq.streak >= 3
        _hand_over(state, returns=three)
        why = "it has gone three times in succession" if three else "it declines Continuity"
        events.append(
            Event("pass", f"Side {side} passes ({why}); side {seq.side} activates without a roll.", {"side": seq.side})
        )
    elif seq.phase == "activation":
        # declining a free activation: as if an empty activation had been played
        seq.phase = "move"
        seq.streak += 1
        end_activation(state, dice, events, declined=True)
    else:
        raise RuleError("There is nothing to pass now.")
