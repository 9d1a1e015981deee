"""Campaign forces to tactical (GBoH) counters and back (docs/rules/campaign.md §12.7)."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bellum.dice import Dice
from bellum.engagement import Engagement, ForceLeader, ForceUnit, SideForce
from bellum.errors import InputError, RuleError
from campaign import actions as A
from campaign.conversion import (
    CONVERSION_FILE,
    build_tactical,
    leader_ratings,
    ledger,
    load_tables,
    outcome_from_tactical,
    plan,
    resolve_tactical,
    tables,
    tactical_scenario,
    write_tactical,
)
from campaign.engine import CampaignEngine
from campaign.rules.battle import land_engagement
from campaign.state import CampaignState
from campaign.units import catalogue, engagement_leader
from tactical.engine import apply
from tactical.legal import legal_actions
from tactical.scenario import load_scenario
from tactical.sequence import who_goes_first
from tactical.state import State
from tests.campaign.test_ops_sequence import army, fresh, play

# --------------------------------------------------------------------------- helpers


def _eng(
    a: Iterable[tuple[str, str, int]],
    b: Iterable[tuple[str, str, int]],
    *,
    where: str = "mutina",
    leaders: Iterable[ForceLeader] = (),
    factions: tuple[str, str] = ("caesarian", "senatorial"),
    superiority: tuple[int, int] = (0, 0),
    kind: str = "land",
    trigger: str = "battle",
    terrain: str = "field",
) -> Engagement:
    """An engagement from (battleboard kind, discipline, SP) triples; unit ids a0, a1 … b0 …"""
    units = [ForceUnit(id=f"a{i}", side="A", kind=k, discipline=d, strength=sp) for i, (k, d, sp) in enumerate(a)]  # type: ignore[arg-type]
    units += [ForceUnit(id=f"b{i}", side="B", kind=k, discipline=d, strength=sp) for i, (k, d, sp) in enumerate(b)]  # type: ignore[arg-type]
    return Engagement(
        id="t1-test",
        where=where,
        turn="April 49 BC",
        kind=kind,  # type: ignore[arg-type]
        terrain=terrain,
        trigger=trigger,  # type: ignore[arg-type]
        active="A",
        sides={
            "A": SideForce(faction=factions[0], superiority_stratagems=superiority[0]),
            "B": SideForce(faction=factions[1], superiority_stratagems=superiority[1]),
        },
        units=units,
        leaders=list(leaders),
    )


def _campaign(
    place: str, a: list[tuple[str, str, int]], b: list[tuple[str, str, int]]
) -> tuple[CampaignState, Engagement]:
    """A campaign state with two armies of campaign kinds at ``place`` and its engagement."""
    s = fresh("combat", keep=[])
    s.forces = {k: f for k, f in s.forces.items() if f.location != place}
    s.forces["ca"] = army("ca", "caesarian", place, a, ("antonius",))
    s.forces["se"] = army("se", "senatorial", place, b, ("afranius",))
    return s, land_engagement(s, place, 0, 0)


def _final(eng: Engagement, seed: int = 1) -> State:
    """The starting tactical state of the engagement, for tests that set the result by hand."""
    return build_tactical(tactical_scenario(eng, seed)).state.copy()


def _end(state: State, winner: str | None) -> State:
    if winner is not None:
        state.seq.phase = "over"
        state.winner = winner
    return state


SMALL = _eng([("legion", "V", 3), ("cavalry", "B", 1)], [("legion", "R", 3), ("auxiliary", "R", 1)])


# --------------------------------------------------------------------------- the table


def test_the_mapping_covers_every_land_kind_and_each_of_its_disciplines() -> None:
    """§12.7.1: every land kind of units.toml has counters and a TQ for every discipline it may have."""
    t = tables()
    for kid, k in catalogue().kinds.items():
        if k.is_fleet:
            assert kid not in t.kinds
            continue
        entry = t.kinds[kid]
        if entry.post != "camp":
            assert set(k.disciplines) <= set(entry.tq), kid


def test_a_mapping_without_a_kind_is_refused_with_one_sentence(tmp_path: Path) -> None:
    """§12.7.1: the table is data, validated at load; a missing kind names file and place."""
    raw = tomllib.loads(CONVERSION_FILE.read_text("utf-8"))
    del raw["kinds"]["phalanx"]
    bad = tmp_path / "conversion.toml"
    bad.write_text(tomli_w.dumps(raw), encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_tables(bad)
    assert "kinds.phalanx" in str(err.value) and "conversion.toml" in str(err.value)


def test_a_tq_missing_for_a_discipline_is_refused(tmp_path: Path) -> None:
    raw = tomllib.loads(CONVERSION_FILE.read_text("utf-8"))
    del raw["kinds"]["legion"]["tq"]["R"]
    bad = tmp_path / "conversion.toml"
    bad.write_text(tomli_w.dumps(raw), encoding="utf-8")
    with pytest.raises(InputError, match="no TQ for discipline R"):
        load_tables(bad)


# --------------------------------------------------------------------------- counters


@pytest.mark.parametrize(
    ("kind", "discipline", "typ", "grade", "engine_type", "tq", "missile"),
    [
        ("legion", "I", "CO", "veteran", "CO", 8, "J"),
        ("legion", "V", "CO", "veteran", "CO", 7, "J"),
        ("legion", "R", "CO", "recruit", "CO", 5, "J"),
        ("guard", "I", "CO", "veteran", "CO", 8, "J"),
        ("civis", "R", "CO", "conscript", "CO", 4, "J"),
        ("auxiliary", "R", "LI", None, "LI", 5, "J"),
        ("auxiliary", "V", "SK", None, "SK", 6, "A"),
        ("cavalry", "V", "BC", None, "BC", 7, None),
        ("horde_cavalry", "B", "BC", None, "BC", 6, None),
        ("numidian_cavalry", "B", "LC", None, "LC", 5, "MJ"),
        ("horse_archers", "V", "LC", None, "LC", 6, "MA"),
        ("cataphracts", "V", "HC", None, "HC", 7, None),
        ("phalanx", "R", "PH", None, "PH", 5, None),
        ("mob", "M", "MI", None, "MI", 3, None),
        ("horde", "B", "BI", None, "BI", 5, None),
        ("elephants", "B", "EL", None, "EL", 4, None),
        ("scythed_chariots", "B", "CH", None, "CH", 3, None),
    ],
)
def test_each_campaign_kind_becomes_its_tactical_counter(
    kind: str, discipline: str, typ: str, grade: str | None, engine_type: str, tq: int, missile: str | None
) -> None:
    """§12.7.1 table: legions by class I/V/R → cohorts of 002's grades (each stays a CO and
    carries its grade and pilum, docs/scenarios.md §Cohorts), horse, light troops, beasts and pikes."""
    full = catalogue().kind(kind).strength
    s, eng = _campaign("mutina", [(kind, discipline, full)], [("legion", "R", 2)])
    sc = tactical_scenario(eng, 1, state=s)
    mine = [u for u in sc.units if u.group == "ca_0"]
    assert len(mine) == full  # one SP, one counter
    for u in mine:
        assert (u.type, u.grade, u.tq, u.missile) == (typ, grade, tq, missile)
    built = build_tactical(sc).state
    assert {built.units[u.id].type for u in mine} == {engine_type}
    assert {built.units[u.id].grade for u in mine} == {grade}
    assert all(built.units[u.id].roman == (kind in ("legion", "guard")) for u in mine)
    if kind == "cataphracts":
        assert all(built.units[u.id].cataphract for u in mine)


def test_every_kind_at_every_discipline_builds_through_the_tactical_loader() -> None:
    """§12.7.1: every row of the table is a counter the tactical loader accepts (a graded
    cohort's TQ within its grade's band, a type the catalogue has, no prohibited set-up)."""
    cat = catalogue()
    a = [(k, d, 1) for k, spec in cat.kinds.items() if not spec.is_fleet for d in spec.disciplines]
    s, eng = _campaign("mutina", a, [("legion", "R", 1)])
    sc = tactical_scenario(eng, 2, state=s)
    built = build_tactical(sc).state
    on_field = {c.unit for c in plan(eng, s).counters if c.side == "A"}
    assert len(on_field) == sum(1 for k, _, _ in a if tables().kinds[k].post != "camp")
    assert len(built.units) == len(sc.units)


def test_baggage_and_engineers_stay_in_camp() -> None:
    """§12.7.1: engineers and impediti do not stand in the line (§2.2)."""
    s, eng = _campaign(
        "mutina", [("legion", "V", 2), ("engineers", "V", 1)], [("legion", "R", 2), ("impediti", "M", 1)]
    )
    p = plan(eng, s)
    assert {u.id for u in p.camp} == {"ca_1", "se_1"}
    assert {c.unit for c in p.counters} == {"ca_0", "se_0"}


def test_without_the_campaign_state_light_cavalry_is_numidian_unless_parthian() -> None:
    """§12.7.1 [infer]: an Engagement names battleboard kinds only."""
    eng = _eng(
        [("light_cavalry", "V", 1), ("legion", "V", 1)], [("light_cavalry", "V", 1)], factions=("senatorial", "parthia")
    )
    got = {u.id: u.missile for u in tactical_scenario(eng, 1).units}
    assert got == {"a0": "MJ", "a1": "J", "b0": "MA"}  # a1: the legion's pilum (000 §8.14)


def test_the_state_and_inference_give_the_same_counters() -> None:
    """§12.7.1: the kind never changes how many counters a unit makes, nor their ids or SP."""
    s, eng = _campaign("mutina", [("horse_archers", "V", 2), ("guard", "I", 5)], [("horde_cavalry", "B", 2)])
    with_state = [(c.id, c.unit, c.sp, c.post) for c in plan(eng, s).counters]
    without = [(c.id, c.unit, c.sp, c.post) for c in plan(eng).counters]
    assert with_state == without


def test_a_large_army_puts_more_sp_on_each_counter_and_keeps_every_sp() -> None:
    """§12.7.1: above 24 counters a side, 2 (then 3) SP a counter, shares as even as possible."""
    big = [("legion", "V", 5)] * 6 + [("cavalry", "B", 2)] * 3
    eng = _eng(big, [("legion", "R", 5)] * 4)
    p = plan(eng)
    assert p.sp_per_counter == 2
    for side in ("A", "B"):
        assert sum(1 for c in p.counters if c.side == side) <= tables().scale.max_counters
    assert [c.sp for c in p.by_unit["a0"]] == [2, 2, 1]
    for u in eng.units:
        assert sum(c.sp for c in p.by_unit[u.id]) == u.strength
    sizes = {c.sp: c.size for c in p.by_unit["a0"]}
    assert sizes == {2: 12, 1: 6}
    huge = _eng([("legion", "V", 5)] * 14, [("legion", "R", 5)] * 2)
    assert plan(huge).sp_per_counter == 3


def test_naval_battles_and_storms_are_not_fought_on_the_tactical_map() -> None:
    """§12.7: the tactical engine fights field battles only."""
    sea = _eng([("fleet", "R", 3)], [("fleet", "R", 3)], kind="naval", trigger="mutual", terrain="sea")
    with pytest.raises(RuleError, match="battleboard"):
        tactical_scenario(sea, 1)
    storm = _eng([("legion", "V", 5)], [("civis", "R", 3)], trigger="storm", terrain="city")
    with pytest.raises(RuleError, match="siege"):
        tactical_scenario(storm, 1)
    baggage = _eng([("legion", "V", 5)], [("impeditus", "M", 1)])
    with pytest.raises(RuleError, match="baggage"):
        tactical_scenario(baggage, 1)


# --------------------------------------------------------------------------- leaders, levels, first


def test_leaders_are_rated_from_their_campaign_rating_and_discipline() -> None:
    """§12.7.3: Initiative 3 + rating (+1 Imperator, −1 R/M/B), Range 3 + rating, Elite for an
    Imperator of rating 3."""
    caesar = engagement_leader("caesar", "A", supreme=True)
    assert leader_ratings(caesar) == (7, 6, True)
    assert leader_ratings(engagement_leader("antonius", "A")) == (5, 5, False)
    assert leader_ratings(engagement_leader("p_sulla", "A")) == (4, 4, False)
    assert leader_ratings(engagement_leader("cicero", "B")) == (3, 4, False)


def test_each_side_has_one_overall_commander_standing_with_his_troops() -> None:
    """§12.7.3: the Supreme Leader commands; every leader stands on a hex of his own side."""
    leaders = [
        engagement_leader("antonius", "A"),
        engagement_leader("caesar", "A", supreme=True),
        engagement_leader("p_sulla", "A"),
        engagement_leader("afranius", "B"),
        engagement_leader("petreius", "B"),
    ]
    eng = _eng([("legion", "V", 5), ("cavalry", "B", 2), ("cavalry", "V", 2)], [("legion", "R", 5)], leaders=leaders)
    sc = tactical_scenario(eng, 4)
    overall = {ld.side: ld.id for ld in sc.leaders if ld.overall}
    assert overall == {"A": "caesar", "B": "afranius"}  # afranius is listed first (the commander)
    at = {u.at[0]: u.side for u in sc.units}
    for ld in sc.leaders:
        assert at.get(ld.hex or "") == ld.side
    state = build_tactical(sc).state
    assert state.leaders["caesar"].elite and not state.leaders["antonius"].elite


def test_withdrawal_levels_weigh_each_counter_by_its_discipline() -> None:
    """§12.7.4: Σ rout value × I 55 %, V 50 %, R 40 %, M 35 %, B 35 %."""
    eng = _eng([("legion", "V", 4), ("auxiliary", "V", 1)], [("legion", "R", 5), ("mob", "M", 2)])
    sc = tactical_scenario(eng, 1)
    assert sc.sides["A"].withdrawal == round((4 * 7 * 50 + 2 * 50) / 100)  # SK counts 2
    assert sc.sides["B"].withdrawal == round((5 * 5 * 40 + 2 * 3 * 35) / 100)


def test_the_side_with_tactical_superiority_moves_first() -> None:
    """§12.7.3, 004 Setup: superiority moves first; a tie goes to the defender on land."""
    assert tactical_scenario(_eng(*_two(), superiority=(2, 1)), 1).first == "A"
    assert tactical_scenario(_eng(*_two()), 1).first == "B"


def _two() -> tuple[list[tuple[str, str, int]], list[tuple[str, str, int]]]:
    return [("legion", "V", 2)], [("legion", "R", 2)]


# --------------------------------------------------------------------------- the field


FIELDS = ["mutina", "capua", "roma", "corfinium", "ilerda", "samnium", "apenninus", "siscia", "armorica", "delta",
          "ravenna", "syrtis", "gaza"]  # fmt: skip


@pytest.mark.parametrize("where", FIELDS)
def test_the_generated_scenario_loads_through_the_tactical_loader_and_plays(where: str, tmp_path: Path) -> None:
    """§12.7.2: a field for every terrain, river, pass, port and city validates through
    tactical.scenario's own loader, and random legal actions play on it."""
    leaders = [engagement_leader("caesar", "A", supreme=True), engagement_leader("pompeius", "B", supreme=True)]
    eng = _eng(
        [("legion", "I", 5), ("legion", "V", 5), ("cavalry", "B", 2), ("auxiliary", "V", 2), ("impeditus", "M", 1)],
        [("legion", "R", 5), ("phalanx", "R", 4), ("elephant", "B", 2), ("light_cavalry", "B", 2), ("chariot", "B", 1)],
        where=where,
        leaders=leaders,
    )
    path = write_tactical(tactical_scenario(eng, 11), tmp_path / "battle.toml")
    sc = load_scenario(path)
    state = sc.state.copy()
    dice = Dice(3)
    who_goes_first(state, dice, [], first=sc.model.first)  # type: ignore[arg-type]
    for _ in range(25):
        acts = legal_actions(state)
        if not acts:
            break
        state, _ = apply(state, acts[dice.roll(len(acts), "pick") - 1], dice)


