"""The playing campaign window, driven headless (issue 7 item 9 and its acceptance; item 6
as the window sees it): select a force, move it, start a battle, choose the battleboard,
play it out, come back to the map with the outcome applied — checked in the model and in
real screenshots.  Also the march odds (campaign.md §8.2) against the full rules, the
reactive decisions as dialogs, auto-resolve with its odds, save and load, and the
command-line and menu entries."""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from bellum.dice import Dice
from bellum.odds import exact_distribution
from campaign import actions as A
from campaign.ai import CampaignAI
from campaign.engine import CampaignEngine, legal_actions
from campaign.map import roman_world
from campaign.view.game import CampaignGame, march_odds, tactical_refusal
from campaign.view.palette import OWNER_INK
from tests.campaign.test_routes import LAND
from tests.campaign.test_view import difference, near, patch
from tests.conftest import ROOT, keep_screen, render

CAESAR, POMPEIANS = "caesarian", "senatorial"


@pytest.fixture(scope="module")
def ariminum(tmp_path_factory: pytest.TempPathFactory) -> str:
    """49 BC with Domitius' army at Ariminum, next to Caesar at Ravenna: a battle one road away."""
    src = (ROOT / "scenarios" / "campaign" / "49bc.toml").read_text()
    moved = src.replace(
        'location = "corfinium"\ncommander = "domitius"', 'location = "ariminum"\ncommander = "domitius"'
    )
    assert moved != src
    path = tmp_path_factory.mktemp("scenarios") / "ariminum.toml"
    path.write_text(moved)
    return str(path)


def to_movement(game: CampaignGame) -> None:
    """Play the phases before the Caesarians' movement with the computer's choices (the
    generator's actions, so the phases the rules add later are played too)."""
    ai = CampaignAI()
    for _ in range(200):
        if game.state.phase == "movement" and game.state.pending is None:
            game.popups.clear()  # the turn's news has been read
            return
        game.play(ai.choose(game.state))
    raise AssertionError(f"the movement phase was not reached ({game.state.phase})")


def to_battle_dialog(view: Any) -> CampaignGame:
    """Caesar marches on Domitius at Ariminum and attacks; the defender (the computer)
    commits: the window shows the battle dialog."""
    game: CampaignGame = view.game
    to_movement(game)
    game.select_force("caesar")
    game.move_to("ariminum")
    game.play(A.EndPhase())
    game.play(A.Battle("ariminum", 0))
    game.run_ai()
    view.on_update(0.0)
    return game


def click(view: Any, sx: float, sy: float) -> None:
    import arcade

    view.on_mouse_press(sx, sy, arcade.MOUSE_BUTTON_LEFT, 0)
    view.on_mouse_release(sx, sy, arcade.MOUSE_BUTTON_LEFT, 0)


def counter_of(view: Any, fid: str) -> tuple[float, float]:
    """Screen position of a force's counter."""
    sprite = view.force_sprites[view._force_ids.index(fid)]
    return view.world_to_screen(sprite.center_x, sprite.center_y)


def keys(view: Any, prefix: str = "") -> list[str]:
    view.refresh_hud()
    return [b.key for b in view.buttons if b.key.startswith(prefix)]


def labels(view: Any) -> list[str]:
    view.refresh_hud()
    return [b.label for b in view.buttons]


def press_label(view: Any, start: str) -> None:
    view.refresh_hud()
    hit = [b for b in view.buttons if b.label.startswith(start)]
    assert hit, f"no button {start!r} among {labels(view)}"
    assert view.press(hit[0].key)


@pytest.fixture
def view(window: Any, ariminum: str) -> Iterator[Any]:
    from campaign.view.play import CampaignView

    game = CampaignGame.new(ariminum, 1)
    v = CampaignView(game)
    render(window, v)
    yield v


# --------------------------------------------------------------------------- no window


