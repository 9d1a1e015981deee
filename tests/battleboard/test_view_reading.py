"""The battleboard window as a newcomer reads it (issue 16): odds from the real resolver
before each attack, the dice and result on the board, names in the log, losses per side,
panic and the double move, F1 help with the rules section, and — at 1280×800 — no text cut
or overlapping, checked on the texts' boxes of real frames reached by input events."""

from __future__ import annotations

import argparse
from typing import Any

import arcade
import pytest

from battleboard.model import Action, State
from battleboard.odds import attack_odds
from battleboard.view import help as rules_help
from battleboard.view.battle import BOARD_SHARE, BattleView
from battleboard.view.counters import CALLOUT
from battleboard.view.shot import SCENES, scene
from battleboard.view.words import Words, short_name
from bellum.dice import Dice
from bellum.events import Event
from bellum.paths import game_data
from tests.battleboard.test_view import click, close, land_state, naval_state
from tests.conftest import render

pytestmark = pytest.mark.window

NAMES = {"A": "Caesarians", "B": "Pompeians"}


def resolver_numbers(s: State, a: Action) -> list[str]:
    """The odds the panel must show, worked out here from the resolver's exact distribution
    (``battleboard.odds.attack_odds``): chances the first defender is disrupted / lost, the
    last defender (the ship, when boarding) destroyed, and the attacker hurt."""
    uids, dist = attack_odds(s, a)
    flip = lost = last = hurt = 0.0
    for (att_flipped, att_dead, defs), p in dist:
        if defs[0][1]:
            lost += float(p)
        elif defs[0][0] and not s.units[uids[1]].flipped:
            flip += float(p)
        if defs[-1][1]:
            last += float(p)
        if att_dead or (att_flipped and not s.units[uids[0]].flipped):
            hurt += float(p)
    if s.naval and a.mode not in ("ram", "fire"):
        return [f"{last:.0%}", f"{lost:.0%}", f"{hurt:.0%}"]
    return [f"{flip:.0%}", f"{lost:.0%}", f"{hurt:.0%}"]


def shown_odds(view: BattleView) -> list[str]:
    """The option lines drawn in the panel, in order ("[1] Ram: …")."""
    return [t.text for t in view._texts if t.text.startswith("[") and t.text[1].isdigit()]


def check_odds(view: BattleView) -> None:
    lines = shown_odds(view)
    assert len(lines) == len(view.options) > 0
    for i, (line, a) in enumerate(zip(lines, view.options, strict=True)):
        assert line.startswith(f"[{i + 1}] ")
        percents = [w.strip("·,()") for w in line.split() if w.endswith("%")]
        assert percents == resolver_numbers(view.state, a), line


def test_a_naval_battle_shows_the_odds_before_each_attack_and_the_dice_after(window: Any) -> None:
    """Allocation, a ram and a boarding that captures, played by keys and clicks: before each
    attack the panel shows every mode with the resolver's exact numbers; after it, the board
    shows the attacker, target, d10 faces and results in a callout."""
    view = BattleView(naval_state(), title="Sea test", side_names=NAMES)
    view.dice = Dice(5)
    view.dice.force([9] * 6)  # Caesarian fleets and passengers pass their command checks
    render(window, view)
    assert any("secret" in t.text for t in view._texts)
    view.on_key_press(arcade.key.L, 0)
    view.on_key_press(arcade.key.L, 0)
    view.on_key_press(arcade.key.C, 0)
    assert view.state.phase == "move"
    sq = view.state.cfg.board.parse
    # the ram: F2 (d3) on G1 (d4)
    click(view, sq("d3"))  # type: ignore[arg-type]
    click(view, sq("d4"))  # type: ignore[arg-type]
    render(window, view)
    assert view.options[0].mode == "ram"
    check_odds(view)
    assert shown_odds(view)[0].startswith("[1] Ram: disrupt the ship ")
    view.dice.force([9, 3, 3, 3, 3])  # 9+1: L flips the ship; then nothing
    view.on_key_press(arcade.key.KEY_1, 0)
    g1 = view.state.units["G1"]
    assert g1.flipped and g1.status == "active"
    image = render(window, view).convert("RGB")
    assert view.callout is not None and (view.callout.square, view.callout.source) == (sq("d4"), sq("d3"))
    lines = [t.text for t in view.top.texts]
    assert lines[:2] == ["F2 → G1 (Ram)", "d10: 9 3 3 3 3   results: L - - - -"]
    assert "G1 is disrupted" in lines
    box = next(t for t in view.top.texts if t.text == lines[0])
    assert close(image.getpixel((int(box.left) - 4, int(window.height - box.bottom))), CALLOUT[:3])
    # the boarding: P3 aboard F3 (e4) takes G1
    click(view, sq("e4"))  # type: ignore[arg-type]
    click(view, sq("d4"))  # type: ignore[arg-type]
    render(window, view)
    check_odds(view)
    capture = next(i for i, a in enumerate(view.options) if a.unit == "P3" and a.mode == "phalanx" and a.capture)
    assert shown_odds(view)[capture].startswith(f"[{capture + 1}] Board (Phalanx) to capture: capture the ship ")
    view.dice.force([9])
    row = next(b for b in view.buttons if b.key == f"option{capture}")  # the mode's row, clicked
    view.on_mouse_press(int(row.left + row.width / 2), int(row.bottom + row.height / 2), arcade.MOUSE_BUTTON_LEFT, 0)
    g1 = view.state.units["G1"]
    assert g1.side == "A" and g1.captured
    render(window, view)
    assert [t.text for t in view.top.texts][:2] == ["P3 → G1 (boarding in Phalanx)", "d10: 9   results: L"]
    assert "P3 captures G1 (004 Combat: Boarding)" in view.log
    texts = [t.text for t in view._texts]
    assert any(t.startswith("Pompeians lost 2 SP; holds 1 of 2 fleets") for t in texts)
    assert not any("side A" in line or "side B" in line for line in view.log)


