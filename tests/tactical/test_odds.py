"""Exact odds come from the real resolver; the fast result preview equals its marginal."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tactical.combat import Shock
from tactical.odds import result_marginal, shock_odds, shock_odds_full, shock_result_odds
from tests.tactical.helpers import position, unit


def _duel(att: dict, dfn: dict, **kw):  # type: ignore[no-untyped-def]
    return position([att, dfn], rules="sgboh", sequence={"side": "A", "phase": "shock"}, **kw)


def test_odds_sum_to_one_and_match_the_table() -> None:
    st_ = _duel(unit("A1", "A", "1009", tq=7), unit("B1", "B", "1008", facing=6, utype="LI", ma=7, size=4, tq=5))
    odds = shock_odds(st_, Shock(("A1",), "B1"))
    assert sum(odds.values()) == 1
    marg = result_marginal(odds)
    # DRM +7 (size +1, TQ +2, HI v LI +3, moving +1): faces 0-2 -> 7..9, 3-9 -> 10+
    assert marg == {
        "defender_disordered": Fraction(1, 10),
        "defender_disordered_retreats": Fraction(2, 10),
        "defender_routs": Fraction(7, 10),
    }
    assert shock_result_odds(st_, Shock(("A1",), "B1")) == marg


def test_leader_casualty_rolls_are_in_the_odds() -> None:
    st_ = position(
        [unit("A1", "A", "1009"), unit("B1", "B", "1008", facing=6)],
        leaders=[{"id": "LA", "side": "A", "hex": "1009", "initiative": 5, "range": 3}],
        rules="sgboh",
        sequence={"side": "A", "phase": "shock", "leader": "LA"},
    )
    odds = shock_odds(st_, Shock(("A1",), "B1"))
    dead = sum(p for o, p in odds.items() if "LA" in o[3])
    assert dead == Fraction(1, 10)  # one roll, a 0 kills (003 §8.3)


def test_pursuit_follow_on_rolls_are_in_the_odds() -> None:
    st_ = _duel(
        unit("A1", "A", "1009", utype="HC", ma=8, tq=7, size=6),
        unit("B1", "B", "1008", facing=6, utype="LI", ma=7, size=2, tq=3),
    )
    odds = shock_odds(st_, Shock(("A1",), "B1", pursue=True))
    assert sum(odds.values()) == 1
    eliminated = sum(p for o, p in odds.items() if ("B1", "eliminated", False) in o[1])
    assert 0 < eliminated < 1


@settings(max_examples=30, deadline=None)
@given(
    st.integers(1, 9),
    st.integers(1, 9),
    st.integers(1, 10),
    st.integers(1, 10),
    st.sampled_from(["HI", "LI", "HC", "LC", "MI"]),
    st.sampled_from(["HI", "LI", "HC", "LC", "PH"]),
    st.sampled_from([6, 8, 10, 2, 4, 12]),
)
def test_fast_preview_equals_the_resolver(tqa, tqd, sa, sd, ta, td, facing) -> None:  # type: ignore[no-untyped-def]
    extra = {"hex2": "1108"} if td == "PH" else {}
    if td == "PH":
        facing = 12
    st_ = _duel(
        unit("A1", "A", "1009", utype=ta, tq=tqa, size=sa, ma=8),
        unit("B1", "B", "1008", facing=facing, utype=td, tq=tqd, size=sd, ma=6, **extra),
    )
    action = Shock(("A1",), "B1")
    try:
        odds = shock_odds(st_, action)
    except Exception as exc:  # an attack the rules do not allow (NA) is refused by both
        from bellum.errors import RuleError

        assert isinstance(exc, RuleError)
        return
    assert result_marginal(odds) == shock_result_odds(st_, action)


@settings(max_examples=25, deadline=None)
@given(
    st.integers(1, 9),
    st.integers(1, 9),
    st.sampled_from(["HI", "HC", "LC"]),
    st.sampled_from(["HI", "LI", "SK", "EL"]),
    st.booleans(),
    st.booleans(),
)
def test_grouped_enumeration_equals_the_full_one(tqa, tqd, ta, td, pursue, leaders) -> None:  # type: ignore[no-untyped-def]
    lead = (
        [
            {"id": "LA", "side": "A", "hex": "1009", "initiative": 5, "range": 3},
            {"id": "LB", "side": "B", "hex": "1008", "initiative": 5, "range": 3},
        ]
        if leaders
        else []
    )
    st_ = position(
        [
            unit("A1", "A", "1009", utype=ta, tq=tqa, ma=8),
            unit("B1", "B", "1008", facing=6, utype=td, tq=tqd, ma=6),
            unit("B2", "B", "1207", facing=8, utype="HI", tq=5),
        ],
        leaders=lead,
        rules="sgboh",
        sequence={"side": "A", "phase": "shock", **({"leader": "LA"} if leaders else {})},
    )
    action = Shock(("A1",), "B1", pursue=pursue)
    from bellum.errors import RuleError

    try:
        full = shock_odds_full(st_, action)
    except RuleError:
        return
    assert shock_odds(st_, action) == full


def test_fire_odds_follow_the_missile_chart() -> None:
    from tactical.actions import Fire
    from tactical.odds import fire_odds

    st_ = position(
        [unit("A1", "A", "1009", utype="LI", ma=7, size=4, missile="J"), unit("B1", "B", "1008", facing=6)],
        rules="sgboh",
    )
    odds = fire_odds(st_, Fire("A1", "B1"))
    assert sum(odds.values()) == 1
    hit = sum(p for o, p in odds.items() if ("B1", 1) in o[2])
    assert hit == Fraction(4, 10)  # J at one hex hits on 4 or less; +1 against HI: faces 0-3


def test_charts_v1_grouping_equals_the_full_enumeration() -> None:
    st_ = position(
        [unit("A1", "A", "1009", tq=7), unit("B1", "B", "1008", facing=6, reduced_side=True), unit("B2", "B", "2002")],
        leaders=[{"id": "LA", "side": "A", "hex": "1009", "initiative": 5, "range": 3}],
        rules="charts-v1",
        sequence={"side": "A", "phase": "shock", "leader": "LA"},
    )
    action = Shock(("A1",), "B1")
    assert shock_odds(st_, action) == shock_odds_full(st_, action)
    assert sum(shock_odds(st_, action).values()) == 1


@settings(max_examples=10, deadline=None)
@given(
    st.integers(1, 9),
    st.integers(1, 9),
    st.sampled_from(["HI", "HC", "LC"]),
    st.sampled_from(["J", "A", "S"]),
    st.sampled_from(["alone", "two", "leader"]),
)
def test_reaction_fire_staging_equals_the_full_enumeration(tqa, tqd, ta, missile, how) -> None:  # type: ignore[no-untyped-def]
    """Reaction fire (003 §8.2) enumerated first, then the grouped shock, equals every die
    (with no friend to flee to, the defender's leader is lost when a pursuer takes his hex)."""
    _check_reaction_fire_staging("sgboh", tqa, tqd, ta, missile, how)


def test_reaction_fire_staging_equals_the_full_enumeration_in_charts_v1() -> None:
    _check_reaction_fire_staging("charts-v1", 5, 6, "HC", "J", "alone")


def _check_reaction_fire_staging(rules: str, tqa: int, tqd: int, ta: str, missile: str, how: str) -> None:
    from bellum.errors import RuleError

    lead = [{"id": "LB", "side": "B", "hex": "1008", "initiative": 5, "range": 3}] if how == "leader" else []
    units = [
        unit("A1", "A", "1009", utype=ta, tq=tqa, ma=8, missile_hits=tqa - 1),
        unit("B1", "B", "1008", facing=6, utype="LI", tq=tqd, ma=7, size=4, missile=missile),
    ]
    if how == "two":
        units.append(unit("A2", "A", "0908", facing=2, tq=tqa))
    st_ = position(units, leaders=lead, rules=rules, sequence={"side": "A", "phase": "shock"})
    attackers = ("A1", "A2") if how == "two" else ("A1",)
    action = Shock(attackers, "B1", reaction_fire="A1", pursue=ta != "HI")
    try:
        full = shock_odds_full(st_, action)
    except RuleError:
        return
    assert shock_odds(st_, action) == full
    assert sum(full.values()) == 1
