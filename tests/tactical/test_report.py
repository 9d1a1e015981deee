"""After-action reports of tactical battles (docs/rules/tactical.md §11; tactical/report.py)."""

from __future__ import annotations

from bellum.events import Event
from bellum.report import without_references
from tactical.report import markdown, moments, side_table
from tactical.scenario import load_scenario
from tests.conftest import ROOT


def _pharsalus():  # type: ignore[no-untyped-def]
    return load_scenario(ROOT / "scenarios" / "tactical" / "pharsalus.toml")


def test_rule_references_and_causes_are_trimmed() -> None:
    assert without_references("italian-5 is eliminated (it fails to rally (003 §10.27)).") == "italian-5 is eliminated."
    assert without_references("asian-3 routs (002 shock).") == "asian-3 routs."
    assert without_references("LA falls in the fighting") == "LA falls in the fighting."


def test_only_turning_points_are_kept() -> None:
    ev = [
        Event("move", "A1 moves to 1204.", {}),
        Event("rout", "A1 routs (002 shock).", {}),
        Event("continuity", "Side A rolls 4.", {}),
        Event("leader_lost", "LB1 falls in the fighting (003 §8.3).", {"leader": "LB1"}),
        Event("rampage", "E1 rampages (003 §9.14).", {}),
    ]
    assert moments(ev) == ("A1 routs.", "LB1 falls in the fighting.", "E1 rampages.")


def test_the_report_counts_each_sides_losses_by_type_and_its_rout_points() -> None:
    sc = _pharsalus()
    state = sc.state.copy()
    a_units = [u for u in state.units.values() if u.side == "A"]
    a_units[0].status = "eliminated"
    a_units[1].status = "routed"
    state.rout_points["A"] = 7
    fielded = sum(n for _t, n, _g, _r, _d in side_table(state, "A"))
    assert fielded == len(a_units)
    assert sum(g for _t, _n, g, _r, _d in side_table(state, "A")) == 1
    names = {"A": sc.side_name("A"), "B": sc.side_name("B")}
    ev = [Event("rout", f"{a_units[1].id} routs (002 shock).", {})]
    md = markdown(sc.model.name, names, state, ev, "B", "side A's rout points reach 7 of its withdrawal level 7")
    assert md.startswith(f"# {sc.model.name}\n")
    assert f"**{names['B']} wins: {names['A']}'s rout points reach 7" in md  # "Pompey wins"
    assert f"Rout points 7 of a withdrawal level of {state.withdrawal['A']}." in md
    assert f"- {a_units[1].id} routs." in md
    assert "| type | fielded | eliminated | routed | disordered |" in md


def test_bellum_battle_writes_the_report(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """``bellum battle S --headless --report FILE`` (tactical.md §11), the battle unchanged."""
    from bellum.cli import main

    out = tmp_path / "cannae.md"
    assert main(["battle", "cannae", "--ai", "both", "--seed", "3", "--headless", "--report", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1].startswith("result: ") and printed[-2] == f"report: {out}"
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# ") and "Rout points" in text and "| type | fielded |" in text
    bad = tmp_path / "missing" / "x.md"
    assert main(["battle", "cannae", "--ai", "both", "--headless", "--report", str(bad)]) == 2
    assert "does not exist" in capsys.readouterr().err
