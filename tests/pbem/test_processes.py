"""Acceptance (issue 17): a whole six-turn campaign between two processes that exchange turn
files only, each side played by the computer, its battles fought move by move by the two
sides (``--battles played``), stopping for the other side's decisions; both games end on
the same checksum."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

TURNS = 6


def test_six_turns_between_two_processes(tmp_path: Path) -> None:
    mail = tmp_path / "mail"
    mail.mkdir()
    procs = []
    for side in ("caesarian", "senatorial"):
        env = dict(os.environ, BELLUM_HOME=str(tmp_path / f"home-{side}"))
        cmd = [sys.executable, "-m", "tests.pbem.worker", side, str(mail), str(TURNS)]
        procs.append(subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE))
    for p in procs:
        _out, err = p.communicate(timeout=900)
        assert p.returncode == 0, err.decode()[-2000:]
    done = {side: json.loads((mail / f"done-{side}.json").read_text()) for side in ("caesarian", "senatorial")}
    assert done["caesarian"]["checksum"] == done["senatorial"]["checksum"]
    assert done["caesarian"]["turn"] == done["senatorial"]["turn"]
    # a field battle stopped for the defender's decision (the Military stratagems he commits, campaign.md §12),
    # and the battles were fought move by move, the files going back and forth in the middle of them
    stops = done["caesarian"]["stops"] + done["senatorial"]["stops"]
    assert "commit" in stops, stops
    assert stops.count("battle") >= 2, stops
    files = sorted(mail.glob("turn*.toml"))
    assert len(files) > 10
    # the secrets never travel: each side's record stays in its own data folder
    for side in ("caesarian", "senatorial"):
        records = list((tmp_path / f"home-{side}" / "pbem" / "games").glob("*.toml"))
        assert [r.name.rsplit("-", 1)[1] for r in records] == [f"{side}.toml"]
