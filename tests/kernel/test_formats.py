"""The data formats for modders (issue 21): the committed JSON schemas are the models' own, every
data file names its schema and validates against it, and ``bellum check`` answers each file
type edited in a wrong way — a missing key, a wrong type, an unknown unit type, a dangling
link, a table row missing — with one sentence naming the file, the place and the problem."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import tomli_w

from bellum.cli import main
from bellum.formats import _by_place, formats, recognise, stale_schemas
from bellum.paths import ROOT
from bellum.session import Session
from tactical.ai import TacticalAI
from tactical.game import TacticalEngine

SCHEMAS = ROOT / "schemas"
DATA_FILES = sorted(
    [*ROOT.glob("scenarios/*/*.toml"), *ROOT.glob("maps/*.toml"), *ROOT.glob("*/data/*.toml")],
    key=lambda p: str(p),
)


def test_committed_schemas_match_the_models() -> None:
    assert stale_schemas(SCHEMAS) == [], "run 'bellum schemas' and commit schemas/"


def test_every_format_has_its_own_schema_file() -> None:
    names = [f.schema_name for f in formats()]
    assert len(names) == len(set(names))
    assert {p.name for p in SCHEMAS.glob("*.schema.json")} == set(names)


@pytest.mark.parametrize("path", DATA_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_data_file_names_its_schema_and_validates_against_it(path: Path) -> None:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    m = re.fullmatch(r"#:schema (\S+)", first)
    assert m, f"{path}: the first line should be '#:schema <relative path>' (docs/MODDING.md)"
    target = (path.parent / m.group(1)).resolve()
    fmt = _by_place(path, formats())
    assert fmt is not None and target == SCHEMAS / fmt.schema_name
    assert recognise(path) is fmt
    schema = json.loads(target.read_text(encoding="utf-8"))
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(tomllib.loads(path.read_text("utf-8"))))
    assert not errors, f"{path}: {errors[0].json_path}: {errors[0].message}"


def test_every_shipped_file_passes_bellum_check(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", *map(str, DATA_FILES)]) == 0
    out = capsys.readouterr()
    assert out.err == ""
    assert len(out.out.splitlines()) == len(DATA_FILES)
    assert main(["check", str(ROOT / "scenarios")]) == 0  # a folder: every TOML file under it
    assert len(capsys.readouterr().out.splitlines()) == len(list(ROOT.glob("scenarios/*/*.toml")))


# -- the acceptance test: wrong edits, the right sentence ---------------------------------------------------------


def _sub(old: str, new: str, count: int = 1) -> Callable[[str], str]:
    def edit(text: str) -> str:
        assert old in text, old
        return text.replace(old, new, count)

    return edit


def _drop_block(header: str) -> Callable[[str], str]:
    """Remove a ``[table]`` block (to its first blank line): a table row missing."""

    def edit(text: str) -> str:
        lines, out, skip = text.splitlines(keepends=True), [], False
        for line in lines:
            if line.strip() == header:
                skip = True
            if skip and not line.strip():
                skip = False
                continue
            if not skip:
                out.append(line)
        assert len(out) < len(lines), header
        return "".join(out)

    return edit


def _drop_line(start: str) -> Callable[[str], str]:
    def edit(text: str) -> str:
        lines = text.splitlines(keepends=True)
        kept = [ln for ln in lines if not ln.startswith(start)]
        assert len(kept) < len(lines), start
        return "".join(kept)

    return edit


TACTICAL = "scenarios/tactical/pharsalus.toml"
BOARD = "scenarios/battleboard/mountain-pass.toml"
CAMPAIGN = "scenarios/campaign/49bc.toml"
MAP = "maps/roman_world.toml"

#: (file, how it is spoiled, the place named, words of the problem)
BROKEN: list[tuple[str, Callable[[str], str], str, str]] = [
    # tactical scenario
    (TACTICAL, _drop_line("rules = "), "rules", "is required but missing"),
    (TACTICAL, _sub("withdrawal = 155", 'withdrawal = "many"'), "sides.A.withdrawal", "valid integer"),
    (TACTICAL, _sub('type = "CO"', 'type = "XX"'), "units[0].type", "'XX' is unknown"),
    (TACTICAL, _sub('"0521", "0721"]', '"0521", "9921"]'), "units[0].at", "off the 54×30 map"),
    # battleboard scenario
    (BOARD, _sub("strength = 5\n", ""), "units[0].strength", "is required but missing"),
    (BOARD, _sub("strength = 5", 'strength = "five"'), "units[0].strength", "valid integer"),
    (BOARD, _sub('kind = "legion"', 'kind = "dragons"'), "units[0].kind", "'dragons' is unknown"),
    # campaign scenario
    (CAMPAIGN, _drop_line("start_year_bc"), "scenario.start_year_bc", "is required but missing"),
    (CAMPAIGN, _sub("start_year_bc = 49", "start_year_bc = [49]"), "scenario.start_year_bc", "valid integer"),
    (
        CAMPAIGN,
        _sub('kind = "legion"', 'kind = "dragons"'),
        "force 'caesar', unit 'leg_xiii'",
        "the counter set does not have",
    ),
    (CAMPAIGN, _sub('location = "ravenna"', 'location = "atlantis"'), "force 'caesar'", "not on the map"),
    # the map
    (MAP, _sub("lon = 12.48, ", ""), "space 'roma' (space[0].lon)", "is required but missing"),
    (MAP, _sub("lat = 41.89", 'lat = "north"'), "space 'roma' (space[0].lat)", "valid number"),
    (MAP, _sub('{ a = "roma", b = "capua"', '{ a = "roma", b = "atlantis"'), "edge roma–atlantis", "no place on"),
    # tables: a row missing, a wrong type, a key missing
    ("tactical/data/units.toml", _drop_block("[types.LG]"), "types", "no row for the unit type(s) LG"),
    ("tactical/data/units.toml", _sub("ma = 4", 'ma = "four"'), "types.PH.ma", "valid integer"),
    ("tactical/data/weapons_charts_v1.toml", _sub('attacker = "PH"', 'attacker = "XX"'), "row[0].attacker", "XX"),
    ("battleboard/data/units.toml", _drop_block("[kinds.legion]"), "kinds", "the unit kind 'legion' has no entry"),
    ("campaign/data/units.toml", _drop_block("[kinds.engineers]"), "", "49bc.toml no longer loads"),
    ("campaign/data/tables.toml", _drop_line("sea_winter"), "", "is required but missing"),
]


@pytest.mark.parametrize(("name", "spoil", "place", "words"), BROKEN, ids=[f"{b[0]}-{b[2] or b[3]}" for b in BROKEN])
def test_bellum_check_names_file_place_and_problem(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    spoil: Callable[[str], str],
    place: str,
    words: str,
) -> None:
    bad = tmp_path / Path(name).name  # elsewhere: the '#:schema' line tells bellum check what it is
    bad.write_text(spoil((ROOT / name).read_text(encoding="utf-8")), encoding="utf-8")
    assert main(["check", str(bad)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith(f"bellum: {bad}: {place}") and words in err, err


def test_a_map_change_that_strands_a_scenario_names_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Ravenna taken off the map (its space, its roads, its port): 49bc.toml's Caesar stands nowhere."""
    lines = []
    for line in (ROOT / MAP).read_text(encoding="utf-8").splitlines(keepends=True):
        if 'id = "ravenna"' in line or re.search(r'\b[ab] = "ravenna"', line):
            continue
        lines.append(line.replace('"ravenna", ', "").replace(', "ravenna"', ""))
    bad = tmp_path / "world.toml"
    bad.write_text("".join(lines), encoding="utf-8")
    assert main(["check", str(bad)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"bellum: {bad}: the scenario 49bc.toml no longer loads with it (force 'caesar'"), err
    assert "'ravenna', which is not on the map" in err


@pytest.fixture(scope="module")
def save(tmp_path_factory: pytest.TempPathFactory) -> str:
    s = Session(TacticalEngine(), "pharsalus", 3)
    ai = TacticalAI(3)
    for _ in range(6):
        s.play(ai.choose(s.state))
    path = tmp_path_factory.mktemp("save") / "pharsalus.toml"
    s.save(path)
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("spoil", "place", "words"),
    [
        (_drop_line("seed = 3"), "save.seed", "is required but missing"),
        (_sub("seed = 3", 'seed = "three"'), "save.seed", "valid integer"),
        (_sub('scenario = "pharsalus"', 'scenario = "atlantis"'), "save.scenario", "no such tactical scenario"),
    ],
)
def test_bellum_check_a_spoiled_save(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], save: str, spoil: Callable[[str], str], place: str, words: str
) -> None:
    good = tmp_path / "good.toml"
    good.write_text(save, encoding="utf-8")
    assert main(["check", str(good)]) == 0
    assert save.startswith("#:schema file://") and "save.schema.json" in save.splitlines()[0]
    bad = tmp_path / "bad.toml"
    bad.write_text(spoil(save), encoding="utf-8")
    capsys.readouterr()
    assert main(["check", str(bad)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"bellum: {bad}: {place}") and words in err, err


def test_a_save_whose_actions_do_not_replay_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], save: str
) -> None:
    m = re.search(r'action = "move (\S+) (\d{4})', save)
    assert m
    bad = tmp_path / "bad.toml"
    bad.write_text(save.replace(m.group(0), f'action = "move {m.group(1)} 0101', 1), encoding="utf-8")
    assert main(["check", str(bad)]) == 1
    err = capsys.readouterr().err.strip()
    assert re.match(rf"bellum: {re.escape(str(bad))}: actions\[\d+\]: cannot be replayed", err), err


