"""What a force counter shows (issue 15, "counters a wargamer reads at a glance").

Each force gets one symbol from what it is made of — ``legion`` (heavy foot: legions,
guards, phalanxes, hordes), ``cavalry`` (every kind of horse, elephants, chariots),
``auxilia`` (light foot, mobs, engineers and baggage), ``fleet`` (only warships),
``leader`` (leaders with no troops), ``garrison`` (troops that never leave their walls)
or ``client`` (a client king's or another power's force) — and a stack card: its leaders
with their ratings, its strength and its composition by kind.

No arcade here (the markers' textures are drawn in ``campaign.view.markers``): the
counters are worked out from the state alone and tested without a window.
"""

from __future__ import annotations

from collections import Counter

from campaign.rules.common import force_name, leader_name
from campaign.state import SIDES, CampaignState
from campaign.units import Force, catalogue
from campaign.view.model import ForceMarker

#: every symbol a counter can carry, in the legend's order
SYMBOLS = ("legion", "cavalry", "auxilia", "fleet", "leader", "garrison", "client")
#: the branch of each battleboard kind (what its counter's symbol says it is)
BRANCH = {
    "legion": "legion",
    "phalanx": "legion",
    "heavy_infantry": "legion",
    "cavalry": "cavalry",
    "light_cavalry": "cavalry",
    "heavy_cavalry": "cavalry",
    "elephant": "cavalry",
    "chariot": "cavalry",
    "auxiliary": "auxilia",
    "mob": "auxilia",
    "impeditus": "auxilia",
    "civis": "garrison",
    "fleet": "fleet",
}
#: the words of the symbols (the legend)
SYMBOL_WORDS = {
    "legion": "Legions",
    "cavalry": "Cavalry",
    "auxilia": "Auxilia",
    "fleet": "Fleet",
    "leader": "Leader alone",
    "garrison": "Garrison",
    "client": "Client force",
}


def symbol_of(force: Force) -> str:
    """The one symbol of ``force`` (see the module docstring)."""
    cat = catalogue()
    if not force.units:
        return "leader"
    kinds = [cat.kind(u.kind) for u in force.units]
    if all(k.is_fleet for k in kinds):
        return "fleet"
    if all(not k.mobile for k in kinds):
        return "garrison"
    if force.side not in SIDES:
        return "client"
    sp: Counter[str] = Counter()
    for u, k in zip(force.units, kinds, strict=True):
        sp[BRANCH.get(k.battleboard, "auxilia")] += u.strength
    sp.pop("fleet", None)
    sp.pop("garrison", None)
    if not sp:
        return "garrison"
    return max(("legion", "cavalry", "auxilia"), key=lambda b: (sp[b], b == "legion"))


def composition(force: Force) -> str:
    """The force's units by kind: "3 Legion (15 SP) · 1 Cavalry (2 SP)"."""
    cat = catalogue()
    count: Counter[str] = Counter()
    sp: Counter[str] = Counter()
    for u in force.units:
        name = cat.kind(u.kind).name
        count[name] += 1
        sp[name] += u.strength
    return " · ".join(f"{count[k]} {k} ({sp[k]} SP)" for k in sorted(count, key=lambda k: -sp[k]))


def card(state: CampaignState, force: Force) -> tuple[str, ...]:
    """The stack card's lines for one force: who leads it, its strength and composition."""
    cat = catalogue()
    head = force_name(force) if force.commander or force.name else force.id.replace("_", " ")
    lines = [f"{head[:1].upper()}{head[1:]} — {force.strength()} SP"]
    if force.leaders:
        lines.append("Leaders: " + ", ".join(f"{leader_name(ld)} ({cat.leader(ld).rating})" for ld in force.leaders))
    if force.units:
        lines.append(composition(force))
    return tuple(lines)


def force_markers(state: CampaignState) -> tuple[ForceMarker, ...]:
    """The counters to draw: one per force with units or leaders, commanded forces first in
    each place, each with its symbol, strength and stack card."""
    out = []
    cat = catalogue()
    for f in sorted(state.forces.values(), key=lambda f: (f.location, f.commander is None, f.id)):
        if not f.units and not f.leaders:
            continue
        kinds = [cat.kind(u.kind) for u in f.units]
        fleets = sum(1 for k in kinds if k.is_fleet)
        ground = sum(u.strength for u, k in zip(f.units, kinds, strict=True) if not k.is_fleet)
        detail = f"{ground}" + (f" · {fleets}F" if fleets else "")
        label = leader_name(f.commander) if f.commander else ""
        out.append(
            ForceMarker(
                f.id,
                f.location,
                f.side,
                label,
                detail,
                leader=f.commander is not None,
                symbol=symbol_of(f),
                strength=f.strength(),
                card=card(state, f),
            )
        )
    return tuple(out)
