"""The hostile-input fuzz run (issue 22, docs/RELIABILITY.md): 1,000 seeded mutations of real
saves of every engine, scenarios, the map, case files and command lines, plus devices, pipes
and folders in their place — none may end in a traceback, a hang, a message that is not one
printable line naming the file, or a silent change.  ``BELLUM_FUZZ_LONG=1`` runs 10,000
(``python -m tests.fuzz --inputs N --seed S`` prints the table of docs/RELIABILITY.md)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.fuzz import GROUPS, SHARES, fuzz

INPUTS = 10_000 if os.environ.get("BELLUM_FUZZ_LONG") else 1_000
SEED = 22


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_hostile_inputs_end_in_one_sentence(group: str, tmp_path: Path) -> None:
    targets = GROUPS[group]
    share = round(INPUTS * sum(SHARES[t] for t in targets) / sum(SHARES.values()))
    report = fuzz(share, SEED, tmp_path, targets)
    assert report.inputs == share
    assert sum(n for (_, outcome), n in report.outcomes.items() if outcome == "refused") > share // 2
    assert report.findings == [], "\n".join(f.line() for f in report.findings[:20])