def test_the_log_and_panel_speak_in_names() -> None:
    s = land_state()
    s.units["X"].name = "Legio X Equestris"
    s.units["CIL"].name = "Cilician legion"
    words = Words.of(s, NAMES)
    data: dict[str, object] = {"unit": "X", "target": "CIL", "mode": "wedge", "results": ["B", "L"]}
    attack = Event("attack", "X attacks (wedge) CIL: B L", data)
    assert words.event(attack) == "Legio X Equestris attacks (wedge) Cilician legion: B L"
    assert words.event(Event("eliminated", "CIL is eliminated", {"unit": "CIL"})) == "Cilician legion is eliminated"
    turn = Event("turn", "turn 3: side B to play", {"side": "B", "turn": 3})
    assert words.event(turn) == "Turn 3: Pompeians to play."
    assert words.event(Event("panic", "side B panics (§10.1)", {"side": "B"})) == "Pompeians panic (§10.1)"
    assert words.unit_line(s, s.units["CIL"]).startswith("Cilician legion (Pompeians): legion, Recruit, 4 SP")
    assert short_name("Archers and slingers", 10) == "Archers"


def test_panic_superiority_and_the_double_move_are_visible(window: Any) -> None:
    view = BattleView(land_state(), title="Panic", side_names=NAMES)
    render(window, view)
    texts = [t.text for t in view._texts]
    assert any(t.startswith("Tactical superiority: ") and "double move left" in t for t in texts)
    view.state.panicked = ["B"]
    view.state.double_now = True
    view.dirty = True
    render(window, view)
    texts = [t.text for t in view._texts]
    assert "DOUBLE MOVE · Pompeians PANICKED" in texts  # the strip above the board
    assert any("DOUBLE MOVE this player turn" in t for t in texts)
    assert "Pompeians lost 0 SP of 4 — PANICKED" in texts


def test_f1_help_shows_controls_legend_and_the_rules_for_what_is_selected(window: Any) -> None:
    view = BattleView(land_state(), title="Help", side_names=NAMES)
    render(window, view)
    view.on_key_press(arcade.key.F1, 0)
    render(window, view)
    texts = [t.text for t in view._texts]
    assert view.state.phase == "move" and "Rules for what you are doing: battleboard.md §7, §5.5" in texts
    doc = game_data("rules", "battleboard.md").read_text("utf-8")
    assert "7.1 A unit moves up to its movement allowance" in doc
    assert any(t.startswith("7.1 A unit moves up to its movement allowance") for t in texts)
    assert rules_help.CONTROLS[0] in texts
    view.on_key_press(arcade.key.ESCAPE, 0)  # Esc closes the help, not the battle
    assert not view.help
    # choosing an attack mode: the combat rules
    sea = scene(window, "sea-interception", "help")
    render(window, sea)
    texts = [t.text for t in sea._texts]
    assert "Rules for what you are doing: battleboard.md §13.7, §13.8, §8.2" in texts
    assert rules_help.section("13.8") in texts
    sea.on_mouse_press(5, 5, arcade.MOUSE_BUTTON_LEFT, 0)
    assert not sea.help


def boxes(texts: list[arcade.Text]) -> list[tuple[str, tuple[float, float, float, float]]]:
    return [(t.text, (t.left, t.bottom, t.left + t.content_width, t.top)) for t in texts if t.text]


def overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1


