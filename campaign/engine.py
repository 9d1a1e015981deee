"""The campaign engine: the one legal-action generator and ``apply`` (docs/rules/campaign.md §7).

``CampaignEngine`` implements the ``bellum.session.Engine`` protocol, so a
``bellum.session.Session`` drives a campaign (play, undo, save, load with replay and
drift check).  ``legal_actions(state)`` is the single source of truth the AI, the CLI,
the window and the validator all ask; ``apply`` copies the state, applies the action
through the rules modules and returns the new state with its events — an illegal action
raises ``RuleError`` and the state passed in is untouched.

The battle hook is ``CampaignEngine(resolver=...)``: any ``(Engagement, Dice) ->
Outcome``; the default auto-resolves on the battleboard with the campaign's dice.  An
outcome may also arrive inside the deciding action (``Commit``, ``Accept``,
``Intercept``), which is how a window that plays the battle itself hands it back.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from bellum.dice import Dice
from bellum.errors import RuleError
from bellum.events import Event
from bellum.saves import Engine as EngineName
from campaign import actions as A
from campaign.decisions import (
    CommitDecision,
    CutSupplyDecision,
    EscortDecision,
    InterceptDecision,
    NavalOfferDecision,
    Pending,
    SpoilsDecision,
    VetoDecision,
)
from campaign.map import roman_world
from campaign.rules import march, naval, politics, recruiting, respublica, siege, stratagems, supply
from campaign.rules.battle import (
    Resolver,
    apply_outcome,
    auto_resolve,
    check_outcome,
    field_battles,
    land_engagement,
    naval_contacts,
    retreat_land,
    spend,
)
from campaign.rules.common import event, leader_name, place_name, tidy
from campaign.rules.events import events_phase
from campaign.rules.sequence import advance
from campaign.rules.stratagems import commit_limit, plays_left, record_play
from campaign.scenario import Scenario, load_scenario, resolve
from campaign.state import (
    PASS_PHASES,
    POLITICAL_PHASES,
    SIDE_NAMES,
    CampaignState,
    encode_state,
    enemy,
    initial_state,
    side_title,
)
from campaign.units import Force, catalogue


@cache
def load(name: str) -> Scenario:
    """A scenario by bare name (``49bc``) or path, loaded once."""
    return load_scenario(resolve(name))


class CampaignEngine:
    """The campaign's ``Engine`` for ``bellum.session.Session``."""

    name: EngineName = "campaign"

    def __init__(self, resolver: Resolver | None = None) -> None:
        self.resolver: Resolver = resolver or auto_resolve

    # -- the protocol ----------------------------------------------------------
    def new_state(self, scenario: str, dice: Dice) -> CampaignState:
        return initial_state(load(scenario))

    def legal_actions(self, state: CampaignState) -> Sequence[A.Action]:
        return legal_actions(state)

    def apply(self, state: CampaignState, action: A.Action, dice: Dice) -> tuple[CampaignState, list[Event]]:
        """``action`` played if the generator offers it; else refused, state and dice untouched."""
        if not offered(state, action):
            raise RuleError(self._refusal(state, action, dice))
        s = state.copy()
        before = dict(s.supreme)
        events = self._apply(s, action, dice)
        events += stratagems.supreme_lost(s, before)
        events += siege.stray_ships(s)
        events += siege.update_sieges(s)
        events += stratagems.offer_spoils(s)
        return s, events

    def encode_action(self, action: A.Action) -> dict[str, Any]:
        return A.encode(action)

    def decode_action(self, raw: dict[str, Any]) -> A.Action:
        return A.decode(raw)

    def encode_state(self, state: CampaignState) -> dict[str, Any]:
        return encode_state(state)

    def may_undo(self, before: CampaignState, after: CampaignState) -> bool:
        """A step that rolled no die may be taken back while the side that took it still
        decides (campaign.md §14.1): the Session refuses dice, this refuses the rest."""
        return not self.undo_refusal(before, after)

    def undo_refusal(self, before: CampaignState, after: CampaignState) -> str:
        """Why the step from ``before`` to ``after`` cannot be taken back, in words ('' when it
        can): once the decision has passed to the other side — the enemy has moved or has
        been asked something — or the war is over, what was done stands (§14.1)."""
        if after.result:
            return "The war is over: its last step cannot be taken back."
        if before.actor != after.actor:
            now, then = SIDE_NAMES.get(after.actor, after.actor), SIDE_NAMES.get(before.actor, before.actor)
            return f"The decision has passed to {now}: what {then} did before it cannot be taken back."
        return ""

    # -- applying --------------------------------------------------------------
    def _refusal(self, state: CampaignState, action: A.Action, dice: Dice) -> str:
        """The sentence for an action the generator does not offer: the rule's own, found by
        trying it on copies of the state and the dice, else a plain one."""
        try:
            self._apply(state.copy(), action, Dice.from_state(dice.state()))
        except RuleError as why:
            return str(why)
        except (KeyError, ValueError, TypeError):
            pass
        return f"That is not one of the actions open to {side_title(state.actor)} now."

    def _apply(self, s: CampaignState, action: A.Action, dice: Dice) -> list[Event]:
        if s.result:
            raise RuleError(f"The war is over: {s.result['text']}")
        p = s.pending
        if p is not None:
            return self._decide(s, p, action, dice)
        if isinstance(action, A.Pass) and s.phase == "events":
            return [*events_phase(s, dice), *advance(s, dice)]  # the Historical Events table, §20
        if isinstance(action, A.Pass):
            if s.phase in POLITICAL_PHASES:
                done = f"{side_title(s.active)} end their {s.phase.replace('_', ' ')} phase."
                ev = [event(s, "pass", done, phase=s.phase)]
                if s.phase == "stratagems":
                    ev += stratagems.forfeit(s)
                return ev + advance(s, dice)
            raise RuleError(f"The {s.phase.replace('_', ' ')} phase cannot simply be passed.")
        if s.phase == "stratagems" and isinstance(action, A.Take):
            return stratagems.take(s, action.kind)
        if s.phase == "res_publica":
            if isinstance(action, A.Politics):
                return respublica.roll_table(s, action.table, dice)
            if isinstance(action, A.Claim):
                return respublica.claim(s, action.leader)
        if s.phase == "recruiting":
            got = self._recruiting(s, action, dice)
            if got is not None:
                return got
        if s.phase == "movement":
            if isinstance(action, A.March):
                force, path, backed = action.force, action.path, action.stratagem
                return _backed(s, force, backed, lambda: march.do_march(s, force, path, backed, dice))
            if isinstance(action, A.Sail):
                return naval.sail(s, action.force, action.to, action.path)
            if isinstance(action, A.Merge):
                return march.merge(s, action.force, action.into)
            if isinstance(action, A.EndPhase):
                return advance(s, dice)
        if s.phase == "combat":
            if isinstance(action, A.Battle):
                if action.place not in field_battles(s):
                    raise RuleError(f"There is no field battle to fight at {place_name(action.place)}.")
                if action.stratagems > commit_limit(s, s.active, action.place):
                    raise RuleError("Your leaders there cannot commit that many Military stratagems.")
                spend(s, s.active, "military", action.stratagems)
                s.pending = CommitDecision(enemy(s.active), action.place, action.stratagems)
                return []
            if isinstance(action, A.Storm):
                city, force, backed = action.city, action.force, action.stratagem
                return _backed(s, force, backed, lambda: siege.storm(s, city, force, backed, dice))
            if isinstance(action, A.OfferNaval):
                return naval.offer_naval(s, action.place)
            if isinstance(action, A.EndPhase):
                left = field_battles(s)
                if left:
                    raise RuleError(f"The battle at {place_name(left[0])} must be fought before combat ends.")
                return advance(s, dice)
        if s.phase == "supply" and isinstance(action, A.Supply):
            return supply.resolve_supply(s, dice, self.resolver, action.outcomes) + advance(s, dice)
        raise RuleError(f"That is not an action of the {s.phase.replace('_', ' ')} phase.")

    def _decide(self, s: CampaignState, p: Pending, action: A.Action, dice: Dice) -> list[Event]:
        if p.kind == "intercept":
            if isinstance(action, A.Intercept):
                force, given = action.force, action.outcome
                return _backed(
                    s, force, force in s.forces, lambda: naval.intercept(s, force, dice, self.resolver, given)
                )
            if isinstance(action, A.Decline):
                return naval.decline_interception(s, dice)
        elif p.kind == "cut_supply":
            if isinstance(action, A.CutSupply):
                return supply.cut(s, action.place, action.force)
            if isinstance(action, A.Decline):
                supply.after_cuts(s)
                return []
        elif p.kind == "escort":
            if isinstance(action, A.Escort):
                return supply.escort(s, action.place, action.force)
            if isinstance(action, A.Decline):
                s.pending = None
                return []
        elif p.kind == "naval_offer":
            if isinstance(action, A.Accept):
                return naval.mutual_battle(s, dice, self.resolver, action.outcome)
            if isinstance(action, A.Decline):
                return naval.refuse_naval(s)
        elif isinstance(p, CommitDecision) and isinstance(action, A.Commit):
            return self._battle(s, p, action, dice)
        elif p.kind == "spoils" and isinstance(action, A.Take):
            return stratagems.take_spoils(s, action.kind)
        elif p.kind == "veto":
            if isinstance(action, A.Veto):
                return respublica.veto(s)
            if isinstance(action, A.Decline):
                return respublica.let_stand(s)
        raise RuleError(f"{side_title(s.actor)} must first answer: {describe_pending(p)}")

    def _recruiting(self, s: CampaignState, action: A.Action, dice: Dice) -> list[Event] | None:
        """The recruiting phase's actions (campaign.md §17–§18), or None for another."""
        if isinstance(action, A.Recruit):
            return recruiting.recruit(s, action.city, action.kind)
        if isinstance(action, A.RecruitLeader):
            return recruiting.recruit_leader(s, action.leader, action.city)
        if isinstance(action, A.FoundColony):
            return recruiting.found_colony(s, action.city)
        if isinstance(action, A.Train):
            return recruiting.train(s, action.unit)
        if isinstance(action, A.FormGuard):
            return recruiting.form_guard(s, action.unit)
        if isinstance(action, A.Tribute):
            return politics.tribute(s, action.target, dice)
        if isinstance(action, A.Bribe):
            return politics.bribe(s, action.city, dice)
        if isinstance(action, A.Subvert):
            return politics.subvert(s, action.force, dice)
        if isinstance(action, A.Assassinate):
            return politics.assassinate(s, action.leader, dice)
        return None

    def _battle(self, s: CampaignState, p: CommitDecision, action: A.Commit, dice: Dice) -> list[Event]:
        place = p.place
        foe = enemy(s.active)
        if action.stratagems > commit_limit(s, foe, place):
            raise RuleError("Your leaders there cannot commit that many Military stratagems.")
        spend(s, foe, "military", action.stratagems)
        s.pending = None
        eng = land_engagement(s, place, p.a, action.stratagems)
        # a relief battle: the attacker marched to a city of his own that enemy troops stand in (§11.4)
        relief = roman_world().spaces[place].kind == "city" and s.owner_side(place) == s.active
        out = action.outcome if action.outcome is not None else self.resolver(eng, dice)
        check_outcome(eng, out)
        s.fought = (*s.fought, place)
        present = {ld.id for ld in eng.leaders}
        events = apply_outcome(s, eng, out, dice, f"Battle of {place_name(place)}", relief=relief)
        if out.winner is not None:
            winner = s.active if out.winner == "A" else foe
            loser = enemy(winner)
            events += respublica.beaten_imperator(s, loser, present)
            if out.loser_retreats:
                events += retreat_land(s, place, loser, dice)
            events += siege.occupy(s, place, winner, dice)
        tidy(s)
        return events

    # -- for views and the AI --------------------------------------------------
    def engagement_for(self, state: CampaignState, place: str, a: int = 0, b: int = 0) -> Any:
        """The field battle that would be fought at ``place`` (for odds and the battle dialog)."""
        return land_engagement(state, place, a, b)

    def check(self, eng: Any, out: Any) -> None:
        check_outcome(eng, out)

    def apply_outcome(self, state: CampaignState, eng: Any, out: Any, dice: Dice) -> tuple[CampaignState, list[Event]]:
        s = state.copy()
        return s, apply_outcome(s, eng, out, dice, f"Battle of {place_name(eng.where)}")


