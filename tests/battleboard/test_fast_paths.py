"""The battleboard's fast paths (issue 20 item 2) give what the plain rules give: each shortcut
is checked against the definition it stands for, on positions reached by real battles on land
and at sea (the AI's play itself is pinned by ``test_ai_identity``)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battleboard.actions import Attack
from battleboard.ai import _threat, play_turn, unit_value
from battleboard.apply import _fleets_held_by_side, _land_tally
from battleboard.model import Action, Board, State, Unit
from battleboard.odds import Outcome, canonical, expectations, result_counts, setup_distribution
from battleboard.position import SHARED_LEADER_FIELDS, SHARED_UNIT_FIELDS, BattleIn, LeaderIn, Position, UnitIn
from battleboard.position import build_state as build_position
from battleboard.queries import (
    active_ground,
    can_leave,
    fire_targets,
    fleets_held,
    land_lost,
    may_leave,
    nearest_distances,
    present,
    really_lost,
    sp_lost,
    victory_lost,
)
from battleboard.resolve import odds, resolve_engagement, set_up, state_from_engagement
from battleboard.rules import (
    Chance,
    MissingResultError,
    Setup,
    attack_setup,
    first_setup_action,
    legal_actions,
    resolve_setup,
)
from battleboard.tables import tables
from bellum.dice import Dice
from bellum.engagement import Engagement
from tests.battleboard.helpers import land_engagement, naval_engagement

ENGAGEMENTS = [
    land_engagement(12, "field"),
    land_engagement(8, "river"),
    naval_engagement(9, "mutual"),
    naval_engagement(6, "interception"),
]


def _positions(eng: Engagement, seeds: range) -> Iterator[State]:
    """Every position between two player turns of AI-vs-AI battles of ``eng``."""
    start = state_from_engagement(eng)
    for seed in seeds:
        s = start.clone()
        chance = Chance(Dice(seed, record=False))
        while s.phase != "over":
            yield s
            play_turn(s, chance)
        yield s


@pytest.mark.parametrize("eng", ENGAGEMENTS, ids=lambda e: e.id)
def test_tallies_agree_with_their_definitions(eng: Engagement) -> None:
    for s in _positions(eng, range(1, 6)):
        for side in ("A", "B"):
            owned = [u for u in s.units.values() if u.owner == side]
            assert sp_lost(s, side) == sum(u.strength for u in owned if victory_lost(u))
            assert sp_lost(s, side, for_victory=False) == sum(u.strength for u in owned if really_lost(u))
        if s.naval:
            assert _fleets_held_by_side(s) == {side: fleets_held(s, side) for side in ("A", "B")}
        else:
            lost, here = _land_tally(s)
            assert lost == {side: land_lost(s, side) for side in ("A", "B")}
            assert here == {side: present(s, side) for side in ("A", "B")}


@pytest.mark.parametrize("eng", ENGAGEMENTS, ids=lambda e: e.id)
def test_can_leave_is_may_leave_without_the_reason(eng: Engagement) -> None:
    for s in _positions(eng, range(1, 6)):
        for u in s.units.values():
            assert can_leave(s, u) == (may_leave(s, u) is None), (u.id, u.square, s.panicked)


def _by_position(eng: Engagement) -> State:
    """The battle built the slow way: every unit validated again as the position's model."""
    pos = Position(
        battle=BattleIn(
            kind=eng.kind,
            terrain=eng.terrain,
            trigger=eng.trigger,
            superior=eng.tactical_superiority(),
            active=eng.active,
            stratagems={s: eng.sides[s].battle_stratagems for s in ("A", "B")},
        ),
        units=[UnitIn(**u.model_dump(include=SHARED_UNIT_FIELDS)) for u in eng.units],
        leaders=[LeaderIn(**ld.model_dump(include=SHARED_LEADER_FIELDS)) for ld in eng.leaders],
    )
    return build_position(pos, f"engagement {eng.id}", list(eng.options))


