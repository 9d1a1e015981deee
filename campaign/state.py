"""The campaign state: who holds what, where every force stands, the date and the phase
(docs/rules/campaign.md §7).

A ``CampaignState`` is plain data and cheap to copy: ``copy()`` duplicates the dicts, and
the forces inside are frozen ``campaign.units.Force`` values that rules replace, never
mutate.  The scenario's static facts (its counter mix) are shared between copies.  Rules
modules take a state, copy it, change the copy and return it with events; nothing here
rolls a die.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from campaign.decisions import Pending, plain
from campaign.map import CampaignMap, roman_world
from campaign.scenario import BARBARIAN, Scenario
from campaign.tables import Tables, tables
from campaign.units import Catalogue, Force, Unit, catalogue

#: the two sides, in the order they play each turn (reference: Caesar first)
SIDES: tuple[str, str] = ("caesarian", "senatorial")
SIDE_NAMES = {"caesarian": "the Caesarians", "senatorial": "the Senatorials"}
#: the phases each side plays in its half of the turn (reference: scale and sequence)
SIDE_PHASES: tuple[str, ...] = ("stratagems", "res_publica", "recruiting", "movement", "combat", "supply")
#: phases with nothing to do yet but an explicit pass (campaign.md §7.2)
PASS_PHASES: frozenset[str] = frozenset({"events"})
#: the political phases of a side's half-turn, each ended with a ``Pass`` (campaign.md §15–§17)
POLITICAL_PHASES: tuple[str, ...] = ("stratagems", "res_publica", "recruiting")
STRATAGEM_TYPES: tuple[str, ...] = ("military", "political", "agent")
#: the Res Publica's three single markers (campaign.md §16.4)
REPUBLIC_MARKERS: tuple[str, ...] = ("tribune", "dictator", "imperator")


def side_title(side: str) -> str:
    """ "The Caesarians" — a side's name at the start of a sentence."""
    name = SIDE_NAMES.get(side, side)
    return name[:1].upper() + name[1:]


def side_short(side: str) -> str:
    """ "Caesarians" — a side's name in a list, a legend or a table."""
    return SIDE_NAMES.get(side, side).removeprefix("the ")


