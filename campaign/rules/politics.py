"""The politics of war: tribute, bribes, desertion and defection, assassination
(docs/rules/campaign.md §18; reference: Stratagems — Political and Agent).

All are played in the active side's recruiting phase, each by one Roman leader of the
side with a play left (§15.3), and each is one d10 plus modifiers on a table of
``tables.toml``.  Reach is traced **over land** (road, cross-country and strait edges,
counted in steps) from the leader's space: never across the sea.  The engine picks the
leader: the nearest, then the one with most plays left, then by id.

- **Tribute** (Political) wins over a neutral city, a client state at peace, or a
  client state fighting for the enemy.  A client that changes sides takes its units
  and leaders out of the enemy's forces; troops carried by ships that change hands —
  or by ships that stay while their passengers leave — are **put ashore** (§18.1).
- **Bribe** (Political): an enemy city held only by its (Roman) civis revolts.
- **Subvert** (Political): an enemy force in or next to the leader's space loses SP to
  desertion, or one of its units defects to the leader.
- **Assassinate** (Agent): an enemy leader within reach is killed on the table; his
  own guard and the Guard counters with him protect him; a botched attempt is exposed
  and costs a Res Publica marker.
"""

from __future__ import annotations

from collections import deque
from functools import cache

from bellum.dice import Dice
from bellum.errors import RuleError
from bellum.events import Event
from campaign import actions as A
from campaign.map import LAND_EDGE_KINDS, roman_world
from campaign.rules.common import event, force_name, inflict, leader_name, loss_text, place_name, tidy
from campaign.rules.siege import take_captive
from campaign.rules.stratagems import play, plays_left
from campaign.rules.supply import land_supplied
from campaign.state import SIDE_NAMES, CampaignState, enemy
from campaign.tables import tables
from campaign.units import Force, Unit, catalogue

# --------------------------------------------------------------------------- reach over land


@cache
def land_steps(origin: str) -> dict[str, int]:
    """Land spaces by the number of land edges from ``origin`` (never across the sea)."""
    cmap = roman_world()
    if not cmap.is_land(origin):
        return {}
    dist = {origin: 0}
    queue = deque([origin])
    while queue:
        here = queue.popleft()
        for nxt in cmap.neighbours(here, LAND_EDGE_KINDS):
            if nxt not in dist:
                dist[nxt] = dist[here] + 1
                queue.append(nxt)
    return dist


def agents(state: CampaignState, side: str, targets: set[str], reach: int) -> list[tuple[int, str]]:
    """(steps, leader) for every Roman leader of ``side`` with a play left who stands
    within ``reach`` land steps of one of ``targets``, nearest first (§18)."""
    cat = catalogue()
    out = []
    for f in state.forces_of(side):
        steps = land_steps(f.location)
        d = min((steps[t] for t in targets if t in steps), default=None)
        if d is None or d > reach:
            continue
        for ld in f.leaders:
            if cat.leader(ld).nation == "roman" and plays_left(state, ld) > 0:
                out.append((d, ld))
    return sorted(out, key=lambda x: (x[0], -plays_left(state, x[1]), x[1]))


def more_markers(state: CampaignState, side: str) -> bool:
    return state.res_publica[side] > state.res_publica[enemy(side)]


def chance(need: int, mod: int) -> float:
    """The chance that one d10 (0–9) plus ``mod`` reaches ``need``."""
    return sum(1 for d in range(10) if d + mod >= need) / 10


def tribute_chance(state: CampaignState, side: str, target: str) -> float:
    """The chance a tribute offered now succeeds (0 when no leader can reach it)."""
    places = client_spaces(state, target) if target in state.clients else {target}
    found = agents(state, side, places, tables().tribute.range)
    if not found:
        return 0.0
    return chance(*tribute_need(state, side, target, found[0][0]))


def bribe_chance(state: CampaignState, side: str, city: str) -> float:
    """The chance a bribe offered now succeeds (0 when ``city`` is no target)."""
    if city not in bribe_targets(state, side):
        return 0.0
    return chance(tables().bribe.need, bribe_modifier(state, side, city))


# --------------------------------------------------------------------------- clients