def test_march_odds_equal_the_full_march_rules_over_every_die_face() -> None:
    """campaign.md §8.2: the odds shown on the map are the March Table read exactly — the
    same probabilities as playing the march itself through the engine over every face
    (scatter destination rolls included)."""
    game = CampaignGame.new("49bc", 3)
    to_movement(game)
    state = game.state
    cmap = roman_world()
    risky = [
        a
        for a in legal_actions(state)
        if isinstance(a, A.March)
        and any(cmap.link(x, y).kind == "cross_country" for x, y in zip(a.path, a.path[1:], strict=False))  # type: ignore[union-attr]
    ]
    assert risky, "the first movement phase offers a march across country"
    engine = CampaignEngine()
    for a in risky[:3]:
        force = state.forces[a.force]
        odds = march_odds(state, force, a.path, a.stratagem)

        def run(dice: Dice, a: A.March = a) -> str:
            s, events = engine.apply(state, a, dice)
            kinds = {e.kind for e in events}
            if "scatter" in kinds:
                return "scatter"
            if "march_halt" in kinds:
                return "halt"
            return "arrive" if s.forces[a.force].location == a.to else "other"

        full = exact_distribution(run)
        assert full.get("other", Fraction(0)) == 0
        assert (odds.arrive, odds.halt, odds.scatter) == (
            full.get("arrive", Fraction(0)),
            full.get("halt", Fraction(0)),
            full.get("scatter", Fraction(0)),
        )
        assert odds.arrive + odds.halt + odds.scatter == 1
        assert odds.rolls >= 1 and not odds.sure


def test_a_road_march_is_sure_and_played_at_once(ariminum: str) -> None:
    game = CampaignGame.new(ariminum, 1)
    to_movement(game)
    game.select_force("caesar")
    moves = game.moves()
    assert "ariminum" in moves
    assert game.odds_of(moves["ariminum"][0].action).sure  # type: ignore[arg-type]
    assert game.move_to("ariminum") == []
    assert game.state.forces["caesar"].location == "ariminum"


def test_every_option_the_window_offers_comes_from_the_generator(ariminum: str) -> None:
    game = CampaignGame.new(ariminum, 1)
    to_movement(game)
    for fid in [f.id for f in game.state.forces_of(CAESAR)]:
        game.select_force(fid)
        legal = game.legal()
        for options in game.moves().values():
            assert all(o.action in legal for o in options)
        assert all(o.action in legal for o in game.merges())
    legal = game.legal()
    assert all(o.action in legal for o in game.phase_options())


def test_the_tactical_choice_says_why_when_it_cannot_be_taken() -> None:
    """The window asks the tactical route: a field battle on land it fights, a battle at sea
    or a storm it refuses with a sentence."""
    land = LAND
    assert tactical_refusal(land) == ""
    storm = land.model_copy(update={"trigger": "storm", "terrain": "city"})
    assert "storm" in tactical_refusal(storm)
    at_sea = land.model_copy(
        update={
            "kind": "naval",
            "trigger": "mutual",
            "units": [u.model_copy(update={"kind": "fleet"}) for u in land.units],
        }
    )
    assert "naval battle" in tactical_refusal(at_sea)


# --------------------------------------------------------------------------- the window


