"""The after-action report written from the campaign window: the game is saved beside the
report and ``bellum aar`` renders it in a process of its own (its own hidden window), so
the window goes on while the pictures are drawn."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from bellum.paths import user_folder


def report_folder(session: Any, battle: int | None = None) -> Path:
    """Where the report of ``session`` goes: ``<user folder>/reports/<scenario>-seed<S>-turn<T>``
    (``…-battle<N>`` for one battle's)."""
    scenario = Path(str(session.scenario)).stem
    name = f"{scenario}-seed{session.seed}-turn{session.state.turn + 1}"
    return user_folder() / "reports" / (name + (f"-battle{battle}" if battle else ""))


def start_report(session: Any, battle: int | None = None) -> tuple[Path, subprocess.Popen[bytes]]:
    """Save ``session`` into its report folder and start ``bellum aar`` on it (on its battle
    number ``battle`` alone, when given); the folder and the running process."""
    folder = report_folder(session, battle)
    folder.mkdir(parents=True, exist_ok=True)
    save = session.save(folder / "war.toml")
    if getattr(sys, "frozen", False):  # the desktop bundle: the executable is the command
        cmd = [sys.executable, "aar", str(save), "--out", str(folder)]
    else:
        cmd = [sys.executable, "-m", "bellum", "aar", str(save), "--out", str(folder)]
    if battle:
        cmd += ["--battle", str(battle)]
    return folder, launch(cmd, folder / "aar.log")


def launch(cmd: list[str], log: Path) -> subprocess.Popen[bytes]:
    """Run ``cmd`` in the background, its output into ``log``."""
    with log.open("wb") as out:
        return subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