def describe_pending(p: Pending) -> str:
    n = p.n if isinstance(p, SpoilsDecision) else 1
    return {
        "intercept": "will you intercept the voyage?",
        "cut_supply": "will you cut the enemy's sea supply?",
        "escort": "will your fleets fight for your sea supply, or do you concede the cut?",
        "naval_offer": "will you accept battle at sea?",
        "commit": "how many Military stratagems do you commit to the battle?",
        "veto": "will your Tribune veto the Res Publica result?",
        "spoils": f"take the spoils of victory ({n} left) as Military stratagems or Agents?",
    }[p.kind]


def _backed(s: CampaignState, force_id: str, backed: bool, run: Callable[[], list[Event]]) -> list[Event]:
    """A march, storm or interception its commander backs with a Military stratagem: he must
    have a play left before it (``_player``), and the play counts once it stands (§15.3)."""
    cmd = _player(s, force_id) if backed else None
    events = run()
    if cmd is not None:
        record_play(s, cmd)
    return events


def _player(state: CampaignState, force_id: str) -> str:
    """The commander who plays a Military stratagem for a march, storm or interception;
    he must have a play left (campaign.md §15.3)."""
    f = state.forces.get(force_id)
    if f is None or f.commander is None:
        raise RuleError("Only a force with a leader can play a stratagem.")
    if plays_left(state, f.commander) < 1:
        raise RuleError(f"{leader_name(f.commander)} has played all the stratagems his rating allows this turn.")
    return f.commander


