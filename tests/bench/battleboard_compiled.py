"""Battleboard auto-resolve, the pure Python rules against the same code compiled by mypyc, in
one process (issue 20 item 2: how far compiling takes the per-core rates).

    .venv/bin/python tests/bench/battleboard_compiled.py

The ``battleboard`` package is copied under another name (``battleboard_fast``, its imports
renamed, as ``battleboard_side_by_side.py`` does) into a temporary folder and its hot modules
(the rules, the AI, the odds) compiled there with mypyc, which comes with mypy; nothing is
built in the project and the game itself stays pure Python.  The battles then alternate pure,
compiled, pure ... on the same seeds, each timed in CPU time, after 30 warm-up battles each,
and every compiled battle's outcome must equal the pure one's (the same play).
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
for p in (ROOT, HERE):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from battleboard_side_by_side import _copy_old, compare  # noqa: E402

#: the modules compiled (the rest of the package stays interpreted)
HOT = ("queries", "combat", "legal", "apply", "ai", "odds")


def build(tmp: Path) -> None:
    """``battleboard_fast`` in ``tmp``, its hot modules compiled in place."""
    _copy_old(ROOT, tmp)
    (tmp / "battleboard_old").rename(tmp / "battleboard_fast")
    for f in (tmp / "battleboard_fast").rglob("*.py"):
        f.write_text(f.read_text(encoding="utf-8").replace("battleboard_old", "battleboard_fast"), encoding="utf-8")
    env = dict(os.environ, MYPYPATH=str(ROOT))
    files = [f"battleboard_fast/{m}.py" for m in HOT]
    subprocess.run([sys.executable, "-m", "mypyc", *files], cwd=tmp, env=env, check=True, capture_output=True)


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--rounds", type=int, default=300, help="battles of each (default 300)")
    args = p.parse_args()
    from battleboard.resolve import resolve_engagement
    from tests.battleboard.helpers import land_engagement, naval_engagement

    with tempfile.TemporaryDirectory() as tmp:
        build(Path(tmp))
        sys.path.insert(0, tmp)
        fast = importlib.import_module("battleboard_fast.resolve").resolve_engagement
        if not str(importlib.import_module("battleboard_fast.queries").__file__).endswith((".so", ".pyd")):
            raise SystemExit("mypyc did not compile the rules")
        cases = (("land 12 v 12", land_engagement(12, "field")), ("naval 12+12", naval_engagement(12, "mutual")))
        for name, eng in cases:
            for seed in range(1000, 1000 + args.rounds):
                if fast(eng, seed).model_dump() != resolve_engagement(eng, seed).model_dump():
                    raise SystemExit(f"{name}: the compiled rules played seed {seed} differently")
            a, b, r = compare(resolve_engagement, fast, eng, args.rounds)
            print(f"{name}: pure {a:.3f} ms ({1000 / a:.0f}/s), compiled {b:.3f} ms ({1000 / b:.0f}/s), ×{r:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
