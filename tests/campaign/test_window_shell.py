"""The campaign window's shell (issue 15 items 2, 4, 6 and 8): undo a person can trust, the
panels that collapse, dock and remember their state, the map's share of the window, buttons
whose words fit, help on F1 with the rules searchable by section, a window that relays out
when resized — driven headless through the view's input handlers and checked in real
screenshots."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from campaign import actions as A
from campaign.ai import CampaignAI
from campaign.view.game import CampaignGame
from tests.conftest import render

CAESAR, POMPEIANS = "caesarian", "senatorial"


def to_phase(game: CampaignGame, phase: str) -> None:
    """Play with the computer's choices until the person's side is to act in ``phase``."""
    ai = CampaignAI()
    for _ in range(300):
        if game.human_to_act() and game.state.phase == phase and game.state.pending is None:
            game.popups.clear()
            return
        game.play(ai.choose(game.state))
    raise AssertionError(f"the {phase} phase was not reached")


# --------------------------------------------------------------------------- undo, no window


def test_taking_a_stratagem_can_be_taken_back_at_once() -> None:
    game = CampaignGame.new(seed=1)
    to_phase(game, "stratagems")
    takes = [a for a in game.legal() if isinstance(a, A.Take)]
    assert takes, "the stratagems phase offers stratagems to take"
    before = game.session.checksum()
    game.play(takes[0])
    assert game.can_undo(), game.undo_refusal()
    assert game.undo()
    assert game.session.checksum() == before


def test_ending_a_phase_that_rolls_no_die_can_be_taken_back() -> None:
    game = CampaignGame.new(seed=1)
    to_phase(game, "stratagems")
    before = game.session.checksum()
    game.play(A.Pass())
    if game.human_to_act():  # still this side's decision (the Res Publica phase)
        assert game.undo(), game.message
        assert game.session.checksum() == before


def test_a_rolled_die_is_named_in_the_sentence_and_the_step_stays() -> None:
    game = CampaignGame.new(seed=1)
    to_phase(game, "res_publica")
    plays = [a for a in game.legal() if isinstance(a, A.Politics)]
    assert plays
    game.play(plays[0])
    why = game.undo_refusal()
    assert why.startswith("A die was rolled") and "never taken back" in why
    after = game.session.checksum()
    assert not game.undo() and game.message == why
    assert game.session.checksum() == after


def test_once_the_decision_has_passed_to_the_enemy_the_step_stands() -> None:
    from campaign.engine import CampaignEngine

    game = CampaignGame.new(seed=1)
    to_phase(game, "stratagems")
    before = game.state
    after = before.copy()
    after.active = POMPEIANS  # the other side decides now (it has moved, or is asked)
    why = CampaignEngine().undo_refusal(before, after)
    assert why == (
        "The decision has passed to the Senatorials: what the Caesarians did before it cannot be taken back."
    )
    assert CampaignEngine().undo_refusal(before, before.copy()) == ""
    game.set_humans(frozenset({POMPEIANS}))  # the Caesarians' turn, the computer's side now
    assert game.undo_refusal() == "It is not your decision now."


# --------------------------------------------------------------------------- the window


def shell_view(window: Any, phase: str = "stratagems", humans: frozenset[str] = frozenset({CAESAR})) -> Any:
    """A fresh window on a game where the person's side is to act in ``phase``."""
    from campaign.view.play import CampaignView

    game = CampaignGame.new(seed=1, humans=humans)
    to_phase(game, phase)
    view = CampaignView(game)
    render(window, view)
    return view