def assert_fits(view: BattleView) -> None:
    """Every text inside the window and in its own part (board or panel), none overlapping
    another in the same layer, and every counter's text inside its square."""
    w, h = view.window.width, view.window.height
    split = w * BOARD_SHARE
    for layer in (view.canvas.texts, view.top.texts) if not view.help else (view.top.texts,):
        placed = boxes(layer)
        for text, (left, bottom, right, top) in placed:
            assert left >= 0 and right <= w and bottom >= 0 and top <= h, (text, left, bottom, right, top)
            if layer is view.canvas.texts and not text.startswith("Turn ") and "PANICKED" not in text:
                assert right <= split or left >= split, ("crosses into the panel", text)
        for i, (ta, a) in enumerate(placed):
            for tb, b in placed[i + 1 :]:
                assert not overlaps(a, b), (ta, a, tb, b)
    if view.help:
        return
    for button in view.buttons:  # every button's label inside its box
        if button.key.startswith("option"):
            continue
        label = next(t for t in view.canvas.texts if t.text == button.label)
        inside = button.left <= label.left and label.left + label.content_width <= button.left + button.width
        assert inside, button.label
    for u in view.state.units.values():
        if u.square is None:
            continue
        sq = view._square_rect(u.square)
        for text, (left, bottom, right, top) in boxes(view.canvas.texts):
            cx, cy = (left + right) / 2, (bottom + top) / 2
            if sq[0] < cx < sq[2] and sq[1] < cy < sq[3]:
                assert sq[0] <= left and right <= sq[2] and sq[1] <= bottom and top <= sq[3], (text, u.id)


@pytest.mark.parametrize(
    ("scenario", "shown"), sorted({*SCENES.values(), ("field-pharsalus", "help"), ("supply-battle", "attacked")})
)
def test_no_text_is_cut_or_overlaps_at_1280x800(window: Any, scenario: str, shown: str) -> None:
    """The screens of docs/screens and two more, reached by clicks and keys."""
    assert (window.width, window.height) == (1280, 800)
    view = scene(window, scenario, shown)
    render(window, view)
    assert view.help == (shown == "help")
    assert bool(view.options) == (shown in ("odds", "help"))
    assert (view.callout is not None) == (shown == "attacked")
    assert_fits(view)
    if view.help:  # the rules scroll by paragraph only while some are below the window
        more = view.help_more
        view.on_key_press(arcade.key.DOWN, 0)
        render(window, view)
        assert view.help and view.help_from == (1 if more else 0)
        assert_fits(view)


def test_a_finished_battle_and_every_scenario_fit(window: Any) -> None:
    from battleboard.scenario import load_scenario
    from battleboard.view.shot import shot_view
    from battleboard.view.window import battle_view

    for scenario in ("field-pharsalus", "mountain-pass", "sea-interception", "supply-battle"):
        sc, state = load_scenario(scenario)  # the first screen: allocation or set-up
        view = battle_view(sc, state, "none", 1)
        render(window, view)
        assert any(b.key in ("allocate", "deploy") for b in view.buttons)
        assert_fits(view)
        plan = next(b.action for b in view.buttons if b.key in ("allocate", "deploy"))
        for _uid, sq in plan.placements:  # a set-up plan is previewed on its squares
            x, y = view.square_center(sq)
            assert any(abs(t.x - x) < 1 and abs(t.y - y) < 1 for t in view._texts), view.state.cfg.board.name(sq)
    for scenario in ("field-pharsalus", "mountain-pass", "sea-interception", "supply-battle"):
        view = shot_view(argparse.Namespace(scenario=scenario, seed=3))
        render(window, view)
        assert_fits(view)
    view.ai = frozenset({"A", "B"})
    for _ in range(600):
        view.on_update(1.0)
        if view.state.phase == "over":
            break
    render(window, view)
    assert_fits(view)


def test_the_unit_under_the_mouse_is_named_in_full(window: Any) -> None:
    s = land_state()
    s.units["CIL"].name = "Cilician legion of Pompeius"
    view = BattleView(s, title="Hover", side_names=NAMES)
    render(window, view)
    assert "Cilician" in [t.text for t in view._texts]  # the counter abbreviates by rule
    x, y = view.square_center(s.units["CIL"].square)
    view.on_mouse_motion(int(x), int(y), 0, 0)
    render(window, view)
    line = next(t.text for t in view._texts if t.text.startswith("Under the mouse: "))
    assert line.startswith("Under the mouse: Cilician legion of Pompeius (Pompeians): legion, Recruit, 4 SP")
    assert_fits(view)


