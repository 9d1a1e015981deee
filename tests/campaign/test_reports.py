"""After-action reports (``bellum.report``; docs/rules/campaign.md §14.4): every battle's
engagement and outcome travel in its chronicle event, and a report is built from them
for the window's pop-up, the CLI's ``--reports`` folder and saved games alike."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bellum.dice import Dice
from bellum.engagement import Engagement, Outcome
from bellum.events import Event
from bellum.report import AfterAction, from_data
from bellum.saves import plain
from bellum.session import Session
from campaign import actions as A
from campaign.ai import CampaignAI
from campaign.chronicle import battle_reports, report_file_name
from campaign.cli import write_reports
from campaign.engine import CampaignEngine
from campaign.state import SIDE_NAMES
from campaign.view.game import CampaignGame
from tests.campaign.test_ops_battle import _ilerda
from tests.campaign.test_ops_sequence import outcome_for, play


def _fought(resolver) -> list:  # type: ignore[no-untyped-def]
    """The events of the Ilerda battle (Fabius against Afranius and Petreius)."""
    engine = CampaignEngine(resolver=resolver)
    s1, _ = play(_ilerda(), A.Battle("ilerda", 0), engine=engine)
    _s2, ev = play(s1, A.Commit(0), Dice.forced([9]), engine=engine)
    return list(ev)


def _win(eng: Engagement, dice: Dice) -> Outcome:
    out = outcome_for(eng, "A", lose=["afranius_0"], killed=["afranius"], captured=["petreius"])
    return out.model_copy(update={"reason": "side B has broken", "turns": 3})


def test_the_battle_event_carries_its_engagement_and_outcome() -> None:
    ev = _fought(_win)
    [rep] = battle_reports(ev)
    assert rep.engagement.where == "ilerda" and rep.outcome.winner == "A"
    assert {u.id for u in rep.engagement.units} == {u.id for u in rep.outcome.units}
    assert rep.title() == "Battle of Ilerda, April 49 BC"


def test_the_summary_says_who_won_what_it_cost_and_who_fell_in_the_sides_own_names() -> None:
    [rep] = battle_reports(_fought(_win))
    lines = rep.summary()
    # the engine's "side B" reads as the side's name, with the verb agreeing
    assert lines[0] == "The Caesarians defeat the Senatorials in 3 turns: the Senatorials have broken."
    assert lines[1] == "The Caesarians: 12 SP engaged, 0 lost."
    assert lines[2].startswith("The Senatorials: 9 SP engaged, 5 lost (5 killed")
    assert "L. Afranius fell." in lines and "M. Petreius was taken." in lines
    assert "The Senatorials must leave the field." in lines


def test_the_full_report_lists_every_unit_with_its_fate() -> None:
    [rep] = battle_reports(_fought(_win))
    md = rep.markdown()
    assert md.startswith("# Battle of Ilerda, April 49 BC\n")
    rows = [ln for ln in md.splitlines() if ln.startswith("| ") and not ln.startswith("| unit")]
    assert len(rows) == 6  # three units a side
    destroyed = next(r for r in rows if "| destroyed |" in r)
    assert destroyed.endswith("| 5 | destroyed | 0 |")
    assert "## The Caesarians" in md and "## The Senatorials" in md
    assert "L. Afranius (rating 2; fell)" in md


def test_a_draw_survives_a_save_that_drops_empty_values() -> None:
    """A saved event loses its ``None`` values (TOML has none): a missing winner is a draw."""
    ev = _fought(lambda eng, dice: outcome_for(eng, None))
    battle = next(e for e in ev if e.kind == "battle")
    saved = plain(battle.data["report"])
    assert "winner" not in saved["outcome"]
    rep = from_data(saved, names=SIDE_NAMES)
    assert rep.outcome.winner is None and rep.verdict().startswith("Drawn after")


def test_reports_of_a_played_game_one_per_battle_and_files_named_in_order(tmp_path: Path) -> None:
    session = Session(CampaignEngine(), "49bc", 3)
    ai = CampaignAI()
    while session.state.turn < 3:
        session.play(ai.choose(session.state))
    events = list(session.log)
    battles = [e for e in events if e.kind == "battle"]
    assert battles, "seed 3 fights in its first three turns"
    n = write_reports(events, str(tmp_path / "reports"))
    files = sorted(p.name for p in (tmp_path / "reports").iterdir())
    assert n == len(battles) == len(files)
    assert files[0].startswith("01-battle-") and files[0].endswith(".md")
    first = (tmp_path / "reports" / files[0]).read_text(encoding="utf-8")
    assert first.startswith("# Battle") and "| unit |" in first
    assert report_file_name(12, battle_reports(battles)[0]).startswith("12-")


def test_the_cli_refuses_a_reports_folder_it_cannot_make_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bellum.cli import main

    blocker = tmp_path / "file"
    blocker.write_text("x")
    code = main(["campaign", "--ai", "both", "--turns", "1", "--headless", "--reports", str(blocker / "sub")])
    out, err = capsys.readouterr()
    assert code == 2 and "is a file, not a folder" in err and "Traceback" not in err
    assert "January 49 BC" not in out  # refused before a turn was played


def test_the_window_pops_up_the_report_of_a_battle_a_person_fought() -> None:
    ev = _fought(_win)
    game = CampaignGame.new(seed=2, humans=frozenset({"senatorial"}))
    game.popups.clear()
    game._news(ev)
    [(title, lines)] = [p for p in game.popups if p[0].startswith("After-action report")]
    assert title == "After-action report: Battle of Ilerda, April 49 BC"
    assert lines[0].startswith("The Caesarians defeat the Senatorials")
    watcher = CampaignGame.new(seed=2, humans=frozenset())
    watcher.popups.clear()
    watcher._news(ev)
    assert not watcher.popups  # computer against computer: the chronicle is enough


def test_odds_and_moments_appear_when_the_engine_gives_them() -> None:
    [rep] = battle_reports(_fought(_win))
    rich = AfterAction(
        rep.engagement,
        rep.outcome,
        names=SIDE_NAMES,
        odds={"Caesarians win": 0.62, "draw": 0.08, "Senatorials win": 0.3},
        moments=("Legio X routs the levies.",),
    )
    assert "Odds beforehand: Caesarians win 62%, Senatorials win 30%, draw 8%." in rich.summary()
    assert "## How it went\n\n- Legio X routs the levies." in rich.markdown()


def test_a_battle_fought_in_a_battle_window_reports_how_it_went() -> None:
    """The battle window hands back its turning points with the outcome (campaign.md §14.4)."""
    game = CampaignGame.new(seed=2, humans=frozenset({"caesarian"}))
    game.session.state = _ilerda()
    assert game.decide(A.Battle("ilerda", 0))
    game.run_ai()  # the Senatorials commit their stratagems: the battle choice comes up
    assert game.battle is not None
    eng = game.battle.engagement
    game.popups.clear()
    assert game.finish_battle(_win(eng, Dice(1)), fought="the battleboard", moments=("side B panics",))
    [(title, lines)] = [p for p in game.popups if p[0].startswith("After-action report")]
    assert title.endswith("Battle of Ilerda, April 49 BC")
    assert lines[-1] == "The Senatorials panic."


def test_a_tactical_battles_turning_points_name_the_campaign_units() -> None:
    """campaign.md §14.4: counters read as the campaign units they carry, numbered when a
    unit takes several; rule references are trimmed; only turning points are kept."""
    from bellum.engagement import ForceLeader
    from campaign.conversion import tactical_moments
    from tests.campaign.test_conversion import _eng, _final

    eng = _eng(
        [("legion", "V", 5)],
        [("legion", "R", 5)],
        leaders=[ForceLeader(id="caesar", side="A", rating=3, name="C. Iulius Caesar")],
    )
    eng = eng.model_copy(update={"units": [u.model_copy(update={"name": f"Legio {u.id}"}) for u in eng.units]})
    final = _final(eng)
    a_counters = sorted(cid for cid, u in final.units.items() if u.group == "a0")
    assert len(a_counters) == 5  # one SP a counter (§12.7.1)
    events = [
        Event("move", f"{a_counters[1]} moves.", {}),
        Event("rout", f"{a_counters[1]} routs (002 shock check failed).", {}),
        Event("eliminated", f"{a_counters[0]} is eliminated (it fails to rally (003 §10.27)).", {}),
        Event("leader_lost", "caesar falls in the fighting (003 §8.3).", {}),
    ]
    n = a_counters[1].rsplit("-", 1)[-1]
    assert tactical_moments(eng, final, events) == (
        f"Legio a0 ({n}) routs.",
        f"Legio a0 ({a_counters[0].rsplit('-', 1)[-1]}) is eliminated.",
        "C. Iulius Caesar falls in the fighting.",
    )


@pytest.mark.window
def test_the_r_key_lists_the_wars_battles_and_opens_a_report(window: Any) -> None:
    """campaign.md §14.4 and §14.3: R lists the battles, the latest first; a choice opens
    its report, drawn on the map; Back returns to the list."""
    import arcade

    from campaign.view.play import CampaignView
    from tests.campaign.test_window_play import press_label
    from tests.conftest import render

    game = CampaignGame.new("49bc", 3, humans=frozenset())
    while not any(e.kind == "battle" for e in game.session.log):
        game.ai_step()
    game.popups.clear()
    view = CampaignView(game)
    view.ai_delay = 1e9  # the computer waits while we read
    before = render(window, view)
    view.on_key_press(arcade.key.R, 0)
    assert view.dialog is not None and view.dialog.title == "Battles of the war"
    first = game.reports()[-1]
    assert view.dialog.options[0][0] == first.title()
    press_label(view, first.title())
    assert view.dialog is not None and view.dialog.title == first.title()
    assert any("SP engaged" in ln for ln in view.dialog.lines)
    shown = render(window, view)
    assert shown.convert("RGB").tobytes() != before.convert("RGB").tobytes()
    press_label(view, "Back to the battles")
    assert view.dialog is not None and view.dialog.title == "Battles of the war"
