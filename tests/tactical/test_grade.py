"""Cohort grades (docs/rules/tactical-charts.md §8): a graded cohort is a CO whose grade picks
its row and column of 002's Weapons System matrix (CO(Vet) with LG, CO(Rec) with HI, CO(Con)
with MI) and changes nothing else — movement, missile fire, the pilum (000 §8.14) and orderly
withdrawal (000 §6.52) treat every grade as legionary heavy foot."""

from __future__ import annotations

from typing import Any

import pytest

from bellum.errors import InputError, RuleError
from tactical import charts
from tactical.actions import Fire, Shock
from tactical.combat import plan_shock
from tactical.legal import legal_actions
from tactical.odds import fire_odds, shock_odds
from tactical.scenario import load_scenario, resolve
from tactical.state import State
from tactical.tables import CLASS_INDEX
from tests.tactical.helpers import position, unit

GRADES = ("veteran", "recruit", "conscript")
#: the 002 row/column each grade is printed with (weapons_charts_v1.toml [groups])
FILED_WITH = {"veteran": "LG", "recruit": "HI", "conscript": "MI"}
#: every type that may stand opposite a cohort (AT and SK only defend)
ENEMIES = ("PH", "HO", "HI", "LG", "CO", "MI", "BI", "LP", "LI", "SK", "SK*", "HC", "RC", "BC", "LN", "LC", "EL", "CH")
ATTACKERS = tuple(t for t in ENEMIES if t not in ("SK",))


def _cohort(uid: str, side: str, hex_: str, grade: str | None, facing: int = 12, **kw: Any) -> dict[str, Any]:
    extra = {"grade": grade} if grade is not None else {}
    return unit(uid, side, hex_, facing, "CO", ma=5, roman=True, group="X Legion", **extra, **kw)


def _duel(grade: str | None, enemy: str, *, cohort_attacks: bool, rules: str = "charts-v1", **kw: Any) -> State:
    """A graded cohort A1 at 1009 (facing 12) and an enemy B1 at 1008 (facing 6), both TQ 6, size 6;
    the attacking side is to act in its Shock segment."""
    return position(
        [_cohort("A1", "A", "1009", grade, **kw), unit("B1", "B", "1008", 6, enemy)],
        rules=rules,
        sequence={"side": "A" if cohort_attacks else "B", "phase": "shock"},
    )


def _weapons(state: State, attacker: str, defender: str) -> int:
    return plan_shock(state, Shock((attacker,), defender)).drms.get("weapons", 0)


# -- the model ---------------------------------------------------------------------------------
def test_a_graded_cohort_is_a_cohort_of_legionary_heavy_foot() -> None:
    st = position(
        [_cohort(f"A{k}", "A", f"{10 + 2 * k}09", g) for k, g in enumerate(GRADES)] + [_cohort("A9", "A", "2009", None)]
    )
    for k, g in enumerate(GRADES):
        u = st.units[f"A{k}"]
        assert (u.type, u.grade) == ("CO", g)
        assert u.cls == CLASS_INDEX["heavy_foot"] == st.units["A9"].cls  # 002 TEC: the HF column
        assert st.copy().units[u.id].grade == g
    assert st.units["A9"].grade is None


def test_only_a_cohort_has_a_grade() -> None:
    with pytest.raises(InputError, match=r"units\[0\]\.grade: only a cohort \(CO\) has a grade"):
        position([unit("A1", "A", "1009", utype="HI", grade="veteran")])


# -- 002's matrix --------------------------------------------------------------------------------
@pytest.mark.parametrize("grade", GRADES)
@pytest.mark.parametrize("enemy", ENEMIES)
def test_a_cohort_attacks_on_its_grade_row(grade: str, enemy: str) -> None:
    st = _duel(grade, enemy, cohort_attacks=True)
    want = charts.weapons_drm("charts-v1", FILED_WITH[grade], enemy, frontal_moving=True)
    assert _weapons(st, "A1", "B1") == want


@pytest.mark.parametrize("grade", GRADES)
@pytest.mark.parametrize("enemy", ATTACKERS)
def test_a_cohort_defends_on_its_grade_column(grade: str, enemy: str) -> None:
    st = _duel(grade, enemy, cohort_attacks=False)
    want = charts.weapons_drm("charts-v1", enemy, FILED_WITH[grade], frontal_moving=True)
    assert _weapons(st, "B1", "A1") == want


def test_the_cells_where_the_grades_part() -> None:
    """Values read off docs/rules/tactical-charts.md §2.5 (front, attack by a moving unit)."""
    attack_li = {g: _weapons(_duel(g, "LI", cohort_attacks=True), "A1", "B1") for g in GRADES}
    assert attack_li == {"veteran": 3, "recruit": 3, "conscript": -1}
    by_bi = {g: _weapons(_duel(g, "BI", cohort_attacks=False), "B1", "A1") for g in GRADES}
    assert by_bi == {"veteran": -1, "recruit": 0, "conscript": 0}
    by_mi = {g: _weapons(_duel(g, "MI", cohort_attacks=False), "B1", "A1") for g in GRADES}
    assert by_mi == {"veteran": 0, "recruit": -1, "conscript": -1}
    by_li = {g: _weapons(_duel(g, "LI", cohort_attacks=False), "B1", "A1") for g in GRADES}
    assert by_li == {"veteran": -4, "recruit": -4, "conscript": -1}
    # an ungraded cohort is a recruit cohort (weapons_charts_v1.toml [alias])
    assert _weapons(_duel(None, "LI", cohort_attacks=False), "B1", "A1") == by_li["recruit"]
    assert _weapons(_duel(None, "BI", cohort_attacks=False), "B1", "A1") == by_bi["recruit"]


