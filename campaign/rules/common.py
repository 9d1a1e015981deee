"""What every rules module shares: losses, names for the chronicle, and events.

Losses (docs/rules/campaign.md §7.6): a loss of N strength points is taken one SP at a
time from the force's strongest eligible unit (ties: the unit listed first), and a unit
that reaches 0 is gone.  Every change of strength is recorded in the event that causes
it, as ``data["losses"]`` / ``data["gains"]`` (unit id → SP), so that the strength of
every unit can be rebuilt from the scenario and the event log.
"""

from __future__ import annotations

import math
from typing import Any

from bellum.events import Event
from campaign.map import CampaignMap, roman_world
from campaign.state import CampaignState
from campaign.units import Catalogue, Force, catalogue

#: short names where the last word of a leader's name is not the one history uses
SHORT_NAMES = {
    "pompeius": "Pompeius",
    "octavian": "Octavian",
    "legatus_c1": "a Caesarian legate",
    "legatus_c2": "a Caesarian legate",
    "legatus_s1": "a Senatorial legate",
    "legatus_s2": "a Senatorial legate",
    "satrap_1": "the satrap of Mesopotamia",
    "satrap_2": "the satrap of Media",
    "d_brutus": "Decimus Brutus",
    "q_cassius": "Q. Cassius",
    "c_cassius": "C. Cassius",
    "c_antonius": "C. Antonius",
    "cn_pompeius": "Cn. Pompeius the younger",
    "sex_pompeius": "Sex. Pompeius",
    "attius_varus": "Attius Varus",
    "m_octavius": "M. Octavius",
    "p_sulla": "P. Sulla",
    "brutus": "Brutus",
    "juba": "Juba",
    "saburra": "Saburra",
    "cleopatra": "Cleopatra",
    "achillas": "Achillas",
    "antipater": "Antipater",
    "mithradates": "Mithradates",
    "pharnaces": "Pharnaces",
    "orodes": "Orodes",
    "pacorus": "Pacorus",
    "lentulus": "Lentulus",
}


def leader_name(leader: str, cat: Catalogue | None = None) -> str:
    if leader in SHORT_NAMES:
        return SHORT_NAMES[leader]
    name = (cat or catalogue()).leader(leader).name
    return name.split("(")[0].split()[-1]


def force_name(force: Force, cat: Catalogue | None = None) -> str:
    """How the chronicle names a force: its commander, else its own name, else what it is
    and where ("the garrison of Brundisium", "Legio XXI", "the troops at Ancona")."""
    if force.commander:
        return leader_name(force.commander, cat)
    if force.name:
        return force.name
    named = [u.name for u in force.units if u.name]
    if len(force.units) == 1 and named:
        return named[0]
    kinds = {u.kind for u in force.units}
    where = place_name(force.location)
    return f"the garrison of {where}" if kinds == {"civis"} else f"the troops at {where}"


def counted(n: int, word: str, plural: str = "") -> str:
    """ "1 stratagem", "2 stratagems", "2 Res Publica markers" ("colonies": ``plural`` given)."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def possessive(name: str) -> str:
    """Caesar's, Afranius'."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def place_name(place: str, cmap: CampaignMap | None = None) -> str:
    return (cmap or roman_world()).name(place)


def event(state: CampaignState, kind: str, text: str, **data: Any) -> Event:
    """An event of this turn: the date goes into its data.  The text is a sentence, so it
    opens with a capital ("the satrap of Media marches…" → "The satrap…")."""
    data.setdefault("date", state.date())
    return Event(kind, text[:1].upper() + text[1:], data)


def share(total: int, pct: int) -> int:
    """``pct`` percent of ``total`` SP, rounded half up, at least 1 when both are positive."""
    if pct <= 0 or total <= 0:
        return 0
    return max(1, math.floor(total * pct / 100 + 0.5))


def inflict(
    state: CampaignState,
    force_id: str,
    sp: int,
    *,
    fleets: bool = False,
    cat: Catalogue | None = None,
    spare: tuple[str, ...] = (),
) -> dict[str, int]:
    """Take ``sp`` strength points from a force (in place on ``state``, which must be a
    copy the caller owns); returns unit id → SP lost.  Ground units lose first; fleets
    lose only when ``fleets`` is true (storms at sea) or nothing else is left; units of
    the kinds in ``spare`` never lose."""
    cat = cat or catalogue()
    force = state.forces[force_id]
    strength = {u.id: u.strength for u in force.units}
    order = [u.id for u in force.units if u.kind not in spare]
    eligible = [u.id for u in force.units if u.kind not in spare and (fleets or not cat.kind(u.kind).is_fleet)]
    if not eligible:
        eligible = order
    lost: dict[str, int] = {}
    for _ in range(sp):
        alive = [i for i in eligible if strength[i] > 0]
        if not alive:
            break
        best = max(alive, key=lambda i: (strength[i], -order.index(i)))
        strength[best] -= 1
        lost[best] = lost.get(best, 0) + 1
    if lost:
        set_strengths(state, force_id, strength)
    return lost


def set_strengths(state: CampaignState, force_id: str, strength: dict[str, int]) -> None:
    """Apply new strengths to a force's units; units at 0 are removed; passengers of a
    fleet that is gone are lost with it only by the caller's own record."""
    force = state.forces[force_id]
    units = tuple(
        u.model_copy(update={"strength": strength[u.id]}) if strength.get(u.id, u.strength) != u.strength else u
        for u in force.units
        if strength.get(u.id, u.strength) > 0
    )
    ids = {u.id for u in units}
    units = tuple(u if u.aboard is None or u.aboard in ids else u.model_copy(update={"aboard": None}) for u in units)
    state.forces[force_id] = force.model_copy(update={"units": units})


def tidy(state: CampaignState) -> None:
    """Drop forces with neither units nor leaders; give a leaderless commander slot to the
    best remaining leader (campaign.md §12.4)."""
    cat = catalogue()
    for fid in list(state.forces):
        f = state.forces[fid]
        if not f.units and not f.leaders:
            del state.forces[fid]
            state.spent.pop(fid, None)
            continue
        if f.commander is not None and f.commander not in f.leaders:
            f = f.model_copy(update={"commander": None})
        if f.commander is None and f.leaders:
            best = max(f.leaders, key=lambda ld: (cat.leader(ld).rating, -f.leaders.index(ld)))
            f = f.model_copy(update={"commander": best})
        state.forces[fid] = f


def loss_text(losses: dict[str, int]) -> str:
    n = sum(losses.values())
    return f"{n} SP" if n else "nothing"
