"""Applying a battleboard action (docs/rules/battleboard.md): ``apply`` validates it against
the generator (``legal.check``) and plays it on a copy; ``play`` plays a generated action in
place (the AI's auto-resolve).  Movement, flight, command checks, stratagems, allocation
and set-up, the end of a turn; then panic, breaking, withdrawal and the end of the battle
(§10).  Combat itself is ``combat.resolve_attack``.
"""

from __future__ import annotations

from collections.abc import Iterable

from battleboard.combat import resolve_attack
from battleboard.legal import check, leader_unit, rally_target
from battleboard.model import OFF, Action, State, Unit, other
from battleboard.queries import (
    DISC_ORDER,
    Chance,
    lift_off,
    log_event,
    on_board,
    present,
    scores,
)
from battleboard.tables import Command as CommandTable
from bellum.dice import Dice
from bellum.errors import RuleError
from bellum.events import Event


# --------------------------------------------------------------------------
# applying actions
# --------------------------------------------------------------------------
def apply(s: State, a: Action, dice: Dice, results: Iterable[str] | None = None) -> tuple[State, list[Event], Chance]:
    """Validate and apply ``a`` to a copy of ``s``: (new state, events, the chance used)."""
    check(s, a)
    new = s.clone()
    chance = Chance(dice, results)
    events: list[Event] = []
    play(new, a, chance, events)
    return new, events, chance


def play(s: State, a: Action, chance: Chance, ev: list[Event] | None = None) -> None:
    """Apply a legal action in place (no validation)."""
    verb = a.verb
    if chance.actions is not None:
        chance.actions.append(a)
    if verb == "move":
        to = a.to
        u = s.units.get(a.unit)
        if u is not None:
            # a move changes only what the mover's enemies are next to (§7.2 contact)
            if to == OFF:
                s.adj_cache.clear()
            else:
                s.adj_cache.pop("B" if u.side == "A" else "A", None)
        if a.unit in s.leaders:
            _move_leader(s, a, ev)
        else:
            assert u is not None
            _move(s, u, to, chance, ev)
        if to != OFF:
            return  # only losses can cause panic or end the battle
    elif verb == "attack":
        lost = resolve_attack(s, a, chance, ev)
        s.adj_cache.clear()  # losses and captures change who stands where
        if not lost:
            return  # nothing lost: panic and the end stand as they were after the last loss
    elif verb == "end_turn":
        _end_turn(s, chance, ev)  # looks at panic and the end itself, before the turn passes
        return
    elif verb == "command":
        if not _command(s, chance, ev):
            return  # no rout: panic and the end stand as they were after the last loss
        s.adj_cache.clear()  # routs change who stands where
    elif verb == "double":
        s.double_used = True
        s.double_now = True
        if ev is not None:
            log_event(ev, "double", f"side {s.side} makes its double move (§5.5)", side=s.side)
        return
    elif verb == "stratagem":
        _stratagem(s, a, ev)
        return
    elif verb == "withdraw":
        _withdraw(s, chance, ev)
        s.adj_cache.clear()
    elif verb == "allocate":
        _allocate(s, a, ev)
        s.adj_cache.clear()
    elif verb == "deploy":
        _deploy(s, a, ev)
        s.adj_cache.clear()
    else:  # pragma: no cover - the generator never makes another verb
        raise RuleError(f"unknown action {verb}")
    if s.phase != "over":
        _check_losses(s, chance, ev)


def _move_leader(s: State, a: Action, ev: list[Event] | None) -> None:
    """A leader rides alone (§7.5)."""
    ld = s.leaders[a.unit]
    ld.square = a.to
    ld.moved = True
    log_event(ev, "move", f"{ld.id} rides to {s.cfg.board.name(a.to or 0)} (§7.5)", leader=ld.id)


