"""Benchmarks run only under ``bellum bench`` (which sets BELLUM_BENCH=1)."""

import os

if not os.environ.get("BELLUM_BENCH"):
    collect_ignore_glob = ["test_*.py"]
