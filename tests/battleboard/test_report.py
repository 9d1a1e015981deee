"""After-action reports of battleboard battles (``bellum.report``; battleboard.md §14):
the engagement a stand-alone scenario amounts to, the battle's turning points, and
``bellum board … --headless --report FILE``."""

from __future__ import annotations

from pathlib import Path

import pytest

from battleboard.resolve import autoplay, moments, outcome, state_from_engagement
from battleboard.scenario import engagement_of, load_scenario
from bellum.cli import main
from bellum.dice import Dice
from bellum.errors import InputError
from bellum.events import Event
from bellum.report import AfterAction, name_sides

SCENARIOS = ("field-pharsalus", "mountain-pass", "sea-interception", "supply-battle")


@pytest.mark.parametrize("name", SCENARIOS)
def test_a_scenario_is_the_engagement_it_would_be_in_the_campaign(name: str) -> None:
    """engagement_of inverts state_from_engagement: the same units, leaders and battle."""
    sc, _ = load_scenario(name)
    eng = engagement_of(sc, name)
    assert [(u.id, u.kind, u.discipline, u.strength) for u in eng.units] == [
        (u.id, u.kind, u.discipline, u.strength) for u in sc.units
    ]
    assert {ld.id for ld in eng.leaders} == {ld.id for ld in sc.leaders}
    again = state_from_engagement(eng)
    assert {u.id for u in again.units.values()} == {u.id for u in sc.units}
    assert eng.sides["A"].faction == sc.sides["A"].name


def test_a_scenario_the_contract_refuses_is_one_sentence(tmp_path: Path) -> None:
    """An interception needs the intercepting leader (004 Setup): no report without one."""
    sc, _ = load_scenario("sea-interception")
    bare = sc.model_copy(update={"leaders": []})
    with pytest.raises(InputError, match="cannot be reported on"):
        engagement_of(bare, "sea-interception")


def test_the_turning_points_are_losses_panic_breaking_flight_and_fallen_leaders() -> None:
    ev = [
        Event("move", "X moves to c4", {}),
        Event("eliminated", "P1 is eliminated", {}),
        Event("leader", "LB escapes to d5 (roll 3, §9.3)", {"fate": "escaped"}),
        Event("leader", "LA is killed (roll 0, §9.3)", {"fate": "killed"}),
        Event("panic", "side B panics (§10.1)", {}),
        Event("flight", "SYR routs and flees: it is dispersed (flight roll 1, §10.3)", {}),
    ]
    assert moments(ev) == (
        "P1 is eliminated.",
        "LA is killed.",
        "side B panics.",
        "SYR routs and flees: it is dispersed.",
    )


def test_the_report_names_units_and_sides_in_its_turning_points() -> None:
    sc, state = load_scenario("field-pharsalus")
    eng = engagement_of(sc, "field-pharsalus")
    events: list[Event] = []
    final = autoplay(state, Dice(1), events)
    out = outcome(final, eng, Dice(2))
    rep = AfterAction(eng, out, fought="the battleboard", moments=moments(events), heading=sc.name)
    told = rep.named_moments()
    assert told and all(m.endswith(".") for m in told)
    assert not any("side A" in m or "side B" in m for m in told)
    ids = {u.id for u in sc.units if u.name}
    assert not any(m.split(" ")[0] in ids for m in told)  # "P1 is eliminated" reads "Legio I is…"
    assert rep.title() == sc.name


def test_verbs_agree_with_a_plural_side() -> None:
    names = {"A": "the Caesarians", "B": "Pompeius"}
    assert name_sides("side A breaks and flees the field", names) == "the Caesarians break and flee the field"
    assert name_sides("side A has nothing left", names) == "the Caesarians have nothing left"
    assert name_sides("side B panics", names) == "Pompeius panics"
    assert name_sides("side B panics", {}) == "side B panics"


def test_bellum_board_writes_the_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "pharsalus.md"
    args = ["board", "field-pharsalus", "--ai", "both", "--seed", "5", "--headless"]
    assert main(args) == 0
    plain = capsys.readouterr().out
    assert main([*args, "--report", str(out)]) == 0
    with_report = capsys.readouterr().out
    # the same battle is fought with or without the report
    assert [ln for ln in with_report.splitlines() if not ln.startswith("report:")] == plain.splitlines()
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Pharsalus, August 48 BC")
    assert "## How it went" in text and "| Legio X Equestris | legion |" in text


def test_a_report_without_headless_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board", "field-pharsalus", "--report", "x.md"]) == 2
    err = capsys.readouterr().err
    assert "--report" in err and "Traceback" not in err
