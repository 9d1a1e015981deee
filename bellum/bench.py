"""``bellum bench``: run the benchmark suite (pytest-benchmark) and print medians.

Benchmarks live in ``tests/bench/`` and only run here (``BELLUM_BENCH=1``);
the normal test run skips them, and no unit test asserts a time.  The medians
are what docs/PERFORMANCE.md reports.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bellum.errors import InputError
from bellum.paths import ROOT


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("-k", dest="select", default=None, help="only benchmarks matching this pytest -k expression")
    p.add_argument("--json", dest="json_out", default=None, help="also write pytest-benchmark's JSON here")


def run(args: argparse.Namespace) -> int:
    try:
        import pytest_benchmark  # noqa: F401
    except ImportError:
        raise InputError("bellum bench", "", "needs the test extra: pip install -e '.[test]'") from None
    if args.json_out:
        from bellum.paths import check_output

        check_output(args.json_out, "--json")
    bench_dir = ROOT / "tests" / "bench"
    if not bench_dir.is_dir():
        raise InputError(bench_dir, "", "the benchmark folder is missing (bellum bench runs from a source checkout)")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.json_out) if args.json_out else Path(tmp) / "bench.json"
        cmd = [sys.executable, "-m", "pytest", str(bench_dir), "-q", "-p", "no:cacheprovider"]
        cmd += ["--benchmark-enable", "--benchmark-only", f"--benchmark-json={out}", "-o", "addopts="]
        if args.select:
            cmd += ["-k", args.select]
        env = dict(os.environ, BELLUM_BENCH="1")
        env.setdefault("ARCADE_HEADLESS", "1")
        code = subprocess.run(cmd, cwd=ROOT, env=env, check=False).returncode
        if out.exists():
            print_medians(json.loads(out.read_text()))
    return code


def print_medians(report: dict[str, object]) -> None:
    benches = report.get("benchmarks", [])
    if not isinstance(benches, list) or not benches:
        print("no benchmarks ran")
        return
    print(f"\n{'benchmark':<60} {'median':>12} {'rounds':>8}")
    for b in benches:
        stats = b["stats"]
        median = stats["median"]
        unit, scale = ("ms", 1e3) if median >= 1e-4 else ("µs", 1e6)
        print(f"{b['name']:<60} {median * scale:>9.3f} {unit} {stats['rounds']:>8}")
