"""The scenario special rules are data (tactical/data/special_rules.toml, docs/scenarios.md
§Special rules): every rule the code acts on is listed with its source, and a bad entry is
refused in one sentence."""

from __future__ import annotations

from pathlib import Path

import pytest

from bellum.errors import InputError
from bellum.tomlio import load_model
from tactical import special

DATA = Path(special.__file__).resolve().parent / "data" / "special_rules.toml"


def test_every_rule_has_a_source_and_the_holding_rules_a_range() -> None:
    assert set(special.RULES) == {
        "stand-fast",
        "hidden-reserve",
        "unfinished-camp",
        "elephant-panic",
        "hill-position",
        "encirclement",
        "scythed-chariots",
    }
    assert all(r.source and r.battle for r in special.RULES.values())
    assert (special.STAND_FAST_RANGE, special.SIGNAL_RANGE, special.PANIC_RANGE, special.HILL_RANGE) == (3, 4, 4, 3)


def test_a_bad_range_is_refused_in_one_sentence(tmp_path: Path) -> None:
    bad = tmp_path / "special_rules.toml"
    bad.write_text(DATA.read_text().replace("range = 3", "range = 0", 1))
    with pytest.raises(InputError) as e:
        load_model(special.SpecialRulesFile, bad)
    assert "range" in str(e.value) and "\n" not in str(e.value)
