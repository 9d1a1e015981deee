"""``bellum study``: the same tables whatever the number of workers, on this machine or on a
Dask cluster; bad arguments are one sentence."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from bellum.cli import main
from bellum.study import parse_seeds, run_tasks, write_rows
from campaign.study import play
from tactical.study import summary as battle_summary


def _study(tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: int, tag: str) -> tuple[str, str, str]:
    out = tmp_path / f"wars-{tag}.csv"
    code = main(
        ["study", "campaign", "--seeds", "3-5", "--turns", "3", "--jobs", str(jobs), "--out", str(out), "--quiet"]
    )
    assert code == 0
    printed = capsys.readouterr()
    assert "3 games in" in printed.err
    return out.read_text(), printed.out, printed.err


def test_one_worker_and_two_give_the_same_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table1, summary1, _ = _study(tmp_path, capsys, 1, "one")
    table2, summary2, _ = _study(tmp_path, capsys, 2, "two")
    assert table1 == table2
    assert summary1 == summary2
    rows = list(csv.DictReader(table1.splitlines()))
    assert [r["seed"] for r in rows] == ["3", "4", "5"]
    assert json.loads(rows[0]["counts"]).keys() >= {"land battles", "storms"}
    assert "| seed | ended | how | winner |" in summary1 and "| mean |" in summary1


def test_a_dask_cluster_gives_the_same_rows() -> None:
    distributed = pytest.importorskip("distributed")
    todo = [(s, 2, "auto", "49bc") for s in (7, 8, 9)]
    here = run_tasks(play, todo, jobs=1)
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
    ):
        there = run_tasks(play, todo, scheduler=cluster.scheduler_address)
    assert there == here
    assert [r["seed"] for r in there] == [7, 8, 9]


def test_the_balance_command_is_the_campaign_study(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "wars.json"
    assert main(["balance", "--seeds", "2", "--turns", "1", "--jobs", "1", "--out", str(out), "--quiet"]) == 0
    rows = json.loads(out.read_text())
    assert [r["seed"] for r in rows] == [2] and rows[0]["turns"] == 1
    assert "| 2 |" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["study", "campaign", "--seeds", "5-x"], "--seeds: '5-x' is not a list of seeds"),
        (["study", "campaign", "--seeds", "1", "--turns", "0"], "--turns: 0 is not a number of turns"),
        (["study", "campaign", "--seeds", "1", "--jobs", "-1"], "--jobs: -1 is not a number of processes"),
        (["study", "campaign", "--seeds", "1", "--out", "wars.txt"], "should end in .csv or .json"),
        (["study", "battles", "--opponent", "chimp"], "'chimp' is not one of random, greedy, ai"),
        (["study", "battles", "--scenario", "atlantis"], "atlantis"),
    ],
)
def test_bad_arguments_are_one_sentence(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*argv, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err and err.count("\n") == 1


def test_seeds_read_as_ranges_and_lists() -> None:
    assert parse_seeds("1-3,7,9-10") == [1, 2, 3, 7, 9, 10]


def test_battle_summary_counts_by_scenario_side_and_opponent(tmp_path: Path) -> None:
    rows = [
        {"scenario": "cannae", "side": s, "opponent": "random", "seed": n, "winner": w, "result": r, "actions": a}
        for s, n, w, r, a in [
            ("A", 1, "A", "won", 500),
            ("A", 2, "", "drawn", 6000),
            ("A", 3, "A", "won", 700),
            ("B", 1, "A", "lost", 900),
        ]
    ]
    text = battle_summary(rows)
    assert "| cannae | AI (A) vs random | 1–3 | **2** | 1 | 0 | **66.7 %** | 700 |" in text
    assert "| cannae | AI (B) vs random | 1 | **0** | 0 | 1 | **0.0 %** | 900 |" in text
    write_rows(rows, str(tmp_path / "b.json"))
    assert json.loads((tmp_path / "b.json").read_text()) == rows


def test_battle_tasks_cover_every_side_and_opponent_once_a_seed() -> None:
    import argparse

    from tactical.study import tasks

    args = argparse.Namespace(scenario="pharsalus", opponent="random,ai", side="both", seeds="1-2")
    assert tasks(args) == [
        ("pharsalus", "A", "random", 1),
        ("pharsalus", "A", "random", 2),
        ("pharsalus", "B", "random", 1),
        ("pharsalus", "B", "random", 2),
        ("pharsalus", "A", "ai", 1),  # AI against AI: once a seed
        ("pharsalus", "A", "ai", 2),
    ]
