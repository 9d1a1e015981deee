"""Client states and barbarian hordes (docs/rules/campaign.md §19), and the loader of the
wider world's tables (``campaign/data/world.toml``).

A client state (Egypt, Judea, Numidia, Pontus, Parthia; reference: sides and units) is
neutral or at war on a side (``state.clients``).  At war, its cities count as its ally's
and its forces are played by its ally (§7.5).  It enters the war by tribute (a Political
stratagem, campaign.md §17) or by the Historical Events table (§20), and it may change
sides: when its event comes while its ally has lost the place it watches, it may defect
(design, after Egypt and Judea going over to Caesar after Pharsalus).  A barbarian horde
is placed by the scenario beyond the frontier; its event sets it moving (004: "a
barbarian horde appeared on the Danube but was attritioned away in winter").
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path
from typing import Literal

import networkx as nx
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from bellum.dice import Dice
from bellum.events import Event
from bellum.paths import game_data
from bellum.tomlio import load_model
from campaign.map import roman_world
from campaign.rules.common import event, inflict, leader_name, loss_text, place_name, set_strengths, tidy
from campaign.scenario import BARBARIAN
from campaign.state import SIDE_NAMES, SIDES, CampaignState, enemy
from campaign.tables import tables
from campaign.units import Force, Unit, catalogue

WORLD_FILE = game_data("campaign", "data", "world.toml")

EventKind = Literal["quiet", "horde", "client", "revolt", "justice", "reforms", "wavering"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ClientSpec(_Model):
    id: str = Field(max_length=40)
    capital: str = Field(max_length=40)
    patron: Literal["", "caesarian", "senatorial"]
    loyalty: int = Field(ge=0, le=10)
    watch: str = Field(max_length=40)
    waver: int = Field(ge=0, le=10)
    levy: int = Field(ge=0, le=10)


class HordeSpec(_Model):
    id: str = Field(max_length=40)
    force: str = Field(max_length=40)
    name: str = Field(min_length=1, max_length=80)
    home: str = Field(max_length=40)


class HordeClash(_Model):
    odds_even: int = Field(ge=-5, le=5)
    odds_double: int = Field(ge=-5, le=5)
    odds_half: int = Field(ge=-5, le=5)
    veterans: int = Field(ge=-5, le=5)
    leader: int = Field(ge=-5, le=5)
    sack_cost: int = Field(ge=0, le=5)
    horde_loss: tuple[int, ...] = Field(min_length=10, max_length=10)
    defender_loss: tuple[int, ...] = Field(min_length=10, max_length=10)

    @field_validator("horde_loss", "defender_loss")
    @classmethod
    def _percent(cls, v: tuple[int, ...]) -> tuple[int, ...]:
        if any(not 0 <= x <= 100 for x in v):
            raise ValueError("a loss is a percentage from 0 to 100")
        return v


class EventEntry(_Model):
    roll: int = Field(ge=2, le=12)
    kind: EventKind
    title: str = Field(min_length=1, max_length=80)
    target: str = Field(default="", max_length=40)
    options: tuple[str, ...] = Field(default=(), max_length=12)

    @model_validator(mode="after")
    def _complete(self) -> EventEntry:
        if self.kind == "horde" and not self.target:
            raise ValueError(f"the horde result on {self.roll} must name its horde (target)")
        if self.kind in ("client", "revolt", "justice", "wavering") and not self.options:
            raise ValueError(f"the {self.kind} result on {self.roll} needs its options")
        return self


class EventsTable(_Model):
    revolt_max: int = Field(ge=1, le=50)
    wavering_max: int = Field(ge=1, le=10)
    entry: tuple[EventEntry, ...] = Field(min_length=11, max_length=11)

    @field_validator("entry")
    @classmethod
    def _every_roll(cls, v: tuple[EventEntry, ...]) -> tuple[EventEntry, ...]:
        if sorted(e.roll for e in v) != list(range(2, 13)):
            raise ValueError("the events table needs exactly one result for each roll of 2d6 (2 to 12)")
        return v

    def result(self, roll: int) -> EventEntry:
        return next(e for e in self.entry if e.roll == roll)


class Victory(_Model):
    last_year_bc: int = Field(ge=1, le=100)
    other_cities: int = Field(ge=0, le=500)
    off_map: int = Field(ge=0, le=20)
    colonies: int = Field(ge=0, le=50)
    caesar_markers: int = Field(ge=0, le=20)
    senate_markers: int = Field(ge=0, le=20)
    senate_caesar_max: int = Field(ge=0, le=20)
    fratricide_limit: int = Field(ge=1, le=10000)


class Muster(_Model):
    """The spring muster: new commanders and the levy (campaign.md §17.7–§17.8)."""

    month: str
    first_year_bc: int = Field(ge=1, le=100)
    leaders_wanted: int = Field(ge=0, le=30)
    leaders_a_year: int = Field(ge=0, le=10)
    legions_base: int = Field(ge=0, le=10)
    capitals_a_legion: int = Field(ge=1, le=30)
    legions_most: int = Field(ge=0, le=10)


class World(_Model):
    clients: tuple[ClientSpec, ...] = Field(min_length=1, max_length=20)
    hordes: tuple[HordeSpec, ...] = Field(default=(), max_length=20)
    horde_clash: HordeClash
    events: EventsTable
    victory: Victory
    muster: Muster

    @model_validator(mode="after")
    def _on_the_map(self) -> World:
        cmap = roman_world()
        months = [t.month for t in tables().calendar.turns]
        if self.muster.month not in months:
            raise ValueError(
                f"the muster month '{self.muster.month}' is not a month of the calendar ({', '.join(months)})"
            )
        client_ids = {o.id for o in cmap.data.owner if o.kind == "client"}
        for c in self.clients:
            if c.id not in client_ids:
                raise ValueError(f"'{c.id}' is not a client state of the map")
            for place in (c.capital, c.watch):
                if place not in cmap.spaces:
                    raise ValueError(f"client '{c.id}' names '{place}', which is no land space of the map")
        for h in self.hordes:
            if h.home not in cmap.spaces:
                raise ValueError(f"horde '{h.id}' comes from '{h.home}', which is no land space of the map")
        provinces = {p.id for p in cmap.data.province}
        hordes = {h.id for h in self.hordes}
        known = {c.id for c in self.clients}
        for e in self.events.entry:
            if e.kind == "horde" and e.target not in hordes:
                raise ValueError(f"the events result {e.roll} names the horde '{e.target}', which is not listed")
            if e.kind == "client" and not set(e.options) <= known:
                raise ValueError(f"the events result {e.roll} names a client state that is not listed")
            if e.kind in ("revolt", "justice", "wavering") and not set(e.options) <= provinces:
                raise ValueError(f"the events result {e.roll} names a province the map does not have")
        return self

    def client(self, cid: str) -> ClientSpec | None:
        return next((c for c in self.clients if c.id == cid), None)

    def horde(self, hid: str) -> HordeSpec | None:
        return next((h for h in self.hordes if h.id == hid), None)


def load_world(path: str | Path = WORLD_FILE) -> World:
    """Read and validate the wider world's tables; a bad file raises one ``InputError``."""
    return load_model(World, path)


