"""The battle-route contract (bellum.engagement.Route): each engine takes an ``Engagement``
and answers with an ``Outcome`` that accounts for every unit and every SP — the battleboard
(``battleboard.resolve.ROUTE``) and the tactical engine with the campaign's conversion
(``campaign.conversion.route``); the campaign's modes choose between them (campaign.md §12.8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from battleboard.resolve import ROUTE as BOARD
from bellum.dice import Dice
from bellum.engagement import STANDING, Engagement, Route
from bellum.errors import RuleError
from campaign.conversion import route as tactical_route
from campaign.routes import chosen

LAND = Engagement.model_validate(
    {
        "id": "e1",
        "where": "ariminum",
        "kind": "land",
        "active": "A",
        "sides": {"A": {"faction": "caesarian"}, "B": {"faction": "senatorial"}},
        "units": [
            {"id": "a", "side": "A", "kind": "legion", "discipline": "V", "strength": 5},
            {"id": "a2", "side": "A", "kind": "cavalry", "discipline": "V", "strength": 2},
            {"id": "b", "side": "B", "kind": "legion", "discipline": "R", "strength": 5},
            {"id": "b2", "side": "B", "kind": "auxiliary", "discipline": "R", "strength": 3},
        ],
    }
)


def routes() -> list[Route]:
    return [BOARD, tactical_route()]


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("which", [0, 1], ids=["battleboard", "tactical"])
def test_every_route_accounts_for_every_unit_and_every_sp(which: int, seed: int) -> None:
    """Strength is conserved through either engine: per side, the SP engaged are the SP still
    standing plus the SP lost, less what the winner rebuilt (reconstituted units stand again)."""
    way = routes()[which]
    out = way.resolve(LAND, Dice(seed))
    assert out.engine == way.engine and out.engagement == LAND.id
    assert sorted(f.id for f in out.units) == sorted(u.id for u in LAND.units)
    engaged = {u.id: u for u in LAND.units}
    for side in ("A", "B"):
        mine = [f for f in out.units if f.side == side]
        standing = sum(f.strength for f in mine if f.fate in STANDING)
        rebuilt = sum(f.strength for f in mine if f.fate == "reconstituted")
        assert all(f.strength <= engaged[f.id].strength for f in mine if f.fate in STANDING)
        assert sum(u.strength for u in LAND.units if u.side == side) == standing + out.strength_lost[side] - rebuilt


def test_the_tactical_route_refuses_what_it_does_not_fight_and_the_modes_choose() -> None:
    storm = LAND.model_copy(update={"trigger": "storm", "terrain": "city"})
    way = tactical_route()
    assert way.refusal(LAND) == "" and BOARD.refusal(storm) == ""
    with pytest.raises(RuleError, match="storm"):
        way.resolve(storm, Dice(1))
    assert chosen(LAND, "tactical").engine == "tactical"
    assert chosen(storm, "tactical").engine == "battleboard"
    assert chosen(LAND, "auto").engine == "battleboard"
    with pytest.raises(ValueError, match="not a way"):
        chosen(LAND, "dice")


def test_a_window_battle_begun_by_a_route_concludes_with_the_same_contract(tmp_path: Path) -> None:
    """``begin`` sets a battle up for a window; leaving it unfinished ends it the engine's way
    (the battleboard's AI fights on; the tactical map breaks off at nightfall: a draw)."""
    board = BOARD.begin(LAND, 5)
    assert not board.over()
    out, _moments = board.conclude()
    assert out.engine == "battleboard" and board.engine == "battleboard"
    field = tactical_route(folder=tmp_path).begin(LAND, 5)
    assert not field.over() and field.engine == "tactical"
    out, _moments = field.conclude()
    assert out.engine == "tactical" and out.winner is None
    assert sorted(f.id for f in out.units) == sorted(u.id for u in LAND.units)
