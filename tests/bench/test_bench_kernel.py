"""Kernel benchmarks: dice throughput, odds enumeration, saves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bellum.dice import Dice
from bellum.odds import exact_distribution
from bellum.saves import SaveData, read_save, write_save


def test_bench_dice_10k_d10(benchmark: Any) -> None:
    dice = Dice(1)

    def roll() -> None:
        for _ in range(10_000):
            dice.d10("bench")
        dice.rolls.clear()

    benchmark(roll)


def test_bench_odds_three_stage_resolver(benchmark: Any) -> None:
    def resolve(d: Dice) -> str:
        r = d.d10("shock")
        if r >= 8:
            return "pursued" if d.d10("pursuit") <= 4 else "routed"
        if r == 0:
            return "leader dead" if d.d10("leader") == 0 else "repulsed"
        return "other"

    benchmark(exact_distribution, resolve)


def test_bench_save_and_load_2000_units(benchmark: Any, tmp_path: Path) -> None:
    state = {"units": [{"id": f"U{i}", "hex": f"{i % 50:02d}{i % 30:02d}", "tq": 7, "hits": 0} for i in range(2000)]}
    data = SaveData("campaign", "49bc", 1, {"seed": 1, "counter": 0}, state)
    path = tmp_path / "big.toml"

    def cycle() -> None:
        write_save(path, data)
        read_save(path)

    benchmark(cycle)