@cache
def world_tables() -> World:
    return load_world()


# --------------------------------------------------------------------------- client states


def client_name(cid: str) -> str:
    """The client's name for the chronicle ("Egypt", "Pontus and Asia"), without the map's note."""
    return roman_world().owners[cid].name.split(" (")[0]


def ruler_of(state: CampaignState, cid: str) -> str | None:
    """The client's ruler in play: the best-rated of its leaders with its forces."""
    cat = catalogue()
    leaders = [ld for f in state.forces.values() if f.side == cid for ld in f.leaders]
    return max(leaders, key=lambda ld: (cat.leader(ld).rating, ld), default=None)


def join(state: CampaignState, cid: str, side: str, how: str) -> list[Event]:
    """Put client ``cid`` on ``side`` (in place on a copy the caller owns), §19.2.

    The change itself is ``campaign.rules.politics.change_client`` — the one function
    that moves a client (its troops serving in the other side's armies leave them); this
    adds the line saying who declared and why (``how``: ``"event"`` or ``"defection"``)."""
    from campaign.rules.politics import change_client

    before = state.clients.get(cid)
    ruler = ruler_of(state, cid)
    who = leader_name(ruler) if ruler else client_name(cid)
    events = change_client(state, cid, side)
    if before in SIDES:
        text = f"{who} of {client_name(cid)} abandons {SIDE_NAMES[before]}, whose cause is failing."
    else:
        text = f"{who} of {client_name(cid)} declares for {SIDE_NAMES[side]}."
    return [event(state, "client_declares", text, client=cid, side=side, before=before or "", how=how), *events]