def change_client(state: CampaignState, client: str, side: str) -> list[Event]:
    """Put ``client`` on ``side`` ("neutral" for peace) — the one function that changes a
    client state's allegiance (§18.1).  Its units and leaders serving in the forces of a
    side it leaves form forces of the client itself where they stand; passengers whose
    ships go one way while they go the other are put ashore (at sea: in the zone's port
    that is friendliest to them)."""
    cat = catalogue()
    before = state.clients.get(client)
    state.clients[client] = side
    events: list[Event] = []
    for fid in sorted(state.forces):
        f = state.forces[fid]
        if f.side == client or state.allegiance(f.side) is None or f.side == side:
            continue
        leaving = [u for u in f.units if u.nation == client]
        gone_leaders = [ld for ld in f.leaders if cat.leader(ld).nation == client]
        if not leaving and not gone_leaders:
            continue
        out_ids = {u.id for u in leaving}
        stay = tuple(
            u.model_copy(update={"aboard": None}) if u.aboard is not None and u.aboard in out_ids else u
            for u in f.units
            if u.id not in out_ids
        )
        go = tuple(
            u.model_copy(update={"aboard": None}) if u.aboard is not None and u.aboard not in out_ids else u
            for u in leaving
        )
        leaders = tuple(ld for ld in f.leaders if ld not in gone_leaders)
        state.forces[fid] = f.model_copy(
            update={"units": stay, "leaders": leaders, "commander": f.commander if f.commander in leaders else None}
        )
        nid = state.new_id(f"{client}_{fid}")
        gone_cmd = gone_leaders[0] if gone_leaders else None
        state.forces[nid] = Force(
            id=nid, side=client, location=f.location, commander=gone_cmd, leaders=tuple(gone_leaders), units=go
        )
        events.append(
            event(
                state,
                "client_leaves",
                f"The troops of {client.capitalize()} leave {possessive_name(f)} army at {place_name(f.location)}.",
                client=client,
                force=nid,
            )
        )
        events += _put_ashore(state, fid) + _put_ashore(state, nid)
    tidy(state)
    was = "at peace" if before in (None, "neutral") else f"with {SIDE_NAMES.get(before, before)}"
    now = "makes peace" if side == "neutral" else f"joins {SIDE_NAMES.get(side, side)}"
    events.insert(0, event(state, "client_joins", f"{client.capitalize()}, {was}, {now}.", client=client, status=side))
    return events


def possessive_name(f: Force) -> str:
    name = force_name(f)
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _put_ashore(state: CampaignState, fid: str) -> list[Event]:
    """A force at sea whose ground units lost their ships: they land in the zone's port
    friendliest to them (their own side's first, then by id) (§18.1; reference: on fleets
    the passengers go ashore)."""
    cmap = roman_world()
    f = state.forces.get(fid)
    if f is None or not cmap.is_sea(f.location):
        return []
    cat = catalogue()
    loose = [u for u in f.units if not cat.kind(u.kind).is_fleet and u.aboard is None]
    shipless = not f.fleets()
    if not loose and not (shipless and f.leaders):
        return []
    mine = state.allegiance(f.side)
    ports = sorted(cmap.ports_of(f.location), key=lambda p: (state.owner_side(p) != mine, p))
    if not ports:
        return []
    port = ports[0]
    nid = fid
    if shipless:  # nothing left to sail in: the whole force, leaders too, lands
        state.forces[fid] = f.model_copy(update={"location": port})
    else:
        keep = tuple(u for u in f.units if u not in loose)
        state.forces[fid] = f.model_copy(update={"units": keep})
        nid = state.new_id(f"{fid}_ashore")
        state.forces[nid] = Force(id=nid, side=f.side, location=port, units=tuple(loose))
    return [
        event(
            state,
            "put_ashore",
            f"Troops of {possessive_name(f)} force are put ashore at {place_name(port)}.",
            force=nid,
            place=port,
        )
    ]


# --------------------------------------------------------------------------- tribute


def client_spaces(state: CampaignState, client: str) -> set[str]:
    return {p for p, o in state.owners.items() if o == client}


