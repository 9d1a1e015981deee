"""Engagements and positions shared by the battleboard tests and the benchmark."""

from __future__ import annotations

from bellum.engagement import Engagement, ForceLeader, ForceUnit, SideForce

LAND_MIX = (
    "legion",
    "legion",
    "legion",
    "legion",
    "legion",
    "heavy_infantry",
    "auxiliary",
    "auxiliary",
    "cavalry",
    "light_cavalry",
    "heavy_cavalry",
    "mob",
)
DISC = ("V", "R", "R", "I", "R", "V", "R", "R", "V", "R", "V", "M")
STRENGTH = {
    "legion": 5,
    "heavy_infantry": 4,
    "auxiliary": 2,
    "cavalry": 3,
    "light_cavalry": 2,
    "heavy_cavalry": 3,
    "mob": 2,
    "fleet": 2,
    "impeditus": 1,
}


def land_engagement(per_side: int = 12, terrain: str = "field", stratagems: int = 1) -> Engagement:
    units = []
    for side in ("A", "B"):
        for i in range(per_side):
            kind = LAND_MIX[i % len(LAND_MIX)]
            units.append(
                ForceUnit(
                    id=f"{side}{i + 1}", side=side, kind=kind, discipline=DISC[i % len(DISC)], strength=STRENGTH[kind]
                )
            )
    return Engagement(
        id=f"land-{per_side}-{terrain}",
        where="Pharsalus",
        kind="land",
        terrain=terrain,
        trigger="battle",
        active="A",
        sides={
            "A": SideForce(faction="caesar", superiority_stratagems=1, battle_stratagems=stratagems),
            "B": SideForce(faction="senate", battle_stratagems=stratagems),
        },
        units=units,
        leaders=[
            ForceLeader(id="Caesar", side="A", rating=3, discipline="I", supreme=True),
            ForceLeader(id="Pompeius", side="B", rating=2, discipline="V", supreme=True),
        ],
    )


def naval_engagement(fleets: int = 6, trigger: str = "mutual") -> Engagement:
    units = []
    for side in ("A", "B"):
        for i in range(fleets):
            units.append(
                ForceUnit(id=f"{side}F{i + 1}", side=side, kind="fleet", discipline="V" if i % 2 else "R", strength=2)
            )
        for i in range(fleets):
            kind = ("legion", "auxiliary", "impeditus")[i % 3]
            units.append(ForceUnit(id=f"{side}G{i + 1}", side=side, kind=kind, discipline="R", strength=STRENGTH[kind]))
    return Engagement(
        id=f"naval-{fleets}-{trigger}",
        where="Mare Nostrum",
        kind="naval",
        terrain="sea",
        trigger=trigger,
        active="A",
        sides={"A": SideForce(faction="caesar", battle_stratagems=1), "B": SideForce(faction="senate")},
        units=units,
        leaders=[ForceLeader(id="Antonius", side="A", rating=2), ForceLeader(id="Bibulus", side="B", rating=1)],
    )