@pytest.fixture(autouse=True)
def own_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test its own player's folder: the panels' settings start from the defaults."""
    monkeypatch.setenv("BELLUM_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def click(view: Any, x: float, y: float) -> None:
    import arcade

    view.on_mouse_press(x, y, arcade.MOUSE_BUTTON_LEFT, 0)
    view.on_mouse_release(x, y, arcade.MOUSE_BUTTON_LEFT, 0)


def click_button(view: Any, key: str) -> None:
    """A click in the middle of the button ``key`` (as a person would)."""
    view.refresh_hud()
    b = next((b for b in view.buttons if b.key == key), None)
    assert b is not None, f"no button {key!r} among {[x.key for x in view.buttons]}"
    click(view, b.left + b.width / 2, b.bottom + b.height / 2)


def button(view: Any, start: str) -> Any:
    view.refresh_hud()
    hit = [b for b in view.buttons if b.label.startswith(start)]
    assert hit, f"no button {start!r} among {[b.label for b in view.buttons]}"
    return hit[0]


def panel_pixels(image: Any) -> float:
    """The share of a screenshot painted in the panels' own colours (their parchment, the
    top bar, the buttons)."""
    from campaign.view.palette import BG_TOP, PARCHMENT
    from campaign.view.play import BUTTON, BUTTON_OFF

    colours = {PARCHMENT, BG_TOP, BUTTON[:3], BUTTON_OFF[:3]}
    rgb = image.convert("RGB")
    counts = rgb.getcolors(maxcolors=1 << 20)
    inside = sum(n for n, c in counts if c in colours)
    return float(inside) / (rgb.width * rgb.height)


def texts_fit(view: Any) -> list[str]:
    """The buttons whose label's text box does not fit inside the button."""
    bad = []
    for b in view.buttons:
        t = view.button_texts[b.key]
        left, right = t.x - t.content_width / 2, t.x + t.content_width / 2
        top, bottom = t.y, t.y - t.content_height
        if left < b.left or right > b.left + b.width or top > b.bottom + b.height or bottom < b.bottom:
            bad.append(f"{b.key}: {b.label!r}")
    return bad


@pytest.mark.window
def test_the_map_has_four_fifths_of_a_1280x800_window(window: Any, own_settings: Path) -> None:
    assert (window.width, window.height) == (1280, 800)
    for phase in ("stratagems", "res_publica"):
        view = shell_view(window, phase)
        share = view.map_share()
        assert share >= 0.80, f"{phase}: the map shows {share:.1%} of the window"
        shot = render(window, view)
        assert panel_pixels(shot) <= 1 - 0.80, f"{phase}: {panel_pixels(shot):.1%} painted as panels"
        shot.save(own_settings.parent / f"campaign-{phase}.png")  # docs/screens/campaign-1280.png


@pytest.mark.window
def test_the_chronicle_leaves_egypt_and_syria_to_the_map(window: Any) -> None:
    view = shell_view(window, "res_publica")
    for place in ("alexandria", "antiochia", "hierosolyma"):
        x, y = view.world_to_screen(*view.geo.pos(place))
        assert not view.on_panel(x, y), f"{place} is under a panel at ({x:.0f}, {y:.0f})"


@pytest.mark.window
def test_every_buttons_words_fit_it_and_every_button_has_a_tooltip(window: Any) -> None:
    view = shell_view(window, "res_publica")
    politics = button(view, "Play a Political stratagem on the Populares")
    assert politics.height > 24  # the long label wraps onto two lines instead of being cut
    assert not texts_fit(view), texts_fit(view)
    assert all(b.tip for b in view.buttons)
    view.on_mouse_motion(politics.left + 10, politics.bottom + 5, 0, 0)
    assert "Political stratagem" in view.describe(view.hover) and "%" in view.describe(view.hover)
    view.on_key_press(__import__("arcade").key.F1, 0)  # the help's buttons too
    view.refresh_hud()
    assert not texts_fit(view), texts_fit(view)
    assert all(b.tip for b in view.buttons)


@pytest.mark.window
def test_recruiting_at_a_place_shows_what_it_costs(window: Any) -> None:
    view = shell_view(window, "recruiting")
    game = view.game
    places = sorted(game.action_places())
    assert places
    game.select(places[0])
    game.version += 1
    view.refresh_hud()
    here = [b for b in view.buttons if b.key.startswith("here")]
    assert here
    options = game.place_options(places[0])
    assert all("costs 1" in o.detail for o in options if isinstance(o.action, A.Recruit))
    assert any("stratagem" in b.tip for b in here)
    assert not texts_fit(view), texts_fit(view)


@pytest.mark.window
def test_a_long_list_of_choices_is_paged_and_every_choice_reachable(window: Any, monkeypatch: Any) -> None:
    view = shell_view(window, "stratagems")
    monkeypatch.setattr(view, "_rows", lambda: 2)
    view._hud_key = None
    want = [o.label for o in view.game.phase_options()]
    assert len(want) > 2
    seen: list[str] = []
    for _ in range(5):
        view.refresh_hud()
        seen += [b.label for b in view.buttons if b.key.startswith("phase:")]
        nxt = next(b for b in view.buttons if b.key == "page:phase:1")
        if not nxt.enabled:
            break
        click_button(view, "page:phase:1")
    assert seen == want
    first = next(b for b in view.buttons if b.key.startswith("phase:"))  # the wheel turns back
    view.on_mouse_scroll(first.left + 5, first.bottom + 5, 0, 1)
    view.refresh_hud()
    assert view.pages["phase"] == 0 or view.pages["phase"] < len(want) // 2


