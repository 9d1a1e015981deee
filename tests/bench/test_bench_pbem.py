"""Play-by-e-mail benchmark (issue 17): the receiver's check of a turn file — read, validate,
and re-play every turn through the rules with its dice, checksums and commitments — for a
game of about a campaign year (the check grows with the game: it re-plays it all).  Run by
``bellum bench``; the medians go to docs/PERFORMANCE.md."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from bellum import pbem
from tests.pbem.helpers import Game


def test_bench_receive_a_turn_file_after_a_year(benchmark: Any, tmp_path: Path) -> None:
    home = os.environ["BELLUM_HOME"]
    try:
        g = Game(tmp_path, seed="bench")
        g.start()
        while True:
            s = g.step()
            if s.state.turn >= 8:  # a year: eight campaign turns
                break
        path = g.files[-1]
        doc, _ = pbem.read_turn_file(path)
        steps = sum(len(t.steps) for t in doc.turns)
        assert steps > 200

        def receive() -> Any:
            d, r = pbem.read_turn_file(path)
            return pbem.replay(d, r, path)

        got = benchmark.pedantic(receive, rounds=5, iterations=1)
        assert got.table is not None and got.table.checksum() == doc.pbem.checksum
        benchmark.extra_info["steps"] = steps
        benchmark.extra_info["turn files"] = len(doc.turns)
        benchmark.extra_info["bytes"] = path.stat().st_size
    finally:
        os.environ["BELLUM_HOME"] = home
