"""The spring muster: new commanders and the consular levy (docs/rules/campaign.md
§17.7–§17.8; numbers in ``campaign/data/world.toml`` ``[muster]``).

When a side's half-turn opens in the muster month (March) of every year from the
table's first year on, before it takes its stratagems:

- **New commanders** (§17.7): a side with fewer Roman leaders in play than the table's
  ``leaders_wanted``, or with none in a levy seat, receives, free, the best leader of its
  pool who may come this year (the highest rating, then the order of the scenario's
  pool) — up to ``leaders_a_year`` of them.  He arrives at the side's mustering city
  (below) as a force of his own.
- **The levy** (§17.8): a side holding at least one levy seat — Rome or a provincial
  capital that the side holds itself (a client ally's capital is none) with no enemy
  troops in it — raises, free, ``legions_base`` legions and one more for every
  ``capitals_a_legion`` seats it holds, at most ``legions_most``, and never more than its
  builds pool allows (§5.4).  Each is a full-strength recruit legion (R) named as §17.1
  says, raised in a levy seat where a Roman leader of the side stands — with the force,
  among those, that has the fewest field SP, so the levies build up the newest army —
  else in the mustering city, leaderless.

The **mustering city** is the levy seat holding the most leaderless field SP of the
side, then Rome, then the one with the most of the side's troops, then by id.
Nothing here is rolled: the muster is the magistrates' annual work, not fortune's.
"""

from __future__ import annotations

from bellum.events import Event
from campaign.map import roman_world
from campaign.rules.clients import world_tables
from campaign.rules.common import event, leader_name, place_name
from campaign.rules.recruiting import builds_left, recruitable_leaders, safe_city, unit_name
from campaign.state import SIDE_NAMES, CampaignState
from campaign.units import Force, Unit, catalogue


def muster_due(state: CampaignState) -> bool:
    """Whether the active side's half-turn opening now is a muster (§17.7–§17.8)."""
    m = world_tables().muster
    return state.month() == m.month and state.year_bc() <= m.first_year_bc


def levy_seats(state: CampaignState, side: str) -> list[str]:
    """Rome and the provincial capitals ``side`` holds itself (not a client ally's capital:
    Rome levies in her own provinces) with no enemy troops in them."""
    return sorted(c for c in roman_world().capitals() if state.owners.get(c) == side and safe_city(state, side, c))


def _field(force: Force) -> int:
    cat = catalogue()
    return sum(u.strength for u in force.units if cat.kind(u.kind).mobile and not cat.kind(u.kind).is_fleet)


def mustering_city(state: CampaignState, side: str) -> str | None:
    """Where a new commander arrives and leaderless levies gather (§17.7): the levy seat
    with the most leaderless field SP of the side, then Rome, then the most of the side's
    troops, then by id; None when the side holds no seat."""
    seats = levy_seats(state, side)
    if not seats:
        return None

    def key(c: str) -> tuple[int, bool, int, str]:
        mine = state.side_forces_at(c, side)
        loose = sum(_field(f) for f in mine if not f.leaders)
        return (-loose, c != "roma", -sum(_field(f) for f in mine), c)

    return min(seats, key=key)


def roman_leaders(state: CampaignState, side: str) -> list[str]:
    """The Roman leaders in play with ``side``'s own forces (captives are not in play)."""
    cat = catalogue()
    return sorted(ld for f in state.forces_of(side) for ld in f.leaders if cat.leader(ld).nation == "roman")


def heirs(state: CampaignState, side: str) -> list[str]:
    """The pool's leaders who may come this year, best first (rating, then pool order)."""
    cat = catalogue()
    pool = list(state.pool.get(side, ()))
    ready = recruitable_leaders(state, side)
    return sorted(ready, key=lambda ld: (-cat.leader(ld).rating, pool.index(ld)))


