"""Instructions an auto-resolved battleboard battle costs, counted by callgrind (issue 20 item 2):
a measure that does not swing with the machine's load, for comparing two versions of the code.

    .venv/bin/python tests/bench/battleboard_instructions.py naval --battles 40

Runs the battles of ``tests/bench/test_bench_battleboard.py`` (land 12 units a side, or naval 12
fleets and 12 troops a side: 30 warm-up battles, then ``--battles`` more) under ``valgrind
--tool=callgrind`` twice — with and without the timed battles — and prints the difference a
battle.  Hash seeds and BLAS threads are fixed so the same code gives the same count (within
0.05 %).  Needs valgrind (Debian's package); about a minute.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_BATTLES = """
import sys
sys.path.insert(0, {root!r})
from battleboard.resolve import resolve_engagement
from tests.battleboard.helpers import land_engagement, naval_engagement
eng = naval_engagement(12, "mutual") if {kind!r} == "naval" else land_engagement(12, "field")
for s in range(30):
    resolve_engagement(eng, s)
for s in range(1000, 1000 + {n}):
    resolve_engagement(eng, s)
"""


def count(kind: str, n: int) -> int:
    """Instructions of the whole process: start-up, 30 warm-up battles and ``n`` battles."""
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1")
    code = _BATTLES.format(root=str(ROOT), kind=kind, n=n)
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit("callgrind printed no instruction count")
    return int(found.group(1))


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("kind", choices=("naval", "land"))
    p.add_argument("--battles", type=int, default=40, help="battles counted (default 40)")
    args = p.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt install valgrind)")
    if args.battles < 1:
        raise SystemExit("--battles must be at least 1")
    per = (count(args.kind, args.battles) - count(args.kind, 0)) / args.battles
    print(f"{args.kind}: {per / 1e6:.2f} M instructions a battle ({args.battles} battles)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
