"""A mid-sized battle for random playouts (issue 4 acceptance)."""

from __future__ import annotations

from typing import Any

from bellum.dice import Dice
from tactical.engine import apply
from tactical.legal import legal_actions
from tactical.state import State
from tests.tactical.helpers import position


def battle(rules: str = "simple-spqr") -> State:
    units: list[dict[str, Any]] = []
    a_types = [
        ("HI", 6, 6, None),
        ("LI", 4, 7, "J"),
        ("HC", 4, 8, None),
        ("SK", 1, 8, "S"),
        ("HI", 6, 6, None),
        ("LC", 3, 9, "MJ"),
        ("MI", 5, 6, None),
        ("EL", 5, 6, None),
    ]
    b_types = [
        ("HI", 6, 6, None),
        ("LI", 4, 7, "J"),
        ("LC", 3, 9, "MJ"),
        ("SK", 1, 8, "A"),
        ("BI", 6, 6, None),
        ("HC", 4, 8, None),
        ("CH", 2, 8, None),
        ("MI", 5, 6, None),
    ]
    for k, (t, size, ma, missile) in enumerate(a_types):
        units.append(
            {
                "id": f"A{k}",
                "side": "A",
                "type": t,
                "size": size,
                "tq": 5 + k % 3,
                "ma": ma,
                "hex": f"{5 + 2 * k:02d}10",
                "facing": 12,
                **({"missile": missile} if missile else {}),
            }
        )
    for k, (t, size, ma, missile) in enumerate(b_types):
        units.append(
            {
                "id": f"B{k}",
                "side": "B",
                "type": t,
                "size": size,
                "tq": 5 + (k + 1) % 3,
                "ma": ma,
                "hex": f"{5 + 2 * k:02d}06",
                "facing": 6,
                **({"missile": missile} if missile else {}),
            }
        )
    leaders = [
        {"id": "LA1", "side": "A", "hex": "0811", "initiative": 5, "range": 5, "elite": True},
        {"id": "LA2", "side": "A", "hex": "1511", "initiative": 4, "range": 4},
        {"id": "LB1", "side": "B", "hex": "0805", "initiative": 5, "range": 5},
        {"id": "LB2", "side": "B", "hex": "1505", "initiative": 3, "range": 4},
    ]
    st = position(
        units,
        leaders,
        rules=rules,
        sequence={"phase": "start"},
        columns=24,
        rows=15,
        terrain={"1208": "woods", "0908": "rough", "1808": "marsh"},
        level={"1407": 1},
    )
    st.withdrawal.update({"A": 18, "B": 18})
    return st


def play(seed: int, check: Any, max_actions: int = 20000) -> tuple[State, list[str]]:
    """Both sides choose uniformly among the legal actions; ``check`` runs after every action."""
    state = battle()
    dice = Dice(seed)
    chooser = Dice(seed ^ 0x5EED)
    log: list[str] = []
    for _ in range(max_actions):
        acts = legal_actions(state)
        if not acts:
            break
        action = acts[chooser.roll(len(acts), "choice") - 1]
        state, _events = apply(state, action, dice)
        log.append(action.notation())
        check(state)
    return state, log
