"""The lon/lat ↔ world projection of the campaign map (campaign/projection.py)."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign.map import LAT_MAX, LAT_MIN, LON_MAX, LON_MIN, roman_world
from campaign.projection import Projection, fitted


@given(
    st.floats(min_value=LON_MIN, max_value=LON_MAX),
    st.floats(min_value=LAT_MIN, max_value=LAT_MAX),
    st.floats(min_value=20.0, max_value=50.0),
)
def test_round_trip_returns_the_position(lon: float, lat: float, lat0: float) -> None:
    proj = Projection(lon0=19.0, lat0=lat0, scale=40.0)
    back = proj.to_lonlat(*proj.to_world(lon, lat))
    assert back == pytest.approx((lon, lat), abs=1e-9)


def test_reference_point_is_the_origin_and_east_north_are_positive() -> None:
    proj = Projection(lon0=10.0, lat0=40.0, scale=50.0)
    assert proj.to_world(10.0, 40.0) == (0.0, 0.0)
    x, y = proj.to_world(11.0, 41.0)
    assert x == pytest.approx(50.0 * math.cos(math.radians(40.0)))
    assert y == pytest.approx(50.0)


def test_rome_lies_west_of_brundisium_and_places_keep_their_order() -> None:
    world = roman_world()
    proj = fitted(world.position(s) for s in world.land_spaces())
    roma = proj.to_world(*world.position("roma"))
    brundisium = proj.to_world(*world.position("brundisium"))
    alexandria = proj.to_world(*world.position("alexandria"))
    ravenna = proj.to_world(*world.position("ravenna"))
    assert roma[0] < brundisium[0]
    assert ravenna[1] > roma[1] > alexandria[1]  # north to south
    # the projection is monotone: every pair keeps its east-west and north-south order
    spaces = world.land_spaces()
    for a, b in itertools.pairwise(spaces):
        (la, pa), (lb, pb) = world.position(a), world.position(b)
        (xa, ya), (xb, yb) = proj.to_world(la, pa), proj.to_world(lb, pb)
        assert (la < lb) == (xa < xb)
        assert (pa < pb) == (ya < yb)


def test_distances_are_close_to_great_circle_near_the_reference_latitude() -> None:
    world = roman_world()
    proj = fitted(world.position(s) for s in world.land_spaces())
    (x1, y1), (x2, y2) = (proj.to_world(*world.position(p)) for p in ("roma", "brundisium"))
    km = math.hypot(x2 - x1, y2 - y1) / proj.units_per_km()
    assert km == pytest.approx(world.distance_km("roma", "brundisium"), rel=0.05)


def test_bad_projections_are_refused() -> None:
    with pytest.raises(ValueError, match="scale"):
        Projection(scale=0.0)
    with pytest.raises(ValueError, match="latitude"):
        Projection(lat0=89.0)
    with pytest.raises(ValueError):
        fitted([])