def test_a_scenario_written_to_a_folder_is_named_by_its_content(tmp_path: Path) -> None:
    """§12.7.6: the tactical engine caches scenarios by path, so each battle gets its own file."""
    eng = _eng(*_two())
    one = write_tactical(tactical_scenario(eng, 1), tmp_path)
    again = write_tactical(tactical_scenario(eng, 1), tmp_path)
    other = write_tactical(tactical_scenario(eng, 2), tmp_path)
    assert one == again != other and one.parent == tmp_path
    assert load_scenario(other).model == tactical_scenario(eng, 2)


def test_the_space_shapes_the_field() -> None:
    """§12.7.2: mountains are rugged, a pass is walled, a port has the sea, a river runs down a flank."""
    two = _two()

    def field(where: str) -> tuple[dict[str, int], int, int]:
        sc = tactical_scenario(_eng(*two, where=where), 5)
        kinds: dict[str, int] = {}
        levels = 0
        for area in sc.field.areas:
            if area.terrain:
                kinds[area.terrain] = kinds.get(area.terrain, 0) + 1
            if area.level:
                levels += 1
        return kinds, levels, len(sc.field.hexsides)

    mountains, high, _ = field("samnium")
    clear, low, _ = field("mutina")
    assert high > low and mountains.get("rough", 0) > clear.get("rough", 0)
    passed, _, _ = field("apenninus")
    assert passed.get("impassable", 0) >= 20 * 2
    assert field("siscia")[0].get("woods", 0) > 10
    assert field("delta")[0].get("marsh", 0) > 10
    assert field("capua")[2] > 0 and field("mutina")[2] == 0
    assert field("gaza")[0].get("impassable", 0) >= 40  # two columns of sea
    assert field("mutina")[0].get("town", 0) > 0


