"""Baseline players the tactical AI is measured against (issue 5 §3; docs/AI.md).

``RandomPlayer`` picks uniformly among the legal actions.  ``GreedyPlayer`` takes the attack
with the best immediate odds — it designates the shock whose exact result odds
(``tactical.odds.shock_result_odds``) favour it most, as soon as one is offered, and resolves
the pending combat with the best odds — else fires, else moves the unit that ends nearest the
enemy, else designates the leader with the best Initiative.  As the defender
(docs/rules/tactical.md §8.13) it takes the immediate gain: reaction fire before a shock and
return fire after a hit and run, and no other reaction.  Both ask only the one
legal-action generator; chance comes from a ``bellum.dice.Dice`` of their own, never ``random``.
"""

from __future__ import annotations

from bellum.dice import Dice
from tactical.actions import Action, Activate, Continuity, Decline, Designate, Fire, Move, Pass, React, Resolve, Shock
from tactical.ai import distance_field
from tactical.legal import legal_actions
from tactical.odds import shock_result_odds
from tactical.state import State


class RandomPlayer:
    """Uniform over ``legal_actions``: two d10 pick one of 100 equal slices of the list."""

    def __init__(self, seed: int) -> None:
        self.dice = Dice(seed)

    def choose(self, state: State) -> Action:
        acts = legal_actions(state)
        k = self.dice.d10("ai") * 10 + self.dice.d10("ai")
        return acts[k * len(acts) // 100]


def shock_score(state: State, action: Shock | Designate) -> float:
    """The result-band reading of a shock's exact result odds (``shock_result_odds``): the share
    of results that hurt the defender minus the share that hurt the attackers (003 §8.3; for
    charts-v1, 002's rows from "2" up hurt the defender, those below "0/1" the attackers)."""
    shock = action.as_shock() if isinstance(action, Designate) else action
    total = 0.0
    for result, p in shock_result_odds(state, shock).items():
        r = str(result or "")
        if r.startswith("v1:"):
            label = r[3:]
            good = not label.startswith(("<", "-", "0/1"))
            bad = label.startswith(("<", "-"))
        elif result is None:
            good, bad = True, False  # a routed defender is cut down
        else:
            good = r.startswith("defender")
            bad = r.startswith("attacker")
        total += float(p) * ((1.0 if good else 0.0) - (1.0 if bad else 0.0))
    return total


class GreedyPlayer:
    """Best immediate odds, no look-ahead (docs/AI.md)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, state: State) -> Action:
        acts = legal_actions(state)
        if state.reacting is not None:
            shots = [a for a in acts if isinstance(a, React) and (a.return_fire or (a.fire and not a.reduce_hits))]
            return shots[0] if shots else Decline()
        attacks = [a for a in acts if isinstance(a, Designate | Shock)]
        if attacks:
            return max(attacks, key=lambda a: shock_score(state, a))
        resolve = next((a for a in acts if isinstance(a, Resolve)), None)
        if resolve is not None:
            return resolve
        fires = [a for a in acts if isinstance(a, Fire)]
        if fires:
            return fires[0]
        moves = [a for a in acts if isinstance(a, Move) and a.unit in state.units and a.carry is None]
        if moves:
            grid = state.field.grid
            side = state.seq.side
            near = distance_field(
                grid.nbr, grid.size, [h for u in state.units.values() if u.on_map and u.side != side for h in u.hexes()]
            )
            best = min(moves, key=lambda a: near[grid.index(_end(state, a))])
            if near[grid.index(_end(state, best))] < near[state.units[best.unit].hex]:
                return best
        designations = [a for a in acts if isinstance(a, Activate | Continuity) and a.leader]
        if designations:
            return max(designations, key=lambda a: state.leaders[a.leader or ""].initiative)
        if state.seq.phase == "activation":
            return next((a for a in acts if not isinstance(a, Pass)), acts[0])
        return next((a for a in acts if isinstance(a, Pass)), acts[0])


def _end(state: State, move: Move) -> str:
    hexes = [p for p in move.path if p[:1].isdigit()]
    return hexes[-1] if hexes else state.field.grid.hex_id(state.units[move.unit].hex)
