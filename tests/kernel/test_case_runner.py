"""The case runner: closing line, failures for malformed cases, skips only for unbuilt engines."""

from __future__ import annotations

import io
from pathlib import Path

from bellum.cases import run_case, run_cases


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def test_unknown_engine_fails(tmp_path: Path) -> None:
    r = run_case(write(tmp_path, "c.toml", 'engine = "chess"\ntitle = "x"\n'))
    assert r.status == "fail" and "chess" in r.message


def test_unparseable_case_fails(tmp_path: Path) -> None:
    r = run_case(write(tmp_path, "c.toml", 'engine = "tactical\n'))
    assert r.status == "fail" and "not valid TOML" in r.message


def test_steps_must_be_tables(tmp_path: Path) -> None:
    r = run_case(write(tmp_path, "c.toml", 'engine = "tactical"\nsteps = [1, 2]\n'))
    assert r.status == "fail"


def test_closing_line_and_exit_code(tmp_path: Path) -> None:
    write(tmp_path, "bad.toml", 'engine = "nope"\n')
    out = io.StringIO()
    code = run_cases([tmp_path], out)
    lines = out.getvalue().splitlines()
    assert lines[-1] == "0 passed, 1 failed, 0 skipped"
    assert lines[0].startswith("FAIL ")
    assert code == 1


def test_empty_folder_passes(tmp_path: Path) -> None:
    out = io.StringIO()
    assert run_cases([tmp_path], out) == 0
    assert out.getvalue().strip() == "0 passed, 0 failed, 0 skipped"
