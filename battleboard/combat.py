"""Battleboard combat (docs/rules/battleboard.md §8–§9; 004 Combat): the attack series on the
combat table (``data/combat.toml``) by attack mode, defensive fire, leaders' bonuses, the
exact set-up the odds preview runs (``attack_setup``, ``resolve_setup``), and what a result
does — elimination, a leader's loss, a ship sunk or captured.
"""

from __future__ import annotations

from typing import NamedTuple

from battleboard.model import Action, Leader, State, Unit
from battleboard.queries import Chance, active_ground, lift_off, log_event
from battleboard.tables import Combat
from bellum.events import Event


# --------------------------------------------------------------------------
# combat
# --------------------------------------------------------------------------
class Fighter:
    """The part of a unit the combat series works on (§8.3)."""

    __slots__ = ("dead", "flipped", "l_as_b", "mod", "uid")

    def __init__(self, uid: str, flipped: bool, mod: int, l_as_b: bool) -> None:
        self.uid = uid
        self.flipped = flipped
        self.mod = mod
        self.l_as_b = l_as_b
        self.dead = False

    def hit(self, result: str) -> None:
        """Apply B or L (§8.4)."""
        if (result == "L" and not self.l_as_b) or self.flipped:
            self.dead = True
        else:
            self.flipped = True

    def key(self) -> tuple[int, bool, bool]:
        return (self.mod, self.flipped, self.l_as_b)


class Setup(NamedTuple):
    """What the dice of one attack work on: the mode, the number of rolls, the attacker and
    each defender as (modifier, flipped, L-counts-as-B), and the defensive fire modifier."""

    mode: str
    rolls: int
    att: tuple[int, bool, bool]
    defs: tuple[tuple[int, bool, bool], ...]
    firer_mod: int | None


def run_series(
    att: Fighter,
    defenders: list[Fighter],
    rolls: int,
    row: tuple[str, ...],
    low: int,
    att_flip_mod: int,
    def_flip_mod: int,
    chance: Chance,
    label: str,
) -> int:
    """Roll up to ``rolls`` attacks on ``row`` against the defenders in turn (§8.3,
    004 Combat: Boarding): stop on A, on running out of rolls, or when every defender is
    gone.  Returns the number of rolls made."""
    i = 0
    used = 0
    n = len(defenders)
    while used < rolls and i < n:
        d = defenders[i]
        mod = att.mod + d.mod + (att_flip_mod if att.flipped else 0) + (def_flip_mod if d.flipped else 0)
        r = chance.combat(row, low, mod, label)
        used += 1
        if r == "A":
            if att.flipped:
                att.dead = True
            else:
                att.flipped = True
            break
        if r == "B" or r == "L":
            d.hit(r)
            if d.dead:
                i += 1
    return used


def defensive_fire(att: Fighter, firer_mod: int, row: tuple[str, ...], low: int, chance: Chance, label: str) -> str:
    """One Fire roll by the defender at the attacker before its series (§8.6)."""
    r = chance.combat(row, low, firer_mod + att.mod, label)
    if r == "B" or r == "L":
        att.hit(r)
    return r


def _light_rule(s: State, defender: Unit, attacker: Unit) -> bool:
    """Option light-l-as-b: L counts as B against light units unless heavy cavalry attacks (004, §16)."""
    if "light-l-as-b" not in s.cfg.options:
        return False
    kinds = s.cfg.tables.units.kinds
    return kinds[defender.kind].light and attacker.kind != "heavy_cavalry"


def _leader_bonus(s: State, u: Unit) -> int:
    """The bonus of a leader of rating ``leader_rating`` or better with ``u`` (§9.1): the
    leaders of ``queries.leaders_with``, read without building their list."""
    m = s.cfg.tables.combat.modifiers
    need = m.leader_rating
    if s.naval:
        uid = u.id
        for ld in s.leaders.values():
            if ld.aboard == uid and ld.status == "active" and ld.rating >= need:
                return m.leader_bonus
        return 0
    sq = u.square
    if sq is None:
        return 0
    side = u.side
    for ld in s.leaders.values():
        if ld.square == sq and ld.status == "active" and ld.side == side and ld.rating >= need:
            return m.leader_bonus
    return 0


