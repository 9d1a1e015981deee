"""The tactical window driven headless on Pharsalus through real activations: select, move,
turn, designate a shock with the exact-odds panel, resolve it, Continuity, undo, save and
load, zoom and pan, the AI — each checked on the model and on the screenshot.

Every click goes through ``on_mouse_press`` at the screen point of a hex (the camera's
projection), every key through ``on_key_press``: the same path as a player's hand.
"""

from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, render

PHARSALUS = str(ROOT / "scenarios" / "tactical" / "pharsalus.toml")
LEFT = 1

POSITION = """
rules = "simple-spqr"
[map]
columns = 10
rows = 8
[[units]]
id = "A1"
side = "A"
type = "LG"
size = 6
tq = 7
ma = 5
hex = "0505"
facing = 12
roman = true
[[units]]
id = "A2"
side = "A"
type = "LG"
size = 6
tq = 7
ma = 5
hex = "0706"
facing = 12
roman = true
[[units]]
id = "A3"
side = "A"
type = "SK"
size = 2
tq = 5
ma = 8
hex = "0307"
facing = 12
missile = "J"
status = "disordered"
missile_hits = 1
[[units]]
id = "A4"
side = "A"
type = "SK"
size = 2
tq = 5
ma = 8
hex = "0405"
facing = 12
missile = "J"
[[units]]
id = "B1"
side = "B"
type = "LG"
size = 6
tq = 6
ma = 5
hex = "0504"
facing = 6
roman = true
[[leaders]]
id = "LA"
side = "A"
hex = "0706"
initiative = 5
range = 4
[[leaders]]
id = "LB"
side = "B"
hex = "0503"
initiative = 4
range = 4
[sequence]
side = "A"
leader = "LA"
phase = "move"
[withdrawal]
A = 20
B = 20
"""


# -- helpers --------------------------------------------------------------------------------
def _view(scenario: str = PHARSALUS, seed: int = 1, **kw: Any) -> Any:
    from tactical.view.app import battle_view

    return battle_view(scenario, seed=seed, **kw)


def _screen(view: Any, hex_index: int, dx: float = 0.0, dy: float = 0.0) -> tuple[int, int]:
    x, y = view.layout.centre(hex_index)
    sx, sy = view.screen_point(x + dx, y + dy)
    return round(sx), round(sy)


def _click_hex(view: Any, hex_index: int, dx: float = 0.0, dy: float = 0.0) -> None:
    view.on_mouse_press(*_screen(view, hex_index, dx, dy), LEFT, 0)


def _click_choice(view: Any, kind: type) -> None:
    """Click the first button of the choice list whose action is a ``kind``."""
    if view._hud_size == (0, 0):  # not shown yet: lay the panel out as showing it would
        view.on_show_view()
    choice = next(c for c in view.choices if isinstance(c.action, kind))
    assert choice.top > choice.bottom > 0, "the row is not on screen"
    view.on_mouse_press(view.window.width - 120, int((choice.top + choice.bottom) / 2), LEFT, 0)


def _pixel(view: Any, image: Any, hex_index: int, dx: float = 0.0, dy: float = 0.0) -> tuple[int, int, int]:
    sx, sy = _screen(view, hex_index, dx, dy)
    return tuple(image.convert("RGB").getpixel((sx, view.window.height - sy)))


def _near(c: tuple[int, ...], ref: tuple[int, ...], tol: int = 24) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(c, ref, strict=False))


def _count(view: Any, image: Any, hex_index: int, colour: tuple[int, ...], tol: int = 24, extent: float = 0.6) -> int:
    """Pixels near ``colour`` within the hex's box (``extent`` hex radii each side) on the screenshot."""
    sx, sy = _screen(view, hex_index)
    r = int(view.layout.size * view.world_camera.zoom * extent)
    box = image.convert("RGB").crop((sx - r, view.window.height - sy - r, sx + r, view.window.height - sy + r))
    return sum(n for n, c in box.getcolors(maxcolors=1 << 16) or [] if _near(c, colour, tol))


def _begin(view: Any) -> str:
    """Activate (by clicking its button) the leader nearest the most of his units; returns him."""
    from tactical.actions import Activate

    assert view.state.seq.phase == "activation"
    _click_choice(view, Activate)
    leader = view.state.seq.leader
    assert view.state.seq.phase == "move" and leader is not None
    return str(leader)


def _first_mover(view: Any) -> str:
    from tactical.actions import Move

    state = view.state
    leader = state.leaders[state.seq.leader]
    movers = {a.unit for a in view.legal() if isinstance(a, Move) and a.unit in state.units}
    return min(movers, key=lambda u: (state.field.grid.distance(state.units[u].hex, leader.hex), u))