def test_the_same_engagement_and_seed_give_the_same_field_and_counters_never_depend_on_it() -> None:
    """§12.7: deterministic; only the field changes with the seed."""
    eng = _eng(*_two(), where="samnium")
    a, b, c = tactical_scenario(eng, 7), tactical_scenario(eng, 7), tactical_scenario(eng, 8)
    assert a == b
    assert a.field != c.field
    assert [u.id for u in a.units] == [u.id for u in c.units]


# --------------------------------------------------------------------------- back to the campaign


def test_eliminated_counters_are_lost_and_the_winner_recovers_its_share() -> None:
    """§12.7.5: eliminated → lost; the winner recovers (10 − reconstitution number) / 10, half up."""
    eng = _eng([("legion", "V", 4)], [("legion", "R", 5)])
    st_ = _final(eng)
    for cid in ("a0-1", "a0-2", "a0-3", "b0-1", "b0-2"):
        st_.units[cid].status = "eliminated"
    book = ledger(eng, _end(st_, "A"))
    assert (book["a0"].lost, book["a0"].surviving) == (1, 3)  # 3 lost, V recovers 1.5 → 2
    assert (book["b0"].lost, book["b0"].surviving, book["b0"].captured) == (2, 3, 0)


def test_the_losers_routed_counters_are_captured_the_winners_rally() -> None:
    """§12.7.5: routed on the field when the army withdraws → captured (Pharsalus)."""
    eng = _eng([("legion", "V", 2)], [("legion", "R", 3)])
    st_ = _final(eng)
    st_.units["a0-1"].status = "routed"
    st_.units["b0-1"].status = "routed"
    st_.units["b0-2"].status = "disordered"
    out = outcome_from_tactical(eng, _end(st_, "A"))
    fate = {f.id: f for f in out.units}
    assert fate["a0"].strength == 2 and fate["a0"].flipped
    assert fate["b0"].strength == 2 and fate["b0"].flipped
    assert out.strength_lost == {"A": 0, "B": 1}
    assert "1 SP taken prisoner" in out.reason