def leaning(state: CampaignState, spec: ClientSpec) -> tuple[str, int]:
    """(the side a client leans to, the d10 below which it joins that side), §19.2."""
    holder = state.owner_side(spec.watch)
    if not spec.patron:
        # no patron: it sides against whoever holds the place it watches
        if holder is None:
            return SIDES[0], 5
        return enemy(holder), 10
    chance = spec.loyalty - (3 if holder != spec.patron else 0)
    return spec.patron, max(0, chance)


def activate(state: CampaignState, cid: str, dice: Dice) -> list[Event]:
    """The client's Historical Event (§19.2): a neutral client enters the war; one at war
    raises levies, or — when its ally has lost the place it watches — may change sides."""
    spec = world_tables().client(cid)
    status = state.clients.get(cid)
    if spec is None or status is None:
        return []
    if not any(f.side == cid for f in state.forces.values()) and not roman_world().owned_by(cid):
        return [event(state, "client_gone", f"{client_name(cid)} is no more a power in the war.", client=cid)]
    if status not in SIDES:
        side, below = leaning(state, spec)
        roll = dice.d10(f"{cid} chooses")
        chosen = side if roll < below else enemy(side)
        return join(state, cid, chosen, "event")
    if state.owner_side(spec.watch) != status and dice.d10(f"{cid} wavers") < spec.waver:
        return join(state, cid, enemy(status), "defection")
    return levy(state, cid, spec.levy)


def levy(state: CampaignState, cid: str, sp: int) -> list[Event]:
    """A client at war raises levies (§19.3): its damaged units regain SP, and what is left
    of ``sp`` raises new units of its counter mix in its capital while it holds it (004:
    "a formidable Parthian host being raised")."""
    cat = catalogue()
    gains: dict[str, int] = {}
    left = sp
    for fid in sorted(f.id for f in state.forces.values() if f.side == cid):
        f = state.forces[fid]
        strength = {u.id: u.strength for u in f.units}
        for u in f.units:
            take = min(cat.kind(u.kind).strength - u.strength, left)
            if take > 0:
                strength[u.id] += take
                gains[u.id] = take
                left -= take
        if any(strength[u.id] != u.strength for u in f.units):
            set_strengths(state, fid, strength)
    raised = _raise(state, cid, left) if left > 0 else []
    for u in raised:
        gains[u.id] = u.strength
    name = client_name(cid)
    if not gains:
        return [event(state, "levy", f"{name} stands by its ally; its army is at full strength.", client=cid)]
    new = f", raising {', '.join(cat.kind(u.kind).name.lower() for u in raised)}" if raised else ""
    return [
        event(
            state,
            "levy",
            f"{name} raises levies for its ally (+{sum(gains.values())} SP{new}).",
            client=cid,
            gains=gains,
        )
    ]


