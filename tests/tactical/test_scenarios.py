"""Scenario files: every shipped scenario loads, validates and plays; a broken one is refused with
one sentence naming the file, the place and the problem; the special rules do what
docs/scenarios.md §Special rules says."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bellum.dice import Dice
from bellum.errors import InputError, RuleError
from bellum.events import Event
from bellum.session import Session
from tactical import special
from tactical.actions import Move, Shock
from tactical.ai import TacticalAI
from tactical.cli import play_out
from tactical.engine import apply
from tactical.game import TacticalEngine
from tactical.legal import legal_actions, move_actions
from tactical.rout import rout_value
from tactical.scenario import GRADE_TQ, load_scenario, resolve
from tactical.state import State
from tests.tactical.helpers import position, unit
from tests.tactical.test_invariants import check_invariants

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "tactical"
ALL = sorted(SCENARIOS.glob("*.toml"))
#: random legal actions per scenario (BELLUM_SLOW=1: a long stretch of the battle)
PLAYOUT = 400 if os.environ.get("BELLUM_SLOW") else 40

_MINI = """
name = "Mini"
sources = ["test"]
rules = "charts-v1"
first = "A"
[sides.A]
name = "Caesar"
home = "bottom"
withdrawal = 5
[sides.B]
name = "Pompey"
home = "top"
withdrawal = 5
[field]
columns = 10
rows = 10
areas = [{ hexes = ["0101-0210"], terrain = "impassable" }]
[[units]]
id = "a-{n}"
side = "A"
type = "CO"
grade = "veteran"
size = 4
tq = 7
ma = 5
count = 2
at = ["0508-0608"]
facing = 12
[[units]]
id = "b1"
side = "B"
type = "CO"
size = 4
tq = 5
ma = 5
at = ["0503"]
facing = 6
"""


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "s.toml"
    p.write_text(text, encoding="utf-8")
    return p


# -- the shipped scenarios ------------------------------------------------------------------------


def test_the_eight_battles_are_shipped() -> None:
    shipped = {"pharsalus", "thapsus", "munda", "cannae", "gaugamela", "bagradas", "zela", "ruspina"}
    assert {p.stem for p in ALL} >= shipped


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_every_scenario_loads(path: Path) -> None:
    sc = load_scenario(path)
    st = sc.state
    assert {u.side for u in st.units.values()} == {"A", "B"}
    assert set(st.withdrawal) == {"A", "B"}
    check_invariants(st)
    for side in "AB":
        total = sum(rout_value(u) for u in st.units.values() if u.side == side)
        # research §0: a withdrawal level is 30-50 % of the army's rout total
        assert 0.3 * total <= st.withdrawal[side] <= 0.5 * total + 1, (side, total)
        assert any(ld.overall for ld in st.leaders.values() if ld.side == side)
    assert sc.model.sources and all(s.strip() for s in sc.model.sources)
    # the armies start apart: nobody is engaged before the first activation
    g = st.field.grid
    a_hexes = [h for u in st.units.values() if u.side == "A" for h in u.hexes()]
    b_hexes = [h for u in st.units.values() if u.side == "B" for h in u.hexes()]
    assert min(g.distance(a, b) for a in a_hexes for b in b_hexes) >= 3
    assert {r.id for r in sc.rules} == set(sc.model.special_rules)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 6))
@pytest.mark.parametrize("name", ["bagradas", "zela", "ruspina"])
def test_the_smaller_civil_war_battles_finish_ai_against_ai(name: str, seed: int) -> None:
    """Issue 21: the Bagradas, Zela and Ruspina are fought to a withdrawal by the AI on both
    sides (seeded as ``bellum battle NAME --ai both --headless --seed N`` seeds them)."""
    session = Session(TacticalEngine(), name, seed)
    winner, why = play_out(session, {"A": TacticalAI(seed), "B": TacticalAI(seed + 1)})
    assert winner in ("A", "B"), f"{name}, seed {seed}: {why}"


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_every_scenario_plays_random_legal_actions(path: Path) -> None:
    engine = TacticalEngine()
    dice = Dice(11)
    chooser = Dice(12)
    state = engine.new_state(str(path), dice)
    for _ in range(PLAYOUT):
        acts = legal_actions(state)
        if not acts:
            break
        action = acts[chooser.roll(len(acts), "choice") - 1]
        state, _ = apply(state, action, dice)
        check_invariants(state)
    assert state.rout_points["A"] >= 0 and state.rout_points["B"] >= 0


def test_cohort_grades_reach_the_state() -> None:
    thapsus = load_scenario(resolve("thapsus")).state
    # every grade stays a CO; the grade picks 002's CO(Vet) / CO(Rec) / CO(Con) (tests/tactical/test_grade.py)
    x, xxv, levy = thapsus.units["X-1"], thapsus.units["XXV-1"], thapsus.units["levy-1-1"]
    assert (x.type, x.grade, x.tq) == ("CO", "veteran", 8)
    assert (xxv.type, xxv.grade) == ("CO", "recruit")
    assert (levy.type, levy.grade, levy.roman) == ("CO", "conscript", True)


def test_double_sized_units_take_two_hexes() -> None:
    st = load_scenario(resolve("gaugamela")).state
    g = st.field.grid
    ph = st.units["phalanx-1"]
    assert (g.hex_id(ph.hex), g.hex_id(ph.hex2)) == ("2220", "2320")
    assert rout_value(ph) == 14


# -- broken scenarios -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "place", "words"),
    [
        ('at = ["0503"]', 'at = ["05x3"]', "units[1].at", "is not a hex id"),
        ('at = ["0503"]', 'at = ["1203"]', "units[1].at", "off the 10×10 map"),
        ('type = "CO"\nsize = 4\ntq = 5', 'type = "ZZ"\nsize = 4\ntq = 5', "units[1].type", "input should be"),
        ('id = "b1"', 'id = "a-1"', "units[1].id (a-1)", "used twice"),
        ('at = ["0508-0608"]', 'at = ["0508"]', "units[0].at", "need 2 set-up hexes"),
        (
            'first = "A"',
            'first = "A"\nspecial_rules = ["nonsense"]',
            "special_rules[0]",
            "not a documented special rule",
        ),
        ('at = ["0503"]', 'at = ["0103"]', "units[1].at (b1)", "impassable"),
        ("tq = 7", "tq = 4", "units[0].tq", "a veteran cohort has a TQ from 6 to 9"),
        ('type = "CO"\nsize = 4\ntq = 5\n', 'type = "CO"\nsize = 4\n', "units[1].tq", "needs a tq"),
        ('at = ["0503"]\nfacing = 6', 'at = ["0103"]\ndouble = true\nfacing = 6', "units[1].at", "off the map"),
        (
            'first = "A"',
            'first = "A"\nspecial_rules = ["unfinished-camp"]',
            "special.unfinished-camp",
            "needs the hexes",
        ),
        (
            'first = "A"',
            'first = "roll"\nspecial_rules = ["stand-fast"]',
            "special.stand-fast",
            "needs a side when the first player is rolled",
        ),
        (
            'first = "A"',
            'first = "A"\nspecial_rules = ["stand-fast", "stand-fast"]',
            "special_rules[1]",
            "named twice",
        ),
        (
            "[sides.A]",
            '[special.encirclement]\nside = "B"\n[sides.A]',
            "special.encirclement",
            "is not in special_rules",
        ),
        (
            'first = "A"',
            'first = "A"\nspecial_rules = ["unfinished-camp"]\n[special.unfinished-camp]\nhexes = ["0505-99x9"]',
            "special.unfinished-camp.hexes",
            "is not a hex id",
        ),
        (
            "rows = 10\n",
            'rows = 10\nedges = [{ below_row = 10, columns = [1, 10], feature = "stream" }]\n',
            "field.edges[0]",
            "must lie on",
        ),
        ('name = "Pompey"', 'name = "Pompey"\nwithdrawl = 3', "sides.B.withdrawl", "not a key"),
    ],
)
def test_broken_scenario_is_refused_in_one_sentence(tmp_path: Path, old: str, new: str, place: str, words: str) -> None:
    assert old in _MINI
    path = _write(tmp_path, _MINI.replace(old, new, 1))
    with pytest.raises(InputError) as info:
        load_scenario(path)
    text = str(info.value)
    assert text.startswith(f"{path}: {place}: ") and words in text
    assert "\n" not in text and "Traceback" not in text


def test_a_chariot_off_the_levelled_ground_is_refused(tmp_path: Path) -> None:
    text = _MINI.replace('first = "A"', 'first = "A"\nspecial_rules = ["scythed-chariots"]').replace(
        'areas = [{ hexes = ["0101-0210"], terrain = "impassable" }]',
        'areas = [{ hexes = ["0101-0210"], terrain = "impassable" }, { hexes = ["0503"], terrain = "rough" }]',
    )
    text = text.replace('type = "CO"\nsize = 4\ntq = 5', 'type = "CH"\nsize = 4\ntq = 5')
    # the levelled ground is the map: unlevelled ground is rough, prohibited to chariots (002 TEC)
    with pytest.raises(InputError, match=r"units\[1\] \(b1\): CH may not stand in rough"):
        load_scenario(_write(tmp_path, text))


def test_grade_gives_a_default_tq(tmp_path: Path) -> None:
    st = load_scenario(_write(tmp_path, _MINI.replace("tq = 7\n", "", 1))).state
    assert st.units["a-1"].tq == GRADE_TQ["veteran"][2]


def test_edges_draw_a_feature_along_a_row(tmp_path: Path) -> None:
    text = _MINI.replace(
        "rows = 10\n", 'rows = 10\nedges = [{ below_row = 4, columns = [3, 5], feature = "stream" }]\n'
    )
    st = load_scenario(_write(tmp_path, text)).state
    g = st.field.grid
    assert st.field.hexside(g.index("0304"), g.index("0305")) == "stream"
    assert st.field.hexside(g.index("0504"), g.index("0505")) == "stream"
    assert st.field.hexside(g.index("0604"), g.index("0605")) is None
    assert len(st.field.hexsides) == 5  # 03, 04 both ways; 05 only to 0505 (0605 is outside the span)


def test_resolve_bare_name() -> None:
    assert resolve("pharsalus") == SCENARIOS / "pharsalus.toml"


# -- special rules ------------------------------------------------------------------------------


def _with_rules(state: State, *rules: special.Active) -> State:
    state.options = state.options | {special.encode(r) for r in rules}
    return state


def _moves(state: State, uid: str) -> list[Move]:
    return move_actions(state, state.units[uid])


def test_stand_fast_holds_roman_foot_until_the_enemy_is_near() -> None:
    rule = special.Active("stand-fast", "B")
    leaders = [{"id": "P", "side": "B", "hex": "0504", "initiative": 5, "range": 5}]
    seq = {"side": "B", "phase": "move", "leader": "P"}
    far = _with_rules(
        position(
            [unit("b", "B", "0505", 6, "CO", roman=True), unit("h", "B", "0705", 6, "HC"), unit("a", "A", "0510")],
            leaders,
            sequence=seq,
        ),
        rule,
    )
    assert _moves(far, "b") == [] and _moves(far, "h")
    with pytest.raises(RuleError, match="stands fast"):
        apply(far, Move("b", ("0506",)), Dice.forced([]))
    near = _with_rules(
        position([unit("b", "B", "0505", 6, "CO", roman=True), unit("a", "A", "0508")], leaders, sequence=seq),
        rule,
    )
    assert _moves(near, "b")


def test_hidden_reserve_waits_for_the_enemy_horse() -> None:
    rule = special.configure("hidden-reserve", None, [], [], "roll")
    assert rule.groups == ("fourth-line",)
    leaders = [{"id": "C", "side": "A", "hex": "0508", "initiative": 5, "range": 5}]
    seq = {"side": "A", "phase": "move", "leader": "C"}
    units = [unit("r1", "A", "0509", group="fourth-line"), unit("r2", "A", "0609", group="fourth-line")]
    foot = _with_rules(position([*units, unit("f", "B", "0505", 6)], leaders, sequence=seq), rule)
    assert _moves(foot, "r1") == []
    horse = _with_rules(position([*units, unit("c", "B", "0907", 6, "HC")], leaders, sequence=seq), rule)
    assert _moves(horse, "r1")  # r2 is within 4 hexes of the horse: the signal is given


def test_hill_position_keeps_the_foot_on_the_slope() -> None:
    rule = special.Active("hill-position", "B")
    leaders = [{"id": "P", "side": "B", "hex": "0504", "initiative": 5, "range": 6}]
    seq = {"side": "B", "phase": "move", "leader": "P"}
    raised = {"0505": 1, "0605": 1}
    units = [unit("up", "B", "0505", 6), unit("low", "B", "0405", 6), unit("horse", "B", "0605", 6, "HC")]
    st = _with_rules(position([*units, unit("a", "A", "0512")], leaders, sequence=seq, level=raised), rule)
    assert _moves(st, "up") == []
    assert _moves(st, "low") and _moves(st, "horse")
    climbed = _with_rules(
        position([*units, unit("a", "A", "0812")], leaders, sequence=seq, level={**raised, "0812": 1}), rule
    )
    assert _moves(climbed, "up")


def test_unfinished_camp_disorders_the_units_in_it() -> None:
    st = load_scenario(resolve("thapsus")).state
    third = [u for u in st.units.values() if u.side == "B" and st.field.grid.col_row(u.hex)[1] == 7]
    assert len(third) == 8 and all(u.status == "disordered" for u in third)
    assert all(u.status == "full" for u in st.units.values() if u not in third)


def test_elephant_panic_spreads_to_nearby_elephants() -> None:
    rule = special.Active("elephant-panic", "B")
    before = _with_rules(
        position(
            [
                unit("e1", "B", "0505", 6, "EL", tq=5),
                unit("e2", "B", "0805", 6, "EL", tq=5),
                unit("e3", "B", "0505", 6, "EL", tq=5) | {"hex": "0305"},
                unit("e4", "B", "1505", 6, "EL", tq=5),
            ],
            rules="charts-v1",
        ),
        rule,
    )
    after = before.copy()
    after.units["e1"].status, after.units["e1"].hex = "eliminated", -1
    events = [Event("rampage", "e1 rampages (003 §9.14).", {"unit": "e1"})]
    # e3 (2 hexes) checks first and holds on 5; e2 (3 hexes) panics on 9; e4 (10 hexes) is too far
    dice = Dice.forced([5, 9])
    special.after_action(before, after, None, dice, events)
    dice.assert_exhausted()
    assert after.units["e3"].on_map and not after.units["e2"].on_map and after.units["e4"].on_map
    assert [e.kind for e in events].count("panic") == 2 and [e.kind for e in events].count("rampage") == 2


def test_encirclement_disorders_foot_struck_in_flank() -> None:
    rule = special.Active("encirclement", "B")
    before = _with_rules(
        position([unit("r", "B", "0505", 6, "LG", roman=True), unit("f", "A", "0605", 10), unit("h", "A", "0506", 12)]),
        rule,
    )
    flank = before.copy()
    events: list[Event] = []
    special.after_action(before, flank, Shock(("f",), "r"), Dice.forced([]), events)
    assert flank.units["r"].status == "disordered" and events[0].kind == "disorder"
    front = before.copy()
    special.after_action(before, front, Shock(("h",), "r"), Dice.forced([]), [])
    assert front.units["r"].status == "full"


def test_scythed_chariots_pass_through_the_ranks() -> None:
    rule = special.Active("scythed-chariots", "B")
    before = _with_rules(
        position([unit("ch", "B", "0505", 6, "CH"), unit("ph", "A", "0506", 12, "HI")], rules="sgboh"), rule
    )
    after = before.copy()
    events: list[Event] = []
    special.after_action(before, after, Shock(("ch",), "ph"), Dice.forced([]), events)
    assert not after.units["ch"].on_map and after.rout_points["B"] == 2
    assert "opened ranks" in events[0].text


def test_every_special_rule_is_documented() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "scenarios.md").read_text(encoding="utf-8")
    for rid, spec in special.RULES.items():
        assert f"| `{rid}` | {spec.battle} |" in doc, rid
    with pytest.raises(ValueError, match="takes no side"):
        special.configure("hidden-reserve", "A", [], [], "A")
    with pytest.raises(ValueError, match="takes no groups"):
        special.configure("stand-fast", None, ["x"], [], "A")


def test_special_rules_survive_a_copy_and_a_new_game() -> None:
    st = TacticalEngine().new_state("munda", Dice(1))
    assert [r.id for r in special.active(st.copy())] == ["hill-position"]
    pompeian = st.units["vet-1-1"]
    assert special.refuse_move(st, pompeian) is not None