def _can_play(state: CampaignState, force_id: str) -> bool:
    f = state.forces.get(force_id)
    return f is not None and f.commander is not None and plays_left(state, f.commander) > 0


def force_moves(state: CampaignState, f: Force) -> list[A.Action]:
    """The generator's marches and voyages of one force (campaign.md §8, §9)."""
    out: list[A.Action] = []
    boost = state.stratagems[state.active]["military"] > 0 and _can_play(state, f.id)
    cmap = roman_world()
    for dest, (_, path) in sorted(march.destinations(state, f).items()):
        out.append(A.March(f.id, dest, path))
        if boost and any(cmap.link(a, b).kind == "cross_country" for a, b in itertools.pairwise(path)):  # type: ignore[union-attr]
            out.append(A.March(f.id, dest, path, True))
    for dest, (_, path) in sorted(naval.voyages(state, f).items()):
        out.append(A.Sail(f.id, dest, path))
    return out


def merges(state: CampaignState) -> list[A.Action]:
    """The generator's merges: two movable forces of the active side in one place."""
    out: list[A.Action] = []
    by_place: dict[str, list[str]] = {}
    for f in state.forces_of(state.active):
        by_place.setdefault(f"{f.location}|{f.side}", []).append(f.id)
    for ids in by_place.values():
        movable = [i for i in sorted(ids) if all(catalogue().kind(u.kind).mobile for u in state.forces[i].units)]
        out += [A.Merge(a, b) for a in movable for b in movable if a != b]
    return out


