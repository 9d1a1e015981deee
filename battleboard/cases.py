"""The case adapter for battleboard cases (``../shared/cases/FORMAT.md``, Battleboard).

Verbs: ``move``, ``ram``, ``fire``, ``board``, ``attack``, ``end_turn`` (FORMAT.md) and the
project's ``command``, ``double``, ``withdraw``, ``stratagem``, ``allocate``, ``deploy``
(docs/rules/battleboard.md §17).  A step may force combat-table results
(``results = ["B", "-"]``); unused or missing results fail the case like dice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from battleboard.model import OFF, Action, State
from battleboard.position import Position
from battleboard.position import build_state as _build_state
from battleboard.rules import active_ground, apply
from bellum.cases import CaseFailure
from bellum.dice import Dice
from bellum.errors import RuleError
from bellum.events import Event
from bellum.tomlio import validate

VERB_KEYS: dict[str, frozenset[str]] = {
    "move": frozenset({"unit", "to"}),
    "ram": frozenset({"attacker", "target"}),
    "fire": frozenset({"attacker", "target"}),
    "board": frozenset({"attacker", "target", "capture", "mode"}),
    "attack": frozenset({"attacker", "target", "mode"}),
    "end_turn": frozenset(),
    "command": frozenset(),
    "double": frozenset(),
    "withdraw": frozenset(),
    "stratagem": frozenset({"leader", "effect"}),
    "allocate": frozenset({"side", "fleets", "leaders"}),
    "deploy": frozenset({"side", "squares"}),
}
STEP_COMMON = frozenset({"do", "dice", "expect", "results"})
UNIT_KEYS = ("flipped", "status", "side", "square", "aboard", "active", "returns", "moved", "failed", "kills")
LEADER_KEYS = ("status", "square", "aboard", "side")


@dataclass
class Session:
    state: State
    path: Path
    events: list[Event] = field(default_factory=list)
    leftover: list[str] = field(default_factory=list)


def _text(step: dict[str, Any], key: str, where: str) -> str:
    v = step.get(key)
    if not isinstance(v, str) or not v:
        raise CaseFailure(f'{where}: needs {key} = "..."')
    return v


def snapshot_of(s: State) -> tuple[Any, ...]:
    """Everything a refused step must leave untouched."""
    units = tuple(
        (
            u.id,
            u.side,
            u.square,
            u.flipped,
            u.status,
            u.aboard,
            tuple(u.cargo),
            u.captured,
            u.moved,
            u.attacked,
            u.failed,
            u.inspired,
            u.returns,
        )
        for u in s.units.values()
    )
    leaders = tuple((ld.id, ld.square, ld.aboard, ld.status, ld.plays, ld.moved) for ld in s.leaders.values())
    return (
        units,
        leaders,
        tuple(sorted(s.grid.items())),
        s.side,
        s.phase,
        s.turn,
        tuple(s.panicked),
        s.double_used,
        s.double_now,
        s.winner,
        tuple(sorted(s.stratagems.items())),
        tuple(sorted(s.allocations)),
    )


class BattleboardAdapter:
    engine = "battleboard"
    position_keys = frozenset({"board", "battle", "units", "leaders"})

    def build(self, doc: dict[str, Any], path: Path) -> Session:
        if doc.get("rules", "battleboard") != "battleboard":
            raise CaseFailure(f'rules {doc.get("rules")!r} is not "battleboard"')
        raw = {k: doc[k] for k in self.position_keys if k in doc}
        pos = validate(Position, raw, path)
        opts = doc.get("options", [])
        if not all(isinstance(o, str) for o in opts):
            raise CaseFailure("options must be a list of option ids")
        return Session(_build_state(pos, path, list(opts)), path)

    def apply(self, session: Session, step: dict[str, Any], dice: Dice) -> None:
        verb = step["do"]
        if verb not in VERB_KEYS:
            raise CaseFailure(f"unknown battleboard verb {verb!r}")
        unknown = set(step) - STEP_COMMON - VERB_KEYS[verb]
        if unknown:
            raise CaseFailure(f"{verb}: unknown key {sorted(unknown)[0]!r}")
        results = step.get("results")
        if results is not None and (
            not isinstance(results, list) or not all(r in ("-", "A", "B", "L") for r in results)
        ):
            raise CaseFailure(f'{verb}: results must be a list of "-", "A", "B", "L"')
        action = self._action(session.state, verb, step)
        new, events, chance = apply(session.state, action, dice, results)
        session.state = new
        session.events.extend(events)
        session.leftover = list(chance.results or [])

    def _unit(self, s: State, uid: str, where: str) -> None:
        if uid not in s.units and uid not in s.leaders:
            raise CaseFailure(f"{where}: there is no unit or leader {uid!r} in this case")

    def _action(self, s: State, verb: str, step: dict[str, Any]) -> Action:
        board = s.cfg.board
        if verb in ("end_turn", "command", "double", "withdraw"):
            return Action(verb)
        if verb == "move":
            uid = _text(step, "unit", verb)
            self._unit(s, uid, verb)
            to = _text(step, "to", verb)
            if to == "off":
                return Action("move", uid, to=OFF)
            sq = board.parse(to)
            if sq is None:
                raise RuleError(f"{to} is not a square of this board")
            return Action("move", uid, to=sq)
        if verb == "stratagem":
            lid = _text(step, "leader", verb)
            self._unit(s, lid, verb)
            return Action("stratagem", lid, effect=_text(step, "effect", verb))
        if verb == "allocate":
            fleets = step.get("fleets", {})
            leaders = step.get("leaders", {})
            if not isinstance(fleets, dict) or not all(
                isinstance(v, list) and all(isinstance(x, str) for x in v) for v in fleets.values()
            ):
                raise CaseFailure("allocate: fleets must be a table of fleet = [ground units]")
            if not isinstance(leaders, dict) or not all(isinstance(v, str) for v in leaders.values()):
                raise CaseFailure("allocate: leaders must be a table of leader = fleet")
            return Action(
                "allocate",
                side=_text(step, "side", verb),
                plan=tuple((f, tuple(v)) for f, v in fleets.items()),
                leader_plan=tuple(leaders.items()),
            )
        if verb == "deploy":
            squares = step.get("squares", {})
            if not isinstance(squares, dict):
                raise CaseFailure("deploy: squares must be a table of unit = square")
            placements = []
            for uid, name in squares.items():
                sq = board.parse(name) if isinstance(name, str) else None
                if sq is None:
                    raise RuleError(f"{name} is not a square of this board")
                placements.append((uid, sq))
            return Action("deploy", side=_text(step, "side", verb), placements=tuple(placements))
        attacker = _text(step, "attacker", verb)
        target = _text(step, "target", verb)
        self._unit(s, attacker, verb)
        self._unit(s, target, verb)
        if verb == "ram":
            return Action("attack", attacker, target=target, mode="ram")
        if verb == "fire":
            return Action("attack", attacker, target=target, mode="fire")
        mode = step.get("mode", "phalanx")
        if not isinstance(mode, str):
            raise CaseFailure(f"{verb}: mode must be an attack-mode id")
        if verb == "board":
            u = s.units.get(attacker)
            if u is not None and u.kind == "fleet":
                g = active_ground(s, u)
                if g is None:
                    raise RuleError(f"{attacker} carries no active ground unit to board with (004 Combat: Boarding)")
                attacker = g.id
            capture = step.get("capture", False)
            if not isinstance(capture, bool):
                raise CaseFailure("board: capture must be true or false")
            return Action("attack", attacker, target=target, mode=mode, capture=capture)
        return Action("attack", attacker, target=target, mode=mode)

    def snapshot(self, session: Session) -> Any:
        return snapshot_of(session.state)

    def observe(self, session: Session, key: str) -> Any:
        return observe(session.state, key)

    def finish_step(self, session: Session, step: dict[str, Any]) -> None:
        if session.leftover:
            raise CaseFailure(f"forced results were given but not used: {session.leftover}")


def observe(s: State, key: str) -> Any:
    """The value of one expectation key (FORMAT.md; docs/rules/battleboard.md §17)."""
    from battleboard.rules import scores, sp_lost

    if key == "winner":
        if s.phase != "over":
            return None
        return s.winner or "draw"
    if key == "panicked":
        return sorted(s.panicked)
    if key == "side":
        return s.side
    if key == "phase":
        return s.phase
    if key == "turn":
        return s.turn
    if key == "scores":
        return scores(s)
    if key == "lost":
        return {"A": sp_lost(s, "A", for_victory=False), "B": sp_lost(s, "B", for_victory=False)}
    if "." not in key:
        raise KeyError(key)
    who, attr = key.rsplit(".", 1)
    board = s.cfg.board
    if who in s.units:
        u = s.units[who]
        if attr not in UNIT_KEYS:
            raise KeyError(key)
        if attr == "status":
            if u.status == "active" and u.captured:
                return "captured"
            return u.status
        if attr == "square":
            if u.square is not None:
                return board.name(u.square)
            if u.aboard is not None and u.status == "active":
                f = s.units[u.aboard]
                return board.name(f.square) if f.square is not None else None
            return "off" if u.status in ("escaped", "broken_through") else None
        if attr == "aboard":
            return u.aboard
        if attr == "active":
            return u.aboard is not None and u.status == "active" and active_ground(s, s.units[u.aboard]) is u
        return getattr(u, attr)
    if who in s.leaders:
        ld = s.leaders[who]
        if attr not in LEADER_KEYS:
            raise KeyError(key)
        if attr == "square":
            if ld.aboard is not None:
                f = s.units[ld.aboard]
                return board.name(f.square) if f.square is not None else None
            return board.name(ld.square) if ld.square is not None else None
        return getattr(ld, attr)
    raise KeyError(key)


ADAPTER = BattleboardAdapter()
