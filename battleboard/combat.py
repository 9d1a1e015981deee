"""Battleboard combat (docs/rules/battleboard.md §8–§9; 004 Combat): the attack series on the
combat table (``data/combat.toml``) by attack mode, defensive fire, leaders' bonuses, the
exact set-up the odds preview runs (``attack_setup``, ``resolve_setup``), and what a result
does — elimination, a leader's loss, a ship sunk or captured.
"""

from __future__ import annotations

from operator import itemgetter
from typing import NamedTuple

from battleboard.model import Action, Config, Leader, State, Unit
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


class Arms:
    """What ``attack_setup`` reads of the tables, laid out once per battle ``Config`` (the
    same numbers as ``combat.toml``, ``units.toml`` and the board's features): plain dicts
    and tuples instead of the validated models' attribute chains."""

    __slots__ = (
        "att_disc",
        "attack_from",
        "def_disc",
        "defend",
        "fires",
        "flank",
        "fleet_rolls",
        "inspire",
        "leader_bonus",
        "leader_rating",
        "light",
        "no_flank",
        "rear",
        "rolls",
        "testudo_free",
        "vs",
    )

    def __init__(self, cfg: Config) -> None:
        tb = cfg.tables
        m = tb.combat.modifiers
        kinds = tb.units.kinds
        self.att_disc: dict[str, int] = {d: v for d, v in m.attacker_discipline.items()}
        self.def_disc: dict[str, int] = {d: v for d, v in m.defender_discipline.items()}
        self.inspire = m.inspire
        self.leader_rating = m.leader_rating
        self.leader_bonus = m.leader_bonus
        self.flank = m.flank
        self.rear = m.rear
        self.rolls = {k: spec.rolls for k, spec in kinds.items()}
        self.fleet_rolls = self.rolls.get("fleet", 0)
        self.fires = frozenset(k for k, spec in kinds.items() if "fire" in spec.modes)
        #: the kinds option light-l-as-b protects (none without the option)
        self.light = frozenset(k for k, spec in kinds.items() if spec.light and "light-l-as-b" in cfg.options)
        vs: dict[tuple[str, str], int] = {}
        for e in tb.combat.mode_vs_kind:
            for kind in e.defenders:
                vs[(e.mode, kind)] = vs.get((e.mode, kind), 0) + e.modifier
        self.vs = vs
        feats = [tb.boards.features[f] for f in cfg.board.feature]
        self.attack_from = tuple(f.attack_from for f in feats)
        self.defend = tuple(f.defend for f in feats)
        self.testudo_free = tuple(f.testudo_ignores for f in feats)
        self.no_flank = tuple(f.no_flank for f in feats)

    # -- the set-ups of an attack at sea (004 Combat), made once here for ``setup_of`` and the AI
    def fleet_bonus(self, s: State, f: Unit) -> int:
        """What fleet ``f`` adds to its own attack and its troops': a leader aboard rated
        ``leader_rating`` or better (§9.1), and its inspiration (§9.2)."""
        bonus = 0
        fid = f.id
        need = self.leader_rating
        for ld in s.leaders.values():
            if ld.aboard == fid and ld.status == "active" and ld.rating >= need:
                bonus = self.leader_bonus
                break
        if f.inspired:
            bonus += self.inspire
        return bonus

    def ram(self, att: tuple[int, bool, bool], t: Unit) -> Setup:
        """A fleet (attacking as ``att``) ramming ship ``t``: L counts as B against a ship."""
        d = (self.def_disc[t.discipline], t.flipped, True)
        out: Setup = _new(Setup, ("ram", self.fleet_rolls, att, (d,), None))
        return out

    def fire(self, f: Unit, att: tuple[int, bool, bool], d: Unit) -> Setup:
        """Fleet ``f`` (attacking as ``att``) firing at the troops ``d`` aboard a ship."""
        dmod = self.def_disc[d.discipline] + self.vs.get(("fire", d.kind), 0)
        light = d.kind in self.light and f.kind != "heavy_cavalry"
        out: Setup = _new(Setup, ("fire", self.fleet_rolls, att, ((dmod, d.flipped, light),), None))
        return out

    def boarding(
        self, s: State, g: Unit, att: tuple[int, bool, bool], t: Unit, mode: str
    ) -> tuple[Setup, tuple[Unit, ...]]:
        """Troops ``g`` (attacking as ``att``) boarding ship ``t`` by ``mode``, and the
        defenders: the troops aboard but impediti, who never defend (004 Combat: Boarding), then
        the ship, L counting as B against it — unless it is a captured ship with troops aboard,
        which reverts when its captor falls (§13.8)."""
        units = s.units
        defs: list[tuple[int, bool, bool]] = []
        who: list[Unit] = []
        heavy_cav = g.kind == "heavy_cavalry"
        for pid in t.cargo:
            p = units[pid]
            if p.kind == "impeditus":
                continue
            dmod = self.def_disc[p.discipline] + self.vs.get((mode, p.kind), 0)
            defs.append((dmod, p.flipped, p.kind in self.light and not heavy_cav))
            who.append(p)
        if not (t.captured and defs):
            defs.append((self.def_disc[t.discipline], t.flipped, True))
            who.append(t)
        out: Setup = _new(Setup, (mode, self.rolls[g.kind], att, tuple(defs), None))
        return out, tuple(who)


