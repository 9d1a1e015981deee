"""Every file and argument treated as hostile (issue 22): the one input gate
(``bellum.tomlio.read_input``) refuses devices, pipes and folders by their type before it
opens them, stops a file at the byte limit while streaming, refuses NUL bytes; output
paths are checked before any work (``bellum.paths.check_output``); seeds are range-checked
where they are parsed.  Each refusal is one ``InputError`` sentence."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bellum.errors import InputError
from bellum.paths import check_output
from bellum.tomlio import read_input, read_toml


def test_a_device_is_refused_by_its_type() -> None:
    with pytest.raises(InputError, match="not a regular file"):
        read_toml("/dev/zero")


def test_a_pipe_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "save.toml"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="not a regular file"):
        read_toml(fifo)  # opening it would block for ever: it is never opened


def test_a_folder_a_nul_name_and_nul_bytes_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is a folder"):
        read_toml(tmp_path)
    with pytest.raises(InputError, match="NUL character"):
        read_toml("save\x00.toml")
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b'name = "x"\n\x00')
    with pytest.raises(InputError, match="NUL byte"):
        read_toml(bad)


def test_a_file_is_read_only_up_to_the_limit(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_bytes(b"# " + b"x" * 200 + b"\n")
    with pytest.raises(InputError, match="more than the 100"):
        read_input(big, limit=100)
    assert read_input(big, limit=1000).startswith(b"# x")


def test_output_paths_are_checked_before_any_work(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is a folder"):
        check_output(tmp_path, "--save")
    with pytest.raises(InputError, match="does not exist"):
        check_output("/proc/nope/x.toml", "--save")
    with pytest.raises(InputError, match="not a regular file"):
        check_output("/dev/null", "--save")
    with pytest.raises(InputError, match="is a file, not a folder"):
        check_output(__file__, "--reports", folder=True)
    assert check_output(tmp_path / "new.toml", "--save") == tmp_path / "new.toml"
    assert check_output(tmp_path / "a" / "b", "--reports", folder=True) == tmp_path / "a" / "b"


def _bellum(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bellum", *args],
        capture_output=True,
        text=True,
        timeout=120,  # a guard against a hang, not a measurement
        env={**os.environ, "ARCADE_HEADLESS": "1"},
    )


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("campaign", "--ai", "both", "--headless", "--turns", "40", "--save", "/tmp"), "is a folder"),
        (("campaign", "--ai", "both", "--headless", "--turns", "40", "--save", "/proc/nope/x.toml"), "does not exist"),
        (("shot", "menu", "--out", "/proc/nope/x.png"), "does not exist"),
        (("battle", "cannae", "--ai", "both", "--headless", "--seed", "-1"), "is not a seed"),
        (("board", "sea-interception", "--ai", "both", "--headless", "--seed", "-5"), "is not a seed"),
        (("board", "sea-interception", "--ai", "both", "--headless", "--seed", str(10**29)), "is not a seed"),
        (("campaign", "--headless", "--load", "/dev/zero"), "not a regular file"),
    ],
)
def test_the_examples_of_issue_22_are_refused_in_one_sentence(args: tuple[str, ...], words: str) -> None:
    got = _bellum(*args)
    assert got.returncode == 2
    lines = got.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in got.stderr
    assert got.stdout.strip() == ""  # refused before any of the war was played


def test_a_save_refuses_to_load_as_another_battle(tmp_path: Path) -> None:
    """Issue 22: ``bellum battle cannae --load <a Pharsalus save>`` used to report
    "Carthage wins"; the save remembers its battle."""
    save = tmp_path / "pharsalus.toml"
    made = _bellum("battle", "pharsalus", "--ai", "both", "--headless", "--save", str(save))
    assert made.returncode == 0 and save.exists()
    got = _bellum("battle", "cannae", "--ai", "both", "--headless", "--load", str(save))
    assert got.returncode == 2 and "is a save of pharsalus, not of cannae" in got.stderr


def test_messages_escape_control_characters() -> None:
    """Issue 22: a hostile name never spreads a message over lines or reaches the terminal raw."""
    msg = str(InputError("save\n\x1b[31m.toml", "units[0].id", "'AL\t1' is not an id"))
    assert "\n" not in msg and "\x1b" not in msg and "\t" not in msg
    assert "save\\n\\x1b[31m.toml" in msg and "AL\\t1" in msg


def test_a_save_whose_scenario_is_bad_names_the_save(tmp_path: Path) -> None:
    """Issue 22: a save naming a scenario that cannot be loaded (here ``/dev/zero``) is
    refused naming the save first, then the scenario it names."""
    save = tmp_path / "p.toml"
    assert _bellum("battle", "pharsalus", "--ai", "both", "--headless", "--save", str(save)).returncode == 0
    text = save.read_text().replace('scenario = "pharsalus"', 'scenario = "/dev/zero"', 1)
    assert "/dev/zero" in text
    save.write_text(text)
    got = _bellum("battle", "pharsalus", "--ai", "both", "--headless", "--load", str(save))
    assert got.returncode == 2
    assert got.stderr.startswith(f"bellum: {save}: save.scenario: names '/dev/zero'")