def levy_size(state: CampaignState, side: str) -> int:
    """Legions the side's levy raises this spring (§17.8)."""
    m = world_tables().muster
    seats = len(levy_seats(state, side))
    n = min(m.legions_most, m.legions_base + seats // m.capitals_a_legion) if seats else 0
    left = builds_left(state, side, "legion")
    return n if left is None else min(n, left)


def spring_muster(state: CampaignState) -> list[Event]:
    """The active side's muster, if one is due (§17.7–§17.8)."""
    if not muster_due(state):
        return []
    side = state.active
    return new_commanders(state, side) + levy(state, side)


def short_of_leaders(state: CampaignState, side: str) -> bool:
    """Whether ``side`` is owed a new commander (§17.7): fewer Roman leaders in play than
    the table wants, or none in a levy seat to lead the levy."""
    m = world_tables().muster
    if len(roman_leaders(state, side)) < m.leaders_wanted:
        return True
    seats = set(levy_seats(state, side))
    cat = catalogue()
    return not any(
        f.location in seats and any(cat.leader(ld).nation == "roman" for ld in f.leaders) for f in state.forces_of(side)
    )


def new_commanders(state: CampaignState, side: str) -> list[Event]:
    """§17.7: leaders from the pool for a side short of them."""
    m = world_tables().muster
    events: list[Event] = []
    for _ in range(m.leaders_a_year):
        if not short_of_leaders(state, side):
            break
        ready = heirs(state, side)
        city = mustering_city(state, side)
        if not ready or city is None:
            break
        leader = ready[0]
        state.pool[side] = tuple(x for x in state.pool[side] if x != leader)
        fid = state.new_id(leader)
        state.forces[fid] = Force(id=fid, side=side, location=city, commander=leader, leaders=(leader,))
        events.append(
            event(
                state,
                "recruit_leader",
                f"{leader_name(leader)} is sent to take command for {SIDE_NAMES[side]} at {place_name(city)}.",
                side=side,
                leader=leader,
                place=city,
                muster=True,
            )
        )
    return events


def _levy_place(state: CampaignState, side: str) -> tuple[str, Force | None] | None:
    """Where the next levied legion is raised: the force of a Roman leader of the side in a
    levy seat with the fewest field SP (then by force id), else the mustering city."""
    cat = catalogue()
    seats = set(levy_seats(state, side))
    led = [
        f
        for f in state.forces_of(side)
        if f.side == side
        and f.location in seats
        and f.commander is not None
        and cat.leader(f.commander).nation == "roman"
    ]
    if led:
        f = min(led, key=lambda g: (_field(g), g.id))
        return f.location, f
    city = mustering_city(state, side)
    return None if city is None else (city, None)


def levy(state: CampaignState, side: str) -> list[Event]:
    """§17.8: the spring levy of legions, one for every few levy seats held."""
    spec = catalogue().kind("legion")
    assert spec.recruit is not None
    n = levy_size(state, side)
    raised: dict[str, list[str]] = {}
    gains: dict[str, int] = {}
    for _ in range(n):
        got = _levy_place(state, side)
        if got is None:
            break
        city, force = got
        uid = f"raised_legion_{state.next_id}"
        state.next_id += 1
        name = unit_name(state, side, "legion", city)
        unit = Unit(id=uid, kind="legion", discipline=spec.recruit, strength=spec.strength, nation="roman", name=name)
        if force is not None:
            state.forces[force.id] = force.model_copy(update={"units": (*force.units, unit)})
        else:
            fid = state.new_id(f"levy_{city}")
            state.forces[fid] = Force(id=fid, side=side, location=city, units=(unit,))
        raised.setdefault(city, []).append(name)
        gains[uid] = spec.strength
    if not raised:
        return []
    return [
        event(
            state,
            "recruit",
            f"The spring levy: {SIDE_NAMES[side]} raise "
            + _listing([f"{_listing(names)} at {place_name(city)}" for city, names in raised.items()])
            + ".",
            side=side,
            places=tuple(raised),
            unit_kind="legion",
            gains=gains,
            muster=True,
        )
    ]


def _listing(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