def test_a_battle_not_over_is_a_draw_at_nightfall() -> None:
    """§12.7.5: no withdrawal → no winner, nobody captured, nobody recovers, nobody retreats."""
    eng = _eng([("legion", "V", 2), ("impeditus", "M", 1)], [("legion", "R", 2)])
    st_ = _final(eng)
    st_.units["a0-1"].status = "eliminated"
    st_.units["b0-1"].status = "routed"
    out = outcome_from_tactical(eng, st_)
    assert out.winner is None and not out.loser_retreats and "night" in out.reason
    assert out.strength_lost == {"A": 1, "B": 0}
    assert {f.id: f.strength for f in out.units} == {"a0": 1, "a1": 1, "b0": 2}


def test_camp_units_are_captured_when_their_army_withdraws() -> None:
    """§12.7.5: engineers and baggage share their army's fortune."""
    eng = _eng([("legion", "V", 2), ("impeditus", "V", 1)], [("legion", "R", 2), ("impeditus", "M", 1)])
    out = outcome_from_tactical(eng, _end(_final(eng), "A"))
    fate = {f.id: f.fate for f in out.units}
    assert fate == {"a0": "survived", "a1": "survived", "b0": "survived", "b1": "captured"}
    assert out.strength_lost == {"A": 0, "B": 1} and out.loser_retreats