@pytest.mark.window
def test_f1_opens_the_help_and_its_search_finds_a_rules_section(window: Any, own_settings: Path) -> None:
    import arcade

    view = shell_view(window, "res_publica")
    before = render(window, view)
    view.on_key_press(arcade.key.F1, 0)
    assert view.help_open
    click_button(view, "help:tab:sequence")
    view.refresh_hud()
    texts = [t.text for t in view._play_texts]
    assert any(t.startswith("▶ ") and "Res Publica" in t for t in texts), "the phase now is marked"
    click_button(view, "help:tab:rules")
    view.on_text("sea supply")
    view.refresh_hud()
    hits = [b for b in view.buttons if b.key.startswith("help:section:")]
    assert hits and "§10.2" in hits[0].label, [b.label for b in hits[:3]]
    click_button(view, hits[0].key)
    view.refresh_hud()
    assert any(t.text.startswith("campaign.md §10.2") for t in view._play_texts)
    shot = render(window, view)
    assert shot.tobytes() != before.tobytes()
    shot.save(own_settings.parent / "help.png")  # docs/screens/campaign-help.png
    view.on_key_press(arcade.key.BACKSPACE, 0)
    assert view.help_query == "sea suppl"
    view.on_key_press(arcade.key.F1, 0)
    assert not view.help_open


@pytest.mark.window
def test_a_panel_folds_docks_and_is_remembered(window: Any, own_settings: Path) -> None:
    from campaign.view.play import HEADER_H, CampaignView

    view = shell_view(window)
    _, bottom, _, top = view.panel_at["chronicle"]
    assert top - bottom > HEADER_H + 20  # open by default, with its lines
    click_button(view, "fold:chronicle")
    view.refresh_hud()
    _, bottom, _, top = view.panel_at["chronicle"]
    assert top - bottom == HEADER_H
    click_button(view, "dock:war")
    view.refresh_hud()
    assert view.panel_at["war"][0] < 100  # on the left now, under the orders
    assert view.panel_at["war"][3] < view.panel_at["orders"][1]
    saved = own_settings / "settings" / "campaign-window.toml"
    assert 'dock = "left"' in saved.read_text()
    again = CampaignView(view.game)  # a new window: the same panels
    render(window, again)
    assert again.panel_at["chronicle"][3] - again.panel_at["chronicle"][1] == HEADER_H
    assert again.panel_at["war"][0] < 100
    click_button(again, "fold:chronicle")
    assert not again.settings.panel("chronicle").collapsed


@pytest.mark.window
def test_a_damaged_settings_file_gives_the_defaults_and_a_sentence(window: Any, own_settings: Path) -> None:
    (own_settings / "settings").mkdir(parents=True)
    (own_settings / "settings" / "campaign-window.toml").write_text("panels = 3\n")
    view = shell_view(window)
    assert "settings were not read" in view.game.message
    assert not view.settings.panel("orders").collapsed


@pytest.mark.window
def test_undo_right_after_taking_a_stratagem_in_the_window(window: Any) -> None:
    view = shell_view(window, "stratagems")
    game = view.game
    before = game.session.checksum()
    click_button(view, button(view, "Take a Military").key)
    assert game.session.checksum() != before
    view.refresh_hud()
    undo = next(b for b in view.buttons if b.key == "undo")
    assert undo.enabled, undo.tip
    click_button(view, "undo")
    assert game.session.checksum() == before


@pytest.mark.window
def test_a_rolled_die_gives_its_sentence_in_a_fixed_place_and_no_button_moves(window: Any, own_settings: Path) -> None:
    view = shell_view(window, "res_publica")
    game = view.game
    click_button(view, button(view, "Play a Political stratagem on the Populares").key)
    view.on_update(0.0)
    while view.dialog is not None:  # the Tribune's veto or news: answered
        view.press([b.key for b in view.buttons if b.key.startswith("option")][-1])
    view.refresh_hud()
    where = {b.key: (b.left, b.bottom) for b in view.buttons}
    undo = next(b for b in view.buttons if b.key == "undo")
    assert not undo.enabled and "A die was rolled" in undo.tip
    click_button(view, "undo")  # a disabled Undo says why, where messages go
    assert game.message.startswith("A die was rolled") and "never taken back" in game.message
    view.refresh_hud()
    assert {b.key: (b.left, b.bottom) for b in view.buttons if b.key in where} == where
    assert view.message_rect is not None and view.message_rect[1] < 20
    shot = render(window, view)
    shot.save(own_settings.parent / "undo.png")  # docs/screens/campaign-undo-refused.png
    click_button(view, "dismiss")
    assert not game.message


