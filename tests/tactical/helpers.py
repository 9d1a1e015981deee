"""Building tactical positions in tests (through the same pydantic input models as cases)."""

from __future__ import annotations

from typing import Any

from bellum.tomlio import validate
from tactical.models import PositionIn, build_state
from tactical.state import State


def position(
    units: list[dict[str, Any]] | None = None,
    leaders: list[dict[str, Any]] | None = None,
    rules: str = "simple-spqr",
    sequence: dict[str, Any] | None = None,
    **map_keys: Any,
) -> State:
    raw: dict[str, Any] = {"rules": rules, "units": units or [], "leaders": leaders or []}
    if map_keys:
        raw["map"] = map_keys
    raw["sequence"] = sequence if sequence is not None else {"side": "A", "phase": "move"}
    return build_state(validate(PositionIn, raw, "test"), "test")


def unit(uid: str, side: str, hex_: str, facing: int = 12, utype: str = "HI", ma: int = 6, **kw: Any) -> dict[str, Any]:
    return {"id": uid, "side": side, "type": utype, "size": 6, "tq": 6, "ma": ma, "hex": hex_, "facing": facing, **kw}