_CONTACT: list[dict[str, Any]] = []


def _contact_actions() -> list[dict[str, Any]]:
    """The actions (written) by which the AI, playing both sides of Pharsalus from seed 1,
    reaches the first position where the side to act may designate a shock."""
    if not _CONTACT:
        from tactical.actions import Designate
        from tactical.ai import TacticalAI
        from tactical.view.play import open_session, session_state

        session = open_session(PHARSALUS, 1)
        ai = TacticalAI(1)
        for _ in range(400):
            if any(isinstance(a, Designate) for a in session.legal_actions()):
                break
            session.play(ai.choose(session_state(session)))
        else:
            pytest.fail("the AI did not bring the armies into contact within 400 actions")
        _CONTACT.extend(session.actions)
    return list(_CONTACT)


def _contact_view() -> Any:
    view = _view()
    for raw in _contact_actions():
        view.session.play(view.session.engine.decode_action(raw))
    view._legal_key = None
    view.refresh()
    return view


# -- tests ----------------------------------------------------------------------------------
def test_select_by_click_highlights_the_generators_moves_with_their_costs(window: Any) -> None:
    from tactical.actions import Move
    from tactical.movement import mp_text

    view = _view()
    render(window, view)
    _begin(view)
    uid = _first_mover(view)
    start = view.state.units[uid].hex
    view.look_at(start, zoom=1.0)
    before = render(window, view)
    _click_hex(view, start)
    assert view.selected == uid and view.reach
    legal_paths = {a.path for a in view.legal() if isinstance(a, Move) and a.unit == uid and a.carry is None}
    assert {path for _cost, path in view.nodes.values()} == legal_paths
    grid = view.state.field.grid
    ends = {next((grid.index(t) for t in reversed(p) if not t.startswith("face:")), start) for p in legal_paths}
    assert set(view.reach) == ends
    occupied = {h for u in view.state.units.values() if u.on_map for h in u.hexes()}
    labels = sorted(str(mp_text(c)) for h, c in view.reach.items() if h not in occupied)
    assert sorted(text for _h, text in view.cost_labels) == labels and len(view.labels) == len(labels)
    after = render(window, view)
    free = [h for h in view.reach if not view.state.units_at(h) and not view.state.leaders_at(h) and h != start]
    near = sorted(free, key=lambda h: (grid.distance(h, start), h))[:6]
    for h in near:  # the yellow move highlight on every reachable hex looked at
        p0, p1 = _pixel(view, before, h, 10, 8), _pixel(view, after, h, 10, 8)
        assert p1[0] > p0[0] and p1[1] > p0[1] and p1[2] >= p0[2], (grid.hex_id(h), p0, p1)
    unreachable = next(h for h in range(grid.size) if grid.distance(h, start) == 9 and h not in view.reach)
    view.look_at(unreachable)
    a, b = render(window, view), None
    view.select(None)
    b = render(window, view)
    assert _pixel(view, a, unreachable, 10, 8) == _pixel(view, b, unreachable, 10, 8)


def test_click_moves_the_counter_a_corner_turns_it_and_undo_takes_both_back(window: Any) -> None:
    import arcade

    from tactical.view.palette import SIDE_FILL

    view = _view()
    render(window, view)
    _begin(view)
    uid = _first_mover(view)
    unit = view.state.units[uid]
    start, facing = unit.hex, unit.facing
    _click_hex(view, start)
    grid = view.state.field.grid
    target = min(
        (h for h in view.reach if grid.distance(h, start) == 2 and not view.state.units_at(h)),
        key=lambda h: (view.reach[h], h),
    )
    view.look_at(start, zoom=1.0)
    shot0 = render(window, view)
    red = SIDE_FILL["A"]
    assert _count(view, shot0, start, red) > 100 and _count(view, shot0, target, red) < 20
    _click_hex(view, target)
    assert view.state.units[uid].hex == target
    assert view.session.actions[-1]["action"].startswith(f"move {uid}")
    shot1 = render(window, view)
    assert _count(view, shot1, target, red) > 100 and _count(view, shot1, start, red) < 20
    # a unit moves once an activation (003 §4.2): it is no longer selected; turn another one by
    # clicking near a corner of its own hex (it then faces that vertex)
    assert view.selected is None
    other = _first_mover(view)
    h2, facing2 = view.state.units[other].hex, view.state.units[other].facing
    _click_hex(view, h2)
    assert view.selected == other
    new = (facing2 + 1) % 6
    wx, wy = view.layout.vertex(h2, new, 0.8)
    view.on_mouse_press(*(round(v) for v in view.screen_point(wx, wy)), LEFT, 0)
    assert view.state.units[other].facing == new
    shot2 = render(window, view)
    nx, ny = view.layout.vertex(h2, new, 0.86)
    cx, cy = view.layout.centre(h2)
    notch = _pixel(view, shot2, h2, nx - cx, ny - cy)
    assert notch[0] > 200 and notch[1] > 190 and notch[2] < 170  # the yellow facing notch
    third = _first_mover(view)  # E turns a selected unit one vertex clockwise
    facing3 = view.state.units[third].facing
    _click_hex(view, view.state.units[third].hex)
    view.on_key_press(arcade.key.E, 0)
    assert view.state.units[third].facing == (facing3 + 1) % 6
    assert view.session.can_undo()
    for _ in range(3):
        view.on_key_press(arcade.key.U, 0)
    assert (view.state.units[uid].hex, view.state.units[uid].facing) == (start, facing)
    assert view.state.units[other].facing == facing2 and view.state.units[third].facing == facing3
    shot3 = render(window, view)
    assert _count(view, shot3, start, red) > 100 and _count(view, shot3, target, red) < 20


