"""The battleboard rules, one door for their users: ONE legal-action generator and ``apply``.

``legal_actions(state)`` is what the window highlights, the AI searches and the
validator checks.  ``apply(state, action, dice)`` returns a new state and the
events; an illegal action raises ``RuleError`` and leaves the state untouched.
``play`` is the same rules applied in place without validation, for the AI's
auto-resolve (its actions come from the generator).

The rules live in modules by concept: ``queries`` (``Chance`` and what a position
says), ``legal`` (the generator and its validator), ``combat`` (the attack series and
its results), ``apply`` (playing an action; panic, breaking and the end of the battle).
All chance goes through ``bellum.dice.Dice``; combat-table results may be forced
(rules cases) through ``Chance``.  Sections cited are docs/rules/battleboard.md;
``004 …`` is the naval house rules.
"""

from __future__ import annotations

from battleboard.apply import apply, play
from battleboard.combat import Fighter, Setup, attack_setup, resolve_setup, setup_of
from battleboard.legal import check, first_setup_action, legal_actions, move_destinations
from battleboard.queries import (
    BOARDING_MODES,
    Chance,
    MissingResultError,
    active_ground,
    fleets_held,
    may_withdraw,
    on_board,
    really_lost,
    scores,
    sp_lost,
    victory_lost,
)

__all__ = [
    "BOARDING_MODES",
    "Chance",
    "Fighter",
    "MissingResultError",
    "Setup",
    "active_ground",
    "apply",
    "attack_setup",
    "check",
    "first_setup_action",
    "fleets_held",
    "legal_actions",
    "may_withdraw",
    "move_destinations",
    "on_board",
    "play",
    "really_lost",
    "resolve_setup",
    "scores",
    "setup_of",
    "sp_lost",
    "victory_lost",
]