@pytest.mark.window
def test_select_move_fight_on_the_battleboard_and_come_back_with_the_outcome(view: Any, window: Any) -> None:
    """The acceptance: select a force, move it, start a battle, choose the battleboard,
    play it out, come back to the map with the outcome applied."""
    from battleboard.view.battle import BattleView

    game = view.game
    to_movement(game)
    render(window, view)
    domitius_sp = game.state.forces["domitius"].strength()
    # select Caesar's army by clicking its counter: its legal destinations are lit
    click(view, *counter_of(view, "caesar"))
    assert game.selected_force == "caesar"
    assert "ariminum" in game.moves()
    shot = render(window, view)
    ax, ay = view.world_to_screen(*view.geo.pos("ariminum"))
    assert any(near(c, (40, 120, 60), 40) for c in patch(shot, view, ax, ay, 10)), "Ariminum is lit as a sure march"
    assert any(b.startswith("Caesar") for b in [view.game.describe_force("caesar")[0]])
    # move: a click on the lit place marches there (a sure march by road, no dialog)
    click(view, ax, ay)
    assert game.state.forces["caesar"].location == "ariminum"
    assert view.dialog is None
    moved = render(window, view)
    cx, cy = counter_of(view, "caesar")
    assert any(near(c, OWNER_INK["caesarian"], 30) for c in patch(moved, view, cx, cy, 6))
    assert "Caesar marches from Ravenna to Ariminum" in " ".join(game.chronicle)
    # end the movement phase; the combat phase offers the attack at Ariminum
    press_label(view, "End movement")
    render(window, view)
    assert game.state.phase == "combat"
    press_label(view, "Attack at Ariminum")
    render(window, view)
    assert view.dialog is not None and view.dialog.title == "Attack at Ariminum"
    # each commitment shows its odds before it is made (campaign.md §14.3)
    commits = [note for label, _run, note in view.dialog.options if label.startswith("Commit")]
    assert len(commits) >= 2 and all("% if they commit none" in note for note in commits)
    press_label(view, "Commit 0")
    assert game.state.pending is not None and game.state.pending.kind == "commit"
    # the computer commits for the Senatorials; the battle waits for the player's choice
    for _ in range(3):
        view.on_update(1.0)
    assert game.battle is not None and view.dialog is not None
    assert view.dialog.title.startswith("Battle of Ariminum")
    text = " ".join(view.dialog.lines)
    assert "Auto-resolve odds" in text and "%" in text
    odds = game.battle.odds
    assert odds is not None and odds["A"] + odds["B"] + odds["draw"] == pytest.approx(1.0)
    dialog_shot = render(window, view)
    tactical = [b for b in view.buttons if b.label.startswith("Fight it with the tactical")]
    assert len(tactical) == 1 and tactical[0].enabled == (tactical_refusal(game.battle.engagement) == "")
    # the dialog darkens the map behind it
    assert sum(dialog_shot.convert("RGB").getpixel((640, 790))) < sum(moved.convert("RGB").getpixel((640, 790)))
    eng = game.battle.engagement
    actions_before = len(game.session.actions)
    # choose the battleboard: the battle opens on the engagement
    press_label(view, "Fight it on the battleboard")
    board = window.current_view
    assert isinstance(board, BattleView)
    assert {u.id for u in board.state.units.values()} == {u.id for u in eng.units}
    render(window, board)
    for _ in range(5000):  # play it out with the battleboard AI for both sides
        if board.state.phase == "over":
            break
        board.press("ai")
    assert board.state.phase == "over"
    final_board = board.state
    board.press("menu")  # back to the campaign
    assert window.current_view is view
    # the outcome was applied through the engine, inside the deciding action; what waits
    # now is at most the winner's choice of the spoils (campaign.md §12.4)
    assert game.battle is None and (game.state.pending is None or game.state.pending.kind == "spoils")
    assert len(game.session.actions) == actions_before + 1
    last = game.session.actions[-1]
    assert last["type"] == "commit" and last["outcome"]["engagement"] == eng.id
    assert any("Battle of Ariminum" in ln for ln in game.chronicle)
    survivors = {u.id: u.strength for u in final_board.units.values() if u.status in ("active", "reserve")}
    after = {u.id: u.strength for f in game.state.forces.values() for u in f.units}
    lost_b = domitius_sp - sum(u.strength for u in game.state.forces["domitius"].units)
    assert lost_b >= 0
    for uid, sp in survivors.items():
        if uid in after and final_board.units[uid].owner == final_board.units[uid].side:
            assert after[uid] == sp
    # the winner (here the computer) takes its spoils of victory first (campaign.md §12.4)
    assert game.state.pending is not None and game.state.pending.actor == "senatorial"
    view.on_update(view.ai_delay)
    assert game.state.pending is None
    # the after-action report pops up over the map (campaign.md §14.4); read, it is closed
    render(window, view)
    assert view.dialog is not None and view.dialog.title.startswith("After-action report: Battle of Ariminum")
    assert any("SP engaged" in ln for ln in view.dialog.lines)
    view.close_dialog()
    # and the map shows it: the chronicle panel carries the battle, the loser left Ariminum
    final = render(window, view)
    assert view.dialog is None
    loser = "caesar" if last["outcome"]["winner"] == "B" else "domitius"
    if last["outcome"]["winner"] is not None and loser in game.state.forces:
        f = game.state.forces[loser]
        assert f.location != "ariminum"
        # its counter is drawn where it retreated to, in its side's ink
        lx, ly = counter_of(view, loser)
        assert ((lx - ax) ** 2 + (ly - ay) ** 2) ** 0.5 > 10
        ink = OWNER_INK["caesarian" if loser == "caesar" else "senatorial"]
        assert any(near(c, ink, 30) for c in patch(final, view, lx, ly, 6))
    assert final.convert("RGB").tobytes() != moved.convert("RGB").tobytes()
    # the replayed log gives the same game (the outcome is in the log)
    from bellum.session import Session

    again = Session.replay(CampaignEngine(), game.session.scenario, game.session.seed, game.session.actions)
    assert again.checksum() == game.session.checksum()


