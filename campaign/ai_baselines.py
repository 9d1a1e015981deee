"""Baseline players the campaign AI is measured against (docs/AI.md §The campaign AI
against baselines; issue 19 item 4).

``RandomPlayer`` picks uniformly among ``campaign.engine.legal_actions`` — every march,
voyage, roll, recruit and answer alike.  ``GreedyPlayer`` takes the best-looking thing each
time and looks no further:

- **stratagems**: Military until it holds two, then Political;
- **Res Publica**: its own party's table while it holds a Political stratagem;
- **recruiting**: a legion wherever one can be raised, else passes;
- **movement**: each force marches to the reachable place of most immediate worth — an
  enemy city (``campaign.ai.place_value``) it outnumbers there, or an enemy army it outnumbers
  — when that beats where it stands; else the phase ends;
- **combat**: every battle with every Military stratagem it may commit, every storm the table
  gives even odds;
- **answers**: intercepts, cuts, escorts and accepts battle whenever it may, commits all it
  can, takes its spoils as Military stratagems.

Both ask only the one legal-action generator; chance comes from a ``bellum.dice.Dice`` of
their own, never ``random``.  ``game`` plays one war (the AI one side, a baseline the
other, battles auto-resolved as headless play does); ``python -m campaign.ai_baselines``
prints the tables of docs/AI.md.  Measurement code, run on demand, never by the default
test run.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bellum.dice import Dice
from bellum.session import Session
from campaign import actions as A
from campaign.ai import CampaignAI, field_sp, place_value
from campaign.engine import CampaignEngine, legal_actions
from campaign.rules.siege import storm_chance
from campaign.state import SIDES, CampaignState, enemy

#: the answers a greedy player gives to every pending decision it may say yes to
_YES = (A.Intercept, A.CutSupply, A.Escort, A.Accept, A.Veto)


class Player(Protocol):
    def choose(self, state: CampaignState) -> A.Action: ...


class RandomPlayer:
    """Uniform over ``legal_actions``: two d10 pick one of 100 equal slices of the list."""

    def __init__(self, seed: int) -> None:
        self.dice = Dice(seed)

    def choose(self, state: CampaignState) -> A.Action:
        acts = legal_actions(state)
        k = self.dice.d10("baseline") * 10 + self.dice.d10("baseline")
        return acts[k * len(acts) // 100]


class GreedyPlayer:
    """The best-looking march, battle and roll each time (module docstring)."""

    def choose(self, state: CampaignState) -> A.Action:
        acts = legal_actions(state)
        side = state.actor
        if state.pending is not None:
            return self._answer(state, acts)
        if state.phase == "stratagems":
            want = "military" if state.stratagems[side]["military"] < 2 else "political"
            return _first(acts, lambda a: isinstance(a, A.Take) and a.kind == want) or _ending(acts)
        if state.phase == "res_publica":
            party = "populares" if side == SIDES[0] else "optimates"
            return _first(acts, lambda a: isinstance(a, A.Politics) and a.table == party) or _ending(acts)
        if state.phase == "recruiting":
            return _first(acts, lambda a: isinstance(a, A.Recruit) and a.kind == "legion") or _ending(acts)
        if state.phase == "movement":
            return self._march(state, acts) or _ending(acts)
        if state.phase == "combat":
            battles = [a for a in acts if isinstance(a, A.Battle)]
            if battles:
                return max(battles, key=lambda a: a.stratagems)
            storms = [
                a for a in acts if isinstance(a, A.Storm) and storm_chance(state, a.city, a.force, a.stratagem) >= 0.5
            ]
            return storms[0] if storms else _ending(acts)
        return acts[0]

    def _answer(self, state: CampaignState, acts: Sequence[A.Action]) -> A.Action:
        commits = [a for a in acts if isinstance(a, A.Commit)]
        if commits:
            return max(commits, key=lambda a: a.stratagems)
        take = _first(acts, lambda a: isinstance(a, A.Take) and a.kind == "military")
        return take or _first(acts, lambda a: isinstance(a, _YES)) or acts[-1]

    def _march(self, state: CampaignState, acts: Sequence[A.Action]) -> A.Action | None:
        side = state.active
        foe = enemy(side)

        def worth(force: str, place: str) -> float:
            f = state.forces[force]
            mine = field_sp(f)
            theirs = sum(field_sp(g) for g in state.side_forces_at(place, foe))
            if theirs and mine > theirs:
                return 10.0 + theirs
            if theirs:
                return -1.0
            owner = state.owner_side(place)
            return place_value(place) if owner is not None and owner != side and mine > 0 else 0.0

        best: tuple[float, A.Action] | None = None
        for a in acts:
            if isinstance(a, A.March | A.Sail) and a.force in state.forces:
                gain = worth(a.force, a.to) - worth(a.force, state.forces[a.force].location)
                if gain > 0 and (best is None or gain > best[0]):
                    best = (gain, a)
        return best[1] if best else None


def _first(acts: Sequence[A.Action], pred: object) -> A.Action | None:
    return next((a for a in acts if pred(a)), None)  # type: ignore[operator]


def _ending(acts: Sequence[A.Action]) -> A.Action:
    """Pass or end the phase (the generator always offers one of them outside decisions)."""
    return _first(acts, lambda a: isinstance(a, A.Pass | A.EndPhase | A.Supply)) or acts[-1]


@dataclass(frozen=True)
class Game:
    seed: int
    ai_side: str
    baseline: str
    winner: str
    how: str
    turns: int
    actions: int


def game(seed: int, ai_side: str, baseline: str, turns: int = 40, scenario: str = "49bc") -> Game:
    """One war: ``CampaignAI`` plays ``ai_side``, a ``baseline`` player ("random" or
    "greedy") the other; battles auto-resolved on the battleboard (headless play)."""
    session = Session(CampaignEngine(), scenario, seed)
    ai = CampaignAI()
    other: Player = RandomPlayer(seed * 7919 + 17) if baseline == "random" else GreedyPlayer()
    end = session.state.turn + turns
    start = session.state.turn
    while session.state.turn < end and not session.state.result:
        s = session.state
        player: Player = ai if s.actor == ai_side else other
        session.play(player.choose(s))
    res = session.state.result
    return Game(
        seed=seed,
        ai_side=ai_side,
        baseline=baseline,
        winner=res.get("winner", "") if res else "",
        how=res.get("how", "undecided") if res else "undecided",
        turns=session.state.turn - start,
        actions=len(session.actions),
    )


def _one(args: tuple[int, str, str, int]) -> Game:
    return game(*args)


def match(seeds: Sequence[int], baseline: str, turns: int = 40, jobs: int = 2) -> list[Game]:
    """The AI against ``baseline`` on each seed, once from each side."""
    tasks = [(seed, side, baseline, turns) for side in SIDES for seed in seeds]
    if jobs <= 1:
        return [_one(t) for t in tasks]
    from multiprocessing import get_context

    with get_context("fork").Pool(jobs) as pool:
        return pool.map(_one, tasks)


def table(games: Sequence[Game]) -> str:
    """The docs/AI.md rows: wins, losses and undecided wars by the AI's side."""
    lines = [
        "| AI side | games | AI wins | baseline wins | no winner | AI share of decided |",
        "|---|---|---|---|---|---|",
    ]
    total = [0, 0, 0, 0]
    for side in SIDES:
        mine = [g for g in games if g.ai_side == side]
        won = sum(1 for g in mine if g.winner == side)
        lost = sum(1 for g in mine if g.winner and g.winner != side)
        none = len(mine) - won - lost
        share = f"{won / (won + lost):.0%}" if won + lost else "—"
        lines.append(f"| {side} | {len(mine)} | {won} | {lost} | {none} | {share} |")
        total = [total[0] + len(mine), total[1] + won, total[2] + lost, total[3] + none]
    share = f"{total[1] / (total[1] + total[2]):.0%}" if total[1] + total[2] else "—"
    lines.append(f"| both | {total[0]} | {total[1]} | {total[2]} | {total[3]} | **{share}** |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m campaign.ai_baselines", description=__doc__.split("\n\n")[0])
    p.add_argument("--seeds", type=int, default=20, help="seeds 1..N for each side (default 20)")
    p.add_argument("--turns", type=int, default=40)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--against", choices=("random", "greedy"), action="append")
    args = p.parse_args(argv)
    for baseline in args.against or ["random", "greedy"]:
        t0 = time.perf_counter()
        games = match(range(1, args.seeds + 1), baseline, args.turns, args.jobs)
        print(f"\nThe campaign AI against the {baseline} player, seeds 1–{args.seeds}, {args.turns} turns:\n")
        print(table(games))
        hows: dict[str, int] = {}
        for g in games:
            hows[g.how] = hows.get(g.how, 0) + 1
        ended = ", ".join(f"{k} {v}" for k, v in sorted(hows.items()))
        print(f"\nHow the wars ended: {ended}; {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