def tribute_targets(state: CampaignState, side: str) -> list[str]:
    """Neutral cities and client states (at peace or with the enemy) within reach (§18.1)."""
    if state.stratagems[side]["political"] < 1:
        return []
    reach = tables().tribute.range
    cmap = roman_world()
    out = []
    for c in sorted(cmap.cities()):
        if state.owners.get(c) == "neutral" and agents(state, side, {c}, reach):
            out.append(c)
    for client, status in sorted(state.clients.items()):
        if status in ("neutral", enemy(side)) and agents(state, side, client_spaces(state, client), reach):
            out.append(client)
    return out


def tribute_need(state: CampaignState, side: str, target: str, steps: int) -> tuple[int, int]:
    """(need, modifier) of a tribute (§18.1)."""
    t = tables().tribute
    cmap = roman_world()
    mod = (t.rome if state.owner_side("roma") == side else 0) + (t.markers if more_markers(state, side) else 0)
    mod += t.near if steps <= 1 else 0
    if target in state.clients:
        need = t.client if state.clients[target] == "neutral" else t.enemy_client
    else:
        need = t.city
        mod += t.capital if cmap.spaces[target].capital else 0
    return need, mod


def tribute(state: CampaignState, target: str, dice: Dice) -> list[Event]:
    side = state.active
    if state.phase != "recruiting":
        raise RuleError("Tribute is offered in the recruiting phase.")
    if target not in tribute_targets(state, side):
        raise RuleError("No leader of yours can reach that city or client state with tribute now.")
    places = client_spaces(state, target) if target in state.clients else {target}
    steps, leader = agents(state, side, places, tables().tribute.range)[0]
    need, mod = tribute_need(state, side, target, steps)
    play(state, side, "political", leader)
    roll = dice.d10(f"tribute {target}")
    name = target.capitalize() if target in state.clients else place_name(target)
    won = roll + mod >= need
    events = [
        event(
            state,
            "tribute",
            f"{leader_name(leader)} offers tribute to {name} (roll {roll}{mod:+d}, need {need}): "
            f"{'accepted' if won else 'refused'}.",
            side=side,
            target=target,
            roll=roll,
            modifier=mod,
            need=need,
            won=won,
        )
    ]
    if not won:
        return events
    if target in state.clients:
        return events + change_client(state, target, side)
    state.owners[target] = side
    for f in state.forces_at(target):
        if f.side == "neutral":
            state.forces[f.id] = f.model_copy(update={"side": side})
    events.append(event(state, "capture", f"{name} opens its gates to {SIDE_NAMES[side]}.", place=target, side=side))
    return events


# --------------------------------------------------------------------------- bribes


def bribe_targets(state: CampaignState, side: str) -> list[str]:
    """Enemy cities with a Roman civis, within reach, where the bribe can succeed at all
    (§18.2: Rome, at −3, only under siege or with the markers); where a garrison stands
    beside the civis, a civis that revolts must fight it."""
    if state.stratagems[side]["political"] < 1:
        return []
    foe = enemy(side)
    reach = tables().bribe.range
    out = []
    for city in sorted(roman_world().cities()):
        if state.owner_side(city) != foe:
            continue
        civis = _civis(state, foe, city)
        if civis is None or civis.nation != "roman":
            continue
        if agents(state, side, {city}, reach) and chance(tables().bribe.need, bribe_modifier(state, side, city)) > 0:
            out.append(city)
    return out


def _civis(state: CampaignState, side: str, city: str) -> Unit | None:
    return next((u for f in state.side_forces_at(city, side) for u in f.units if u.kind == "civis"), None)


def garrison(state: CampaignState, side: str, city: str) -> list[Force]:
    """``side``'s forces in ``city`` with ground units besides its civis (§18.2)."""
    cat = catalogue()
    return [
        f
        for f in state.side_forces_at(city, side)
        if any(u.kind != "civis" and not cat.kind(u.kind).is_fleet for u in f.units)
    ]


def revolt_modifier(state: CampaignState, side: str, city: str) -> int:
    """The rising's modifier (§18.2): a veteran civis, a starving garrison, the briber's
    troops at the gates, an enemy leader inside."""
    t = tables().revolt
    foe = enemy(side)
    civis = _civis(state, foe, city)
    mod = t.veteran_civis if civis is not None and civis.discipline in ("I", "V") else 0
    mod += t.starving if city in state.starving else 0
    mod += t.besieged if any(f.units for f in state.side_forces_at(city, side)) else 0
    mod += t.leader if any(f.leaders for f in state.side_forces_at(city, foe)) else 0
    return mod