def attack_setup(s: State, a: Action) -> tuple[Setup, tuple[str, ...]]:
    """Everything the dice work on in an attack, and the ids of (attacker, defenders...).

    The same setup serves ``_attack`` and the odds (battleboard.odds).  Each fighter is
    (modifier, flipped, L counts as B): ``Fighter.key``."""
    cfg = s.cfg
    tb = cfg.tables
    m = tb.combat.modifiers
    kinds = tb.units.kinds
    units = s.units
    who = units[a.unit]
    tgt = units[a.target]
    mode = a.mode
    if s.naval:
        fleet = who if who.kind == "fleet" else units[who.aboard or ""]
        amod = m.attacker_discipline[who.discipline] + _leader_bonus(s, fleet)  # type: ignore[index]
        if fleet.inspired:
            amod += m.inspire
        att = (amod, who.flipped, False)
        if mode == "ram":
            d = (m.defender_discipline[tgt.discipline], tgt.flipped, True)  # type: ignore[index]
            return Setup(mode, kinds["fleet"].rolls, att, (d,), None), (who.id, tgt.id)
        if mode == "fire":
            g = active_ground(s, tgt)
            assert g is not None
            dmod = m.defender_discipline[g.discipline] + vs_modifier(s, mode, g.kind)  # type: ignore[index]
            d = (dmod, g.flipped, _light_rule(s, g, who))
            return Setup(mode, kinds["fleet"].rolls, att, (d,), None), (who.id, g.id)
        defs: list[tuple[int, bool, bool]] = []
        ids = [who.id]
        for pid in tgt.cargo:  # impediti never defend (004 Combat: Boarding)
            p = units[pid]
            if p.kind == "impeditus":
                continue
            dmod = m.defender_discipline[p.discipline] + vs_modifier(s, mode, p.kind)  # type: ignore[index]
            defs.append((dmod, p.flipped, _light_rule(s, p, who)))
            ids.append(p.id)
        if not (tgt.captured and defs):  # a captured ship reverts when its captor falls (§13.8)
            fm = m.defender_discipline[tgt.discipline]  # type: ignore[index]
            defs.append((fm, tgt.flipped, True))  # L counts as B against a ship
            ids.append(tgt.id)
        return Setup(mode, kinds[who.kind].rolls, att, tuple(defs), None), tuple(ids)
    assert who.square is not None and tgt.square is not None
    feats = tb.boards.features
    board = cfg.board
    amod = m.attacker_discipline[who.discipline] + _leader_bonus(s, who)  # type: ignore[index]
    amod += feats[board.feature[who.square]].attack_from
    if who.inspired:
        amod += m.inspire
    tfeat = feats[board.feature[tgt.square]]
    dmod = m.defender_discipline[tgt.discipline]  # type: ignore[index]
    if not (mode == "testudo" and tfeat.testudo_ignores):
        dmod += tfeat.defend
    dmod += vs_modifier(s, mode, tgt.kind)
    if mode != "fire" and not tfeat.no_flank:  # §8.5
        front = 1 if tgt.side == "A" else -1
        cols = board.columns
        dr = who.square // cols - tgt.square // cols
        if dr == 0:
            dmod += m.flank
        elif dr == -front:
            dmod += m.rear
    fmod = None
    if mode != "fire" and not tgt.flipped and "fire" in kinds[tgt.kind].modes:  # §8.6
        # the defender fires with its discipline; the attacker defends with its own (§8.6)
        fmod = m.attacker_discipline[tgt.discipline] + m.defender_discipline[who.discipline]  # type: ignore[index]
    att = (amod, who.flipped, _light_rule(s, who, tgt))
    d = (dmod, tgt.flipped, _light_rule(s, tgt, who))
    return Setup(mode, kinds[who.kind].rolls, att, (d,), fmod), (who.id, tgt.id)


def vs_modifier(s: State, mode: str, kind: str) -> int:
    """The mode-against-kind modifier of combat.toml (§8.2)."""
    key = ("vs", mode, kind)
    found = s.cfg.cache.get(key)
    if found is None:
        entries = s.cfg.tables.combat.mode_vs_kind
        found = s.cfg.cache[key] = sum(e.modifier for e in entries if e.mode == mode and kind in e.defenders)
    return found


