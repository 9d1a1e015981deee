"""The illustrated after-action report of a war (``bellum aar``, campaign.md §14.5).

A save is replayed action by action (``Session.load``, checksum checked) through a
campaign engine that watches: at each change of turn it notes each side's strength,
cities, Res Publica markers, stratagems and fratricide; every march and voyage, battle,
siege and interception is kept for the maps; every battleboard battle is fought again on
the very dice it was fought on, with a camera (``battleboard.resolve.autoplay(watch=…)``)
taking the board at the start, at each turn and at the end; every tactical battle the
headless AI fought (``campaign.routes.settled``) is fought again from its recorded seed
(``campaign.conversion.fight_tactical``) and kept only when it gives the outcome the save
holds.

No arcade and no files here: ``campaign.view.aar`` renders the pictures, ``campaign.aar_page``
writes the page.  Everything is a function of the save, so the same save gives the same
report.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bellum.dice import Dice
from bellum.engagement import SIDES as AB
from bellum.engagement import Engagement, Outcome, Side
from bellum.events import Event
from bellum.report import AfterAction, from_data, name_sides, namer, plural_name, without_references
from bellum.session import Session
from campaign import actions as A
from campaign.chronicle import Story
from campaign.state import SIDE_NAMES, CampaignState
from campaign.warstats import Counting
from campaign.warstats import Month as Month  # the report's monthly record (tests, aar_charts)

#: the seasons of the campaign calendar's turns (data/tables.toml [calendar])
SEASONS = {
    "December": "Winter",
    "January": "Winter",
    "March": "Spring",
    "April": "Spring",
    "May": "Spring",
    "June": "Summer",
    "August": "Summer",
    "October": "Autumn",
}
#: the most turning-point pictures a battle gets between its start and its end
TURNING_FRAMES = 2
#: the most turning points told in words for one battle
TURNING_LINES = 8
#: why a battle has no pictures
WINDOW_FOUGHT = "This battle was fought in a battle window; its moves are not kept in the campaign's save."
#: the lines of the battle's own log a picture's log panel shows
LOG_LINES = 12


@dataclass(frozen=True)
class Move:
    """A march or a voyage, for the maps."""

    kind: str  # "march" or "sail"
    side: str
    path: tuple[str, ...]
    turn: int


@dataclass(frozen=True)
class Site:
    """A battle, siege, storm or interception, for the maps."""

    kind: str  # "battle", "siege", "storm", "interception"
    place: str
    turn: int
    side: str | None  # the winner of a battle, the besieger, the interceptor


@dataclass
class Period:
    """A season (or a year) of the war: one map."""

    title: str
    turns: tuple[int, ...]
    state: CampaignState  # at the period's end
    moves: list[Move] = field(default_factory=list)
    sites: list[Site] = field(default_factory=list)
    caption: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Frame:
    """One picture of a battle: the board or the battlefield at a moment."""

    label: str  # "start", "turn 4", "end"
    turn: int
    state: Any  # battleboard.model.State or tactical.state.State
    #: the battle's log up to this moment, its last lines (for the window's log panel)
    log: tuple[str, ...] = ()


@dataclass
class Battle:
    """One battle of the war, with what its report shows."""

    number: int
    index: int  # the index of its event in the war's log
    event: Event
    report: AfterAction
    engine: str  # "battleboard" or "tactical"
    frames: list[Frame] = field(default_factory=list)
    turning: list[str] = field(default_factory=list)
    #: a tactical battle's generated scenario (for the battlefield's view)
    scenario: Any = None
    #: why there are no pictures, when there are none
    missing: str = ""

    def title(self) -> str:
        return self.report.title()

    def anchor(self) -> str:
        return f"battle-{self.number}"

    def headline(self) -> str:
        """Who won, and whose strength was lost of how much: "Pompeius defeats Caesar:
        Caesar lost 10 SP of 16; Pompeius lost 1 of 14."."""
        rep, out = self.report, self.report.outcome
        a, b = commander(rep, "A"), commander(rep, "B")
        la, lb = out.strength_lost.get("A", 0), out.strength_lost.get("B", 0)
        losses = f"{a} lost {la} SP of {rep.engaged('A')}; {b} lost {lb} of {rep.engaged('B')}"
        if out.winner is None:
            return f"{_cap(a)} and {b} fight to a draw: {losses}."
        win, lose = (a, b) if out.winner == "A" else (b, a)
        leader = any(ld.name == win or ld.id == win for ld in rep.engagement.leaders)
        verb = "defeat" if plural_name(win) and not leader else "defeats"
        return f"{_cap(win)} {verb} {lose}: {losses}."