def bribe_modifier(state: CampaignState, side: str, city: str) -> int:
    t = tables().bribe
    cmap = roman_world()
    foe = enemy(side)
    civis = _civis(state, foe, city)
    assert civis is not None
    mod = t.rome if city == "roma" else t.capital if cmap.spaces[city].capital else 0
    mod += t.veteran if civis.discipline in ("I", "V") else 0
    mod += t.besieged if any(f.units for f in state.side_forces_at(city, side)) else 0
    mod += t.starving if city in state.starving else 0
    mod += t.markers if more_markers(state, side) else 0
    return mod


def bribe(state: CampaignState, city: str, dice: Dice) -> list[Event]:
    side = state.active
    foe = enemy(side)
    if state.phase != "recruiting":
        raise RuleError("Bribes are offered in the recruiting phase.")
    if city not in bribe_targets(state, side):
        raise RuleError(f"You cannot bribe the civis of {place_name(city)} now.")
    _, leader = agents(state, side, {city}, tables().bribe.range)[0]
    mod = bribe_modifier(state, side, city)
    need = tables().bribe.need
    play(state, side, "political", leader)
    roll = dice.d10(f"bribe {city}")
    won = roll + mod >= need
    who = possessive_name_leader(leader)
    told = f"{who} agents bribe the citizens of {place_name(city)} (roll {roll}{mod:+d}, need {need})"
    held = garrison(state, foe, city)
    if won and held:
        return _rising(state, city, held, told, roll, mod, dice)
    events = [
        event(
            state,
            "bribe",
            f"{told}: {'they revolt' if won else 'they stay loyal'}.",
            side=side,
            place=city,
            roll=roll,
            modifier=mod,
            won=won,
        )
    ]
    if not won:
        return events
    return events + _goes_over(state, city, dice)


def _goes_over(state: CampaignState, city: str, dice: Dice) -> list[Event]:
    """The city and everything of the enemy's in it go over to the active side; its
    leaders are taken (§18.2)."""
    side = state.active
    foe = enemy(side)
    events: list[Event] = []
    state.owners[city] = side
    for f in state.side_forces_at(city, foe):
        if f.units:
            state.forces[f.id] = f.model_copy(update={"side": side, "leaders": (), "commander": None})
        for ld in f.leaders:
            events.append(take_captive(state, ld, side, dice))
    tidy(state)
    text = f"{place_name(city)} goes over to {SIDE_NAMES[side]}."
    events.append(event(state, "capture", text, place=city, side=side))
    return events


def _rising(
    state: CampaignState, city: str, held: list[Force], told: str, roll: int, mod: int, dice: Dice
) -> list[Event]:
    """A bribed civis rises against the garrison and fights it (§18.2; 004's campaign report:
    the bribed civis of Antonius' colony revolts and destroys one of his legions): the garrison loses
    SP by the revolt table; left with none, the city goes over, else the rising is put down
    and the civis is lost."""
    side = state.active
    foe = enemy(side)
    t = tables().revolt
    rmod = revolt_modifier(state, side, city)
    fight = dice.d10(f"revolt {city}")
    owed = t.garrison_loss[max(0, min(9, fight + rmod))]
    losses: dict[str, int] = {}
    for f in sorted(held, key=lambda g: (-sum(u.strength for u in g.units if u.kind != "civis"), g.id)):
        if owed <= 0:
            break
        got = inflict(state, f.id, owed, spare=("civis",))  # the civis is not the garrison
        losses.update(got)
        owed -= sum(got.values())
    left = sum(sum(u.strength for u in f.units if u.kind != "civis") for f in garrison(state, foe, city))
    lost = loss_text(losses) if losses else "nothing"
    if left <= 0:
        text = f"{told}: they rise, cut down the garrison ({lost}) and open the city (roll {fight}{rmod:+d})."
        events = [event(state, "bribe", text, side=side, place=city, roll=roll, modifier=mod, won=True, losses=losses)]
        return events + _goes_over(state, city, dice)
    civis_lost: dict[str, int] = {}
    for f in state.side_forces_at(city, foe):
        for u in f.units:
            if u.kind == "civis":
                civis_lost[u.id] = u.strength
        if any(u.kind == "civis" for u in f.units):
            state.forces[f.id] = f.model_copy(update={"units": tuple(u for u in f.units if u.kind != "civis")})
    tidy(state)
    text = (
        f"{told}: they rise, but the garrison puts them down at a cost of {lost}; "
        f"the citizens' militia is destroyed (roll {fight}{rmod:+d})."
    )
    return [
        event(
            state,
            "bribe",
            text,
            side=side,
            place=city,
            roll=roll,
            modifier=mod,
            won=True,
            losses={**losses, **civis_lost},
        )
    ]


