"""A bare map model for the map window's tests and benchmarks: January 49 BC, the owners of
the map file, no forces (the game's own model is ``campaign.view.game.CampaignGame``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from campaign.map import CampaignMap, roman_world
from campaign.view.model import ForceMarker


class BareMap:
    """The bare map: January 49 BC, the owners of the map file, no forces."""

    def __init__(self, world: CampaignMap | None = None) -> None:
        self.world = world or roman_world()
        self.selected: str | None = None

    def date_label(self) -> str:
        return "January 49 BC"

    def turn_label(self) -> str:
        return "Turn —"

    def phase_label(self) -> str:
        return "The map"

    def owners(self) -> Mapping[str, str]:
        return {s.id: s.owner for s in self.world.data.space}

    def forces(self) -> Sequence[ForceMarker]:
        return ()

    def select(self, place: str | None) -> None:
        if place is not None and place not in self.world:
            raise KeyError(f"there is no place called {place!r} on the map")
        self.selected = place