@dataclass
class War:
    """The war as the report tells it."""

    source: str
    scenario: str
    seed: int
    state: CampaignState
    events: list[Event]
    months: list[Month]
    periods: list[Period]
    battles: list[Battle]
    stories: list[Story]


def commander(rep: AfterAction, side: Side) -> str:
    """What a side is called in a headline: its Supreme Leader, else its best-rated leader,
    else the side's name."""
    leaders = [ld for ld in rep.engagement.leaders if ld.side == side]
    if leaders:
        best = min(leaders, key=lambda ld: (not ld.supreme, -ld.rating, ld.id))
        return best.name or best.id
    return rep.side_name(side)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


# ------------------------------------------------------------------ the replay


class _Watch(Counting):
    """The campaign engine, replaying a save while taking notes for the report (each turn's
    end: ``campaign.warstats.Counting``)."""

    def __init__(self, seed: int) -> None:
        super().__init__(resolver=self._resolve)
        self.seed = seed
        self.index = 0  # the action being applied
        self.boards: dict[str, tuple[list[Frame], list[tuple[int, list[Event]]], Any]] = {}
        self.tactical_at: dict[str, int] = {}  # engagement id -> the action that carried its outcome
        self.ends: dict[int, CampaignState] = {}  # turn -> the state at its end

    def _resolve(self, eng: Engagement, dice: Dice) -> Outcome:
        """The battleboard's auto-resolve (``campaign.rules.battle.auto_resolve``) on the same
        dice, with a camera after every player turn."""
        from battleboard.resolve import autoplay, outcome, state_from_engagement

        frames: list[Frame] = []
        told: list[tuple[int, list[Event]]] = []
        events: list[Event] = []
        seen = [0]

        def watch(s: Any) -> None:
            if s.phase in ("allocate", "deploy"):
                return
            new = events[seen[0] :]
            seen[0] = len(events)
            log = tuple(e.text for e in events[-LOG_LINES:])
            if not frames:
                frames.append(Frame("start", s.turn, s.clone(), log))
            elif new:
                frames.append(Frame(f"turn {s.turn}", s.turn, s.clone(), log))
                told.append((s.turn, new))

        final = autoplay(state_from_engagement(eng), dice, events, watch=watch)
        self.boards[eng.id] = (frames, told, final)
        return outcome(final, eng, dice)

    def apply(self, state: CampaignState, action: A.Action, dice: Dice) -> tuple[CampaignState, list[Event]]:
        new, events = super().apply(state, action, dice)
        if isinstance(action, A.Commit | A.Accept) and action.outcome is not None:
            self.tactical_at[action.outcome.engagement] = self.index
        self.index += 1
        return new, events

    def note(self, s: CampaignState) -> None:
        """The war at the end of ``s``'s turn, and the state itself (for the maps)."""
        self.ends.setdefault(s.turn, s)
        super().note(s)


def replay(path: str | Path, by: str = "auto", only: int | None = None) -> War:
    """The war of the save at ``path``, replayed (an ``InputError`` sentence for a bad save);
    with ``only``, of its battles only that one (numbered in the order fought, from 1)."""
    from bellum.saves import read_save
    from campaign.chronicle import stories

    data = read_save(path, "campaign")
    engine = _Watch(data.seed)
    session = Session.load(engine, path)
    engine.note(session.state)
    events = list(session.log)
    battles = _battles(events, engine, data.seed, only)
    periods = _periods(events, engine, by)
    return War(
        source=str(path),
        scenario=data.scenario,
        seed=data.seed,
        state=session.state,
        events=events,
        months=engine.months,
        periods=periods,
        battles=battles,
        stories=stories(events),
    )


# ------------------------------------------------------------------ the battles


def _battles(events: list[Event], engine: _Watch, seed: int, only: int | None = None) -> list[Battle]:
    from bellum.errors import InputError
    from campaign.map import roman_world

    cmap = roman_world()
    out: list[Battle] = []
    fought = [i for i, e in enumerate(events) if e.kind == "battle" and isinstance(e.data.get("report"), dict)]
    if only is not None and not 1 <= only <= len(fought):
        raise InputError("--battle", "", f"{only} is not a battle of this war (it has {len(fought)})")
    for n, i in enumerate(fought, 1):
        if only is not None and n != only:
            continue
        e = events[i]
        tactical = e.data.get("engine") == "tactical"
        rep = from_data(
            e.data["report"],
            names=SIDE_NAMES,
            place=cmap.name(str(e.data.get("place", ""))),
            fought="the tactical engine" if tactical else "the battleboard",
        )
        b = Battle(n, i, e, rep, "tactical" if tactical else "battleboard")
        if tactical:
            _tactical(b, engine, seed)
        else:
            _board(b, engine)
        out.append(b)
    return out