def enemy(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


#: the most turns a headless war or a study may ask for (a hundred years of the war's calendar)
MAX_TURNS = 400


@dataclass
class CampaignState:
    scenario: str
    turn: int
    phase: str
    active: str
    owners: dict[str, str]
    forces: dict[str, Force]
    clients: dict[str, str]
    stratagems: dict[str, dict[str, int]]
    res_publica: dict[str, int]
    supreme: dict[str, str | None]
    counter_mix: dict[str, dict[str, int]]
    #: movement points each force has spent this movement phase
    spent: dict[str, int] = field(default_factory=dict)
    #: spaces where a battle was fought this combat phase (one battle a space a phase)
    fought: tuple[str, ...] = ()
    #: spaces whose garrison lost SP to siege attrition since the siege began
    starving: tuple[str, ...] = ()
    #: cities under siege (campaign.md §11.2): city -> (the besieging side, the turn it began)
    sieges: dict[str, tuple[str, int]] = field(default_factory=dict)
    pending: Pending | None = None
    #: sea-supply cuts declared this supply phase: space -> cutting force
    cuts: dict[str, str] = field(default_factory=dict)
    #: escorts that fight for the sea supply this phase: space -> escorting force (004 (b))
    escorts: dict[str, str] = field(default_factory=dict)
    dead: tuple[str, ...] = ()
    captives: dict[str, str] = field(default_factory=dict)
    fratricide: int = 0
    next_id: int = 1
    #: stratagems spent, by side and type (the expended box, campaign.md §15.4)
    expended: dict[str, dict[str, int]] = field(default_factory=dict)
    #: holders of the Tribune, Dictator and Imperator markers (a side, or None; §16.4)
    republic: dict[str, str | None] = field(default_factory=lambda: dict.fromkeys(REPUBLIC_MARKERS))
    #: leaders each side may still bring into play (§17.2)
    pool: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: cities where a colony has been founded (§17.3)
    colonies: tuple[str, ...] = ()
    #: stratagems each leader has played this half-turn outside battles (§15.3)
    plays: dict[str, int] = field(default_factory=dict)
    #: stratagems the active side may still choose in its stratagems phase (§15.2)
    due: int = 0
    #: the Tribune has negated a result this turn (§16.3)
    tribune_used: bool = False
    #: Res Publica rolls made on each table this half-turn (§16.2)
    rolls: dict[str, int] = field(default_factory=dict)
    #: units raised or trained, and colonies that raised a legion, this half-turn (§17)
    raised: tuple[str, ...] = ()
    #: barbarian hordes on the move (force ids), §19.4
    roused: tuple[str, ...] = ()
    #: the end of the war: {"winner", "how", "text"}, empty while it goes on (§21)
    result: dict[str, str] = field(default_factory=dict)
    #: bonus stratagems a victory won and the winner has yet to take, by side (§12.4)
    spoils: dict[str, int] = field(default_factory=dict)

    # -- copying ----------------------------------------------------------------
    def copy(self) -> CampaignState:
        return replace(
            self,
            owners=dict(self.owners),
            forces=dict(self.forces),
            clients=dict(self.clients),
            stratagems={s: dict(v) for s, v in self.stratagems.items()},
            res_publica=dict(self.res_publica),
            supreme=dict(self.supreme),
            spent=dict(self.spent),
            cuts=dict(self.cuts),
            escorts=dict(self.escorts),
            sieges=dict(self.sieges),
            captives=dict(self.captives),
            expended={s: dict(v) for s, v in self.expended.items()},
            republic=dict(self.republic),
            pool=dict(self.pool),
            plays=dict(self.plays),
            rolls=dict(self.rolls),
            result=dict(self.result),
            spoils=dict(self.spoils),
        )

    # -- the calendar -----------------------------------------------------------
    @property
    def actor(self) -> str:
        """Who must act now: the side a pending decision waits on, else the active side."""
        return self.pending.actor if self.pending is not None else self.active

    def year_bc(self, t: Tables | None = None) -> int:
        return 49 - self.turn // len((t or tables()).calendar.turns)

    def month(self, t: Tables | None = None) -> str:
        turns = (t or tables()).calendar.turns
        return turns[self.turn % len(turns)].month

    def winter(self, t: Tables | None = None) -> bool:
        turns = (t or tables()).calendar.turns
        return turns[self.turn % len(turns)].winter

    def date(self) -> str:
        """The turn as the chronicle writes it: "April 49 BC"."""
        return f"{self.month()} {self.year_bc()} BC"

    # -- who is who -------------------------------------------------------------
    def allegiance(self, owner: str) -> str | None:
        """The side an owner or force side fights for: a side itself, a client at war on a
        side, or None for neutrals, clients at peace and barbarians (campaign.md §7.5)."""
        if owner in SIDES:
            return owner
        status = self.clients.get(owner)
        return status if status in SIDES else None

    def owner_side(self, place: str) -> str | None:
        owner = self.owners.get(place)
        return None if owner is None else self.allegiance(owner)

    def forces_at(self, place: str) -> list[Force]:
        return [f for f in self.forces.values() if f.location == place]

    def side_forces_at(self, place: str, side: str) -> list[Force]:
        return [f for f in self.forces.values() if f.location == place and self.allegiance(f.side) == side]

    def forces_of(self, side: str) -> list[Force]:
        return [f for f in self.forces.values() if self.allegiance(f.side) == side]

    def units(self) -> list[tuple[Force, Unit]]:
        return [(f, u) for f in self.forces.values() for u in f.units]

    def leader_force(self, leader: str) -> Force | None:
        for f in self.forces.values():
            if leader in f.leaders:
                return f
        return None

    def new_id(self, stem: str) -> str:
        """A fresh force id (the state's counter advances)."""
        ident = f"{stem[:28].rstrip('_')}_{self.next_id}"
        self.next_id += 1
        return ident

    def free_fleet_counters(self, side: str) -> int | None:
        """Fleet counters left in ``side``'s builds pool (004 Victory: captured fleets)."""
        limit = self.counter_mix.get(side, {}).get("fleet")
        if limit is None:
            return None
        used = sum(1 for f in self.forces_of(side) for u in f.units if u.kind == "fleet" and u.nation == "roman")
        return max(0, limit - used)


# --------------------------------------------------------------------------- building


def civis_split(force: Force, cat: Catalogue) -> list[Force]:
    """A force whose units include a civis, split into the field force and the city's
    garrison (campaign.md §7.5: the civis never moves, so it stands in its own force)."""
    fixed = [u for u in force.units if not cat.kind(u.kind).mobile]
    if not fixed or (len(fixed) == len(force.units) and not force.leaders):
        return [force]
    rest = tuple(u for u in force.units if cat.kind(u.kind).mobile)
    garrison = Force(id=f"{force.id}_civis", side=force.side, location=force.location, units=tuple(fixed))
    field_force = force.model_copy(update={"units": rest})
    return [field_force, garrison]


def initial_state(scenario: Scenario, cat: Catalogue | None = None) -> CampaignState:
    """The state at the start of ``scenario``: its first turn's events phase, Caesar active."""
    cat = cat or catalogue()
    forces: dict[str, Force] = {}
    for f in scenario.forces:
        for part in civis_split(f, cat):
            forces[part.id] = part
    return CampaignState(
        scenario=scenario.id,
        turn=_start_turn(scenario.start_month),
        phase="events",
        active=SIDES[0],
        owners=dict(scenario.owners),
        forces=forces,
        clients={cid: c.status for cid, c in scenario.clients.items()},
        stratagems={sid: s.stratagems.model_dump() for sid, s in scenario.sides.items()},
        res_publica={sid: s.res_publica for sid, s in scenario.sides.items()},
        supreme={sid: s.supreme_leader for sid, s in scenario.sides.items()},
        counter_mix={k: dict(v) for k, v in scenario.counter_mix.items()},
        expended={sid: dict.fromkeys(STRATAGEM_TYPES, 0) for sid in scenario.sides},
        republic={m: getattr(scenario.republic, m) for m in REPUBLIC_MARKERS},
        pool={sid: tuple(s.leader_pool) for sid, s in scenario.sides.items()},
    )


def _start_turn(month: str) -> int:
    for i, spec in enumerate(tables().calendar.turns):
        if spec.month == month:
            return i
    return 0


# --------------------------------------------------------------------------- encoding


def encode_state(state: CampaignState) -> dict[str, Any]:
    """The state as plain data (for saves and the checksum)."""
    return {
        "scenario": state.scenario,
        "turn": state.turn,
        "phase": state.phase,
        "active": state.active,
        "owners": dict(sorted(state.owners.items())),
        "forces": {fid: f.model_dump(exclude_none=True) for fid, f in sorted(state.forces.items())},
        "clients": dict(state.clients),
        "stratagems": state.stratagems,
        "res_publica": state.res_publica,
        "supreme": {k: v or "" for k, v in state.supreme.items()},
        "spent": dict(sorted(state.spent.items())),
        "fought": list(state.fought),
        "starving": list(state.starving),
        "sieges": {c: list(v) for c, v in sorted(state.sieges.items())},
        "pending": None if state.pending is None else plain(state.pending),
        "cuts": dict(state.cuts),
        "escorts": dict(state.escorts),
        "dead": list(state.dead),
        "captives": dict(state.captives),
        "fratricide": state.fratricide,
        "next_id": state.next_id,
        "expended": state.expended,
        "republic": {k: v or "" for k, v in state.republic.items()},
        "pool": {k: list(v) for k, v in state.pool.items()},
        "colonies": list(state.colonies),
        "plays": dict(sorted(state.plays.items())),
        "due": state.due,
        "tribune_used": state.tribune_used,
        "rolls": dict(sorted(state.rolls.items())),
        "raised": list(state.raised),
        "roused": list(state.roused),
        "result": dict(state.result),
        "spoils": dict(sorted(state.spoils.items())),
    }


def is_barbarian(force: Force) -> bool:
    return force.side == BARBARIAN


def world() -> CampaignMap:
    return roman_world()
