"""The illustrated after-action report (``bellum aar``, campaign.md §14.5): a 12-turn AI war
with battleboard and tactical battles, replayed from its save into maps, charts and every
battle's pictures, its words checked against the war's own outcomes."""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bellum.engagement import Outcome

SEED, TURNS = 1, 12


@pytest.fixture(scope="module")
def war_save(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 12-turn war, AI on both sides, its decisive battles on the tactical engine."""
    from bellum.cli import main

    path = tmp_path_factory.mktemp("aar") / "war.toml"
    args = ["campaign", "--headless", "--ai", "both", "--turns", str(TURNS), "--seed", str(SEED)]
    assert main([*args, "--battles", "decisive-tactical", "--save", str(path)]) == 0
    return path


@pytest.fixture(scope="module")
def report(war_save: Path, tmp_path_factory: pytest.TempPathFactory, window: Any) -> Path:
    from campaign.view.aar import write

    folder = tmp_path_factory.mktemp("report")
    write(war_save, folder, window=window)
    return folder


def _battle_events(save: Path) -> list[dict[str, Any]]:
    data = tomllib.loads(save.read_text(encoding="utf-8"))
    return [e for e in data["events"] if e["kind"] == "battle" and isinstance(e["data"].get("report"), dict)]


@pytest.mark.window
def test_the_war_has_both_kinds_of_battle(war_save: Path) -> None:
    engines = {e["data"].get("engine", "battleboard") for e in _battle_events(war_save)}
    assert engines == {"battleboard", "tactical"}


@pytest.mark.window
def test_every_picture_exists_and_is_not_blank(report: Path) -> None:
    md = (report / "index.md").read_text(encoding="utf-8")
    html = (report / "index.html").read_text(encoding="utf-8")
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md)
    assert any(p.startswith("map-") for p in pictures) and "charts.png" in pictures
    assert any(p.startswith("battle-") for p in pictures)
    # both kinds of battle pictured, from their own windows: the tactical battlefield, the board
    assert ": the battlefield at the start]" in md and ": the board at the start]" in md
    assert ": the battlefield at the end]" in md and "battle window" not in md
    for name in pictures:
        assert f'src="{name}"' in html
        image = Image.open(report / name).convert("RGB")
        colours = image.getcolors(maxcolors=1 << 16)
        assert colours is None or len(colours) >= 16, f"{name} is nearly blank"


@pytest.mark.window
def test_every_battle_of_the_chronicle_has_its_section(war_save: Path, report: Path) -> None:
    from campaign.map import roman_world

    md = (report / "index.md").read_text(encoding="utf-8")
    events = _battle_events(war_save)
    assert events
    sections = re.findall(r"^### (\d+)\. (.+)$", md, flags=re.M)
    assert len(sections) == len(events)
    cmap = roman_world()
    for (n, title), e in zip(sections, events, strict=True):
        assert cmap.name(e["data"]["place"]) in title
        assert e["data"]["date"] in title
        assert f'<a id="battle-{n}"></a>' in md


@pytest.mark.window
def test_headlines_say_whose_strength_was_lost_and_match_the_outcome(war_save: Path, report: Path) -> None:
    from bellum.engagement import Engagement

    md = (report / "index.md").read_text(encoding="utf-8")
    heads = re.findall(r"^### \d+\. .+\n\n\*\*(.+)\*\*$", md, flags=re.M)
    events = _battle_events(war_save)
    assert len(heads) == len(events)
    for head, e in zip(heads, events, strict=True):
        eng = Engagement.model_validate(e["data"]["report"]["engagement"])
        out = Outcome.model_validate({"winner": None, **e["data"]["report"]["outcome"]})
        m = re.search(r": (.+) lost (\d+) SP of (\d+); (.+) lost (\d+) of (\d+)\.$", head)
        assert m, head
        for side, (who, lost, brought) in zip("AB", (m.group(1, 2, 3), m.group(4, 5, 6)), strict=True):
            assert int(lost) == out.strength_lost[side]  # type: ignore[index]
            assert int(brought) == sum(u.strength for u in eng.units if u.side == side)
            names = {ld.name for ld in eng.leaders if ld.side == side} | {"the Caesarians", "the Senatorials"}
            assert who in names
        if out.winner is not None:
            winner_names = {ld.name for ld in eng.leaders if ld.side == out.winner}
            assert any(
                head.startswith(w[:1].upper() + w[1:] + " defeat")
                for w in winner_names | {"The Caesarians", "The Senatorials"}
            )


@pytest.mark.window
def test_turning_points_are_sentences_with_turn_numbers_and_names(report: Path) -> None:
    md = (report / "index.md").read_text(encoding="utf-8")
    points = re.findall(r"^- (Turn \d+: .+)$", md, flags=re.M)
    assert points
    assert any("rout points" in p for p in points)  # a tactical battle's standing
    assert any("have lost" in p and " SP" in p for p in points)  # a battleboard's
    for p in points:
        assert p.endswith(".")
        assert not re.search(r"\bside [AB]\b", p, flags=re.I), p


@pytest.mark.window
def test_the_same_save_gives_the_same_markdown(war_save: Path, report: Path) -> None:
    from campaign.aar import replay
    from campaign.aar_page import blocks, markdown

    war = replay(war_save)
    maps = sorted(p.name for p in report.glob("map-*.png"))
    frames: dict[tuple[int, str], str] = {}
    for b in war.battles:
        for k, f in enumerate(b.frames, 1):
            frames[(b.number, f.label)] = f"battle-{b.number:02d}-{k}.png"
    assert markdown(blocks(war, maps, frames)) == (report / "index.md").read_text(encoding="utf-8")


def test_the_charts_are_the_same_bytes_twice(tmp_path: Path) -> None:
    from campaign.aar import Month
    from campaign.aar_charts import war_charts

    months = [
        Month(
            t,
            f"{m} 49 BC",
            {"caesarian": 80 + t, "senatorial": 170 - t},
            {"caesarian": 30 + t, "senatorial": 110 - t},
            {"caesarian": t % 3, "senatorial": 2},
            {"caesarian": 2, "senatorial": t},
            {"caesarian": 3 * t, "senatorial": 2 * t},
            5 * (t // 2),
        )
        for t, m in enumerate(["January", "March", "April", "May", "June", "August"])
    ]
    war_charts(months, tmp_path / "a.png")
    war_charts(months, tmp_path / "b.png")
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()
    assert b"Software" not in (tmp_path / "a.png").read_bytes()


def test_the_command_refuses_a_save_that_is_not_a_campaign_in_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bellum.cli import main

    bad = tmp_path / "bad.toml"
    bad.write_text("not = [a save", encoding="utf-8")
    code = main(["aar", str(bad), "--out", str(tmp_path / "out")])
    _, err = capsys.readouterr()
    assert code == 2 and "bad.toml" in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_the_command_refuses_an_out_folder_that_is_a_file(
    war_save: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bellum.cli import main

    blocker = tmp_path / "file"
    blocker.write_text("x")
    code = main(["aar", str(war_save), "--out", str(blocker)])
    _, err = capsys.readouterr()
    assert code == 2 and "Traceback" not in err


@pytest.mark.window
def test_the_campaign_windows_buttons_write_the_illustrated_report(
    window: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """R lists the battles; its last choice — and the panel's Report button — saves the game
    beside the report and starts ``bellum aar`` on it in a process of its own (the window
    goes on)."""
    import arcade

    import campaign.aar_job as job
    from campaign.view.game import CampaignGame
    from campaign.view.play import AAR_LABEL, CampaignView
    from tests.campaign.test_window_play import press_label
    from tests.conftest import render

    started: list[list[str]] = []

    monkeypatch.setattr(job, "launch", lambda cmd, log: started.append(cmd))
    monkeypatch.setenv("BELLUM_HOME", str(tmp_path))
    game = CampaignGame.new("49bc", 3, humans=frozenset())
    while not any(e.kind == "battle" for e in game.session.log):
        game.ai_step()
    game.popups.clear()
    view = CampaignView(game)
    view.ai_delay = 1e9
    render(window, view)
    view.on_key_press(arcade.key.R, 0)
    assert view.dialog is not None and view.dialog.options[-1][0] == AAR_LABEL
    shot = render(window, view)
    shot.save(Path(os.environ.get("BELLUM_SHOTS", tmp_path)) / "aar-battles-dialog.png")
    press_label(view, AAR_LABEL)
    assert started and started[0][1:4] == ["-m", "bellum", "aar"]
    save = Path(started[0][4])
    assert save.name == "war.toml" and save.exists()
    assert started[0][5:] == ["--out", str(save.parent)]
    assert "index.html" in game.message and view.dialog is None
    # the same from the panel's Report button, beside Undo, Save and Load
    panel = render(window, view)
    panel.save(Path(os.environ.get("BELLUM_SHOTS", tmp_path)) / "aar-report-button.png")
    assert view.press("report")
    assert len(started) == 2 and started[1][3] == "aar"


@pytest.mark.window
def test_one_battles_report_alone_and_a_battle_the_war_does_not_have(
    war_save: Path, tmp_path: Path, window: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--battle N``: the Nth battle's section, its pictures, no maps; a number beyond the
    war's battles is one sentence."""
    from bellum.cli import main
    from campaign.view.aar import write

    n = len(_battle_events(war_save))
    index = write(war_save, tmp_path / "one", window=window, battle=n)
    md = index.read_text(encoding="utf-8")
    assert md.count("\n### ") == 1 and f"### {n}. " in md and "map-" not in md
    assert list((tmp_path / "one").glob(f"battle-{n:02d}-*.png"))
    code = main(["aar", str(war_save), "--battle", str(n + 1), "--out", str(tmp_path / "none")])
    _, err = capsys.readouterr()
    assert code == 2 and f"{n + 1} is not a battle of this war (it has {n})" in err and "Traceback" not in err
    assert not (tmp_path / "none").exists()  # refused before the folder is made
