"""From longitude/latitude to flat world coordinates, and back.

The campaign map stores every place as (longitude, latitude) in degrees
(``campaign-map.md §1``).  The window, the AI's geometric hints and the tests
want a flat plane.  We use an equirectangular projection with the longitude
compressed by ``cos(reference latitude)``: at the Mediterranean's latitude
(about 38° N) this keeps shapes and distances true to within a few per cent
across the whole map, which is all a strategic map needs, and it is its own
exact inverse.

World units: ``scale`` units per degree of latitude (so about ``scale / 111``
units per kilometre north–south); x grows eastward, y grows northward, and the
reference point (``lon0``, ``lat0``) sits at the origin.

Pure: no arcade, no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

#: world units per degree of latitude in the default projection
DEFAULT_SCALE = 40.0
#: the default reference point: the middle of the Mediterranean (Ionian Sea)
DEFAULT_LON0 = 19.0
DEFAULT_LAT0 = 38.0

KM_PER_DEGREE_LAT = 111.195


@dataclass(frozen=True, slots=True)
class Projection:
    """Equirectangular projection centred on (``lon0``, ``lat0``)."""

    lon0: float = DEFAULT_LON0
    lat0: float = DEFAULT_LAT0
    scale: float = DEFAULT_SCALE

    def __post_init__(self) -> None:
        if not (-80.0 <= self.lat0 <= 80.0):
            raise ValueError(f"the reference latitude must lie between 80° S and 80° N, not {self.lat0}")
        if not (self.scale > 0 and math.isfinite(self.scale)):
            raise ValueError(f"the scale must be a positive number, not {self.scale}")

    @property
    def kx(self) -> float:
        """World units per degree of longitude."""
        return self.scale * math.cos(math.radians(self.lat0))

    def to_world(self, lon: float, lat: float) -> tuple[float, float]:
        """(x, y) world coordinates of a longitude/latitude in degrees."""
        return (lon - self.lon0) * self.kx, (lat - self.lat0) * self.scale

    def to_lonlat(self, x: float, y: float) -> tuple[float, float]:
        """The inverse of ``to_world``: (longitude, latitude) in degrees."""
        return x / self.kx + self.lon0, y / self.scale + self.lat0

    def units_per_km(self) -> float:
        """World units per kilometre (exact north–south, close east–west near ``lat0``)."""
        return self.scale / KM_PER_DEGREE_LAT

    def bounds(
        self, positions: Iterable[tuple[float, float]], margin: float = 0.0
    ) -> tuple[float, float, float, float]:
        """(left, right, bottom, top) in world units around lon/lat ``positions``, widened by ``margin`` units."""
        xs: list[float] = []
        ys: list[float] = []
        for lon, lat in positions:
            x, y = self.to_world(lon, lat)
            xs.append(x)
            ys.append(y)
        if not xs:
            raise ValueError("bounds of no positions")
        return min(xs) - margin, max(xs) + margin, min(ys) - margin, max(ys) + margin


def fitted(positions: Iterable[tuple[float, float]], scale: float = DEFAULT_SCALE) -> Projection:
    """A projection centred on the middle of ``positions``, its longitude compressed
    by the cosine of their mean latitude."""
    pts = list(positions)
    if not pts:
        raise ValueError("cannot fit a projection to no positions")
    lons = [p[0] for p in pts]
    lats = [p[1] for p in pts]
    lon0 = (min(lons) + max(lons)) / 2
    lat0 = sum(lats) / len(lats)
    return Projection(lon0=lon0, lat0=lat0, scale=scale)