def _move(s: State, u: Unit, to: int | None, chance: Chance, ev: list[Event] | None) -> None:
    """Unit ``u`` moves to ``to`` (``OFF``: across its edge, §7.4, 004 Escape)."""
    s.moved_any = True
    u.moved = True
    frm = u.square
    if to == OFF:
        board = s.cfg.board
        assert frm is not None
        if board.row(frm) == board.home_row(u.side):
            _flee(s, u, chance, ev, "leaves by its own edge")
        else:
            lift_off(s, u)
            u.status = "broken_through"
            for pid in u.cargo:
                s.units[pid].status = "broken_through"
            for ld in s.leaders.values():
                if ld.aboard == u.id and ld.status == "active":
                    ld.status = "escaped"
            if ev is not None:
                log_event(ev, "break_through", f"{u.id} breaks through off the enemy edge (004 Escape)", unit=u.id)
        return
    assert to is not None
    if frm is not None:
        del s.grid[frm]
        if not s.naval:
            for ld in s.leaders.values():
                if ld.square == frm and ld.status == "active" and ld.side == u.side:
                    ld.square = to
    else:
        u.status = "active"
    u.square = to
    s.grid[to] = u.id
    if ev is not None:
        name = s.cfg.board.name(to)
        log_event(ev, "move", f"{u.id} moves to {name}", unit=u.id, to=name)


def _flee(s: State, u: Unit, chance: Chance, ev: list[Event] | None, why: str, mod: int = 0) -> None:
    """Rout or leaving by one's own edge: the flight roll decides whether the unit returns
    or is dispersed (§10.3); pursuit modifies it (§10.4, §10.5)."""
    sq = u.square
    lift_off(s, u)
    roll = chance.dice.d10(f"flight {u.id}")
    u.status = "escaped"
    u.returns = roll + mod >= s.cfg.tables.battle.flight[u.discipline]  # type: ignore[index]
    for pid in u.cargo:
        p = s.units[pid]
        p.status = "escaped"
        p.returns = u.returns
    for ld in s.leaders.values():
        if ld.status == "active" and (ld.aboard == u.id or (ld.aboard is None and ld.square == sq and sq is not None)):
            ld.status = "escaped"
            ld.square = None
    if ev is not None:
        fate = "will return" if u.returns else "is dispersed"
        by = f"{roll}{mod:+d}" if mod else f"{roll}"
        text = f"{u.id} {why} and flees: it {fate} (flight roll {by}, §10.3)"
        log_event(ev, "flight", text, unit=u.id, roll=roll, mod=mod)


def _in_contact(s: State, u: Unit) -> bool:
    board = s.cfg.board
    if u.square is None:
        return False
    return any(n in s.grid and s.units[s.grid[n]].side != u.side for n in board.neighbors[u.square])


def _leave_field(s: State, side: str, chance: Chance, ev: list[Event] | None, *, broken: bool) -> None:
    """A whole land force leaves the field: withdrawing (§10.4) or broken and pursued (§10.5).

    Units in reserve march off in good order.  In a withdrawal, units out of contact do
    too, and units next to the enemy break contact with a flight roll; when the force
    breaks every unit on the board flees, pursued."""
    pt = s.cfg.tables.battle.pursuit
    mod = pt.disengage
    if broken:
        mod = pt.broken
        kinds = s.cfg.tables.units.kinds
        if any(
            e.side != side and on_board(e) and not e.flipped and kinds[e.kind].cls == "horse" for e in s.units.values()
        ):
            mod += pt.horse
    for u in list(s.units.values()):
        if u.side != side or u.status not in ("active", "reserve"):
            continue
        if u.status == "active" and u.square is not None and (broken or _in_contact(s, u)):
            _flee(s, u, chance, ev, "routs, pursued," if broken else "breaks contact", mod)
            continue
        sq = u.square
        lift_off(s, u)
        u.status = "escaped"
        u.returns = True
        for ld in s.leaders.values():
            if ld.status == "active" and ld.side == side and sq is not None and ld.square == sq:
                ld.status = "escaped"
                ld.square = None
        if ev is not None:
            log_event(ev, "flight", f"{u.id} leaves the field in good order (§10.4)", unit=u.id)
    for ld in s.leaders.values():
        if ld.status == "active" and ld.side == side:
            ld.status = "escaped"
            ld.square = None


def _withdraw(s: State, chance: Chance, ev: list[Event] | None) -> None:
    """§10.4: a panicked land force withdraws from the field."""
    if ev is not None:
        log_event(ev, "withdraw", f"side {s.side} withdraws from the field (§10.4)", side=s.side)
    _leave_field(s, s.side, chance, ev, broken=False)


