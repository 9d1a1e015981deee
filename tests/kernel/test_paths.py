"""The data finder (``bellum.paths``) and the packaging that feeds it.

The installed game is checked whole by the release check (``tests/release/release-check.sh``,
``make release``); these tests check the finder from the source checkout, the player's own
folder, and that ``pyproject.toml`` lists every package and data folder the game has."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from bellum import paths
from bellum.cli import main
from bellum.errors import InputError
from bellum.paths import ENGINES, SHARED, game_data, resolve_scenario, scenario_files, user_folder
from bellum.tomlio import read_toml

ROOT = Path(__file__).resolve().parents[2]


def test_shared_data_is_found_in_the_checkout() -> None:
    assert game_data("maps", "roman_world.toml") == ROOT / "maps" / "roman_world.toml"
    assert game_data("scenarios", "tactical") == ROOT / "scenarios" / "tactical"
    assert game_data("rules", "campaign.md") == ROOT / "docs" / "rules" / "campaign.md"
    assert game_data("rules", "campaign.md").is_file()


def test_an_engines_own_data_comes_through_its_package() -> None:
    assert game_data("campaign", "data", "units.toml") == ROOT / "campaign" / "data" / "units.toml"
    assert game_data("tactical", "data").is_dir()


def test_the_packaged_layout_wins_over_the_checkout(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake = tmp_path / "site" / "bellum"
    (fake / "data" / "maps").mkdir(parents=True)
    monkeypatch.setattr(paths, "files", lambda package: fake)
    assert game_data("maps", "roman_world.toml") == fake / "data" / "maps" / "roman_world.toml"
    assert "installed" in paths.data_origin()


def test_missing_data_is_named_where_it_should_be(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake = tmp_path / "site" / "bellum"
    (fake / "data" / "maps").mkdir(parents=True)
    (tmp_path / "site" / "docs" / "rules").mkdir(parents=True)  # never read beside an installed game
    monkeypatch.setattr(paths, "files", lambda package: fake)
    monkeypatch.setattr(paths, "ROOT", tmp_path / "site")
    assert game_data("rules", "campaign.md") == fake / "data" / "rules" / "campaign.md"
    with pytest.raises(InputError, match="no such file"):
        read_toml(game_data("maps", "roman_world.toml"))


def test_a_scenario_path_is_any_existing_file(tmp_path: Path) -> None:
    generated = tmp_path / "bellum-campaign-battles"
    generated.write_text("# a generated battle\n", encoding="utf-8")
    assert resolve_scenario(str(generated), "tactical") == generated


def test_user_folder_follows_bellum_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("BELLUM_HOME", str(tmp_path))
    assert user_folder() == tmp_path
    monkeypatch.delenv("BELLUM_HOME")
    assert user_folder().name == "bellum-civile"


def test_scenarios_by_name_path_and_the_players_own(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("BELLUM_HOME", str(tmp_path / "home"))
    shipped = ROOT / "scenarios" / "tactical" / "pharsalus.toml"
    assert resolve_scenario("pharsalus", "tactical") == shipped
    assert resolve_scenario("pharsalus.toml", "tactical") == shipped
    mine = tmp_path / "elsewhere.toml"
    mine.write_text(shipped.read_text(encoding="utf-8"), encoding="utf-8")
    assert resolve_scenario(str(mine), "tactical") == mine
    own = tmp_path / "home" / "scenarios" / "tactical"
    own.mkdir(parents=True)
    (own / "pharsalus.toml").write_text("# mine\n", encoding="utf-8")
    (own / "ilerda.toml").write_text("# mine\n", encoding="utf-8")
    assert resolve_scenario("pharsalus", "tactical") == own / "pharsalus.toml"
    listed = scenario_files("tactical")
    assert [p.stem for p in listed] == sorted(p.stem for p in listed)
    assert own / "ilerda.toml" in listed and own / "pharsalus.toml" in listed and shipped not in listed


def test_an_unknown_scenario_names_the_choices() -> None:
    with pytest.raises(InputError) as bad:
        resolve_scenario("alesia", "battleboard")
    text = str(bad.value)
    assert "no such battleboard scenario" in text and "sea-interception" in text and "\n" not in text


def test_version_says_where_the_data_is(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["version"]) == 0
    out = capsys.readouterr().out
    assert f"game data: {ROOT} (source checkout)" in out and "your scenarios and saves: " in out


def _setuptools() -> dict[str, object]:
    table: dict[str, object] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "setuptools"
    ]
    return table


def test_pyproject_lists_every_package() -> None:
    listed = set(_setuptools()["packages"])  # type: ignore[call-overload]
    tops = [ROOT / top for top in ("bellum", *ENGINES)]
    folders = [p for top in tops for p in (top, *top.rglob("*")) if p.is_dir() and p.name.isidentifier()]
    code = {".".join(p.relative_to(ROOT).parts) for p in folders if "__pycache__" not in p.parts}
    data = {f"bellum.data.{k}" for k in SHARED}
    data |= {f"bellum.data.scenarios.{p.name}" for p in (ROOT / "scenarios").iterdir() if p.is_dir()}
    assert listed == code | data, "pyproject.toml [tool.setuptools] packages: add or drop these"


def test_pyproject_maps_the_shared_folders() -> None:
    package_dir = _setuptools()["package-dir"]
    assert package_dir == {f"bellum.data.{k}": v for k, v in SHARED.items()}