def _raise(state: CampaignState, cid: str, sp: int) -> list[Unit]:
    """New units for client ``cid`` in its capital, up to ``sp`` SP, from its counter mix
    (the kinds in the order the scenario lists them, each while counters are left)."""
    spec = world_tables().client(cid)
    if spec is None or state.owners.get(spec.capital) != cid or state.owner_side(spec.capital) is None:
        return []
    cat = catalogue()
    mix = state.counter_mix.get(cid, {})
    in_play = Counter(u.kind for f in state.forces.values() for u in f.units if u.nation == cid)
    out: list[Unit] = []
    for kind, limit in mix.items():
        k = cat.kinds.get(kind)
        if k is None or not k.mobile or k.is_fleet or cid not in k.nations:
            continue
        while in_play[kind] < limit and k.strength <= sp:
            uid = f"{cid}_levy_{state.next_id}"
            state.next_id += 1
            label = f"{k.name} of {client_name(cid)}"
            out.append(Unit(id=uid, kind=kind, discipline=k.discipline, strength=k.strength, nation=cid, name=label))
            in_play[kind] += 1
            sp -= k.strength
    if out:
        here = [
            f for f in state.forces_at(spec.capital) if f.side == cid and any(cat.kind(u.kind).mobile for u in f.units)
        ]
        if here:
            f = max(here, key=lambda g: (g.commander is not None, g.strength(), g.id))
            state.forces[f.id] = f.model_copy(update={"units": (*f.units, *out)})
        else:
            fid = state.new_id(f"{cid}_levies")
            # named for the chronicle: "the levies of Numidia" (§19.3)
            state.forces[fid] = Force(
                id=fid, side=cid, location=spec.capital, units=tuple(out), name=f"Levies of {client_name(cid)}"
            )
    return out


# --------------------------------------------------------------------------- barbarian hordes


def rouse(state: CampaignState, hid: str) -> list[Event]:
    """A horde's Historical Event: it stirs, or if already moving it is reinforced by
    nothing — its people are already on the road (§19.4)."""
    spec = world_tables().horde(hid)
    if spec is None or spec.force not in state.forces:
        return [event(state, "horde", "The frontier is quiet: no horde is left to stir.", horde=hid)]
    if spec.force in state.roused:
        return [event(state, "horde", f"More rumours of {spec.name}, who are already on the move.", horde=hid)]
    state.roused = (*state.roused, spec.force)
    where = place_name(state.forces[spec.force].location)
    return [event(state, "horde", f"{spec.name} stir in {where}.", horde=hid)]


def _horde_graph() -> nx.Graph:
    return roman_world()._land


def horde_step(state: CampaignState, fid: str) -> str | None:
    """The next space of a horde's road: one land link toward the nearest city that no
    horde stands in (by movement cost), avoiding spaces a power at peace holds (§19.4)."""
    cmap = roman_world()
    force = state.forces[fid]
    here = force.location
    g = _horde_graph()
    if here not in g:
        return None
    lengths, paths = nx.single_source_dijkstra(g, here, weight="cost")
    barb = {f.location for f in state.forces.values() if f.side == BARBARIAN}
    targets = sorted(
        (lengths[c], c)
        for c in cmap.cities()
        if c in lengths and c not in barb and state.owner_side(c) is not None and c != here
    )
    for _, city in targets:
        path = paths[city]
        if len(path) < 2:
            continue
        nxt = path[1]
        neutral_there = any(
            f.location == nxt and f.units and state.allegiance(f.side) is None and f.side != BARBARIAN
            for f in state.forces.values()
        )
        if not neutral_there:
            return str(nxt)
    return None