def _board(b: Battle, engine: _Watch) -> None:
    from battleboard.rules import really_lost

    got = engine.boards.get(b.report.engagement.id)
    if got is None:  # its outcome came with the action: a battle a person fought in the window
        b.missing = WINDOW_FOUGHT
        return
    frames, told, final = got
    named = _namer(b.report)
    by_turn: dict[int, tuple[list[str], int]] = {}
    for turn, evs in told:
        said = [
            named(without_references(e.text)).rstrip(".")
            for e in evs
            if e.kind in _BOARD_KINDS or (e.kind == "leader" and e.data.get("fate") in _LEADER_LOSSES)
        ]
        if said:
            weight = sum(_BOARD_WEIGHT.get(e.kind, 1) for e in evs if e.kind in _BOARD_KINDS or e.kind == "leader")
            old = by_turn.get(turn, ([], 0))
            by_turn[turn] = (old[0] + said, old[1] + weight)
    lines: list[tuple[int, int, str]] = []
    for turn, (said, weight) in by_turn.items():
        frame = [f for f in frames if f.turn == turn and f.label != "start"][-1]
        standing = "; ".join(
            f"{b.report.side_name(s)} "
            f"{'have' if plural_name(b.report.side_name(s)) else 'has'} lost "
            f"{_lost(frame.state, s, b.report.engaged(s), really_lost)} of {b.report.engaged(s)} SP"
            for s in AB
        )
        lines.append((weight, turn, f"Turn {turn}: {_join(said)}; {standing}."))
    # the board at the end of each turn: the last picture of a turn stands for it
    last = {f.turn: f for f in frames if f.label != "start"}
    kept = [frames[0], *(f for f in frames[1:] if last.get(f.turn) is f)] if frames else []
    _keep(b, kept, lines, final_turn=final.turn)


def _lost(state: Any, side: str, engaged: int, really_lost: Any) -> int:
    """SP of ``side`` lost so far on a battleboard: what it brought less what still stands."""
    standing: int = sum(u.strength for u in state.units.values() if u.owner == side and not really_lost(u))
    return max(0, engaged - standing)


_BOARD_KINDS = frozenset({"eliminated", "sunk", "captured", "break_through", "panic", "break", "withdraw", "flight"})
_LEADER_LOSSES = frozenset({"killed", "captured", "drowned", "executed"})
_BOARD_WEIGHT = {"panic": 4, "break": 6, "withdraw": 6, "flight": 3, "leader": 5}


def _tactical(b: Battle, engine: _Watch, seed: int) -> None:
    """Fight a headless tactical battle again from the seed ``campaign.routes.settled`` gave it."""
    from campaign.conversion import fight_tactical, outcome_from_tactical, tactical_moments, tactical_names

    eng = b.report.engagement
    at = engine.tactical_at.get(eng.id)
    if at is None:
        b.missing = WINDOW_FOUGHT
        return
    frames: list[Frame] = []
    told: list[tuple[int, list[Event], Any, tuple[str, ...]]] = []
    all_events: list[Event] = []

    def watch(state: Any, happened: list[Event], activations: int) -> None:
        all_events.extend(happened)
        log = tuple(e.text for e in all_events[-LOG_LINES:])
        if not frames:
            frames.append(Frame("start", 0, state.copy(), log))
            return
        if any(e.kind in _TACTICAL_KINDS for e in happened):
            told.append((max(activations, 1), list(happened), state, log))

    sc_in, final, turns = fight_tactical(eng, Dice((seed * 7919 + at) % 2**63), watch=watch)
    if outcome_from_tactical(eng, final, turns=turns) != b.report.outcome:
        b.missing = WINDOW_FOUGHT
        return
    b.scenario = sc_in
    names = {"A": b.report.side_name("A"), "B": b.report.side_name("B")}
    label = tactical_names(eng, final)
    for cid, unit in final.units.items():
        label[cid] = f"{possessive(names[unit.side])} {label.get(cid, cid)}"
    named = namer(label)
    lines: list[tuple[int, int, str]] = []
    by_turn: dict[int, tuple[list[str], int, Any, tuple[str, ...]]] = {}
    for turn, evs, state, log in told:
        said = [
            named(name_sides(_possessive(without_references(e.text), names), names)).rstrip(".")
            for e in evs
            if e.kind in _TACTICAL_KINDS
        ]
        weight = sum(_TACTICAL_WEIGHT.get(e.kind, 1) for e in evs if e.kind in _TACTICAL_KINDS)
        old = by_turn.get(turn, ([], 0, state, log))
        by_turn[turn] = (old[0] + said, old[1] + weight, state, log)
    for turn, (said, weight, state, log) in by_turn.items():
        standing = "; ".join(
            f"{names[s]} {'are' if plural_name(names[s]) else 'is'} at {state.rout_points.get(s, 0)} of "
            f"{state.withdrawal.get(s, 0)} rout points"
            for s in AB
        )
        lines.append((weight, turn, f"Turn {turn}: {_join(said)}; {standing}."))
        frames.append(Frame(f"turn {turn}", turn, state, log))
    b.report = AfterAction(
        b.report.engagement,
        b.report.outcome,
        names=b.report.names,
        fought=b.report.fought,
        place=b.report.place,
        moments=tactical_moments(eng, final, all_events),
    )
    end = Frame("end", turns, final, tuple(e.text for e in all_events[-LOG_LINES:]))
    _keep(b, frames, lines, final_turn=turns, end=end)


