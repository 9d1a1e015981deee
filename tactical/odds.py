"""Exact odds of a proposed shock or missile fire (issue 4 §7), by the real resolver.

``shock_odds`` / ``fire_odds`` run ``engine.apply_with_choices`` on the position over every die face
the resolution consumes (``bellum.odds.exact_distribution``) — the reaction fire, the
shock roll, pursuit and its return roll, rampage rolls, leaders' casualty rolls — and
group the runs by what a player cares about.  There is no second model of the rules.

A shock can be previewed before it is designated or while designation is open (003 §8.3):
the odds are then those of resolving it in the position as it stands, computed on a copy
in which it is the designated combat and designation is closed (``ready_to_resolve``).

``shock_result_odds`` is the fast preview of the result line alone: the modified roll
is the one die plus the plan's DRM total, so each result's probability is the share of
faces that land in its band.  ``tests/tactical/test_odds.py`` proves it equal to the
result marginal of ``shock_odds`` wherever no reaction fire precedes the roll.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from bellum.dice import Dice
from bellum.odds import exact_distribution
from tactical import charts
from tactical.actions import Fire, React, Shock
from tactical.combat import (
    check_shock_react,
    fire_check,
    fire_reaction,
    plan_shock,
    resolve_shock,
    shock_drms,
    weapon_name,
)
from tactical.engine import apply_with_choices, settle_leaders
from tactical.state import State

#: what one resolution ended in: the shock result (or None), then each unit's status and
#: each leader's status, for the units and leaders whose fate changed
Outcome = tuple[Any, ...]


def _summary(before: State, after: State, events: list[Any]) -> Outcome:
    result = next((e.data.get("result") for e in events if e.kind == "shock"), None)
    units = tuple(
        sorted(
            (uid, u.status, u.engaged)
            for uid, u in after.units.items()
            if (u.status, u.engaged) != (before.units[uid].status, before.units[uid].engaged)
        )
    )
    hits = tuple(
        sorted(
            (uid, u.missile_hits) for uid, u in after.units.items() if u.missile_hits != before.units[uid].missile_hits
        )
    )
    leaders = tuple(sorted(lid for lid, ld in after.leaders.items() if ld.status != before.leaders[lid].status))
    return (result, units, hits, leaders)


def _held(state: State, action: Shock) -> bool:
    """Whether ``action`` is the shock that waits on the defender's decision (docs §8.13)."""
    p = state.reacting
    return (
        p is not None
        and p.kind == "shock"
        and p.action.defender == action.defender
        and set(p.action.attackers) == set(action.attackers)
    )


def ready_to_resolve(state: State, action: Shock) -> State:
    """The position in which ``action`` is resolved next: ``state`` itself when the combat is
    designated and designation is closed, otherwise a copy where it is (003 §8.3) — also
    for the shock that waits on the defender's decision (its choices are then the ones the
    action carries, ``engine.apply_with_choices``)."""
    pending = any(d == action.defender and set(a) == set(action.attackers) for a, d in state.designations)
    if state.seq.phase == "shock" and not state.designating and pending and state.reacting is None:
        return state
    trial = state.copy()
    trial.designations = [(tuple(action.attackers), action.defender)]
    trial.designating = False
    trial.seq.phase = "shock"
    trial.reacting = None
    return trial


def _plan(state: State, action: Shock) -> Any:
    """``plan_shock``; a designated combat keeps the command it was designated with (003 §8.3)."""
    designated = _held(state, action) or any(
        d == action.defender and set(a) == set(action.attackers) for a, d in state.designations
    )
    return plan_shock(state, action, designated=designated)


def _odds(state: State, action: Any) -> dict[Outcome, Fraction]:
    def run(dice: Dice) -> Outcome:
        after, events = apply_with_choices(state, action, dice)
        return _summary(state, after, events)

    return exact_distribution(run)


def shock_odds(state: State, action: Shock) -> dict[Outcome, Fraction]:
    """Every outcome of the shock with its exact probability (RuleError if not allowed).

    The shock roll only chooses the result line and whether everyone is engaged (003 §8.3),
    so faces that share both lead to the same follow-on rolls: the real resolver is run once
    per such group of faces (each run still branching over every follow-on die), weighted
    by the group's share.  With reaction fire first, every die is enumerated in order.
    ``tests/tactical/test_odds.py`` proves this equal to ``shock_odds_full``.
    """
    plan = _plan(state, action)
    state = ready_to_resolve(state, action)
    elephants = any(a.type == "EL" for a in plan.attackers)
    if action.retreat_before_combat is not None or plan.defender.status == "routed" or elephants:
        return _odds(state, action)
    if action.reaction_fire is not None:
        return _after_reaction_fire(state, action, plan)
    return _grouped(state, state, action, plan.drms, [])


