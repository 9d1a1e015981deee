"""Baseline players the tactical AI is measured against (docs/AI.md).

``RandomPlayer`` picks uniformly among the legal actions; ``GreedyPlayer`` takes the shock
with the best immediate odds (``tactical.odds.shock_result_odds``), else fires, else moves
the unit that ends nearest the enemy, else passes.  Both ask only the one legal-action
generator.  Chance comes from a ``bellum.dice.Dice`` of their own, never ``random``.
"""

from __future__ import annotations

from bellum.dice import Dice
from tactical.actions import Action, Continuity, Fire, Move, Pass, Shock
from tactical.legal import legal_actions
from tactical.odds import shock_result_odds
from tactical.state import State


class RandomPlayer:
    def __init__(self, seed: int) -> None:
        self.dice = Dice(seed)

    def choose(self, state: State) -> Action:
        acts = legal_actions(state)
        k = self.dice.d10("ai") * 10 + self.dice.d10("ai")
        return acts[k * len(acts) // 100]


def shock_score(state: State, action: Shock) -> float:
    """Expected advantage of a shock by its exact result odds (``shock_result_odds``): the
    share of results that hurt the defender minus those that hurt the attackers (003 §8.3);
    charts-v1 bands (002) are ordered, so their score is the share of bands from "2" up
    minus the share below "0/1"."""
    total = 0.0
    for result, p in shock_result_odds(state, action).items():
        r = str(result or "")
        if r.startswith("v1:"):
            label = r[3:]
            good = not label.startswith(("<", "-", "0/1"))
            bad = label.startswith(("<", "-"))
        else:
            good = r.startswith("defender")
            bad = r.startswith("attacker")
        total += float(p) * ((1.0 if good else 0.0) - (1.0 if bad else 0.0))
    return total


def nearest_enemy(state: State, side: str, hex_: int) -> int:
    grid = state.field.grid
    return min((grid.distance(hex_, e.hex) for e in state.units.values() if e.on_map and e.side != side), default=99)


class GreedyPlayer:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, state: State) -> Action:
        acts = legal_actions(state)
        side = state.seq.side
        shocks = [a for a in acts if isinstance(a, Shock)]
        if shocks:
            return max(shocks, key=lambda a: shock_score(state, a))
        fires = [a for a in acts if isinstance(a, Fire)]
        if fires:
            return fires[0]
        moves = [a for a in acts if isinstance(a, Move) and a.unit in state.units and a.carry is None]
        if moves:
            grid = state.field.grid
            best = min(moves, key=lambda a: nearest_enemy(state, side, grid.index(_end(state, a))))
            if nearest_enemy(state, side, grid.index(_end(state, best))) < nearest_enemy(
                state, side, state.units[best.unit].hex
            ):
                return best
        conts = [a for a in acts if isinstance(a, Continuity) and a.leader]
        if conts:
            return max(conts, key=lambda a: state.leaders[a.leader or ""].initiative)
        return (
            next((a for a in acts if not isinstance(a, Pass)), acts[0])
            if state.seq.phase == "activation"
            else next((a for a in acts if isinstance(a, Pass)), acts[0])
        )


def _end(state: State, move: Move) -> str:
    hexes = [p for p in move.path if p[:1].isdigit()]
    return hexes[-1] if hexes else state.field.grid.hex_id(state.units[move.unit].hex)