def test_designate_with_the_odds_panel_resolve_and_shock(window: Any) -> None:
    import arcade

    from tactical.actions import Designate, Resolve, Shock
    from tactical.combat import plan_shock
    from tactical.odds import result_marginal, shock_odds
    from tactical.view.words import result_words

    view = _contact_view()
    state = view.state
    designation = next(a for a in view.legal() if isinstance(a, Designate))
    attacker, defender = designation.attackers[0], designation.defender
    a_hex, d_hex = state.units[attacker].hex, state.units[defender].hex
    view.look_at(a_hex, zoom=1.0)
    render(window, view)
    _click_hex(view, a_hex)
    assert view.selected == attacker and defender in view.targets
    before = render(window, view)
    _click_hex(view, d_hex)
    pend = view.pending
    assert pend is not None and pend.target == defender
    offered = {
        a for a in view.legal() if isinstance(a, Designate) and attacker in a.attackers and a.defender == defender
    }
    assert set(pend.variants) == offered
    expected = result_marginal(shock_odds(state, pend.action.as_shock()))
    assert pend.odds == expected and sum(expected.values()) == Fraction(1)
    plan = plan_shock(state, pend.action.as_shock())
    for result, p in expected.items():
        assert f"{result_words(plan, result)}: {float(p) * 100:.1f}%" in view.t_odds.text
    panel = render(window, view)
    box = (window.width - 350, 170, window.width - 10, window.height - 170)
    assert before.crop(box).tobytes() != panel.crop(box).tobytes()
    ink = sum(n for n, c in panel.convert("RGB").crop(box).getcolors(1 << 16) or [] if sum(c) > 600)
    assert ink > 400  # the panel's text is there
    ring = (255, 60, 40)  # the red ring around the defender's hex
    assert _count(view, panel, d_hex, ring, 16, 1.0) > 60 and _count(view, before, d_hex, ring, 16, 1.0) < 10
    rolls = len(view.session.dice.rolls)
    view.on_key_press(arcade.key.ENTER, 0)
    chosen = pend.action
    assert (chosen.attackers, chosen.defender) in [(tuple(a), d) for a, d in view.state.designations]
    assert view.state.seq.phase == "shock" and view.state.designating
    assert len(view.session.dice.rolls) == rolls  # designating rolls nothing
    shot = render(window, view)
    (ax, ay), (dx, dy) = view.layout.centre(a_hex), view.layout.centre(d_hex)
    mid = view.layout.hex_at((ax + dx) / 2, (ay + dy) / 2)
    arrow = _pixel(
        view, shot, mid, (ax + dx) / 2 - view.layout.centre(mid)[0], (ay + dy) / 2 - view.layout.centre(mid)[1]
    )
    assert arrow[0] > 180 and arrow[1] < 90  # the designation arrow
    # close designation with the Resolve button, then resolve the combat from its button
    _click_choice(view, Resolve)
    assert not view.state.designating
    combat = next(c for c in view.choices if c.opens)
    assert isinstance(combat.action, Shock) and combat.action.defender == defender
    _click_choice(view, Shock)
    pend = view.pending
    assert pend is not None and all(isinstance(a, Shock) for a in pend.variants)
    expected = result_marginal(shock_odds(view.state, pend.action))
    assert pend.odds == expected
    panel = render(window, view)
    assert panel.crop(box).tobytes() != shot.crop(box).tobytes()
    left, bottom, right, top = view.confirm_box
    assert view.t_confirm.text.startswith("Confirm")
    view.on_mouse_press(int((left + right) / 2), int((bottom + top) / 2), LEFT, 0)  # the Confirm button
    assert len(view.session.dice.rolls) > rolls
    assert any(e.kind == "shock" for e in view.session.log)
    assert view.session.actions[-1]["action"].startswith("shock")
    assert not view.session.can_undo()
    view.on_key_press(arcade.key.U, 0)
    assert "dice" in view.message.lower()
    assert "Dice:" in view.t_dice.text and "none" not in view.t_dice.text


