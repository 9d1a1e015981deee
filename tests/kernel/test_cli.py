"""The command line: help, version, exit codes, one-sentence errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bellum.cli import main
from bellum.saves import SaveData, write_save

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bellum", *args], capture_output=True, text=True, cwd=ROOT, timeout=120, check=False
    )


def test_help_lists_commands() -> None:
    r = run("--help")
    assert r.returncode == 0
    for command in ("version", "case", "shot"):
        assert command in r.stdout


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["version"]) == 0
    assert capsys.readouterr().out.startswith("Bellum Civile ")


def test_bad_argument_is_one_sentence_exit_2() -> None:
    r = run("frobnicate")
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_missing_case_path_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["case", str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err
    assert "no such case file" in err and err.count("\n") == 1


def test_shot_rejects_non_png(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["shot", "menu", "--out", "menu.jpg"]) == 2
    assert "must end in .png" in capsys.readouterr().err


def test_arcade_free_import() -> None:
    code = "import sys, bellum, bellum.cases, bellum.saves, campaign, battleboard, tactical; "
    code += "assert 'arcade' not in sys.modules, 'arcade imported'"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False)
    assert r.returncode == 0, r.stderr


def test_engine_packages_import_without_arcade() -> None:
    """Every rules module of every engine imports without pulling in arcade."""
    code = """
import importlib, pkgutil, sys
for pkg in ("bellum", "campaign", "battleboard", "tactical"):
    mod = importlib.import_module(pkg)
    for info in pkgutil.walk_packages(mod.__path__, pkg + "."):
        if ".view" in info.name or info.name.endswith("__main__"):
            continue
        importlib.import_module(info.name)
bad = [m for m in sys.modules if m == "arcade" or m.startswith("arcade.")]
assert not bad, "arcade imported outside view modules"
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False)
    assert r.returncode == 0, r.stderr


def test_save_errors_through_a_command_are_exit_2(tmp_path: Path) -> None:
    """A damaged save read by the kernel gives one sentence (engines' load commands reuse read_save)."""
    path = tmp_path / "g.toml"
    write_save(path, SaveData("tactical", "x", 1, {"seed": 1, "counter": 0}, {"a": 1}))
    path.write_text(path.read_text().replace("a = 1", "a = 2"))
    code = f"""
import sys
from bellum.saves import read_save
from bellum.errors import InputError
try:
    read_save({str(path)!r})
except InputError as e:
    print(e, file=sys.stderr); sys.exit(2)
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert r.returncode == 2 and "checksum" in r.stderr and r.stderr.count("\n") == 1
