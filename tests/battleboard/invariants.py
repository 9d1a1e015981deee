"""Invariants every battleboard state must satisfy after every action."""

from __future__ import annotations

from battleboard.model import State
from battleboard.rules import fleets_held, legal_actions, on_board, victory_lost


def check_invariants(s: State, total_sp: dict[str, int]) -> None:
    units = s.units
    # the grid and the units agree
    for sq, uid in s.grid.items():
        u = units[uid]
        assert u.square == sq and u.status == "active", f"{uid} on the grid at {sq} but {u.status} at {u.square}"
    for u in units.values():
        if u.square is not None:
            assert s.grid.get(u.square) == u.id and u.status == "active", f"{u.id} off the grid"
        assert u.strength > 0
    # strength points are never created: each side's units add up to what it began with
    for side in ("A", "B"):
        owned = sum(u.strength for u in units.values() if u.owner == side)
        assert owned == total_sp[side], f"side {side} has {owned} SP, began with {total_sp[side]}"
        lost = sum(u.strength for u in units.values() if u.owner == side and victory_lost(u))
        kept = sum(u.strength for u in units.values() if u.owner == side and not victory_lost(u))
        assert lost + kept == total_sp[side]
    # a fleet is held by exactly one side, captured or not, and counted once
    on = [u for u in units.values() if u.kind == "fleet" and on_board(u)]
    assert fleets_held(s, "A") + fleets_held(s, "B") == len(on)
    for f in on:
        assert (f.side != f.owner) == f.captured, f"{f.id}: captured flag and side disagree"
    # passengers and their fleets agree
    cap = s.cfg.tables.units.fleet_capacity
    for u in units.values():
        if u.kind == "fleet" and on_board(u):
            assert len(u.cargo) <= cap, f"{u.id} carries {len(u.cargo)}"
            for pid in u.cargo:
                p = units[pid]
                assert p.aboard == u.id and p.status == "active", f"{pid} in {u.id}'s cargo but {p.status}"
        elif u.kind != "fleet" and u.aboard is not None and u.status == "active" and s.phase != "allocate":
            f = units[u.aboard]
            assert u.id in f.cargo and f.side == u.side, f"{u.id} aboard {f.id} but not carried"
    # leaders stand with a friendly unit or sail with a friendly fleet
    for ld in s.leaders.values():
        if ld.status != "active" or s.phase in ("allocate", "deploy"):
            continue
        if ld.aboard is not None:
            f = units[ld.aboard]
            assert on_board(f) and f.side == ld.side, f"{ld.id} aboard {f.id} ({f.status}, side {f.side})"
        elif ld.square is not None:
            holder = s.grid.get(ld.square)
            assert holder is not None and units[holder].side == ld.side, f"{ld.id} alone at {ld.square}"
    # the contact cache agrees with the board
    for side, cached in s.adj_cache.items():
        fresh = {n for sq, uid in s.grid.items() if units[uid].side != side for n in s.cfg.board.neighbors[sq]}
        assert cached == fresh, f"stale contact cache for side {side}"
    # panic is for good, and an ended battle offers nothing more
    assert s.panicked == sorted(set(s.panicked))
    if s.phase == "over":
        assert legal_actions(s) == []
    else:
        assert legal_actions(s), "a running battle must offer an action"
