"""The map's names placed by priority without overlap (campaign.view.labels) and the
counters' symbols (campaign.view.stacks): pure, no window."""

from __future__ import annotations

import itertools

from bellum.session import Session
from campaign.engine import CampaignEngine
from campaign.units import Force, Unit
from campaign.view.labels import Wish, beside, overlaps, place
from campaign.view.stacks import SYMBOLS, card, force_markers, symbol_of


def test_a_label_moves_to_a_free_side_before_it_is_hidden() -> None:
    a = Wish(0, 10, beside(0, 0, 60, 12, 6))  # its right side is under a counter: it goes left
    b = Wish(1, 20, beside(40, 0, 60, 12, 6))  # its right side is free
    c = Wish(2, 30, beside(0, 0, 60, 12, 6))  # every side of c's place is taken: hidden
    placed = place([c, b, a], obstacles=[(10, -3, 20, 3)])
    assert placed == {0: a.boxes[1], 1: b.boxes[0], 2: None}
    boxes = [bx for bx in placed.values() if bx is not None]
    assert not any(overlaps(p, q) for p, q in itertools.combinations(boxes, 2))


def test_lower_priority_is_placed_second_and_must_labels_always_show() -> None:
    box = (0.0, 0.0, 50.0, 10.0)
    placed = place([Wish(0, 40, [box]), Wish(1, 10, [box]), Wish(2, 0, [box], must=True)])
    assert placed[2] == box and placed[1] is None and placed[0] is None


def test_every_force_of_the_scenario_has_a_symbol_and_a_card() -> None:
    state = Session(CampaignEngine(), "49bc", 1).state
    marks = force_markers(state)
    assert marks and all(m.symbol in SYMBOLS for m in marks)
    kinds = {m.symbol for m in marks}
    assert {"legion", "fleet", "garrison", "client"} <= kinds
    caesar = next(m for m in marks if m.id == "caesar")
    assert caesar.symbol == "legion" and caesar.leader and caesar.card[0].startswith("Caesar")
    assert any("Legion" in ln for ln in caesar.card) and any(ln.startswith("Leaders: Caesar") for ln in caesar.card)


def test_symbols_from_what_a_force_is_made_of() -> None:
    def force(side: str, *kinds: str, leaders: tuple[str, ...] = ()) -> Force:
        units = tuple(
            Unit(
                id=f"u{i}",
                kind=k,
                strength=2,
                discipline="B" if k == "numidian_cavalry" else "R",
                nation="numidia" if k == "numidian_cavalry" else "roman",
            )
            for i, k in enumerate(kinds)
        )
        return Force(id="f", side=side, location="roma", units=units, leaders=leaders)

    assert symbol_of(force("caesarian", "legion", "cavalry")) == "legion"
    assert symbol_of(force("caesarian", "cavalry", "cavalry", "auxiliary")) == "cavalry"
    assert symbol_of(force("caesarian", "auxiliary")) == "auxilia"
    assert symbol_of(force("caesarian", "fleet", "fleet")) == "fleet"
    assert symbol_of(force("caesarian", "civis")) == "garrison"
    assert symbol_of(force("numidia", "numidian_cavalry")) == "client"
    assert symbol_of(force("caesarian")) == "leader"
    state = Session(CampaignEngine(), "49bc", 1).state
    assert card(state, force("caesarian", "legion", "legion"))[-1] == "2 Legion (4 SP)"