@pytest.mark.window
def test_leaving_an_unfinished_battle_lets_the_generals_fight_it_out(view: Any, window: Any) -> None:
    game = to_battle_dialog(view)
    assert game.battle is not None
    press_label(view, "Fight it on the battleboard")
    board = window.current_view
    board.press("menu")  # leave at once
    assert window.current_view is view
    assert view.dialog is not None and "not over" in view.dialog.title
    press_label(view, "Return to the battle")
    assert window.current_view is board
    board.press("menu")
    press_label(view, "Let the generals fight it out")
    assert game.battle is None
    assert game.session.actions[-1]["type"] == "commit" and "outcome" in game.session.actions[-1]


@pytest.mark.window
def test_auto_resolve_shows_the_odds_first_and_lets_the_engine_fight(view: Any, window: Any) -> None:
    game = to_battle_dialog(view)
    assert view.dialog is not None and game.battle is not None
    assert game.battle.odds is not None  # computed before the choice is offered
    press_label(view, "Auto-resolve")
    assert game.battle is None and (game.state.pending is None or game.state.pending.kind == "spoils")
    last = game.session.actions[-1]
    assert last["type"] == "commit" and "outcome" not in last  # the engine's own resolver fought it
    assert any("Battle of Ariminum" in ln for ln in game.chronicle)


@pytest.mark.window
def test_hotseat_the_defender_answers_the_commit_decision_in_a_dialog(
    window: Any, ariminum: str, tmp_path: Path
) -> None:
    from campaign.view.play import CampaignView

    game = CampaignGame.new(ariminum, 1, humans=frozenset({CAESAR, POMPEIANS}))
    view = CampaignView(game)
    render(window, view)
    to_movement(game)
    game.select_force("caesar")
    game.move_to("ariminum")
    game.play(A.EndPhase())
    game.play(A.Battle("ariminum", 0))
    view.on_update(0.0)
    # the decision passes to the other person: the computer is handed over first, both hands hidden
    assert view.dialog is not None and view.dialog.title == "The Senatorials to play" and not view.dialog.cancel
    assert not any("stratagems Military" in line or "Military," in line for line in game.war_lines())
    handover = render(window, view)
    keep_screen(handover, "campaign-hotseat-handover.png", tmp_path)
    assert not game.human_to_act()
    press_label(view, "We are the Senatorials")
    view.on_update(0.0)
    assert game.handover is None
    assert any(line.startswith("The Senatorials: stratagems") for line in game.war_lines())
    assert not any(line.startswith("The Caesarians: stratagems") for line in game.war_lines())
    assert view.dialog is not None and not view.dialog.cancel
    assert "commit" in " ".join(view.dialog.lines).lower()
    assert all(label.startswith("Commit") for label, _, _ in view.dialog.options)
    render(window, view)
    press_label(view, "Commit 0")
    view.on_update(0.0)
    assert game.battle is not None and game.battle.ai_letters == frozenset()
    assert view.dialog is not None and view.dialog.title.startswith("Battle of Ariminum")