def move_hordes(state: CampaignState, dice: Dice) -> list[Event]:
    """Every stirring horde moves one link and clashes with the troops it finds (§19.4)."""
    events: list[Event] = []
    for fid in list(state.roused):
        if fid not in state.forces:
            state.roused = tuple(x for x in state.roused if x != fid)
            continue
        nxt = horde_step(state, fid)
        if nxt is None:
            continue
        f = state.forces[fid]
        state.forces[fid] = f.model_copy(update={"location": nxt})
        events.append(
            event(
                state,
                "horde_moves",
                f"A barbarian horde pours from {place_name(f.location)} into {place_name(nxt)}.",
                force=fid,
                frm=f.location,
                to=nxt,
            )
        )
        events += clash(state, fid, dice)
    tidy(state)
    state.roused = tuple(x for x in state.roused if x in state.forces)
    return events


def clash(state: CampaignState, fid: str, dice: Dice) -> list[Event]:
    """A horde meets the troops of a side where it stands (§19.4, the horde clash table)."""
    t = world_tables().horde_clash
    cat = catalogue()
    horde = state.forces[fid]
    place = horde.location
    defenders = [f for f in state.forces_at(place) if f.side != BARBARIAN and state.allegiance(f.side) is not None]
    defenders = [f for f in defenders if any(not cat.kind(u.kind).is_fleet for u in f.units)]
    cmap = roman_world()
    if not defenders:
        if cmap.spaces[place].kind == "city" and state.owner_side(place) is not None:
            return [sack(state, place, fid)]
        return []
    side = state.allegiance(defenders[0].side)
    d_sp = sum(u.strength for f in defenders for u in f.units if not cat.kind(u.kind).is_fleet)
    h_sp = horde.strength()
    mod = 0
    if d_sp >= h_sp:
        mod += t.odds_even
    if d_sp >= 2 * h_sp:
        mod += t.odds_double
    if 2 * d_sp < h_sp:
        mod += t.odds_half
    if any(u.discipline in ("I", "V") for f in defenders for u in f.units):
        mod += t.veterans
    if any(f.leaders for f in defenders):
        mod += t.leader
    roll = dice.d10(f"horde clash at {place}") + mod
    h_pct = t.horde_loss[max(0, min(9, roll))]
    d_pct = t.defender_loss[max(0, min(9, roll))]
    losses: dict[str, int] = {}
    h_lost = inflict(state, fid, max(1, h_sp * h_pct // 100) if h_pct else 0)
    losses.update(h_lost)
    d_lost_total = 0
    remaining = max(1, d_sp * d_pct // 100) if d_pct else 0
    for f in sorted(defenders, key=lambda f: -f.strength()):
        if remaining <= 0:
            break
        got = inflict(state, f.id, remaining)
        losses.update(got)
        remaining -= sum(got.values())
        d_lost_total += sum(got.values())
    name = SIDE_NAMES.get(side or "", "the defenders")
    text = (
        f"Barbarians clash with {name} at {place_name(place)}: the horde loses {loss_text(h_lost)}, "
        f"the defenders {d_lost_total} SP."
    )
    events = [event(state, "horde_clash", text, place=place, side=side, losses=losses)]
    tidy(state)
    alive = fid in state.forces and state.forces[fid].units
    left = [f for f in state.forces_at(place) if f.side != BARBARIAN and state.allegiance(f.side) is not None]
    if alive and not any(f.units for f in left) and cmap.spaces[place].kind == "city":
        events.append(sack(state, place, fid))
    return events


def sack(state: CampaignState, place: str, fid: str) -> Event:
    """A horde sacks an undefended city: the city falls away from its side (goes neutral)
    and the horde loses an SP to the loot — warriors who settle or go home (§19.4)."""
    before = state.owners[place]
    state.owners[place] = "neutral"
    state.starving = tuple(p for p in state.starving if p != place)
    spent = inflict(state, fid, world_tables().horde_clash.sack_cost)
    return event(
        state,
        "sack",
        f"Barbarians sack {place_name(place)}; the city is lost to {SIDE_NAMES.get(before, before)}.",
        place=place,
        before=before,
        losses=spent,
    )
