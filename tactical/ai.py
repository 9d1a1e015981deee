"""The tactical AI (issue 5 §3): one ``choose(state)`` per decision, asking only the legal-action
generator, with the exact odds of ``tactical.odds`` for shocks.

- Leaders are chosen by their Continuity odds ((Initiative + 1) / 10, 003 §3.2) times the
  number of their units within reach of the enemy.
- Mandatory rallies first (003 §10.27); then shocks whose exact result odds favour the
  attacker (an engaged unit attacks anyway, 003 §7.3: the best of its options).
- Missile troops fire when a target is in range (003 §8.1), and otherwise move toward it.
- Moves close on the enemy while keeping the line: an end hex scores for nearing the enemy,
  for friendly units beside it (a covered flank) and against being alone in front.
"""

from __future__ import annotations

from tactical.actions import Action, Activate, Continuity, Fire, Move, Pass, Rally, Shock
from tactical.ai_baselines import nearest_enemy, shock_score
from tactical.legal import legal_actions
from tactical.state import State


class TacticalAI:
    def __init__(self, seed: int = 0, aggression: float = -0.35) -> None:
        self.seed = seed
        #: the least shock score the AI accepts for a voluntary shock
        self.aggression = aggression

    def choose(self, state: State) -> Action:
        acts = legal_actions(state)
        phase = state.seq.phase
        if phase in ("activation", "continuity"):
            return self._designate(state, acts)
        rallies = [a for a in acts if isinstance(a, Rally)]
        if rallies:
            return rallies[0]
        shocks = [a for a in acts if isinstance(a, Shock) and not a.pursue]
        forced = not any(isinstance(a, Pass) for a in acts)
        if shocks:
            best = max(shocks, key=lambda a: (shock_score(state, a), len(a.attackers)))
            if forced or shock_score(state, best) > self.aggression:
                return best
        fires = [a for a in acts if isinstance(a, Fire) and not a.hit_and_run]
        if fires:
            return max(fires, key=lambda a: state.units[a.target].tq - state.units[a.target].missile_hits)
        moves = [a for a in acts if isinstance(a, Move) and a.unit in state.units and a.carry is None]
        best_move, best_gain = None, 0.0
        for m in moves:
            gain = self._move_gain(state, m)
            if gain > best_gain:
                best_move, best_gain = m, gain
        if best_move is not None:
            return best_move
        return next(a for a in acts if isinstance(a, Pass)) if not forced else acts[0]

    def _designate(self, state: State, acts: list[Action]) -> Action:
        side = state.seq.side
        grid = state.field.grid

        def value(a: Action) -> float:
            if isinstance(a, Pass):
                return 0.0
            lid = a.leader if isinstance(a, Activate | Continuity) else None
            if lid is None:
                return 0.05 if isinstance(a, Activate) else 0.01
            ld = state.leaders[lid]
            units = [
                u
                for u in state.units.values()
                if u.side == side and u.on_map and grid.distance(u.hex, ld.hex) <= ld.range
            ]
            useful = sum(1 for u in units if u.status != "full" or nearest_enemy(state, side, u.hex) <= 12)
            odds = 1.0 if isinstance(a, Activate) else (ld.initiative + 1) / 10
            return odds * (useful + 0.5)

        return max(acts, key=value)

    def _move_gain(self, state: State, move: Move) -> float:
        unit = state.units[move.unit]
        side = unit.side
        grid = state.field.grid
        hexes = [p for p in move.path if p[:1].isdigit()]
        end = grid.index(hexes[-1]) if hexes else unit.hex
        before = nearest_enemy(state, side, unit.hex)
        after = nearest_enemy(state, side, end)
        if unit.status == "disordered" or (unit.missile is not None and unit.skirmisher and after < 2):
            return 0.0
        friends = sum(
            1
            for u in state.units.values()
            if u.side == side and u.on_map and u.id != unit.id and grid.distance(u.hex, end) == 1
        )
        gain = (before - after) + 0.3 * friends - (1.0 if friends == 0 and after <= 2 else 0.0)
        return gain
