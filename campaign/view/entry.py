"""The main menu's entry for the campaign: a new game on either side (or hotseat), the
saved game, or just the map."""

from __future__ import annotations

import arcade

from bellum.view.picker import ScenarioPicker
from campaign.state import SIDES

LABEL = "Campaign"
BLURB = "The civil war of 49 BC month by month: march, sail, besiege and fight for the Roman world."

CHOICES: tuple[tuple[str, str], ...] = (
    ("caesarian", "New campaign — you command the Caesarians"),
    ("senatorial", "New campaign — you command the Senatorials"),
    ("load", "Load a saved campaign"),
    ("map", "The map of January 49 BC"),
)


class CampaignPicker(ScenarioPicker):
    """Enter plays against the computer, H hotseat (both sides yours), Esc goes back."""

    def __init__(self, menu: arcade.View) -> None:
        super().__init__(menu, [k for k, _ in CHOICES], [n for _, n in CHOICES], self.make_view)
        self.head.text = "The campaign  (Enter: against the computer · H: hotseat · Esc: back)"

    def make_view(self, key: str, hotseat: bool) -> arcade.View:
        from campaign.view.game import CampaignGame
        from campaign.view.loadscreen import LoadScreen
        from campaign.view.mapview import MapView
        from campaign.view.play import CampaignView

        if key == "map":
            return MapView(CampaignGame.new(), menu=self.menu)
        if key == "load":  # every save in the player's folder (issue 15 item 5)
            return LoadScreen(CampaignView, back=self, menu=self.menu)
        humans = frozenset(SIDES) if hotseat else frozenset({key})
        return CampaignView(CampaignGame.new(humans=humans), menu=self.menu)


def launch(window: arcade.Window, menu_view: arcade.View) -> None:
    window.show_view(CampaignPicker(menu_view))
