"""Saves as players expect them and the end of the war (issue 15 items 5 and 7): named slots
and autosaves in the player's folder (``bellum.slots``, ``campaign.saveslots``), the save
dialog and the load screen (``campaign.view.loadscreen``), the end-of-war screen
(``campaign.view.victory``) — the windows driven by their input handlers, as a person would."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from bellum import slots
from bellum.errors import InputError
from bellum.saves import backup_path, read_save
from bellum.session import Session
from campaign import saveslots
from campaign.ai import CampaignAI
from campaign.engine import CampaignEngine
from campaign.rules.victory import check_victory
from campaign.view.game import CampaignGame
from tests.campaign.test_victory import give, last_turn
from tests.conftest import keep_screen, render


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The player's own folder for this test."""
    monkeypatch.setenv("BELLUM_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def played(actions: int = 12, seed: int = 3) -> Session[Any, Any]:
    """A 49 BC game with the computer's first ``actions`` choices played."""
    session: Session[Any, Any] = Session(CampaignEngine(), "49bc", seed)
    ai = CampaignAI()
    for _ in range(actions):
        session.play(ai.choose(session.state))
    return session


def ctrl(view: Any, key: int) -> None:
    import arcade

    view.on_key_press(key, arcade.key.MOD_CTRL)


def type_name(dialog: Any, name: str) -> None:
    """Clear the suggested name and type ``name``, key by key."""
    import arcade

    for _ in range(len(dialog.name)):
        dialog.on_key_press(arcade.key.BACKSPACE, 0)
    for ch in name:
        dialog.on_text(ch)


def texts(screen: Any) -> list[str]:
    screen.ensure_built()
    return [t.text for t in screen.texts]


def check_buttons_fit(screen: Any) -> None:
    """Every button's label fits inside its button."""
    screen.ensure_built()
    for b in screen.buttons:
        label = next(t for t in screen.texts if t.text == b.label and abs(t.x - (b.left + b.width / 2)) < 1)
        assert label.content_width <= b.width - 8, b.label


# --------------------------------------------------------------------------- no window


def test_slot_names_become_safe_file_names_in_the_players_folder(home: Path) -> None:
    assert slots.slug("Caesar's war, take 2") == "caesar-s-war-take-2"
    assert slots.slug("Pompée ../../etc") == "pompee-etc"
    assert slots.name_problem("   ") == "Give the save a name."
    assert "letter or digit" in slots.name_problem("?!")
    assert slots.slot_path("campaign", "My war") == home / "saves" / "campaign" / "my-war.toml"
    folder = slots.saves_folder("campaign")
    assert slots.autosave_path(folder, "49bc-0a1b2c3d", 7) == folder / "autosave" / "49bc-0a1b2c3d" / "turn-007.toml"
    with pytest.raises(InputError):
        slots.autosave_path(folder, "../elsewhere", 7)  # a card's game id never leaves the folder
    assert re.fullmatch(r"49bc-[0-9a-f]{8}", slots.new_game_id("49bc"))
    assert slots.new_game_id("49bc") != slots.new_game_id("49bc")


def test_the_card_is_read_from_the_first_lines_only_and_the_list_is_newest_first(home: Path) -> None:
    session = played()
    first = saveslots.save_slot(session, {"caesarian"}, "First")
    card = slots.read_card(first)
    assert card.meta is not None and card.problem == ""
    assert (card.meta.slot, card.meta.side, card.meta.mode) == ("First", "Caesarians", "against the computer")
    assert (card.meta.date, card.meta.turn) == (session.state.date(), session.state.turn + 1)
    # the card survives a body cut in half: only the header and the card are parsed
    whole = first.read_bytes()
    first.write_bytes(whole[: len(whole) // 2])
    assert slots.read_card(first).meta == card.meta
    second = saveslots.save_slot(session, {"caesarian", "senatorial"}, "Second")
    assert slots.list_slots("campaign")[0].name == "Second"
    assert slots.read_card(second).meta.side == "both sides"  # type: ignore[union-attr]
    assert {s.path for s in slots.list_slots("campaign")} == {first, second}
    assert not any(p.is_relative_to(Path(__file__).resolve().parents[2]) for p in (first, second))


def test_autosaves_are_bounded(home: Path) -> None:
    session = played(4)
    for turn in range(slots.AUTOSAVES_KEPT + 3):
        session.state.turn = turn  # a state only its card reads
        saveslots.autosave(session, {"caesarian"}, "49bc-00000001")
    autos = sorted(p.name for p in (home / "saves" / "campaign" / "autosave" / "49bc-00000001").glob("*.toml"))
    assert len(autos) == slots.AUTOSAVES_KEPT
    assert autos[-1] == f"turn-{slots.AUTOSAVES_KEPT + 3:03d}.toml"


def test_two_games_keep_their_own_autosaves(home: Path) -> None:
    """Two games (the same scenario and seed) autosave turns 1-3 in turn: neither writes over
    the other's, and each is listed with its own card."""
    one, two = played(4), played(4)
    for turn in range(3):
        for session, game in ((one, "49bc-0000000a"), (two, "49bc-0000000b")):
            session.state.turn = turn
            saveslots.autosave(session, {"caesarian"}, game)
    listed = [s for s in slots.list_slots("campaign") if s.autosave]
    assert len(listed) == 6
    assert {s.meta.game for s in listed if s.meta} == {"49bc-0000000a", "49bc-0000000b"}
    for game in ("49bc-0000000a", "49bc-0000000b"):
        folder = home / "saves" / "campaign" / "autosave" / game
        assert sorted(p.name for p in folder.glob("*.toml")) == ["turn-001.toml", "turn-002.toml", "turn-003.toml"]
        assert slots.read_card(folder / "turn-003.toml").meta.game == game  # type: ignore[union-attr]


def test_pruning_keeps_a_games_latest_turns_and_the_games_autosaved_last(home: Path) -> None:
    """Within a game the latest turns are kept, whatever the clock says (all written in the
    same second here, and turn 9 first); of many games, the autosaves of those autosaved last."""
    folder = slots.saves_folder("campaign")
    session = played(4)
    for turn in (8, 1, 2, 3, 4, 5, 6, 7):  # turn 9 written first: older on the clock, still kept
        session.state.turn = turn
        saveslots.autosave(session, {"caesarian"}, "49bc-00000001")
    kept = sorted(p.name for p in (folder / "autosave" / "49bc-00000001").glob("*.toml"))
    assert kept == [f"turn-{t:03d}.toml" for t in range(4, 10)]
    for n in range(2, slots.AUTOSAVE_GAMES_KEPT + 2):  # more games than are kept
        saveslots.autosave(session, {"caesarian"}, f"49bc-{n:08d}")
        game_file = folder / "autosave" / f"49bc-{n:08d}" / "turn-008.toml"
        os.utime(game_file, (1_900_000_000 + n, 1_900_000_000 + n))  # later and later
    slots.prune_autosaves(folder)
    games = sorted(p.name for p in (folder / "autosave").iterdir())
    assert len(games) == slots.AUTOSAVE_GAMES_KEPT and "49bc-00000001" not in games


def test_a_broken_save_is_one_sentence(home: Path) -> None:
    session = played()
    path = saveslots.save_slot(session, {"caesarian"}, "Broken")
    path.write_text(path.read_text().replace('type = "pass"', 'type = "no such thing"', 1))
    with pytest.raises(Exception) as caught:
        saveslots.load_slot(path)
    said = saveslots.sentence(caught.value, path)
    assert said.startswith("The save “broken.toml” cannot be loaded: ") and said.endswith(".")
    assert "\n" not in said and "Traceback" not in said


# --------------------------------------------------------------------------- the windows


@pytest.fixture
def campaign(window: Any, home: Path) -> Any:
    from campaign.view.play import CampaignView

    game = CampaignGame(played(), frozenset({"caesarian"}))
    view = CampaignView(game)
    render(window, view)
    return view


@pytest.mark.window
def test_save_to_a_named_slot_list_it_and_load_it_back(campaign: Any, window: Any, home: Path) -> None:
    import arcade

    from campaign.view.loadscreen import LoadScreen, SaveDialog
    from campaign.view.play import CampaignView

    game = campaign.game
    saved = game.session.checksum()
    saved_date, saved_turn = game.state.date(), game.state.turn + 1  # as the card is written
    ctrl(campaign, arcade.key.S)
    dialog = window.current_view
    assert isinstance(dialog, SaveDialog)
    assert dialog.name == f"Caesarians {game.state.date()}"  # the suggestion
    render(window, dialog)
    check_buttons_fit(dialog)
    type_name(dialog, "Rubicon")
    dialog.on_key_press(arcade.key.ENTER, 0)
    assert window.current_view is campaign
    path = home / "saves" / "campaign" / "rubicon.toml"
    assert path.is_file() and "Rubicon" in game.message
    assert read_state_date(path) == saved_date
    game.play(CampaignAI().choose(game.state))  # the game goes on after the save
    assert game.session.checksum() != saved
    # the load screen: the slot with its side, date in the war and turn
    ctrl(campaign, arcade.key.L)
    screen = window.current_view
    assert isinstance(screen, LoadScreen)
    shot = render(window, screen)
    check_buttons_fit(screen)
    row = screen.slots[0]
    assert row.name == "Rubicon" and row.meta is not None
    assert (row.meta.side, row.meta.date, row.meta.turn) == ("Caesarians", saved_date, saved_turn)
    shown = texts(screen)
    for word in ("Rubicon", "Caesarians", row.meta.date, str(row.meta.turn), slots.when_text(row.meta.saved_at)):
        assert word in shown
    assert shot.getpixel((window.width // 2, window.height // 2))[:3] != (0, 0, 0)
    screen.on_key_press(arcade.key.ENTER, 0)
    screen.finish()
    loaded = window.current_view
    assert isinstance(loaded, CampaignView) and loaded is not campaign
    assert loaded.game.session.checksum() == saved
    assert loaded.game.humans == frozenset({"caesarian"})
    assert loaded.game.game_id == game.game_id  # the loaded game goes on autosaving as the same game


@pytest.mark.window
def test_the_load_screen_says_loading_while_the_save_is_replayed_in_the_background(
    campaign: Any, window: Any, home: Path
) -> None:
    import arcade

    from campaign.view.loadscreen import LoadScreen
    from campaign.view.play import CampaignView

    saveslots.save_slot(campaign.game.session, {"caesarian"}, "Ilerda", campaign.game.game_id)
    screen = LoadScreen(CampaignView, menu=arcade.View())
    render(window, screen)
    screen.on_key_press(arcade.key.ENTER, 0)
    assert screen.loading() and window.current_view is screen  # nothing replayed on this thread yet
    assert "Loading “Ilerda”: the saved war is being replayed…" in texts(screen)
    assert not screen.press("load") and not screen.press("delete")  # not twice at once
    window.clear()
    screen.on_draw()  # drawn as it is while the thread replays (no on_update: nothing opened yet)
    shot = arcade.get_image(0, 0, window.width, window.height)
    keep_screen(shot, "campaign-loading.png", home)
    screen.finish()
    loaded = window.current_view
    assert isinstance(loaded, CampaignView) and loaded.game.session.checksum() == campaign.game.session.checksum()
    assert loaded.game.game_id == campaign.game.game_id


@pytest.mark.window
def test_ctrl_s_writes_the_file_named_by_save_and_the_save_button_still_asks(
    campaign: Any, window: Any, home: Path, tmp_path: Path
) -> None:
    """``bellum campaign --save F``: Ctrl+S writes F at once, with its card; Save opens the dialog."""
    import arcade

    from campaign.view.loadscreen import SaveDialog

    game = campaign.game
    game.save_path = tmp_path / "mine.toml"
    ctrl(campaign, arcade.key.S)
    assert window.current_view is campaign and game.save_path.is_file()
    card = slots.read_card(game.save_path)
    assert card.meta is not None and card.meta.game == game.game_id and card.meta.slot == "mine"
    assert game.message == f"Saved to {game.save_path}."
    campaign.refresh_hud()
    save = next(b for b in campaign.buttons if b.label == "Save")
    campaign.on_mouse_press(save.left + 5, save.bottom + 5, arcade.MOUSE_BUTTON_LEFT, 0)
    campaign.on_mouse_release(save.left + 5, save.bottom + 5, arcade.MOUSE_BUTTON_LEFT, 0)
    assert isinstance(window.current_view, SaveDialog)
    window.current_view.on_key_press(arcade.key.ESCAPE, 0)
    # a file that cannot be written: one sentence, no traceback
    (tmp_path / "a-file").write_text("")
    game.save_path = tmp_path / "a-file" / "mine.toml"
    ctrl(campaign, arcade.key.S)
    assert game.message.startswith("The save could not be written: ") and "\n" not in game.message


@pytest.mark.window
def test_an_autosave_that_fails_is_told_when_the_window_is_hidden_or_closed(
    campaign: Any, window: Any, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from campaign.view.loadscreen import autosave_tick

    game = campaign.game
    (tmp_path / "blocked").write_text("")  # a file where the player's folder should be
    monkeypatch.setenv("BELLUM_HOME", str(tmp_path / "blocked"))
    autosave_tick(game)
    game.state.turn += 1  # a new turn: its autosave is written in the background, and fails
    assert autosave_tick(game) is not None
    assert campaign.on_close() is True  # the window stays open once, saying why
    assert game.message.startswith("The autosave could not be written: ")
    assert game.message.endswith("Close the window again to quit without it.")
    assert campaign.on_close() is False  # a second close closes
    game.state.turn += 1
    assert autosave_tick(game) is not None
    game.message = ""
    window.show_view(arcade_view())  # leaving the map: the autosave is finished, its failure told
    assert game.message.startswith("The autosave could not be written: ")
    window.show_view(campaign)


def read_state_date(path: Path) -> str:
    data = read_save(path, "campaign")
    assert data.meta is not None
    return str(data.meta["date"])


@pytest.mark.window
def test_overwrite_asks_first_and_keeps_the_previous_save(campaign: Any, window: Any, home: Path) -> None:
    import arcade

    game = campaign.game
    ctrl(campaign, arcade.key.S)
    dialog = window.current_view
    type_name(dialog, "Pharsalus")
    dialog.press("save")
    path = home / "saves" / "campaign" / "pharsalus.toml"
    first = path.read_bytes()
    game.play(CampaignAI().choose(game.state))
    ctrl(campaign, arcade.key.S)
    dialog = window.current_view
    dialog.ensure_built()
    row = next(r for r in dialog.slot_rows if r[2].name == "Pharsalus")
    dialog.on_mouse_press(dialog.window.width // 2, int((row[0] + row[1]) / 2), arcade.MOUSE_BUTTON_LEFT, 0)
    assert dialog.name == "Pharsalus"  # a click on a save takes its name
    dialog.on_key_press(arcade.key.ENTER, 0)
    assert dialog.confirm is not None and window.current_view is dialog  # asked, nothing written
    assert path.read_bytes() == first
    assert any("already holds a save" in t for t in texts(dialog))
    render(window, dialog)
    check_buttons_fit(dialog)
    assert dialog.press("rename") and dialog.confirm is None and path.read_bytes() == first
    dialog.on_key_press(arcade.key.ENTER, 0)
    assert dialog.press("overwrite")
    assert window.current_view is campaign
    assert path.read_bytes() != first
    assert backup_path(path).read_bytes() == first


@pytest.mark.window
def test_an_autosave_is_written_when_a_turn_ends(campaign: Any, home: Path) -> None:
    game = campaign.game
    campaign.ai_delay = 0.0
    ai = CampaignAI()
    start = game.state.turn
    auto = home / "saves" / "campaign" / "autosave" / game.game_id / f"turn-{start + 2:03d}.toml"
    for _ in range(2000):
        if game.state.turn > start:
            break
        if campaign.dialog is not None:
            campaign.close_dialog()
        if game.human_to_act():
            game.decide(ai.choose(game.state)) if game.state.pending else game.play(ai.choose(game.state))
        campaign.on_update(1.0)
    assert game.state.turn == start + 1
    campaign.on_update(0.0)
    from campaign.view.loadscreen import wait_autosave

    wait_autosave(game)
    assert auto.is_file()
    card = slots.read_card(auto)
    assert card.autosave and card.meta is not None and card.meta.turn == start + 2
    assert card.meta.date == game.state.date()
    assert saveslots.load_slot(auto).checksum() == slots_checksum(auto)


def slots_checksum(path: Path) -> str:
    from bellum.saves import state_checksum

    return state_checksum(read_save(path, "campaign").state)


@pytest.mark.window
@pytest.mark.parametrize("damage", ["garbage", "body", "header"])
def test_a_corrupt_save_shows_one_sentence_on_the_load_screen(
    campaign: Any, window: Any, home: Path, damage: str
) -> None:
    import arcade

    from campaign.view.loadscreen import LoadScreen

    path = saveslots.save_slot(campaign.game.session, {"caesarian"}, "Damaged")
    text = path.read_text()
    if damage == "garbage":
        path.write_text("garbage = = =")
    elif damage == "body":
        path.write_text(text.replace("fratricide = 0", "fratricide = 7"))
    else:
        path.write_text(text.replace('format = "bellum-civile-save"', 'format = "something else"'))
    ctrl(campaign, arcade.key.L)
    screen = window.current_view
    assert isinstance(screen, LoadScreen)
    assert screen.press("load")
    screen.finish()
    assert window.current_view is screen
    said = screen.message
    assert said.startswith("The save “damaged.toml” cannot be loaded: ") and said.count(". ") == 0, said
    assert said in texts(screen)
    shot = render(window, screen)
    assert shot.size == (window.width, window.height)
    screen.on_key_press(arcade.key.ESCAPE, 0)
    assert window.current_view is campaign


# --------------------------------------------------------------------------- the end of the war


def finished(game: CampaignGame) -> None:
    """The war ended by the rules: the Caesarians Conquering at the end of 45 BC."""
    s = game.state
    s.res_publica = {"caesarian": 4, "senatorial": 0}
    give(s, "caesarian", 30, off_map=2)
    last_turn(s)
    s.turn += 1  # the last turn of 45 BC is over
    check_victory(s)
    assert s.result["how"] == "conquering"
    game._after([])


@pytest.mark.window
def test_the_victory_screen_shows_the_winner_and_the_condition(campaign: Any, window: Any) -> None:
    import arcade

    from campaign.view.victory import VictoryView

    game = campaign.game
    finished(game)
    campaign.on_update(0.0)
    screen = window.current_view
    assert isinstance(screen, VictoryView)
    screen.wait()
    shot = render(window, screen)
    shown = texts(screen)
    assert "The Caesarians win a Conquering victory" in shown
    assert any(t.startswith("Conquering victory: Triumphant, and at least 2 off-map regions") for t in shown)
    assert any(t.startswith("The Caesarians win a Conquering victory —") for t in shown)  # the rules' words
    assert "Turns played" in shown and "SP lost in battle" in shown
    check_buttons_fit(screen)
    # the headline in the Caesarians' red, the chart drawn in its panel
    head = next(t for t in screen.texts if t.text == "The Caesarians win a Conquering victory")
    box = (int(head.left), int(window.height - head.top), int(head.right), int(window.height - head.bottom))
    reds = sum(1 for px in shot.crop(box).getdata() if px[0] > 120 and px[1] < 70 and px[2] < 70)
    assert reds > 100
    left, bottom, right, top = screen.chart_box
    chart = shot.crop((int(left), int(window.height - top), int(right), int(window.height - bottom)))
    assert len(set(chart.getdata())) > 20
    screen.on_key_press(arcade.key.ESCAPE, 0)
    assert window.current_view is campaign and campaign.dialog is None  # no second "war is over"
    campaign.on_update(0.0)
    assert window.current_view is campaign  # shown once; V shows it again
    campaign.on_key_press(arcade.key.V, 0)
    assert isinstance(window.current_view, VictoryView)


@pytest.mark.window
def test_a_finished_war_is_listed_as_over_and_its_end_opens_from_the_load_screen(window: Any, home: Path) -> None:
    """A whole war, the computer on both sides (seed 1 ends in January 44 BC), saved to a slot:
    the load screen marks it and opens its end-of-war screen, counted by the load's replay."""
    from campaign.view.loadscreen import LoadScreen
    from campaign.view.play import CampaignView
    from campaign.view.victory import VictoryView

    session: Session[Any, Any] = Session(CampaignEngine(), "49bc", 1)
    ai = CampaignAI()
    while not session.state.result and session.state.turn < 48:
        session.play(ai.choose(session.state))
    assert session.state.result
    saveslots.save_slot(session, set(), "The whole war")
    menu = arcade_view()
    screen = LoadScreen(CampaignView, menu=menu)
    render(window, screen)
    assert screen.slots[0].meta is not None and screen.slots[0].meta.over
    assert "war over" in texts(screen)
    assert screen.press("victory")
    screen.finish()
    end = window.current_view
    assert isinstance(end, VictoryView)
    assert len(end.stats.months) == session.state.turn + 1  # every turn's end, and the last as it stands
    assert end.stats.months[0].date == "January 49 BC"
    render(window, end)
    end.wait()  # the chart, drawn off the main thread, then shown
    shot = render(window, end)
    assert end.chart_problem == ""
    keep_screen(shot, "campaign-victory.png", home.parent)
    assert end.press("back") and window.current_view is screen
    assert screen.press("back") and window.current_view is menu


def arcade_view() -> Any:
    import arcade

    return arcade.View()


@pytest.mark.window
def test_the_menu_and_the_save_button_open_the_load_screen_and_the_save_dialog(
    campaign: Any, window: Any, home: Path
) -> None:
    import arcade

    from campaign.view import entry
    from campaign.view.loadscreen import LoadScreen, SaveDialog

    menu = arcade.View()
    entry.launch(window, menu)
    picker = window.current_view
    picker.selected = [k for k, _ in entry.CHOICES].index("load")
    picker.open()
    screen = window.current_view
    assert isinstance(screen, LoadScreen) and screen.slots == []
    assert "No campaign has been saved yet" in " ".join(texts(screen))
    screen.on_key_press(arcade.key.ESCAPE, 0)
    assert window.current_view is picker
    window.show_view(campaign)
    campaign.refresh_hud()
    save = next(b for b in campaign.buttons if b.label == "Save")
    campaign.on_mouse_press(save.left + 5, save.bottom + 5, arcade.MOUSE_BUTTON_LEFT, 0)
    campaign.on_mouse_release(save.left + 5, save.bottom + 5, arcade.MOUSE_BUTTON_LEFT, 0)
    assert isinstance(window.current_view, SaveDialog)
    window.current_view.on_key_press(arcade.key.ESCAPE, 0)
    assert window.current_view is campaign


@pytest.mark.window
def test_a_loaded_slot_can_be_undone_like_the_game_it_saved(window: Any, home: Path) -> None:
    """Caesar marches to Ariminum by road (no die), the game is saved to a slot and loaded back:
    Ctrl+Z takes the march back in the loaded game as it would have in the saved one."""
    import arcade

    from campaign.view.loadscreen import LoadScreen
    from campaign.view.play import CampaignView
    from tests.campaign.test_window_play import to_movement

    game = CampaignGame.new("49bc", 1)
    to_movement(game)
    game.select_force("caesar")
    game.move_to("ariminum")
    assert game.state.forces["caesar"].location == "ariminum" and game.can_undo()
    view = CampaignView(game)
    render(window, view)
    ctrl(view, arcade.key.S)
    window.current_view.press("save")
    ctrl(view, arcade.key.L)
    screen = window.current_view
    assert isinstance(screen, LoadScreen)
    screen.press("load")
    screen.finish()
    loaded = window.current_view
    assert isinstance(loaded, CampaignView) and loaded.game.session.checksum() == game.session.checksum()
    ctrl(loaded, arcade.key.Z)
    assert loaded.game.state.forces["caesar"].location == "ravenna"


def test_saves_damaged_anywhere_are_refused_with_a_sentence_or_load_unchanged(home: Path) -> None:
    """Forty saves with bytes changed at random places (seeded): each loads as the same game
    (a change the checks cannot see, e.g. in the card) or is one ``InputError`` sentence."""
    import random

    from bellum.errors import InputError

    session = played(20)
    path = saveslots.save_slot(session, {"caesarian"}, "Fuzzed")
    good = path.read_bytes()
    rng = random.Random(15)
    refused = 0
    for _ in range(40):
        data = bytearray(good)
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(len(data))] = rng.choice(b'0123456789abcxyz"=[]{}. \n')
        path.write_bytes(bytes(data))
        slots.read_card(path)  # a card damaged or not: never an exception
        try:
            loaded = saveslots.load_slot(path)
        except InputError as no:
            refused += 1
            said = saveslots.sentence(no, path)
            assert said.startswith("The save “fuzzed.toml” cannot be loaded: ") and "\n" not in said
        else:
            assert loaded.checksum() == session.checksum()
    assert refused > 20


@pytest.mark.window
def test_a_game_of_a_scenario_file_reloads_in_its_window_and_is_refused_with_a_sentence_elsewhere(
    window: Any, home: Path, tmp_path: Path
) -> None:
    """A save may not name a scenario file by itself (docs/RELIABILITY.md): the window playing
    that file loads its slots from it; the menu's load screen says why it cannot."""
    import arcade

    from campaign.view.loadscreen import LoadScreen
    from campaign.view.play import CampaignView
    from tests.conftest import ROOT

    mine = tmp_path / "my-49bc.toml"
    mine.write_text((ROOT / "scenarios" / "campaign" / "49bc.toml").read_text())
    game = CampaignGame(Session(CampaignEngine(), str(mine), 2), frozenset({"caesarian"}))
    view = CampaignView(game)
    render(window, view)
    saveslots.save_slot(game.session, game.humans, "My own war")
    ctrl(view, arcade.key.L)
    screen = window.current_view
    screen.press("load")
    screen.finish()
    assert isinstance(window.current_view, CampaignView) and window.current_view is not view
    elsewhere = LoadScreen(CampaignView, menu=arcade.View())
    render(window, elsewhere)
    elsewhere.press("load")
    elsewhere.finish()
    assert window.current_view is elsewhere
    assert "outside the scenario folders" in elsewhere.message


@pytest.mark.window
def test_a_save_is_deleted_from_the_load_screen_only_when_confirmed(window: Any, home: Path) -> None:
    import arcade

    from campaign.view.loadscreen import LoadScreen
    from campaign.view.play import CampaignView

    session = played(6)
    keep = saveslots.save_slot(session, {"caesarian"}, "Keep")
    gone = saveslots.save_slot(session, {"caesarian"}, "Gone")
    saveslots.save_slot(session, {"caesarian"}, "Gone")  # and its .bak
    screen = LoadScreen(CampaignView, menu=arcade.View())
    render(window, screen)
    assert screen.slots[0].name == "Gone"
    screen.on_key_press(arcade.key.DELETE, 0)
    assert any(t.startswith("Delete “Gone”") for t in texts(screen))
    check_buttons_fit(screen)
    screen.on_key_press(arcade.key.ESCAPE, 0)  # kept
    assert gone.exists() and window.current_view is screen
    assert screen.press("delete") and screen.press("confirm-delete")
    assert not gone.exists() and not backup_path(gone).exists() and keep.exists()
    assert [s.name for s in screen.slots] == ["Keep"]
    render(window, screen)
    check_buttons_fit(screen)
