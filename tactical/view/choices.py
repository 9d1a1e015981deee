"""The Choices panel's list: every action the generator offers now, grouped as a player
thinks of them (issue 16) — Move (a row per piece, with the count of hexes it can end in),
Fire (a row per firer and target, with the hit odds), Shock (a row per defender, with the
odds of its simplest combat), Rally, the rest (Pass, Continuity, Resolve, reactions…), and
Move last (its rows are the many).

No arcade here.  The odds come from ``tactical.odds`` (the real resolver over every die
face, the functions the AI weighs its attacks with); a row's odds are worked out only when
the row is first shown (``Choice.detail``), so a long list costs nothing until it is paged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from bellum.errors import RuleError
from tactical import odds as tac_odds
from tactical.actions import (
    Action,
    Activate,
    Continuity,
    Decline,
    Designate,
    Fire,
    Move,
    Rally,
    React,
    Resolve,
    Shock,
    Start,
)
from tactical.state import State
from tactical.view.words import continuity_odds, describe, describe_variant, pct, reaction_odds

#: the groups in the order the panel lists them, with their headings
GROUPS = (
    ("resolve", "Designated combats: resolve each"),
    ("react", "Your reaction (rules §8.13)"),
    ("activate", "Activate a leader or a group"),
    ("fire", "Fire"),
    ("shock", "Shock"),
    ("rally", "Rally"),
    ("other", "Other choices"),
    ("move", "Move (a row shows the piece's hexes)"),
)


@dataclass
class Choice:
    """A row of the Choices panel.

    ``action``: what the row plays (None for a heading or a Move row); ``opens``: the row
    opens the odds panel on ``variants`` (every option the generator offers for that
    combat or fire) instead of playing; ``unit``: the piece a Move row selects;
    ``odds``: works out the row's second line (the odds) when first shown."""

    label: str
    action: Action | None
    opens: bool = False
    top: float = 0.0
    bottom: float = 0.0
    group: str = "other"
    unit: str | None = None
    variants: list[Action] = field(default_factory=list)
    target: str = ""
    heading: bool = False
    odds: Callable[[], str] | None = None
    _detail: str | None = None

    @property
    def detail(self) -> str:
        """The row's odds in words (worked out once)."""
        if self._detail is None:
            self._detail = self.odds() if self.odds is not None else ""
        return self._detail


def simplest(variants: Iterable[Action]) -> Action:
    """The option shown first: fewest attackers, no special choices (``describe_variant``)."""
    return min(variants, key=lambda a: (len(describe_variant(a)), describe_variant(a)))


def end_hexes(moves: Iterable[Move], start: str) -> set[str]:
    """The hexes the moves end in (a facing change in place ends where it began)."""
    ends = set()
    for m in moves:
        hexes = [p for p in m.path if ":" not in p]
        ends.add(hexes[-1] if hexes else start)
    return ends


def shock_summary(state: State, shock: Shock) -> str:
    """A shock's exact odds in one line: the defender's fate and the attackers' risk
    (``tactical.odds.shock_odds``)."""
    try:
        full = tac_odds.shock_odds(state, shock)
    except RuleError as why:
        return str(why)
    fate = defender_fate(state, shock, full)
    hurt = attackers_hurt(state, shock, full)
    words = ", ".join(f"{status} {pct(p)}" for status, p in sorted(fate.items(), key=lambda kv: -kv[1]))
    return f"defender {words or 'unharmed'} · attackers hurt {pct(hurt)}"


def defender_fate(state: State, shock: Shock, full: dict[Any, Fraction]) -> dict[str, Fraction]:
    """The chance of each status the defender may end the shock in, other than the one it has."""
    out: dict[str, Fraction] = {}
    before = state.units[shock.defender].status
    for outcome, p in full.items():
        status = next((s for uid, s, _e in outcome[1] if uid == shock.defender), before)
        if status != before:
            out[status] = out.get(status, Fraction(0)) + p
    return out


def attackers_hurt(state: State, shock: Shock, full: dict[Any, Fraction]) -> Fraction:
    """The chance that at least one attacker ends the shock worse off (status or hits)."""
    mine = set(shock.attackers)
    total = Fraction(0)
    for outcome, p in full.items():
        status = any(uid in mine and s != state.units[uid].status for uid, s, _e in outcome[1])
        hits = any(uid in mine and h > state.units[uid].missile_hits for uid, h in outcome[2])
        if status or hits:
            total += p
    return total


def fire_summary(state: State, fire: Fire) -> str:
    """A missile fire's exact odds in one line: the chance of each number of hits."""
    try:
        full = tac_odds.fire_odds(state, fire)
    except RuleError as why:
        return str(why)
    before = state.units[fire.target].missile_hits
    hits: dict[int, Fraction] = {}
    for outcome, p in full.items():
        n = dict(outcome[2]).get(fire.target, before) - before
        hits[n] = hits.get(n, Fraction(0)) + p
    return ", ".join(
        f"{n} hit{'s' if n > 1 else ''} {pct(p)}" if n else f"miss {pct(p)}" for n, p in sorted(hits.items())
    )


