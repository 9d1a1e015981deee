"""Attacking a barbarian horde on the move (docs/rules/campaign.md §8.3, §19.4)."""

from __future__ import annotations

from bellum.dice import Dice
from campaign import actions as A
from campaign.engine import legal_actions
from campaign.rules.march import destinations
from campaign.rules.presence import blocked, horde_at
from tests.campaign.test_ops_sequence import fresh, play, put


def test_a_waiting_horde_blocks_the_way_but_a_stirring_one_may_be_attacked() -> None:
    """§8.3: a horde beyond the frontier is at peace and blocks; once it stirs (§19.4) an
    army may march into its space."""
    s = fresh(keep=["caesar", "horde_germani"])
    put(s, "horde_germani", "ariminum")
    assert blocked(s, "caesarian", "ariminum")
    assert "ariminum" not in destinations(s, s.forces["caesar"])
    s.roused = ("horde_germani",)
    assert not blocked(s, "caesarian", "ariminum")
    assert horde_at(s, "ariminum") == "horde_germani"
    assert "ariminum" in destinations(s, s.forces["caesar"])
    assert any(isinstance(a, A.March) and a.to == "ariminum" for a in legal_actions(s))


def test_marching_into_a_horde_stops_the_march_and_clashes_with_it() -> None:
    """§19.4: the army falls on the horde — one roll on the horde clash table."""
    s = fresh(keep=["caesar", "horde_germani"])
    put(s, "horde_germani", "ariminum")
    s.roused = ("horde_germani",)
    horde_sp = s.forces["horde_germani"].strength()
    s2, ev = play(s, A.March("caesar", "ariminum", ("ravenna", "ariminum")), Dice(3))
    kinds = [e.kind for e in ev]
    assert "horde_attack" in kinds and "horde_clash" in kinds
    assert kinds.index("horde_attack") < kinds.index("horde_clash")
    after = s2.forces["horde_germani"].strength() if "horde_germani" in s2.forces else 0
    assert after < horde_sp  # the table always costs the horde at least 10%
    assert s2.spent["caesar"] == 4  # the march ends there (§8.3)
    # a horde's space stops the march: nothing beyond it is reachable through it
    for _, path in destinations(s, s.forces["caesar"]).values():
        assert "ariminum" not in path[1:-1]
