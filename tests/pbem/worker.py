"""One player of a game by e-mail, as a separate process (the two-process acceptance test).

``python -m tests.pbem.worker SIDE FOLDER TURNS`` plays SIDE with the computer: it waits for
``FOLDER/turnNNN.toml`` and plays it with ``bellum pbem play FILE --ai --out NEXT``, which
writes the next one.  Its secrets live in its own ``$BELLUM_HOME``.  Once the campaign has run
TURNS turns it writes ``FOLDER/done-SIDE.json``: the checksum of its game, and the decisions
the files it received stopped for."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from bellum import pbem
from bellum.cli import main
from bellum.pbem import open_turn_file, read_turn_file, replay
from tests.pbem.helpers import seeded

WAIT = 600.0


def wait_for(path: Path) -> None:
    t0 = time.monotonic()
    while not path.exists():
        if time.monotonic() - t0 > WAIT:
            raise SystemExit(f"no turn file {path} came")
        time.sleep(0.05)


def run(side: str, folder: Path, turns: int) -> None:
    pbem.entropy = seeded(side)  # each side's own secrets, the same on every run of the test
    n = 0  # the number of the next turn file this side receives: the creator's is turn 0
    if side == "caesarian":
        first = str(folder / "turn000.toml")
        assert main(["pbem", "new", "49bc", "--as", "caesarians", "--battles", "played", "--out", first]) == 0
        n = 1
    start: int | None = None
    stops: list[str] = []
    while True:
        path = folder / f"turn{n:03d}.toml"
        wait_for(path)
        received = open_turn_file(path)  # the same check `bellum pbem play` makes
        state = received.state
        start = state.turn if start is None else start
        if received.battle is not None:
            stops.append("battle")
        elif state.pending is not None:
            stops.append(state.pending.kind)
        if state.turn - start >= turns or state.result:
            finish(folder, side, received.checksum(), state.turn, stops)
            return
        out = folder / f"turn{n + 1:03d}.toml"
        if main(["pbem", "play", str(path), "--ai", "--out", str(out)]) != 0:
            raise SystemExit(f"{side} could not play {path}")
        doc, rules = read_turn_file(out)
        mine = replay(doc, rules, out).state
        if mine.turn - start >= turns or mine.result:  # the other side checks this last file and stops
            finish(folder, side, doc.pbem.checksum, mine.turn, stops)
            return
        n += 2


def finish(folder: Path, side: str, checksum: str, turn: int, stops: list[str]) -> None:
    done = {"checksum": checksum, "turn": turn, "stops": stops}
    (folder / f"done-{side}.json").write_text(json.dumps(done))


if __name__ == "__main__":
    run(sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]))
