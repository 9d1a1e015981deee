"""Every rules case — the shared ones and the project's own — must pass.

The only allowed SKIP is a case whose engine or verb is not built yet.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bellum.cases import collect, run_case
from tests.conftest import OWN_CASES, SHARED_CASES

CASE_FILES = collect([p for p in (SHARED_CASES, OWN_CASES) if p.exists()])


def _id(p: Path) -> str:
    return str(p.relative_to(p.parents[2]))


@pytest.mark.parametrize("path", CASE_FILES, ids=_id)
def test_case(path: Path) -> None:
    result = run_case(path)
    if result.status == "skip":
        assert "not built yet" in result.message, result.message
        pytest.skip(result.message)
    assert result.status == "pass", result.line()


def test_shared_cases_exist() -> None:
    assert SHARED_CASES.exists(), "../shared/cases must sit beside the repository"
    assert len(collect([SHARED_CASES])) >= 19