def test_leaders_lost_are_killed_but_the_beaten_armys_are_captured() -> None:
    """§12.7.5 (§12.5 then decides a captive's fate)."""
    leaders = [engagement_leader("antonius", "A"), engagement_leader("labienus", "B"), engagement_leader("cato", "B")]
    eng = _eng(*_two(), leaders=leaders)
    st_ = _final(eng)
    for lid in ("antonius", "labienus"):
        st_.leaders[lid].status = "eliminated"
        st_.leaders[lid].hex = -1
    out = outcome_from_tactical(eng, _end(st_, "A"))
    assert {x.id: x.fate for x in out.leaders} == {"antonius": "killed", "labienus": "captured", "cato": "survived"}


def test_the_winner_promotes_its_steady_legions() -> None:
    """§12.7.5, battleboard.md §12.2: min(3, 1 + enemy SP lost ÷ 10) legions whole and in order."""
    eng = _eng([("legion", "R", 3), ("legion", "V", 2), ("legion", "V", 1)], [("legion", "R", 5), ("legion", "R", 5)])
    st_ = _final(eng)
    for cid in ("b0-1", "b0-2", "b0-3", "b0-4", "b0-5", "b1-1", "b1-2", "b1-3", "b1-4", "b1-5"):
        st_.units[cid].status = "eliminated"
    st_.units["a1-1"].status = "disordered"
    out = outcome_from_tactical(eng, _end(st_, "A"))
    assert [(p.id, p.before, p.after) for p in out.promotions] == [("a0", "R", "V"), ("a2", "V", "I")]
    assert {f.id: f.discipline for f in out.units}["a0"] == "V"