def _grouped(
    base: State, state: State, action: Shock, drms: dict[str, int], before: list[Any]
) -> dict[Outcome, Fraction]:
    """The shock of ``state`` resolved once per group of roll faces sharing a result line and
    engagement (each run still branching over every follow-on die), summarised against
    ``base`` with the events ``before`` it (a reaction fire's)."""
    total = sum(drms.values())
    groups: dict[tuple[str, bool], list[int]] = {}
    for face in range(10):
        if state.ruleset == "charts-v1":
            groups.setdefault((charts.shock_result_v1(face + total).label, False), []).append(face)
            continue
        o = charts.shock_result(state.ruleset, face + total)
        groups.setdefault((o.result, o.engaged), []).append(face)
    out: dict[Outcome, Fraction] = {}
    for faces in groups.values():
        first = faces[0]

        def run(dice: Dice, first: int = first) -> Outcome:
            after = state.copy()
            events: list[Any] = list(before)
            resolve_shock(after, action, Dice.forced([first, *dice.pending()]), events, drms, designated=True)
            settle_leaders(after, events)  # as ``engine.apply`` does after every action
            return _summary(base, after, events)

        share = Fraction(len(faces), 10)
        for outcome, p in exact_distribution(run).items():
            out[outcome] = out.get(outcome, Fraction(0)) + share * p
    return out


def _after_reaction_fire(state: State, action: Shock, plan: Any) -> dict[Outcome, Fraction]:
    """Reaction fire comes before the shock roll (003 §8.2): its dice are enumerated first, and
    each position it can leave is then resolved by the grouped enumeration, with the modifiers
    the resolver recomputes after the volley.  ``tests/tactical/test_odds.py`` proves it equal
    to ``shock_odds_full``."""
    check_shock_react(state, replace(action, reaction_fire=None), React(fire=action.reaction_fire))
    defender = action.defender
    target = action.reaction_fire or ""
    after_fire: dict[Any, tuple[State, list[Any]]] = {}

    def volley(dice: Dice) -> Any:
        after = state.copy()
        events: list[Any] = []
        fire_reaction(after, after.units[defender], after.units[target], dice, events)
        key = _position_key(after)
        after_fire.setdefault(key, (after, events))
        return key

    out: dict[Outcome, Fraction] = {}
    for key, p in exact_distribution(volley).items():
        after, events = after_fire[key]
        attackers = [after.units[a] for a in action.attackers if after.units[a].on_map]
        if not attackers:
            outcome = _summary(state, after, events)
            out[outcome] = out.get(outcome, Fraction(0)) + p
            continue
        weapon_unit = next((a for a in attackers if plan.weapon in (a.type, weapon_name(a))), attackers[0])
        drms = shock_drms(after, attackers, after.units[defender], weapon_unit)
        rest = replace(action, attackers=tuple(a.id for a in attackers), reaction_fire=None)
        for outcome, q in _grouped(state, after, rest, drms, events).items():
            out[outcome] = out.get(outcome, Fraction(0)) + p * q
    return out


def _position_key(state: State) -> tuple[Any, ...]:
    """Everything a volley can change: each unit's place, status and hits, each leader's fate."""
    return (
        tuple((u.hex, u.hex2, u.facing, u.status, u.missile_hits, u.engaged) for u in state.units.values()),
        tuple((ld.hex, ld.status) for ld in state.leaders.values()),
        tuple(sorted(state.broke)),
        tuple(sorted(state.rout_points.items())),
    )


def shock_odds_full(state: State, action: Shock) -> dict[Outcome, Fraction]:
    """The same over every face of every die, without grouping (the reference for tests)."""
    _plan(state, action)
    return _odds(ready_to_resolve(state, action), action)


def fire_odds(state: State, action: Fire) -> dict[Outcome, Fraction]:
    """Every outcome of the missile fire with its exact probability."""
    fire_check(state, state.units[action.unit], state.units[action.target])
    return _odds(state, action)


def result_marginal(odds: dict[Outcome, Fraction]) -> dict[Any, Fraction]:
    out: dict[Any, Fraction] = {}
    for outcome, p in odds.items():
        out[outcome[0]] = out.get(outcome[0], Fraction(0)) + p
    return out


def shock_result_odds(state: State, action: Shock) -> dict[str | None, Fraction]:
    """The probability of each Shock Results line (003 §8.3), without the follow-on rolls."""
    plan = _plan(state, action)
    if plan.defender.status == "routed":
        return {None: Fraction(1)}
    out: dict[str | None, Fraction] = {}
    total = plan.total
    for face in range(10):
        if state.ruleset == "charts-v1":
            r = "v1:" + charts.shock_result_v1(face + total).label
            out[r] = out.get(r, Fraction(0)) + Fraction(1, 10)
            continue
        r = charts.shock_result(state.ruleset, face + total).result
        out[r] = out.get(r, Fraction(0)) + Fraction(1, 10)
    return out