def resolve_setup(
    combat: Combat, setup: Setup, uids: tuple[str, ...], chance: Chance
) -> tuple[Fighter, list[Fighter], str, int]:
    """Defensive fire, then the series, on fresh fighters: the real resolver (§8.3–§8.6)."""
    m = combat.modifiers
    low = combat.low
    att = Fighter(uids[0], setup.att[1], setup.att[0], setup.att[2])
    defenders = [Fighter(uid, k[1], k[0], k[2]) for uid, k in zip(uids[1:], setup.defs, strict=True)]
    fire_result = ""
    if setup.firer_mod is not None:
        mod = setup.firer_mod + (m.defender_flipped if att.flipped else 0)
        probe = Fighter(att.uid, att.flipped, 0, att.l_as_b)
        fire_result = defensive_fire(probe, mod, combat.row("fire"), low, chance, f"defensive fire on {att.uid}")
        att.flipped, att.dead = probe.flipped, probe.dead
    used = 0
    if not att.dead:
        label = f"{setup.mode} {att.uid}"
        row = combat.row(setup.mode)
        used = run_series(att, defenders, setup.rolls, row, low, m.attacker_flipped, m.defender_flipped, chance, label)
    return att, defenders, fire_result, used


def resolve_fighters(s: State, a: Action, chance: Chance) -> tuple[Fighter, list[Fighter], str, int]:
    setup, uids = attack_setup(s, a)
    return resolve_setup(s.cfg.tables.combat, setup, uids, chance)


def resolve_attack(s: State, a: Action, chance: Chance, ev: list[Event] | None) -> None:
    s.phase = "combat"
    who = s.units[a.unit]
    tgt = s.units[a.target]
    fleet = who if (not s.naval or who.kind == "fleet") else s.units[who.aboard or ""]
    fleet.attacked = True
    who.attacked = True
    who.inspired = False
    fleet.inspired = False
    first = len(chance.drawn)
    att, defenders, fire_result, _ = resolve_fighters(s, a, chance)
    if ev is not None:
        what = {"ram": "rams", "fire": "fires at"}.get(a.mode, "boards" if s.naval else f"attacks ({a.mode})")
        rolled = chance.drawn[first + (1 if fire_result else 0) :]
        text = f"{who.id} {what} {tgt.id}: {' '.join(rolled) or 'no roll'}"
        log_event(ev, "attack", text, unit=who.id, target=tgt.id, mode=a.mode, results=rolled)
    if fire_result:
        log_event(ev, "defensive_fire", f"{tgt.id} fires at {who.id} first: {fire_result} (§8.6)", result=fire_result)
    # the defenders' fates
    kills = 0
    for d in defenders:
        u = s.units[d.uid]
        if d.dead:
            if u.kind == "fleet" and s.naval:
                if a.mode not in ("ram", "fire") and a.capture:
                    _capture(s, u, who, chance, ev)
                else:
                    _sink(s, u, chance, ev)
            else:
                _eliminate(s, u, chance, ev)
            kills += 1
        elif d.flipped and not u.flipped:
            u.flipped = True
            log_event(ev, "disrupted", f"{u.id} is disrupted", unit=u.id)
    who.kills += kills
    # the attacker's fate (A flips the rammer's or firer's ship, not its passengers, 004)
    if att.dead:
        if who.kind == "fleet":
            _sink(s, who, chance, ev)
        else:
            _eliminate(s, who, chance, ev)
    elif att.flipped and not who.flipped:
        who.flipped = True
        log_event(ev, "disrupted", f"{who.id} is disrupted", unit=who.id)


def _eliminate(s: State, u: Unit, chance: Chance, ev: list[Event] | None) -> None:
    """A ground unit or land unit is eliminated (§8.4); leaders with it roll (§9.3)."""
    sq = u.square
    lift_off(s, u)
    u.status = "eliminated"
    log_event(ev, "eliminated", f"{u.id} is eliminated", unit=u.id)
    if u.aboard is not None:
        fleet = s.units[u.aboard]
        if u.id in fleet.cargo:
            fleet.cargo.remove(u.id)
        if fleet.captor == u.id:  # 004 Combat: Boarding — the ship reverts
            fleet.side = fleet.owner
            fleet.captured = False
            fleet.captor = None
            log_event(ev, "revert", f"{fleet.id} reverts to side {fleet.owner}", unit=fleet.id)
        return
    if sq is None:
        return
    for ld in s.leaders.values():
        if ld.status == "active" and ld.aboard is None and ld.square == sq and ld.side == u.side:
            _leader_loss(s, ld, sq, chance, ev)