def _command(s: State, chance: Chance, ev: list[Event] | None) -> bool:
    """Every unit of the phasing side checks command (§6, 004 Passengers); True when a unit
    routed (the only way a command phase costs a side anything)."""
    t = s.cfg.tables.command
    rally_on = t.rally_on
    panicked = s.side in s.panicked
    naval = s.naval
    side = s.side
    # §6.2 lending discipline: the best discipline of the side's leaders aboard each fleet
    # (at sea) or on each square (on land); a rout below only takes away the leaders of the
    # unit that routs, which has made its check
    lent: dict[object, str] = {}
    for ld in s.leaders.values():
        if ld.status == "active" and ld.side == side:
            where = ld.aboard if naval else ld.square
            if where is not None and (where not in lent or DISC_ORDER[ld.discipline] < DISC_ORDER[lent[where]]):
                lent[where] = ld.discipline
    units = s.units
    d10 = chance.dice.d10
    cache = s.cfg.cache
    # each roll's label, only when the dice read it (recorded, or forced: its error names it)
    labels: dict[str, str] | None = None
    if chance.dice.reads_labels():
        labels = cache.get(_COMMAND_LABELS)
        if labels is None:
            labels = cache[_COMMAND_LABELS] = {}
    rows = cache.get((_COMMAND_ROWS, panicked))
    if rows is None:
        rows = cache[(_COMMAND_ROWS, panicked)] = _command_rows(t, panicked)
    routed = False
    for u in units.values():  # a rout changes statuses, never the units listed
        if u.side != side or u.status != "active":
            continue
        if u.square is None:
            if not naval or u.aboard is None:
                continue
            fleet = units[u.aboard]
            if fleet.square is None or fleet.side != side:
                continue
        disc = u.discipline
        if lent:
            better = lent.get(u.id if naval else u.square)
            if better is not None and DISC_ORDER[better] < DISC_ORDER[disc]:
                disc = better
        if labels is None:
            roll = d10("")
        else:
            label = labels.get(u.id)
            if label is None:
                label = labels[u.id] = f"command {u.id}"
            roll = d10(label)
        was_flipped = u.flipped
        res = rows[disc][was_flipped][roll]
        if res == "-":
            u.failed = False
            if was_flipped and not panicked and roll == rally_on:
                u.flipped = False
                if ev is not None:
                    log_event(ev, "rally", f"{u.id} rallies (command roll {roll}, §6.1)", unit=u.id)
            continue
        if res == "F" or was_flipped:
            u.failed = True
            if ev is not None:
                log_event(ev, "command", f"{u.id} fails its command check (roll {roll}, §6.1)", unit=u.id, roll=roll)
        else:
            u.flipped = True
            if ev is not None:
                text = f"{u.id} is disrupted by confusion (roll {roll}, §6.1)"
                log_event(ev, "command", text, unit=u.id, roll=roll)
        if panicked and was_flipped and u.square is not None:
            _flee(s, u, chance, ev, "routs")  # §6.3; at sea only fleets rout (004 Passengers)
            routed = True
    s.phase = "move"
    return routed


#: ``Config.cache`` key of each unit's command roll label ("command <id>"), written once
_COMMAND_LABELS = "command labels"
#: ``Config.cache`` key (with the side's panic) of ``_command_rows``
_COMMAND_ROWS = "command rows"


def _command_rows(t: CommandTable, panicked: bool) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """Each discipline's command results by the d10's face (0-9), steady and flipped, for a
    side panicked or not: the table's row read at the face plus the modifiers (§6.1)."""
    base = t.panicked if panicked else 0
    top = t.high - t.low

    def row(disc: str, mod: int) -> tuple[str, ...]:
        return tuple(t.table[disc][min(max(face + mod - t.low, 0), top)] for face in range(10))  # type: ignore[index]

    return {disc: (row(disc, base), row(disc, base + t.flipped)) for disc in t.table}


def _stratagem(s: State, a: Action, ev: list[Event] | None) -> None:
    """§9.2 stratagem plays in battle."""
    ld = s.leaders[a.unit]
    u = leader_unit(s, ld)
    assert u is not None
    ld.plays += 1
    s.stratagems[ld.side] -= 1
    if a.effect == "rally":
        t = rally_target(s, u)
        assert t is not None
        t.flipped = False
        if ev is not None:
            log_event(ev, "stratagem", f"{ld.id} plays a stratagem: {t.id} rallies (§9.2)", leader=ld.id, unit=t.id)
    else:
        u.inspired = True
        if ev is not None:
            log_event(ev, "stratagem", f"{ld.id} plays a stratagem: {u.id} is inspired (§9.2)", leader=ld.id, unit=u.id)