def test_continuity_buttons_show_their_exact_odds_and_roll(window: Any) -> None:
    import arcade

    from tactical.actions import Continuity
    from tactical.view.words import continuity_odds

    view = _view()
    render(window, view)
    _begin(view)
    view.on_key_press(arcade.key.P, 0)  # end the activation
    assert view.state.seq.phase == "continuity"
    picks = [c for c in view.choices if isinstance(c.action, Continuity)]
    assert picks
    for c in picks:
        p = continuity_odds(view.state, c.action)
        assert 0 < p < 1 and f"({float(p) * 100:.1f}%)" in c.label
    shot = render(window, view)
    assert any(t.text.startswith("1. ") for t in view.t_choices)
    box = (
        window.width - 350,
        int(window.height - picks[0].top - 20),
        window.width - 10,
        int(window.height - picks[0].top + 10),
    )
    assert len(shot.crop(box).getcolors(1 << 16) or []) > 10  # the button's label is drawn
    rolls = len(view.session.dice.rolls)
    _click_choice(view, Continuity)
    assert len(view.session.dice.rolls) == rolls + 1
    assert view.session.actions[-1]["action"].startswith("continuity")


def test_counters_show_status_missile_hits_and_facing(window: Any, tmp_path: Path) -> None:
    path = tmp_path / "pos.toml"
    path.write_text(POSITION)
    view = _view(str(path))
    grid = view.state.field.grid
    h = grid.index("0307")
    view.look_at(h, zoom=2.0)
    shot = render(window, view)
    assert _count(view, shot, h, (246, 206, 40), 12) > 30  # the DISORDERED band
    assert _count(view, shot, h, (250, 220, 90), 20) > 10  # the missile-hit disc's figure
    b1 = grid.index("0504")
    view.look_at(b1, zoom=2.0)
    shot = render(window, view)
    nx, ny = view.layout.vertex(b1, 3, 0.86)  # B1 faces 6 o'clock
    cx, cy = view.layout.centre(b1)
    notch = _pixel(view, shot, b1, nx - cx, ny - cy)
    assert notch[0] > 200 and notch[1] > 190
    view.on_mouse_motion(*_screen(view, b1), 0, 0)  # the hex under the mouse, in words
    assert view.t_hex.text.startswith("0504 · clear")
    assert view.hovered == "B1" and view.t_tip.text.startswith("B1: LG")  # the hover card names it
    _click_hex(view, b1)  # an enemy counter: read, not selected
    assert view.selected is None and view.inspected == "B1"
    assert view.t_info.text.startswith("B1  LG") and "Size 6  TQ 6  MA 5" in view.t_info.text


def test_fire_shows_the_hit_odds_of_each_option_and_logs_the_roll(window: Any, tmp_path: Path) -> None:
    import arcade

    from tactical.actions import Fire
    from tactical.odds import fire_odds
    from tactical.view.words import describe_variant

    path = tmp_path / "pos.toml"
    path.write_text(POSITION)
    view = _view(str(path))
    grid = view.state.field.grid
    view.look_at(grid.index("0405"), zoom=1.0)
    before = render(window, view)
    _click_hex(view, grid.index("0405"))
    assert view.selected == "A4"
    _click_hex(view, grid.index("0504"))
    pend = view.pending
    offered = {a for a in view.legal() if isinstance(a, Fire) and a.unit == "A4"}
    assert pend is not None and set(pend.variants) == offered and len(offered) == 2
    for k in range(2):
        action = pend.action
        full = fire_odds(view.state, action)
        miss = sum((p for o, p in full.items() if dict(o[2]).get("B1", 0) == 0), Fraction(0))
        assert pend.odds is not None and pend.odds.get("miss", Fraction(0)) == miss
        assert sum(pend.odds.values()) == 1
        assert f"> {k + 1}. {describe_variant(action)}"[:58] in view.t_odds.text
        if k == 0:
            view.on_key_press(arcade.key.TAB, 0)
    panel = render(window, view)
    box = (window.width - 350, 170, window.width - 10, window.height - 170)
    assert before.crop(box).tobytes() != panel.crop(box).tobytes()
    rolls = len(view.session.dice.rolls)
    view.on_key_press(arcade.key.ENTER, 0)
    assert view.session.actions[-1]["action"] == pend.action.notation()
    assert len(view.session.dice.rolls) > rolls
    last = list(view.session.log)[-1].text
    assert last[:40] in view.t_log.text


