"""How the campaign's battles are fought (docs/rules/campaign.md §12.8).

Each battle engine offers a ``Route`` (``bellum.engagement``): the battleboard's
``battleboard.resolve.ROUTE`` and the tactical engine's ``tactical.engagement.TacticalRoute``
with the campaign's conversion (``campaign.conversion.route``).  ``chosen(eng, mode)`` is
the route a mode sends an engagement to; ``route(mode)`` is the campaign ``Resolver`` that
asks it.  Headless, ``bellum campaign --battles MODE`` chooses the mode:

- ``auto`` (the default) and ``battleboard``: every battle on the battleboard, played out
  by its AI on both sides (the auto-resolve);
- ``tactical``: every land field battle on the tactical (GBoH) engine through the
  campaign's conversion (``campaign.conversion``), AI on both sides; storms and battles
  at sea stay on the battleboard, which alone has sea and walls;
- ``decisive-tactical``: the decisive battles (``is_decisive``) on the tactical engine,
  the rest on the battleboard.

The window offers the tactical engine first for a decisive battle (``campaign.view``).
"""

from __future__ import annotations

from battleboard.resolve import ROUTE as BOARD
from bellum.dice import Dice
from bellum.engagement import Engagement, Outcome, Route
from campaign import actions as A
from campaign.engine import CampaignEngine
from campaign.rules.battle import Resolver, auto_resolve
from campaign.state import SIDES, CampaignState
from campaign.tables import tables

MODES = ("auto", "battleboard", "tactical", "decisive-tactical")


def ground_sp(eng: Engagement) -> dict[str, int]:
    """Each side's ground SP in the engagement."""
    out = {"A": 0, "B": 0}
    for u in eng.units:
        if u.kind != "fleet":
            out[u.side] += u.strength
    return out


def is_decisive(eng: Engagement) -> bool:
    """A decisive battle (campaign.md §12.8): a land field battle between the two Roman
    sides in which a Supreme Leader is present and each side brings at least
    ``decisive.supreme_sp`` SP, or each side brings at least ``decisive.any_sp``."""
    if eng.kind != "land" or eng.trigger != "battle":
        return False
    if {eng.sides["A"].faction, eng.sides["B"].faction} != set(SIDES):
        return False
    t = tables().decisive
    sp = ground_sp(eng)
    least = min(sp.values())
    supreme = any(ld.supreme for ld in eng.leaders)
    return (supreme and least >= t.supreme_sp) or least >= t.any_sp


def tactical_ok(eng: Engagement) -> bool:
    """Whether the tactical engine can fight ``eng`` (its route does not refuse it)."""
    return not tactical_route().refusal(eng)


def tactical_route() -> Route:
    from campaign.conversion import route as conversion_route

    return conversion_route()


def chosen(eng: Engagement, mode: str) -> Route:
    """The route ``mode`` sends ``eng`` to: the tactical engine for the battles the mode gives
    it (every land field battle, or the decisive ones), else the battleboard."""
    if mode not in MODES:
        raise ValueError(f"{mode!r} is not a way to fight battles ({', '.join(MODES)})")
    if mode in ("tactical", "decisive-tactical"):
        wanted = tactical_ok(eng) if mode == "tactical" else is_decisive(eng)
        if wanted:
            return tactical_route()
    return BOARD


def route(mode: str) -> Resolver:
    """The resolver for a ``--battles`` mode."""
    if mode not in MODES:
        raise ValueError(f"{mode!r} is not a way to fight battles ({', '.join(MODES)})")
    if mode in ("auto", "battleboard"):
        return auto_resolve

    def resolve(eng: Engagement, dice: Dice) -> Outcome:
        return chosen(eng, mode).resolve(eng, dice)

    return resolve


def settled(state: CampaignState, action: A.Action, mode: str, seed: int) -> A.Action:
    """``action`` carrying the outcome of the battle it would fight, when ``mode`` sends
    that battle to the tactical engine — fought AI against AI on dice of its own
    (``seed``) — so that the action log replays the war exactly under any engine, as a
    battle the window fought does (campaign.md §12.8); else ``action`` itself."""
    if mode not in ("tactical", "decisive-tactical") or not isinstance(action, A.Commit) or action.outcome:
        return action
    from campaign.odds import BattleAhead, stop_at_battle

    seed %= 2**63

    try:
        CampaignEngine(resolver=stop_at_battle).apply(state, action, Dice(seed, record=False))
    except BattleAhead as stop:
        eng = stop.engagement
        way = chosen(eng, mode)
        if way.engine == "tactical":
            return A.Commit(action.stratagems, way.resolve(eng, Dice(seed)))
    return action
