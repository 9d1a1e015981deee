"""The campaign window's map: its geometry (pure) and the view, driven headless with real
screenshots (the ``window`` fixture)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from campaign.map import roman_world
from campaign.view.geometry import Site as GeoSite
from campaign.view.geometry import roman_world_geometry, voronoi_cells
from campaign.view.model import ForceMarker, MapModel
from campaign.view.palette import CITY_CENTRE, OWNER_FILL, OWNER_INK, SEA_DEEP, SEA_SHALLOW, Color
from tests.campaign.bare_map import BareMap
from tests.conftest import ROOT, render

# --------------------------------------------------------------------------- helpers


def near(c: tuple[int, ...], want: Color, tol: int = 14) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(c[:3], want, strict=True))


def count_near(image: Image.Image, want: Color, tol: int = 14) -> int:
    colors = image.convert("RGB").getcolors(maxcolors=1 << 20) or []
    return sum(n for n, c in colors if near(c, want, tol))


def screen_pixel(image: Image.Image, view: Any, sx: float, sy: float) -> tuple[int, int, int]:
    r, g, b = image.convert("RGB").getpixel((round(sx), round(view.window.height - sy)))
    return r, g, b


def patch(image: Image.Image, view: Any, sx: float, sy: float, r: int = 3) -> list[tuple[int, int, int]]:
    return [screen_pixel(image, view, sx + dx, sy + dy) for dx in range(-r, r + 1) for dy in range(-r, r + 1)]


def difference(a: Image.Image, b: Image.Image) -> int:
    """How many pixels differ between two screenshots."""
    pa, pb = a.convert("RGB").tobytes(), b.convert("RGB").tobytes()
    return sum(1 for i in range(0, len(pa), 3) if pa[i : i + 3] != pb[i : i + 3])


class ArmyModel(BareMap):
    """A model as the rules engine will provide it: forces and a changed owner."""

    def __init__(self) -> None:
        super().__init__()
        self.changed: dict[str, str] = {}
        self.army: list[ForceMarker] = []

    def date_label(self) -> str:
        return "March 49 BC"

    def turn_label(self) -> str:
        return "Turn 2"

    def phase_label(self) -> str:
        return "Caesar · movement"

    def owners(self) -> Mapping[str, str]:
        return {**super().owners(), **self.changed}

    def forces(self) -> Sequence[ForceMarker]:
        return tuple(self.army)


def new_view(model: MapModel | None = None) -> Any:
    from campaign.view.mapview import MapView

    return MapView(model or BareMap())


# --------------------------------------------------------------------------- geometry (no window)


def test_every_land_space_is_land_and_every_sea_zone_sea() -> None:
    world = roman_world()
    geo = roman_world_geometry()
    for place in world.land_spaces():
        assert geo.place_at(*geo.pos(place)) == place, place
    for zone in world.sea_zones():
        assert geo.place_at(*geo.pos(zone)) == zone, zone


def test_the_water_just_off_a_port_is_sea_and_belongs_to_its_zone() -> None:
    world = roman_world()
    geo = roman_world_geometry()
    checked = 0
    for port in world.ports():
        if port not in world.land_spaces():
            continue
        zone = world.seas_of(port)[0]
        (px, py), (zx, zy) = geo.pos(port), geo.pos(zone)
        d = ((zx - px) ** 2 + (zy - py) ** 2) ** 0.5
        t = min(0.5, 0.5 * geo.projection.scale / d)  # about half a degree out to sea
        place = geo.place_at(px + t * (zx - px), py + t * (zy - py))
        if place in world.seas:
            checked += 1
    # a port in a narrow bay may have a neighbour's land in the way; nearly all do not
    assert checked >= 0.85 * len([p for p in world.ports() if p in world.land_spaces()])


def test_province_borders_separate_provinces_and_far_country_is_left_blank() -> None:
    geo = roman_world_geometry()
    kinds = {b.kind for b in geo.borders}
    assert {"province", "space", "sea_zone", "coast"} <= kinds
    # deep in the Sahara and far out in the Atlantic no space reaches: terra incognita
    assert geo.place_at(*geo.projection.to_world(10.0, 24.0)) is None
    assert geo.place_at(*geo.projection.to_world(-11.5, 50.0)) is None
    # Rome is in Italia, Alexandria in Egypt: the province under the point is right
    assert geo.place_at(*geo.projection.to_world(12.6, 41.8)) in roman_world().in_province("italia")


def test_voronoi_cells_split_the_plane_between_two_sites() -> None:
    sites = [GeoSite(0, 0, "land", "a", 10, True), GeoSite(10, 0, "sea", "b", 10, True)]
    cells = voronoi_cells(sites)
    assert max(x for x, _ in cells[0].polygon) == pytest.approx(5.0)
    assert min(x for x, _ in cells[1].polygon) == pytest.approx(5.0)
    assert 1 in cells[0].across and 0 in cells[1].across


def test_model_and_geometry_do_not_import_arcade() -> None:
    code = (
        "import sys, campaign.view.model, campaign.view.geometry, campaign.projection; print('arcade' in sys.modules)"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert r.stdout.strip() == "False"


def test_plain_model_is_a_map_model_with_no_forces() -> None:
    model = BareMap()
    assert isinstance(model, MapModel)
    assert model.forces() == ()
    assert model.owners()["roma"] == "senatorial"
    with pytest.raises(KeyError, match="no place"):
        model.select("atlantis")


# --------------------------------------------------------------------------- the window


@pytest.fixture
def arcade_mod(window: Any) -> Any:
    """arcade, imported after the ``window`` fixture has set up headless rendering."""
    import arcade

    return arcade


@pytest.mark.window
def test_the_map_shows_land_sea_and_rome(window: Any) -> None:
    view = new_view()
    image = render(window, view)
    assert len(image.convert("RGB").getcolors(maxcolors=1 << 20) or []) > 500
    assert count_near(image, SEA_DEEP) + count_near(image, SEA_SHALLOW) > 50_000
    assert count_near(image, OWNER_FILL["senatorial"]) > 20_000
    assert count_near(image, OWNER_FILL["caesarian"]) > 10_000
    assert count_near(image, OWNER_FILL["client"]) > 5_000
    sx, sy = view.world_to_screen(*view.geo.pos("roma"))
    assert 0 < sx < window.width and 0 < sy < window.height
    assert any(near(c, CITY_CENTRE, 24) for c in patch(image, view, sx, sy))
    assert any(near(c, OWNER_INK["senatorial"], 30) for c in patch(image, view, sx, sy))


@pytest.mark.window
def test_world_to_screen_agrees_with_the_camera(window: Any) -> None:
    view = new_view()
    render(window, view)
    view.zoom_at(400, 300, 2.0)
    for place in ("roma", "alexandria", "mare_ionium"):
        x, y = view.geo.pos(place)
        px, py = view.camera.project((x, y))
        assert view.world_to_screen(x, y) == pytest.approx((px, py), abs=0.01)
        assert view.screen_to_world(px, py) == pytest.approx((x, y), abs=0.01)


@pytest.mark.window
def test_clicking_rome_selects_it_and_shows_its_links(window: Any, arcade_mod: Any) -> None:
    arcade = arcade_mod
    view = new_view()
    before = render(window, view)
    sx, sy = view.world_to_screen(*view.geo.pos("roma"))
    view.on_mouse_press(int(sx), int(sy), arcade.MOUSE_BUTTON_LEFT, 0)
    view.on_mouse_release(int(sx), int(sy), arcade.MOUSE_BUTTON_LEFT, 0)
    assert view.model.selected == "roma"
    after = render(window, view)
    assert difference(before, after) > 2000
    panel = view.panel.text
    assert panel.startswith("Roma")
    assert "Capua: road (Via Appia) · cost 1" in panel
    assert len(view.overlay_labels) == len(roman_world().links("roma"))  # one cost per link
    # Escape clears the selection
    view.on_key_press(arcade.key.ESCAPE, 0)
    assert view.model.selected is None


@pytest.mark.window
def test_a_drag_pans_and_does_not_select(window: Any, arcade_mod: Any) -> None:
    arcade = arcade_mod
    view = new_view()
    render(window, view)
    view.zoom_at(640, 400, 2.0)
    before = tuple(view.camera.position)
    view.on_mouse_press(600, 400, arcade.MOUSE_BUTTON_LEFT, 0)
    view.on_mouse_drag(640, 420, 40, 20, arcade.MOUSE_BUTTON_LEFT, 0)
    view.on_mouse_release(640, 420, arcade.MOUSE_BUTTON_LEFT, 0)
    assert view.model.selected is None
    assert view.camera.position[0] == pytest.approx(before[0] - 40 / view.camera.zoom)
    assert view.camera.position[1] == pytest.approx(before[1] - 20 / view.camera.zoom)


@pytest.mark.window
def test_clicks_on_sea_and_on_an_off_map_box_select_them(window: Any) -> None:
    view = new_view()
    render(window, view)
    view.click(*view.world_to_screen(*view.geo.pos("mare_ionium")))
    assert view.model.selected == "mare_ionium"
    assert "Sea zone" in view.panel.text
    view.click(*view.world_to_screen(*view.geo.pos("parthia")))
    assert view.model.selected == "parthia"
    assert "Ctesiphon" in view.panel.text
    # the deep Sahara is nobody's: a click there clears the selection
    view.click(*view.world_to_screen(*view.geo.projection.to_world(10.0, 24.0)))
    assert view.model.selected is None


@pytest.mark.window
def test_wheel_zooms_on_the_cursor_within_limits(window: Any, arcade_mod: Any) -> None:
    arcade = arcade_mod
    view = new_view()
    before = render(window, view)
    z0 = view.camera.zoom
    sx, sy = view.world_to_screen(*view.geo.pos("brundisium"))
    view.on_mouse_scroll(int(sx), int(sy), 0, 3)
    assert view.camera.zoom > z0 * 1.5
    # the point under the cursor stays under the cursor
    assert view.world_to_screen(*view.geo.pos("brundisium")) == pytest.approx((int(sx), int(sy)), abs=1.5)
    after = render(window, view)
    assert difference(before, after) > 100_000
    for _ in range(40):
        view.on_mouse_scroll(int(sx), int(sy), 0, 4)
    assert view.camera.zoom == pytest.approx(view.fit_zoom() * 7.0)
    for _ in range(40):
        view.on_mouse_scroll(int(sx), int(sy), 0, -4)
    assert view.camera.zoom == pytest.approx(view.fit_zoom() * 0.8)
    view.on_key_press(arcade.key.HOME, 0)
    assert view.camera.zoom == pytest.approx(view.fit_zoom())


@pytest.mark.window
def test_zooming_in_shows_more_names(window: Any) -> None:
    view = new_view()
    render(window, view)
    shown = sum(1 for lab in view.labels if lab.text.visible)
    view.zoom_at(*view.world_to_screen(*view.geo.pos("capua")), 3.5)
    render(window, view)
    names = {lab.text.text for lab in view.labels if lab.text.visible}
    assert "Capua" in names and "Corfinium" in names
    assert "Capua" not in {lab.text.text for lab in view.labels if lab.tier == 0}
    assert shown > 30


@pytest.mark.window
def test_arrow_keys_pan_and_stay_inside_the_map(window: Any, arcade_mod: Any) -> None:
    arcade = arcade_mod
    view = new_view()
    render(window, view)
    x0 = view.camera.position[0]
    view.on_key_press(arcade.key.RIGHT, 0)
    view.on_update(0.1)
    assert view.camera.position[0] > x0
    for _ in range(200):
        view.on_update(0.1)
    view.on_key_release(arcade.key.RIGHT, 0)
    assert view.camera.position[0] == pytest.approx(view.bounds[1])


@pytest.mark.window
def test_hover_shows_a_tooltip(window: Any) -> None:
    view = new_view()
    before = render(window, view)
    sx, sy = view.world_to_screen(*view.geo.pos("corfinium"))
    view.on_mouse_motion(int(sx), int(sy), 0, 0)
    assert view.hover == "corfinium"
    after = render(window, view)
    assert "Italia" in view.tooltip.text and "Held by: Senatorials" in view.tooltip.text
    assert difference(before, after) > 1500


@pytest.mark.window
def test_forces_and_owners_from_the_model_are_drawn(window: Any) -> None:
    model = ArmyModel()
    view = new_view(model)
    before = render(window, view)
    assert view.hud_texts["date"].text.startswith("March 49 BC")
    model.army = [ForceMarker("caesar", "ariminum", "caesarian", "Caesar", "1 L")]
    model.changed = {"ariminum": "caesarian", "roma": "caesarian"}
    after = render(window, view)
    assert len(view.force_sprites) == 1
    counter = view.force_sprites[0]
    cx, cy = view.world_to_screen(counter.center_x, counter.center_y)
    assert any(near(c, OWNER_INK["caesarian"], 30) for c in patch(after, view, cx, cy, 6))
    assert any(lab.text.text == "Caesar 1 L" and lab.text.visible for lab in view.force_labels)
    # Rome's area turned Caesarian: the ground was rebuilt with the new owner's tint
    rx, ry = view.world_to_screen(*view.geo.pos("roma"))
    area = patch(after, view, rx - 14, ry + 14, 3)
    assert any(near(c, OWNER_FILL["caesarian"], 12) for c in area)
    assert not any(near(c, OWNER_FILL["caesarian"], 12) for c in patch(before, view, rx - 14, ry + 14, 3))


@pytest.mark.window
def test_menu_entry_opens_the_map_and_escape_returns(window: Any, arcade_mod: Any) -> None:
    arcade = arcade_mod
    from campaign.view import entry
    from campaign.view.mapview import MapView

    assert entry.LABEL and entry.BLURB
    menu = arcade.View()
    entry.launch(window, menu)
    picker = window.current_view
    picker.selected = [k for k, _ in entry.CHOICES].index("map")
    picker.open()
    view = window.current_view
    assert isinstance(view, MapView)
    view.on_key_press(arcade.key.ESCAPE, 0)
    assert window.current_view is menu


def test_bellum_shot_campaign_writes_the_map(tmp_path: Path) -> None:
    out = tmp_path / "campaign.png"
    r = subprocess.run(
        [sys.executable, "-m", "bellum", "shot", "campaign", "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=180,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    image = Image.open(out)
    assert image.size == (1280, 800)
    assert count_near(image, SEA_DEEP) > 20_000
    assert count_near(image, OWNER_FILL["senatorial"]) > 10_000


@pytest.mark.window
def test_the_scale_bar_matches_distances_on_the_map(window: Any) -> None:
    view = new_view()
    render(window, view)
    for factor in (1.0, 3.0):
        view.zoom_at(640, 400, factor)
        km, length = view.scale_bar()
        assert 70 <= length <= 180
        (ax, ay), (bx, by) = (view.world_to_screen(*view.geo.pos(p)) for p in ("roma", "brundisium"))
        px_per_km = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5 / roman_world().distance_km("roma", "brundisium")
        assert length / km == pytest.approx(px_per_km, rel=0.05)
