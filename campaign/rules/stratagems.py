"""Stratagems: income, choice within the counter mix, per-leader play limits and the
expended box (docs/rules/campaign.md §15; reference: Stratagems).

A side's stratagem counters are *chosen*, not drawn: when its stratagems phase opens the
side is owed its income (``state.due``) — its Supreme Leader's rating, +1 for Rome, +1
for five of the nine income cities, +1 for the Syria region, +1 for the Dictator, +1
while it has no Supreme Leader — and
takes that many counters, one ``Take`` at a time, of the types it wants, as long as the
counter mix has them.  Held and expended counters both come out of the mix; the
expended box goes back to the mix when the year turns (§15.4).

A leader plays at most his rating of stratagems in a half-turn outside battles (his
side's own half and the enemy's are counted apart, since ``plays`` is reset when each
half opens); in a battle the side commits at most the best rating among its leaders
there (§15.3).  The Imperator marker adds one to its Supreme Leader's rating for both.
"""

from __future__ import annotations

from bellum.errors import RuleError
from bellum.events import Event
from campaign import actions as A
from campaign.decisions import SpoilsDecision
from campaign.map import roman_world
from campaign.rules.common import counted, event, leader_name
from campaign.state import SIDE_NAMES, SIDES, STRATAGEM_TYPES, CampaignState, enemy, side_title
from campaign.tables import tables
from campaign.units import catalogue

# --------------------------------------------------------------------------- leaders


def side_of_leader(state: CampaignState, leader: str) -> str | None:
    """The side a leader in play acts for (through the force he is with), else None."""
    f = state.leader_force(leader)
    return None if f is None else state.allegiance(f.side)


def leaders_of(state: CampaignState, side: str, *, roman: bool = False) -> list[str]:
    """Every leader in play with ``side``'s forces (Romans only when ``roman``), by id."""
    cat = catalogue()
    out = [ld for f in state.forces_of(side) for ld in f.leaders]
    if roman:
        out = [ld for ld in out if cat.leader(ld).nation == "roman"]
    return sorted(out)


def limit(state: CampaignState, leader: str) -> int:
    """Stratagems a leader may play in a half-turn or a battle: his rating, +1 for the
    Supreme Leader of the side holding the Imperator marker (§15.3, §16.4)."""
    rating = catalogue().leader(leader).rating
    side = side_of_leader(state, leader)
    if side is not None and state.supreme.get(side) == leader and state.republic.get("imperator") == side:
        rating += 1
    return rating


def plays_left(state: CampaignState, leader: str) -> int:
    return max(0, limit(state, leader) - state.plays.get(leader, 0))


def record_play(state: CampaignState, leader: str) -> None:
    """Count one stratagem played by ``leader`` this half-turn (the counter itself is
    spent by the caller)."""
    state.plays[leader] = state.plays.get(leader, 0) + 1


def play(state: CampaignState, side: str, kind: str, leader: str) -> None:
    """``leader`` plays one ``kind`` stratagem of ``side``: it goes to the expended box and
    counts against his limit (§15.3–§15.4)."""
    if state.stratagems[side][kind] < 1:
        raise RuleError(f"You hold no {kind.capitalize()} stratagem.")
    if plays_left(state, leader) < 1:
        raise RuleError(f"{leader_name(leader)} has played all the stratagems his rating allows this turn.")
    state.stratagems[side][kind] -= 1
    state.expended[side][kind] += 1
    record_play(state, leader)


def commit_limit(state: CampaignState, side: str, place: str) -> int:
    """Military stratagems a side may commit to a battle in ``place``: what it holds, up
    to the best limit among its leaders there (§15.3; reference: per battle)."""
    best = max((limit(state, ld) for f in state.side_forces_at(place, side) for ld in f.leaders), default=0)
    return min(state.stratagems[side]["military"], best)


# --------------------------------------------------------------------------- income


def income(state: CampaignState, side: str) -> dict[str, int]:
    """The stratagems a side is owed when its stratagems phase opens, item by item
    (§15.1; reference: income)."""
    t = tables().stratagems
    cmap = roman_world()
    out: dict[str, int] = {}
    sup = state.supreme.get(side)
    if sup:
        out["supreme"] = catalogue().leader(sup).rating
    else:
        out["interregnum"] = t.interregnum
    if state.owner_side("roma") == side:
        out["rome"] = t.rome
    held = sum(1 for c in cmap.income_cities() if state.owner_side(c) == side)
    if held >= t.income_cities_needed:
        out["income_cities"] = t.income_cities
    if state.owner_side(t.syria_region) == side:
        out["syria"] = t.syria
    if state.republic.get("dictator") == side:
        out["dictator"] = t.dictator
    return {k: v for k, v in out.items() if v}


def mix(kind: str) -> int:
    limit_: int = getattr(tables().stratagems.mix, kind)
    return limit_


def pool_left(state: CampaignState, side: str, kind: str) -> int:
    """Counters of ``kind`` still free in ``side``'s mix: neither held nor expended."""
    return max(0, mix(kind) - state.stratagems[side][kind] - state.expended[side][kind])


def gain(state: CampaignState, side: str, kind: str, n: int = 1) -> int:
    """Give ``side`` up to ``n`` counters of ``kind`` from its mix; returns how many."""
    got = min(n, pool_left(state, side, kind))
    state.stratagems[side][kind] += got
    return got


# --------------------------------------------------------------------------- the phase


