"""The campaign window's game: a ``bellum.session.Session`` seen as a ``MapModel``.

``CampaignGame`` is what the playing window reads and drives (docs/rules/campaign.md
§14).  It owns no rule: every choice it offers comes from the engine's one legal-action
generator (``session.legal_actions()``), and every change goes through
``session.play`` — so the phases the rules grow later (stratagems, Res Publica,
recruiting, events) appear here as actions without a change to the window.

What it adds for the window:

* **forces and owners** for the map, the turn and phase for the top bar;
* the **selected force** and its legal destinations, each with its **march odds**:
  the March Table rolls of the path enumerated exactly through ``bellum.odds
  .exact_distribution`` over the rules' own ``march_roll`` (campaign.md §8.2);
* the **reactive decisions** (``Pending``) and the phase's actions as plain options;
* the **battle choice** (campaign.md §12, issue 7 item 6): an action that settles a
  battle (``Commit``, ``Accept``, ``Intercept``, and ``Supply`` for its convoy battles)
  is *probed* first — applied to a copy
  with a copy of the dice and a resolver that stops at the engagement — so the window
  knows the exact ``Engagement`` the rules will fight before it is fought.  The player
  then auto-resolves it (odds shown first), plays it on the battleboard, or hands it to
  the tactical engine; the ``Outcome`` comes back inside the deciding action, so the
  session's log replays the game exactly.  A supply phase may fight several convoy
  battles: each result joins ``Supply.outcomes`` and the phase is probed again for the
  next one; auto-resolving one convoy battle auto-resolves the phase's others too;
* the **computer player** for the sides it plays, one action per step;
* **save and load** through the session, and the **chronicle**.

No arcade here: tests drive a game without a window.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from bellum import slots
from bellum.dice import Dice
from bellum.engagement import Engagement, Outcome
from bellum.errors import BellumError, RuleError
from bellum.events import Event
from bellum.odds import exact_distribution
from bellum.report import AfterAction
from bellum.session import Session
from campaign import actions as A
from campaign.ai import CampaignAI
from campaign.chronicle import Chronicler, battle_reports
from campaign.chronicle import line as chronicle_line
from campaign.engine import CampaignEngine, describe_pending
from campaign.map import CampaignMap, roman_world
from campaign.odds import BattleAhead, decision_odds, odds_text, stop_at_battle
from campaign.rules import naval, supply
from campaign.rules.battle import land_engagement
from campaign.rules.common import force_name, leader_name, place_name, share
from campaign.rules.march import allowance, march_roll
from campaign.rules.stratagems import commit_limit
from campaign.state import SIDE_NAMES, SIDES, CampaignState, enemy, side_title
from campaign.units import Force, catalogue
from campaign.view.model import ForceMarker
from campaign.view.stacks import force_markers

#: battles auto-resolved to show the odds of one (the battleboard AI on both sides)
ODDS_BATTLES = 40
#: chronicle lines kept for the panel
CHRONICLE_KEEP = 400

PHASE_TITLES = {
    "events": "Historical events",
    "stratagems": "Stratagems",
    "res_publica": "Res Publica",
    "recruiting": "Recruiting",
    "movement": "Movement",
    "combat": "Combat",
    "supply": "Supply",
}


@dataclass(frozen=True, slots=True)
class MarchOdds:
    """What a march risks on the March Table (campaign.md §8.2), exactly."""

    arrive: Fraction
    halt: Fraction
    scatter: Fraction
    #: expected strength points lost to the march
    loss: Fraction
    #: cross-country edges rolled for
    rolls: int

    @property
    def sure(self) -> bool:
        return self.arrive == 1 and self.loss == 0

    def text(self) -> str:
        if self.rolls == 0:
            return "by road: sure"
        parts = [f"arrives {float(self.arrive):.0%}"]
        if self.halt:
            parts.append(f"halted {float(self.halt):.0%}")
        if self.scatter:
            parts.append(f"astray {float(self.scatter):.0%}")
        if self.loss:
            parts.append(f"loses {float(self.loss):.1f} SP on average")
        return ", ".join(parts)

    def short(self) -> str:
        return "sure" if self.rolls == 0 else f"{float(self.arrive):.0%}"


def march_odds(state: CampaignState, force: Force, path: Sequence[str], stratagem: bool) -> MarchOdds:
    """The exact odds of a march: every cross-country edge of ``path`` is a roll on the
    March Table by the terrain entered (the rules' ``march_roll``), enumerated over every
    face by ``exact_distribution`` (campaign.md §8.2)."""
    cmap = roman_world()
    legs = []
    for a, b in itertools.pairwise(path):
        lk = cmap.link(a, b)
        if lk is not None and lk.kind == "cross_country":
            legs.append(cmap.spaces[b].terrain)
    if not legs:
        return MarchOdds(Fraction(1), Fraction(0), Fraction(0), Fraction(0), 0)
    strength = force.strength()

    def run(dice: Dice) -> tuple[str, int]:
        lost = 0
        for terrain in legs:
            res = march_roll(state, force, terrain, stratagem, dice)
            if res.kind in ("scatter", "halt"):
                return res.kind, lost + share(strength - lost, res.loss)
            if res.kind == "loss":
                lost += share(strength - lost, res.loss)
        return "arrive", lost

    dist = exact_distribution(run)
    by_kind = {k: sum((p for (kind, _), p in dist.items() if kind == k), Fraction(0)) for k in ("arrive", "halt")}
    by_kind["scatter"] = sum((p for (kind, _), p in dist.items() if kind == "scatter"), Fraction(0))
    loss = sum((p * n for (_, n), p in dist.items()), Fraction(0))
    return MarchOdds(by_kind["arrive"], by_kind["halt"], by_kind["scatter"], loss, len(legs))


@dataclass(frozen=True, slots=True)
class Option:
    """One choice the window offers: a label, the action, and what it risks."""

    label: str
    action: A.Action
    detail: str = ""


@dataclass(slots=True)
class BattleChoice:
    """A battle about to be fought, waiting for the player to choose how (issue 7 item 6).

    ``action`` is the deciding action (``Commit``, ``Accept``, ``Intercept``) without an
    outcome; ``engagement`` the battle the rules will fight when it is played.
    """

    action: A.Action
    engagement: Engagement
    title: str
    odds: dict[str, float] | None = None
    #: which engagement sides (A, B) the computer plays
    ai_letters: frozenset[str] = frozenset()
    names: dict[str, str] = field(default_factory=dict)


def _kind_name(kind: str) -> str:
    try:
        return catalogue().kind(kind).name
    except (KeyError, AttributeError):
        return kind.replace("_", " ")


def _leader(ld: str) -> str:
    try:
        return leader_name(ld)
    except KeyError:
        return ld


def _unit(state: CampaignState, unit_id: str) -> str:
    for f in state.forces.values():
        for u in f.units:
            if u.id == unit_id:
                return u.label()
    return unit_id.replace("_", " ")


def action_label(state: CampaignState, a: A.Action) -> str:
    """An action in words, for a button (any action of the generator; an action the window
    does not know yet is named by its type and fields)."""
    if isinstance(a, A.Take):
        kind = a.kind.capitalize()
        return f"Take {'an' if kind[:1] in 'AEIOU' else 'a'} {kind} stratagem"
    if isinstance(a, A.Politics):
        return f"Play a Political stratagem on the {a.table.replace('_', ' ').title()} table"
    if isinstance(a, A.Claim):
        return f"{_leader(a.leader)} claims the succession"
    if isinstance(a, A.Veto):
        return "The Tribune vetoes the result"
    if isinstance(a, A.Recruit):
        return f"Raise {_kind_name(a.kind)} at {place_name(a.city)}"
    if isinstance(a, A.RecruitLeader):
        return f"Bring {_leader(a.leader)} into play at {place_name(a.city)}"
    if isinstance(a, A.FoundColony):
        return f"Found a colony at {place_name(a.city)}"
    if isinstance(a, A.Train):
        return f"Train {_unit(state, a.unit)}"
    if isinstance(a, A.FormGuard):
        return f"Make {_unit(state, a.unit)} the Supreme Leader's Guard"
    if isinstance(a, A.Tribute):
        target = place_name(a.target) if a.target in roman_world() else a.target.replace("_", " ").title()
        return f"Win {target} over with tribute"
    if isinstance(a, A.Bribe):
        return f"Bribe the civis of {place_name(a.city)}"
    if isinstance(a, A.Subvert):
        f = state.forces.get(a.force)
        return f"Subvert {force_name(f) if f else a.force}"
    if isinstance(a, A.Assassinate):
        return f"Have {_leader(a.leader)} assassinated"
    if isinstance(a, A.Pass):
        return "Pass"
    if isinstance(a, A.EndPhase):
        return "End the phase"
    values = [str(getattr(a, f)) for f in getattr(a, "__dataclass_fields__", {}) if getattr(a, f) is not None]
    return type(a).__name__ + (f" ({', '.join(values)})" if values else "")


#: the stratagem each decision of the political phases costs (campaign.md §15.3, §17, §18)
STRATAGEM_COST: dict[type, str] = {
    A.Recruit: "Political",
    A.RecruitLeader: "Political",
    A.FoundColony: "Political",
    A.FormGuard: "Political",
    A.Politics: "Political",
    A.Claim: "Political",
    A.Tribute: "Political",
    A.Bribe: "Political",
    A.Subvert: "Political",
    A.Train: "Military",
    A.Assassinate: "Agent",
}


def action_cost(state: CampaignState, a: A.Action) -> str:
    """What a decision costs, in words ("1 Political stratagem (3 held) · 2 legions left to
    raise"); '' for one that costs nothing."""
    from campaign.rules.recruiting import builds_left

    kind = STRATAGEM_COST.get(type(a))
    if kind is None:
        return ""
    held = state.stratagems.get(state.active, {}).get(kind.lower(), 0)
    out = f"costs 1 {kind} stratagem ({held} held)"
    if isinstance(a, A.Recruit):
        left = builds_left(state, state.active, a.kind)
        if left is not None:
            out += f" · {left} left to raise"
    return out


#: what declining reads as, by the decision it answers
DECLINE_LABELS = {
    "intercept": "Let the voyage pass",
    "cut_supply": "Cut nothing",
    "escort": "Concede the cut",
    "naval_offer": "Refuse battle (stay in harbour)",
    "veto": "Let the result stand",
}

#: what each choice of the spoils of victory reads as, and what it is for (campaign.md §12.4)
SPOILS_LABELS = {
    "military": ("Take a Military stratagem", "for battles, forced marches and interceptions"),
    "agent": ("Take an Agent", "for plots against enemy leaders"),
}


def with_outcome(action: A.Action, outcome: Outcome) -> A.Action:
    """The deciding action carrying the outcome of a battle fought elsewhere."""
    if isinstance(action, A.Commit):
        return A.Commit(action.stratagems, outcome)
    if isinstance(action, A.Accept):
        return A.Accept(outcome)
    if isinstance(action, A.Intercept):
        return A.Intercept(action.force, outcome)
    if isinstance(action, A.Supply):
        return A.Supply((*action.outcomes, outcome))
    raise BellumError(f"{type(action).__name__} does not settle a battle")


def _settles_battle(action: A.Action) -> bool:
    """Whether ``action`` may fight a battle whose result a human may want to fight out:
    a deciding action without its outcome, or a supply phase (its convoy battles, §10.2)."""
    if isinstance(action, A.Commit | A.Accept | A.Intercept):
        return action.outcome is None
    return isinstance(action, A.Supply)


def tactical_refusal(eng: Engagement) -> str:
    """Why the tactical engine will not fight ``eng`` ('' when it will), in its route's words."""
    from campaign.routes import tactical_route

    return tactical_route().refusal(eng)


class CampaignGame:
    """A campaign in the window (see the module docstring)."""

    def __init__(
        self,
        session: Session[CampaignState, A.Action],
        humans: frozenset[str] = frozenset({SIDES[0]}),
        save_path: str | Path | None = None,
        game_id: str = "",
    ) -> None:
        self.session = session
        #: the game's id on the cards of its saves and naming its autosaves' folder
        #: (``bellum.slots.new_game_id``; a loaded game keeps its save's)
        self.game_id = game_id or slots.new_game_id(session.scenario)
        self.humans = frozenset(humans)
        #: sides played on another computer (a game by e-mail, ``bellum.pbem``): neither a person here nor the AI
        self.remote: frozenset[str] = frozenset(getattr(session, "remote", ()))
        self.ais: dict[str, CampaignAI] = {s: CampaignAI() for s in SIDES if s not in self.humans | self.remote}
        #: a game by e-mail: where the next turn file goes (None: the player's data folder)
        self.send_to: Path | None = None
        #: hotseat: the side the computer is being handed to (its hand stays hidden until it takes over)
        self.handover: str | None = None
        self._last_human: str | None = None
        self.world: CampaignMap = roman_world()
        self.selected: str | None = None
        self.selected_force: str | None = None
        self.message = ""
        self.battle: BattleChoice | None = None
        #: the file ``--save``/``--load`` named; None: the window saves to named slots (campaign.saveslots)
        self.save_path = Path(save_path) if save_path else None
        self.chronicle: list[str] = []
        self.version = 0  # bumped by every change the window must redraw
        #: news the window shows as pop-ups: (title, lines) — historical events, the war's end
        self.popups: list[tuple[str, list[str]]] = []
        #: how each battle fought in a battle window was fought, and its turning points
        self._fought: dict[str, tuple[str, tuple[str, ...]]] = {}
        self._moves: dict[str, list[Option]] | None = None
        self._ended = False
        self._markers: tuple[CampaignState, tuple[ForceMarker, ...]] | None = None
        self._odds_cache: dict[tuple[str, tuple[str, ...], bool], MarchOdds] = {}
        self._decision_odds: dict[str, str] = {}
        self._commit_odds: dict[tuple[str, int, int], dict[str, float]] = {}
        self._chronicle_from(self.session.log)

    def set_humans(self, humans: frozenset[str]) -> None:
        """Who plays which side: the computer takes every side no person plays."""
        self.humans = frozenset(humans)
        self.ais = {s: self.ais.get(s) or CampaignAI() for s in SIDES if s not in self.humans | self.remote}
        self.version += 1

    @classmethod
    def new(cls, scenario: str = "49bc", seed: int = 1, humans: frozenset[str] = frozenset({SIDES[0]})) -> CampaignGame:
        return cls(Session(CampaignEngine(), scenario, seed), humans)

    # ------------------------------------------------------------------ the MapModel
    @property
    def state(self) -> CampaignState:
        return self.session.state

    def title(self) -> str:
        """The scenario's title, for the top bar."""
        from campaign.engine import load

        try:
            return load(self.session.scenario).title
        except BellumError:
            return self.session.scenario

    def date_label(self) -> str:
        return self.state.date() + (" (winter)" if self.state.winter() else "")

    def turn_label(self) -> str:
        return f"Turn {self.state.turn + 1}"

    def phase_label(self) -> str:
        s = self.state
        who = SIDE_NAMES[s.active].removeprefix("the ").capitalize()
        if s.phase == "events":
            return f"{PHASE_TITLES['events']}"
        return f"{who} · {PHASE_TITLES.get(s.phase, s.phase)}"

    def owners(self) -> Mapping[str, str]:
        return self.state.owners

    def forces(self) -> Sequence[ForceMarker]:
        """The counters to draw (kept until the state changes: the window asks every frame)."""
        if self._markers is not None and self._markers[0] is self.state:
            return self._markers[1]
        markers = self._force_markers()
        self._markers = (self.state, markers)
        return markers

    def _force_markers(self) -> tuple[ForceMarker, ...]:
        # issue 15 (wt15a): each counter with its symbol and stack card (campaign.view.stacks)
        return force_markers(self.state)

    def select(self, place: str | None) -> None:
        if place is not None and place not in self.world:
            raise KeyError(f"there is no place called {place!r} on the map")
        self.selected = place

    # ------------------------------------------------------------------ whose move
    @property
    def actor(self) -> str:
        return self.state.actor

    def human_to_act(self) -> bool:
        return self.actor in self.humans and self.battle is None and self.handover is None

    def legal(self) -> list[A.Action]:
        return list(self.session.legal_actions())

    # ------------------------------------------------------------------ playing
    def play(self, action: A.Action) -> bool:
        """Play ``action`` through the session; a refusal becomes the message."""
        try:
            events = self.session.play(action)
        except RuleError as no:
            self.message = str(no)
            self.version += 1
            return False
        self.message = ""
        self._after(events)
        return True

    def _after(self, events: Sequence[Event]) -> None:
        self._chronicle_from(events)
        self._news(events)
        self._send()
        self._hand_over()
        self._moves = None
        self._odds_cache.clear()
        self._decision_odds.clear()
        self._commit_odds.clear()
        f = self.state.forces.get(self.selected_force or "")
        if f is None:
            self.selected_force = None
        else:
            self.selected = f.location
        self.version += 1

    def _hand_over(self) -> None:
        """Hotseat: when the decision passes from one person to the other, the window hands
        the computer over before it shows the new player's hand and choices."""
        if len(self.humans) < 2 or self.actor not in self.humans or self.state.result:
            return
        if self._last_human is not None and self.actor != self._last_human:
            self.handover = self.actor
        self._last_human = self.actor

    def pbem_battle_to_fight(self) -> bool:
        """A game by e-mail: a battle is being fought move by move and this side must move."""
        session: Any = self.session
        if not self.remote or getattr(session, "battle", None) is None or session.turn_over():
            return False
        return bool(session.actor() in self.humans)

    def take_over(self) -> None:
        """The player handed the computer to has it: show his hand and choices."""
        self.handover = None
        self.version += 1

    def _send(self) -> None:
        """A game by e-mail: once the decision passes to the other computer, write the next turn file."""
        session: Any = self.session
        if not self.remote or getattr(session, "written", None) is not None or not session.turn_over():
            return
        out = session.finish(self.send_to)
        who = SIDE_NAMES[session.rules.actor(self.state)] if not self.state.result else "your opponent"
        self.popups.append(("Your turn is done", [f"The next turn file is written: {out}", f"Send it to {who}."]))

    def _chronicle_from(self, events: Sequence[Event] | Any) -> None:
        # issue 15 (wt15a): lines under their own turn's and half-turn's header, in order; a
        # fresh Chronicler when the chronicle was emptied (a new game, undo, load)
        if not self.chronicle or not hasattr(self, "_chronicler"):
            self._chronicler = Chronicler()
        self.chronicle.extend(self._chronicler.feed(events))
        del self.chronicle[:-CHRONICLE_KEEP]

    def _news(self, events: Sequence[Event]) -> None:
        """Pop-ups: a historical event with what followed from it; the end of the war."""
        evs = list(events)
        for i, e in enumerate(evs):
            if e.kind == "historical_event":
                follow = []
                for f in evs[i + 1 :]:
                    if f.kind in ("historical_event", "turn", "side_turn", "pass"):
                        break
                    follow.append(f.text)
                self.popups.append((e.text.rstrip("."), follow[:6]))
        for rep in battle_reports(e for e in evs if e.kind == "battle" and self._fought_by_human(e)):
            rep = self._told(rep)
            self.popups.append((f"After-action report: {rep.title()}", rep.summary()))
        result = getattr(self.state, "result", None)
        if result and not any(t == "The war is over" for t, _ in self.popups) and not self._ended:
            self._ended = True
            self.popups.append(("The war is over", [str(result.get("text", ""))]))

    def reports(self) -> list[AfterAction]:
        """The after-action report of every battle of the game so far (campaign.md §14.4)."""
        return [self._told(rep) for rep in battle_reports(list(self.session.log))]

    def _told(self, rep: AfterAction) -> AfterAction:
        """A report with how its battle was fought and its turning points, when a battle
        window handed them back."""
        fought, moments = self._fought.get(rep.engagement.id, ("auto-resolve", ()))
        return replace(rep, fought=fought, moments=moments)

    def _fought_by_human(self, e: Event) -> bool:
        """Whether a person plays a side in the battle ``e`` reports (the after-action report
        pops up for them; battles between computer players stay in the chronicle)."""
        report = e.data.get("report")
        if not isinstance(report, dict):
            return False
        sides = report.get("engagement", {}).get("sides", {})
        return any(isinstance(v, dict) and v.get("faction") in self.humans for v in sides.values())

    def war_lines(self) -> list[str]:
        """The state of the war, side by side (the panel above the place panel): stratagems,
        Res Publica, the Supreme Leader, the Republic's markers, clients at war, fratricide,
        and the end of the war when it has come (docs/rules/campaign.md §15–§21)."""
        s = self.state
        lines = []
        for side in SIDES:
            hand = s.stratagems.get(side, {})
            total = sum(hand.values())
            # hotseat: only the hand of the side deciding now, and none while the computer changes hands
            open_hand = side in self.humans and self.handover is None and (len(self.humans) == 1 or side == s.actor)
            if open_hand:
                kinds = ", ".join(f"{n} {k.capitalize()}" for k, n in hand.items())
                strat = f"stratagems {kinds}"
            else:
                strat = f"{total} stratagems"
            sup = s.supreme.get(side)
            head = f"{side_title(side)}: {strat} · Res Publica {s.res_publica.get(side, 0)}"
            lines.append(head + (f" · {leader_name(sup)}" if sup else " · no Supreme Leader"))
        markers = getattr(s, "republic", {}) or {}
        held = [f"{m.capitalize()}: {SIDE_NAMES[v].removeprefix('the ').capitalize()}" for m, v in markers.items() if v]
        if held:
            lines.append(" · ".join(held))
        at_war = sorted(c for c, st in s.clients.items() if st in SIDES)
        if at_war:
            side_word = {"caesarian": "Caesarian", "senatorial": "Senatorial"}
            lines.append(
                "Clients at war: "
                + ", ".join(f"{c.replace('_', ' ').title()} ({side_word[s.clients[c]]})" for c in at_war)
            )
        lines.append(f"Fratricide {s.fratricide}")
        result = getattr(s, "result", None)
        if result:
            lines.append(f"The war is over: {result.get('text', '')}")
        return lines

    def decide(self, action: A.Action) -> bool:
        """Play a decision; one that settles a battle a human takes part in stops first
        at the battle choice (auto-resolve, battleboard, tactical)."""
        if self.humans and not self.remote and _settles_battle(action):
            eng = self.probe(action)
            if eng is not None:
                self.battle = self._battle_choice(action, eng)
                self.version += 1
                return True
        return self.play(action)

    def probe(self, action: A.Action) -> Engagement | None:
        """The engagement ``action`` would fight now, found by applying it to a copy of the
        state with a copy of the dice (nothing changes); None if no battle follows."""
        engine = CampaignEngine(resolver=stop_at_battle)
        dice = Dice.from_state(self.session.dice.state())
        try:
            engine.apply(self.state, action, dice)
        except BattleAhead as stop:
            return stop.engagement
        except RuleError as no:
            self.message = str(no)
        return None

    def _battle_choice(self, action: A.Action, eng: Engagement) -> BattleChoice:
        s = self.state
        letters = {"A": s.active, "B": enemy(s.active)}
        ai = frozenset(k for k, side in letters.items() if side not in self.humans)
        names = {k: side_title(side) for k, side in letters.items()}
        where = place_name(eng.where)
        title = f"Battle at sea off {where}" if eng.kind == "naval" else f"Battle of {where}"
        return BattleChoice(action, eng, title, ai_letters=ai, names=names)

    def battle_odds(self) -> dict[str, float]:
        """The auto-resolve odds of the waiting battle (battleboard AI on both sides, N battles)."""
        b = self.battle
        if b is None:
            raise BellumError("there is no battle waiting")
        if b.odds is None:
            b.odds = self._auto_odds(b.engagement)
        return b.odds

    def _auto_odds(self, eng: Engagement) -> dict[str, float]:
        """Auto-resolve odds: the battleboard AI on both sides over ``ODDS_BATTLES`` battles
        on dice fixed by the turn (the same for every preview of one state)."""
        from battleboard.resolve import odds

        return odds(eng, ODDS_BATTLES, seed=1 + self.state.turn)

    def auto_resolve(self) -> bool:
        """Fight the waiting battle by auto-resolve, with the campaign's dice (in a supply
        phase, with the convoy battles still to come)."""
        b = self.battle
        if b is None:
            return False
        self.battle = None
        return self.play(b.action)

    def finish_battle(self, outcome: Outcome, fought: str = "", moments: Sequence[str] = ()) -> bool:
        """Apply the outcome of the waiting battle, fought elsewhere (battleboard, tactical);
        ``fought`` and ``moments`` (its turning points) go into its after-action report."""
        b = self.battle
        if b is None:
            return False
        self._fought[outcome.engagement] = (fought, tuple(moments))
        self.battle = None
        action = with_outcome(b.action, outcome)
        # a supply phase may fight several convoy battles (§10.2): on to the next one
        ok = self.decide(action) if isinstance(action, A.Supply) else self.play(action)
        if not ok:
            self.battle = b
        return ok

    def cancel_battle(self) -> None:
        """Back out of the battle choice (the decision has not been played)."""
        self.battle = None
        self.version += 1

    # ------------------------------------------------------------------ the computer
    def ai_to_act(self) -> bool:
        return self.battle is None and self.actor in self.ais and bool(self.legal())

    def ai_step(self) -> bool:
        """The computer plays one action for the side it plays; a battle it fights with a
        human stops at the battle choice."""
        if not self.ai_to_act():
            return False
        action = self.ais[self.actor].choose(self.state)
        if self.state.pending is not None or isinstance(action, A.Supply):
            return self.decide(action)
        return self.play(action)

    def run_ai(self, limit: int = 500) -> int:
        """Let the computer play until a human must act (or ``limit`` actions)."""
        n = 0
        while n < limit and self.ai_step():
            n += 1
        return n

    # ------------------------------------------------------------------ forces and moves
    def select_force(self, force_id: str | None) -> None:
        if force_id is not None and force_id not in self.state.forces:
            raise KeyError(f"there is no force {force_id!r}")
        self.selected_force = force_id
        self._moves = None
        if force_id is not None:
            self.selected = self.state.forces[force_id].location
        self.version += 1

    def moves(self) -> dict[str, list[Option]]:
        """The selected force's destinations → its legal march and sail options with odds
        (only when a human is to move it)."""
        fid = self.selected_force
        if fid is None or not self.human_to_act() or self.state.phase != "movement" or self.state.pending:
            return {}
        if self._moves is None:
            self._moves = self._build_moves(fid)
        return self._moves

    def _build_moves(self, fid: str) -> dict[str, list[Option]]:
        out: dict[str, list[Option]] = {}
        force = self.state.forces[fid]
        for a in self.legal():
            if isinstance(a, A.March) and a.force == fid:
                odds = self.odds_of(a)
                how = "with a Military stratagem" if a.stratagem else ""
                label = f"March to {place_name(a.to)}" + (f" {how}" if how else "")
                out.setdefault(a.to, []).append(Option(label, a, odds.text()))
            elif isinstance(a, A.Sail) and a.force == fid:
                out.setdefault(a.to, []).append(
                    Option(f"Sail to {place_name(a.to)}", a, f"{len(a.path) - 1} sea zones; may be intercepted")
                )
        del force
        return out

    def odds_of(self, a: A.March) -> MarchOdds:
        key = (a.force, a.path, a.stratagem)
        got = self._odds_cache.get(key)
        if got is None:
            got = march_odds(self.state, self.state.forces[a.force], a.path, a.stratagem)
            self._odds_cache[key] = got
        return got

    def best_odds(self, options: Sequence[Option]) -> str:
        """The label of a destination on the map: the chance a plain march arrives (nothing
        for a sure march by road), or "sail"."""
        for o in options:
            if isinstance(o.action, A.March) and not o.action.stratagem:
                odds = self.odds_of(o.action)
                return "" if odds.sure else odds.short()
        return "sail" if options else ""

    def move_to(self, place: str) -> list[Option]:
        """Click on a destination: a single sure march is played at once; otherwise the
        options are returned for the window to ask which."""
        opts = self.moves().get(place, [])
        if len(opts) == 1 and isinstance(opts[0].action, A.March) and self.odds_of(opts[0].action).sure:
            self.play(opts[0].action)
            return []
        return opts

    def merges(self) -> list[Option]:
        fid = self.selected_force
        if fid is None or not self.human_to_act():
            return []
        return [
            Option(f"Join {force_name(self.state.forces[a.into])}", a)
            for a in self.legal()
            if isinstance(a, A.Merge) and a.force == fid
        ]

    # ------------------------------------------------------------------ the phase's actions
    def phase_options(self) -> list[Option]:
        """The actions of the phase that are not moves on the map (end the phase, pass it,
        supply, battles, storms, naval offers) — straight from the generator."""
        if not self.human_to_act() or self.state.pending is not None:
            return []
        out: list[Option] = []
        seen_battle: set[str] = set()
        for a in self.legal():
            if isinstance(a, A.Pass):
                out.append(Option(f"Pass the {PHASE_TITLES.get(self.state.phase, self.state.phase)} phase", a))
            elif isinstance(a, A.EndPhase):
                out.append(Option(f"End {PHASE_TITLES.get(self.state.phase, 'the phase').lower()}", a))
            elif isinstance(a, A.Supply):
                out.append(Option("Resolve supply", a))
            elif isinstance(a, A.Battle):
                if a.place not in seen_battle:
                    seen_battle.add(a.place)
                    out.append(Option(f"Attack at {place_name(a.place)}…", A.Battle(a.place, 0)))
            elif isinstance(a, A.Storm):
                extra = " + stratagem" if a.stratagem else ""
                out.append(
                    Option(
                        f"Storm {place_name(a.city)}{extra}",
                        a,
                        f"{force_name(self.state.forces[a.force])}: {self.decision_odds(a)}",
                    )
                )
            elif isinstance(a, A.OfferNaval):
                out.append(Option(f"Offer battle at sea off {place_name(a.place)}", a))
            elif isinstance(a, A.March | A.Sail | A.Merge):
                continue
            elif self.place_of(a) is None and self.force_of(a) is None:
                detail = " · ".join(x for x in (action_cost(self.state, a), self.decision_odds(a)) if x)
                out.append(Option(action_label(self.state, a), a, detail))
        return out

    def decision_odds(self, a: A.Action) -> str:
        """The exact odds of a decision that rolls dice ("60% refused · 40% accepted"),
        by the real engine over every die face (``campaign.odds``); "" for one that rolls
        none.  Kept until the state changes."""
        key = repr(a)
        got = self._decision_odds.get(key)
        if got is None:
            odds = decision_odds(self.state, a)
            got = self._decision_odds[key] = odds_text(odds, limit=4) if odds else ""
        return got

    # -- actions tied to a place or a force (recruiting, colonies, tribute, bribes, subversion)
    def place_of(self, a: A.Action) -> str | None:
        """The map place an action is about (shown when the place is selected), or None."""
        if isinstance(a, A.Recruit | A.RecruitLeader | A.FoundColony | A.Bribe):
            return a.city
        if isinstance(a, A.Tribute):
            return a.target if a.target in self.world else None
        return None

    def force_of(self, a: A.Action) -> str | None:
        """The force an action is about (shown when the force is selected), or None."""
        if isinstance(a, A.Subvert):
            return a.force
        if isinstance(a, A.Train | A.FormGuard):
            unit = a.unit
            for f in self.state.forces.values():
                if any(u.id == unit for u in f.units):
                    return f.id
        return None

    def action_places(self) -> dict[str, int]:
        """Places with actions of their own now (lit on the map): place -> how many."""
        if not self.human_to_act() or self.state.pending is not None:
            return {}
        out: dict[str, int] = {}
        for a in self.legal():
            place = self.place_of(a)
            if place is None:
                f = self.force_of(a)
                place = self.state.forces[f].location if f in self.state.forces else None
            if place is not None:
                out[place] = out.get(place, 0) + 1
        return out

    def place_options(self, place: str | None) -> list[Option]:
        """The actions about ``place`` and about the forces in it."""
        if place is None or not self.human_to_act() or self.state.pending is not None:
            return []
        out = []
        for a in self.legal():
            f = self.force_of(a)
            if self.place_of(a) == place or (f in self.state.forces and self.state.forces[f].location == place):
                detail = " · ".join(x for x in (action_cost(self.state, a), self.decision_odds(a)) if x)
                out.append(Option(action_label(self.state, a), a, detail))
        return out

    def phase_note(self) -> str:
        """A line of help for the phase the player is in."""
        s = self.state
        if not self.human_to_act() or s.pending is not None:
            return ""
        if s.phase == "movement":
            return "Click a force, then a lit place (green: sure; amber or red: the March Table's risk; blue: by sea)."
        due = getattr(s, "due", None)
        if s.phase == "stratagems" and isinstance(due, int) and not isinstance(due, bool) and due > 0:
            return f"{due} stratagem{'s' if due != 1 else ''} still to choose."
        if s.phase == "combat":
            return "Every field battle must be fought before the combat phase ends."
        return ""

    def commit_options(self, place: str) -> list[Option]:
        """Attack at ``place`` committing 0..n Military stratagems (campaign.md §12.2), as the
        generator offers them, each with the auto-resolve odds of winning if the enemy then
        commits none and if it commits all it may (its answer comes after)."""
        foe_most = commit_limit(self.state, enemy(self.state.active), place)
        out = []
        for a in self.legal():
            if not (isinstance(a, A.Battle) and a.place == place):
                continue
            i = a.stratagems
            odds = f"win {self.commit_odds(place, i, 0)['A']:.0%} if they commit none"
            if foe_most:
                odds += f", {self.commit_odds(place, i, foe_most)['A']:.0%} if they commit {foe_most}"
            out.append(Option(f"Commit {i} Military stratagem{'s' if i != 1 else ''}", a, odds))
        return out

    def commit_odds(self, place: str, a: int, b: int) -> dict[str, float]:
        """The auto-resolve odds (``battleboard.resolve.odds``, the battle dialog's) of the
        battle at ``place`` with ``a`` and ``b`` Military stratagems committed for tactical
        superiority (§12.2); kept until the state changes."""
        key = (place, a, b)
        got = self._commit_odds.get(key)
        if got is None:
            got = self._commit_odds[key] = self._auto_odds(land_engagement(self.state, place, a, b))
        return got

    def pending_options(self) -> list[Option]:
        """The reactive side's answers to the waiting decision."""
        p = self.state.pending
        if p is None or not self.human_to_act():
            return []
        out = []
        for a in self.legal():
            if isinstance(a, A.Intercept):
                f = self.state.forces[a.force]
                win = self._auto_odds(naval.interception_engagement(self.state, a.force))["B"]
                out.append(
                    Option(
                        f"Intercept with {force_name(f)}",
                        a,
                        f"{len(f.fleets())} fleets, 1 stratagem; you win {win:.0%} if found",
                    )
                )
            elif isinstance(a, A.CutSupply):
                out.append(Option(f"Cut supply at {place_name(a.place)}", a, force_name(self.state.forces[a.force])))
            elif isinstance(a, A.Escort):
                eng = supply.convoy_engagement(self.state, a.place, a.force, self.state.cuts[a.place])
                win = self._auto_odds(eng)["A"]
                f = self.state.forces[a.force]
                out.append(
                    Option(f"Fight for the convoys to {place_name(a.place)}", a, f"{force_name(f)}: you win {win:.0%}")
                )
            elif isinstance(a, A.Accept):
                win = self._auto_odds(naval.mutual_engagement(self.state, p.data["place"]))["B"]
                out.append(Option("Accept battle at sea", a, f"you win {win:.0%}"))
            elif isinstance(a, A.Commit):
                win = self.commit_odds(p.data["place"], p.data["a"], a.stratagems)["B"]
                out.append(
                    Option(
                        f"Commit {a.stratagems} Military stratagem{'s' if a.stratagems != 1 else ''}",
                        a,
                        f"you win {win:.0%}",
                    )
                )
            elif isinstance(a, A.Take) and p.kind == "spoils":
                label, why = SPOILS_LABELS.get(a.kind, (action_label(self.state, a), ""))
                out.append(Option(label, a, why))
            elif isinstance(a, A.Decline):
                out.append(Option(DECLINE_LABELS.get(p.kind, "Decline"), a))
            else:
                out.append(Option(action_label(self.state, a), a))
        return out

    def pending_title(self) -> str:
        p = self.state.pending
        titles = {
            "intercept": "Intercept the voyage?",
            "cut_supply": "Cut the enemy's sea supply?",
            "escort": "Fight for your sea supply?",
            "naval_offer": "Battle offered at sea",
            "commit": "Battle: commit stratagems",
            "veto": "The Tribune's veto",
            "spoils": "Spoils of victory",
        }
        return "A decision" if p is None else titles.get(p.kind, p.kind.replace("_", " ").capitalize())

    def pending_question(self) -> str:
        p = self.state.pending
        if p is None:
            return ""
        s = self.state
        try:
            describe_pending(p)
        except KeyError:  # a decision of a phase the window does not know by name
            return f"{side_title(p.actor)} must decide: {p.kind.replace('_', ' ')}."
        if p.kind == "intercept":
            f = s.forces.get(p.data["force"])
            who = force_name(f) if f else "An enemy fleet"
            return f"{who} sails for {place_name(p.data['to'])}. {side_title(p.actor)}: {describe_pending(p)}"
        if p.kind == "commit":
            return f"Battle at {place_name(p.data['place'])}. {side_title(p.actor)}: {describe_pending(p)}"
        if p.kind == "naval_offer":
            return f"Battle offered off {place_name(p.data['place'])}. {side_title(p.actor)}: {describe_pending(p)}"
        return f"{side_title(p.actor)}: {describe_pending(p)}"

    # ------------------------------------------------------------------ undo, save, load
    def can_undo(self) -> bool:
        return not self.undo_refusal()

    def undo_refusal(self) -> str:
        """Why Undo cannot take the last step back, in words ('' when it can): a die was
        rolled for it, the enemy has moved since, or it is not this player's decision."""
        if self.battle is not None:
            return "Choose how to fight the battle first."
        if not self.human_to_act():
            return "It is not your decision now."
        explain = getattr(self.session, "undo_refusal", None)
        if explain is None:  # a session that only says yes or no (a game by e-mail)
            return "" if self.session.can_undo() else "That step cannot be taken back."
        why: str = explain()
        return why

    def undo(self) -> bool:
        """Take the last step back, or say why not (the message)."""
        why = self.undo_refusal()
        try:
            if why:
                raise RuleError(why)
            self.session.undo()
        except RuleError as no:
            self.message = str(no)
            self.version += 1
            return False
        self.message = ""
        self.chronicle = []
        self._chronicle_from(self.session.log)
        self._after([])
        return True

    def save(self, path: str | Path | None = None) -> Path | None:
        """Save to ``path``, to the file named on the command line, or else to a slot named by
        the side and the date in the player's folder (the window asks for a name first)."""
        from campaign.saveslots import card, save_file, save_slot

        target = path or self.save_path
        try:
            if target is None:
                c = card(self.state, self.humans)
                where = save_slot(self.session, self.humans, f"{c['side']} {c['date']}", self.game_id)
            else:
                where = save_file(self.session, self.humans, Path(target), self.game_id)
        except BellumError as no:  # a game by e-mail: the turn files are the save
            self.message = str(no)
            self.version += 1
            return None
        except OSError as no:  # a full disc, a folder that cannot be written: one sentence
            self.message = f"The save could not be written: {no.strerror or no}."
            self.version += 1
            return None
        self.message = f"Saved to {where}."
        self.version += 1
        return where

    def load(self, path: str | Path | None = None) -> bool:
        """Replace the game by a saved one (replayed and checked); a bad save is a message."""
        if self.remote:
            self.message = "In a game by e-mail, open the turn file you received instead of a save."
            self.version += 1
            return False
        target = path or self.save_path
        if target is None:
            self.message = "Choose a save on the load screen (Ctrl+L)."
            self.version += 1
            return False
        try:
            session = Session.load(CampaignEngine(), target, self.session.scenario)
        except BellumError as no:
            self.message = str(no)
            self.version += 1
            return False
        self.session = session
        card = slots.read_card(target).meta  # the loaded game goes on: its autosaves beside its own
        self.game_id = (card.game if card is not None else "") or slots.new_game_id(session.scenario)
        self.ais = {s: CampaignAI() for s in self.ais}  # fresh players: no memory of the other game
        self.battle = None
        self.selected_force = None
        self.chronicle = []
        self._chronicle_from(session.log)
        self._after([])
        self.message = f"Loaded {target}: {self.state.date()}."
        return True

    # ------------------------------------------------------------------ words
    def describe_force(self, fid: str) -> list[str]:
        f = self.state.forces[fid]
        cat = catalogue()
        side = self.state.allegiance(f.side)
        head = self.force_title(fid) + (f" ({f.label()})" if f.commander and f.name else "")
        head = head[:1].upper() + head[1:]
        lines = [head, f"{side_title(side) if side else f.side.capitalize()} · at {place_name(f.location)}"]
        if f.leaders:
            lines.append("Leaders: " + ", ".join(f"{leader_name(ld)} ({cat.leader(ld).rating})" for ld in f.leaders))
        by_kind: dict[str, list[str]] = {}
        for u in f.units:
            by_kind.setdefault(u.kind, []).append(f"{u.discipline}{u.strength}{'*' if u.disrupted else ''}")
        for kind, items in by_kind.items():
            lines.append(f"{kind.replace('_', ' ')}: {' '.join(items)}")
        lines.append(f"Strength {f.strength()} SP")
        if self.state.phase == "movement" and self.state.allegiance(f.side) == self.state.active:
            spent = self.state.spent.get(fid, 0)
            lines.append(f"Movement: {min(spent, allowance(self.state, f))} of {allowance(self.state, f)} spent")
        return lines

    def describe_path(self, path: Sequence[str]) -> str:
        """A route in words: every leg with its kind and cost (the map's links)."""
        legs = []
        total = 0
        for a, b in itertools.pairwise(path):
            lk = self.world.link(a, b)
            kind = "?" if lk is None else lk.kind.replace("_", "-")
            cost = 0 if lk is None else lk.cost
            total += cost
            legs.append(f"{place_name(b)} ({kind}, {cost})")
        return f"Route: {place_name(path[0])} → " + " → ".join(legs) + f" — {total} movement points."

    def force_title(self, fid: str) -> str:
        """A force as a player names it: its commander, its name, or a city's garrison."""
        f = self.state.forces[fid]
        if f.commander or f.name:
            return force_name(f)
        cat = catalogue()
        if f.units and all(not cat.kind(u.kind).mobile for u in f.units):
            return f"the garrison of {place_name(f.location)}"
        return fid.replace("_", " ").capitalize()

    def last_line(self) -> str:
        evs = [e for e in self.session.log if e.kind not in ("pass", "side_turn")]
        return chronicle_line(evs[-1]) if evs else ""
