#!/usr/bin/env bash
# The release check (`make release`, part of `make test`): build the sdist and the wheel,
# check them, install the wheel into a fresh virtualenv in a temporary folder, and play the
# game from there — outside the checkout, with only what the wheel carries.  Fails when a
# file the game reads (map, scenario, rules text, an engine's table) is missing from the wheel.
#
#   tests/release/release-check.sh [PYTHON]     (PYTHON: the dev venv's, with build, twine,
#                                                check-wheel-contents; default .venv/bin/python)
set -euo pipefail
SRC="$(cd "$(dirname "$0")/../.." && pwd)"
PY="${1:-$SRC/.venv/bin/python}"
BIN="$(dirname "$PY")"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/bellum-release.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
start=$SECONDS
step() { printf 'release: %s (%ss)\n' "$*" "$((SECONDS - start))"; }

step "building the sdist and the wheel"
"$PY" -m build --outdir "$WORK/dist" "$SRC" >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log"; exit 1; }
wheel=("$WORK"/dist/*.whl)
step "built $(basename "${wheel[0]}") ($(du -k "${wheel[0]}" | cut -f1) KiB)"

step "twine check, check-wheel-contents"
"$BIN/twine" check --strict "$WORK"/dist/*
(cd "$SRC" && "$BIN/check-wheel-contents" "${wheel[0]}")

step "installing the wheel into a fresh virtualenv"
"$PY" -m venv --without-pip "$WORK/venv"
"$PY" -m pip --python "$WORK/venv/bin/python" install -q --disable-pip-version-check "${wheel[0]}" \
    >"$WORK/install.log" 2>&1 || { cat "$WORK/install.log"; exit 1; }
test -x "$WORK/venv/bin/bellum" || { echo "release: the wheel installed no bellum command"; exit 1; }

# from here on: a folder outside the checkout, the installed game only
mkdir -p "$WORK/play" "$WORK/home"
cd "$WORK/play"
export BELLUM_HOME="$WORK/home" ARCADE_HEADLESS=1
unset PYTHONPATH
game="$WORK/venv/bin/bellum"

step "every data file of the checkout is in the installed game"
"$WORK/venv/bin/python" - "$SRC" <<'EOF'
import sys
from pathlib import Path

from bellum.paths import game_data

src = Path(sys.argv[1])
folders = {"maps": "maps", "scenarios": "scenarios", "docs/rules": "rules", "schemas": "schemas"}
pairs = [(src / k, game_data(v)) for k, v in folders.items()]
pairs += [(src / e / "data", game_data(e, "data")) for e in ("campaign", "battleboard", "tactical")]
missing = []
for source, installed in pairs:
    if installed.resolve().is_relative_to(src):
        sys.exit(f"release: the installed game reads {installed}, inside the checkout")
    for f in sorted(p for p in source.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        rel = f.relative_to(source)
        if not (installed / rel).is_file():
            missing.append(f"{f.relative_to(src)} (looked for {installed / rel})")
if missing:
    sys.exit("release: missing from the installed game:\n  " + "\n  ".join(missing))
print(f"release: {sum(1 for s, _ in pairs for p in s.rglob('*') if p.is_file())} data files present")
EOF

step "the shipped schemas match the game's models; every shipped scenario and the map pass bellum check"
"$game" schemas --check
"$game" check "$("$WORK/venv/bin/python" -c 'from bellum.paths import game_data; print(game_data("scenarios"))')" \
  "$("$WORK/venv/bin/python" -c 'from bellum.paths import game_data; print(game_data("maps"))')" | tail -n 1
"$WORK/venv/bin/python" - <<'EOF'
import re
import sys

from bellum.paths import game_data

# an editor resolves each file's '#:schema' line beside the installed file: it must find the schema
bad = []
for f in sorted([*game_data("scenarios").rglob("*.toml"), *game_data("maps").glob("*.toml")]):
    m = re.match(r"#:schema (\S+)", f.read_text(encoding="utf-8"))
    if not m or not (f.parent / m.group(1)).is_file():
        bad.append(str(f))
if bad:
    sys.exit("release: these installed files name no schema that exists beside them:\n  " + "\n  ".join(bad))
EOF

step "bellum version; python -m bellum version"
"$game" version | tee "$WORK/version.txt"
grep -q "(installed)" "$WORK/version.txt" || { echo "release: bellum version does not say the data is installed"; exit 1; }
"$WORK/venv/bin/python" -m bellum version >/dev/null

step "a campaign turn"
"$game" campaign --ai both --headless --turns 1 | tail -n 1
step "a battleboard battle"
"$game" board sea-interception --ai both --headless | tail -n 1
step "a tactical battle"
"$game" battle pharsalus --ai both --headless | tail -n 1
step "bellum shot campaign"
"$game" shot campaign --out "$WORK/campaign.png"
test -s "$WORK/campaign.png"
step "done: the installed game plays"
