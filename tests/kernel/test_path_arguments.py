"""Every path a command takes (issue 21 §4): one that cannot be read, or written at the end,
is one sentence on stderr before any work — never a traceback, never a game played for
nothing.  ``/proc`` stands for a folder in which no file can be made even when permissions
say yes (the superuser's view of it)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bellum.cli import main

pytestmark = pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs Linux's /proc")

MISSING = "/nope/missing.toml"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        # campaign: headless and in the window, every path argument
        (["campaign", "--ai", "both", "--headless", "--save", "/proc/nope.toml"], "/proc/nope.toml"),
        (["campaign", "--save", "/proc/nope.toml"], "/proc/nope.toml"),
        (["campaign", "--ai", "both", "--headless", "--reports", "/proc/nope"], "--reports"),
        (["campaign", "--ai", "both", "--headless", "--load", MISSING], "no such file"),
        (["campaign", "--load", "/proc"], "is a folder"),
        (["campaign", "--ai", "both", "--headless", "--scenario", MISSING], "no such campaign scenario"),
        # tactical battles
        (["battle", "zela", "--ai", "both", "--headless", "--save", "/proc/nope.toml"], "--save"),
        (["battle", "zela", "--ai", "both", "--headless", "--report", "/proc/nope.md"], "--report"),
        (["battle", "zela", "--save", "/proc/nope.toml"], "--save"),
        (["battle", "zela", "--ai", "both", "--headless", "--load", MISSING], "no such file"),
        (["battle", MISSING, "--ai", "both", "--headless"], "no such tactical scenario"),
        # the battleboard
        (["board", "mountain-pass", "--ai", "both", "--headless", "--report", "/proc/nope.md"], "--report"),
        (["board", MISSING, "--headless"], "no such battleboard scenario"),
        # the kernel's commands
        (["shot", "menu", "--out", "/proc/nope.png"], "--out"),
        (["shot", "tactical", "--scenario", MISSING, "--out", "/tmp/never-written.png"], "no such tactical scenario"),
        (["bench", "--json", "/proc/nope.json"], "--json"),
        (["case", MISSING], "no such case file"),
        (["schemas", "--out", "/proc/nope"], "--out"),
    ],
)
def test_a_bad_path_is_one_sentence_before_any_work(
    capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    assert main(args) == 2
    out = capsys.readouterr()
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bellum: ") and words in lines[0], out.err
    assert out.out.strip() == ""  # nothing was played, rendered or measured first


def test_a_file_that_cannot_be_made_is_named_with_its_folder(capsys: pytest.CaptureFixture[str]) -> None:
    """The example of the issue: a save into /proc ended in FileNotFoundError at the end of the war."""
    assert main(["campaign", "--ai", "both", "--headless", "--turns", "1", "--save", "/proc/nope.toml"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("bellum: --save: /proc/nope.toml: ") and "/proc" in err[len("bellum: --save: ") :]
    assert "Traceback" not in err and "FileNotFoundError" not in err


def test_check_reports_a_missing_file_in_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", MISSING]) == 1
    assert capsys.readouterr().err.strip() == f"bellum: {MISSING}: no such file"


def test_no_display_is_one_sentence(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A window asked for where there is no screen (pyglet's NoSuchDisplayException)."""

    class NoSuchDisplayException(Exception):
        pass

    def no_screen(args: object) -> int:
        raise NoSuchDisplayException('Cannot connect to "None"')

    monkeypatch.setattr(sys.modules["bellum.cli"], "_cmd_menu", no_screen)
    assert main([]) == 2
    assert capsys.readouterr().err.strip() == (
        "bellum: there is no display to open a window on; use --headless (or set DISPLAY)"
    )
