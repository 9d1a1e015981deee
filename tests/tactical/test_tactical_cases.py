"""Every tactical rules case, shared and our own, through the kernel's case runner.

The only allowed SKIP is a verb the tactical engine has not built yet.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bellum.cases import collect, run_case
from tests.conftest import OWN_CASES, SHARED_CASES

TACTICAL = [p for p in (SHARED_CASES / "tactical", OWN_CASES / "tactical") if p.exists()]
CASE_FILES = collect(TACTICAL)


@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_tactical_case(path: Path) -> None:
    result = run_case(path)
    if result.status == "skip":
        assert "not built yet" in result.message, result.message
        pytest.skip(result.message)
    assert result.status == "pass", result.line()


def test_every_shared_move_and_continuity_case_passes() -> None:
    shared = [p for p in collect([SHARED_CASES / "tactical"]) if p.name.startswith(("move-", "continuity-"))]
    assert len(shared) >= 7
    assert all(run_case(p).status == "pass" for p in shared)


def test_enough_own_cases_each_with_a_source() -> None:
    import tomllib

    own = collect([OWN_CASES / "tactical"])
    assert len(own) >= 20
    for p in own:
        doc = tomllib.loads(p.read_text())
        assert doc.get("source"), p


def test_malformed_cases_fail_with_a_clear_sentence(tmp_path: Path) -> None:
    base = 'engine = "tactical"\ntitle = "t"\nsource = "s"\nrules = "sgboh"\n'
    bad = {
        "unknown-key.toml": base + 'colour = "red"\n',
        "bad-hex.toml": base + '[[units]]\nid="A1"\nside="A"\ntype="HI"\nsize=6\ntq=6\nma=6\nhex="9999"\nfacing=12\n',
        "bad-facing.toml": base + '[[units]]\nid="A1"\nside="A"\ntype="HI"\nsize=6\ntq=6\nma=6\nhex="1010"\nfacing=3\n',
        "bad-type.toml": base + '[[units]]\nid="A1"\nside="A"\ntype="XX"\nsize=6\ntq=6\nma=6\nhex="1010"\nfacing=12\n',
        "bad-verb.toml": base + '[[steps]]\ndo = "dance"\n',
        "bad-step-key.toml": base + '[[steps]]\ndo = "pass"\nhow = 1\n',
        "bad-rules.toml": base.replace("sgboh", "chess"),
        "bad-option.toml": base + 'options = ["nonsense"]\n',
    }
    for name, text in bad.items():
        p = tmp_path / name
        p.write_text(text)
        result = run_case(p)
        assert result.status == "fail", name
        assert "Traceback" not in result.message and len(result.message) < 300, result.message
