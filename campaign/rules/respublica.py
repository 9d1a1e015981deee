"""The Res Publica: the Optimates and Populares tables, their markers, the Tribune, the
Dictator and the Imperator, and the succession (docs/rules/campaign.md §16, §17.6;
reference: Stratagems, Victory).

In its Res Publica phase a side plays Political stratagems on the two party tables, as
many as its leaders' ratings allow: each is one d10 plus modifiers, read on the table
(``tables.toml [res_publica]``).  Results win or lose **Res Publica markers** (a fixed
number in the game: a side gains a free one, else takes one from the enemy), a
Political stratagem, or one of the three single markers.  The enemy holding the
**Tribune** may negate one result a turn (a ``veto`` decision).  A side without a
Supreme Leader may instead have a leader claim the succession with a Political
stratagem.
"""

from __future__ import annotations

from bellum.dice import Dice
from bellum.errors import RuleError
from bellum.events import Event
from campaign import actions as A
from campaign.decisions import VetoDecision
from campaign.rules.common import counted, event, leader_name, possessive
from campaign.rules.recruiting import raise_volunteers
from campaign.rules.stratagems import gain, leaders_of, play, plays_left
from campaign.state import SIDE_NAMES, CampaignState, enemy, side_title
from campaign.tables import Effect, tables

TABLES: tuple[str, ...] = ("optimates", "populares")
TABLE_NAMES = {"optimates": "the Optimates", "populares": "the Populares"}


# --------------------------------------------------------------------------- markers


def markers_free(state: CampaignState) -> int:
    """Res Publica markers neither side holds (§16.1)."""
    return max(0, tables().res_publica.markers - sum(state.res_publica.values()))


def _gain_marker(state: CampaignState, side: str) -> str | None:
    foe = enemy(side)
    if markers_free(state) > 0:
        state.res_publica[side] += 1
        return "free"
    if state.res_publica[foe] > 0:
        state.res_publica[foe] -= 1
        state.res_publica[side] += 1
        return "taken"
    return None


# --------------------------------------------------------------------------- who plays, and the roll


def roller(state: CampaignState, side: str) -> str | None:
    """The leader who plays a Political stratagem on the tables: a Roman leader of the
    side in Rome with a play left (most left first), else the Supreme Leader wherever
    he is (§16.2)."""
    in_rome = [
        ld
        for f in state.side_forces_at("roma", side)
        for ld in f.leaders
        if ld in leaders_of(state, side, roman=True) and plays_left(state, ld) > 0
    ]
    if in_rome:
        return sorted(in_rome, key=lambda ld: (-plays_left(state, ld), ld))[0]
    sup = state.supreme.get(side)
    if sup and plays_left(state, sup) > 0:
        return sup
    return None


def modifier(state: CampaignState, side: str, table: str, leader: str) -> int:
    """§16.2: Rome, one's own party, a leader in Rome, the Dictator, earlier rolls."""
    t = tables().res_publica
    mod = t.rome if state.owner_side("roma") == side else 0
    mod += t.own_party if t.party.get(side) == table else t.other_party
    f = state.leader_force(leader)
    if f is not None and f.location == "roma":
        mod += t.in_rome
    if state.republic.get("dictator") == side:
        mod += t.dictator
    mod += t.repeat * state.rolls.get(table, 0)
    return mod


def entry(roll: int) -> int:
    return max(0, min(9, roll))


def tribune_may_veto(state: CampaignState, side: str) -> bool:
    """The enemy holds the Tribune, has not negated a result this turn, the roller holds
    no Dictator (a dictator's acts are beyond the tribunes' veto, §16.3–§16.4) and — the
    veto being spoken in the city (§16.3, ``tribune_needs_rome``) — does not hold Rome."""
    return (
        state.republic.get("tribune") == enemy(side)
        and not state.tribune_used
        and state.republic.get("dictator") != side
        and not (tables().res_publica.tribune_needs_rome and state.owner_side("roma") == side)
    )


