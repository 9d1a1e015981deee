"""The campaign map for a wargamer (issue 15): counters told apart by their symbols, names
that never overlap, the stack card, the minimap and the enemy's turn played back — driven
through the window's input handlers and checked on real screenshots."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from campaign.map import roman_world
from campaign.view.labels import overlaps
from campaign.view.model import ForceMarker
from campaign.view.stacks import SYMBOLS
from tests.conftest import render

pytestmark = pytest.mark.window


class Forces:
    """A bare map of January 49 BC (a ``MapModel``) with one force of each kind, each in its
    own place."""

    PLACES = ("roma", "capua", "brundisium", "tarentum", "ancona", "ravenna", "genua")

    def __init__(self) -> None:
        self.world = roman_world()
        self.selected: str | None = None

    def date_label(self) -> str:
        return "January 49 BC"

    def turn_label(self) -> str:
        return "Turn 1"

    def phase_label(self) -> str:
        return "The map"

    def owners(self) -> Mapping[str, str]:
        return {s.id: s.owner for s in self.world.data.space}

    def forces(self) -> Sequence[ForceMarker]:
        return tuple(
            ForceMarker(f"f{i}", place, "caesarian", "", "", leader=False, symbol=sym)
            for i, (place, sym) in enumerate(zip(self.PLACES, SYMBOLS, strict=True))
        )

    def select(self, place: str | None) -> None:
        self.selected = place


def _game_view(window: Any) -> Any:
    from campaign.ai import CampaignAI
    from campaign.view.game import CampaignGame
    from campaign.view.play import CampaignView

    game = CampaignGame.new("49bc", 1)
    ai = CampaignAI()
    for _ in range(60):
        if game.state.phase == "movement":
            break
        game.play(ai.choose(game.state))
    game.popups.clear()
    view = CampaignView(game)
    render(window, view)
    return view


def test_each_kind_of_force_has_its_own_symbol(window: Any) -> None:
    from campaign.view.mapview import MapView

    view = MapView(Forces())
    render(window, view)
    view.zoom_at(*view.world_to_screen(*view.geo.pos("roma")), 3.0)
    img = render(window, view).convert("RGB")
    crops = []
    for sprite in view.force_sprites:
        x, y = view.world_to_screen(sprite.center_x, sprite.center_y)
        top = window.height - y
        crops.append(img.crop((int(x) - 10, int(top) - 8, int(x) + 10, int(top) + 8)))
    assert len(crops) == len(SYMBOLS)
    for (i, a), (j, b) in itertools.combinations(enumerate(crops), 2):
        diff = sum(
            abs(p - q) for pa, pb in zip(a.getdata(), b.getdata(), strict=True) for p, q in zip(pa, pb, strict=True)
        )
        assert diff > 20 * 255, (SYMBOLS[i], SYMBOLS[j])  # at least ~20 pixels told apart


def test_no_two_names_overlap_at_three_zooms(window: Any) -> None:
    view = _game_view(window)
    for factor in (1.0, 2.2, 4.5):
        view.fit()
        view.zoom_at(*view.world_to_screen(*view.geo.pos("alexandria")), factor)
        render(window, view)
        boxes = view.label_boxes()
        assert len(boxes) > 40
        clash = [(a[0], b[0]) for a, b in itertools.combinations(boxes, 2) if overlaps(a[1], b[1])]
        assert clash == [], (factor, clash[:5])
        shown = {t for t, _ in boxes}
        if factor == 1.0:  # the names of issue 15's pile-up are there, apart (or hidden by priority)
            assert "Alexandria" in shown and "Neapolis" in shown


def test_hovering_a_stack_shows_its_card(window: Any) -> None:
    view = _game_view(window)
    view.zoom_at(*view.world_to_screen(*view.geo.pos("ravenna")), 2.5)
    render(window, view)
    i = next(k for k, (place, _) in enumerate(view._force_slots) if place == "ravenna")
    sprite = view.force_sprites[i]
    x, y = view.world_to_screen(sprite.center_x, sprite.center_y)
    view.on_mouse_motion(int(x), int(y), 0, 0)
    img = render(window, view).convert("RGB")
    assert view.hover_stack == "ravenna"
    texts = [t.text for t in view.card.texts]
    assert any("Caesar" in t for t in texts) and any("Legion" in t for t in texts) and any("SP" in t for t in texts)
    left, bottom, right, _ = view.card.rect
    cx, cy = int((left + right) / 2), window.height - int(bottom + 4)
    assert img.getpixel((cx, cy))[0] > 230  # the card's paper under the cursor


def test_a_click_on_the_minimap_moves_the_camera(window: Any) -> None:
    view = _game_view(window)
    view.zoom_at(640, 400, 3.0)
    render(window, view)
    x0, y0, x1, y1 = view.minimap.rect()
    target = view.geo.pos("alexandria")
    mx, my = view.minimap.to_screen(*target)
    assert x0 < mx < x1 and y0 < my < y1
    view.on_mouse_press(int(mx), int(my), 1, 0)
    view.on_mouse_release(int(mx), int(my), 1, 0)
    cx, cy = view.camera.position
    assert abs(cx - target[0]) < 15 and abs(cy - target[1]) < 15
    # the viewport's rectangle on the minimap is drawn around the new place
    r = view.minimap.view_rect()
    assert r[0] < mx < r[2] and r[1] < my < r[3]
    view.on_key_press(__import__("arcade").key.M, 0)
    assert not view.minimap.hit(mx, my)


def test_the_minimap_shows_the_forces_in_their_sides_ink(window: Any) -> None:
    from campaign.view.palette import OWNER_INK

    view = _game_view(window)
    img = render(window, view).convert("RGB")

    def ink_at(place: str) -> tuple[int, int, int]:
        mx, my = view.minimap.to_screen(*view.geo.pos(place))
        return img.getpixel((int(mx), window.height - int(my)))  # type: ignore[no-any-return]

    places = {f.place for f in view.model.forces()}
    assert "ravenna" in places and "vesontio" not in places
    assert ink_at("ravenna") == OWNER_INK["caesarian"]  # Caesar's army and the garrison
    assert ink_at("vesontio") not in OWNER_INK.values()  # no force there: the ground only


def test_the_enemy_turn_is_played_back_step_by_step(window: Any) -> None:
    from campaign.ai import CampaignAI
    from campaign.view.game import CampaignGame
    from campaign.view.play import CampaignView

    game = CampaignGame.new("49bc", 1, humans=frozenset())
    ai = CampaignAI()
    while not (game.state.turn == 1 and game.state.active == "caesarian"):
        game.play(ai.choose(game.state))
    game.set_humans(frozenset({"caesarian"}))
    game.popups.clear()
    view = CampaignView(game)
    before = render(window, view).convert("RGB")
    enemy = view.enemy
    assert enemy.shown and enemy.playback is not None and enemy.playback.side == "senatorial"
    assert len(enemy.playback.steps) >= 3 and enemy.index == 0
    nxt = enemy.buttons["next"]
    view.on_mouse_press(int(nxt[0] + 5), int(nxt[1] + 5), 1, 0)
    view.on_mouse_release(int(nxt[0] + 5), int(nxt[1] + 5), 1, 0)
    assert enemy.index == 1
    after = render(window, view).convert("RGB")
    assert before.tobytes() != after.tobytes()
    step = enemy.current()
    assert step is not None and any(step.text in t.text for t in enemy.texts)
    assert any(t.text.startswith("What changed:") for t in enemy.texts)
    back = enemy.buttons["back"]
    view.on_mouse_press(int(back[0] + 5), int(back[1] + 5), 1, 0)
    assert enemy.index == 0
    enemy.toggle_play()
    for _ in range(5):
        view.on_update(0.5)
    assert enemy.index == 2
    close = enemy.buttons["close"]
    view.on_mouse_press(int(close[0] + 5), int(close[1] + 5), 1, 0)
    assert not enemy.shown
    # the keys: V shows it again from its first step, N steps on
    import arcade

    view.on_key_press(arcade.key.V, 0)
    assert enemy.shown and enemy.index == 0
    view.on_key_press(arcade.key.N, 0)
    assert enemy.index == 1
    view.on_key_press(arcade.key.X, 0)
    assert not enemy.shown