def possessive_name_leader(leader: str) -> str:
    name = leader_name(leader)
    return f"{name}'" if name.endswith("s") else f"{name}'s"


# --------------------------------------------------------------------------- desertion and defection


def subvert_targets(state: CampaignState, side: str) -> list[str]:
    """Enemy forces with field troops on land in or next to a space where a leader of
    ``side`` may play (§18.3)."""
    if state.stratagems[side]["political"] < 1:
        return []
    cat = catalogue()
    out = []
    for f in sorted(state.forces_of(enemy(side)), key=lambda f: f.id):
        if not roman_world().is_land(f.location):
            continue
        if not any(cat.kind(u.kind).mobile and not cat.kind(u.kind).is_fleet for u in f.units):
            continue
        if agents(state, side, {f.location}, 1):
            out.append(f.id)
    return out


def subvert_modifier(state: CampaignState, side: str, force: Force, steps: int) -> int:
    t = tables().desertion
    foe = enemy(side)
    mod = 0 if land_supplied(state, foe, force.location) else t.unsupplied
    mod += t.winter if state.winter() else 0
    mod += t.supreme if state.supreme.get(foe) in force.leaders else 0
    mod += t.imperator if state.republic.get("imperator") == side else 0
    mod += t.same_space if steps == 0 else 0
    return mod


def defector(force: Force) -> str | None:
    """The unit that goes over: a Roman field unit, worst discipline first (never I, never
    a Guard), the weakest, then by id."""
    cat = catalogue()
    order = {"B": 0, "M": 1, "R": 2, "V": 3}
    cands = [
        u
        for u in force.units
        if u.nation == "roman"
        and cat.kind(u.kind).mobile
        and not cat.kind(u.kind).is_fleet
        and u.discipline in order
        and not cat.kind(u.kind).guard
    ]
    if not cands:
        return None
    return sorted(cands, key=lambda u: (order[u.discipline], u.strength, u.id))[0].id


def subvert(state: CampaignState, force_id: str, dice: Dice) -> list[Event]:
    side = state.active
    if state.phase != "recruiting":
        raise RuleError("Enemy troops are subverted in the recruiting phase.")
    if force_id not in subvert_targets(state, side):
        raise RuleError("No leader of yours stands in or next to that force's space with a stratagem to play.")
    target = state.forces[force_id]
    steps, leader = agents(state, side, {target.location}, 1)[0]
    mod = subvert_modifier(state, side, target, steps)
    play(state, side, "political", leader)
    roll = dice.d10(f"desertion {force_id}")
    result = tables().desertion.results[max(0, min(9, roll + mod))]
    who = force_name(target)
    head = f"{leader_name(leader)} works on the loyalty of {possessive_name(target)} men (roll {roll}{mod:+d})"
    if result == "defect":
        uid = defector(target)
        if uid is None:
            result = "desert:1"
        else:
            unit = target.unit(uid).model_copy(update={"aboard": None, "disrupted": False})
            state.forces[force_id] = target.model_copy(update={"units": tuple(u for u in target.units if u.id != uid)})
            home = state.leader_force(leader)
            assert home is not None
            state.forces[home.id] = home.model_copy(update={"units": (*home.units, unit)})
            tidy(state)
            return [
                event(
                    state,
                    "defection",
                    f"{head}: {unit.label()} goes over to {SIDE_NAMES[side]}.",
                    side=side,
                    force=force_id,
                    unit=uid,
                )
            ]
    if result.startswith("desert:"):
        lost = inflict(state, force_id, int(result.split(":")[1]))
        tidy(state)
        return [
            event(
                state,
                "desertion",
                f"{head}: {sum(lost.values())} SP desert {who}.",
                side=side,
                force=force_id,
                losses=lost,
            )
        ]
    return [event(state, "desertion", f"{head}: the men stay true.", side=side, force=force_id, losses={})]


