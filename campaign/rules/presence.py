"""Who is where: the campaign's shared queries of the map and of the forces on it —
land links, enemy troops, hordes on the move, spaces closed by a power at peace
(docs/rules/campaign.md §8.3, §19.4).  They decide nothing and change nothing; marches,
battles, supply and naval movement all ask them, so they sit below every rules module.
"""

from __future__ import annotations

from functools import cache

from campaign.map import LAND_EDGE_KINDS, Link, roman_world
from campaign.state import CampaignState, enemy
from campaign.units import Force, catalogue


@cache
def land_links(place: str) -> tuple[Link, ...]:
    """The land edges (road, cross-country, strait) out of a place, sorted by neighbour."""
    return tuple(roman_world().links(place, LAND_EDGE_KINDS))


def has_ground_troops(force: Force) -> bool:
    cat = catalogue()
    return any(not cat.kind(u.kind).is_fleet for u in force.units)


def enemy_troops_at(state: CampaignState, side: str, place: str) -> bool:
    """Whether the enemy of ``side`` has units (of any kind) in ``place``."""
    foe = enemy(side)
    return any(f.units for f in state.side_forces_at(place, foe))


def horde_at(state: CampaignState, place: str) -> str | None:
    """The force id of a barbarian horde on the move in ``place``, if any (§19.4)."""
    for fid in state.roused:
        f = state.forces.get(fid)
        if f is not None and f.location == place and f.units:
            return fid
    return None


def blocked(state: CampaignState, side: str, place: str) -> bool:
    """A space a force of ``side`` may not enter: a power at peace with it has a force
    there (a neutral city, a client not in the war, a horde still waiting beyond the
    frontier) — §8.3.  A horde on the move does not block: it may be attacked (§19.4)."""
    return any(
        f.location == place and f.units and state.allegiance(f.side) is None and f.id not in state.roused
        for f in state.forces.values()
    )
