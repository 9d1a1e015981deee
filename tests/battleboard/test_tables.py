"""Every battleboard table is data, validated at load with one clear sentence."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from battleboard.tables import DATA, KINDS, MODES, tables
from bellum.errors import InputError


def test_tables_load() -> None:
    t = tables()
    assert t.units.kinds["legion"].rolls == 5  # a legion makes five attack rolls
    assert t.units.kinds["fleet"].movement == 2  # 004 Movement
    assert t.boards.boards["pass"].columns == 3  # a mountain pass is three squares wide
    assert t.combat.row("ram") == t.combat.row("phalanx")  # 004 Combat: Ramming
    assert set(KINDS) <= set(t.units.kinds)
    assert all(t.combat.row(m) for m in MODES)
    assert "F" in t.command.table["R"]


def broken(tmp_path: Path, name: str, old: str, new: str) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(DATA, folder)
    p = folder / name
    text = p.read_text()
    assert old in text
    p.write_text(text.replace(old, new, 1))
    return folder


@pytest.mark.parametrize(
    ("name", "old", "new", "words"),
    [
        ("combat.toml", 'row = ["A", "A", "A", "A",', 'row = ["A", "A", "A",', "entries"),
        ("combat.toml", '"L"]', '"X"]', "combat.toml"),
        ("units.toml", "rolls = 5", "rolls = -1", "rolls"),
        ("command.toml", "flipped = -1", "flipped = 'x'", "flipped"),
        ("boards.toml", 'base = "sea"', 'base = "lava"', "lava"),
        ("battle.toml", "per_sp = 10", "per_sp = 0", "per_sp"),
    ],
)
def test_bad_table_is_one_sentence(tmp_path: Path, name: str, old: str, new: str, words: str) -> None:
    folder = broken(tmp_path, name, old, new)
    with pytest.raises(InputError) as err:
        tables(str(folder))
    assert words in str(err.value)
    assert "\n" not in str(err.value)
