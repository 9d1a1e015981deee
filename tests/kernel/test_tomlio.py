"""Safe TOML input: one sentence with file, place and problem."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict, Field

from bellum.errors import InputError
from bellum.tomlio import load_model, parse_toml


class Unit(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    tq: int = Field(ge=1, le=9)


class Doc(BaseModel):
    model_config = ConfigDict(extra="forbid")
    units: list[Unit]


def test_syntax_error_names_line_and_column(tmp_path: Path) -> None:
    p = tmp_path / "s.toml"
    p.write_text('[[units]]\nid = "A1\n')
    with pytest.raises(InputError) as info:
        load_model(Doc, p)
    assert info.value.place.startswith("line 2")
    assert "not valid TOML" in info.value.problem


def test_validation_names_the_place(tmp_path: Path) -> None:
    p = tmp_path / "s.toml"
    p.write_text('[[units]]\nid = "A1"\ntq = 7\n[[units]]\nid = "A2"\ntq = 12\n')
    with pytest.raises(InputError) as info:
        load_model(Doc, p)
    assert info.value.place == "units[1].tq"
    assert "less than or equal to 9" in info.value.problem


def test_unknown_key(tmp_path: Path) -> None:
    p = tmp_path / "s.toml"
    p.write_text('[[units]]\nid = "A1"\ntq = 7\nelephant = true\n')
    with pytest.raises(InputError) as info:
        load_model(Doc, p)
    assert info.value.place == "units[0].elephant"


def test_nan_refused() -> None:
    with pytest.raises(InputError, match="finite"):
        parse_toml("x = nan\n", "t.toml")


def test_too_large_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import bellum.tomlio as tomlio

    monkeypatch.setattr(tomlio, "MAX_FILE_BYTES", 10)
    p = tmp_path / "big.toml"
    p.write_text("x = 1234567890\n")
    with pytest.raises(InputError, match="more than"):
        tomlio.read_toml(p)


def test_folder_is_not_a_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="folder"):
        load_model(Doc, tmp_path)