def rally_summary(state: State, rally: Rally) -> str:
    """A rally's exact odds in one line (003 §10.27): the chance of each state the unit ends
    in (status, missile hits), by the real rule over every die face."""
    from bellum.odds import exact_distribution
    from tactical.engine import apply

    def run(dice: Any) -> tuple[str, int]:
        after, _ = apply(state, rally, dice)
        u = after.units[rally.unit]
        return u.status, u.missile_hits

    try:
        odds = exact_distribution(run)
    except RuleError as why:
        return str(why)
    words = []
    for (status, hits), p in sorted(odds.items(), key=lambda kv: -kv[1]):
        words.append(f"{status}{f', {hits} hits' if hits else ''} {pct(p)}")
    return "ends " + " · ".join(words)


def build_choices(
    state: State, legal: list[Action], selected: str | None, memo: dict[Action, str] | None = None
) -> list[Choice]:
    """The panel's rows for the generator's actions ``legal``; with a piece ``selected``, only
    its moves, fire and combats (and the actions of no piece).  ``memo``: the odds already
    worked out in this state, by action (kept by the caller while the state stays)."""
    rows: dict[str, list[Choice]] = {g: [] for g, _ in GROUPS}
    moves: dict[str, list[Move]] = {}
    fires: dict[tuple[str, str], list[Action]] = {}
    combats: dict[str, list[Action]] = {}
    pending: dict[tuple[tuple[str, ...], str], list[Action]] = {}
    for a in legal:
        if isinstance(a, Move):
            moves.setdefault(a.unit, []).append(a)
        elif isinstance(a, Fire):
            fires.setdefault((a.unit, a.target), []).append(a)
        elif isinstance(a, Designate):
            if selected is None or selected in a.attackers:
                combats.setdefault(a.defender, []).append(a)
        elif isinstance(a, Shock):
            pending.setdefault((a.attackers, a.defender), []).append(a)
        else:
            row = _plain(state, a)
            rows[row.group].append(row)
    for unit, ms in sorted(moves.items()):
        if selected is None or unit == selected:
            rows["move"].append(_move_row(state, unit, ms))
    for (unit, target), fs in sorted(fires.items()):
        if selected is None or unit == selected:
            rows["fire"].append(_odds_row(state, "fire", target, fs))
    for defender, ds in sorted(combats.items()):
        rows["shock"].append(_odds_row(state, "shock", defender, ds))
    for (_attackers, defender), ss in sorted(pending.items()):
        rows["resolve"].append(_odds_row(state, "resolve", defender, ss))
    out: list[Choice] = []
    for group, heading in GROUPS:
        if rows[group]:
            out.append(Choice(heading, None, group=group, heading=True))
            out.extend(rows[group])
    if memo is not None:
        for c in out:
            if c.odds is not None and c.action is not None:
                c.odds = _memoised(c.odds, c.action, memo)
    return out


def _memoised(odds: Callable[[], str], action: Action, memo: dict[Action, str]) -> Callable[[], str]:
    def cached() -> str:
        if action not in memo:
            memo[action] = odds()
        return memo[action]

    return cached


def _plain(state: State, a: Action) -> Choice:
    label = describe(a)
    if isinstance(a, Continuity):
        label += f"  ({pct(continuity_odds(state, a))})"
    if isinstance(a, Resolve):
        n = len(state.designations)
        label += f" ({n} shock{'s' if n != 1 else ''} designated)"
    odds: Callable[[], str] | None = None
    if isinstance(a, React | Decline) and state.reacting is not None and state.reacting.kind == "shock":
        react = a

        def odds() -> str:
            return reaction_odds(state, react)
    elif isinstance(a, Rally):
        rally = a

        def odds() -> str:
            return rally_summary(state, rally)

    return Choice(label, a, group=_group(a), odds=odds)


def _group(a: Action) -> str:
    if isinstance(a, Rally):
        return "rally"
    if isinstance(a, React | Decline):
        return "react"
    if isinstance(a, Activate | Continuity | Start):
        return "activate"
    return "other"


def _move_row(state: State, unit: str, moves: list[Move]) -> Choice:
    piece = state.units.get(unit) or state.leaders.get(unit)
    start = state.field.grid.hex_id(piece.hex) if piece is not None and piece.hex >= 0 else ""
    n = len(end_hexes((m for m in moves if m.carry is None), start))
    return Choice(f"{unit} · {n} hexes reachable", None, group="move", unit=unit)


def _odds_row(state: State, group: str, target: str, variants: list[Action]) -> Choice:
    shown = simplest(variants)
    if isinstance(shown, Fire):
        fire = shown
        label = f"{fire.unit} fires at {target}"

        def odds() -> str:
            return fire_summary(state, fire)
    else:
        assert isinstance(shown, Designate | Shock)
        shock = shown.as_shock() if isinstance(shown, Designate) else shown
        label = f"{'+'.join(shock.attackers)} -> {target}"

        def odds() -> str:
            return shock_summary(state, shock)

    if len(variants) > 1:
        label += f" ({len(variants)} options)"
    return Choice(label, shown, opens=True, group=group, variants=variants, target=target, odds=odds)