@pytest.mark.window
def test_a_resized_window_relays_out_everything(window: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A headless window keeps its framebuffer's size, so the new size is given to the view as
    the window would report it after a person drags its corner; the layout is then read from
    the panels' rectangles (the 1920×1080 screenshot is rendered in a window of that size)."""
    from campaign.view.play import RIGHT_W

    view = shell_view(window, "res_publica")
    size = {"w": 1280, "h": 800}
    monkeypatch.setattr(type(window), "width", property(lambda _: size["w"]))
    monkeypatch.setattr(type(window), "height", property(lambda _: size["h"]))
    for w, h in ((1920, 1080), (1024, 700), (1280, 800)):
        size.update(w=w, h=h)
        view.on_resize(w, h)
        view.refresh_hud()
        assert view.panel_at["chronicle"][2] == pytest.approx(w - 8)
        assert view.panel_at["chronicle"][0] == pytest.approx(w - 8 - RIGHT_W)
        assert view.panel_at["orders"][3] == pytest.approx(h - 38 - 8)
        assert view.hud_texts["date"].x == pytest.approx(w - 14)  # the map's own bar too
        assert not texts_fit(view)
        assert view.map_share() >= (0.85 if w == 1920 else 0.70), (w, h, view.map_share())
    monkeypatch.undo()
    view.on_resize(1280, 800)
    render(window, view)


@pytest.mark.parametrize(
    "content",
    [
        b"panels = 3\n",
        b'[panels.orders]\ncollapsed = "yes"\n',
        b'[panels.orders]\ndock = "top"\n',
        b"\x00\xff\xfe not toml at all",
        b"[panels]\n" + b"x" * 3_000_000,
        b"[[[[",
        b"unknown = 1\n",
    ],
)
def test_a_hostile_settings_file_gives_the_defaults_and_one_sentence(tmp_path: Path, content: bytes) -> None:
    from campaign.view.panels import WindowSettings, load_settings

    path = tmp_path / "campaign-window.toml"
    path.write_bytes(content)
    settings, problem = load_settings(path)
    assert settings == WindowSettings()
    assert problem.startswith("The window's settings were not read (") and "\n" not in problem
    assert str(path) in problem


def test_settings_round_trip_through_the_file(tmp_path: Path) -> None:
    from campaign.view.panels import load_settings, save_settings

    settings, _ = load_settings(tmp_path / "none.toml")
    settings.panel("war").dock = "left"
    settings.panel("chronicle").collapsed = True
    path = save_settings(settings, tmp_path / "deep" / "campaign-window.toml")
    again, problem = load_settings(path)
    assert not problem and again == settings


def test_the_help_reads_every_rules_document_through_game_data() -> None:
    from bellum.paths import game_data
    from campaign.view.help import RULES_DOCS, rule_sections, search

    for name, _ in RULES_DOCS:
        assert game_data("rules", name).is_file(), name
    docs = {s.doc for s in rule_sections()}
    assert docs == {name for name, _ in RULES_DOCS}
    assert search(rule_sections(), "MARCH table")[0].cite() == "campaign.md §8.2"
    assert search(rule_sections(), "no such words anywhere zzz") == []


def _answer_dialogs(view: Any) -> None:
    """Each dialog answered with its first choice that can be taken (a click on it); the
    computer's side played meanwhile."""
    for _ in range(200):
        view.on_update(1.0)
        if view.dialog is None and not view.game.ai_to_act():
            return
        if view.dialog is not None:
            view.refresh_hud()
            first = next(b for b in view.buttons if b.key.startswith("option") and b.enabled)
            click_button(view, first.key)
    raise AssertionError("the dialogs did not end")


def _click_label(view: Any, start: str) -> bool:
    view.refresh_hud()
    hit = [b for b in view.buttons if b.label.startswith(start) and b.enabled and b.key.startswith(("phase", "here"))]
    if not hit:
        return False
    click_button(view, hit[0].key)
    _answer_dialogs(view)
    return True


def _march_somewhere(view: Any, fid: str) -> None:
    """Click the force's counter, then the first place lit for it (a dialog asks if risky)."""
    game = view.game
    if fid not in game.state.forces:
        return
    view.fit()
    x, y = view.world_to_screen(*view.geo.pos(game.state.forces[fid].location))
    view.zoom_at(x, y, 2.5)  # close enough that places and counters stand apart
    view.pan(view.window.width / 2 - x, view.window.height / 2 - y)
    sprite = view.force_sprites[view._force_ids.index(fid)]
    click(view, *view.world_to_screen(sprite.center_x, sprite.center_y))
    assert game.selected_force == fid
    spots = [view.world_to_screen(*view.geo.pos(p)) for p in sorted(game.moves()) if p in view.geo.positions]
    spots = [
        xy
        for xy in spots
        if not view.on_panel(*xy) and view.force_at(*xy) is None and view.place_at(*xy) in game.moves()
    ]
    if spots:
        before = game.state.forces[fid].location
        click(view, *spots[0])
        _answer_dialogs(view)
        assert fid not in game.state.forces or game.state.forces[fid].location != before or game.message


def _sail_somewhere(view: Any) -> bool:
    """Click a force that may put to sea, then a place its ships are lit for (a voyage goes
    through the dialog: the enemy may intercept); False when no force of the side can sail."""
    game = view.game
    sails = [a for a in game.legal() if isinstance(a, A.Sail)]
    if not sails:
        return False
    fid = sails[0].force
    view.fit()
    x, y = view.world_to_screen(*view.geo.pos(game.state.forces[fid].location))
    view.zoom_at(x, y, 2.5)
    view.pan(view.window.width / 2 - x, view.window.height / 2 - y)
    sprite = view.force_sprites[view._force_ids.index(fid)]
    click(view, *view.world_to_screen(sprite.center_x, sprite.center_y))
    assert game.selected_force == fid
    voyages = [p for p, opts in game.moves().items() if any(isinstance(o.action, A.Sail) for o in opts)]
    spots = [view.world_to_screen(*view.geo.pos(p)) for p in sorted(voyages) if p in view.geo.positions]
    spots = [
        xy for xy in spots if not view.on_panel(*xy) and view.force_at(*xy) is None and view.place_at(*xy) in voyages
    ]
    if not spots:
        return False
    before = game.state.forces[fid].location
    click(view, *spots[0])
    _answer_dialogs(view)
    moved = game.state.forces.get(fid)
    assert moved is None or moved.location != before or game.message
    return True


@pytest.mark.window
@pytest.mark.parametrize(("side", "leader"), [(CAESAR, "caesar"), (POMPEIANS, "pompeius")])
def test_a_whole_turn_for_each_side_played_by_clicks(window: Any, side: str, leader: str) -> None:
    """A person plays a whole half-turn of ``side`` with the mouse only — stratagems, the Res
    Publica, recruiting, a march, combat, supply — the computer the other; then undo and the
    buttons' words are checked once more at the end."""
    from campaign.view.play import CampaignView

    game = CampaignGame.new(seed=1, humans=frozenset({side}))
    view = CampaignView(game)
    render(window, view)
    _answer_dialogs(view)
    turn = game.state.turn
    played: list[str] = []
    for _ in range(80):
        if game.state.turn != turn and game.human_to_act():
            break
        phase = game.state.phase
        if not game.human_to_act():
            _answer_dialogs(view)
            continue
        if phase == "stratagems" and _click_label(view, "Take a Military"):
            played.append("stratagem")
        elif phase == "res_publica" and "politics" not in played and _click_label(view, "Play a Political"):
            played.append("politics")
        elif phase == "recruiting" and not any(p.startswith("recruit") for p in played) and game.action_places():
            view.fit()
            spots = [view.world_to_screen(*view.geo.pos(p)) for p in sorted(game.action_places())]
            click(view, *next(xy for xy in spots if not view.on_panel(*xy)))
            if _click_label(view, "Raise"):
                played.append("recruit")
            else:
                played.append("recruit-none")
        elif phase == "movement" and "march" not in played:
            _march_somewhere(view, leader)
            played.append("march")
        elif phase == "movement" and not any(p.startswith("sail") for p in played):
            played.append("sail" if _sail_somewhere(view) else "sail-none")
        elif not any(_click_label(view, word) for word in ("Pass", "End", "Resolve supply", "Attack")):
            raise AssertionError(f"nothing to click in the {phase} phase: {[b.label for b in view.buttons]}")
        view.refresh_hud()
        assert not texts_fit(view), texts_fit(view)
    assert game.state.turn != turn, (
        f"the turn did not end ({game.state.phase}, {played}, {game.message}, {[b.label for b in view.buttons]})"
    )
    assert {"stratagem", "politics", "march"} <= set(played), played
    # the Senate's ships put to sea in its first turn; the Caesarians have none yet (49bc)
    assert ("sail" in played) == (side == POMPEIANS), played
    assert any(p.startswith("recruit") for p in played)
    render(window, view)
