"""The battleboard AI's decisions are pinned (issue 20 item 2): a faster AI must play the very
same battles.  Seeded battles — auto-resolve on land and at sea, the window's ``choose``
step by step, and the AI against the random and greedy baselines — are played and a digest of
each action log, every die rolled and every unit's fate is compared with the digest the
reference code gave.

The digests were first recorded with the code of main at aad44e6, before the AI was made
faster (issue 20 item 2), and that faster code played every pinned battle identically.  A
deliberate change of the AI's play records them again (``python -m
tests.battleboard.test_ai_identity``) and says so here and in its commit:

- issue 19 item 4 changed the AI's play at sea only (a defender's threat weighed, the
  intercepted side running only when clearly outmatched): the sea digests were recorded
  again; the land digests are still those of aad44e6.
- issue 19 item 4's look-ahead (``ai.search_turn``: each decision of a turn played out to the
  battle's end) changed the AI's play on land and at sea in battles of up to 16 units on the
  board: both digests were recorded again.  ``ai.base_turn`` (no play-outs) still plays
  exactly as before: ``test_the_ai_without_play_outs_plays_as_before`` pins it with the
  digests of before.
- issue 19 item 4's look-ahead at sea (its play-outs stopped after the enemy's reply and
  weighed by the margin then, three times as many, ``ai.SEA_HORIZON``) changed the
  look-ahead's play at sea only: the sea digest was recorded again; the land digest and both
  ``base_turn`` digests are unchanged.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import pytest

from battleboard.ai import choose, play_turn
from battleboard.ai_baselines import baseline
from battleboard.model import Action, State
from battleboard.resolve import state_from_engagement
from battleboard.rules import Chance, play
from battleboard.scenario import load_scenario
from bellum.dice import Dice
from bellum.engagement import Engagement
from tests.battleboard.helpers import land_engagement, naval_engagement

MAX_ACTIONS = 20_000
FIELDS = ("verb", "unit", "to", "target", "mode", "capture", "side", "effect", "plan", "placements", "leader_plan")


def _digest(s: State, chance: Chance, record: list[Action]) -> str:
    h = hashlib.sha256()
    for a in record:  # by attribute: the same whatever class an action is
        h.update(repr(tuple(getattr(a, f, None) for f in FIELDS)).encode())
    for r in chance.dice.rolls:
        h.update(f"{r.label}:{r.value};".encode())
    for u in s.units.values():
        h.update(f"{u.id}:{u.side}:{u.status}:{u.square}:{u.flipped}:{u.strength};".encode())
    for ld in s.leaders.values():
        h.update(f"{ld.id}:{ld.status}:{ld.square}:{ld.aboard};".encode())
    h.update(f"{s.winner}:{s.turn}:{s.end_reason}".encode())
    return h.hexdigest()[:16]


def _auto(start: State, seed: int, *, step: bool = False) -> str:
    s = start.clone()
    record: list[Action] = []
    chance = Chance(Dice(seed), record=record)
    for _ in range(MAX_ACTIONS):
        if s.phase == "over":
            break
        if step:
            play(s, choose(s), chance)
        else:
            play_turn(s, chance)
    return _digest(s, chance, record)


def _versus(scenario: str, seed: int, ai_side: str, opponent: str) -> str:
    _, start = load_scenario(scenario)
    s = start.clone()
    record: list[Action] = []
    chance = Chance(Dice(seed), record=record)
    other = baseline(opponent, seed + 1000)
    for _ in range(MAX_ACTIONS):
        if s.phase == "over":
            break
        if s.side == ai_side:
            play_turn(s, chance)
        else:
            play(s, other.choose(s), chance)
    return _digest(s, chance, record)


ENGAGEMENTS: dict[str, Callable[[], Engagement]] = {
    "land12-field": lambda: land_engagement(12, "field"),
    "land12-hills": lambda: land_engagement(12, "hills"),
    "land8-river": lambda: land_engagement(8, "river"),
    "naval12-mutual": lambda: naval_engagement(12, "mutual"),
    "naval6-interception": lambda: naval_engagement(6, "interception"),
    "naval9-mutual": lambda: naval_engagement(9, "mutual"),
}
SEEDS = range(1, 21)


def digests() -> dict[str, str]:
    """Every pinned battle's digest, by name."""
    out: dict[str, str] = {}
    for name, make in ENGAGEMENTS.items():
        start = state_from_engagement(make())
        for seed in SEEDS:
            out[f"{name}/{seed}"] = _auto(start, seed)
        out[f"{name}/choose/1"] = _auto(start, 1, step=True)
    for scenario in ("field-pharsalus", "mountain-pass", "supply-battle", "sea-interception"):
        _, start = load_scenario(scenario)
        out[f"{scenario}/auto/1"] = _auto(start, 1)
        for opponent in ("random", "greedy"):
            for side in ("A", "B"):
                for seed in (1, 2, 3):
                    out[f"{scenario}/{opponent}/{side}/{seed}"] = _versus(scenario, seed, side, opponent)
    return out


LAND = ("land", "field-pharsalus", "mountain-pass")


def combined(found: dict[str, str], land: bool) -> str:
    """One digest of the land battles' digests, or of the sea battles'."""
    part = sorted((k, v) for k, v in found.items() if k.startswith(LAND) == land)
    return hashlib.sha256(repr(part).encode()).hexdigest()[:16]


#: recorded with ``python -m tests.battleboard.test_ai_identity`` (see the module docstring)
EXPECTED_LAND = "24d387b9f8717cb1"  # issue 19 item 4's look-ahead (before: f2f383202e21813e, aad44e6)
EXPECTED_SEA = "8afecb0684ab018d"  # the look-ahead's sea horizon (before: 381b9a8d1b0c9a3c, 978e778bfe5479ea)
#: the AI's own reading, no play-outs (``ai.base_turn``): the digests before the look-ahead
BEFORE_LAND = "f2f383202e21813e"
BEFORE_SEA = "978e778bfe5479ea"


def test_the_ai_without_play_outs_plays_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    import battleboard.ai

    monkeypatch.setattr(battleboard.ai, "ROLLOUTS", 0)
    found = digests()
    assert combined(found, True) == BEFORE_LAND, "the battleboard AI's own reading changed on land"
    assert combined(found, False) == BEFORE_SEA, "the battleboard AI's own reading changed at sea"


def test_the_ai_plays_the_pinned_battles() -> None:
    found = digests()
    assert combined(found, True) == EXPECTED_LAND, "the battleboard AI's play on land changed"
    assert combined(found, False) == EXPECTED_SEA, "the battleboard AI's play at sea changed"


@pytest.mark.parametrize("name", ["land12-field", "naval12-mutual"])
def test_a_digest_changes_with_the_dice(name: str) -> None:
    start = state_from_engagement(ENGAGEMENTS[name]())
    assert _auto(start, 1) != _auto(start, 2)


def record() -> None:
    """Print every digest and the combined ones (to pin a deliberate change of play)."""
    found = digests()
    for k, v in sorted(found.items()):
        print(k, v)
    print("land", combined(found, True))
    print("sea", combined(found, False))


if __name__ == "__main__":
    record()
