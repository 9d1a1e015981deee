"""The tactical engine's optional rules as the options screen offers them (``CHOICES``), and
how a chosen list of options is read (``split``).

Each choice names its source (``001 §10.32``) and says in one line what it changes; the rules
themselves are in the rules modules (docs/rules/tactical.md §9).  A chosen list holds the
engine's option ids (``tactical.state.OPTIONS``), at most one ``rout-bid:SIDE:POINTS`` and at
most one ``rules:RULESET`` (the ruleset the battle is fought under instead of the scenario's).
It replaces the scenario's own options (``tactical.scenario.load_scenario``).
"""

from __future__ import annotations

from collections.abc import Sequence

from bellum.settings import Choice, toggle
from tactical.state import OPTIONS, RULESETS

#: the prefix of a chosen ruleset in an option list
RULES_PREFIX = "rules:"
#: the bids the options screen offers (TQ points; 001 leaves the amount to the bidding)
BIDS = (20, 40, 80)

RULESET_CHOICE = Choice(
    "rules",
    "Ruleset",
    "003 · 000 · 002",
    "sgboh is 003 alone; simple-spqr adds 000's Roman rules; charts-v1 adds 002's charts and hits.",
    (("", "the scenario's"), *((RULES_PREFIX + r, r) for r in RULESETS)),
)

CHOICES: tuple[Choice, ...] = (
    RULESET_CHOICE,
    toggle(
        "finished-leaders",
        "Finished leaders",
        "000 §3.2",
        "A leader already activated may go again with +1 to his roll; his side's leaders turn back when all are spent.",
    ),
    toggle(
        "routed-count",
        "Routed units count as lost",
        "001 §10.32",
        "Routed units still on the map count toward the army's withdrawal level as if eliminated.",
    ),
    toggle(
        "leaving-zoc",
        "Leaving an enemy front",
        "001 §7.23",
        "A unit that starts in the front of no faster enemy may turn and step out of it (infantry risk hits).",
    ),
    toggle(
        "no-pilum",
        "No Pilum (items 1–5)",
        "001 No Pilum",
        "No javelin bonus for legions; they gain on elephants and keep their edge on horse only if unpressed.",
    ),
    Choice(
        "rout-bid",
        "Rout bid",
        "001 Rout Bid",
        "The bidding side takes Roman units off, legion by legion, then its withdrawal level is worked out again.",
        (("", "off"), *((f"rout-bid:{s}:{n}", f"side {s} bids {n}") for s in ("A", "B") for n in BIDS)),
    ),
    toggle(
        "retreat-to-reduce-hits",
        "Retreat to reduce hits",
        "001 §10.37",
        "A defender due more than two hits may take one fewer by stepping back one hex (charts-v1 only).",
    ),
    toggle(
        "pursuit-regroup",
        "Pursuers regroup",
        "001 §10.43",
        "Pursuing horse wait in the regroup box and ride back when their commander is next activated.",
    ),
)


def option_ids() -> frozenset[str]:
    """The engine's option ids the choices set (``tactical.state.OPTIONS``; a test compares)."""
    return frozenset(w for c in CHOICES[1:] for w, _ in c.values if w and not w.startswith("rout-bid:")) & OPTIONS


def split(options: Sequence[str]) -> tuple[str | None, list[str]]:
    """A chosen list as (the ruleset it names or None, the engine's options)."""
    rules = [o[len(RULES_PREFIX) :] for o in options if o.startswith(RULES_PREFIX)]
    if len(rules) > 1:
        raise ValueError(f"one ruleset at a time, not {', '.join(rules)}")
    if rules and rules[0] not in RULESETS:
        raise ValueError(f"{rules[0]!r} is not a ruleset ({', '.join(RULESETS)})")
    return (rules[0] if rules else None), [o for o in options if not o.startswith(RULES_PREFIX)]