def open_half_turn(state: CampaignState) -> list[Event]:
    """The active side's stratagems phase opens (§15.1–§15.3): a new half-turn for every
    leader's play count; the side is owed its income; a Dictator without Rome lays
    down his office (§16.4)."""
    side = state.active
    state.plays = {}
    state.rolls = {}
    state.raised = ()
    events: list[Event] = []
    if state.republic.get("dictator") == side and state.owner_side("roma") != side:
        state.republic["dictator"] = None
        events.append(
            event(state, "dictator", f"Without Rome, {SIDE_NAMES[side]} lose the Dictator marker.", side=side)
        )
    items = income(state, side)
    state.due = sum(items.values())
    words = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in items.items()) or "nothing"
    events.append(
        event(
            state,
            "income",
            f"{side_title(side)} are owed {counted(state.due, 'stratagem')} ({words}).",
            side=side,
            due=state.due,
            items=items,
        )
    )
    return events


def take(state: CampaignState, kind: str) -> list[Event]:
    """Choose one stratagem counter of ``kind`` (§15.2)."""
    side = state.active
    if state.phase != "stratagems":
        raise RuleError("Stratagems are chosen only in the stratagems phase.")
    if kind not in STRATAGEM_TYPES:
        raise RuleError(f"There is no {kind} stratagem.")
    if state.due < 1:
        raise RuleError("You are owed no more stratagems this turn.")
    if pool_left(state, side, kind) < 1:
        raise RuleError(f"Every {kind.capitalize()} stratagem of your counter mix is held or expended.")
    state.stratagems[side][kind] += 1
    state.due -= 1
    return [
        event(state, "take", f"{side_title(side)} take a {kind.capitalize()} stratagem.", side=side, stratagem=kind)
    ]


def forfeit(state: CampaignState) -> list[Event]:
    """Ending the stratagems phase forfeits what is still owed (§15.2)."""
    n, state.due = state.due, 0
    if not n:
        return []
    return [event(state, "forfeit", f"{side_title(state.active)} leave {counted(n, 'stratagem')} untaken.", n=n)]


def legal(state: CampaignState) -> list[A.Action]:
    side = state.active
    if state.due < 1:
        return []
    return [A.Take(k) for k in STRATAGEM_TYPES if pool_left(state, side, k) > 0]


# --------------------------------------------------------------------------- spoils of victory


def offer_spoils(state: CampaignState) -> list[Event]:
    """Once nothing else waits, a side owed the spoils of a victory decides what to take
    them as (§12.4; 004's campaign report: Caesar took his as agents): the pending
    ``spoils`` decision, one ``Take`` a stratagem, of the kinds ``[battle] bonus_kinds``."""
    if state.pending is not None or state.result or not state.spoils:
        return []
    side = min(state.spoils, key=lambda s: (s != state.active, s))
    state.pending = SpoilsDecision(side, state.spoils[side])
    return []


def take_spoils(state: CampaignState, kind: str) -> list[Event]:
    """The winner takes one bonus stratagem as ``kind`` — Military or an Agent (§12.4, 004)."""
    p = state.pending
    assert isinstance(p, SpoilsDecision)
    side = p.actor
    kinds = tables().battle.bonus_kinds
    if kind not in kinds:
        allowed = " or ".join(k.capitalize() for k in kinds)
        raise RuleError(f"The spoils of a victory are taken as {allowed} stratagems.")
    state.stratagems[side][kind] += 1
    left = state.spoils.get(side, 0) - 1
    if left > 0:
        state.spoils[side] = left
        state.pending = SpoilsDecision(side, left)
    else:
        state.spoils.pop(side, None)
        state.pending = None
    return [
        event(
            state,
            "spoils",
            f"{side_title(side)} take {'an Agent' if kind == 'agent' else f'a {kind.capitalize()} stratagem'} "
            "from the spoils of victory.",
            side=side,
            stratagem=kind,
        )
    ]


def spoils_legal(state: CampaignState) -> list[A.Action]:
    return [A.Take(k) for k in tables().battle.bonus_kinds]


# --------------------------------------------------------------------------- the Supreme Leader


def supreme_lost(state: CampaignState, before: dict[str, str | None]) -> list[Event]:
    """A side whose Supreme Leader died or was taken since ``before`` loses every
    stratagem it holds (to the expended box) and its Dictator and Imperator markers
    (§17.6; reference: losing him costs them)."""
    events: list[Event] = []
    for side in SIDES:
        if before.get(side) and not state.supreme.get(side):
            held = dict(state.stratagems[side])
            for k, n in held.items():
                state.expended[side][k] += n
                state.stratagems[side][k] = 0
            lost = [m for m in ("dictator", "imperator") if state.republic.get(m) == side]
            for m in lost:
                state.republic[m] = None
            extra = f" and the {' and '.join(m.capitalize() for m in lost)}" if lost else ""
            events.append(
                event(
                    state,
                    "succession_lost",
                    f"{side_title(side)} have lost their Supreme Leader, {leader_name(before[side] or '')}: "
                    f"they lose the {counted(sum(held.values()), 'stratagem')} they held{extra}. "
                    f"A leader must claim the succession with a Political stratagem.",
                    side=side,
                    leader=before[side],
                )
            )
    return events


def colonies_of(state: CampaignState, side: str) -> list[str]:
    """Colonies in cities ``side`` holds (for Optimus victory)."""
    return [c for c in state.colonies if state.owner_side(c) == side]


def foe_of(side: str) -> str:
    return enemy(side)