def _allocate(s: State, a: Action, ev: list[Event] | None) -> None:
    """Held secret until both sides have allocated (004 Setup)."""
    s.allocations[a.side] = a
    if ev is not None:
        log_event(ev, "allocate", f"side {a.side} has allocated its units to its fleets (in secret)", side=a.side)
    need = {side for side in ("A", "B") if any(u.kind == "fleet" and u.side == side for u in s.units.values())}
    if not need <= set(s.allocations):
        return
    for alloc in s.allocations.values():
        for fid, gids in alloc.plan:
            fleet = s.units[fid]
            fleet.cargo = list(gids)
            for g in gids:
                s.units[g].aboard = fid
        for lid, fid in alloc.leader_plan:
            s.leaders[lid].aboard = fid
            s.leaders[lid].square = None
    if ev is not None:
        log_event(ev, "allocate", "both sides reveal their allocations (004 Setup)")
    s.allocations = {}
    _after_setup_step(s)


def _after_setup_step(s: State) -> None:
    waiting = [u for u in s.units.values() if u.status == "reserve" and (u.kind == "fleet" or not s.naval)]
    if waiting and len(s.deployed) < 2:
        s.phase = "deploy"
        s.side = other(s.superior) if other(s.superior) not in s.deployed else s.superior
    else:
        s.phase = "command"
        s.side = s.superior
        s.turn = max(s.turn, 1)


def _deploy(s: State, a: Action, ev: list[Event] | None) -> None:
    for uid, sq in a.placements:
        u = s.units[uid]
        u.square = sq
        u.status = "active"
        s.grid[sq] = uid
        if not s.naval:
            for ld in s.leaders.values():
                if ld.side == u.side and ld.status == "active" and ld.square is None and ld.aboard is None:
                    ld.square = sq  # leaders stand with the first units set up (§3.3)
                    break
    s.deployed.append(a.side)
    if ev is not None:
        log_event(ev, "deploy", f"side {a.side} sets up {len(a.placements)} units (§4.2)", side=a.side)
    _after_setup_step(s)


def _end_turn(s: State, chance: Chance, ev: list[Event] | None) -> None:
    """§5.6: reset the player turn; the other side's command phase; the turn limit (§5.1)."""
    side = s.side
    for u in s.units.values():
        if u.side == side or u.owner == side:
            u.moved = u.attacked = u.failed = u.inspired = u.captured_now = False
    for ld in s.leaders.values():
        ld.moved = False
    s.double_now = False
    s.moved_any = False
    _check_losses(s, chance, ev)
    if s.phase == "over":
        return
    second = other(s.superior)
    if s.side == second and s.turn >= s.cfg.max_turns:
        _finish(s, ev, f"the last turn ({s.cfg.max_turns}) is over")
        return
    s.side = other(s.side)
    if s.side == s.superior:
        s.turn += 1
    s.phase = "command"
    if ev is not None:
        log_event(ev, "turn", f"turn {s.turn}: side {s.side} to play", side=s.side, turn=s.turn)


# --------------------------------------------------------------------------
# panic and the end of the battle
# --------------------------------------------------------------------------
def _check_losses(s: State, chance: Chance, ev: list[Event] | None) -> None:
    """After anything that can cost a side units: panic and breaking (§10.1, §10.5, 004
    Panic), then the end of the battle when a side has nothing left on the board (§11.1).
    Both read one tally of the units (on land: SP lost and who is present; at sea: the
    fleets each side holds), taken again only after a side has fled."""
    if not s.naval:
        lost, here = _land_tally(s)
        if _land_panic(s, lost, here, chance, ev):
            lost, here = _land_tally(s)  # counted again after a side has fled
        if s.phase not in ("allocate", "deploy") and not (here["A"] and here["B"]):
            _finish(s, ev, _nothing_left(here["A"], here["B"]))
        return
    if s.phase in ("allocate", "deploy"):
        return
    a, b = _fleets_held_by_side(s)  # at sea every unit on the board is a fleet, so "present" is held > 0
    if len(s.panicked) < 2:
        _naval_panic(s, a, b, ev)
    if not (a and b):
        _finish(s, ev, _nothing_left(a > 0, b > 0))


