"""The illustrated after-action report of a forty-turn war (``bellum aar``, campaign.md
§14.5): the replay, the charts, a map a year and every battle's pictures, written to a
folder (Mesa llvmpipe, 1280x800).  Run by ``bellum bench``; median in docs/PERFORMANCE.md."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(scope="module")
def forty_turns(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Five years of AI play (seed 1, battles on the battleboard), saved."""
    from bellum.session import Session
    from campaign.ai import CampaignAI
    from campaign.engine import CampaignEngine

    session = Session(CampaignEngine(), "49bc", 1)
    ai = CampaignAI()
    while session.state.turn < 40 and not session.state.result:
        session.play(ai.choose(session.state))
    path = tmp_path_factory.mktemp("war") / "war.toml"
    session.save(path)
    return path


def test_bench_report_of_a_forty_turn_war(benchmark: Any, window: Any, forty_turns: Path, tmp_path: Path) -> None:
    from campaign.view.aar import write

    runs = iter(range(1000))

    def one() -> Path:
        return write(forty_turns, tmp_path / f"report-{next(runs)}", window=window)

    index = benchmark.pedantic(one, rounds=3, iterations=1)
    assert index.exists()