def arms(cfg: Config) -> Arms:
    """The battle's ``Arms`` (made on first use, kept in ``Config.cache``)."""
    found = cfg.cache.get("arms")
    if found is None:
        found = cfg.cache["arms"] = Arms(cfg)
    assert isinstance(found, Arms)
    return found


_new = tuple.__new__  # a ``Setup`` made as the tuple it is


def attack_setup(s: State, a: Action) -> tuple[Setup, tuple[str, ...]]:
    """Everything the dice work on in an attack, and the ids of (attacker, defenders...).

    The same setup serves ``_attack`` and the odds (battleboard.odds).  Each fighter is
    (modifier, flipped, L counts as B): ``Fighter.key``.  The tables are read through the
    battle's ``Arms``; the ``Setup`` is made as the tuple it is (no Python-level constructor)."""
    return setup_of(s, a.unit, a.target, a.mode)


def setup_of(s: State, unit: str, target: str, mode: str) -> tuple[Setup, tuple[str, ...]]:
    """``attack_setup`` of an attack by ``unit`` on ``target`` by ``mode`` (a boarding's
    set-up is the same whether it captures or sinks), without the action."""
    cfg = s.cfg
    k = cfg.cache.get("arms")
    if k is None:
        k = arms(cfg)
    units = s.units
    who = units[unit]
    tgt = units[target]
    light = k.light
    if s.naval:
        fleet = who if who.kind == "fleet" else units[who.aboard or ""]
        att = (k.att_disc[who.discipline] + k.fleet_bonus(s, fleet), who.flipped, False)
        if mode == "ram":
            return k.ram(att, tgt), (who.id, tgt.id)
        if mode == "fire":
            g = active_ground(s, tgt)
            assert g is not None
            return k.fire(who, att, g), (who.id, g.id)
        setup, defenders = k.boarding(s, who, att, tgt, mode)
        return setup, (who.id, *[d.id for d in defenders])
    wsq = who.square
    tsq = tgt.square
    assert wsq is not None and tsq is not None
    amod = k.att_disc[who.discipline] + k.attack_from[wsq]
    need = k.leader_rating
    side = who.side
    for ld in s.leaders.values():  # a leader with it of rating ``leader_rating`` or better (§9.1)
        if ld.square == wsq and ld.status == "active" and ld.side == side and ld.rating >= need:
            amod += k.leader_bonus
            break
    if who.inspired:
        amod += k.inspire
    dmod = k.def_disc[tgt.discipline]
    if not (mode == "testudo" and k.testudo_free[tsq]):
        dmod += k.defend[tsq]
    dmod += k.vs.get((mode, tgt.kind), 0)
    if mode != "fire" and not k.no_flank[tsq]:  # §8.5
        cols = cfg.board.columns
        dr = wsq // cols - tsq // cols
        if dr == 0:
            dmod += k.flank
        elif dr == (-1 if tgt.side == "A" else 1):
            dmod += k.rear
    fmod = None
    if mode != "fire" and not tgt.flipped and tgt.kind in k.fires:  # §8.6
        # the defender fires with its discipline; the attacker defends with its own (§8.6)
        fmod = k.att_disc[tgt.discipline] + k.def_disc[who.discipline]
    att = (amod, who.flipped, who.kind in light and tgt.kind != "heavy_cavalry")
    d = (dmod, tgt.flipped, tgt.kind in light and who.kind != "heavy_cavalry")
    return _new(Setup, (mode, k.rolls[who.kind], att, (d,), fmod)), (who.id, tgt.id)