@pytest.mark.parametrize("eng", ENGAGEMENTS, ids=lambda e: e.id)
def test_an_engagement_builds_the_battle_its_position_would(eng: Engagement) -> None:
    fast, slow = state_from_engagement(eng), _by_position(eng)
    assert fast.cfg == slow.cfg
    assert list(fast.units.items()) == list(slow.units.items())
    assert list(fast.leaders.items()) == list(slow.leaders.items())
    for field in ("grid", "side", "phase", "turn", "superior", "active_side", "original_fleets", "original_sp"):
        assert getattr(fast, field) == getattr(slow, field), field
    assert fast.stratagems == slow.stratagems and fast.panicked == slow.panicked


@settings(max_examples=200, deadline=None)
@given(columns=st.integers(3, 26), rows=st.integers(4, 30), data=st.data())
def test_nearest_distances_are_the_least_manhattan_steps(columns: int, rows: int, data: st.DataObject) -> None:
    board = Board.build("t", "land", columns, rows, 1, {}, "open")
    n = columns * rows
    squares = data.draw(st.lists(st.integers(0, n - 1), max_size=12))
    want = [
        min((abs(q // columns - e // columns) + abs(q % columns - e % columns) for e in squares), default=99)
        for q in range(n)
    ]
    assert nearest_distances(board, squares) == want


def _by_missing_results(setup: Setup) -> tuple[tuple[Outcome, Fraction], ...]:
    """The exact distribution as it was enumerated before: the resolver run again from the start
    for every prefix of forced results, each missing one raising ``MissingResultError``."""
    combat = tables().combat
    uids = ("attacker", *(f"defender{i}" for i in range(len(setup.defs))))
    found: list[tuple[Outcome, int, int]] = []
    stack: list[tuple[tuple[str, ...], int]] = [((), 1)]
    while stack:
        prefix, faces = stack.pop()
        try:
            att, defs, _, _ = resolve_setup(combat, setup, uids, Chance(Dice.forced([]), prefix))
        except MissingResultError as need:
            stack.extend(((*prefix, r), faces * c) for r, c in result_counts(need.row, need.low, need.mod))
            continue
        found.append(((att.flipped, att.dead, tuple((d.flipped, d.dead) for d in defs)), faces, len(prefix)))
    depth = max(n for _, _, n in found)
    sums: dict[Outcome, int] = {}
    for out, faces, n in found:
        sums[out] = sums.get(out, 0) + faces * 10 ** (depth - n)
    return tuple(sorted(((o, Fraction(v, 10**depth)) for o, v in sums.items()), key=lambda kv: -kv[1]))


FIGHTER = st.tuples(st.integers(-4, 4), st.booleans(), st.booleans())


#: any set-up of an attack: its mode, rolls, attacker and one to three defenders, a firer's modifier
SETUPS = st.builds(
    lambda mode, rolls, att, defs, firer: Setup(mode, rolls, att, tuple(defs), firer),
    mode=st.sampled_from(["phalanx", "wedge", "quincunx", "testudo", "fire", "ram"]),
    rolls=st.integers(1, 5),
    att=FIGHTER,
    defs=st.lists(FIGHTER, min_size=1, max_size=3),
    firer=st.one_of(st.none(), st.integers(-3, 3)),
)


@settings(max_examples=60, deadline=None)
@given(setup=SETUPS)
def test_the_odds_enumerate_the_outcomes_as_before_in_the_same_order(setup: Setup) -> None:
    assert setup_distribution(setup) == _by_missing_results(setup)


@settings(max_examples=60, deadline=None)
@given(setup=SETUPS)
def test_a_canonical_set_up_has_the_same_outcomes_in_the_same_order(setup: Setup) -> None:
    same = canonical(setup)
    assert same.att[0] == 0 and same.rolls == setup.rolls and same.firer_mod == setup.firer_mod
    assert _by_missing_results(same) == _by_missing_results(setup)


def test_the_set_up_phases_first_plan_is_the_generators_first() -> None:
    engagements = [*ENGAGEMENTS, naval_engagement(12, "mutual"), land_engagement(12, "hills")]
    met = 0
    for eng in engagements:
        for s in _positions(eng, range(1, 3)):
            if s.phase in ("allocate", "deploy"):
                assert first_setup_action(s) == legal_actions(s)[0]
                met += 1
    assert met >= 2 * len(engagements)


def _threat_by_actions(s: State, e: Unit) -> float:
    """A ship's threat as the AI first wrote it: its attacks built as actions, each set up by
    ``attack_setup``, the best taking in the order listed."""
    sq = e.square
    if sq is None or e.status != "active":
        return 0.0
    g = active_ground(s, e)
    boards = g is not None and s.cfg.tables.units.kinds[g.kind].rolls > 0
    acts: list[Action] = []
    for n in s.cfg.board.neighbors[sq]:
        tid = s.grid.get(n)
        if tid is None or s.units[tid].side == e.side:
            continue
        acts.append(Attack(e.id, tid, "ram"))
        if boards and g is not None:
            acts.append(Attack(g.id, tid, "phalanx", True))
    for q in fire_targets(s, sq, e.side):
        if active_ground(s, s.units[s.grid[q]]) is not None:
            acts.append(Attack(e.id, s.grid[q], "fire"))
    best = 0.0
    for a in acts:
        setup, uids = attack_setup(s, a)
        lost = 0.0
        for uid, (dead, _) in zip(uids[1:], expectations(setup)[2], strict=True):
            if dead:
                lost += dead * unit_value(s, s.units[uid])
        best = max(best, lost)
    return best


@pytest.mark.parametrize("eng", [e for e in ENGAGEMENTS if e.kind == "naval"], ids=lambda e: e.id)
def test_a_ships_threat_is_as_its_attacks_built_as_actions_give_it(eng: Engagement) -> None:
    checked = 0
    for s in _positions(eng, range(1, 6)):
        for u in s.units.values():
            assert _threat(s, u) == _threat_by_actions(s, u)
            checked += u.square is not None
    assert checked > 100


def _same_state(a: State, b: State) -> None:
    """Every field of two states equal (units and leaders in the same order), caches aside."""
    assert list(a.units.items()) == list(b.units.items())
    assert list(a.leaders.items()) == list(b.leaders.items())
    for name in State.__slots__:
        if name not in ("units", "leaders", "adj_cache"):
            assert getattr(a, name) == getattr(b, name), name


@pytest.mark.parametrize("eng", [*ENGAGEMENTS, land_engagement(6, "city")], ids=lambda e: e.id)
def test_the_kept_set_up_is_the_one_autoplay_plays_and_no_battle_changes_it(eng: Engagement) -> None:
    played = state_from_engagement(eng)
    chance = Chance(Dice(5))
    steps = 0
    while played.phase in ("allocate", "deploy"):
        play_turn(played, chance)
        steps += 1
    assert not chance.dice.rolls and steps >= 2
    kept, kept_steps = set_up(eng)
    _same_state(kept, played)
    assert kept_steps == steps
    for seed in range(3):
        resolve_engagement(eng, seed)
        odds(eng, 2, seed)
    assert set_up(eng)[0] is kept  # kept, and no battle fought from it changed it
    _same_state(kept, played)


def test_a_set_up_that_would_roll_a_die_is_played_anew_for_every_battle(monkeypatch: pytest.MonkeyPatch) -> None:
    eng = land_engagement(4, "field")

    def rolling(s: State, chance: Chance, ev: object = None, rollouts: int | None = None) -> None:
        chance.dice.d10("a roll in the set-up")
        play_turn(s, chance)

    monkeypatch.setattr("battleboard.resolve.play_turn", rolling)
    monkeypatch.setattr("battleboard.resolve._SET_UPS", {})
    s, steps = set_up(eng)
    assert steps == 0 and s.phase == "deploy"
    assert set_up(eng)[0] is not s


def test_an_engagement_changed_in_place_is_set_up_anew() -> None:
    eng = land_engagement(4, "field")
    kept, _ = set_up(eng)
    eng.units[0].strength -= 1
    eng.leaders[0].name = "Divus Iulius"
    changed, _ = set_up(eng)
    assert changed is not kept
    assert changed.units["A1"].strength == kept.units["A1"].strength - 1
    assert changed.leaders["Caesar"].name == "Divus Iulius"
    eng.sides["B"].battle_stratagems += 1
    assert set_up(eng)[0].stratagems["B"] == changed.stratagems["B"] + 1