def test_roman_dead_count_for_fratricide_in_blocks_of_five() -> None:
    """§12.7.5, §2.7: every 5 SP of legion lost (not captured) is a strength-5 unit killed."""
    eng = _eng([("legion", "V", 5), ("legion", "V", 5)], [("legion", "R", 5), ("legion", "R", 2)])
    st_ = _final(eng)
    for cid in ("a0-1", "a0-2", "a0-3", "a0-4", "a0-5", "a1-1", "b0-1", "b0-2", "b0-3", "b0-4", "b1-1", "b1-2"):
        st_.units[cid].status = "eliminated"
    st_.units["b0-5"].status = "routed"
    out = outcome_from_tactical(eng, _end(st_, "B"))
    # A (the loser) lost 6 SP killed → one block; B (winner) lost 6 SP, recovers 40 % → 2, lost 4
    assert out.heavy_infantry_killed == {"A": 1, "B": 0} and out.fratricide == 5


kinds_bb = st.sampled_from(
    [
        ("legion", ("I", "V", "R"), 5),
        ("auxiliary", ("V", "R", "B"), 2),
        ("cavalry", ("V", "R", "B"), 2),
        ("light_cavalry", ("V", "B"), 2),
        ("heavy_cavalry", ("V",), 3),
        ("phalanx", ("V", "R"), 4),
        ("mob", ("M",), 2),
        ("elephant", ("B",), 2),
        ("chariot", ("B",), 1),
        ("heavy_infantry", ("B",), 4),
        ("civis", ("V", "R", "M"), 3),
        ("impeditus", ("R", "M"), 1),
    ]
)


@st.composite
def unit_specs(draw: st.DrawFn) -> tuple[str, str, int]:
    kind, discs, full = draw(kinds_bb)
    return kind, draw(st.sampled_from(discs)), draw(st.integers(1, full))


line_units = st.tuples(st.sampled_from(["legion", "cavalry", "phalanx"]), st.just("V"), st.integers(1, 4))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    a=st.lists(unit_specs(), max_size=12).map(lambda xs: [("legion", "V", 2), *xs]),
    b=st.lists(unit_specs(), max_size=12).map(lambda xs: [("cavalry", "R", 1), *xs]),
    statuses=st.lists(st.sampled_from(["full", "disordered", "routed", "eliminated", "off_map"]), min_size=1),
    winner=st.sampled_from([None, "A", "B"]),
)
def test_every_campaign_sp_is_surviving_lost_or_captured(
    a: list[tuple[str, str, int]], b: list[tuple[str, str, int]], statuses: list[str], winner: str | None
) -> None:
    """§12.7.5 (hypothesis): any engagement, any tactical result → SP in = SP out + losses."""
    eng = _eng(a, b)
    st_ = _final(eng)
    for k, u in enumerate(sorted(st_.units.values(), key=lambda u: u.id)):
        u.status = statuses[k % len(statuses)]
    _end(st_, winner)
    book = ledger(eng, st_)
    out = outcome_from_tactical(eng, st_)
    assert {f.id for f in out.units} == {u.id for u in eng.units}
    for u in eng.units:
        row = book[u.id]
        assert row.sp == u.strength == row.surviving + row.lost + row.captured
        assert min(row.surviving, row.lost, row.captured) >= 0
    for side in ("A", "B"):
        sp_in = sum(u.strength for u in eng.units if u.side == side)
        sp_out = sum(f.strength for f in out.units if f.side == side and f.fate == "survived")
        assert sp_in == sp_out + out.strength_lost[side]  # type: ignore[index]