def _table(combat: Combat) -> tuple[dict[str, tuple[str, ...]], int, int, int]:
    """What the series reads of the combat table, read once per set of tables: every mode's
    row (``Combat.row``), the table's lowest column, the attacker's and the defender's
    modifiers for being flipped."""
    found = _TABLES.get(id(combat))
    if found is None or found[0] is not combat:
        m = combat.modifiers
        rows = {mode: combat.row(mode) for mode in combat.modes}
        found = _TABLES[id(combat)] = (combat, (rows, combat.low, m.attacker_flipped, m.defender_flipped))
    return found[1]


_TABLES: dict[int, tuple[Combat, tuple[dict[str, tuple[str, ...]], int, int, int]]] = {}

_FLIPPED = itemgetter(1)  # a fighter's (modifier, flipped, L-counts-as-B): flipped

#: ``_series``' answer: the attacker's flipped and dead, the defenders' flipped and dead, the
#: defensive fire's result, the series' rolls
Series = tuple[bool, bool, list[bool], list[bool], str, int]


def _series(combat: Combat, setup: Setup, attacker: str, chance: Chance) -> Series:
    """The real resolver (§8.3–§8.6, 004 Combat: Boarding): defensive fire, then up to
    ``setup.rolls`` attacks against the defenders in turn, stopping on A, on running out of
    rolls, or when every defender is gone.  Returns the attacker's (flipped, dead), each
    defender's flipped and dead, the defensive fire's result ("" when none) and the number
    of the series' rolls, worked on plain values (``resolve_setup`` makes ``Fighter``
    objects of them; an attack's play reads them as they are)."""
    rows, low, att_flip_mod, def_flip_mod = _table(combat)
    amod, aflipped, alb = setup.att
    adead = False
    fire_result = ""
    if setup.firer_mod is not None:  # §8.6: one Fire roll at the attacker before its series
        mod = setup.firer_mod + (def_flip_mod if aflipped else 0)
        r = fire_result = chance.combat(rows["fire"], low, mod, f"defensive fire on {attacker}")
        if r == "B" or r == "L":  # a hit (§8.4)
            if (r == "L" and not alb) or aflipped:
                adead = True
            else:
                aflipped = True
    defs = setup.defs
    n = len(defs)
    flipped = list(map(_FLIPPED, defs))
    dead = [False] * n
    if adead:
        return aflipped, adead, flipped, dead, fire_result, 0
    row = rows[setup.mode]
    label = f"{setup.mode} {attacker}"
    rolls = setup.rolls
    base = amod + (att_flip_mod if aflipped else 0)  # the attacker's flip only changes on A, which ends it
    i = used = 0
    while used < rolls and i < n:
        dmod, _, lb = defs[i]
        dflipped = flipped[i]
        r = chance.combat(row, low, base + dmod + (def_flip_mod if dflipped else 0), label)
        used += 1
        if r == "A":
            if aflipped:
                adead = True
            else:
                aflipped = True
            break
        if r == "B" or r == "L":  # a hit (§8.4)
            if (r == "L" and not lb) or dflipped:
                dead[i] = True
                i += 1
            else:
                flipped[i] = True
    return aflipped, adead, flipped, dead, fire_result, used


def resolve_setup(
    combat: Combat, setup: Setup, uids: tuple[str, ...], chance: Chance
) -> tuple[Fighter, list[Fighter], str, int]:
    """Defensive fire, then the series (``_series``), on fresh fighters: the real resolver
    (§8.3–§8.6); returns the fighters as they end and the number of the series' rolls."""
    aflipped, adead, flipped, dead, fire_result, used = _series(combat, setup, uids[0], chance)
    a = setup.att
    att = Fighter(uids[0], aflipped, a[0], a[2])
    att.dead = adead
    defenders = []
    for uid, k, f, d in zip(uids[1:], setup.defs, flipped, dead, strict=True):
        fighter = Fighter(uid, f, k[0], k[2])
        fighter.dead = d
        defenders.append(fighter)
    return att, defenders, fire_result, used


