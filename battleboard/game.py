"""``BattleboardEngine``: a stand-alone battleboard battle as a ``bellum.session.Engine``, so
it saves and loads like the other engines (issue 22): the scenario, the seed, the dice
state, the action log and a checksum of the state; loading replays the log from the
scenario and the seed through ``rules.apply`` (every action checked again) and refuses a
replay that does not reach the saved state.

Actions are stored field by field (``{verb = "move", unit = "X", to = 14}``; squares as the
model's numbers, ``-1`` off the board); a saved action with a field the game does not know,
or a value of the wrong type, is refused in one sentence.  The AI's whole turns
(``ai.play_turn``, used by the headless ``bellum board``) are recorded action by action
(``autoplay(..., record=…)``), so a headless battle saves the same log a window battle does.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from battleboard.model import OFF, Action, State
from battleboard.rules import apply, legal_actions
from battleboard.scenario import Scenario, load_scenario
from bellum.dice import Dice
from bellum.errors import InputError
from bellum.events import Event
from bellum.saves import Engine as EngineName
from bellum.tomlio import validate

Verb = Literal["command", "move", "attack", "end_turn", "double", "stratagem", "allocate", "deploy", "withdraw"]
_Name = str  # a unit, fleet or leader id as the scenario spells it (checked by the rules)


class ActionIn(BaseModel):
    """One saved action: the fields of ``battleboard.model.Action`` that are not at their default."""

    model_config = ConfigDict(extra="forbid", strict=True)

    verb: Verb
    unit: _Name = Field("", max_length=40)
    to: int | None = Field(None, ge=OFF, le=26 * 30)
    target: _Name = Field("", max_length=40)
    mode: str = Field("", max_length=20)
    capture: bool = False
    side: Literal["", "A", "B"] = ""
    effect: str = Field("", max_length=20)
    plan: list[tuple[_Name, list[_Name]]] = Field(default_factory=list, max_length=100)
    placements: list[tuple[_Name, int]] = Field(default_factory=list, max_length=200)
    leader_plan: list[tuple[_Name, _Name]] = Field(default_factory=list, max_length=100)


@cache
def load(name: str, options: tuple[str, ...] | None = None) -> tuple[Scenario, State]:
    """A scenario by bare name or path, loaded once (its state is cloned before play); with
    ``options`` under the optional rules a player chose instead of its own (battleboard/options.py)."""
    return load_scenario(name, options)


def encode_action(a: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"verb": a.verb}
    for name, default in Action._field_defaults.items():
        value = getattr(a, name)
        if value == default:
            continue
        if name == "plan":
            value = [[fid, list(gids)] for fid, gids in value]
        elif name in ("placements", "leader_plan"):
            value = [list(pair) for pair in value]
        out[name] = value
    return out


def decode_action(raw: dict[str, Any]) -> Action:
    """A saved action, strictly: an unknown field or a value of the wrong type is a ``ValueError``
    sentence (``Session.replay`` names the save and the action)."""
    try:
        a = validate(ActionIn, raw, "the action")
    except InputError as exc:
        raise ValueError(f"{exc.place}: {exc.problem}") from None
    return Action(
        a.verb,
        a.unit,
        a.to,
        a.target,
        a.mode,
        a.capture,
        a.side,
        a.effect,
        tuple((fid, tuple(gids)) for fid, gids in a.plan),
        tuple((uid, sq) for uid, sq in a.placements),
        tuple((lid, fid) for lid, fid in a.leader_plan),
    )


def encode_state(s: State) -> dict[str, Any]:
    """Everything that changes in play, as plain data (for saves and the drift checksum)."""
    return {
        "units": {
            u.id: [
                u.side,
                u.kind,
                u.discipline,
                u.strength,
                u.square,
                u.flipped,
                u.status,
                u.aboard,
                list(u.cargo),
                u.captured,
                u.captor,
                u.captured_now,
                u.moved,
                u.attacked,
                u.failed,
                u.inspired,
                u.returns,
                u.kills,
            ]
            for u in sorted(s.units.values(), key=lambda x: x.id)
        },
        "leaders": {
            ld.id: [ld.side, ld.square, ld.aboard, ld.status, ld.plays, ld.moved]
            for ld in sorted(s.leaders.values(), key=lambda x: x.id)
        },
        "side": s.side,
        "phase": s.phase,
        "turn": s.turn,
        "superior": s.superior,
        "stratagems": dict(s.stratagems),
        "panicked": list(s.panicked),
        "double": [s.double_used, s.double_now, s.moved_any],
        "winner": s.winner,
        "end_reason": s.end_reason,
        "allocations": {side: encode_action(a) for side, a in sorted(s.allocations.items())},
        "deployed": list(s.deployed),
    }


class BattleboardEngine:
    """The battleboard's ``Engine`` for ``bellum.session.Session``."""

    name: EngineName = "battleboard"

    def new_state(self, scenario: str, dice: Dice) -> State:
        return load(scenario)[1].clone()

    def new_state_with(self, scenario: str, dice: Dice, options: Sequence[str]) -> State:
        """The scenario under the rule options a player chose (a save's ``[save] options``)."""
        return load(scenario, tuple(options))[1].clone()

    def apply(self, state: State, action: Action, dice: Dice) -> tuple[State, list[Event]]:
        new, events, _ = apply(state, action, dice)
        return new, events

    def legal_actions(self, state: State) -> Sequence[Action]:
        return legal_actions(state)

    def encode_action(self, action: Action) -> dict[str, Any]:
        return encode_action(action)

    def decode_action(self, raw: dict[str, Any]) -> Action:
        return decode_action(raw)

    def encode_state(self, state: State) -> dict[str, Any]:
        return encode_state(state)

    def may_undo(self, before: State, after: State) -> bool:
        """Any step that rolled no die (``Session`` never takes back a roll)."""
        return True
