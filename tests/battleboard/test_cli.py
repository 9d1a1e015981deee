"""``bellum board``: headless play-out, its closing line, and one-sentence errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bellum.cli import main

SCENARIOS = sorted((Path(__file__).resolve().parents[2] / "scenarios" / "battleboard").glob("*.toml"))
RESULT = re.compile(r"^result: (.+ \((A|B)\) wins|side (A|B) wins|draw) \(.+\)$")


def test_the_required_scenarios_exist() -> None:
    names = {p.stem for p in SCENARIOS}
    assert {"field-pharsalus", "mountain-pass", "sea-interception", "supply-battle"} <= names


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_headless_ends_with_one_result_line(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board", str(path), "--ai", "both", "--seed", "5", "--headless"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert RESULT.match(lines[-1]), lines[-1]
    assert sum(1 for line in lines if line.startswith("result:")) == 1


def test_the_result_line_names_the_winning_side(capsys: pytest.CaptureFixture[str]) -> None:
    """The closing line names the side as the scenario does ([sides]), with its letter."""
    from battleboard.scenario import load_scenario, side_name

    sc, _ = load_scenario("field-pharsalus")
    names = {side_name(sc, s) for s in ("A", "B")}
    assert names == {"Caesarians", "Pompeians"}
    main(["board", "field-pharsalus", "--ai", "both", "--seed", "5", "--headless"])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    m = re.match(r"^result: (.+) \((A|B)\) wins", last)
    assert m is not None, last
    assert m.group(1) == side_name(sc, m.group(2))
    assert "side A" not in last and "side B" not in last  # the reason names the sides too


def test_a_scenario_without_side_names_says_side_a_or_b(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "plain.toml"
    p.write_text(
        'name = "x"\n[[units]]\nid = "A1"\nside = "A"\nkind = "legion"\nstrength = 5\n'
        '[[units]]\nid = "B1"\nside = "B"\nkind = "mob"\ndiscipline = "M"\nstrength = 1\n'
    )
    assert main(["board", str(p), "--ai", "both", "--seed", "3", "--headless"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert re.match(r"^result: (side A wins|side B wins|draw) ", last), last


def test_headless_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    main(["board", "mountain-pass", "--ai", "both", "--seed", "9", "--headless"])
    first = capsys.readouterr().out
    main(["board", "mountain-pass", "--ai", "both", "--seed", "9", "--headless"])
    assert capsys.readouterr().out == first


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["board", "no-such-battle", "--ai", "both", "--headless"], "no such battleboard scenario"),
        (["board", "mountain-pass", "--headless"], "needs --ai both"),
    ],
)
def test_bad_input_is_one_sentence(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('name = "x"\n[[units]]\nid = "A1"\nside = "C"\nkind = "legion"\nstrength = 5\n', "units[0].side"),
        (
            'name = "x"\n[[units]]\nid = "A1"\nside = "A"\nkind = "legion"\nstrength = 5\nsquare = "z9"\n',
            "not a square",
        ),
        (
            'name = "x"\n[battle]\nkind = "naval"\n[[units]]\nid = "F"\nside = "A"\nkind = "fleet"\nstrength = 2\n',
            "side B has no fleet",
        ),
        ('name = "x"\ncolour = 1\n[[units]]\nid = "A1"\nside = "A"\nkind = "legion"\nstrength = 5\n', "colour"),
    ],
)
def test_bad_scenario_is_one_sentence(
    tmp_path: Path, text: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "bad.toml"
    p.write_text(text)
    assert main(["board", str(p), "--ai", "both", "--headless"]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "bad.toml" in err and "\n" not in err