# --------------------------------------------------------------------------- the whole chain


def test_a_small_battle_resolves_headless_and_the_campaign_applies_it() -> None:
    """§12.7.6: resolve_tactical ends with an Outcome that CampaignEngine checks and applies."""
    s, eng = _campaign("mutina", [("legion", "V", 3), ("cavalry", "B", 1)], [("legion", "R", 3), ("auxiliary", "R", 1)])
    out = resolve_tactical(eng, Dice(1))
    assert out.winner in ("A", "B") and out.turns > 0
    engine = CampaignEngine()
    engine.check(eng, out)
    s2, events = engine.apply_outcome(s, eng, out, Dice(2))
    assert events[0].kind == "battle"
    lost = {f.id for f in out.units if f.fate != "survived"}
    left = {u.id for f in s2.forces.values() for u in f.units}
    assert not lost & left
    assert all(f.id in left for f in out.units if f.fate == "survived")
    now = {u.id: u.strength for f in s2.forces.values() for u in f.units}
    assert all(now[f.id] == f.strength for f in out.units if f.fate == "survived")


def test_the_tactical_engine_is_a_campaign_resolver() -> None:
    """§12.2, §12.7.6: CampaignEngine(resolver=resolve_tactical) fights the battle it orders."""
    s, _ = _campaign("mutina", [("legion", "V", 2)], [("legion", "R", 2)])
    engine = CampaignEngine(resolver=resolve_tactical)
    s1, _ = play(s, A.Battle("mutina", 0), engine=engine)
    s2, events = play(s1, A.Commit(0), Dice(9), engine=engine)
    assert any(e.kind == "battle" for e in events)
    assert "mutina" in s2.fought


def test_the_window_route_a_written_scenario_played_in_a_session_comes_back(tmp_path: Path) -> None:
    """§12.7.6: write_tactical → Session(TacticalEngine()) → outcome_from_tactical(session.state)."""
    from bellum.session import Session
    from tactical.ai import TacticalAI
    from tactical.game import TacticalEngine

    s, eng = _campaign("ilerda", [("legion", "V", 2), ("cavalry", "B", 1)], [("legion", "R", 2), ("mob", "M", 1)])
    path = write_tactical(tactical_scenario(eng, 3, state=s), tmp_path)
    session = Session(TacticalEngine(), str(path), 3)
    assert session.state.seq.side == tactical_scenario(eng, 3).first
    ai = TacticalAI(1)
    for _ in range(40):
        if session.state.seq.phase == "over":
            break
        session.play(ai.choose(session.state))
    out = outcome_from_tactical(eng, session.state, state=s)
    CampaignEngine().check(eng, out)
    book = ledger(eng, session.state, state=s)
    assert sum(r.sp for r in book.values()) == sum(u.strength for u in eng.units)


def test_a_headless_battle_needs_the_ai_on_both_sides() -> None:
    with pytest.raises(RuleError, match="both sides"):
        resolve_tactical(SMALL, Dice(1), ai_both=False)


def test_a_battle_cut_short_is_still_accounted_for() -> None:
    """§12.7.5: out of actions → nightfall, a draw, every SP still accounted for."""
    out = resolve_tactical(SMALL, Dice(1), max_actions=3)
    assert out.winner is None
    for side in ("A", "B"):
        sp_in = sum(u.strength for u in SMALL.units if u.side == side)
        kept = sum(f.strength for f in out.units if f.side == side and f.fate == "survived")
        assert sp_in == kept + out.strength_lost[side]  # type: ignore[index]