def test_the_leader_takes_a_stacked_unit_along(window: Any, tmp_path: Path) -> None:
    import arcade

    from tactical.actions import Move

    path = tmp_path / "pos.toml"
    path.write_text(POSITION)
    view = _view(str(path))
    render(window, view)
    carries = {a.carry for a in view.legal() if isinstance(a, Move) and a.carry is not None}
    assert carries == {"A2"}
    _click_hex(view, view.state.leaders["LA"].hex)
    if view.selected != "LA":
        _click_hex(view, view.state.leaders["LA"].hex)  # a second click: the next piece in the hex
    assert view.selected == "LA"
    view.on_key_press(arcade.key.C, 0)
    assert view.carry == "A2" and view.reach
    offered = {a.path for a in view.legal() if isinstance(a, Move) and a.unit == "LA" and a.carry == "A2"}
    assert {p for _c, p in view.nodes.values()} == offered
    target = max(view.reach, key=lambda h: (view.reach[h], h))
    _click_hex(view, target)
    assert view.session.actions[-1]["action"].startswith("move LA with:A2")
    assert view.state.units["A2"].hex == view.state.leaders["LA"].hex == target


def test_f5_saves_in_the_players_folder_as_it_is_at_save_time(
    window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import arcade

    view = _view()
    monkeypatch.setenv("BELLUM_HOME", str(tmp_path / "home"))  # set after the game began
    view.on_key_press(arcade.key.F5, 0)
    assert view.save_file().parent == tmp_path / "home" / "saves" / "tactical"
    assert view.save_file().is_file(), view.message


def test_save_and_load_restore_the_game(window: Any, tmp_path: Path) -> None:
    import arcade

    view = _view()
    _begin(view)
    uid = _first_mover(view)
    view.select(uid)
    view.turn(1)
    view.save_path = tmp_path / "t.toml"
    view.on_key_press(arcade.key.F5, 0)
    assert view.save_file() == tmp_path / "t.toml" and view.save_file().exists()
    facing = view.state.units[uid].facing
    view.undo()
    assert view.state.units[uid].facing != facing
    view.on_key_press(arcade.key.F9, 0)
    assert view.message == "Loaded." and view.state.units[uid].facing == facing
    render(window, view)


def test_zoom_and_pan_move_the_world_but_not_the_hud(window: Any) -> None:
    view = _view()
    first = render(window, view)
    renders = view.terrain.renders
    a = view.screen_point(*view.layout.centre(0))
    view.zoom(1)
    view.pan(40, 0)
    b = view.screen_point(*view.layout.centre(0))
    assert a != b
    shot = render(window, view)
    assert view.terrain.renders == renders + 1  # a zoom step renders the ground again, a pan does not
    hud = (window.width - 350, window.height - 30, window.width, window.height)
    assert first.crop(hud).tobytes() == shot.crop(hud).tobytes()
    assert shot.convert("RGB").getpixel((window.width - 5, window.height // 2)) == (40, 32, 27)
    assert first.crop((0, 40, 900, 760)).tobytes() != shot.crop((0, 40, 900, 760)).tobytes()


def test_the_ai_plays_its_side_through_the_generator(window: Any) -> None:
    view = _view(ai_sides=("A",))
    render(window, view)
    for _ in range(4):
        view.on_update(1.0)
    assert len(view.session.actions) >= 3
    assert "(AI)" in view.t_top.text or view.state.seq.side != "A"


@pytest.mark.parametrize("path", sorted((ROOT / "scenarios" / "tactical").glob("*.toml")), ids=lambda p: p.stem)
def test_every_scenario_renders_with_a_selection(window: Any, path: Path) -> None:
    from argparse import Namespace

    from tactical.view.shot import shot_view

    view: Any = shot_view(Namespace(scenario=str(path), seed=1))
    shot = render(window, view)
    colours = shot.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 200
    assert view.selected is not None and view.reach
    uid = view.selected
    h = view.state.units[uid].hex
    sx, sy = view.screen_point(*view.layout.centre(h))
    assert 0 < sx < window.width - 360 and 22 < sy < window.height - 34  # the selection is in view
    target = next(t for t in sorted(view.reach, key=lambda t: (view.reach[t], t)) if t != h)
    _click_hex(view, target)  # and the battle plays: the move the click asked for
    assert view.state.units[uid].hex == target and view.session.actions[-1]["action"].startswith(f"move {uid}")


def test_bellum_shot_tactical_writes_a_picture(tmp_path: Path) -> None:
    from PIL import Image

    out = tmp_path / "t.png"
    env = dict(os.environ)
    env.setdefault("ARCADE_HEADLESS", "1")
    proc = subprocess.run(
        [sys.executable, "-m", "bellum", "shot", "tactical", "--scenario", "pharsalus", "--out", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    colours = Image.open(out).convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 200


def test_a_bad_scenario_is_one_sentence(tmp_path: Path) -> None:
    from bellum.errors import InputError

    bad = tmp_path / "bad.toml"
    bad.write_text(POSITION.replace('hex = "0505"', 'hex = "9999"'))
    with pytest.raises(InputError, match="9999"):
        _view(str(bad))


def test_command_ranges_are_outlined_and_l_shows_every_leaders(window: Any) -> None:
    import arcade

    view = _view()
    render(window, view)
    active = view.state.leaders[_begin(view)]
    grid, lay = view.state.field.grid, view.layout

    def border_point(ld: Any) -> tuple[int, float, float]:
        """The middle of a hexside on the border of ``ld``'s command range, on empty ground."""
        busy = {h for u in view.state.units.values() if u.on_map for h in u.hexes()}
        for i in sorted(range(grid.size), key=lambda i: grid.hex_id(i)):
            if grid.distance(ld.hex, i) != ld.range or i in busy:
                continue
            for d in range(6):
                j = grid.nbr[i * 6 + d]
                if j >= 0 and j not in busy and grid.distance(ld.hex, j) == ld.range + 1:
                    (x1, y1), (x2, y2) = lay.side_ends(i, d)
                    return i, (x1 + x2) / 2, (y1 + y2) / 2
        raise AssertionError(ld.id)

    def colour_at(point: tuple[int, float, float]) -> tuple[int, int, int]:
        h, x, y = point
        view.look_at(h, zoom=1.0)
        shot = render(window, view)
        cx, cy = lay.centre(h)
        return _pixel(view, shot, h, x - cx, y - cy)

    blue = colour_at(border_point(active))
    assert blue[2] > 200 and blue[2] > blue[0]  # the activated leader's range, outlined in blue
    other = next(ld for ld in view.state.leaders.values() if ld.side == active.side and ld is not active and ld.on_map)
    point = border_point(other)
    inside = [ld for ld in view.state.leaders.values() if ld.on_map and grid.distance(ld.hex, point[0]) <= ld.range]
    off = colour_at(point)
    view.on_key_press(arcade.key.L, 0)
    on = colour_at(point)
    assert view.show_ranges and on != off and sum(on) > sum(off), (off, on, [ld.id for ld in inside])


def test_the_choice_list_pages_when_it_is_long(window: Any) -> None:
    """Rows that do not fit go to the next page (PgDn), and PgUp comes back."""
    import arcade

    from tactical.actions import Pass
    from tactical.view.battle import MAX_CHOICES
    from tactical.view.choices import Choice

    view = _view()
    render(window, view)
    view.choices = [Choice(f"option {k}", Pass()) for k in range(MAX_CHOICES + 3)]
    view._update_hud()
    assert [t.text for t in view.t_choices][:2] == ["1. option 0", "2. option 1"]
    first = view.choice_next
    assert 5 < first < len(view.choices)
    assert f"(1-{first} of {MAX_CHOICES + 3}, PgUp/PgDn)" in view.t_odds_head.text
    view.on_key_press(arcade.key.PAGEDOWN, 0)
    assert view.t_choices[0].text == f"1. option {first}"
    assert (
        view.choice_at(window.width - 100, (view.shown_choices()[0].top + view.shown_choices()[0].bottom) / 2)
        is (view.choices[first])
    )
    view.on_key_press(arcade.key.PAGEUP, 0)
    assert view.t_choices[0].text == "1. option 0"
    # a group's heading is not a choice: the head counts the numbered rows only
    view.choices = [Choice("Move", None, heading=True), *view.choices]
    assert view.choices[0].heading
    view.choice_first = 0
    view._update_hud()
    shown = view.choice_next - 1
    assert f"(1-{shown} of {MAX_CHOICES + 3}, PgUp/PgDn)" in view.t_odds_head.text


def test_keys_designate_resolve_and_choose_pursuit(window: Any, tmp_path: Path) -> None:
    """Cavalry: the pursuit choice the generator offers is an option of the resolving panel."""
    import arcade

    from tactical.actions import Designate, Shock

    cavalry = '\n[[units]]\nid = "A5"\nside = "A"\ntype = "HC"\nsize = 3\ntq = 6\nma = 8\nhex = "0604"\nfacing = 10\n'
    path = tmp_path / "pos.toml"
    path.write_text(POSITION + cavalry)
    view = _view(str(path))
    grid = view.state.field.grid
    view.look_at(grid.index("0604"), zoom=1.0)
    render(window, view)
    _click_hex(view, grid.index("0604"))
    _click_hex(view, grid.index("0504"))
    pend = view.pending
    assert pend is not None and {a for a in pend.variants} == {
        a for a in view.legal() if isinstance(a, Designate) and "A5" in a.attackers
    }
    alone = next(k for k, a in enumerate(pend.variants) if a.attackers == ("A5",))
    view.on_key_press(arcade.key.KEY_1 + alone, 0)
    view.on_key_press(arcade.key.ENTER, 0)
    assert view.state.designations == [(("A5",), "B1")]
    view.on_key_press(arcade.key.R, 0)
    assert not view.state.designating
    _click_choice(view, Shock)
    pend = view.pending
    assert pend is not None and sorted(a.pursue for a in pend.variants) == [False, True]
    while not pend.action.pursue:
        view.on_key_press(arcade.key.TAB, 0)
    assert "> " in view.t_odds.text and "(pursue)" in view.t_odds.text
    shot = render(window, view)
    assert len(shot.convert("RGB").getcolors(1 << 20) or []) > 200
    view.on_key_press(arcade.key.ENTER, 0)
    assert view.session.actions[-1]["action"] == "shock A5 B1 pursue"
    assert not view.state.designations


def test_zoomed_in_the_ground_follows_a_long_pan(window: Any) -> None:
    """At zoom 2 Pharsalus does not fit one texture: the view holds the part around the
    camera and renders it again when a pan leaves it; the picture is the same as a view
    opened there."""
    view = _view()
    render(window, view)
    grid = view.state.field.grid
    view.look_at(grid.index("1010"), zoom=2.0)
    render(window, view)
    renders = view.terrain.renders
    view.pan(30, 0)
    render(window, view)
    assert view.terrain.renders == renders  # a short pan stays inside the rendered part
    view.look_at(grid.index("4025"))
    moved = render(window, view)
    assert view.terrain.renders == renders + 1
    from tactical.view import terrain

    terrain._LAST.clear()  # a new ground layer, rendered straight for this camera
    fresh = _view()
    assert fresh.terrain is not view.terrain
    render(window, fresh)
    fresh.look_at(grid.index("4025"), zoom=2.0)
    again = render(window, fresh)
    area = (0, 40, window.width - 370, window.height - 30)
    a, b = moved.convert("RGB").crop(area), again.convert("RGB").crop(area)
    same = sum(1 for p, q in zip(a.getdata(), b.getdata(), strict=True) if p == q)
    assert same > 0.98 * a.width * a.height


def test_the_demo_field_opens_and_begins(window: Any) -> None:
    """The menu's fallback when no scenario file exists: the demo position plays like any other."""
    from tactical.actions import Start

    view = _view("demo")
    render(window, view)
    _click_choice(view, Start)
    assert view.session.actions[-1]["action"] == "start" and view.state.seq.phase == "activation"
    shot = render(window, view)
    assert len(shot.convert("RGB").getcolors(1 << 20) or []) > 100


def _offered_by_the_ui(view: Any) -> set[Any]:
    """Every action a player can reach in the window now: each piece's moves (with every unit
    a leader can take along), every option of every target's panel, every button."""
    from tactical.actions import Move

    state = view.state
    found: set[Any] = set()
    pieces = [u.id for u in state.units.values() if u.on_map] + [ld.id for ld in state.leaders.values() if ld.on_map]
    for pid in pieces:
        view.select(pid)
        carries: list[str | None] = [None]
        while True:
            found |= {Move(pid, path, carry=view.carry) for _cost, path in view.nodes.values()}
            for variants in view.targets.values():
                found |= set(variants)
            if pid not in state.leaders or not view.toggle_carry() or view.carry in carries:
                break
            carries.append(view.carry)
    view.select(None)
    for choice in list(view.choices):
        if choice.opens:
            view.choose(choice)
            found |= set(view.pending.variants)
            view.cancel()
        elif choice.action is not None:  # headings and Move rows (a piece's hexes) play nothing
            found.add(choice.action)
    return found


@pytest.mark.parametrize("where", ["opening", "contact", "resolving", "position"])
def test_every_legal_action_is_reachable_from_the_window(window: Any, tmp_path: Path, where: str) -> None:
    from tactical.actions import Designate, Resolve

    if where in ("contact", "resolving"):
        view = _contact_view()
        if where == "resolving":
            assert view.play(next(a for a in view.legal() if isinstance(a, Designate)))
            assert view.play(Resolve())
            assert any(c.opens for c in view.choices)
    elif where == "position":
        path = tmp_path / "pos.toml"
        path.write_text(POSITION)
        view = _view(str(path))
    else:
        view = _view()
        _begin(view)
    legal = set(view.legal())
    assert legal
    assert _offered_by_the_ui(view) == legal


def test_n_walks_through_the_pieces_that_can_still_act(window: Any) -> None:
    import arcade

    view = _view()
    render(window, view)
    _begin(view)
    seen = []
    for _ in range(3):
        view.on_key_press(arcade.key.N, 0)
        assert view.selected is not None and (view.reach or view.targets)
        seen.append(view.selected)
        sx, sy = view.screen_point(*view.layout.centre(view._mover_hex()))
        assert 0 < sx < window.width - 360 and 22 < sy < window.height - 34  # brought into view
    assert seen == sorted(seen) and len(set(seen)) == 3


REACTION_POSITION = """
rules = "sgboh"
[map]
columns = 16
rows = 14
[[units]]
id = "A1"
side = "A"
type = "HI"
size = 6
tq = 6
ma = 6
hex = "1110"
facing = 12
[[units]]
id = "B1"
side = "B"
type = "HI"
size = 6
tq = 6
ma = 6
hex = "1008"
facing = 2
[[units]]
id = "B2"
side = "B"
type = "LI"
size = 4
tq = 6
ma = 7
hex = "0508"
facing = 6
missile = "J"
[[units]]
id = "A2"
side = "A"
type = "HI"
size = 6
tq = 6
ma = 6
hex = "0509"
facing = 12
[sequence]
side = "A"
phase = "move"
"""


def test_the_defending_player_is_asked_and_offered_exactly_the_generators_reactions(
    window: Any, tmp_path: Path
) -> None:
    """docs/rules/tactical.md §8.13: a move halts, the window turns to the defending side with
    the question in words, and its choice list is exactly the generator's reactions; a shock
    that waits shows the exact odds of each choice; the AI answers for an AI defender."""
    from tactical.actions import Decline, Designate, Move, React, Resolve, Shock

    path = tmp_path / "react.toml"
    path.write_text(REACTION_POSITION)
    view = _view(str(path))
    render(window, view)
    assert view.play(Move("A1", ("1109", "1108")))
    state = view.state
    assert state.reacting is not None and state.acting == "B"
    assert "reacting" in view.t_top.text and "Side B may react" in view.t_info.text
    # on the map: amber on the waiting mover, green on the unit that may react
    shot = render(window, view)
    assert _count(view, shot, state.units["A1"].hex, (255, 170, 0), tol=30, extent=0.9) > 20
    assert _count(view, shot, state.units["B1"].hex, (90, 220, 120), tol=30, extent=0.9) > 20
    assert _count(view, shot, state.units["B2"].hex, (90, 220, 120), tol=30, extent=0.9) < 5
    legal = set(view.legal())
    assert Decline() in legal and any(isinstance(a, React) for a in legal)
    assert _offered_by_the_ui(view) == legal
    _click_choice(view, React)
    assert view.state.reacting is None and view.state.acting == "A"
    render(window, view)
    # a shock waiting on the defender: each choice carries the odds after it
    assert view.play(Designate(("A2",), "B2")) and view.play(Resolve())
    assert view.play(Shock(("A2",), "B2"))
    assert view.state.reacting is not None and view.state.reacting.kind == "shock"
    rows = {c.label: c.detail for c in view.choices if not c.heading}  # each with its odds under it
    assert rows.get("Reaction fire at A2") and rows.get("No reaction (decline)")
    assert _offered_by_the_ui(view) == set(view.legal())
    render(window, view)
    # the AI plays the defender when it is the AI's side
    view.ai_sides = frozenset({"B"})
    assert view.ai_step()
    assert view.state.reacting is None
