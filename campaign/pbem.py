"""The campaign's adapter for play by e-mail (``bellum.pbem``, docs/PBEM.md).

Who acts is the rules' own answer (``CampaignState.actor``: the side a pending decision
waits on, else the active side), so a turn file stops wherever the rules hand a decision
to the other side — at the end of a phase, and for the defender's stratagems in a battle,
an interception, a naval battle offered, the fight for sea supply or a Tribune's veto.
Battles are fought by the chosen engine's AI on the turn's chain dice (``options.battles``:
``campaign.routes``); a result fought elsewhere may not travel in a turn file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, replace
from typing import Any, ClassVar, Literal

from bellum.dice import Dice
from bellum.engagement import Engagement
from bellum.errors import RuleError
from bellum.events import Event
from bellum.paths import game_data
from campaign import actions as A
from campaign.engine import CampaignEngine
from campaign.odds import BattleAhead, stop_at_battle
from campaign.routes import route, tactical_ok
from campaign.rules.common import place_name
from campaign.state import SIDES, CampaignState


class CampaignRules:
    name: Literal["campaign"] = "campaign"
    sides: tuple[str, str] = SIDES
    options: ClassVar[dict[str, tuple[str, ...]]] = {
        "battles": ("auto", "tactical", "decisive-tactical", "played", "played-tactical")
    }

    def engine(self, options: dict[str, str]) -> CampaignEngine:
        mode = options.get("battles", "auto")
        return CampaignEngine(resolver=route("auto" if mode.startswith("played") else mode))

    def title(self, side: str) -> str:
        return {"caesarian": "the Caesarians", "senatorial": "the Senatorials"}.get(side, side)

    def side_named(self, text: str) -> str | None:
        t = text.strip().lower().removeprefix("the ")
        for side in SIDES:
            if t in (side, side + "s"):
                return side
        return {"caesar": SIDES[0], "pompey": SIDES[1], "pompeians": SIDES[1], "optimates": SIDES[1]}.get(t)

    def shipped(self, scenario: str) -> bool:
        return game_data("scenarios", "campaign", f"{scenario}.toml").is_file()

    def actor(self, state: CampaignState) -> str:
        return state.actor

    def over(self, state: CampaignState) -> bool:
        return bool(state.result)

    def when(self, state: CampaignState) -> str:
        return f"{state.date()}, {state.phase.replace('_', ' ')}"

    def refuse(self, raw: dict[str, Any]) -> str | None:
        if "outcome" in raw or "outcomes" in raw:
            return (
                "carries the result of a battle fought elsewhere; in a game by e-mail every battle is fought again "
                "from the dice"
            )
        return None

    def ai(self) -> Callable[[CampaignState], A.Action]:
        from campaign.ai import CampaignAI

        return CampaignAI().choose

    def battle_for(
        self, engine: Any, state: CampaignState, action: A.Action, dice: Dice, options: dict[str, str]
    ) -> PlayedBattle | PlayedTacticalBattle | None:
        """With ``battles = "played"``: the battle between the two sides that a deciding action
        (a field battle's ``Commit``, an interception, a naval battle accepted) opens, fought
        move by move on the battleboard.  The probe rolls the action's own dice before its
        battle on the real dice (kept: they are the step's); anything else leaves them as they were."""
        mode = options.get("battles", "")
        if not mode.startswith("played") or not isinstance(action, A.Commit | A.Accept | A.Intercept):
            return None
        start = dice.counter, len(dice.rolls)
        try:
            CampaignEngine(resolver=stop_at_battle).apply(state, action, dice)
        except BattleAhead as ahead:
            eng = ahead.engagement
            if {eng.sides["A"].faction, eng.sides["B"].faction} == set(SIDES):
                pre = [r.value for r in dice.rolls[start[1] :]]
                if mode == "played-tactical" and tactical_ok(eng):
                    return PlayedTacticalBattle(eng, A.encode(action), pre, dice)
                return PlayedBattle(eng, A.encode(action), pre)
        dice.counter = start[0]
        del dice.rolls[start[1] :]
        return None


class PlayedBattle:
    """A battle between the two players on the battleboard, inside a game by e-mail
    (``bellum.pbem.Battle``).  The side to decide is the battleboard's side to act, by its
    campaign faction; during the secret allocation at sea (battleboard.md §13.2) the first
    side still to allocate, whose choice is sealed until the other has allocated too."""

    def __init__(self, eng: Engagement, deciding: dict[str, Any], pre: list[int], state: Any = None) -> None:
        from battleboard.resolve import state_from_engagement

        self.eng = eng
        self.deciding = deciding
        self.pre = pre
        self.state = state if state is not None else state_from_engagement(eng)
        self.seals: dict[str, str] = {}
        where = place_name(eng.where)
        self.title = f"the battle at sea off {where}" if eng.kind == "naval" else f"the battle of {where}"

    def copy(self) -> PlayedBattle:
        other = PlayedBattle(self.eng, self.deciding, list(self.pre), self.state.clone())
        other.seals = dict(self.seals)
        return other

    def faction(self, letter: str) -> str:
        return self.eng.sides[letter].faction  # type: ignore[index]

    def letter(self, side: str) -> str:
        return "A" if self.faction("A") == side else "B"

    def _allocating(self) -> list[str]:
        """The battleboard sides still to allocate, in order."""
        from battleboard.rules import legal_actions

        return list(dict.fromkeys(a.side for a in legal_actions(self.state)))

    def actor(self) -> str:
        s = self.state
        if s.phase == "allocate":
            waiting = self._allocating()
            free = [x for x in waiting if self.faction(x) not in self.seals]
            return self.faction(free[0] if free else waiting[0])
        return self.faction(s.side)

    def legal(self) -> list[Any]:
        from battleboard.rules import legal_actions

        acts = legal_actions(self.state)
        if self.state.phase == "allocate":
            mine = self.letter(self.actor())
            return [a for a in acts if a.side == mine]
        return acts

    def encode(self, move: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"verb": move.verb}
        for name in move._fields[1:]:
            value = getattr(move, name)
            if value != move._field_defaults[name]:
                out[name] = _plain(value)
        return out

    def decode(self, raw: dict[str, Any]) -> Any:
        from battleboard.model import Action

        if not isinstance(raw, dict) or not isinstance(raw.get("verb"), str):
            raise ValueError("a battle move is a table with a verb")
        extra = set(raw) - set(Action._fields)
        if extra:
            raise ValueError(f"a battle move has no field {sorted(extra)[0]!r}")
        kwargs: dict[str, Any] = {}
        for name, value in raw.items():
            kwargs[name] = _tuples(value) if name in ("plan", "placements", "leader_plan") else value
        return Action(**kwargs)

    def allowed(self, move: Any) -> bool:
        return move in self.legal()

    def must_seal(self, move: Any) -> bool:
        if self.state.phase != "allocate" or move.verb != "allocate":
            return False
        return any(x != move.side and self.faction(x) not in self.seals for x in self._allocating())

    def seal(self, side: str, sealed: str) -> None:
        self.seals[side] = sealed

    def sealed(self, side: str) -> str:
        return self.seals.get(side, "")

    def apply(self, move: Any, dice: Dice) -> list[Event]:
        from battleboard.rules import apply

        self.seals.pop(self.faction(move.side) if move.verb == "allocate" else "", None)
        self.state, events, _ = apply(self.state, move, dice)
        return events

    def over(self) -> bool:
        return bool(self.state.phase == "over")

    def close(self, dice: Dice) -> A.Action:
        from battleboard.resolve import outcome

        out = outcome(self.state, self.eng, dice)
        deciding = A.decode(self.deciding)
        assert isinstance(deciding, A.Commit | A.Accept | A.Intercept)
        return replace(deciding, outcome=out)

    def choose(self) -> Any:
        from battleboard.ai import choose

        if self.state.phase == "allocate":
            return self.legal()[0]
        return choose(self.state)

    def data_state(self) -> Any:
        return self.state

    def data(self) -> dict[str, Any]:
        s = self.state
        return {
            "engagement": self.eng.id,
            "deciding": self.deciding,
            "pre": self.pre,
            "seals": dict(sorted(self.seals.items())),
            "phase": s.phase,
            "side": s.side,
            "turn": s.turn,
            "units": {k: asdict(u) for k, u in sorted(s.units.items())},
            "leaders": {k: asdict(ld) for k, ld in sorted(s.leaders.items())},
            "panicked": list(s.panicked),
            "double": [s.double_used, s.double_now, s.moved_any],
            "allocated": sorted(s.allocations),
            "deployed": list(s.deployed),
            "winner": s.winner or "",
        }


class PlayedTacticalBattle:
    """A land field battle between the two players on the tactical engine, inside a game by
    e-mail (``--battles played-tactical``; campaign.md §12.7): the battlefield drawn and the
    first player rolled on the turn's dice when the battle opens, then every action the
    side to act's (``State.acting``: the defender while a reaction waits on him, tactical.md
    §8.13), the outcome converted back when the battle is over."""

    def __init__(self, eng: Engagement, deciding: dict[str, Any], pre: list[int], dice: Dice | None) -> None:
        from campaign.conversion import army
        from tactical.engagement import battle_scenario, build
        from tactical.sequence import who_goes_first

        self.eng = eng
        self.deciding = deciding
        self.pre = pre
        self.activations = 0
        self.state: Any = None
        if dice is not None:
            sc = build(battle_scenario(eng, army(eng), dice))
            self.state = sc.state.copy()
            events: list[Event] = []
            who_goes_first(self.state, dice, events, first=sc.model.first if sc.model.first != "roll" else None)
        self.title = f"the battle of {place_name(eng.where)}"
        self._ai: Any = None

    def copy(self) -> PlayedTacticalBattle:
        other = PlayedTacticalBattle(self.eng, self.deciding, list(self.pre), None)
        other.state, other.activations, other._ai = self.state, self.activations, self._ai
        return other

    def faction(self, letter: str) -> str:
        return self.eng.sides[letter].faction  # type: ignore[index]

    def letter(self, side: str) -> str:
        return "A" if self.faction("A") == side else "B"

    def actor(self) -> str:
        return self.faction(self.state.acting)

    def legal(self) -> list[Any]:
        from tactical.legal import legal_actions

        return list(legal_actions(self.state))

    def encode(self, move: Any) -> dict[str, Any]:
        return {"action": move.notation()}

    def decode(self, raw: dict[str, Any]) -> Any:
        from tactical.actions import parse_action

        text = raw.get("action") if isinstance(raw, dict) else None
        if not isinstance(text, str) or set(raw) != {"action"}:
            raise ValueError("a tactical move is {action = '<notation>'}")
        return parse_action(text)

    def allowed(self, move: Any) -> bool:
        """The tactical engine's ``apply`` refuses every illegal action itself, before any die
        (tactical/engine.py), and accepts a combat's attackers in any order, which the
        generator lists in one; so only the side is checked here."""
        return bool(getattr(move, "side", self.state.acting) in (self.state.acting, None))

    def must_seal(self, move: Any) -> bool:
        return False

    def seal(self, side: str, sealed: str) -> None:
        raise RuleError("Nothing is chosen in secret on the tactical map.")

    def sealed(self, side: str) -> str:
        return ""

    def apply(self, move: Any, dice: Dice) -> list[Event]:
        from tactical.engine import apply

        before = self.state.seq.phase
        self.state, events = apply(self.state, move, dice)
        if before in ("activation", "continuity") and self.state.seq.phase not in ("activation", "continuity"):
            self.activations += 1  # counted as resolve_tactical counts them (the outcome's turns)
        return events

    def over(self) -> bool:
        return bool(self.state.seq.phase == "over")

    def close(self, dice: Dice) -> A.Action:
        from campaign.conversion import outcome_from_tactical

        out = outcome_from_tactical(self.eng, self.state, turns=self.activations)
        deciding = A.decode(self.deciding)
        assert isinstance(deciding, A.Commit | A.Accept | A.Intercept)
        return replace(deciding, outcome=out)

    def choose(self) -> Any:
        from tactical.ai import TacticalAI

        if self._ai is None:
            self._ai = TacticalAI(0)
        return self._ai.choose(self.state)

    def data_state(self) -> Any:
        return self.state

    def data(self) -> dict[str, Any]:
        from tactical.game import encode_state

        return {
            "engagement": self.eng.id,
            "deciding": self.deciding,
            "pre": self.pre,
            "activations": self.activations,
            "field": encode_state(self.state),
        }


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


RULES = CampaignRules()