@pytest.mark.parametrize("rules", ["sgboh", "simple-spqr"])
def test_003s_matrix_files_every_grade_with_heavy_infantry(rules: str) -> None:
    for enemy in ("LI", "BI", "MI", "HC"):
        att = {g: _weapons(_duel(g, enemy, cohort_attacks=True, rules=rules), "A1", "B1") for g in GRADES}
        dfd = {g: _weapons(_duel(g, enemy, cohort_attacks=False, rules=rules), "B1", "A1") for g in GRADES}
        assert set(att.values()) == {charts.weapons_drm(rules, "HI", enemy, frontal_moving=True)}
        assert set(dfd.values()) == {charts.weapons_drm(rules, enemy, "HI", frontal_moving=True)}


@pytest.mark.parametrize("enemy", ("LI", "BI", "MI", "HC", "DD"))
def test_exact_odds_part_only_where_the_matrix_does(enemy: str) -> None:
    """With the same TQ and size, the odds of two grades are equal exactly when 002's cells are."""

    def odds(grade: str, attacks: bool) -> Any:
        if enemy == "DD":
            st = position(
                [
                    _cohort("A1", "A", "1009", grade),
                    unit("B1", "B", "1008", 6, "PH", hex2="0908", double_depth=True, ma=4),
                ],
                rules="charts-v1",
                sequence={"side": "A" if attacks else "B", "phase": "shock"},
            )
        else:
            st = _duel(grade, enemy, cohort_attacks=attacks)
        return shock_odds(st, Shock(("A1",), "B1") if attacks else Shock(("B1",), "A1"))

    enemy_type = "DD PH" if enemy == "DD" else enemy
    for attacks in (True, False):
        for a, b in (("veteran", "recruit"), ("recruit", "conscript"), ("veteran", "conscript")):
            if attacks:
                cells = [
                    charts.weapons_drm("charts-v1", FILED_WITH[g], enemy_type, frontal_moving=True) for g in (a, b)
                ]
            else:
                cells = [
                    charts.weapons_drm("charts-v1", enemy_type, FILED_WITH[g], frontal_moving=True) for g in (a, b)
                ]
            assert (odds(a, attacks) == odds(b, attacks)) == (cells[0] == cells[1]), (attacks, a, b, cells)


# -- everything else: legionary heavy foot ------------------------------------------------------
@pytest.mark.parametrize("grade", GRADES)
def test_every_grade_has_the_pilum_and_no_missile_fire(grade: str) -> None:
    st = _duel(grade, "HI", cohort_attacks=True, missile="J")
    assert plan_shock(st, Shock(("A1",), "B1")).drms.get("pilum") == 1  # 000 §8.14
    assert not charts.may_fire("CO", "J")
    moving = position(
        [_cohort("A1", "A", "1009", grade, missile="J"), unit("B1", "B", "1007", 6, "LI")],
        rules="charts-v1",
        sequence={"side": "A", "phase": "move"},
    )
    assert not any(isinstance(a, Fire) for a in legal_actions(moving))


def test_every_grade_is_a_heavy_missile_target() -> None:
    """002's armoured-target DRM (+1 for the firer) covers every cohort grade (missile.toml)."""

    def odds(target: dict[str, Any]) -> Any:
        st = position(
            [unit("A1", "A", "1009", 12, "SK", missile="S", ma=8), target],
            rules="charts-v1",
            sequence={"side": "A", "phase": "move"},
        )
        return fire_odds(st, Fire("A1", "B1"))

    graded = [odds(_cohort("B1", "B", "1007", g, facing=6)) for g in GRADES]
    assert graded[0] == graded[1] == graded[2] == odds(unit("B1", "B", "1007", 6, "HI"))
    assert graded[2] != odds(unit("B1", "B", "1007", 6, "MI"))


# -- the civil-war scenarios ----------------------------------------------------------------------
@pytest.mark.parametrize("name", ["pharsalus", "thapsus", "munda", "bagradas", "zela", "ruspina"])
def test_civil_war_cohorts_are_graded_legionaries_with_the_pilum(name: str) -> None:
    st = load_scenario(resolve(name)).state
    cohorts = [u for u in st.units.values() if u.type == "CO"]
    assert cohorts
    assert all(u.grade in GRADES and u.roman and u.missile == "J" for u in cohorts)
    assert not [u for u in st.units.values() if u.grade is not None and u.type != "CO"]


def test_the_attacker_may_name_a_grade_as_his_weapons_system() -> None:
    """003 §8.3 / 002's note: the attacker picks the type that fights; "CO" names the best cohort,
    "CO(Con)" the conscript's row even when a veteran attacks beside it."""
    st = position(
        [
            _cohort("A1", "A", "1009", "veteran"),
            _cohort("A2", "A", "1109", "conscript"),
            unit("B1", "B", "1008", 6, "LI"),
        ],
        rules="charts-v1",
        sequence={"side": "A", "phase": "shock"},
    )
    picks = {w: plan_shock(st, Shock(("A1", "A2"), "B1", weapon=w)) for w in (None, "CO", "CO(Vet)", "CO(Con)")}
    assert {w: (p.weapon, p.drms["weapons"]) for w, p in picks.items()} == {
        None: ("CO(Vet)", 3),
        "CO": ("CO(Vet)", 3),
        "CO(Vet)": ("CO(Vet)", 3),
        "CO(Con)": ("CO(Con)", -1),
    }
    with pytest.raises(RuleError, match="No attacking unit is of type CO\\(Rec\\)"):
        plan_shock(st, Shock(("A1", "A2"), "B1", weapon="CO(Rec)"))
