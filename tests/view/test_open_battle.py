"""`bellum battle SCENARIO` (no --headless) opens a real window on the scenario."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import ROOT

SCRIPT = """
import arcade
from tactical.view import app
arcade.run = lambda: arcade.get_window().close()   # one frame's worth: open, then close
app.open_battle("scenarios/tactical/pharsalus.toml", seed=3)
print("opened")
"""


def test_open_battle_creates_the_window_before_the_view() -> None:
    env = dict(os.environ, ARCADE_HEADLESS="1")
    r = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, cwd=ROOT, env=env, timeout=180, check=False
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert "opened" in r.stdout
