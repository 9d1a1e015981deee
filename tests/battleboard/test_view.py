"""The battleboard window, driven headless through a naval battle: allocate, move, ram,
board and capture — checking the model and real screenshots."""

from __future__ import annotations

import argparse
from typing import Any

import arcade
import pytest

from battleboard.position import Position, build_state
from battleboard.view.battle import BADGE, DARK_INK, GOLD, SIDE_COLORS, BattleView, counter_labels
from battleboard.view.words import Words
from bellum.dice import Dice
from tests.conftest import render

pytestmark = pytest.mark.window


def naval_state() -> Any:
    units = [
        {"id": "F1", "side": "A", "kind": "fleet", "discipline": "V", "strength": 2, "square": "a1"},
        {"id": "F2", "side": "A", "kind": "fleet", "discipline": "V", "strength": 2, "square": "d3"},
        {"id": "F3", "side": "A", "kind": "fleet", "discipline": "V", "strength": 2, "square": "e4"},
        {"id": "P1", "side": "A", "kind": "legion", "discipline": "V", "strength": 5},
        {"id": "P2", "side": "A", "kind": "legion", "discipline": "V", "strength": 5},
        {"id": "P3", "side": "A", "kind": "legion", "discipline": "V", "strength": 5},
        {"id": "G2", "side": "B", "kind": "fleet", "discipline": "R", "strength": 2, "square": "h6"},
        {"id": "G1", "side": "B", "kind": "fleet", "discipline": "R", "strength": 2, "square": "d4"},
        {"id": "Q1", "side": "B", "kind": "auxiliary", "discipline": "R", "strength": 2},
    ]
    pos = Position.model_validate({"board": {"columns": 8, "rows": 6}, "battle": {"kind": "naval"}, "units": units})
    return build_state(pos, "test")


def pixel(image: Any, view: BattleView, sq: int) -> tuple[int, int, int]:
    x, y = view.square_center(sq)
    px, py = int(x - view.cell * 0.32), int(view.window.height - (y + view.cell * 0.05))
    r, g, b = image.convert("RGB").getpixel((px, py))
    return r, g, b


def close(c: tuple[int, int, int], want: tuple[int, int, int]) -> bool:
    return all(abs(a - b) < 12 for a, b in zip(c, want, strict=True))


def click(view: BattleView, sq: int) -> None:
    x, y = view.square_center(sq)
    view.on_mouse_press(int(x), int(y), arcade.MOUSE_BUTTON_LEFT, 0)