def offer_key(action: A.Action) -> object:
    """The choice an action stands for in the generator's list: a march or a voyage is its
    force, destination (and stratagem) — any open path there is the same choice, checked by
    the march rules; a decision carrying the outcome of a battle fought elsewhere (the window,
    ``routes.settled``) is the decision itself."""
    if isinstance(action, A.March):
        return ("march", action.force, action.to, action.stratagem)
    if isinstance(action, A.Sail):
        return ("sail", action.force, action.to)
    if isinstance(action, A.Commit | A.Intercept | A.Accept) and action.outcome is not None:
        return dataclasses.replace(action, outcome=None)
    if isinstance(action, A.Supply) and action.outcomes:
        return A.Supply()
    return action


def offered(state: CampaignState, action: A.Action) -> bool:
    """Whether the one legal-action generator offers ``action`` (up to ``offer_key``); in the
    movement phase only the part of the list that could hold it is generated."""
    if state.pending is None and not state.result and state.phase == "movement":
        if isinstance(action, A.March | A.Sail):
            f = state.forces.get(action.force)
            if f is None or all(mine.id != f.id for mine in state.forces_of(state.active)):
                return False
            candidates = force_moves(state, f)
        elif isinstance(action, A.Merge):
            candidates = merges(state)
        else:
            candidates = [A.EndPhase()]
    elif state.pending is None and not state.result and isinstance(action, A.Pass) and state.phase != "movement":
        candidates = [A.Pass()] if state.phase in (*PASS_PHASES, *POLITICAL_PHASES) else []
    elif state.pending is None and not state.result and state.phase == "recruiting":
        political = isinstance(action, A.Tribute | A.Bribe | A.Subvert | A.Assassinate)
        candidates = politics.legal(state) if political else recruiting.legal(state)
    else:
        candidates = legal_actions(state)
    key = offer_key(action)
    return any(offer_key(a) == key for a in candidates)