@pytest.mark.window
def test_a_risky_march_asks_first_with_its_odds(window: Any) -> None:
    from campaign.view.play import CampaignView

    game = CampaignGame.new("49bc", 3)
    view = CampaignView(game)
    render(window, view)
    to_movement(game)
    cmap = roman_world()
    for f in game.state.forces_of(CAESAR):
        game.select_force(f.id)
        for dest, options in game.moves().items():
            march = options[0].action
            if (
                isinstance(march, A.March)
                and any(
                    cmap.link(x, y).kind == "cross_country"  # type: ignore[union-attr]
                    for x, y in zip(march.path, march.path[1:], strict=False)
                )
            ):
                view._sync_model()
                view.move_to(dest)
                assert view.dialog is not None and "March to" in view.dialog.title
                assert any("arrives" in label for label, _, _ in view.dialog.options)
                before = game.state.forces[f.id].location
                press_label(view, "Cancel")
                assert view.dialog is None and game.state.forces[f.id].location == before
                view.move_to(dest)
                assert view.press("option0")
                assert game.state.forces.get(f.id) is None or game.state.spent.get(f.id, 0) > 0
                return
    pytest.skip("no cross-country march in this position")


@pytest.mark.window
def test_save_and_load_of_the_named_file_restore_the_game(view: Any, window: Any, tmp_path: Path) -> None:
    game = view.game
    game.save_path = tmp_path / "c.toml"
    to_movement(game)
    game.save()  # the file --save named (the window's Save asks for a slot: tests/campaign/test_save_slots.py)
    assert (tmp_path / "c.toml").exists()
    saved = game.session.checksum()
    game.select_force("caesar")
    game.move_to("ariminum")
    assert game.session.checksum() != saved
    game.load()
    assert game.session.checksum() == saved
    assert game.state.forces["caesar"].location == "ravenna"
    (tmp_path / "c.toml").write_text("garbage = = =")
    game.load()
    assert game.message and "c.toml" in game.message  # one sentence, the game unchanged
    assert game.session.checksum() == saved


@pytest.mark.window
def test_the_computer_plays_its_side_and_the_hud_stays_put_when_panning(view: Any, window: Any) -> None:
    game = view.game
    to_movement(game)
    game.play(A.EndPhase())
    while game.state.active == CAESAR:  # finish the Caesarian half-turn
        game.play(CampaignAI().choose(game.state))
    assert game.actor == POMPEIANS and game.ai_to_act()
    start = len(game.session.actions)
    for _ in range(400):
        if not game.ai_to_act():
            break
        view.on_update(1.0)
    assert len(game.session.actions) > start
    assert game.human_to_act() or game.battle is not None
    for _ in range(50):  # answer what the computer's play asks of us, so no dialog covers the HUD
        view.on_update(0.0)
        if view.dialog is None:
            break
        view.press(keys(view, "option")[-1])
    assert view.dialog is None
    a = render(window, view)
    view.pan(120, -40)
    b = render(window, view)
    save = next(x for x in view.buttons if x.key == "save")  # an opaque HUD button
    h = window.height
    box = (
        int(save.left) + 3,
        int(h - save.bottom - save.height) + 3,
        int(save.left + save.width) - 3,
        int(h - save.bottom) - 3,
    )
    assert a.crop(box).tobytes() == b.crop(box).tobytes()
    ground = (400, 300, 700, 500)  # while the map under it moved
    assert a.crop(ground).tobytes() != b.crop(ground).tobytes()


@pytest.mark.window
def test_menu_entry_offers_new_games_and_the_map(window: Any) -> None:
    import arcade

    from campaign.view import entry
    from campaign.view.play import CampaignView

    menu = arcade.View()
    entry.launch(window, menu)
    picker = window.current_view
    picker.selected = 1
    picker.open()
    view = window.current_view
    assert isinstance(view, CampaignView) and view.game.humans == frozenset({POMPEIANS})
    view.on_key_press(arcade.key.ESCAPE, 0)
    assert window.current_view is menu


