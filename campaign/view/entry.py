"""The main menu's entry for the campaign: a new game on either side (or hotseat), the
saved game, or just the map."""

from __future__ import annotations

import arcade

from bellum.errors import InputError
from bellum.view.picker import ScenarioPicker
from campaign.state import SIDES

LABEL = "Campaign"
BLURB = "The civil war of 49 BC month by month: march, sail, besiege and fight for the Roman world."

CHOICES: tuple[tuple[str, str], ...] = (
    ("caesarian", "New campaign — you command the Caesarians"),
    ("senatorial", "New campaign — you command the Senatorials"),
    ("load", "Continue the saved campaign"),
    ("map", "The map of January 49 BC"),
)


class CampaignPicker(ScenarioPicker):
    """Enter plays against the computer, H hotseat (both sides yours), Esc goes back."""

    def __init__(self, menu: arcade.View) -> None:
        super().__init__(menu, [k for k, _ in CHOICES], [n for _, n in CHOICES], self.make_view)
        self.head.text = "The campaign  (Enter: against the computer · H: hotseat · Esc: back)"

    def make_view(self, key: str, hotseat: bool) -> arcade.View:
        from campaign.view.game import CampaignGame
        from campaign.view.mapview import MapView
        from campaign.view.play import CampaignView, default_save

        if key == "map":
            return MapView(CampaignGame.new(), menu=self.menu)
        if key == "load":
            path = default_save()
            if not path.exists():
                raise InputError(path, "", "there is no saved campaign yet (use Save in a game first)")
            game = CampaignGame.new()
            if not game.load(path):
                raise InputError(path, "", game.message)
            game.set_humans(frozenset(SIDES) if hotseat else frozenset({SIDES[0]}))
            return CampaignView(game, menu=self.menu)
        humans = frozenset(SIDES) if hotseat else frozenset({key})
        return CampaignView(CampaignGame.new(humans=humans), menu=self.menu)


def launch(window: arcade.Window, menu_view: arcade.View) -> None:
    window.show_view(CampaignPicker(menu_view))
