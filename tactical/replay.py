"""The tactical engine's part of the replay viewer (``bellum.replay``): a battle's save
stepped action by action, grouped by game turn."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bellum.dice import Dice
from bellum.events import Event
from bellum.replay import Replay
from tactical.game import TacticalEngine
from tactical.state import State


class TacticalReplay:
    def engine(self, options: dict[str, str]) -> TacticalEngine:
        return TacticalEngine()

    def action_text(self, raw: dict[str, Any]) -> str:
        return str(raw.get("action", "?"))

    def lines(self, events: Sequence[Event]) -> list[str]:
        return [e.text for e in events]

    def turn_name(self, state: State) -> str:
        return f"Side {state.seq.side} to act"

    def summary(self, state: State) -> list[str]:
        out = [f"Side {state.seq.side} to act ({state.seq.phase})."]
        for side in ("A", "B"):
            units = [u for u in state.units.values() if u.side == side]
            on_map = [u for u in units if u.hex >= 0]
            out.append(f"Side {side}: {len(on_map)} of {len(units)} units on the field")
            level = state.withdrawal.get(side)
            points = state.rout_points.get(side, 0)
            out.append(f"  rout points {points}" + (f" of {level} (withdrawal)" if level else ""))
            statuses: dict[str, int] = {}
            for u in on_map:
                statuses[u.status] = statuses.get(u.status, 0) + 1
            out.append("  " + ", ".join(f"{n} {k}" for k, n in sorted(statuses.items())))
        return out

    def battles(
        self, engine: Any, before: Any, raw: dict[str, Any], dice: Dice | None
    ) -> list[tuple[str, Callable[[], Replay]]]:
        return []


ADAPTER = TacticalReplay()