def test_the_command_hook_builds_the_game_the_arguments_ask_for(tmp_path: Path) -> None:
    from campaign.cli import _window_launcher
    from campaign.view.play import game_from_args, launch_game

    assert _window_launcher() is launch_game
    args = argparse.Namespace(ai=None, seed=5, load=None, save=None, scenario="49bc")
    game = game_from_args(args)
    assert game.humans == frozenset({CAESAR}) and set(game.ais) == {POMPEIANS}
    assert game_from_args(argparse.Namespace(**{**vars(args), "ai": "none"})).humans == frozenset({CAESAR, POMPEIANS})
    assert game_from_args(argparse.Namespace(**{**vars(args), "ai": "both"})).humans == frozenset()
    from bellum.errors import InputError

    with pytest.raises(InputError):
        game_from_args(argparse.Namespace(**{**vars(args), "scenario": "no-such-war"}))


@pytest.mark.window
def test_the_tactical_choice_opens_the_gboh_battle_and_brings_its_losses_back(view: Any, window: Any) -> None:
    """Issue 7 item 6: the tactical engine fights the engagement (forces converted to GBoH
    counters, campaign.md §12.7); leaving it before the end breaks it off at nightfall."""
    import arcade

    from tactical.view.battle import BattleView as TacticalView
    from tactical.view.play import session_state

    game = to_battle_dialog(view)
    eng = game.battle.engagement
    press_label(view, "Fight it with the tactical engine")
    tactical = window.current_view
    assert isinstance(tactical, TacticalView)
    render(window, tactical)
    units = session_state(tactical.session).units
    assert len(units) >= len(eng.units)  # every campaign unit became one counter or more
    for _ in range(6):  # a few actions by the AI for both sides
        if not tactical.ai_step():
            break
    tactical.on_key_press(arcade.key.ESCAPE, 0)
    assert window.current_view is view
    assert view.dialog is not None and "not over" in view.dialog.title
    press_label(view, "Break it off at nightfall")
    assert game.battle is None and game.state.pending is None
    last = game.session.actions[-1]
    assert last["type"] == "commit" and last["outcome"]["engagement"] == eng.id
    assert last["outcome"]["winner"] is None  # broken off: a draw


@pytest.mark.window
def test_historical_events_pop_up_and_the_war_panel_shows_the_hands(window: Any) -> None:
    from campaign.view.play import CampaignView

    game = CampaignGame.new("49bc", 1)
    view = CampaignView(game)
    render(window, view)
    ai = CampaignAI()
    while game.state.phase == "events":
        game.play(ai.choose(game.state))
    if not game.popups:
        pytest.skip("no historical event this turn")
    title = game.popups[0][0]
    view.on_update(0.0)
    assert view.dialog is not None and view.dialog.title == title and title.startswith("Historical event")
    shot = render(window, view)
    press_label(view, "Continue")
    assert view.dialog is None or view.dialog.title != title
    lines = game.war_lines()
    assert lines[0].startswith("The Caesarians: stratagems ") and "Military" in lines[0]  # our own hand, by type
    assert "stratagems ·" in lines[1]  # the enemy's hand: only how many
    assert shot.size == (1280, 800)


@pytest.mark.window
def test_a_fleet_sails_from_the_window_and_the_sea_is_lit_blue(window: Any) -> None:
    """campaign.md §9: a voyage is chosen on the map like a march; its destinations are lit in
    blue, and the choice goes through the dialog (the enemy may intercept)."""
    from campaign.view.play import DEST_SEA, CampaignView

    game = CampaignGame.new("49bc", 1, humans=frozenset({POMPEIANS}))
    view = CampaignView(game)
    render(window, view)
    ai = CampaignAI()
    for _ in range(300):
        if game.state.phase == "movement" and game.state.active == POMPEIANS and game.state.pending is None:
            break
        game.play(ai.choose(game.state))
    game.popups.clear()
    sails = [a for a in game.legal() if isinstance(a, A.Sail)]
    assert sails, "the Senatorial fleets can put to sea"
    a = sails[0]
    game.select_force(a.force)
    view._sync_model()
    assert any(isinstance(o.action, A.Sail) for o in game.moves()[a.to])
    assert view.ring[[r.center_x for r in view.ring].index(view.geo.pos(a.to)[0])].color[:3] == DEST_SEA
    view.move_to(a.to)
    assert view.dialog is not None
    press_label(view, f"Sail to {roman_world().name(a.to)}")
    view.on_update(0.0)
    moved = game.state.forces.get(a.force)
    assert moved is None or moved.location == a.to or game.battle is not None or game.state.pending is not None
    assert any("sails" in ln or "puts to sea" in ln or "intercept" in ln for ln in game.chronicle)


