"""Battleboard auto-resolve speed (issues 6 and 20): AI-vs-AI battles per second per core.

Targets: land 12 units a side >= 800 battles a second; naval 12 fleets and 12 troops a side
>= 400 (issue 20); naval 6 fleets a side reported.  Battles/second = 1 / the benchmark's
median.  Run by ``bellum bench``.
"""

from __future__ import annotations

import itertools
from typing import Any

from battleboard.resolve import resolve_engagement
from tests.battleboard.helpers import land_engagement, naval_engagement


def _bench(benchmark: Any, eng: Any) -> None:
    for seed in range(30):  # warm the odds cache, as a running game would have
        resolve_engagement(eng, seed)
    seeds = itertools.count(1000)
    benchmark.pedantic(lambda: resolve_engagement(eng, next(seeds)), rounds=300, iterations=1)


def test_bench_land_battle_12_units_a_side(benchmark: Any) -> None:
    _bench(benchmark, land_engagement(12, "field"))


def test_bench_naval_battle_6_fleets_a_side(benchmark: Any) -> None:
    _bench(benchmark, naval_engagement(6, "mutual"))


def test_bench_naval_battle_12_fleets_12_troops_a_side(benchmark: Any) -> None:
    _bench(benchmark, naval_engagement(12, "mutual"))
