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
    refused naming the save first, then the scenario it names — and the path inside the
    save is never opened: with the player's scenario the save is another battle's, without
    one a path outside the scenario folders is no scenario a save may name."""
    save = tmp_path / "p.toml"
    assert _bellum("battle", "pharsalus", "--ai", "both", "--headless", "--save", str(save)).returncode == 0
    text = save.read_text().replace('scenario = "pharsalus"', 'scenario = "/dev/zero"', 1)
    assert "/dev/zero" in text
    save.write_text(text)
    got = _bellum("battle", "pharsalus", "--ai", "both", "--headless", "--load", str(save))
    assert got.returncode == 2
    assert got.stderr.strip() == f"bellum: {save}: save.scenario: is a save of /dev/zero, not of pharsalus"
    from bellum.session import Session
    from tactical.game import TacticalEngine

    with pytest.raises(InputError) as refused:
        Session.load(TacticalEngine(), save)  # the window's load: the save's own scenario
    assert str(refused.value) == (
        f"{save}: save.scenario: names the file '/dev/zero', outside the scenario folders: name it with the save"
    )


def test_a_huge_array_is_refused_at_once(tmp_path: Path) -> None:
    """Issue 22: a 31 MB array of integers took 41 s to be refused; now the byte limit stops
    it while streaming, and a smaller file of a million items is refused before parsing."""
    big = tmp_path / "big.toml"
    with big.open("w") as f:
        f.write("x = [" + "1," * 15_500_000 + "1]\n")
    with pytest.raises(InputError, match="more than the 3145728 a game file may have"):
        read_toml(big)
    many = tmp_path / "many.toml"
    many.write_text("x = [" + "1," * 1_000_000 + "1]\n")
    with pytest.raises(InputError, match="1000001 lines and list items, more than the 120000"):
        read_toml(many)


def test_a_dotted_key_too_deep_is_refused_before_parsing(tmp_path: Path) -> None:
    """The parser's cost grows with the square of a dotted key: 300,000 parts would fill the memory."""
    for text in ("a" + ".a" * 300_000 + " = 1\n", "[a" + ".a" * 300_000 + "]\n"):
        bad = tmp_path / "dotted.toml"
        bad.write_text(text)
        with pytest.raises(InputError, match="line 1: a key is nested more than 32 levels deep"):
            read_toml(bad)
    fine = tmp_path / "fine.toml"
    fine.write_text('text = "' + "a sentence. " * 100 + '"\nx = [' + "1.5, " * 100 + "]\n")
    assert len(read_toml(fine)["x"]) == 100  # dots in text and numbers are no keys


@pytest.mark.parametrize(
    ("where", "old", "new", "words"),
    [
        # issue 22's lax types: no coercion of text to a number, of text to a boolean
        (
            "maps/roman_world.toml",
            "lat = 41.89",
            'lat = "41.89"',
            r"space .roma. \(space\[0\]\.lat\): input should be a valid number",
        ),
        ("scenarios/tactical/cannae.toml", "elite = true", 'elite = "true"', "input should be a valid boolean"),
        ("scenarios/tactical/cannae.toml", "elite = true", "elite = 1", "input should be a valid boolean"),
        ("scenarios/tactical/cannae.toml", "initiative = 7", "initiative = 7.0", "input should be a valid integer"),
    ],
)
def test_lax_types_are_refused(tmp_path: Path, where: str, old: str, new: str, words: str) -> None:
    from bellum.paths import ROOT

    text = (ROOT / where).read_text()
    assert old in text
    bad = tmp_path / Path(where).name
    bad.write_text(text.replace(old, new, 1))
    if where.startswith("maps"):
        from campaign.map import load_map

        with pytest.raises(InputError, match=words) as got:
            load_map(bad)
    else:
        from tactical.scenario import load_scenario

        with pytest.raises(InputError, match=words) as got:
            load_scenario(bad)
    assert str(got.value).startswith(str(bad)) and "\n" not in str(got.value)


