"""Exact odds of an attack, by running the real resolver over every combat result.

``setup_distribution`` enumerates the combat-table results ``resolve_setup`` asks for
(each with its probability over the d10's faces at that roll's modifier), exactly as
``bellum.odds.exact_distribution`` enumerates dice — but branching four ways per roll
instead of ten.  A test proves both give the same distribution.  The window shows
these odds; the AI weighs its choices with them.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from battleboard.model import Action, State
from battleboard.rules import Chance, Setup, attack_setup, resolve_setup
from battleboard.tables import tables
from bellum.dice import Dice

#: (attacker flipped, attacker dead, ((defender flipped, defender dead), ...))
Outcome = tuple[bool, bool, tuple[tuple[bool, bool], ...]]


@lru_cache(maxsize=4096)
def result_counts(row: tuple[str, ...], low: int, mod: int) -> tuple[tuple[str, int], ...]:
    """How many of the d10's ten faces give each result of one roll on ``row`` at modifier
    ``mod`` (§8.2)."""
    counts: dict[str, int] = {}
    for face in range(10):
        i = min(max(face + mod - low, 0), len(row) - 1)
        counts[row[i]] = counts.get(row[i], 0) + 1
    return tuple(sorted(counts.items()))


@lru_cache(maxsize=4096)
def result_probs(row: tuple[str, ...], low: int, mod: int) -> tuple[tuple[str, Fraction], ...]:
    """The chance of each result of one roll on ``row`` at modifier ``mod`` (§8.2)."""
    return tuple((r, Fraction(c, 10)) for r, c in result_counts(row, low, mod))


class _Branching(Chance):
    """The chance ``setup_distribution`` runs the resolver with: it replays ``prefix``, then at
    every further roll takes the table's last result and leaves the others on ``stack``
    (with their faces), so that each run of the resolver ends in one outcome and the stack
    holds every branch still to run — a depth-first walk of every result the resolver asks
    for, in the order the forced results listed them (``result_counts``), the last first.
    (It keeps no log of the results drawn: nothing reads it here.)"""

    __slots__ = ("faces", "path", "prefix", "stack")

    def __init__(
        self, dice: Dice, prefix: tuple[str, ...], faces: int, stack: list[tuple[tuple[str, ...], int]]
    ) -> None:
        self.dice = dice
        self.actions = None
        self.results = None
        self.used = 0
        self.drawn = []
        self.prefix = prefix
        self.path = prefix
        self.faces = faces
        self.stack = stack

    def combat(self, row: tuple[str, ...], low: int, mod: int, label: str) -> str:
        k = self.used
        self.used = k + 1
        if k < len(self.prefix):
            return self.prefix[k]
        options = result_counts(row, low, mod)
        path = self.path
        faces = self.faces
        stack = self.stack
        for r, c in options[:-1]:
            stack.append(((*path, r), faces * c))
        r, c = options[-1]
        self.path = (*path, r)
        self.faces = faces * c
        return r


@lru_cache(maxsize=100_000)
def setup_distribution(setup: Setup) -> tuple[tuple[Outcome, Fraction], ...]:
    """Exact distribution of an attack's outcome (cached: it depends only on ``setup``), that
    of its ``canonical`` set-up: set-ups the resolver cannot tell apart share one."""
    return _distribution(canonical(setup))


def canonical(setup: Setup) -> Setup:
    """The set-up the resolver plays exactly as ``setup``, roll for roll: its mode's row under
    the first mode of the table with that row (a ram rolls on the Phalanx row), and the
    attacker's modifier moved onto every defender's — every roll of the series adds the two
    (``combat._series``), defensive fire reads neither (``resolve_setup``), and nothing else does."""
    mode = _same_row().get(setup.mode, setup.mode)
    amod, aflip, alb = setup.att
    if amod:
        defs = tuple((amod + m, f, lb) for m, f, lb in setup.defs)
        return tuple.__new__(Setup, (mode, setup.rolls, (0, aflip, alb), defs, setup.firer_mod))
    if mode != setup.mode:
        return tuple.__new__(Setup, (mode, setup.rolls, setup.att, setup.defs, setup.firer_mod))
    return setup


def _same_row() -> dict[str, str]:
    """Each mode of the combat table, with the first mode listed that rolls on the same row."""
    combat = tables().combat
    found = _SAME_ROW.get(id(combat))
    if found is None or found[0] is not combat:
        first: dict[tuple[str, ...], str] = {}
        same = {}
        for mode in combat.modes:
            same[mode] = first.setdefault(combat.row(mode), mode)
        found = _SAME_ROW[id(combat)] = (combat, same)
    return found[1]


_SAME_ROW: dict[int, tuple[object, dict[str, str]]] = {}


@lru_cache(maxsize=100_000)
def _distribution(setup: Setup) -> tuple[tuple[Outcome, Fraction], ...]:
    """``setup_distribution`` worked out: the real resolver is run once for every way the
    combat table can answer its rolls (``_Branching``).  Each branch's chance is kept as whole
    faces over ``10 ** rolls`` and the sum of each outcome made a ``Fraction`` once at the end
    (the same exact numbers as multiplying fractions branch by branch, without their cost)."""
    combat = tables().combat
    uids = ("attacker", *(f"defender{i}" for i in range(len(setup.defs))))
    found: list[tuple[Outcome, int, int]] = []  # (outcome, faces, rolls)
    stack: list[tuple[tuple[str, ...], int]] = [((), 1)]
    no_dice = Dice.forced([])  # every result is forced: the resolver rolls no die here
    while stack:
        prefix, faces = stack.pop()
        chance = _Branching(no_dice, prefix, faces, stack)
        att, defs, _, _ = resolve_setup(combat, setup, uids, chance)
        outcome = (att.flipped, att.dead, tuple((d.flipped, d.dead) for d in defs))
        found.append((outcome, chance.faces, len(chance.path)))
    depth = max(n for _, _, n in found)
    sums: dict[Outcome, int] = {}
    for out, faces, n in found:
        sums[out] = sums.get(out, 0) + faces * 10 ** (depth - n)
    scale = 10**depth
    dist = {out: Fraction(num, scale) for out, num in sums.items()}
    return tuple(sorted(dist.items(), key=lambda kv: -kv[1]))


def attack_odds(s: State, a: Action) -> tuple[tuple[str, ...], tuple[tuple[Outcome, Fraction], ...]]:
    """The ids (attacker, defenders...) and the exact outcome distribution of attack ``a``."""
    setup, uids = attack_setup(s, a)
    return uids, setup_distribution(setup)


def summary(s: State, a: Action) -> dict[str, float]:
    """What a player wants to see before attacking: the chance the target (the first
    defender) is disrupted or eliminated, the ship taken or sunk, and the attacker hurt."""
    uids, dist = attack_odds(s, a)
    out = {"target_flipped": 0.0, "target_eliminated": 0.0, "last_destroyed": 0.0, "attacker_hurt": 0.0}
    for (af, ad, defs), p in dist:
        q = float(p)
        f0, d0 = defs[0]
        if d0:
            out["target_eliminated"] += q
        elif f0 and not s.units[uids[1]].flipped:
            out["target_flipped"] += q
        if defs[-1][1]:
            out["last_destroyed"] += q
        if ad or (af and not s.units[uids[0]].flipped):
            out["attacker_hurt"] += q
    return out


@lru_cache(maxsize=100_000)
def float_distribution(setup: Setup) -> tuple[tuple[Outcome, float], ...]:
    """``setup_distribution`` in floats, for the AI's many comparisons."""
    return tuple((o, float(p)) for o, p in setup_distribution(setup))


@lru_cache(maxsize=100_000)
def expectations(setup: Setup) -> tuple[float, float, tuple[tuple[float, float], ...]]:
    """From the exact distribution: the chance the attacker is lost, or newly disrupted, and
    for each defender the chance it is lost, or newly disrupted (what the AI weighs)."""
    att_dead = att_flip = 0.0
    defs = [[0.0, 0.0] for _ in setup.defs]
    for (af, ad, outs), p in float_distribution(setup):
        if ad:
            att_dead += p
        elif af and not setup.att[1]:
            att_flip += p
        for i, (f, d) in enumerate(outs):
            if d:
                defs[i][0] += p
            elif f and not setup.defs[i][1]:
                defs[i][1] += p
    return att_dead, att_flip, tuple((d, f) for d, f in defs)
