"""The campaign state and the sequence of play (docs/rules/campaign.md §7), and the
helpers the other operations tests share."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from bellum.dice import Dice
from bellum.engagement import Engagement, LeaderFate, Outcome, Promotion, Side, UnitFate
from bellum.errors import RuleError
from campaign import actions as A
from campaign.engine import CampaignEngine, legal_actions, load
from campaign.state import SIDE_PHASES, CampaignState, encode_state, initial_state
from campaign.tables import tables
from campaign.units import Force, Unit

ENGINE = CampaignEngine()


# --------------------------------------------------------------------------- helpers


def fresh(phase: str = "movement", side: str = "caesarian", keep: Iterable[str] | None = None) -> CampaignState:
    """The 49 BC state put in ``phase`` of ``side``; with ``keep`` only those forces (and
    every civis) remain, so a test sees only what it sets up."""
    s = initial_state(load("49bc"))
    s.phase, s.active = phase, side
    s.turn = 2  # April 49 BC: a campaign turn
    if keep is not None:
        wanted = set(keep)
        s.forces = {k: f for k, f in s.forces.items() if k in wanted or all(u.kind == "civis" for u in f.units)}
    return s


def put(s: CampaignState, fid: str, place: str) -> None:
    s.forces[fid] = s.forces[fid].model_copy(update={"location": place})


def army(fid: str, side: str, place: str, units: list[tuple[str, str, int]], leaders: tuple[str, ...] = ()) -> Force:
    """A force from (kind, discipline, strength) triples; unit ids are ``<fid>_<n>``."""
    return Force(
        id=fid,
        side=side,
        location=place,
        commander=leaders[0] if leaders else None,
        leaders=leaders,
        units=tuple(
            Unit(id=f"{fid}_{i}", kind=k, discipline=d, strength=sp, nation="roman")  # type: ignore[arg-type]
            for i, (k, d, sp) in enumerate(units)
        ),
    )


def outcome_for(
    eng: Engagement,
    winner: Side | None,
    lose: Iterable[str] = (),
    flip: Iterable[str] = (),
    promote: dict[str, str] | None = None,
    killed: Iterable[str] = (),
    captured: Iterable[str] = (),
    retreats: bool = True,
) -> Outcome:
    """A battle result made by hand, for tests of how the campaign applies it."""
    lose, flip, killed, captured = set(lose), set(flip), set(killed), set(captured)
    promote = promote or {}
    heavy = {"A": 0, "B": 0}
    for u in eng.units:
        if u.id in lose and u.strength == 5 and u.kind == "legion":
            heavy[u.side] += 1
    return Outcome(
        engagement=eng.id,
        winner=winner,
        reason="test",
        turns=1,
        units=[
            UnitFate(
                id=u.id,
                side=u.side,
                fate="eliminated" if u.id in lose else "survived",
                strength=u.strength,
                discipline=promote.get(u.id, u.discipline),  # type: ignore[arg-type]
                flipped=u.id in flip,
            )
            for u in eng.units
        ],
        leaders=[
            LeaderFate(
                id=ld.id,
                side=ld.side,
                fate="killed" if ld.id in killed else "captured" if ld.id in captured else "survived",
            )
            for ld in eng.leaders
        ],
        strength_lost={s: sum(u.strength for u in eng.units if u.side == s and u.id in lose) for s in ("A", "B")},
        promotions=[
            Promotion(id=i, side=next(u.side for u in eng.units if u.id == i), before="R", after=d)  # type: ignore[arg-type]
            for i, d in promote.items()
        ],
        loser_retreats=retreats and winner is not None,
        supply_passes=(winner == "A") if eng.trigger == "supply" else None,
        movement_continues=(winner == "A") if eng.trigger == "interception" else None,
        heavy_infantry_killed=heavy,
        fratricide=5 * (heavy["A"] + heavy["B"]),
    )


def recording(winner: Side, seen: list[Engagement], retreats: bool = True) -> CampaignEngine:
    """An engine whose battles are settled by hand: each engagement is recorded in ``seen``
    and ``winner`` takes it (``outcome_for``)."""

    def resolve(eng: Engagement, dice: Dice) -> Outcome:
        seen.append(eng)
        return outcome_for(eng, winner, retreats=retreats)

    return CampaignEngine(resolver=resolve)


def play(s: CampaignState, action: A.Action, dice: Dice | None = None, engine: CampaignEngine = ENGINE) -> tuple:
    return engine.apply(s, action, dice or Dice(1))


# --------------------------------------------------------------------------- the tests


def test_the_war_opens_in_january_49_with_the_events_slot_and_caesar_first() -> None:
    """campaign.md §7.1–§7.2: January 49 BC, the events slot, then the Caesarians."""
    s = initial_state(load("49bc"))
    assert (s.date(), s.phase, s.active) == ("January 49 BC", "events", "caesarian")
    assert s.winter()
    assert legal_actions(s) == [A.Pass()]


def test_a_turn_runs_every_phase_of_both_sides_in_order() -> None:
    """campaign.md §7.2 (reference: events, then each side stratagems → Res Publica →
    recruiting → movement → combat → supply, Caesar first)."""
    s = initial_state(load("49bc"))
    s.forces = {k: f for k, f in s.forces.items() if all(u.kind == "civis" for u in f.units)}
    seen = []
    dice = Dice(3)
    while s.turn == 0:
        seen.append((s.phase, s.active))
        s, _ = ENGINE.apply(s, legal_actions(s)[-1], dice)
    expected = [("events", "caesarian")]
    for side in ("caesarian", "senatorial"):
        expected += [(p, side) for p in SIDE_PHASES]
    assert seen == expected
    assert s.date() == "March 49 BC"


def test_a_year_is_six_campaign_turns_and_two_winter_turns() -> None:
    """campaign.md §7.1; reference: a year is 6 campaign turns plus 2 winter turns."""
    turns = tables().calendar.turns
    assert len(turns) == 8
    assert sum(t.winter for t in turns) == 2
    s = initial_state(load("49bc"))
    s.turn = 8
    assert s.date() == "January 48 BC"


def test_issue_8_phases_are_passed_explicitly_and_cannot_be_skipped_elsewhere() -> None:
    """campaign.md §7.2: the stratagems, Res Publica and recruiting phases are passed
    with a Pass action; movement cannot be passed, it is ended."""
    s = fresh("stratagems")
    s2, ev = play(s, A.Pass())
    assert s2.phase == "res_publica" and ev[0].kind == "pass"
    with pytest.raises(RuleError):
        play(fresh("movement"), A.Pass())


def test_a_civis_stands_in_a_garrison_of_its_own() -> None:
    """campaign.md §7.5: a force's civis is split off at the start so armies can move."""
    s = initial_state(load("49bc"))
    cato = s.forces["cato"]
    assert all(u.kind != "civis" for u in cato.units)
    assert s.forces["cato_civis"].location == "syracusa"


def test_an_illegal_action_leaves_the_state_untouched() -> None:
    """campaign.md §7.3: an illegal action raises RuleError and changes nothing."""
    s = fresh("movement")
    before = encode_state(s)
    with pytest.raises(RuleError):
        play(s, A.March("caesar", "roma", ("ravenna", "roma")))
    assert encode_state(s) == before


def test_actions_are_written_and_read_back() -> None:
    """campaign.md §7.3: every action has a written form."""
    for a in (
        A.Pass(),
        A.March("caesar", "ariminum", ("ravenna", "ariminum"), True),
        A.Sail("cato", "utica", ("syracusa", "mare_siculum", "utica")),
        A.Battle("ilerda", 1),
        A.Commit(0),
        A.Storm("massilia", "trebonius", False),
    ):
        assert A.decode(A.encode(a)) == a
    with pytest.raises(ValueError):
        A.decode({"type": "march", "force": 3})