def test_replay_refuses_an_action_with_a_field_it_does_not_know(tmp_path: Path) -> None:
    """Issue 22: replay ignored unknown action fields; a tactical save's action is its notation alone."""
    import tomli_w

    save = tmp_path / "p.toml"
    assert _bellum("battle", "pharsalus", "--ai", "both", "--headless", "--save", str(save)).returncode == 0
    raw = read_toml(save)
    raw["actions"][1]["speed"] = "double"
    save.write_text(tomli_w.dumps(raw))
    got = _bellum("battle", "pharsalus", "--ai", "both", "--headless", "--load", str(save))
    assert got.returncode == 2 and "actions[1]: cannot be replayed" in got.stderr
    assert len(got.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["battle", "board"])
@pytest.mark.parametrize("kind", ["device", "fifo", "nul"])
def test_devices_pipes_and_nul_names_as_scenario_or_save(tmp_path: Path, command: str, kind: str) -> None:
    """Issue 22: ``/dev/zero`` ended in MemoryError, a FIFO hung for ever, a NUL gave ValueError."""
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    target = {"device": "/dev/zero", "fifo": str(fifo), "nul": "x\\x00y"}[kind]
    scenario = {"battle": "pharsalus", "board": "field-pharsalus"}[command]
    for args in (
        (command, target, "--ai", "both", "--headless"),
        (command, scenario, "--headless", "--ai", "both", "--load", target),
    ):
        got = _bellum(*args)
        assert got.returncode == 2, got.stderr
        lines = got.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in got.stderr and got.stdout == ""


def test_a_save_names_a_scenario_file_only_in_the_scenario_folders(tmp_path: Path) -> None:
    """Issue 22: a scenario is a name, or a file the player gives — never a path taken from
    inside a save. A save of a scenario file elsewhere loads when the player names that file
    with it, and is refused (one sentence, the file never opened) when they do not."""
    from bellum.paths import game_data, shipped_or_own

    own = tmp_path / "my-pharsalus.toml"
    own.write_bytes(game_data("scenarios", "tactical", "pharsalus.toml").read_bytes())
    save = tmp_path / "s.toml"
    made = _bellum("battle", str(own), "--ai", "both", "--headless", "--save", str(save))
    assert made.returncode == 0, made.stderr
    again = _bellum("battle", str(own), "--ai", "both", "--headless", "--load", str(save))
    assert again.returncode == 0, again.stderr
    from bellum.session import Session
    from tactical.game import TacticalEngine

    with pytest.raises(InputError, match=r"save.scenario: names the file .*, outside the scenario folders"):
        Session.load(TacticalEngine(), save)
    assert shipped_or_own("pharsalus", "tactical")
    assert shipped_or_own(str(game_data("scenarios", "tactical", "pharsalus.toml")), "tactical")
    assert not shipped_or_own("/etc/passwd", "tactical") and not shipped_or_own("../x.toml", "tactical")
    assert not shipped_or_own(str(game_data("scenarios", "tactical", "..", "..", "x.toml")), "tactical")


@pytest.mark.parametrize("scenario", ["fifo", "x\\u0000y", "/dev/zero"])
def test_a_save_naming_a_pipe_a_nul_or_a_device_is_refused_at_once(tmp_path: Path, scenario: str) -> None:
    """Issue 22: a FIFO as a save's scenario hung for ever, a NUL gave ``ValueError``; the
    save is refused in one sentence naming it, and what it names is never opened."""
    from battleboard.game import BattleboardEngine
    from bellum.session import Session

    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    name = str(fifo) if scenario == "fifo" else scenario
    save = Session(BattleboardEngine(), "field-pharsalus", 2).save(tmp_path / "b.toml")
    text = save.read_text()
    save.write_text(text.replace('scenario = "field-pharsalus"', f'scenario = "{name}"', 1))
    with pytest.raises(InputError) as refused:
        Session.load(BattleboardEngine(), save)
    msg = str(refused.value)
    assert msg.startswith(f"{save}: save.scenario: ") and "\n" not in msg and "\x00" not in msg
    got = _bellum("board", "field-pharsalus", "--ai", "both", "--headless", "--load", str(save))
    assert got.returncode == 2 and len(got.stderr.strip().splitlines()) == 1 and got.stdout == ""
