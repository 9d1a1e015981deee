"""The tactical window as a newcomer meets it (issue 16): the opening camera on both battle
lines, the grouped Choices panel with the resolver's odds (a shock designated from it), the
minimap, the rout-point bars, leader names by the abbreviation rule with the full name on
hover, the F1 help with the rules section for what is selected, and no text cut or
overlapping at 1280x800 — each driven through the view's input handlers and checked on the
model, the text boxes and real screenshots.

``BELLUM_SCREENS=1`` also writes the screenshots into docs/screens/.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, keep_screen, render
from tests.tactical.test_view import LEFT, _begin, _contact_view, _view

SCENARIOS = sorted((ROOT / "scenarios" / "tactical").glob("*.toml"))


def _keep(shot: Any, tmp_path: Path, name: str) -> None:
    keep_screen(shot, name, tmp_path)


def _in_view(view: Any, h: int) -> bool:
    left, bottom, right, top = view.map_area()
    sx, sy = view.screen_point(*view.layout.centre(h))
    return bool(left < sx < right and bottom < sy < top)


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def _assert_text_fits(view: Any) -> None:
    """Every text inside its place, none over another (the HUD's among themselves, the help's
    among themselves), no name cut with an ellipsis."""
    boxes = view.text_boxes()
    assert boxes
    for name, box, region in boxes:
        across = region[0] - 1 <= box[0] and box[2] <= region[2] + 1
        assert across and region[1] - 1 <= box[1] and box[3] <= region[3] + 1, f"{name} {box} runs out of {region}"
    for layer in ("help", "hud"):
        mine = [(n, b) for n, b, _ in boxes if n.startswith("help") == (layer == "help") and n != "hover card"]
        for i, (n1, b1) in enumerate(mine):
            for n2, b2 in mine[i + 1 :]:
                assert not _overlap(b1, b2), f"{n1} {b1} overlaps {n2} {b2}"
    for t in (view.t_top, *view.t_sides.values(), *view.t_choices, *view.t_details):
        assert "…" not in t.text, t.text


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_the_opening_camera_frames_both_battle_lines(window: Any, path: Path, tmp_path: Path) -> None:
    from tactical.view.camera import front_ranks

    view = _view(str(path))
    shot = render(window, view)
    state = view.state
    for side in ("A", "B"):
        seen = [u for u in state.units.values() if u.on_map and u.side == side and _in_view(view, u.hex)]
        assert len(seen) >= 3, f"{path.stem}: side {side} has {len(seen)} units in the opening view"
    left, _bottom, right, _top = view.map_area()
    for side, rank in front_ranks(state, view.layout).items():
        assert rank
        across = [u for u in rank if left < view.screen_point(*view.layout.centre(u.hex))[0] < right]
        assert across, f"{path.stem}: no unit of side {side}'s front rank across the view"
        cut = [u.id for u in across if not _in_view(view, u.hex)]
        assert not cut, f"{path.stem}: side {side}'s front rank cut off: {cut}"
    _assert_text_fits(view)
    if path.stem in ("pharsalus", "thapsus"):
        _keep(shot, tmp_path, f"tactical-{path.stem}.png")


def test_a_shock_designated_from_the_choices_panel(window: Any, tmp_path: Path) -> None:
    import arcade

    from tactical.actions import Designate
    from tactical.combat import plan_shock
    from tactical.odds import result_marginal, shock_odds
    from tactical.view.words import pct, result_words

    view = _contact_view()
    render(window, view)
    state = view.state
    rows = [c for c in view.choices if c.group == "shock" and not c.heading]
    offered = {a.defender for a in view.legal() if isinstance(a, Designate)}
    assert {c.target for c in rows} == offered  # a row per defender the generator offers
    row = rows[0]
    assert row.top > row.bottom > 0  # on screen
    view.look_at(state.units[row.action.attackers[0]].hex)  # the picture shows the two lines in contact
    shock = row.action.as_shock()
    full = shock_odds(state, shock)
    before = state.units[row.target].status
    fate: dict[str, Fraction] = {}
    for outcome, p in full.items():
        status = dict((uid, s) for uid, s, _e in outcome[1]).get(row.target, before)
        if status != before:
            fate[status] = fate.get(status, Fraction(0)) + p
    shown = render(window, view)
    assert row.detail.startswith("defender ")
    for status, p in fate.items():  # the row's odds are the resolver's
        assert f"{status} {pct(p)}" in row.detail
    assert any(t.text == row.detail for t in view.t_details)
    _assert_text_fits(view)
    _keep(shown, tmp_path, "tactical-choices.png")
    view.on_mouse_press(window.width - 120, int((row.top + row.bottom) / 2), LEFT, 0)  # click the row
    pend = view.pending
    assert pend is not None and pend.target == row.target and pend.action == row.action
    assert set(pend.variants) == {a for a in view.legal() if isinstance(a, Designate) and a.defender == row.target}
    expected = result_marginal(shock_odds(state, pend.action.as_shock()))
    assert pend.odds == expected and sum(expected.values()) == Fraction(1)
    plan = plan_shock(state, pend.action.as_shock())
    for result, p in expected.items():  # the odds panel shows the resolver's result odds
        assert f"{result_words(plan, result)}: {pct(p)}" in view.t_odds.text
    panel = render(window, view)
    _assert_text_fits(view)
    assert panel.tobytes() != shown.tobytes()
    view.on_key_press(arcade.key.F1, 0)  # the help shows the shock rules while designating
    assert view.help_open and view.help_section() == "8.2" and "Shock" in view.h_title.text
    assert view.h_rules.text
    help_shot = render(window, view)
    _assert_text_fits(view)
    _keep(help_shot, tmp_path, "tactical-help.png")
    first = view.h_rules.text
    view.on_key_press(arcade.key.PAGEDOWN, 0)  # the rules scroll, a paragraph at a time
    assert view.h_rules.text != first and first.split("\n\n")[1] in view.h_rules.text
    render(window, view)
    _assert_text_fits(view)
    view.on_key_press(arcade.key.F1, 0)
    assert not view.help_open
    left, bottom, right, top = view.confirm_box
    view.on_mouse_press(int((left + right) / 2), int((bottom + top) / 2), LEFT, 0)  # Confirm
    designated = [(tuple(a), d) for a, d in view.state.designations]
    assert (pend.action.attackers, pend.action.defender) in designated
    assert view.session.actions[-1]["action"].startswith("designate")


def test_a_move_row_shows_the_pieces_hexes_and_the_minimap_moves_the_camera(window: Any) -> None:
    view = _view()
    render(window, view)
    _begin(view)
    render(window, view)
    rows = [c for c in view.numbered_choices() if c.group == "move"]  # the Move rows on screen
    assert rows and all(c.top > c.bottom > 0 for c in view.numbered_choices())
    row = rows[-1]
    count = int(row.label.split(" · ")[1].split()[0])
    view.on_mouse_press(window.width - 120, int((row.top + row.bottom) / 2), LEFT, 0)
    assert view.selected == row.unit and len(view.reach) == count
    unit = view.state.units.get(row.unit) or view.state.leaders[row.unit]
    assert _in_view(view, unit.hex)
    _assert_text_fits(view)
    # the minimap: a click on its far corner brings that corner of the field to the middle
    _left, _bottom, right, top = view.minimap.box
    before = tuple(view.world_camera.position)
    x, y = int(right - 3), int(top - 3)
    view.on_mouse_press(x, y, LEFT, 0)
    assert tuple(view.world_camera.position) != before
    mx, my = view.minimap.world_at(x, y)
    cx, cy = view.world_point(view.map_area()[2] / 2, (view.map_area()[1] + view.map_area()[3]) / 2)
    assert abs(cx - mx) < 2 and abs(cy - my) < 2
    shot = render(window, view)
    vl, vb, _vr, vt = view.minimap.view_rect((view.world_point(0, 22), view.world_point(*view.map_area()[2:])))
    rgb = shot.convert("RGB")
    row = window.height - int((vb + vt) / 2)
    edge = [rgb.getpixel((x, row)) for x in range(int(vl) - 2, int(vl) + 3)]
    assert any(r > 230 and g > 210 and b < 170 for r, g, b in edge), edge  # the viewport's gold rectangle


def test_bars_names_and_the_hover_card(window: Any) -> None:
    from tactical.view.words import abbreviate, token_names

    view = _view(str(ROOT / "scenarios" / "tactical" / "thapsus.toml"))
    render(window, view)
    state = view.state
    for side, t in view.t_sides.items():  # rout points against the withdrawal level, per side
        assert t.text.startswith(view.side_names[side]) and f"/{state.withdrawal[side]} rout pts" in t.text
    names = token_names(state.leaders)
    for side in ("A", "B"):
        mine = [names[lid] for lid, ld in state.leaders.items() if ld.side == side]
        assert len(set(mine)) == len(mine)  # the rule keeps a side's leaders apart
    assert abbreviate("Antonius") == "Ant." and abbreviate("Alexander") == "Alex." and abbreviate("Curio") == "Curio"
    assert abbreviate("legate-right") == "Leg.R" and abbreviate("tribune-B1") == "Trib.B1"
    leader = next(ld for ld in state.leaders.values() if ld.on_map and _in_view(view, ld.hex))
    sx, sy = view.screen_point(*view.layout.centre(leader.hex))
    view.on_mouse_motion(int(sx), int(sy), 0, 0)
    assert view.hovered == leader.id and view.t_tip.text.startswith(f"{leader.id}: ")
    render(window, view)
    _assert_text_fits(view)


def test_fire_and_rally_rows_carry_the_resolvers_odds(tmp_path: Path) -> None:
    from bellum.dice import Dice
    from bellum.odds import exact_distribution
    from tactical.actions import Fire, Rally
    from tactical.engine import apply
    from tactical.odds import fire_odds
    from tactical.view.choices import build_choices
    from tactical.view.play import open_session
    from tactical.view.words import pct
    from tests.tactical.helpers import position, unit
    from tests.tactical.test_view import POSITION

    path = tmp_path / "pos.toml"
    path.write_text(POSITION)
    session = open_session(str(path), 1)
    state = session.state
    rows = build_choices(state, list(session.legal_actions()), None)
    fire = next(c for c in rows if c.group == "fire" and not c.heading)
    assert isinstance(fire.action, Fire) and fire.action.unit == "A4" and fire.target == "B1"
    assert set(fire.variants) == {a for a in session.legal_actions() if isinstance(a, Fire)}
    miss = sum((p for o, p in fire_odds(state, fire.action).items() if dict(o[2]).get("B1", 0) == 0), Fraction(0))
    assert f"miss {pct(miss)}" in fire.detail
    # a rally (003 §10.27): each end state with its chance, by the rule over every die face
    hurt = position([unit("A1", "A", "1015", missile_hits=3, tq=7), unit("B1", "B", "1005", 6)], rules="charts-v1")
    rows = build_choices(hurt, [Rally("A1")], None)
    rally = next(c for c in rows if c.group == "rally" and not c.heading)

    def run(dice: Dice) -> tuple[str, int]:
        after, _ = apply(hurt, Rally("A1"), dice)
        return after.units["A1"].status, after.units["A1"].missile_hits

    for (status, hits), p in exact_distribution(run).items():
        assert f"{status}{f', {hits} hits' if hits else ''} {pct(p)}" in rally.detail


def test_the_help_shows_the_rules_for_what_is_selected() -> None:
    from tactical.actions import Designate, Fire
    from tactical.view.helptext import rules_text, section_for
    from tactical.view.play import open_session

    state = open_session("pharsalus", 1).state
    assert section_for(state, None, None) == "2"  # before any activation: the sequence of play
    assert section_for(state, Designate(("X-1",), "B"), "X-1") == "8.2"  # designating a shock
    assert section_for(state, Fire("X-1", "B"), "X-1") == "8.1"  # aiming missile fire
    title, paras = rules_text("8.2")
    assert "Shock" in title and any("Designation" in p for p in paras)
    title, paras = rules_text("2")  # a chapter brings its sections
    assert title.startswith("docs/rules/tactical.md §2.") and any(p.startswith("2.3 Continuity") for p in paras)


def test_the_defenders_question_is_shown_whole(window: Any, tmp_path: Path) -> None:
    """docs/rules/tactical.md §8.13: the question a move or a shock puts to the defender fits the
    panel whole, with each answer and its odds below it."""
    from tactical.actions import Designate, Move, Resolve, Shock
    from tactical.view.words import reaction_prompt
    from tests.tactical.test_view import REACTION_POSITION

    path = tmp_path / "react.toml"
    path.write_text(REACTION_POSITION)
    view = _view(str(path))
    render(window, view)
    assert view.play(Move("A1", ("1109", "1108")))
    shot = render(window, view)
    assert view.t_info.text.split() == " ".join(reaction_prompt(view.state)).split()  # the whole question
    _assert_text_fits(view)
    _keep(shot, tmp_path, "tactical-reaction.png")
    view.play(next(c.action for c in view.choices if c.action is not None and c.label.startswith("No reaction")))
    assert view.play(Designate(("A2",), "B2")) and view.play(Resolve()) and view.play(Shock(("A2",), "B2"))
    render(window, view)
    assert view.t_info.text.split() == " ".join(reaction_prompt(view.state)).split()  # the whole question
    assert all(c.detail for c in view.numbered_choices())  # each answer with the shock's odds after it
    _assert_text_fits(view)