@pytest.mark.window
def test_a_panning_frame_from_the_caches_equals_a_frame_drawn_afresh(view: Any, window: Any) -> None:
    """PERFORMANCE.md: while the camera pans, a frame is two copies (the world framebuffer's
    visible part, the HUD's opaque boxes from the last still frame) — and must look exactly
    like the frame drawn from scratch."""
    import arcade

    game = view.game
    to_movement(game)
    game.select_force("caesar")
    view.on_mouse_motion(5000, 5000, 0, 0)  # no tooltip
    view.hover = None
    view.zoom_at(*view.world_to_screen(*view.geo.pos("ravenna")), 2.0)
    render(window, view)
    render(window, view)  # a still frame: composed and kept
    assert view._cache_valid
    view.pan(37, -11)
    fast = render(window, view)  # moved: the caches' copies
    assert not view._cache_valid  # it was the fast path
    view._world_valid = False
    view._cache_valid = False
    view._cache_hud = None
    view._camera_key = None
    window.clear()
    view.on_draw()
    fresh = arcade.get_image(0, 0, window.width, window.height)
    a, b = fast.convert("RGB"), fresh.convert("RGB")
    h = window.height
    for left, bottom, right, top in view.hud_rects():  # the HUD: exactly the same
        box = (int(left) + 1, int(h - top) + 1, int(right) - 1, int(h - bottom) - 1)
        assert a.crop(box).tobytes() == b.crop(box).tobytes()
    # the map: the same but for anti-aliasing where a line or a name falls on a pixel edge
    assert 0 <= difference(a, b) < 0.002 * window.width * window.height


def test_bellum_campaign_without_headless_opens_the_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """``bellum campaign`` (no --headless) goes to ``campaign.view.play.launch_game`` with its
    arguments; with no display it says so in one sentence (exit 2)."""
    import campaign.view.play as play
    from bellum.cli import main

    seen: list[argparse.Namespace] = []
    monkeypatch.setattr(play, "launch_game", lambda args: seen.append(args) or 0)
    monkeypatch.delenv("ARCADE_HEADLESS", raising=False)
    assert main(["campaign", "--ai", "caesarian", "--seed", "7"]) == 0
    assert len(seen) == 1 and seen[0].ai == "caesarian" and seen[0].seed == 7
    monkeypatch.setenv("ARCADE_HEADLESS", "1")
    assert main(["campaign"]) == 2
    assert len(seen) == 1


@pytest.mark.window
def test_while_the_wheel_turns_the_last_world_is_scaled_through_the_camera(view: Any, window: Any) -> None:
    """A wheel step does not redraw the world at once: the last world framebuffer is drawn
    scaled through the camera until the wheel stops (ZOOM_SETTLE), then drawn afresh."""
    from campaign.view.mapview import ZOOM_SETTLE

    render(window, view)
    render(window, view)
    z0 = view._world_frame[2]
    sx, sy = view.world_to_screen(*view.geo.pos("roma"))
    view.on_mouse_scroll(int(sx), int(sy), 0, 2)
    preview = render(window, view)
    assert view._world_frame[2] == z0  # not redrawn yet
    assert view.camera.zoom > z0
    view.on_update(ZOOM_SETTLE + 0.05)
    fresh = render(window, view)
    assert view._world_frame[2] == pytest.approx(float(view.camera.zoom))
    # the same map under the cursor, scaled or drawn afresh (the ground's tint around Rome)
    rx, ry = view.world_to_screen(*view.geo.pos("roma"))
    a = patch(preview, view, rx - 20, ry + 20, 2)
    b = patch(fresh, view, rx - 20, ry + 20, 2)
    assert sum(near(p, q, 30) for p, q in zip(a, b, strict=True)) >= len(a) * 0.6


