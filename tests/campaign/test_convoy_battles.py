"""Convoy battles fought elsewhere (docs/rules/campaign.md §10.2, §12; issue 7 item 6).

A supply phase whose sea supply the enemy cuts with fleets of its own fights a convoy
battle for each cut port.  A window player fights it on the battleboard or the tactical
engine like any other battle: its result comes back in ``Supply.outcomes`` and the log
replays the game exactly.
"""

from __future__ import annotations

import pytest

from bellum.dice import Dice
from bellum.engagement import Engagement
from bellum.errors import RuleError
from campaign import actions as A
from campaign.engine import CampaignEngine
from campaign.state import CampaignState, encode_state
from campaign.view.game import CampaignGame
from tests.campaign.test_ops_sequence import army, fresh, outcome_for, play


def _two_cut_ports() -> CampaignState:
    """Caesarian fleets in Salonae and Brundisium, each port cut by a Senatorial fleet."""
    s = fresh("supply", keep=[])
    for n, place in enumerate(("salonae", "brundisium")):
        s.owners[place] = "caesarian"
        s.forces[f"x{n}"] = army(f"x{n}", "caesarian", place, [("fleet", "R", 3)], ("antonius",) if n == 0 else ())
        s.forces[f"y{n}"] = army(f"y{n}", "senatorial", place, [("fleet", "R", 3)], ("libo",) if n == 0 else ())
    s.cuts = {"salonae": "y0", "brundisium": "y1"}
    s.escorts = {"salonae": "x0", "brundisium": "x1"}  # the Caesarians fight for both (004 (b))
    return s


def _engagements(s: CampaignState) -> list[Engagement]:
    """The convoy battles the phase fights, in order (an auto-resolver that records them)."""
    seen = []

    def record(eng, dice):  # type: ignore[no-untyped-def]
        seen.append(eng)
        return outcome_for(eng, "A")

    play(s, A.Supply(), Dice(3), engine=CampaignEngine(resolver=record))
    return seen


def test_a_convoy_battle_fought_elsewhere_is_applied_and_not_auto_resolved() -> None:
    """campaign.md §10.2: the given result decides the convoy battle; nothing else fights it."""
    s = _two_cut_ports()
    engs = _engagements(s)
    assert [e.where for e in engs] == ["brundisium", "salonae"] and all(e.trigger == "supply" for e in engs)
    fought = []

    def record(eng, dice):  # type: ignore[no-untyped-def]
        fought.append(eng.where)
        return outcome_for(eng, "A")

    lost = outcome_for(engs[0], "B", lose=[u.id for u in engs[0].units if u.side == "A"])
    _s2, ev = play(s, A.Supply((lost,)), Dice(3), engine=CampaignEngine(resolver=record))
    assert fought == ["salonae"]  # only the battle without a result is auto-resolved
    cut = [e for e in ev if e.kind == "supply_cut"]
    assert all(e.data.get("place") != "salonae" for e in cut)


def test_a_result_for_a_battle_not_fought_is_refused_and_changes_nothing() -> None:
    """campaign.md §10.2: a result must belong to a convoy battle of this phase."""
    s = _two_cut_ports()
    eng = _engagements(s)[0]
    stray = outcome_for(eng, "A").model_copy(update={"engagement": "t9-nowhere-1"})
    before = encode_state(s)
    with pytest.raises(RuleError, match="nowhere"):
        play(s, A.Supply((stray,)), Dice(3))
    assert encode_state(s) == before


def test_supply_outcomes_survive_the_action_log() -> None:
    """The results travel in the log (campaign.md §7.3): encode and decode give them back."""
    s = _two_cut_ports()
    eng = _engagements(s)[0]
    action = A.Supply((outcome_for(eng, "B"),))
    assert A.decode(A.encode(action)) == action
    assert A.encode(A.Supply()) == {"type": "supply"}
    with pytest.raises(ValueError, match="outcomes"):
        A.decode({"type": "supply", "outcomes": "none"})


def test_the_window_stops_at_each_convoy_battle_and_goes_on_to_the_next() -> None:
    """campaign.md §12 (issue 7 item 6): each convoy battle comes to the battle choice in
    turn; after the last result the supply phase is played with them all."""
    game = CampaignGame.new(seed=5, humans=frozenset({"caesarian"}))
    game.session.state = _two_cut_ports()
    assert game.decide(A.Supply())
    first = game.battle
    assert first is not None and first.engagement.trigger == "supply" and first.engagement.where == "brundisium"
    assert game.state.phase == "supply"  # nothing played yet
    assert game.finish_battle(outcome_for(first.engagement, "A"))
    second = game.battle
    assert second is not None and second.engagement.where == "salonae"
    assert isinstance(second.action, A.Supply) and len(second.action.outcomes) == 1
    assert game.finish_battle(outcome_for(second.engagement, "B"))
    assert game.battle is None and game.state.phase != "supply"
    logged = game.session.actions[-1]
    assert logged["type"] == "supply" and len(logged["outcomes"]) == 2
