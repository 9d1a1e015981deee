"""Scenario special rules (docs/scenarios.md §Special rules): few, each from a named source.

A scenario names its special rules by id (``special_rules``) and may give each one
parameters in a ``[special.<id>]`` table: the ``side`` it binds, activation ``groups`` and
map ``hexes``.  ``configure`` checks them and returns an ``Active`` rule; the scenario
loader applies the set-up rules at once (``setup``) and records the rules that act in play
in the state's rule options as one written entry each (``encode``: the state carries no
other scenario data, so a copy, a save's replay and the AI all see the same rules).

The engine asks this module at two marked points (``tactical/engine.py``):

- ``refuse_move(state, unit)`` from ``check_may_move``: a unit held in place by a special
  rule may not start a move.  ``check_may_move`` is also what the legal-action generator
  asks, so a held unit is simply offered no move.
- ``after_action(before, state, action, dice, events)`` at the end of ``apply``: the
  consequences a special rule adds to what the action did (before the end of the battle
  is checked).

Rules (id — battle — source — what the code does):

- ``stand-fast`` — Pharsalus — Caesar BC III.92, Plutarch Pompey 69: the side's Roman foot
  may not move until an enemy unit is within 3 hexes of it.
- ``hidden-reserve`` — Pharsalus — Caesar BC III.89, III.93: the reserve ``groups`` wait for
  the signal: none of their units may move until an enemy cavalry unit is within 4 hexes of
  one of them.
- ``unfinished-camp`` — Thapsus — Bellum Africum 80-82: the side's units set up in the
  ``hexes`` of the half-built camp start Disordered (Zela too: Caesar's men were still digging
  when Pharnaces attacked, Bellum Alexandrinum 75).
- ``elephant-panic`` — Thapsus — Bellum Africum 83, Appian BC 2.96: when one of the side's
  elephants rampages, each of its other elephants within 4 hexes makes a rampage check (a
  d10 over its TQ) and rampages too if it fails; the panic spreads from each new rampage.
- ``hill-position`` — Munda — Bellum Hispaniense 29-30: the side's foot standing on raised
  ground (level 1 or more) may not move until an enemy unit is within 3 hexes of it or
  stands on raised ground.
- ``encirclement`` — Cannae — Polybius 3.115-116, Livy 22.47: a foot unit of the side that is
  shock attacked through its flank or rear and is still Full afterwards is Disordered: the
  packed maniples could not face about.
- ``scythed-chariots`` — Gaugamela (and Zela, Bellum Alexandrinum 75) — Arrian Anabasis 3.8,
  3.13: a chariot of the side that has shock attacked foot and is still on the map afterwards
  has run through the opened ranks and is taken behind the line (eliminated, 3.13.5-6). The
  other half of the story, that the chariots could run only on the levelled ground, is the
  scenario's map: the unlevelled ground is rough, which chariots may neither enter nor stand in
  (002 TEC), so the movement search and the loader already enforce it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bellum.dice import Dice
from bellum.errors import InputError
from bellum.events import Event
from bellum.paths import game_data
from bellum.tomlio import load_model
from tactical.actions import Shock
from tactical.combat import attack_position, rampage
from tactical.hexes import Grid
from tactical.rout import eliminate
from tactical.state import State, Unit

#: the prefix of a special rule's entry in ``State.options``
PREFIX = "special:"


class RuleSpec(BaseModel):
    """What a special rule is and which parameters it takes (``data/special_rules.toml``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    battle: str
    source: str
    summary: str
    side: bool = True  # binds one side (False: its groups name the units, whatever their side)
    groups: bool = False  # takes activation groups
    hexes: bool = False  # takes map hexes
    setup_only: bool = False  # acts only at set-up (nothing recorded in the state)
    #: the distance (hexes) at which an enemy releases held units or a panic spreads
    range: int | None = Field(default=None, ge=1, le=20)


class SpecialRulesFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rules: dict[str, RuleSpec]


SPECIAL_FILE = game_data("tactical", "data", "special_rules.toml")
RULES: dict[str, RuleSpec] = dict(load_model(SpecialRulesFile, SPECIAL_FILE).rules)


def _range(rule: str, rules: dict[str, RuleSpec] = RULES, source: Path = SPECIAL_FILE) -> int:
    """The distance (hexes) of ``rule``, from the table; the typed input error if it has none."""
    spec = rules.get(rule)
    if spec is None:
        raise InputError(source, f"rules.{rule}", "is missing: the game needs this rule")
    if spec.range is None:
        raise InputError(source, f"rules.{rule}.range", "is missing: the rule acts at a distance in hexes")
    return spec.range


#: distances of the rules (hexes), from the data
STAND_FAST_RANGE = _range("stand-fast")
SIGNAL_RANGE = _range("hidden-reserve")
PANIC_RANGE = _range("elephant-panic")
HILL_RANGE = _range("hill-position")


@dataclass(frozen=True, slots=True)
class Active:
    """A special rule in force: its id, the side it binds, its groups and hex areas."""

    id: str
    side: str
    groups: tuple[str, ...] = ()
    hexes: tuple[str, ...] = ()


def configure(rule: str, side: str | None, groups: list[str], hexes: list[str], first: str) -> Active:
    """A rule with its parameters checked; ``ValueError`` with the problem in words.

    ``side`` defaults to the side that does not go first (the side that waits, 003 §3.3);
    a scenario that rolls for the first player must name it.  A rule that takes groups and
    no side (hidden-reserve) applies to the units of its groups."""
    spec = RULES.get(rule)
    if spec is None:
        raise ValueError(f"{rule!r} is not a documented special rule (known: {', '.join(sorted(RULES))})")
    if not spec.side:
        if side is not None:
            raise ValueError(f"{rule} takes no side: its groups name the units")
        side = ""
    elif side is None:
        if first not in ("A", "B"):
            raise ValueError(f"{rule} needs a side when the first player is rolled for")
        side = "B" if first == "A" else "A"
    if groups and not spec.groups:
        raise ValueError(f"{rule} takes no groups")
    if hexes and not spec.hexes:
        raise ValueError(f"{rule} takes no hexes")
    if spec.hexes and not hexes:
        raise ValueError(f"{rule} needs the hexes it applies to")
    for g in groups:
        if not g or "," in g or "|" in g:
            raise ValueError(f"{g!r} is not a group name (no commas or bars)")
    if rule == "hidden-reserve" and not groups:
        groups = ["fourth-line"]  # Pharsalus's reserve group; the groups name the units, whatever side
    return Active(rule, side, tuple(groups), tuple(hexes))


def encode(rule: Active) -> str:
    """The rule's entry in ``State.options`` (``special:<id>|<side>|<groups>``)."""
    return f"{PREFIX}{rule.id}|{rule.side}|{','.join(rule.groups)}"


@cache
def _decode(options: frozenset[str]) -> tuple[Active, ...]:
    out = []
    for opt in sorted(options):
        if opt.startswith(PREFIX):
            rid, side, groups = opt[len(PREFIX) :].split("|")
            out.append(Active(rid, side, tuple(g for g in groups.split(",") if g)))
    return tuple(out)


def active(state: State) -> tuple[Active, ...]:
    """The special rules in force in this state."""
    return _decode(state.options) if state.options else ()


# -- set-up -----------------------------------------------------------------------------------


def setup(state: State, rules: list[Active]) -> list[str]:
    """Apply the set-up rules to a freshly built state; return a problem sentence for each thing
    the position contradicts (empty when all is well)."""
    problems: list[str] = []
    for rule in rules:
        if rule.id == "unfinished-camp":
            camp = set(expand(state.field.grid, list(rule.hexes)))
            for u in sorted(state.units.values(), key=lambda x: x.id):
                if u.side == rule.side and u.on_map and set(u.hexes()) & camp:
                    u.status = "disordered"
        elif rule.id == "hidden-reserve":
            known = {u.group for u in state.units.values()}
            for g in rule.groups:
                if g not in known:
                    problems.append(f"hidden-reserve names the group {g!r}, which no unit has")
    return problems


# -- hook 1: may a unit start a move? ---------------------------------------------------------


def refuse_move(state: State, unit: Unit) -> str | None:
    """Why a special rule holds ``unit`` in place (a sentence), or None."""
    for rule in active(state):
        if rule.id == "hidden-reserve":
            if unit.group in rule.groups and not _signal_given(state, rule.groups):
                return (
                    f"{unit.id} is in the hidden reserve and waits for the signal: it may not move until "
                    f"enemy cavalry comes within {SIGNAL_RANGE} hexes (scenario rule hidden-reserve, "
                    "Caesar BC III.89)."
                )
            continue
        if rule.side != unit.side:
            continue
        if rule.id == "stand-fast" and unit.roman and unit.foot and not unit.skirmisher:
            if _enemy_within(state, unit, STAND_FAST_RANGE) is None:
                return (
                    f"{unit.id} stands fast to receive the charge: it may not move until an enemy unit is "
                    f"within {STAND_FAST_RANGE} hexes (scenario rule stand-fast, Caesar BC III.92)."
                )
        elif rule.id == "hill-position" and unit.foot and state.field.level[unit.hex] >= 1:
            raised = any(
                u.on_map and u.side != unit.side and state.field.level[u.hex] >= 1 for u in state.units.values()
            )
            if not raised and _enemy_within(state, unit, HILL_RANGE) is None:
                return (
                    f"{unit.id} keeps to the slope: it may not move until an enemy unit is within {HILL_RANGE} "
                    "hexes or on the high ground (scenario rule hill-position, Bellum Hispaniense 30)."
                )
    return None


def _signal_given(state: State, groups: tuple[str, ...]) -> bool:
    """Whether enemy cavalry is within ``SIGNAL_RANGE`` hexes of any unit of the hidden
    reserve's ``groups`` on the map (what ``_enemy_within`` asks of each, in one pass over
    the cavalry: every unit of the reserve waits on the same signal)."""
    grid = state.field.grid
    cavalry = [e for e in state.units.values() if e.cavalry and e.on_map]
    for u in state.units.values():
        if u.group in groups and u.on_map:
            for e in cavalry:
                if e.side != u.side and min(grid.distance(a, b) for a in u.hexes() for b in e.hexes()) <= SIGNAL_RANGE:
                    return True
    return False


def _enemy_within(state: State, unit: Unit, reach: int, *, cavalry: bool = False) -> Unit | None:
    grid = state.field.grid
    for e in state.units.values():
        if e.side == unit.side or not e.on_map or (cavalry and not e.cavalry):
            continue
        if min(grid.distance(a, b) for a in unit.hexes() for b in e.hexes()) <= reach:
            return e
    return None


# -- hook 2: what the action did ---------------------------------------------------------------


def after_action(before: State, state: State, action: Any, dice: Dice, events: list[Event]) -> None:
    """The consequences the scenario's special rules add to an action just played."""
    rules = active(state)
    if not rules:
        return
    for rule in rules:
        if rule.id == "elephant-panic":
            _elephant_panic(before, state, rule, dice, events)
        elif rule.id == "encirclement" and isinstance(action, Shock):
            _encirclement(before, state, rule, action, events)
        elif rule.id == "scythed-chariots" and isinstance(action, Shock):
            _through_the_ranks(before, state, rule, action, events)


def _elephant_panic(before: State, state: State, rule: Active, dice: Dice, events: list[Event]) -> None:
    grid = state.field.grid
    centres: list[int] = []
    for e in list(events):
        uid = e.data.get("unit") if e.kind == "rampage" else None
        old = before.units.get(uid) if isinstance(uid, str) else None
        if old is not None and old.side == rule.side and old.hex >= 0:
            centres.append(old.hex)
    checked: set[str] = set()
    while centres:
        centre = centres.pop(0)
        near = sorted(
            (
                u
                for u in state.units.values()
                if u.type == "EL" and u.side == rule.side and u.on_map and u.id not in checked
                if grid.distance(centre, u.hex) <= PANIC_RANGE
            ),
            key=lambda u: (grid.distance(centre, u.hex), u.id),
        )
        for el in near:
            if not el.on_map:
                continue
            checked.add(el.id)
            roll = dice.d10(f"{el.id} panic check")
            panics = roll > el.tq
            events.append(
                Event(
                    "panic",
                    f"{el.id} takes fright at the rampage: rolls {roll} against TQ {el.tq}: "
                    f"{'it rampages' if panics else 'it holds'} (scenario rule elephant-panic, Bellum Africum 83).",
                    {"unit": el.id, "roll": roll},
                )
            )
            if panics:
                where = el.hex
                rampage(state, el, el, dice, events)
                centres.append(where)


def _encirclement(before: State, state: State, rule: Active, action: Shock, events: list[Event]) -> None:
    old_def = before.units.get(action.defender)
    defender = state.units.get(action.defender)
    if old_def is None or defender is None or old_def.side != rule.side or not old_def.foot:
        return
    attackers = [before.units[a] for a in action.attackers if a in before.units]
    if not any(attack_position(before, a, old_def) in ("flank", "rear") for a in attackers):
        return
    if defender.on_map and defender.status == "full":
        defender.status = "disordered"
        state.broke.add(defender.id)
        events.append(
            Event(
                "disorder",
                f"{defender.id} is disordered: pressed in flank or rear, its packed files cannot face about "
                "(scenario rule encirclement, Polybius 3.115).",
                {"unit": defender.id},
            )
        )


def _through_the_ranks(before: State, state: State, rule: Active, action: Shock, events: list[Event]) -> None:
    old_def = before.units.get(action.defender)
    if old_def is None or not old_def.foot:
        return
    for uid in action.attackers:
        ch = state.units.get(uid)
        if ch is None or ch.type != "CH" or ch.side != rule.side or not ch.on_map:
            continue
        eliminate(
            state,
            ch,
            events,
            "it runs through the opened ranks and is taken behind the line (scenario rule scythed-chariots, "
            "Arrian Anabasis 3.13)",
        )


def expand(grid: Grid, specs: list[str]) -> list[int]:
    """Hex indices of ids and ``CCRR-CCRR`` rectangles (already validated by the loader)."""
    out: list[int] = []
    for spec in specs:
        first, sep, last = spec.partition("-")
        if not sep:
            out.append(grid.index(first))
            continue
        c0, r0, c1, r1 = int(first[:2]), int(first[2:]), int(last[:2]), int(last[2:])
        out.extend(grid.index(f"{c:02d}{r:02d}") for r in range(r0, r1 + 1) for c in range(c0, c1 + 1))
    return out