@pytest.mark.window
def test_hovering_a_counter_shows_its_force(view: Any, window: Any) -> None:
    game = view.game
    to_movement(game)
    render(window, view)
    x, y = counter_of(view, "caesar")
    view.on_mouse_motion(int(x), int(y), 0, 0)
    assert view.hover == "force:caesar"
    before = render(window, view)
    assert view.tooltip.text.startswith("Caesar") and "legion" in view.tooltip.text
    view.on_mouse_motion(20, window.height - 52, 0, 0)  # over the orders panel's title: no tooltip
    assert view.hover is None
    after = render(window, view)
    assert difference(before, after) > 500


def test_the_end_of_the_war_is_announced_once_and_shown_in_the_war_panel() -> None:
    """campaign.md §21: when the rules end the war (``state.result``) the window says so."""
    game = CampaignGame.new("49bc", 1)
    if not hasattr(game.state, "result"):
        pytest.skip("the rules do not end the war yet")
    game.state.result = {"winner": CAESAR, "how": "rome", "text": "Caesar is master of Rome and the world."}
    game._after([])
    game._after([])
    assert [t for t, _ in game.popups].count("The war is over") == 1
    assert game.war_lines()[-1] == "The war is over: Caesar is master of Rome and the world."


@pytest.mark.window
@pytest.mark.parametrize("least", [12, 10])
def test_a_decisive_battle_offers_the_tactical_engine_first(
    view: Any, window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, least: int
) -> None:
    """Issue 13 item 3 (campaign.md §12.8): Caesar (11 SP) at Ariminum against Domitius
    (15 SP) is not decisive at the rule's 12 SP, and is at 10; a decisive battle's dialog
    puts the tactical map first and says why."""
    from campaign.routes import is_decisive
    from campaign.tables import tables

    real = tables()
    rule = real.model_copy(update={"decisive": real.decisive.model_copy(update={"supreme_sp": least})})
    monkeypatch.setattr("campaign.routes.tables", lambda: rule)
    game = to_battle_dialog(view)
    assert view.dialog is not None and game.battle is not None
    decisive = is_decisive(game.battle.engagement)
    assert decisive == (least == 10)
    first = view.dialog.options[0][0]
    if decisive:
        assert first == "Fight it with the tactical engine"
        assert any("decisive battle" in ln for ln in view.dialog.lines)
    else:
        assert first == "Auto-resolve"
    render(window, view).save(os.environ.get("BELLUM_SHOT_DIR", str(tmp_path)) + f"/battle-dialog-{least}.png")


@pytest.mark.window
def test_a_person_takes_the_spoils_of_victory_from_a_dialog(view: Any, window: Any, tmp_path: Path) -> None:
    """campaign.md §12.4: Caesar wins at Ariminum (the battle fought elsewhere and brought
    back); the window asks him what to take his bonus stratagem as, and takes it."""
    from tests.campaign.test_ops_sequence import outcome_for

    game = to_battle_dialog(view)
    assert game.battle is not None
    eng = game.battle.engagement
    beaten = [u.id for u in eng.units if u.side == "B" and u.kind != "civis"]
    assert game.finish_battle(outcome_for(eng, "A", lose=beaten), fought="battleboard")
    view.close_dialog()  # as when the battle's own window hands back to the campaign
    view.on_update(0.0)
    p = game.state.pending
    assert p is not None and p.kind == "spoils" and p.actor == "caesarian"
    assert view.dialog is not None
    render(window, view).save(tmp_path / "spoils.png")  # docs/screens/campaign-spoils-of-victory.png
    assert {"Take a Military stratagem", "Take an Agent"} <= {lb.split(" — ")[0] for lb in labels(view)}
    agents = game.state.stratagems["caesarian"]["agent"]
    while game.state.pending is not None and game.state.pending.kind == "spoils":
        press_label(view, "Take an Agent")
        view.on_update(0.0)
    assert game.state.stratagems["caesarian"]["agent"] > agents
    assert any("spoils of victory" in ln for ln in game.chronicle)
