"""The tactical engine's adapter for the rules-case runner (``bellum.cases``, ``cases/FORMAT.md``).

Verbs: ``move``, ``face``, ``activate``, ``continuity``, ``pass`` (issue 3), plus the
project's ``start`` and ``replace``; ``fire``, ``shock`` and ``rally`` plug in
through ``VERBS`` when the combat layer registers them (until then they are
reported as not built, which the runner turns into a SKIP).

The defender's decisions (docs/rules/tactical.md §8.13).  As ``cases/FORMAT.md`` fixes it, a
step gives the defender's choices itself (a move's ``reactions``, a shock's
``reaction_fire`` / ``retreat_before_combat``, a fire's ``return_fire``) and every decision
point it does not answer is declined.  The project's own cases may also stop where the game
asks the defender: ``wait = true`` on a ``move``, ``shock``, ``fire``, ``react`` or ``decline``
step plays it up to the next decision point and no further, and the verbs ``react`` (with
``unit``/``at``/``face`` or ``withdraw`` (+ ``fire``) during a move, ``reaction_fire``,
``retreat_before_combat``, ``reduce_hits`` before a shock, ``return_fire`` after a hit and
run) and ``decline`` answer it; ``acting``, ``waiting`` (``none`` when nothing waits) and
``reactions`` (the notations the generator offers) can be expected.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bellum.cases import CaseFailure, NotBuilt
from bellum.dice import Dice
from bellum.tomlio import validate
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
from tactical.engine import apply, apply_with_choices
from tactical.hexes import FACING_CLOCK
from tactical.legal import legal_actions
from tactical.models import PositionIn, build_state
from tactical.state import State


@dataclass
class Session:
    path: Path
    state: State
    #: outcomes of the last step (``mp``, and ``drm`` / ``result`` once combat is built)
    outcome: dict[str, Any] = field(default_factory=dict)


#: verb -> (allowed step keys, builder from the step to an action)
VERBS: dict[str, tuple[frozenset[str], Callable[[dict[str, Any]], Action | Any]]] = {}
#: verbs of the next issue, reported as not built until registered in ``VERBS``
COMBAT_VERBS = ("fire", "shock", "rally")
_COMMON_STEP = frozenset({"do", "dice", "expect", "wait"})
#: the verbs whose step may stop at the defender's next decision (``wait = true``)
_WAITING_VERBS = frozenset({"move", "shock", "fire", "react", "decline"})


def _str(step: dict[str, Any], key: str) -> str:
    v = step.get(key)
    if not isinstance(v, str):
        raise CaseFailure(f"'{step.get('do')}' needs {key} = \"...\"")
    return v


def _target(step: dict[str, Any]) -> tuple[str | None, tuple[str, ...] | None]:
    if "leader" in step and "group" in step:
        raise CaseFailure(f"'{step['do']}' takes a leader or a group, not both")
    if "group" in step:
        g = step["group"]
        if not isinstance(g, list) or not all(isinstance(x, str) for x in g):
            raise CaseFailure("group must be a list of unit ids")
        return None, tuple(g)
    return _str(step, "leader"), None


def _reactions(step: dict[str, Any]) -> tuple[Reaction, ...]:
    raw = step.get("reactions", [])
    if not isinstance(raw, list):
        raise CaseFailure("reactions must be a list of tables")
    out = []
    for r in raw:
        if not isinstance(r, dict) or set(r) - {"unit", "at", "face", "withdraw", "fire"}:
            raise CaseFailure("a reaction is { unit = ..., at = HEX, face = F } or { ..., withdraw = [HEX, ...] }")
        face = r.get("face")
        withdraw = r.get("withdraw")
        if face is not None and (not isinstance(face, int) or isinstance(face, bool)):
            raise CaseFailure("a reaction's face is a clock hour")
        if withdraw is not None and (not isinstance(withdraw, list) or not all(isinstance(x, str) for x in withdraw)):
            raise CaseFailure("a reaction's withdraw is a list of hexes")
        fire = r.get("fire", False)
        if not isinstance(fire, bool):
            raise CaseFailure("a reaction's fire is true or false")
        out.append(
            Reaction(_str(r, "unit"), _str(r, "at"), face, tuple(withdraw) if withdraw is not None else None, fire)
        )
    return tuple(out)


def _move(step: dict[str, Any]) -> Action:
    path = step.get("path")
    if not isinstance(path, list) or not all(isinstance(p, str) for p in path):
        raise CaseFailure('\'move\' needs path = ["CCRR", "face:F", ...]')
    carry = step.get("carry")
    if carry is not None and not isinstance(carry, str):
        raise CaseFailure("carry names the unit that moves with the leader")
    return Move(_str(step, "unit"), tuple(path), _reactions(step), carry)


def _face(step: dict[str, Any]) -> Action:
    to = step.get("to")
    if not isinstance(to, int) or isinstance(to, bool):
        raise CaseFailure("'face' needs to = a clock hour")
    return Face(_str(step, "unit"), to)


def _ids(step: dict[str, Any], key: str) -> tuple[str, ...]:
    v = step.get(key)
    if not isinstance(v, list) or not v or not all(isinstance(x, str) for x in v):
        raise CaseFailure(f"'{step.get('do')}' needs {key} = [\"ID\", ...]")
    return tuple(v)


def _opt_str(step: dict[str, Any], key: str) -> str | None:
    v = step.get(key)
    if v is not None and not isinstance(v, str):
        raise CaseFailure(f"{key} must be a unit or type id")
    return v


def _shock(step: dict[str, Any]) -> Action | Any:
    pursue = step.get("pursue", False)
    if not isinstance(pursue, bool):
        raise CaseFailure("pursue must be true or false")
    rbc = step.get("retreat_before_combat")
    if rbc is not None and (not isinstance(rbc, list) or not all(isinstance(x, str) for x in rbc)):
        raise CaseFailure("retreat_before_combat must be a list of two hexes")
    advance = step.get("advance", False)
    reduce_hits = step.get("reduce_hits", False)
    if not isinstance(advance, bool) or not isinstance(reduce_hits, bool):
        raise CaseFailure("advance and reduce_hits are true or false")
    return Shock(
        _ids(step, "attackers"),
        _str(step, "defender"),
        _opt_str(step, "weapon"),
        _opt_str(step, "defender_weapon"),
        _opt_str(step, "reaction_fire"),
        pursue,
        tuple(rbc) if rbc is not None else None,
        advance,
        reduce_hits,
    )


def _fire(step: dict[str, Any]) -> Action | Any:
    flags = {k: step.get(k, False) for k in ("hit_and_run", "return_fire")}
    if not all(isinstance(v, bool) for v in flags.values()):
        raise CaseFailure("hit_and_run and return_fire are true or false")
    return Fire(_str(step, "unit"), _str(step, "target"), flags["hit_and_run"], flags["return_fire"])


def _react(step: dict[str, Any]) -> Action | Any:
    """``react``: the defender's answer (docs/rules/tactical.md §8.13) — a reaction during a
    move (``unit``, ``at``, ``face`` or ``withdraw`` [+ ``fire``]), or before a shock
    (``reaction_fire``, ``retreat_before_combat``, ``reduce_hits``), or ``return_fire``."""
    if "unit" in step:
        reaction = _reactions(
            {"reactions": [{k: step[k] for k in ("unit", "at", "face", "withdraw", "fire") if k in step}]}
        )
        return React(reaction=reaction[0])
    if "at" in step or "face" in step or "withdraw" in step:
        raise CaseFailure("a reaction during a move names its unit")
    rbc = step.get("retreat_before_combat")
    if rbc is not None and (not isinstance(rbc, list) or not all(isinstance(x, str) for x in rbc)):
        raise CaseFailure("retreat_before_combat must be a list of two hexes")
    flags = {k: step.get(k, False) for k in ("reduce_hits", "return_fire")}
    if not all(isinstance(v, bool) for v in flags.values()):
        raise CaseFailure("reduce_hits and return_fire are true or false")
    return React(
        fire=_opt_str(step, "reaction_fire"),
        rbc=tuple(rbc) if rbc is not None else None,
        reduce_hits=flags["reduce_hits"],
        return_fire=flags["return_fire"],
    )


VERBS.update(
    {
        "react": (
            frozenset(
                {
                    "unit",
                    "at",
                    "face",
                    "withdraw",
                    "fire",
                    "reaction_fire",
                    "retreat_before_combat",
                    "reduce_hits",
                    "return_fire",
                }
            ),
            _react,
        ),
        "decline": (frozenset(), lambda s: Decline()),
        "shock": (
            frozenset(
                {
                    "attackers",
                    "defender",
                    "weapon",
                    "defender_weapon",
                    "reaction_fire",
                    "pursue",
                    "retreat_before_combat",
                    "advance",
                    "reduce_hits",
                }
            ),
            _shock,
        ),
        "designate": (
            frozenset({"attackers", "defender"}),
            lambda s: Designate(_ids(s, "attackers"), _str(s, "defender")),
        ),
        "resolve": (frozenset(), lambda s: Resolve()),
        "fire": (frozenset({"unit", "target", "hit_and_run", "return_fire"}), _fire),
        "rally": (frozenset({"unit"}), lambda s: Rally(_str(s, "unit"))),
        "move": (frozenset({"unit", "path", "reactions", "carry"}), _move),
        "face": (frozenset({"unit", "to"}), _face),
        "activate": (frozenset({"leader", "group"}), lambda s: Activate(*_target(s))),
        "continuity": (frozenset({"leader", "group"}), lambda s: Continuity(*_target(s))),
        "pass": (frozenset(), lambda s: Pass()),
        "start": (frozenset(), lambda s: Start()),
        "replace": (
            frozenset({"leader", "hex", "by"}),
            lambda s: Replace(_str(s, "leader"), _str(s, "hex"), s.get("by") if isinstance(s.get("by"), str) else None),
        ),
    }
)


def _apply_step(state: State, action: Action | Any, dice: Dice, wait: bool = False) -> tuple[State, list[Any]]:
    """One case step.  A ``shock`` step may stand for the whole Shock segment of FORMAT.md: while
    designation is open it designates the combat (unless designated already), closes
    designation and resolves it (003 §8.3); a refusal anywhere leaves the position untouched.
    The defender's choices written on the step (a move's ``reactions``, a shock's
    ``reaction_fire`` or ``retreat_before_combat``, a hit and run's ``return_fire``) are played
    as the defender's own answers when the game asks for them, and every other decision
    point is declined (FORMAT.md; ``engine.apply_with_choices``)."""
    events: list[Any] = []
    if isinstance(action, Shock) and (state.seq.phase == "move" or (state.seq.phase == "shock" and state.designating)):
        if not any(d == action.defender and set(a) == set(action.attackers) for a, d in state.designations):
            state, ev = apply(state, Designate(action.attackers, action.defender), dice)
            events += ev
        state, ev = apply(state, Resolve(), dice)
        events += ev
    if wait:
        new, ev = apply(state, action, dice)
    else:
        new, ev = apply_with_choices(state, action, dice)
    return new, events + ev


class TacticalAdapter:
    engine = "tactical"
    position_keys = frozenset({"map", "units", "leaders", "sequence", "replacements", "withdrawal"})

    def build(self, doc: dict[str, Any], path: Path) -> Session:
        raw = {k: v for k, v in doc.items() if k in self.position_keys or k in ("rules", "options")}
        pos = validate(PositionIn, raw, path)
        return Session(path, build_state(pos, path))

    def apply(self, session: Session, step: dict[str, Any], dice: Dice) -> None:
        verb = step["do"]
        if verb not in VERBS:
            if verb in COMBAT_VERBS:
                raise NotBuilt(f"the tactical '{verb}' verb is not built yet")
            raise CaseFailure(f"'{verb}' is not a tactical verb ({', '.join(sorted(VERBS))})")
        keys, build = VERBS[verb]
        extra = set(step) - _COMMON_STEP - keys
        if extra:
            raise CaseFailure(f"'{verb}' does not take {sorted(extra)[0]!r}")
        action = build(step)
        wait = step.get("wait", False)
        if not isinstance(wait, bool) or (wait and verb not in _WAITING_VERBS):
            raise CaseFailure(
                f"wait = true stops a {', '.join(sorted(_WAITING_VERBS))} step at the defender's decision"
            )
        new, events = _apply_step(session.state, action, dice, wait)
        session.state = new
        session.outcome = {"mp": new.last_mp} if new.last_mp is not None else {}
        for e in events:
            if e.kind == "shock":
                session.outcome.update({k: e.data[k] for k in ("drm", "result") if k in e.data})

    def snapshot(self, session: Session) -> Any:
        return state_key(session.state)

    def observe(self, session: Session, key: str) -> Any:
        st = session.state
        seq = st.seq
        if key in session.outcome:
            return session.outcome[key]
        if key in ("mp", "drm", "result"):
            return None
        simple = {
            "side": seq.side,
            "leader": seq.leader,
            "phase": seq.phase,
            "streak": seq.streak,
            "freebie": seq.freebie,
            "winner": st.winner,
            "rout_points.A": st.rout_points["A"],
            "rout_points.B": st.rout_points["B"],
            # the army withdrawal levels and each side's units (001 Rout Bid method removes some)
            "withdrawal.A": st.withdrawal.get("A"),
            "withdrawal.B": st.withdrawal.get("B"),
            "units.A": sorted(k for k, u in st.units.items() if u.side == "A"),
            "units.B": sorted(k for k, u in st.units.items() if u.side == "B"),
            "designating": st.designating,
            "designations": [f"{','.join(a)}>{d}" for a, d in st.designations],
            # the defender's decision the game waits on (docs/rules/tactical.md §8.13)
            "acting": st.acting,
            "waiting": st.reacting.kind if st.reacting is not None else "none",
        }
        if key == "reactions":
            return sorted(a.notation() for a in legal_actions(st) if isinstance(a, React)) if st.reacting else []
        if key in simple:
            return simple[key]
        who, _, attr = key.partition(".")
        grid = st.field.grid
        if who in st.units:
            u = st.units[who]
            values: dict[str, Any] = {
                "hex": grid.hex_id(u.hex) if u.hex >= 0 else None,
                "hex2": grid.hex_id(u.hex2) if u.hex2 >= 0 else None,
                "facing": ((2 * u.facing + 1) if u.column else FACING_CLOCK[u.facing]) if u.on_map else None,
                "status": u.status,
                "missile_hits": u.missile_hits,
                "engaged": u.engaged,
                "formation": "column" if u.column else "line",
                "reduced": u.reduced,
                "double_depth": u.double_depth,
                "pursuit": u.id in st.regrouping,
                "tq": u.tq,
            }
            return values[attr]
        if who in st.leaders:
            ld = st.leaders[who]
            lvalues: dict[str, Any] = {
                "hex": grid.hex_id(ld.hex) if ld.hex >= 0 else None,
                "status": ld.status,
                "finished": ld.finished,
                "overall": ld.overall,
                "initiative": ld.initiative,
            }
            return lvalues[attr]
        raise KeyError(key)

    def finish_step(self, session: Session, step: dict[str, Any]) -> None:
        del session, step


def state_key(state: State) -> Any:
    """Everything a refused action must leave untouched, as one comparable value."""
    s = state.seq
    return (
        tuple(sorted((k, tuple(getattr(u, f) for f in u.__slots__)) for k, u in state.units.items())),
        tuple(sorted((k, tuple(getattr(ld, f) for f in ld.__slots__)) for k, ld in state.leaders.items())),
        tuple(getattr(s, f) for f in s.__slots__),
        tuple(sorted(state.moved)),
        tuple(sorted(state.fought)),
        tuple(sorted(state.reacted)),
        tuple(sorted(state.fired)),
        tuple(sorted(state.broke)),
        tuple(sorted(state.rallied)),
        tuple(state.replacements),
        tuple(sorted(state.rout_points.items())),
        state.winner,
        tuple(state.designations),
        state.designating,
        tuple(sorted(state.regrouping)),
        state.reacting,
        state.pressed,
        tuple(state.rampages),
    )


ADAPTER = TacticalAdapter()