def test_a_fleets_active_passenger_comes_first_in_gold(window: Any) -> None:
    """004 Passengers: the first ground unit that is not baggage fights; the counter and the
    panel list it first (its chip edged in gold) even when baggage was loaded before it."""
    from battleboard.view.counters import GOLD
    from battleboard.view.words import passengers

    s = naval_state()
    view = BattleView(s, title="Cargo", side_names=NAMES)
    view.dice = Dice(5)
    render(window, view)
    view.on_key_press(arcade.key.L, 0)
    view.on_key_press(arcade.key.L, 0)
    s = view.state
    f1 = s.units["F1"]
    s.units["P1"].kind = "impeditus"  # baggage loaded first, then a legion
    f1.cargo = ["P1", "P2"]
    s.units["P2"].aboard = "F1"
    for f in s.units.values():
        if f.id != "F1" and "P2" in f.cargo:
            f.cargo.remove("P2")
    assert passengers(s, f1) == ["P2", "P1"]
    view.select("F1")
    image = render(window, view).convert("RGB")
    assert "carrying P2 (legion 5 SP), P1 (baggage 5 SP) — the first fights" in Words.of(s, NAMES).unit_line(s, f1)
    assert f1.square is not None
    row_y = view.square_center(f1.square)[1] - view.cell * 0.27  # the chips' row
    chips = [t for t in view._texts if t.text in ("Lg5", "Im5") and abs(t.y - row_y) < 2]
    assert [t.text for t in sorted(chips, key=lambda t: t.x)] == ["Lg5", "Im5"]
    gold = chips[0] if chips[0].text == "Lg5" else chips[1]
    edge = image.getpixel((int(gold.x), int(window.height - gold.y - view.cell * 0.1)))
    assert close(edge, GOLD[:3]), edge


def test_the_ai_waits_while_paused_or_while_the_help_is_open(window: Any) -> None:
    """A watch mode's knobs: ``ai_delay`` (seconds between the AI's actions) and ``paused``."""
    view = BattleView(naval_state(), ai=frozenset({"A", "B"}), ai_delay=0.5)
    render(window, view)
    view.paused = True
    view.on_update(1.0)
    assert view.state.phase == "allocate" and not view.state.allocations
    view.paused = False
    view.on_update(0.4)
    assert not view.state.allocations  # not yet: half a second between actions
    view.on_update(0.2)
    assert view.state.allocations
    view.show_help(True)
    before = view.state
    view.on_update(1.0)
    assert view.state is before


def test_watching_keeps_every_text_above_the_watch_bar(window: Any) -> None:
    """The watch mode draws its bar at the foot of the window: the battle's legend and log
    are laid out above it (``BattleView.bottom``)."""
    from battleboard.view.choose import BoardBattles, battle_info
    from bellum.paths import scenario_files
    from bellum.settings import Settings
    from bellum.view.watch import BAR_H, WatchView

    path = next(p for p in scenario_files("battleboard") if p.stem == "field-pharsalus")
    watch = BoardBattles().open(battle_info(path), "watch", Settings(), arcade.View())
    assert isinstance(watch, WatchView)
    for _ in range(12):
        watch.step()
    render(window, watch)
    inner = watch.inner
    assert isinstance(inner, BattleView) and inner.bottom == BAR_H + 2
    assert all(t.bottom >= BAR_H for t in inner._texts if t.text), "a text under the watch bar"
    assert_fits(inner)


@pytest.mark.parametrize("naval", [False, True])
def test_every_help_section_named_is_in_the_packaged_rules(naval: bool) -> None:
    """Each phase's help names sections of battleboard.md that exist (a renumbered rule
    would otherwise leave the help empty)."""
    s = naval_state() if naval else land_state()
    for phase in ("allocate", "deploy", "command", "move", "combat", "over"):
        s.phase = phase
        for panicked in ([], ["A"]):
            s.panicked = panicked
            for choosing in (False, True):
                numbers = rules_help.sections_for(s, choosing)
                assert numbers and all(rules_help.section(n) for n in numbers), (phase, choosing, numbers)
                assert rules_help.rules_text(s, choosing).startswith(numbers[0])


def test_sides_wear_their_factions_colours_whatever_their_letter(window: Any) -> None:
    """Caesar's side is red and the Senate's purple, as on the campaign map, even when the
    Senatorials are side A (the campaign's active side is always A)."""
    from battleboard.view.counters import CAESARIAN, SENATORIAL, SIDE_COLORS, faction_colors

    assert faction_colors({"A": "senatorial", "B": "caesarian"}) == {"A": SENATORIAL, "B": CAESARIAN}
    assert faction_colors({"A": "Pompeians", "B": "Antonius"}) == {"A": SENATORIAL, "B": CAESARIAN}
    assert faction_colors({"A": "Afranius (moving)", "B": "Antonius (intercepting)"}) == SIDE_COLORS
    view = BattleView(land_state(), title="Colours", side_names={"A": "Pompeians", "B": "Caesarians"})
    image = render(window, view).convert("RGB")
    x, y = view.square_center(view.state.units["X"].square)  # type: ignore[arg-type]
    assert close(image.getpixel((int(x - view.cell * 0.32), int(window.height - (y + view.cell * 0.05)))), SENATORIAL)