_TACTICAL_KINDS = frozenset({"eliminated", "rout", "leader_lost", "rampage", "withdrawal"})
_TACTICAL_WEIGHT = {"leader_lost": 5, "withdrawal": 8, "rampage": 3, "eliminated": 2}


def _possessive(text: str, names: dict[str, str]) -> str:
    """The engine's "Side A's army" read with the side's name ("the Caesarians' army")."""

    def own(m: re.Match[str]) -> str:
        return possessive(names[m.group(1)])

    return re.sub(r"\b[Ss]ide ([AB])'s\b", own, text)


def _keep(
    b: Battle, frames: list[Frame], lines: list[tuple[int, int, str]], final_turn: int, end: Frame | None = None
) -> None:
    """The battle's turning points: the weightiest ``TURNING_LINES`` told in order, the
    weightiest ``TURNING_FRAMES`` pictured between the start and the end."""
    told = sorted(sorted(lines, key=lambda t: (-t[0], t[1]))[:TURNING_LINES], key=lambda t: t[1])
    b.turning = [t[2] for t in told]
    pictured = {t[1] for t in sorted(lines, key=lambda t: (-t[0], t[1]))[:TURNING_FRAMES]}
    start = frames[0] if frames else None
    last = end or (frames[-1] if frames else None)
    keep = [start] if start else []
    keep += [
        f for f in frames[1:] if f.turn in pictured and f is not last and f.label != "start" and f.turn != final_turn
    ]
    if last is not None and last is not start:
        keep.append(Frame("end", final_turn, last.state, last.log))
    seen: set[str] = set()
    b.frames = []
    for f in keep:
        if f.label not in seen:
            seen.add(f.label)
            b.frames.append(f)


def _namer(rep: AfterAction) -> Any:
    sides = {"A": rep.side_name("A"), "B": rep.side_name("B")}
    names = {u.id: f"{possessive(sides[u.side])} {u.name or u.id}" for u in rep.engagement.units}
    names.update({ld.id: ld.name for ld in rep.engagement.leaders if ld.name})
    by_id = namer(names)
    return lambda text: by_id(name_sides(text, sides))


def possessive(name: str) -> str:
    """ "the Caesarians" → "the Caesarians'", "Pompeius" → "Pompeius'", "Juba" → "Juba's"."""
    return name + ("'" if name.endswith("s") else "'s")


_GROUPED = re.compile(r"^(?P<owner>the [A-Z]\w+') (?P<unit>.+?) (?P<verb>routs|is eliminated|is sunk)$")
_PLURAL = {"routs": "rout", "is eliminated": "are eliminated", "is sunk": "are sunk"}


def _join(said: Sequence[str]) -> str:
    """A turn's happenings in one clause, a side's units that suffer alike told together
    ("the Caesarians' Legio XVII (3) and Legio XXII (1) rout"); at most five, the rest counted."""
    groups: dict[tuple[str, str], list[str]] = {}
    order: list[tuple[str, str] | str] = []
    for text in dict.fromkeys(said):
        m = _GROUPED.match(text)
        if m is None:
            order.append(text)
            continue
        key = (m["owner"], m["verb"])
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(m["unit"])
    parts = []
    for item in order:
        if isinstance(item, str):
            parts.append(item)
            continue
        units = groups[item]
        verb = item[1] if len(units) == 1 else _PLURAL[item[1]]
        parts.append(f"{item[0]} {_and(units)} {verb}")
    if len(parts) > 5:
        parts = [*parts[:5], f"{len(parts) - 5} more"]
    return _and(parts)


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# ------------------------------------------------------------------ the seasons


