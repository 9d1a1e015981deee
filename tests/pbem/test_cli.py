"""``bellum pbem`` and ``bellum replay`` on the command line: bad arguments are one sentence
and exit code 2, nothing written."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from bellum.cli import main


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    old = os.environ["BELLUM_HOME"]
    os.environ["BELLUM_HOME"] = str(tmp_path / "home")
    yield tmp_path / "home"
    os.environ["BELLUM_HOME"] = old


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["pbem", "new", "49bc", "--as", "romans"], "'romans' is not a side"),
        (["pbem", "new", "../../etc/passwd", "--as", "caesarians"], "ships with the game"),
        (["pbem", "new", "no_such_war", "--as", "caesarians"], "ships with the game"),
        (["pbem", "play", "missing.toml"], "no such file"),
        (["pbem", "status", "/dev/zero"], "not a regular file"),
        (["replay", "missing.toml"], "no such file"),
    ],
)
def test_bad_arguments_are_one_sentence(
    home: Path, capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err
    assert not (home / "pbem").exists()


def test_new_status_and_play(home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = tmp_path / "first.toml"
    assert main(["pbem", "new", "49bc", "--as", "caesarians", "--out", str(first)]) == 0
    assert "send" in capsys.readouterr().out
    assert main(["pbem", "status", str(first)]) == 0
    assert "the Senatorials are to play (January 49 BC, events)" in capsys.readouterr().out
    # the Senatorials answer at once (the handshake); the file names the folder it went to
    os.environ["BELLUM_HOME"] = str(tmp_path / "other-home")
    assert main(["pbem", "play", str(first)]) == 0
    out = capsys.readouterr().out
    assert "Turn 1: the Senatorials played 0 actions: send" in out
    assert str(tmp_path / "other-home" / "pbem") in out