def test_a_file_of_no_known_kind_and_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "other.toml"
    other.write_text('title = "not a game file"\n', encoding="utf-8")
    assert main(["check", str(other), str(tmp_path / "nope.toml")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[0].startswith(f"bellum: {other}: is no file the game knows how to check")
    assert err[1] == f"bellum: {tmp_path / 'nope.toml'}: no such file"


def test_check_as_a_named_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plain = tmp_path / "battle.toml"
    plain.write_text("\n".join((ROOT / TACTICAL).read_text("utf-8").splitlines()[1:]), encoding="utf-8")
    assert main(["check", "--as", "tactical-scenario", str(plain)]) == 0
    assert main(["check", "--as", "nonsense", str(plain)]) == 1
    assert "'nonsense' is no data format" in capsys.readouterr().err


# -- every format, spoiled the same three ways ------------------------------------------------------------------


def _first_int(node: Any, path: tuple[str | int, ...] = ()) -> tuple[str | int, ...] | None:
    """The place of the first whole number in a parsed file (not a boolean)."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        if isinstance(value, int) and not isinstance(value, bool):
            return (*path, key)
        found = _first_int(value, (*path, key))
        if found is not None:
            return found
    return None


def _spoiled(path: Path, how: str) -> tuple[dict[str, Any], str]:
    """``path``'s data spoiled ``how`` (a required key dropped, a number made a word, a key added)
    and the word the sentence's place must hold."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    fmt = recognise(path)
    if how == "missing":
        key = sorted(fmt.schema().get("required", []))[0]
        del data[key]
        return data, key
    if how == "unknown":
        data["not_a_key"] = 1
        return data, "not_a_key"
    place = _first_int(data)
    if place is None:
        pytest.skip("no number in this file")
    node: Any = data
    for part in place[:-1]:
        node = node[part]
    node[place[-1]] = "many"
    return data, str(place[-1]) if isinstance(place[-1], str) else f"[{place[-1]}]"


@pytest.mark.parametrize("how", ["missing", "wrong-type", "unknown"])
@pytest.mark.parametrize("path", DATA_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_format_names_a_missing_key_a_wrong_type_and_an_unknown_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], path: Path, how: str
) -> None:
    fmt = recognise(path)
    if how == "missing" and not fmt.schema().get("required"):
        pytest.skip("every top-level key of this format has a default")
    data, word = _spoiled(path, how)
    bad = tmp_path / path.name
    bad.write_text(tomli_w.dumps(data), encoding="utf-8")
    assert main(["check", "--as", fmt.id, str(bad)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith(f"bellum: {bad}: "), err
    place, _, problem = err[len(f"bellum: {bad}: ") :].partition(": ")
    assert word in place, err
    expected = {
        "missing": ("is required but missing",),
        "unknown": ("is not a key this file may have",),
        "wrong-type": ("valid", "'many' is neither"),  # a chart cell may be a number or a word
    }[how]
    assert any(words in problem for words in expected), err


def test_saves_are_recognised_by_their_place_in_any_folder_under_saves(tmp_path: Path) -> None:
    """Campaign slots and autosaves live in folders under saves/: a save there without its
    ``#:schema`` line is still known as a save by its place."""
    save = next(f for f in formats() if f.id == "save")
    assert save.places == ("saves/**/*.toml",)
    for rel in ("saves/x.toml", "saves/campaign/slot.toml", "saves/campaign/autosave/49bc-0a1b2c3d/turn-003.toml"):
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("")
        found = _by_place(path, formats())
        assert found is not None and found.id == "save", rel
    elsewhere = tmp_path / "notsaves" / "x.toml"
    elsewhere.parent.mkdir()
    elsewhere.write_text("")
    assert getattr(_by_place(elsewhere, formats()), "id", None) != "save"