def season(s: CampaignState) -> str:
    """ "Spring 49 BC"; a winter runs from December into January: "Winter 49–48 BC"."""
    name, year = SEASONS.get(s.month(), s.month()), s.year_bc()
    if name != "Winter":
        return f"{name} {year} BC"
    first = year if s.month() == "December" else year + 1
    return f"Winter {first}–{first - 1} BC"


def _periods(events: list[Event], engine: _Watch, by: str) -> list[Period]:
    """The war in seasons (or years, ``by="year"``; ``auto``: seasons for a war of up to two
    years, years beyond), each with its marches, voyages and fights."""
    ends = engine.ends
    turns = sorted(ends)
    if by == "auto":
        by = "season" if turns and turns[-1] <= 16 else "year"

    def key(t: int) -> str:
        s = ends[t]
        return season(s) if by == "season" else f"{s.year_bc()} BC"

    periods: dict[str, Period] = {}
    for t in turns:
        k = key(t)
        p = periods.get(k)
        if p is None:
            periods[k] = Period(k, (t,), ends[t])
        else:
            p.turns = (*p.turns, t)
            p.state = ends[t]
    of_turn = {t: periods[key(t)] for t in turns}
    turn = turns[0] if turns else 0
    for e in events:
        if e.kind == "turn":
            turn = int(e.data.get("turn", turn))
            continue
        p = of_turn.get(turn)
        if p is None:
            continue
        side = e.data.get("side")
        place = str(e.data.get("place", ""))
        if e.kind in ("march", "sail") and isinstance(e.data.get("path"), list) and len(e.data["path"]) > 1:
            p.moves.append(Move(e.kind, str(side), tuple(e.data["path"]), turn))
        elif e.kind == "battle":
            p.sites.append(Site("battle", place, turn, _str(e.data.get("winner"))))
            p.caption.append(str(e.data.get("date", "")) + " — " + e.text)
        elif e.kind == "siege_begun":
            p.sites.append(Site("siege", place, turn, _str(side)))
            p.caption.append(str(e.data.get("date", "")) + " — " + e.text)
        elif e.kind == "storm":
            p.sites.append(Site("storm", place, turn, _str(side)))
        elif e.kind == "interception":
            p.sites.append(Site("interception", place, turn, None))
        elif _worth_telling(e):
            p.caption.append(str(e.data.get("date", "")) + " — " + e.text)
    return list(periods.values())


#: besides battles and sieges, what a map's caption tells
TOLD = frozenset({"dictator", "imperator", "victory", "succession_lost", "claim", "leader_killed", "executed"})


def _worth_telling(e: Event) -> bool:
    """A city taken (not a region walked into), a leader lost, a title won, the war's end."""
    if e.kind == "capture":
        return e.data.get("space_kind") != "region" and e.data.get("how") != "occupy"
    return e.kind in TOLD


def _str(v: object) -> str | None:
    return str(v) if v else None


def period_summary(p: Period, w: War) -> str:
    """A period's caption in one sentence: how many marches, voyages and fights."""
    marches = sum(1 for m in p.moves if m.kind == "march")
    voyages = sum(1 for m in p.moves if m.kind == "sail")
    kinds = {k: sum(1 for s in p.sites if s.kind == k) for k in ("battle", "siege", "storm", "interception")}
    words = {
        "battle": ("battle", "battles"),
        "siege": ("siege begun", "sieges begun"),
        "storm": ("storm", "storms"),
        "interception": ("interception", "interceptions"),
    }
    parts = [f"{marches} march{'es' if marches != 1 else ''}", f"{voyages} voyage{'s' if voyages != 1 else ''}"]
    parts += [f"{n} {words[k][n != 1]}" for k, n in kinds.items() if n]
    month = next((m for m in w.months if m.turn == p.turns[-1]), None)
    held = ""
    if month:
        held = f" At its end the Caesarians hold {month.cities['caesarian']} cities, "
        held += f"the Senatorials {month.cities['senatorial']}."
    return f"{p.title}: " + ", ".join(parts) + "." + held