def _land_panic(s: State, lost: dict[str, int], here: dict[str, bool], chance: Chance, ev: list[Event] | None) -> bool:
    """§10.1 land panic by SP lost, §10.5 breaking (True when a side broke and fled)."""
    pct = s.cfg.tables.battle.panic.land_percent
    broke = False
    for side in ("A", "B"):
        if side not in s.panicked:
            orig = s.original_sp.get(side, 0)
            if not (orig > 0 and lost[side] * 100 >= orig * pct):
                continue
            s.panicked.append(side)
            s.panicked.sort()
            if ev is not None:
                log_event(ev, "panic", f"side {side} panics (§10.1)", side=side)
        if _check_break(s, side, lost[side], here[side], chance, ev):
            broke = True
            lost, here = _land_tally(s)
    return broke


def _naval_panic(s: State, held_a: int, held_b: int, ev: list[Event] | None) -> None:
    """004 Panic: a naval force that holds half or fewer of its fleets (``held_a``, ``held_b``
    now) panics."""
    num, den = s.cfg.tables.battle.panic.naval_fraction
    orig = s.original_fleets
    if "A" not in s.panicked:
        n = orig.get("A", 0)
        if n > 0 and held_a * den <= n * num:
            _panics(s, "A", ev)
    if "B" not in s.panicked:
        n = orig.get("B", 0)
        if n > 0 and held_b * den <= n * num:
            _panics(s, "B", ev)


def _fleets_held_by_side(s: State) -> tuple[int, int]:
    """``queries.fleets_held`` of sides A and B in one pass over the board."""
    units = s.units  # at sea every unit on the board is a fleet (``queries.present``)
    sides = [units[uid].side for uid in s.grid.values()]
    a = sides.count("A")
    return a, len(sides) - a


def _panics(s: State, side: str, ev: list[Event] | None) -> None:
    s.panicked.append(side)
    s.panicked.sort()
    if ev is not None:
        text = f"side {side} panics: it holds half or fewer of its fleets (004 Panic)"
        log_event(ev, "panic", text, side=side)


_LAND_LOST = frozenset({"eliminated", "captured", "escaped", "drowned", "sunk"})


def _land_tally(s: State) -> tuple[dict[str, int], dict[str, bool]]:
    """In one pass over the units: ``queries.land_lost`` of both sides, and
    ``queries.present`` of both sides."""
    lost_a = lost_b = 0
    here_a = here_b = False
    for u in s.units.values():
        st = u.status
        if st in _LAND_LOST:
            if u.owner == "A":
                lost_a += u.strength
            else:
                lost_b += u.strength
        elif (
            not (here_a if u.side == "A" else here_b)
            and u.kind != "impeditus"
            and (st == "reserve" or (st == "active" and u.square is not None))
        ):
            if u.side == "A":
                here_a = True
            else:
                here_b = True
    return {"A": lost_a, "B": lost_b}, {"A": here_a, "B": here_b}


def _check_break(s: State, side: str, lost: int, here: bool, chance: Chance, ev: list[Event] | None) -> bool:
    """§10.5: a panicked land force that has lost ``break_percent`` of its SP (``lost``) and is
    still on the field (``here``) breaks (True when it does)."""
    orig = s.original_sp.get(side, 0)
    if orig <= 0 or s.phase in ("deploy", "over") or not here:
        return False
    if lost * 100 >= orig * s.cfg.tables.battle.panic.break_percent:
        if ev is not None:
            log_event(ev, "break", f"side {side} breaks and flees the field (§10.5)", side=side)
        _leave_field(s, side, chance, ev, broken=True)
        return True
    return False


def _nothing_left(a: bool, b: bool) -> str:
    if not a and not b:
        return "neither side has anything left on the board"
    return f"side {'B' if a else 'A'} has nothing left on the board"


def _finish(s: State, ev: list[Event] | None, why: str) -> None:
    """§11.2 victory by strength points."""
    sc = scores(s)
    if sc["A"] != sc["B"]:
        s.winner = "A" if sc["A"] > sc["B"] else "B"
        reason = f"{sc[s.winner]} SP to {sc[other(s.winner)]}; {why}"
    else:
        pa, pb = present(s, "A"), present(s, "B")
        if pa != pb:
            s.winner = "A" if pa else "B"
            reason = f"{sc['A']} SP each, and it holds the field; {why}"
        else:
            s.winner = None
            reason = f"{sc['A']} SP each; {why}"
    s.phase = "over"
    s.end_reason = reason
    if ev is not None:
        log_event(ev, "end", f"the battle ends: {reason}", winner=s.winner)