def roll_table(state: CampaignState, table: str, dice: Dice) -> list[Event]:
    """The active side plays a Political stratagem on ``table`` (§16.2)."""
    side = state.active
    if state.phase != "res_publica":
        raise RuleError("The Res Publica tables are rolled only in the Res Publica phase.")
    if table not in TABLES:
        raise RuleError(f"There is no Res Publica table called {table!r}.")
    leader = roller(state, side)
    if leader is None:
        raise RuleError("No leader of yours can play a Political stratagem now (the Supreme Leader or one in Rome).")
    mod = modifier(state, side, table, leader)
    play(state, side, "political", leader)
    state.rolls[table] = state.rolls.get(table, 0) + 1
    die = dice.d10(f"res publica {table}")
    idx = entry(die + mod)
    effects = tables().res_publica.table(table)[idx]
    words = describe(effects)
    ev = event(
        state,
        "politics",
        f"{leader_name(leader)} works on {TABLE_NAMES[table]} for {SIDE_NAMES[side]} "
        f"(roll {die}{mod:+d} → {idx}): {words}.",
        side=side,
        table=table,
        leader=leader,
        roll=die,
        modifier=mod,
        entry=idx,
    )
    if any(e.kind != "none" for e in effects) and tribune_may_veto(state, side):
        state.pending = VetoDecision(enemy(side), side, table, idx)
        return [ev]
    return [ev, *apply_effects(state, side, effects)]


def describe(effects: tuple[Effect, ...]) -> str:
    words = {
        "none": "nothing comes of it",
        "marker": "a Res Publica marker",
        "lose_marker": "a scandal costs a Res Publica marker",
        "enemy_marker": "the enemy loses a Res Publica marker",
        "political": "a Political stratagem",
        "tribune": "the Tribune",
        "dictator": "the Dictatorship",
        "imperator": "the acclamation as Imperator",
        "volunteers": "volunteers flock to the standards",
    }
    return "; ".join(f"{e.n} Res Publica markers" if e.kind == "marker" and e.n > 1 else words[e.kind] for e in effects)


def apply_effects(state: CampaignState, side: str, effects: tuple[Effect, ...]) -> list[Event]:
    """What a Res Publica result does (§16.2, §16.4)."""
    foe = enemy(side)
    events: list[Event] = []

    def marker(n: int) -> None:
        got = 0
        for _ in range(n):
            if _gain_marker(state, side) is not None:
                got += 1
        if got:
            events.append(
                event(
                    state,
                    "marker",
                    f"{side_title(side)} gain {counted(got, 'Res Publica marker')} (now {state.res_publica[side]}; "
                    f"{SIDE_NAMES[foe]} {state.res_publica[foe]}).",
                    side=side,
                    n=got,
                )
            )

    for e in effects:
        kind = e.kind
        if kind == "dictator" and (state.owner_side("roma") != side or state.republic.get("dictator") == side):
            kind = "marker"  # no dictatorship without Rome
        if kind == "imperator" and (not state.supreme.get(side) or state.republic.get("imperator") == side):
            kind = "marker"
        if kind == "tribune" and state.republic.get("tribune") == side:
            kind = "marker"
        if kind == "marker":
            marker(e.n)
        elif kind == "lose_marker" and state.res_publica[side] > 0:
            state.res_publica[side] -= 1
            events.append(event(state, "marker", f"{side_title(side)} lose a Res Publica marker.", side=side, n=-1))
        elif kind == "enemy_marker" and state.res_publica[foe] > 0:
            state.res_publica[foe] -= 1
            events.append(event(state, "marker", f"{side_title(foe)} lose a Res Publica marker.", side=foe, n=-1))
        elif kind == "volunteers":
            events += raise_volunteers(state, side, e.n)
        elif kind == "political":
            if gain(state, side, "political"):
                events.append(event(state, "take", f"{side_title(side)} gain a Political stratagem.", side=side))
        elif kind in ("tribune", "dictator", "imperator"):
            state.republic[kind] = side
            sup = state.supreme.get(side)
            chief = leader_name(sup) if sup else side_title(side)
            text = {
                "tribune": f"The Tribune passes to {SIDE_NAMES[side]}.",
                "dictator": f"{chief} is named Dictator: {SIDE_NAMES[side]} hold the Dictator marker.",
                "imperator": f"The legions hail {chief} Imperator.",
            }[kind]
            events.append(event(state, kind, text, side=side))
    return events


def veto(state: CampaignState) -> list[Event]:
    """The Tribune negates the pending result (§16.3)."""
    p = state.pending
    assert isinstance(p, VetoDecision)
    state.pending = None
    state.tribune_used = True
    side = p.side
    return [
        event(
            state,
            "veto",
            f"A tribune of {SIDE_NAMES[enemy(side)]} interposes his veto: the result is void.",
            side=enemy(side),
        )
    ]


