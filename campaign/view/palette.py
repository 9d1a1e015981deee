"""The campaign map's colours (the main menu's palette, extended for the map).

Caesarians red, Senatorials purple, client states tan, neutral grey; sea in two
blues; the unknown country beyond the spaces in parchment.  Pure data: no arcade.
"""

from __future__ import annotations

from typing import Literal

from campaign.map import CampaignMap

Color = tuple[int, int, int]
OwnerKind = Literal["caesarian", "senatorial", "client", "neutral"]

# the main menu's palette (bellum/view/menu.py)
GOLD: Color = (222, 184, 96)
PARCHMENT: Color = (236, 222, 190)
INK: Color = (48, 30, 24)
PURPLE: Color = (104, 40, 86)
RED: Color = (150, 32, 36)
BG_TOP: Color = (52, 18, 30)
BG_BOTTOM: Color = (22, 10, 16)

# the ground
PAPER: Color = (226, 214, 184)
PAPER_DARK: Color = (206, 192, 158)
SEA_DEEP: Color = (104, 142, 164)
SEA_SHALLOW: Color = (150, 184, 194)
COAST_INK: Color = (58, 72, 78)

#: the land tint of a space by who holds it
OWNER_FILL: dict[OwnerKind, Color] = {
    "caesarian": (222, 158, 134),
    "senatorial": (190, 166, 200),
    "client": (218, 198, 146),
    "neutral": (200, 198, 186),
}
#: the ink of the same (borders, markers, counters)
OWNER_INK: dict[OwnerKind, Color] = {
    "caesarian": RED,
    "senatorial": PURPLE,
    "client": (146, 110, 52),
    "neutral": (104, 102, 96),
}

TERRAIN_INK: dict[str, Color] = {
    "mountains": (104, 78, 56),
    "hills": (132, 104, 72),
    "forest": (70, 100, 62),
    "marsh": (70, 110, 112),
    "desert": (150, 116, 70),
    "clear": (0, 0, 0),
}

ROAD_NAMED: Color = (120, 40, 28)
ROAD: Color = (150, 84, 52)
CROSS_COUNTRY: Color = (112, 96, 78)
STRAIT: Color = (40, 70, 120)
SEA_LANE: Color = (226, 238, 240)
RIVER: Color = (64, 110, 160)
PROVINCE_BORDER: Color = (92, 62, 50)
SPACE_BORDER: Color = (120, 100, 80)
SEA_BORDER: Color = (214, 230, 236)
SEA_LABEL: Color = (30, 58, 86)
LABEL_INK: Color = (40, 26, 20)
HALO: Color = (246, 238, 214)
SELECT: Color = (255, 214, 64)
#: the colour at the centre of every city marker (tests look for it on screen)
CITY_CENTRE: Color = (252, 248, 236)


def owner_kind(world: CampaignMap, owner: str) -> OwnerKind:
    """Which colour family an owner id belongs to (a side by its id, else by the owner's kind)."""
    if owner in ("caesarian", "senatorial"):
        return "caesarian" if owner == "caesarian" else "senatorial"
    found = world.owners.get(owner)
    if found is not None and found.kind == "client":
        return "client"
    return "neutral"


#: the colour of a selected place's links, by kind
LINK_INK: dict[str, Color] = {
    "road": (176, 40, 24),
    "cross_country": (120, 84, 40),
    "strait": (30, 70, 170),
    "sea_lane": (20, 90, 160),
}
