"""Odds before committing and after-action reports (campaign.md §14.3–§14.4): the exact
odds of a campaign decision by the real engine over every die face, and a battle's
report.  Run by ``bellum bench``; medians in docs/PERFORMANCE.md."""

from __future__ import annotations

from typing import Any

from bellum.session import Session
from campaign import actions as A
from campaign.ai import CampaignAI
from campaign.chronicle import battle_reports
from campaign.engine import CampaignEngine
from campaign.odds import decision_odds
from tests.campaign.test_ops_sequence import fresh
from tests.campaign.test_politics import _side


def test_bench_res_publica_roll_odds(benchmark: Any) -> None:
    """One d10 on a Res Publica table: ten engine runs."""
    s = fresh("res_publica", keep=["caesar"])
    s.stratagems["caesarian"]["political"] = 2
    assert decision_odds(s, A.Politics("populares"))
    benchmark.pedantic(lambda: decision_odds(s, A.Politics("populares")), rounds=50, iterations=1)


def test_bench_tribute_odds(benchmark: Any) -> None:
    s = _side(fresh("recruiting", keep=["fabius", "massilia"]))
    assert decision_odds(s, A.Tribute("massilia"))
    benchmark.pedantic(lambda: decision_odds(s, A.Tribute("massilia")), rounds=50, iterations=1)


def test_bench_after_action_reports_of_a_year(benchmark: Any) -> None:
    """Every battle's full report from a year of AI play (the ``--reports`` folder's work)."""
    session = Session(CampaignEngine(), "49bc", 3)
    ai = CampaignAI()
    while session.state.turn < 8:
        session.play(ai.choose(session.state))
    events = list(session.log)
    assert battle_reports(events)

    def reports() -> int:
        return sum(len(r.markdown()) for r in battle_reports(events))

    benchmark.pedantic(reports, rounds=20, iterations=1)
