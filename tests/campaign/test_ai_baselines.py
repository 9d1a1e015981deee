"""The campaign baselines (docs/AI.md §The campaign AI against baselines): each picks only
what the one legal-action generator offers, and a war between the AI and each runs."""

from __future__ import annotations

import pytest

from campaign import actions as A
from campaign.ai_baselines import GreedyPlayer, RandomPlayer, game, table
from campaign.engine import CampaignEngine, legal_actions
from tests.campaign.test_ops_sequence import army, fresh


@pytest.mark.parametrize("player", [RandomPlayer(3), GreedyPlayer()])
def test_a_baseline_only_plays_what_the_generator_offers(player: object) -> None:
    from bellum.session import Session

    s = Session(CampaignEngine(), "49bc", 5)
    for _ in range(150):
        a = player.choose(s.state)  # type: ignore[attr-defined]
        assert a in legal_actions(s.state)
        s.play(a)


def test_the_greedy_player_marches_on_what_it_outnumbers_and_fights_every_battle() -> None:
    s = fresh("movement", "caesarian", keep=[])
    s.forces["c"] = army("c", "caesarian", "ravenna", [("legion", "V", 5)] * 3, ("caesar",))
    s.forces["d"] = army("d", "senatorial", "ariminum", [("legion", "R", 5)], ("domitius",))
    got = GreedyPlayer().choose(s)
    assert isinstance(got, A.March) and got.to == "ariminum"


def test_a_short_war_against_each_baseline_is_scored() -> None:
    games = [game(2, "caesarian", "random", turns=3), game(2, "senatorial", "greedy", turns=3)]
    assert all(g.turns == 3 and g.actions > 0 for g in games)
    text = table(games)
    assert "| caesarian | 1 |" in text and "| senatorial | 1 |" in text