def legal_actions(state: CampaignState) -> list[A.Action]:
    """Every legal action now (campaign.md §7.3); none once the war is over (§21)."""
    if state.result:
        return []
    p = state.pending
    if p is not None:
        if isinstance(p, InterceptDecision):
            return [*(A.Intercept(f) for f in p.options if _can_play(state, f)), A.Decline()]
        if isinstance(p, CutSupplyDecision):
            return [*(A.CutSupply(o[0], o[1]) for o in p.options), A.Decline()]
        if isinstance(p, EscortDecision):
            return [*(A.Escort(o[0], o[1]) for o in p.options), A.Decline()]
        if isinstance(p, NavalOfferDecision):
            return [A.Accept(), A.Decline()]
        if isinstance(p, CommitDecision):
            n = commit_limit(state, enemy(state.active), p.place)
            return [A.Commit(i) for i in range(n + 1)]
        if isinstance(p, VetoDecision):
            return [A.Veto(), A.Decline()]
        return stratagems.spoils_legal(state)
    if state.phase in PASS_PHASES:
        return [A.Pass()]
    if state.phase == "stratagems":
        return [*stratagems.legal(state), A.Pass()]
    if state.phase == "res_publica":
        return [*respublica.legal(state), A.Pass()]
    if state.phase == "recruiting":
        return [*recruiting.legal(state), *politics.legal(state), A.Pass()]
    out: list[A.Action] = []
    if state.phase == "movement":
        for f in sorted(state.forces_of(state.active), key=lambda f: f.id):
            out += force_moves(state, f)
        out += merges(state)
        out.append(A.EndPhase())
    elif state.phase == "combat":
        battles = field_battles(state)
        for place in battles:
            for n in range(commit_limit(state, state.active, place) + 1):
                out.append(A.Battle(place, n))
        mil = state.stratagems[state.active]["military"] > 0
        for city, fid in siege.storm_targets(state):
            out.append(A.Storm(city, fid))
            if mil and _can_play(state, fid):
                out.append(A.Storm(city, fid, True))
        for place in naval_contacts(state):
            out.append(A.OfferNaval(place))
        if not battles:
            out.append(A.EndPhase())
    elif state.phase == "supply":
        out.append(A.Supply())
    return out
