"""The main menu's entry for the campaign map."""

from __future__ import annotations

import arcade

from campaign.view.mapview import MapView
from campaign.view.model import PlainMapModel

LABEL = "Campaign map"
BLURB = "The Roman world in January 49 BC: provinces, roads, sea lanes and who holds what."


def launch(window: arcade.Window, menu_view: arcade.View) -> None:
    window.show_view(MapView(PlainMapModel(), menu=menu_view))