def test_naval_battle_in_the_window(window: Any) -> None:
    view = BattleView(naval_state(), title="Test battle")
    view.dice = Dice(5)
    view.dice.force([9] * 6)  # A's fleets and passengers all pass their command checks
    render(window, view)
    board = view.state.cfg.board
    sq = board.parse
    # allocate: both sides in secret, through the panel button (canonical plans)
    assert view.state.phase == "allocate"
    view.on_key_press(arcade.key.L, 0)
    assert view.state.phase == "allocate" and "A" in view.state.allocations
    assert view.state.units["P1"].aboard is None  # still secret
    view.on_key_press(arcade.key.L, 0)
    assert view.state.phase == "command"
    assert view.state.units["P3"].aboard == "F3" and view.state.units["Q1"].aboard == "G2"
    view.on_key_press(arcade.key.C, 0)
    assert view.state.phase == "move"
    # move F1 by mouse: select, then click a highlighted square
    click(view, sq("a1"))  # type: ignore[arg-type]
    assert view.selected == "F1"
    image = render(window, view)
    click(view, sq("a3"))  # type: ignore[arg-type]
    assert view.state.units["F1"].square == sq("a3")
    image = render(window, view)
    assert close(pixel(image, view, sq("a3")), SIDE_COLORS["A"])  # type: ignore[arg-type]
    assert not close(pixel(image, view, sq("a1")), SIDE_COLORS["A"])  # type: ignore[arg-type]
    # ram G1 with F2: the target offers the attack modes with their odds
    click(view, sq("d3"))  # type: ignore[arg-type]
    click(view, sq("d4"))  # type: ignore[arg-type]
    assert view.options[0].mode == "ram"
    render(window, view)
    assert any(b.key == "option0" and "%" in b.label for b in view.buttons)
    view.forced = ["B", "-", "-", "-", "-"]
    view.on_key_press(arcade.key.KEY_1, 0)
    assert view.state.units["G1"].flipped and view.state.units["F2"].attacked
    # board G1 from F3 and capture it
    click(view, sq("e4"))  # type: ignore[arg-type]
    click(view, sq("d4"))  # type: ignore[arg-type]
    boarding = [i for i, a in enumerate(view.options) if a.unit == "P3" and a.mode == "phalanx" and a.capture]
    assert boarding
    view.forced = ["B"]
    view.press(f"option{boarding[0]}")
    g1 = view.state.units["G1"]
    assert g1.side == "A" and g1.captured and view.state.units["P3"].aboard == "G1"
    image = render(window, view)
    flipped_red = tuple((c + 255) // 2 for c in SIDE_COLORS["A"])  # a captured ship fights on disrupted
    assert close(pixel(image, view, sq("d4")), flipped_red)  # type: ignore[arg-type]
    assert any("captures G1" in line for line in view.log)
    # the captured ship may not attack this turn; ending the turn passes to B's command phase
    view.on_key_press(arcade.key.ENTER, 0)
    assert view.state.side == "B" and view.state.phase == "command"


def test_ai_plays_the_other_side(window: Any) -> None:
    view = BattleView(naval_state(), ai=frozenset({"A", "B"}))
    render(window, view)
    for _ in range(400):
        view.on_update(1.0)
        if view.state.phase == "over":
            break
    assert view.state.phase == "over"
    image = render(window, view)
    assert len(image.convert("RGB").getcolors(1 << 20)) > 10


def test_refused_action_shows_a_sentence(window: Any) -> None:
    view = BattleView(naval_state())
    render(window, view)
    view.on_key_press(arcade.key.ENTER, 0)  # no end of turn during allocation
    assert view.state.phase == "allocate"
    view.on_key_press(arcade.key.SPACE, 0)  # the AI allocates for the side to act
    assert view.state.allocations


def test_shot_view_and_menu_entry(window: Any) -> None:
    from battleboard.view import entry
    from battleboard.view.shot import shot_view

    args = argparse.Namespace(scenario="field-pharsalus", seed=2)
    image = render(window, shot_view(args))
    assert len(image.convert("RGB").getcolors(1 << 20)) > 20
    assert entry.LABEL == "Battleboard" and entry.BLURB
    picker = entry.ScenarioPicker(arcade.View())
    render(window, picker)
    assert len(picker.paths) >= 4


def test_plans_cycle_before_allocating(window: Any) -> None:
    view = BattleView(naval_state())
    render(window, view)
    first = next(b.action for b in view.buttons if b.key == "allocate")
    assert any(b.key == "plan" for b in view.buttons)
    view.on_key_press(arcade.key.P, 0)
    render(window, view)
    second = next(b.action for b in view.buttons if b.key == "allocate")
    assert first != second
    view.on_key_press(arcade.key.L, 0)
    assert view.state.allocations["A"] == second


def land_state() -> Any:
    units = [
        {"id": "X", "side": "A", "kind": "legion", "discipline": "I", "strength": 5, "square": "c2"},
        {"id": "GAL", "side": "A", "kind": "cavalry", "discipline": "B", "strength": 2, "square": "d2"},
        {"id": "CIL", "side": "B", "kind": "legion", "discipline": "R", "strength": 4, "square": "c5", "flipped": True},
    ]
    pos = Position.model_validate({"board": {"columns": 6, "rows": 6}, "battle": {"kind": "land"}, "units": units})
    return build_state(pos, "test")


def test_counter_labels_give_discipline_name_kind_and_strength() -> None:
    """A counter reads like a wargame counter: morale box, name (abbreviated by rule), type and strength."""
    s = land_state()
    assert counter_labels(s.units["X"], "X") == ("I", "X", "Lg 5")
    assert counter_labels(s.units["GAL"], "Gallic horse", 12) == ("B", "Gallic horse", "Cv 2")
    f = naval_state().units["F1"]
    assert counter_labels(f, "F1") == ("V", "F1", "Fl 2")
    assert counter_labels(s.units["X"], "Legio X Equestris", 10)[1] == "Legio X"
    assert counter_labels(s.units["X"], "Legio VIII", 9)[1] == "Leg. VIII"
    assert counter_labels(s.units["X"], "Archers and slingers", 10)[1] == "Archers"


def test_land_counters_show_strength_and_discipline_legibly(window: Any) -> None:
    view = BattleView(land_state(), title="Test land battle", side_names={"A": "Caesarians", "B": "Pompeians"})
    image = render(window, view).convert("RGB")
    texts = [t.text for t in view._texts]
    for want in ("X", "Lg 5", "I", "GAL", "Cv 2", "B", "CIL", "Lg 4", "R"):
        assert want in texts, want
    assert "Caesarians lost 0 SP of 7; panics when 3 are lost" in texts
    assert "Pompeians lost 0 SP of 4; panics when 2 are lost" in texts
    board = view.state.cfg.board
    for uid in ("X", "CIL"):
        x, y = view.square_center(view.state.units[uid].square)  # type: ignore[arg-type]
        corner = image.getpixel((int(x - view.cell * 0.41), int(view.window.height - (y + view.cell * 0.41))))
        assert close(corner, BADGE), (uid, corner)  # the discipline box, top left
    # the flipped counter is drawn pale and lettered in dark ink, so it stays legible
    cil = next(t for t in view._texts if t.text == "CIL")
    assert tuple(cil.color)[:3] == DARK_INK
    x, y = view.square_center(board.parse("c5"))  # type: ignore[arg-type]
    r, g, b = SIDE_COLORS["B"]
    pale = ((r + 255) // 2, (g + 255) // 2, (b + 255) // 2)
    assert close(image.getpixel((int(x - view.cell * 0.32), int(view.window.height - (y + view.cell * 0.05)))), pale)


def test_fleets_show_what_they_carry(window: Any) -> None:
    view = BattleView(naval_state(), title="Test battle")
    view.dice = Dice(5)
    render(window, view)
    view.on_key_press(arcade.key.L, 0)
    view.on_key_press(arcade.key.L, 0)  # both sides allocate (canonical plans)
    s = view.state
    f3 = s.units["F3"]
    assert f3.cargo == ["P3"]
    image = render(window, view).convert("RGB")
    texts = [t.text for t in view._texts]
    assert texts.count("Fl 2") == 5  # every fleet shows its strength
    assert texts.count("Lg5") == sum(len(u.cargo) for u in s.units.values() if u.kind == "fleet" and u.side == "A")
    assert "Ax2" in texts  # B's auxiliaries aboard G2
    x, y = view.square_center(f3.square)  # type: ignore[arg-type]
    chip = image.getpixel((int(x - view.cell * 0.33), int(view.window.height - (y - view.cell * 0.27))))
    assert close(chip, (236, 222, 190)) or close(chip, GOLD[:3])  # the passenger chip, parchment or gold-edged
    view.select("F3")
    render(window, view)
    line = next(t.text for t in view._texts if t.text.startswith("F3 ("))
    assert line == Words.of(s, view.side_names).unit_line(s, f3)
    assert line == "F3 (Side A): fleet, Veteran, 2 SP; carrying P3 (legion 5 SP)"


def test_a_finished_stand_alone_battle_shows_its_after_action_report(window: Any) -> None:
    """battleboard.md §14: the panel's log gives way to the after-action report, the side
    names and turning points in words — and the report's rolls leave the battle's dice alone."""
    from battleboard.scenario import load_scenario
    from battleboard.view.window import battle_view

    sc, state = load_scenario("field-pharsalus")
    view = battle_view(sc, state, "both", 4)
    assert view.engagement is not None and view.report_lines() == []
    before = render(window, view)
    for _ in range(600):
        view.on_update(1.0)
        if view.state.phase == "over":
            break
    assert view.state.phase == "over"
    rolls = len(view.dice.rolls)
    lines = view.report_lines()
    assert len(view.dice.rolls) == rolls
    assert any("SP engaged" in ln for ln in lines) and not any("side A" in ln or "side B" in ln for ln in lines)
    after = render(window, view)
    texts = [t.text for t in view._texts]
    assert "After-action report" in texts and "Log" not in texts
    assert any("SP engaged" in t for t in texts)
    assert after.convert("RGB").tobytes() != before.convert("RGB").tobytes()


def test_a_move_is_undone_but_a_roll_seals_the_past(window: Any) -> None:
    """The window takes back actions that rolled no die (battleboard.md §15): the position
    and the log return; once the dice have rolled there is nothing to undo."""
    from battleboard.rules import legal_actions

    view = BattleView(land_state(), title="Undo", side_names={"A": "Caesarians", "B": "Pompeians"})
    render(window, view)
    assert not view.can_undo()
    before = {u.id: u.square for u in view.state.units.values()}
    log = list(view.log)
    move = next(a for a in legal_actions(view.state) if a.verb == "move" and a.unit == "X")
    assert view.act(move)
    assert {u.id: u.square for u in view.state.units.values()} != before
    image = render(window, view)
    assert any(b.key == "undo" for b in view.buttons)
    view.on_key_press(arcade.key.U, 0)
    assert {u.id: u.square for u in view.state.units.values()} == before
    assert view.log == [*log, "(undone)"] and not view.can_undo()
    after = render(window, view)
    assert after.convert("RGB").tobytes() != image.convert("RGB").tobytes()
    # a roll seals the past: play on with the dice until one rolls, then nothing to undo
    for _ in range(50):
        rolls = len(view.dice.rolls)
        view.act(choose_for(view))
        if len(view.dice.rolls) > rolls:
            break
    assert not view.can_undo() and not view.undo()
    assert "Nothing to undo" in view.message


def choose_for(view: BattleView) -> Any:
    from battleboard.ai import choose

    return choose(view.state)
