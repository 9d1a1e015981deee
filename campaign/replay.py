"""The campaign's part of the replay viewer (``bellum.replay``, ``bellum replay FILE``).

A battle fought inside the campaign is opened by fighting it again: the action is applied
once more on a copy of the state and of the dice, with a resolver that notes each
engagement and where the dice stood; the battleboard auto-resolve is then played again
from there player turn by player turn, and the result is checked against the outcome the
campaign applied (a battle that would come out differently is refused, not shown)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bellum.dice import Dice
from bellum.engagement import Engagement, Outcome
from bellum.errors import BellumError
from bellum.events import Event
from bellum.replay import Frame, Replay, roll_line
from campaign.engine import CampaignEngine
from campaign.rules.common import place_name
from campaign.state import CampaignState


class CampaignReplay:
    def engine(self, options: dict[str, str]) -> CampaignEngine:
        from campaign.routes import route

        return CampaignEngine(resolver=route(options.get("battles", "auto")))

    def action_text(self, raw: dict[str, Any]) -> str:
        kind = str(raw.get("type", "?")).replace("_", " ")
        skip = ("type", "path", "outcome", "outcomes")
        parts = [
            ("with a stratagem" if v is True else str(v).replace("_", " "))
            for k, v in raw.items()
            if k not in skip and v is not False
        ]
        return " ".join([kind, *parts])

    def lines(self, events: Sequence[Event]) -> list[str]:
        return [e.text for e in events]

    def turn_name(self, state: CampaignState) -> str:
        return state.date()

    def summary(self, state: CampaignState) -> list[str]:
        """Where the war stands: the date and who acts, then per side its holdings, hand and
        largest armies (the viewer's right-hand panel)."""
        from campaign.rules.common import force_name
        from campaign.state import SIDES, side_title

        out = [f"{state.date()}, {state.phase.replace('_', ' ')} phase", f"{side_title(state.actor)} to act."]
        if state.result:
            out.append(f"The war is over: {state.result.get('text', '')}")
        for side in SIDES:
            held = sum(1 for p in state.owners if state.owner_side(p) == side)
            forces = sorted(state.forces_of(side), key=lambda f: -f.strength())
            sp = sum(f.strength() for f in forces)
            hand = sum(state.stratagems.get(side, {}).values())
            out.append("")
            out.append(f"{side_title(side)}: {held} places, {sp} SP in {len(forces)} forces, {hand} stratagems")
            for f in forces[:5]:
                out.append(f"  {force_name(f)}: {f.strength()} SP at {place_name(f.location)}")
        return out

    def battles(
        self, engine: Any, before: CampaignState, raw: dict[str, Any], dice: Dice | None
    ) -> list[tuple[str, Callable[[], Replay]]]:
        if dice is None:
            return []
        fought: list[tuple[Engagement, int, int, Outcome]] = []
        resolver = engine.resolver

        def noting(eng: Engagement, d: Dice) -> Outcome:
            seed, counter = d.seed, d.counter
            out: Outcome = resolver(eng, d)
            fought.append((eng, seed, counter, out))
            return out

        probe = CampaignEngine(resolver=noting)
        probe.apply(before, probe.decode_action(raw), Dice(dice.seed, counter=dice.counter))
        out = []
        for eng, seed, counter, result in fought:
            where = place_name(eng.where)
            title = f"Battle at sea off {where}" if eng.kind == "naval" else f"Battle of {where}"
            if eng.kind == "naval" and eng.trigger == "storm":
                title = f"Storm of {where}"
            out.append((title, _builder(title, eng, seed, counter, result)))
        return out


def _builder(title: str, eng: Engagement, seed: int, counter: int, result: Outcome) -> Callable[[], Replay]:
    def build() -> Replay:
        return battle_replay(title, eng, seed, counter, result)

    return build


def battle_replay(title: str, eng: Engagement, seed: int, counter: int, result: Outcome) -> Replay:
    """A campaign battle fought again on the battleboard, player turn by player turn."""
    from battleboard.ai import play_turn
    from battleboard.resolve import AUTO_ROLLOUTS, MAX_ACTIONS, outcome, state_from_engagement
    from battleboard.rules import Chance

    if result.engine == "tactical":
        return tactical_replay(title, eng, seed, counter, result)
    dice = Dice(seed, counter=counter)
    s = state_from_engagement(eng)
    chance = Chance(dice)
    sides = {k: v.faction for k, v in eng.sides.items()}
    frames = [
        Frame(0, f"{title}: the armies take the field", [f"Side A: {sides['A']}, side B: {sides['B']}"], [], s.clone())
    ]
    turns = ["Set-up"]
    for _ in range(MAX_ACTIONS):
        if s.phase == "over":
            break
        ev: list[Event] = []
        start = len(dice.rolls)
        side, turn, phase = s.side, s.turn, s.phase
        play_turn(s, chance, ev, AUTO_ROLLOUTS)  # as the auto-resolve fought it
        name = "Set-up" if phase in ("allocate", "deploy") else f"Battle turn {turn}"
        if name != turns[-1]:
            turns.append(name)
        label = "sets up" if phase in ("allocate", "deploy") else "plays its turn"
        frames.append(
            Frame(
                len(turns) - 1,
                f"{name}: side {side} {label}",
                [e.text for e in ev],
                [roll_line(r) for r in dice.rolls[start:]],
                s.clone(),
            )
        )
    again = outcome(s, eng, dice)
    if again.model_dump() != result.model_dump():
        raise BellumError(f"{title} does not come out the same when fought again")
    frames[-1].lines.append(f"Winner: {again.winner or 'none'} ({again.reason}).")
    return Replay(title, "battleboard", frames, turns)


def tactical_replay(title: str, eng: Engagement, seed: int, counter: int, result: Outcome) -> Replay:
    """A campaign battle fought again on the tactical engine (``conversion.fight_tactical``,
    watched), action by action, a turn being each side's run of actions."""
    from campaign.conversion import fight_tactical, outcome_from_tactical

    dice = Dice(seed, counter=counter)
    frames: list[Frame] = []
    turns: list[str] = []
    mark = [len(dice.rolls)]
    acting: list[str] = []

    def watch(field: Any, events: list[Event], activations: int) -> None:
        if not frames:  # the field drawn and the first side rolled, before any action
            turns.append("Set-up")
            rolls = [roll_line(r) for r in dice.rolls[mark[0] :]]
            mark[0] = len(dice.rolls)
            frames.append(Frame(0, f"{title}: the armies take the field", [e.text for e in events], rolls, field))
            acting.append(field.acting)
            return
        side = acting[-1]  # who acted: the side to act before the action
        acting.append(field.acting)
        if not turns or not turns[-1].endswith(f"Side {side} acts"):
            turns.append(f"{len(turns) + 1}. Side {side} acts")
        name = turns[-1]
        rolls = [roll_line(r) for r in dice.rolls[mark[0] :]]
        mark[0] = len(dice.rolls)
        said = events[0].text if events else "no effect"
        frames.append(Frame(len(turns) - 1, f"{name}: {said}", [e.text for e in events], rolls, field))

    _, final, activations = fight_tactical(eng, dice, watch=watch)
    again = outcome_from_tactical(eng, final, turns=activations)
    if again.model_dump() != result.model_dump():
        raise BellumError(f"{title} does not come out the same when fought again")
    if frames:
        frames[-1].lines.append(f"Winner: {again.winner or 'none'} ({again.reason}).")
    return Replay(title, "tactical", frames, turns)


ADAPTER = CampaignReplay()