# --------------------------------------------------------------------------- assassination


def assassination_targets(state: CampaignState, side: str, need_agent: bool = True) -> list[str]:
    """Enemy leaders on land within the Agent's reach whom the table can kill at all
    (§18.4: a guard strong enough makes a plot hopeless, and it is not offered) — with
    ``need_agent`` False, whether or not the side holds an Agent now."""
    if need_agent and state.stratagems[side]["agent"] < 1:
        return []
    t = tables().assassination
    out = []
    for f in state.forces_of(enemy(side)):
        if not roman_world().is_land(f.location) or not f.leaders:
            continue
        found = agents(state, side, {f.location}, t.range)
        if not found:
            continue
        for ld in f.leaders:
            mod = assassination_modifier(state, side, ld, found[0][0])
            if any(t.results[max(0, min(9, d + mod))] == "killed" for d in range(10)):
                out.append(ld)
    return sorted(out)


def guard_of(state: CampaignState, leader: str) -> int:
    """A leader's own guard plus the Guard counters of his force (campaign.md §2.6)."""
    f = state.leader_force(leader)
    return catalogue().leader(leader).guard + (f.guard() if f is not None else 0)


def assassination_modifier(state: CampaignState, side: str, leader: str, steps: int) -> int:
    t = tables().assassination
    f = state.leader_force(leader)
    assert f is not None
    mod = -guard_of(state, leader)
    mod += t.friendly_city if state.owner_side(f.location) == side else 0
    mod += t.same_space if steps == 0 else 0
    return mod


def assassinate(state: CampaignState, target: str, dice: Dice) -> list[Event]:
    side = state.active
    if state.phase != "recruiting":
        raise RuleError("Agents are sent in the recruiting phase.")
    if target not in assassination_targets(state, side):
        raise RuleError(f"No agent of yours can reach {leader_name(target)} now.")
    f = state.leader_force(target)
    assert f is not None
    steps, leader = agents(state, side, {f.location}, tables().assassination.range)[0]
    mod = assassination_modifier(state, side, target, steps)
    play(state, side, "agent", leader)
    roll = dice.d10(f"assassination {target}")
    result = tables().assassination.results[max(0, min(9, roll + mod))]
    head = f"Agents of {SIDE_NAMES[side]} strike at {leader_name(target)} (roll {roll}{mod:+d})"
    if result == "killed":
        state.forces[f.id] = f.model_copy(update={"leaders": tuple(x for x in f.leaders if x != target)})
        state.dead = (*state.dead, target)
        for s, sup in list(state.supreme.items()):
            if sup == target:
                state.supreme[s] = None
        tidy(state)
        return [
            event(state, "assassination", f"{head}: he is murdered.", side=side, leader=target, result=result),
            event(state, "leader_killed", f"{leader_name(target)} is dead.", leader=target),
        ]
    if result == "exposed" and state.res_publica[side] > 0:
        state.res_publica[side] -= 1
        return [
            event(
                state,
                "assassination",
                f"{head}: the plot is exposed and {SIDE_NAMES[side]} lose a Res Publica marker.",
                side=side,
                leader=target,
                result=result,
            )
        ]
    return [event(state, "assassination", f"{head}: the attempt fails.", side=side, leader=target, result=result)]


# --------------------------------------------------------------------------- the generator


def legal(state: CampaignState) -> list[A.Action]:
    side = state.active
    out: list[A.Action] = [A.Tribute(t) for t in tribute_targets(state, side)]
    out += [A.Bribe(c) for c in bribe_targets(state, side)]
    out += [A.Subvert(f) for f in subvert_targets(state, side)]
    out += [A.Assassinate(ld) for ld in assassination_targets(state, side)]
    return out
