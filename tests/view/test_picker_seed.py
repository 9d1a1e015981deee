"""A battle started from the picker is fought on dice of its own: each start draws a fresh
seed (review of issue 16: every battle from the picker rolled seed 1's dice)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from battleboard.view.choose import BoardBattles
from tactical.view.choose import TacticalBattles
from tests.view.test_picker_options_watch import picker_on, press


@pytest.mark.parametrize("source", [TacticalBattles(), BoardBattles()], ids=["tactical", "battleboard"])
def test_each_battle_from_the_picker_draws_its_own_seed(window: Any, tmp_path: Path, source: Any) -> None:
    import arcade.key as K

    picker = picker_on(window, source, Path(source.battles()[0].path).stem, tmp_path / "settings.toml")
    seeds = iter([7, 1234567])
    picker.seed = lambda: next(seeds)  # type: ignore[method-assign]
    started = []
    for _ in range(2):
        press(picker, K.KEY_3)  # hotseat: nobody moves on his own
        press(picker, K.ENTER)
        battle: Any = window.current_view
        assert battle is not picker and not picker.error
        started.append(battle)
        window.show_view(picker)
    got = [b.session.seed if hasattr(b, "session") else b.standalone.seed for b in started]
    assert got == [7, 1234567]
    assert 1 <= picker.__class__.seed(picker) < 2**31  # the real draw: a positive 31-bit seed
