"""Scenario files: every shipped scenario loads; a broken one is refused with one sentence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bellum.errors import InputError
from tactical.scenario import load_scenario, resolve, schema

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "tactical"

_MINI = """
name = "Mini"
sources = ["test"]
rules = "charts-v1"
first = "A"
[sides.A]
name = "Caesar"
home = "bottom"
withdrawal = 5
[sides.B]
name = "Pompey"
home = "top"
withdrawal = 5
[field]
columns = 10
rows = 10
areas = [{ hexes = ["0101-0210"], terrain = "impassable" }]
[[units]]
id = "a-{n}"
side = "A"
type = "CO"
grade = "veteran"
size = 4
tq = 7
ma = 5
count = 2
at = ["0508-0608"]
facing = 12
[[units]]
id = "b1"
side = "B"
type = "CO"
size = 4
tq = 5
ma = 5
at = ["0503"]
facing = 6
"""


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "s.toml"
    p.write_text(text, encoding="utf-8")
    return p


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.toml")), ids=lambda p: p.stem)
def test_every_scenario_loads(path: Path) -> None:
    sc = load_scenario(path)
    assert {u.side for u in sc.state.units.values()} == {"A", "B"}
    assert set(sc.state.withdrawal) == {"A", "B"}


def test_mini_loads_and_expands_lines(tmp_path: Path) -> None:
    sc = load_scenario(_write(tmp_path, _MINI))
    assert set(sc.state.units) == {"a-1", "a-2", "b1"}
    grid = sc.state.field.grid
    assert grid.hex_id(sc.state.units["a-2"].hex) == "0608"
    assert sc.state.units["a-1"].type == "LG"  # a veteran cohort plays as 002 files it
    assert sc.state.field.terrain_name(grid.index("0210")) == "impassable"


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ('at = ["0503"]', 'at = ["05x3"]', "is not a hex id"),
        ('at = ["0503"]', 'at = ["1203"]', "off the 10×10 map"),
        ('type = "CO"\nsize = 4\ntq = 5', 'type = "ZZ"\nsize = 4\ntq = 5', "type"),
        ('id = "b1"', 'id = "a-1"', "used twice"),
        ('at = ["0508-0608"]', 'at = ["0508"]', "need 2 set-up hexes"),
        ('first = "A"', 'first = "A"\nspecial_rules = ["nonsense"]', "not a documented special rule"),
        ('at = ["0503"]', 'at = ["0103"]', "impassable"),
    ],
)
def test_broken_scenario_is_refused_in_one_sentence(tmp_path: Path, old: str, new: str, words: str) -> None:
    assert old in _MINI
    with pytest.raises(InputError) as info:
        load_scenario(_write(tmp_path, _MINI.replace(old, new, 1)))
    text = str(info.value)
    assert words in text
    assert "\n" not in text


def test_schema_file_is_current() -> None:
    assert json.loads((SCENARIOS / "schema.json").read_text(encoding="utf-8")) == json.loads(
        json.dumps(schema(), sort_keys=True)
    )


def test_resolve_bare_name() -> None:
    assert resolve("pharsalus") == SCENARIOS / "pharsalus.toml"