def _leader_loss(s: State, ld: Leader, sq: int, chance: Chance, ev: list[Event] | None) -> None:
    """§9.3 leader casualties."""
    t = s.cfg.tables.battle.leader_loss
    roll = chance.dice.d10(f"leader {ld.id}")
    if roll in t.killed:
        ld.status = "killed"
        ld.square = None
        log_event(ev, "leader", f"{ld.id} is killed (roll {roll}, §9.3)", leader=ld.id, fate="killed")
        return
    board = s.cfg.board
    near = sorted(
        (board.distance(q, sq), board.name(q), q)
        for q, uid in s.grid.items()
        if s.units[uid].side == ld.side and board.distance(q, sq) <= t.joins_within
    )
    if roll in t.captured or not near:
        ld.status = "captured"
        ld.square = None
        log_event(ev, "leader", f"{ld.id} is captured (roll {roll}, §9.3)", leader=ld.id, fate="captured")
        return
    ld.square = near[0][2]
    log_event(ev, "leader", f"{ld.id} escapes to {near[0][1]} (roll {roll}, §9.3)", leader=ld.id, fate="escaped")


def _sink(s: State, f: Unit, chance: Chance, ev: list[Event] | None) -> None:
    """A ship sinks with all aboard; leaders may jump to an adjacent friendly fleet (004 Passengers)."""
    sq = f.square
    lift_off(s, f)
    f.status = "sunk"
    for pid in f.cargo:
        s.units[pid].status = "drowned"
    log_event(ev, "sunk", f"{f.id} is sunk with {len(f.cargo)} unit(s) aboard", unit=f.id)
    board = s.cfg.board
    cmd = s.cfg.tables.command
    for ld in s.leaders.values():
        if ld.aboard != f.id or ld.status != "active":
            continue
        friends = sorted(
            (board.name(n), s.grid[n])
            for n in (board.neighbors[sq] if sq is not None else ())
            if n in s.grid and s.units[s.grid[n]].side == ld.side
        )
        if not friends:
            ld.status = "drowned"
            log_event(
                ev,
                "leader",
                f"{ld.id} drowns: no friendly ship alongside (004 Passengers)",
                leader=ld.id,
                fate="drowned",
            )
            continue
        roll = chance.dice.d10(f"jump {ld.id}")
        i = min(max(roll - cmd.low, 0), cmd.high - cmd.low)
        if cmd.table[ld.discipline][i] == "F":  # type: ignore[index]
            ld.status = "drowned"
            log_event(ev, "leader", f"{ld.id} drowns (roll {roll}, 004 Passengers)", leader=ld.id, fate="drowned")
        else:
            ld.aboard = friends[0][1]
            log_event(
                ev,
                "leader",
                f"{ld.id} jumps to {friends[0][1]} (roll {roll}, 004 Passengers)",
                leader=ld.id,
                fate="escaped",
            )


def _capture(s: State, f: Unit, boarder: Unit, chance: Chance, ev: list[Event] | None) -> None:
    """The boarding unit takes the ship (004 Combat: Boarding)."""
    own = s.units[boarder.aboard or ""]
    if boarder.id in own.cargo:
        own.cargo.remove(boarder.id)
    for pid in f.cargo:  # impediti aboard are taken
        s.units[pid].status = "captured"
    f.cargo = [boarder.id]
    boarder.aboard = f.id
    f.side = boarder.side
    f.captured = True
    f.captor = boarder.id
    f.captured_now = True
    f.attacked = True
    f.flipped = True  # it was destroyed: it fights on disrupted
    for ld in s.leaders.values():
        if ld.aboard == f.id and ld.status == "active":
            ld.status = "eliminated"
            log_event(
                ev,
                "leader",
                f"{ld.id} is taken with {f.id} and put to death (004 Combat: Boarding)",
                leader=ld.id,
                fate="executed",
            )
    log_event(ev, "captured", f"{boarder.id} captures {f.id} (004 Combat: Boarding)", unit=f.id, by=boarder.id)
