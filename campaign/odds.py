"""Exact odds of any campaign decision that rolls dice, by the real engine (``bellum.odds``).

The window shows them before a player commits (docs/rules/campaign.md §14.3): a
decision is applied to a copy of the state over every face of every die it rolls
(``exact_distribution`` branches on each roll the rules ask for), and the results are
grouped by what the decision's first chronicle event says came of it — "2 Res Publica
markers", "accepted", "they revolt", "he is murdered", "thrown back from the walls with
2 SP lost".  There is no second reading of the tables here: a rule changed in the
engine changes these odds with it.

A decision that fights a battle stops there (its odds are the battle dialog's);
one whose enumeration would pass ``MAX_RUNS`` resolver runs gets no odds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

from bellum.dice import Dice
from bellum.engagement import Engagement, Outcome
from bellum.errors import DiceError, MissingRollError, RuleError
from bellum.events import Event
from bellum.odds import exact_distribution
from campaign import actions as A
from campaign.state import CampaignState

#: the most engine runs one decision's odds may take (a few d10s)
MAX_RUNS = 2000
#: what a decision that leads to a battle is called
BATTLE = "a battle is fought"
#: events that say nothing of how a decision came out
_BOOKKEEPING = frozenset({"phase", "pass", "turn", "side_turn", "play", "spend"})
_ROLL = re.compile(r"\s*\((?:roll|rolls)\b[^()]*\)")


class BattleAhead(Exception):
    """Raised by ``stop_at_battle``: the engagement the rules are about to fight."""

    def __init__(self, engagement: Engagement) -> None:
        super().__init__("battle")
        self.engagement = engagement


def stop_at_battle(eng: Engagement, dice: Dice) -> Outcome:
    """A resolver that fights nothing: it stops the engine at the engagement (for odds and
    for the window's probe of the battle a decision would fight)."""
    raise BattleAhead(eng)


def outcome_words(events: Sequence[Event]) -> str:
    """What came of a decision, in the words of its first telling event, without the
    roll: the clause after the last colon ("… (roll 7+1 → 8): 2 Res Publica markers" →
    "2 Res Publica markers"), else the sentence without its actor's name."""
    for e in events:
        if e.kind in _BOOKKEEPING:
            continue
        text = _ROLL.sub("", e.text).strip().rstrip(".")
        if ": " in text:
            return text.rsplit(": ", 1)[1]
        return text
    return "nothing happens"


def decision_odds(state: CampaignState, action: A.Action) -> list[tuple[str, Fraction]] | None:
    """Every way ``action`` can come out now with its exact probability, the likeliest
    first; None when it is refused, rolls no die, or would take too long to enumerate."""
    from campaign.engine import CampaignEngine

    engine = CampaignEngine(resolver=stop_at_battle)
    rolled = False

    def run(dice: Dice) -> str:
        nonlocal rolled
        try:
            _s, events = engine.apply(state, action, dice)
        except BattleAhead:
            return BATTLE
        except MissingRollError:
            rolled = True  # the rules asked for a die: the enumeration branches on it
            raise
        return outcome_words(events)

    try:
        dist = exact_distribution(run, max_runs=MAX_RUNS)
    except (RuleError, DiceError):
        return None
    if not rolled:
        return None
    return sorted(dist.items(), key=lambda kv: (-kv[1], kv[0]))


def odds_text(odds: Sequence[tuple[str, Fraction]], limit: int = 3) -> str:
    """The likeliest ``limit`` outcomes and the rest summed: "62% accepted · 38% refused"."""
    shown = [f"{float(p):.0%} {what}" for what, p in odds[:limit]]
    rest = sum((p for _w, p in odds[limit:]), Fraction(0))
    if rest:
        shown.append(f"{float(rest):.0%} other")
    return " · ".join(shown)