def let_stand(state: CampaignState) -> list[Event]:
    p = state.pending
    assert isinstance(p, VetoDecision)
    state.pending = None
    side = p.side
    effects = tables().res_publica.table(p.table)[p.entry]
    return apply_effects(state, side, effects)


def beaten_imperator(state: CampaignState, loser: str, present: set[str]) -> list[Event]:
    """A side whose Supreme Leader is beaten in a battle he fought loses the Imperator
    marker (§16.4: the acclamation is the army's, and a defeat revokes it) and
    ``beaten_supreme`` Res Publica markers, which go back to the free ones (§16.6: the
    cause follows its champion's fortune)."""
    sup = state.supreme.get(loser)
    if not (sup and sup in present):
        return []
    events: list[Event] = []
    if state.republic.get("imperator") == loser:
        state.republic["imperator"] = None
        events.append(
            event(state, "imperator", f"Beaten, {leader_name(sup)} is no longer hailed Imperator.", side=loser)
        )
    lost = min(tables().res_publica.beaten_supreme, state.res_publica.get(loser, 0))
    if lost:
        state.res_publica[loser] -= lost
        events.append(
            event(
                state,
                "marker",
                f"{possessive(leader_name(sup))} defeat shakes his cause: {SIDE_NAMES[loser]} lose "
                f"{counted(lost, 'Res Publica marker')} (now {state.res_publica[loser]}).",
                side=loser,
                n=-lost,
            )
        )
    return events


# --------------------------------------------------------------------------- the consuls


def elect_consuls(state: CampaignState) -> list[Event]:
    """When the year turns, the side holding Rome has the new year's consuls elected: it
    gains ``consuls_gain`` Res Publica markers (taken from the enemy when none are free)
    and the enemy loses ``consuls_enemy_loses`` more to the free ones (§16.5).  Nothing
    when no side holds Rome."""
    t = tables().res_publica
    side = state.owner_side("roma")
    if side not in SIDE_NAMES or not (t.consuls_gain or t.consuls_enemy_loses):
        return []
    foe = enemy(side)
    before = dict(state.res_publica)
    for _ in range(t.consuls_gain):
        _gain_marker(state, side)
    lost = min(t.consuls_enemy_loses, state.res_publica[foe])
    state.res_publica[foe] -= lost
    if state.res_publica == before:
        return []
    return [
        event(
            state,
            "marker",  # a chronicle kind (campaign.chronicle)
            f"The consuls of the new year are elected in Rome under the eyes of {SIDE_NAMES[side]}; "
            f"Res Publica markers: {SIDE_NAMES[side]} {state.res_publica[side]}, "
            f"{SIDE_NAMES[foe]} {state.res_publica[foe]}.",
            side=side,
            res_publica=dict(state.res_publica),
        )
    ]


# --------------------------------------------------------------------------- the succession


def claimants(state: CampaignState, side: str) -> list[str]:
    """Roman leaders of a side without a Supreme Leader who may claim the succession."""
    if state.supreme.get(side):
        return []
    return [ld for ld in leaders_of(state, side, roman=True) if plays_left(state, ld) > 0]


def claim(state: CampaignState, leader: str) -> list[Event]:
    """A leader becomes Supreme Leader by playing a Political stratagem (§17.6; reference:
    the heir must play a Political stratagem)."""
    side = state.active
    if state.phase != "res_publica":
        raise RuleError("The succession is claimed in the Res Publica phase.")
    if leader not in claimants(state, side):
        raise RuleError(f"{leader_name(leader)} cannot claim the succession now.")
    play(state, side, "political", leader)
    state.supreme[side] = leader
    return [
        event(
            state,
            "claim",
            f"{leader_name(leader)} claims the succession and leads {SIDE_NAMES[side]}.",
            side=side,
            leader=leader,
        )
    ]


def legal(state: CampaignState) -> list[A.Action]:
    side = state.active
    out: list[A.Action] = []
    if state.stratagems[side]["political"] < 1:
        return out
    out += [A.Claim(ld) for ld in claimants(state, side)]
    if roller(state, side) is not None:
        party = tables().res_publica.party.get(side)
        out += [A.Politics(t) for t in sorted(TABLES, key=lambda t: t != party)]
    return out
