"""Bad files get one sentence naming the file, the place and the problem (bellum's typed input
error), never a bare ValueError or KeyError (issue 14): a few bad files of each kind of loader."""

from __future__ import annotations

from pathlib import Path

import pytest

from battleboard.game import BattleboardEngine
from bellum.errors import InputError
from bellum.paths import game_data
from bellum.session import Session
from campaign.engine import CampaignEngine
from campaign.map import load_map
from campaign.scenario import load_scenario
from tactical import special
from tactical.scenario import load_scenario as load_tactical


def _bad_copy(tmp_path: Path, source: Path, old: str, new: str) -> Path:
    text = source.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / source.name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def _refused(load: object, path: Path) -> InputError:
    with pytest.raises(InputError) as caught:
        load(path)  # type: ignore[operator]
    err = caught.value
    assert err.source == str(path) and err.place and err.problem
    assert "\n" not in str(err)
    return err


def test_a_special_rule_without_its_range() -> None:
    rules = dict(special.RULES)
    rules["stand-fast"] = rules["stand-fast"].model_copy(update={"range": None})
    with pytest.raises(InputError, match=r"special_rules\.toml: rules\.stand-fast\.range: is missing"):
        special._range("stand-fast", rules)
    with pytest.raises(InputError, match=r"rules\.hill-position: is missing"):
        special._range("hill-position", {})


def test_a_campaign_scenario_with_a_unit_kind_the_tables_lack(tmp_path: Path) -> None:
    path = _bad_copy(tmp_path, game_data("scenarios", "campaign", "49bc.toml"), "legion = 30", "hoplomachus = 30")
    assert "hoplomachus" in str(_refused(load_scenario, path))


def test_a_campaign_map_whose_space_has_a_bad_owner(tmp_path: Path) -> None:
    source = game_data("maps", "roman_world.toml")
    path = _bad_copy(tmp_path, source, 'owner = "senatorial"', 'owner = "atlantis"')
    _refused(load_map, path)


def test_a_tactical_scenario_placing_a_unit_off_the_map(tmp_path: Path) -> None:
    source = game_data("scenarios", "tactical", "cannae.toml")
    text = source.read_text(encoding="utf-8")
    hex_id = next(w for w in text.replace('"', " ").split() if len(w) == 4 and w.isdigit() and w != "0000")
    path = _bad_copy(tmp_path, source, f'"{hex_id}"', '"9999"')
    _refused(load_tactical, path)


@pytest.mark.parametrize(
    ("engine", "scenario", "raw", "words"),
    [
        (CampaignEngine(), "49bc", {"type": "fly"}, "not a campaign action"),
        (CampaignEngine(), "49bc", {"type": "take", "kind": 3}, "kind must be text"),
        (BattleboardEngine(), "field-pharsalus", {"verb": "dance"}, "verb"),
    ],
)
def test_a_saved_action_that_is_not_one(engine: object, scenario: str, raw: dict[str, object], words: str) -> None:
    with pytest.raises(InputError, match=words) as caught:
        Session.replay(engine, scenario, 1, [raw], source="game.save")  # type: ignore[type-var]
    assert caught.value.source == "game.save" and caught.value.place == "actions[0]"