def resolve_attack(s: State, a: Action, chance: Chance, ev: list[Event] | None) -> bool:
    """Play attack ``a`` (§8, 004 Combat); True when it cost a unit (eliminated, sunk, taken),
    the only attacks after which panic and the end of the battle are looked at again."""
    s.phase = "combat"
    who = s.units[a.unit]
    tgt = s.units[a.target]
    fleet = who if (not s.naval or who.kind == "fleet") else s.units[who.aboard or ""]
    fleet.attacked = True
    who.attacked = True
    who.inspired = False
    fleet.inspired = False
    first = len(chance.drawn)
    setup, uids = setup_of(s, a.unit, a.target, a.mode)
    aflipped, adead, flipped, dead, fire_result, _ = _series(s.cfg.tables.combat, setup, uids[0], chance)
    if ev is not None:
        what = {"ram": "rams", "fire": "fires at"}.get(a.mode, "boards" if s.naval else f"attacks ({a.mode})")
        rolled = chance.drawn[first + (1 if fire_result else 0) :]
        text = f"{who.id} {what} {tgt.id}: {' '.join(rolled) or 'no roll'}"
        log_event(ev, "attack", text, unit=who.id, target=tgt.id, mode=a.mode, results=rolled)
    if fire_result and ev is not None:
        log_event(ev, "defensive_fire", f"{tgt.id} fires at {who.id} first: {fire_result} (§8.6)", result=fire_result)
    # the defenders' fates
    kills = 0
    for uid, d_flipped, d_dead in zip(uids[1:], flipped, dead, strict=True):
        u = s.units[uid]
        if d_dead:
            if u.kind == "fleet" and s.naval:
                if a.mode not in ("ram", "fire") and a.capture:
                    _capture(s, u, who, chance, ev)
                else:
                    _sink(s, u, chance, ev)
            else:
                _eliminate(s, u, chance, ev)
            kills += 1
        elif d_flipped and not u.flipped:
            u.flipped = True
            if ev is not None:
                log_event(ev, "disrupted", f"{u.id} is disrupted", unit=u.id)
    who.kills += kills
    # the attacker's fate (A flips the rammer's or firer's ship, not its passengers, 004)
    if adead:
        if who.kind == "fleet":
            _sink(s, who, chance, ev)
        else:
            _eliminate(s, who, chance, ev)
        return True
    if aflipped and not who.flipped:
        who.flipped = True
        if ev is not None:
            log_event(ev, "disrupted", f"{who.id} is disrupted", unit=who.id)
    return kills > 0


def _eliminate(s: State, u: Unit, chance: Chance, ev: list[Event] | None) -> None:
    """A ground unit or land unit is eliminated (§8.4); leaders with it roll (§9.3)."""
    sq = u.square
    lift_off(s, u)
    u.status = "eliminated"
    if ev is not None:
        log_event(ev, "eliminated", f"{u.id} is eliminated", unit=u.id)
    if u.aboard is not None:
        fleet = s.units[u.aboard]
        if u.id in fleet.cargo:
            fleet.cargo.remove(u.id)
        if fleet.captor == u.id:  # 004 Combat: Boarding — the ship reverts
            fleet.side = fleet.owner
            fleet.captured = False
            fleet.captor = None
            if ev is not None:
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
        if ev is not None:
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
        if ev is not None:
            log_event(ev, "leader", f"{ld.id} is captured (roll {roll}, §9.3)", leader=ld.id, fate="captured")
        return
    ld.square = near[0][2]
    if ev is not None:
        log_event(ev, "leader", f"{ld.id} escapes to {near[0][1]} (roll {roll}, §9.3)", leader=ld.id, fate="escaped")


def _sink(s: State, f: Unit, chance: Chance, ev: list[Event] | None) -> None:
    """A ship sinks with all aboard; leaders may jump to an adjacent friendly fleet (004 Passengers)."""
    sq = f.square
    lift_off(s, f)
    f.status = "sunk"
    for pid in f.cargo:
        s.units[pid].status = "drowned"
    if ev is not None:
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
            if ev is not None:
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
    if ev is not None:
        log_event(ev, "captured", f"{boarder.id} captures {f.id} (004 Combat: Boarding)", unit=f.id, by=boarder.id)
