"""The combat charts (tactical/charts.py, tactical/data/*.toml) pinned against the seeds.

003's tables are transcribed here a second time, independently of the data files, and every
cell is compared; 002's reconstructed tables are pinned on the cells read cleanly from the
OCR and on the documented reconstruction rules.  Broken copies of every file must be
refused with an InputError naming the file, the place and the problem.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bellum.errors import InputError
from tactical import charts as C

DATA = C.DATA
SHARED_CASES = Path(__file__).resolve().parents[3] / "shared" / "cases" / "tactical"

# --- 003 Weapons System DRM Matrix, typed again from the seed: columns = attacker --------
ATT = ["PH", "HI", "LP", "LI", "HC", "LN", "LC", "EL", "CH"]
MATRIX_003 = {
    "PH": [0, 0, -2, -4, "[-3]", -2, -4, -2, 0],
    "HI": [1, 0, -1, -4, "[-3]", -2, -3, 0, 1],
    "LP": [3, 2, 0, -1, "[-1]", -1, -1, 3, 2],
    "LI": [3, 3, 1, 0, 1, 0, -1, 3, 2],
    "SK": [5, 5, 4, 3, 5, 5, 4, 5, 5],
    "HC": [1, 1, 0, -1, 0, -1, -2, 5, 3],
    "LN": [1, 1, 0, 0, 2, 0, 0, 5, 4],
    "LC": [2, 2, 0, 1, 2, 1, 0, 5, 4],
    "EL": [-1, -1, -3, -3, "NA", "NA", "NA", 0, 0],
    "CH": [-1, -1, -2, 2, -3, -3, -4, 0, 0],
}


def _cells_003() -> list[tuple[str, str, object]]:
    return [(a, d, row[i]) for d, row in MATRIX_003.items() for i, a in enumerate(ATT)]


@pytest.mark.parametrize(("attacker", "defender", "printed"), _cells_003())
def test_every_003_cell_front(attacker: str, defender: str, printed: object) -> None:
    got = C.weapons_drm("sgboh", attacker, defender)
    if printed == "NA":
        assert got is None
    elif isinstance(printed, str):
        assert got == int(printed.strip("[]"))
    else:
        assert got == printed


@pytest.mark.parametrize(("attacker", "defender", "printed"), _cells_003())
def test_every_003_cell_flank_or_rear(attacker: str, defender: str, printed: object) -> None:
    got = C.weapons_drm("sgboh", attacker, defender, flank_or_rear=True)
    if printed == "NA":
        assert got is None
    elif isinstance(printed, str):
        assert got == 0  # bracketed: HC through flank or rear counts 0
    else:
        assert got == printed


def test_shared_case_cells() -> None:
    # shock-hi-charge-routs-li: HI attacking LI +3
    assert C.weapons_drm("sgboh", "HI", "LI") == 3
    # shock-light-cavalry-repulsed: LC attacking HI -3
    assert C.weapons_drm("sgboh", "LC", "HI") == -3
    # shock-flank-on-disordered: HI vs HI 0 (through the flank: still 0, not bracketed)
    assert C.weapons_drm("sgboh", "HI", "HI", flank_or_rear=True) == 0
    # shock-cavalry-may-not-attack-elephants: NA
    assert C.weapons_drm("sgboh", "HC", "EL") is None
    assert "EL" in (C.attack_refusal("sgboh", "HC", "EL") or "")
    # shock-skirmishers-may-not-attack
    assert C.weapons_drm("sgboh", "SK", "LI") is None
    assert "003 §9.3" in (C.attack_refusal("sgboh", "SK", "LI") or "")
    assert C.attack_refusal("sgboh", "HI", "LI") is None


def _shared_shock_cases() -> list[Path]:
    return sorted(SHARED_CASES.glob("shock-*.toml"))


@pytest.mark.skipif(not SHARED_CASES.exists(), reason="shared cases not present")
def test_shared_shock_case_rolls_read_on_the_table() -> None:
    # Every shared shock case with a drm, a die and a result must agree with the table.
    checked = 0
    for path in _shared_shock_cases():
        case = tomllib.loads(path.read_text())
        for step in case["steps"]:
            exp = step.get("expect", {})
            if step.get("do") == "shock" and "drm" in exp and "result" in exp:
                roll = step["dice"][0] + exp["drm"]
                assert C.shock_result(case["rules"], roll).result == exp["result"], path.name
                checked += 1
    assert checked >= 3


def test_note_a_frontal_moving_attack_on_phalanx() -> None:
    assert C.weapons_drm("sgboh", "HI", "PH", frontal_moving=True) == -1
    assert C.weapons_drm("sgboh", "LP", "PH", frontal_moving=True) == -3
    # not frontal: the note does not apply
    assert C.weapons_drm("sgboh", "HI", "PH", frontal_moving=True, flank_or_rear=True) == 0
    # only against PH (and the types that defend as PH)
    assert C.weapons_drm("sgboh", "HI", "HI", frontal_moving=True) == 0
    assert C.weapons_drm("sgboh", "HI", "DD PH", frontal_moving=True) == -1


def test_note_b_cataphract() -> None:
    assert C.weapons_drm("sgboh", "LI", "HC", cataphract=True) == -2
    assert C.weapons_drm("sgboh", "HC", "HC", cataphract=True) == -1
    assert C.weapons_drm("sgboh", "LI", "LC", cataphract=True) == 1  # not HC: no note


def test_brackets_only_for_hc_through_flank() -> None:
    assert C.weapons_drm("sgboh", "HC", "HI") == -3
    assert C.weapons_drm("sgboh", "HC", "HI", flank_or_rear=True) == 0
    assert C.weapons_drm("sgboh", "HC", "LP", flank_or_rear=True) == 0
    assert C.weapons_drm("sgboh", "LN", "PH", flank_or_rear=True) == -2  # LN cells are not bracketed
    assert C.load_charts("sgboh").weapons.separate_flank_drm is True


def test_003_aliases() -> None:
    assert C.weapons_drm("sgboh", "SK*", "HI") == C.weapons_drm("sgboh", "LI", "HI") == -4  # 003 §9.3
    assert C.weapons_drm("sgboh", "HI", "SK*") == 5
    assert C.weapons_drm("sgboh", "RC", "LI") == C.weapons_drm("sgboh", "HC", "LI") == 1
    assert C.weapons_drm("sgboh", "LG", "LI") == 3
    assert C.weapons_drm("sgboh", "HO", "PH") == 0
    assert C.weapons_drm("sgboh", "AT", "HI") is None
    assert C.weapons_drm("sgboh", "HI", "AT") == 5
    assert C.weapons_drm("simple-spqr", "BC", "EL") is None


@pytest.mark.parametrize("ruleset", C.RULESETS)
def test_every_type_pair_resolves(ruleset: str) -> None:
    w = C.load_charts(ruleset).weapons
    for a in C.UNIT_TYPES:
        for d in C.UNIT_TYPES:
            for flank in (False, True):
                got = C.weapons_drm(ruleset, a, d, flank_or_rear=flank)
                assert got is None or -C.MAX_CELL <= got <= C.MAX_CELL
                if a not in w.may_not_attack:
                    assert (a, d) in w.front
    # printed shape
    if ruleset == "charts-v1":
        assert len(w.printed_defenders) == 17 and len(w.printed_attackers) == 17
    else:
        assert w.printed_attackers == tuple(ATT)
        assert w.printed_defenders == tuple(MATRIX_003)


def test_unknown_type_and_ruleset_are_errors() -> None:
    with pytest.raises(ValueError, match="unknown unit type"):
        C.weapons_drm("sgboh", "XX", "HI")
    with pytest.raises(ValueError, match="unknown ruleset"):
        C.weapons_drm("gboh", "HI", "HI")


# --- 002 matrix (charts-v1) ------------------------------------------------------------


def test_v1_clean_cells() -> None:
    v = "charts-v1"
    # light troops against cavalry: the clean "-1 +2 / 0 +2" pairs of the LP row
    for d, front in (("HC", -1), ("RC", -1), ("BC", -1), ("LN", 0), ("LC", 0)):
        assert C.weapons_drm(v, "LP", d) == front
        assert C.weapons_drm(v, "LP", d, flank_or_rear=True) == 2
    assert C.weapons_drm(v, "LP", "PH") == -2
    assert C.weapons_drm(v, "LP", "EL") == 1
    # barbarian infantry row (25 tokens, every cell placed)
    assert [C.weapons_drm(v, "BI", d) for d in ("LG", "HI", "MI", "BI", "LP", "LI")] == [-1, 0, 0, 0, 0, 0]
    assert C.weapons_drm(v, "BI", "SK") == 4 and C.weapons_drm(v, "BI", "SK", flank_or_rear=True) == 4
    assert C.weapons_drm(v, "BI", "CH") == -2 and C.weapons_drm(v, "BI", "GC", flank_or_rear=True) == 2
    # chariots and double-depth phalanx
    assert [C.weapons_drm(v, "CH", d) for d in ("PH", "DD PH", "HI", "MI", "BI", "LP", "LI")] == [0, -1, 0, 1, 1, 1, 1]
    assert C.weapons_drm(v, "DD PH", "PH") == 1 and C.weapons_drm(v, "DD HO", "DD PH") == 0
    # elephants
    assert C.weapons_drm(v, "EL", "LI") == -1 and C.weapons_drm(v, "EL", "BI") == 1
    # cavalry may not attack elephants; SK may not attack
    assert C.weapons_drm(v, "HC", "EL") is None and C.weapons_drm(v, "LC", "EL", flank_or_rear=True) is None
    assert C.weapons_drm(v, "SK", "LI") is None
    assert C.weapons_drm(v, "SK*", "LP") == -1 and C.weapons_drm(v, "SK*", "PH", flank_or_rear=True) == 2
    assert C.load_charts(v).weapons.separate_flank_drm is False


def test_v1_groups_and_aliases() -> None:
    v = "charts-v1"
    for d in C.UNIT_TYPES:
        assert C.weapons_drm(v, "CO(Vet)", d) == C.weapons_drm(v, "LG", d)
        assert C.weapons_drm(v, "CO(Con)", d) == C.weapons_drm(v, "MI", d)
        assert C.weapons_drm(v, "CO", d) == C.weapons_drm(v, "CO(Rec)", d) == C.weapons_drm(v, "HI", d)
        assert C.weapons_drm(v, "HO", d) == C.weapons_drm(v, "HI", d)
        assert C.weapons_drm(v, d, "DD HO") == C.weapons_drm(v, d, "DD PH")
        assert C.weapons_drm(v, d, "SK*") == C.weapons_drm(v, d, "SK")
        assert C.weapons_drm(v, d, "AT") == C.weapons_drm(v, d, "SK")
    # notes a and b are 003's only
    assert C.weapons_drm(v, "HI", "PH", frontal_moving=True) == C.weapons_drm(v, "HI", "PH")
    assert C.weapons_drm(v, "LI", "HC", cataphract=True) == C.weapons_drm(v, "LI", "HC")


def test_v1_derivation_rules_hold_for_derived_cells() -> None:
    """A cell marked 'derived' equals 003's cell for the mapped types; a 'rule' flank is
    max(front, +2)."""
    w = C.load_charts("charts-v1").weapons
    raw = tomllib.loads((DATA / "weapons_charts_v1.toml").read_text())
    cols = raw["columns"]
    att_map = {"PH": "PH", "DD": "PH", "LG": "HI", "HI": "HI", "MI": "HI", "BI": "HI", "LI": "LI", "LP": "LP"}
    att_map |= {"SK*": "LI", "HC": "HC", "RC": "HC", "BC": "HC", "LN": "LN", "LC": "LC", "EL": "EL", "CH": "CH"}
    att_map |= {"GC": "LC"}
    def_map = dict(att_map) | {"SK": "SK"}
    n_derived = n_rule = 0
    for row in raw["row"]:
        r = row["attacker"]
        for j, c in enumerate(cols):
            for part in ("front", "flank_rear"):
                reason = w.uncertain.get((r, c, part))
                if reason is None or not reason.startswith(("derived", "rule")):
                    continue
                value = row[part][j]
                if reason.startswith("rule"):
                    assert value == max(row["front"][j], 2), (r, c)
                    n_rule += 1
                    continue
                n_derived += 1
                printed = MATRIX_003[def_map[c]][ATT.index(att_map[r])]
                if printed == "NA":
                    assert value == "NA"
                    continue
                base = int(printed.strip("[]")) if isinstance(printed, str) else printed
                base += (r == "DD") - (c == "DD")
                if part == "front":
                    assert value == base, (r, c)
                else:
                    assert value == max(0 if isinstance(printed, str) else base, 2), (r, c)
    assert n_derived > 100 and n_rule > 20


def test_v1_uncertain_cells_are_listed_with_reasons() -> None:
    unc = C.uncertain_cells("charts-v1")
    assert len(unc) == 478  # of 17 x 17 x 2 = 578 cells; docs/rules/tactical-charts.md §2.5
    kinds = {reason.split(":")[0] for reason in unc.values()}
    assert kinds == {"derived", "rule", "sign lost", "inferred"}
    # rows garbled by colour in the OCR are wholly derived
    for row in ("PH", "LG", "HI", "GC"):
        assert all(
            (row, c, p) in unc
            for c in C.load_charts("charts-v1").weapons.printed_defenders
            for p in ("front", "flank_rear")
        )
    # a clean cell is not listed
    assert ("LP", "HC", "front") not in unc
    assert C.uncertain_cells("sgboh") == {}


def test_v1_uncertain_counts_by_kind() -> None:
    kinds: dict[str, int] = {}
    for reason in C.uncertain_cells("charts-v1").values():
        kind = reason.split(":")[0]
        kinds[kind] = kinds.get(kind, 0) + 1
    # the counts docs/rules/tactical-charts.md §7 reports
    assert kinds == {"derived": 328, "rule": 70, "inferred": 46, "sign lost": 34}


def test_v1_docs_table_matches_the_data() -> None:
    """The cell listing of docs/rules/tactical-charts.md §2.5 is the data, mark for mark."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "rules" / "tactical-charts.md").read_text()
    section = doc[doc.index("### 2.5") : doc.index("Per row, what was read")]
    w = C.load_charts("charts-v1").weapons
    letter = {"derived": "d", "rule": "r", "sign lost": "s", "inferred": "i"}
    cell_re = re.compile(r"^(NA|[+-]?\d+)([dris]?)(?: / ([+-]?\d+)([dris]?))?$")
    table = tomllib.loads((DATA / "weapons_charts_v1.toml").read_text())
    rows_seen = []
    for line in section.splitlines():
        parts = [p.strip() for p in line.strip().strip("|").split("|")]
        if not parts or parts[0] not in w.printed_attackers:
            continue
        row = parts[0]
        rows_seen.append(row)
        data_row = next(r for r in table["row"] if r["attacker"] == row)
        for j, (col, text) in enumerate(zip(w.printed_defenders, parts[1:], strict=True)):
            m = cell_re.match(text)
            assert m, (row, col, text)
            front, fmark, flank, lmark = m.groups()
            want_f, want_l = data_row["front"][j], data_row["flank_rear"][j]
            if front == "NA":
                assert want_f == want_l == "NA"
                continue
            assert int(front) == want_f and int(flank) == want_l, (row, col)
            for part, mark in (("front", fmark), ("flank_rear", lmark)):
                reason = w.uncertain.get((row, col, part))
                assert mark == (letter[reason.split(":")[0]] if reason else ""), (row, col, part)
    assert rows_seen == list(w.printed_attackers)


# --- Shock results ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "result", "engaged"),
    [
        (-7, "attacker_routs", False),
        (-1, "attacker_routs", False),
        (0, "attacker_disordered", True),
        (3, "attacker_disordered", True),
        (4, "no_effect", True),
        (5, "no_effect", True),
        (6, "defender_disordered", True),
        (7, "defender_disordered", False),
        (8, "defender_disordered_retreats", False),
        (9, "defender_disordered_retreats", False),
        (10, "defender_routs", False),
        (19, "defender_routs", False),
    ],
)
def test_shock_table(roll: int, result: str, engaged: bool) -> None:
    for ruleset in ("sgboh", "simple-spqr"):
        out = C.shock_result(ruleset, roll)
        assert out.result == result and out.engaged is engaged


def test_shock_table_not_for_v1() -> None:
    with pytest.raises(ValueError, match="shock_result_v1"):
        C.shock_result("charts-v1", 5)


@pytest.mark.parametrize(
    ("att", "dfn", "drm"),
    [(6, 4, 1), (4, 6, -1), (3, 6, -2), (6, 3, 2), (5, 4, 0), (10, 6, 1), (12, 6, 2), (1, 1, 0), (7, 5, 1)],
)
@pytest.mark.parametrize("ruleset", C.RULESETS)
def test_size_ratio(ruleset: str, att: int, dfn: int, drm: int) -> None:
    assert C.size_ratio_drm(ruleset, att, dfn) == drm
    assert C.size_ratio_drm(ruleset, att, dfn, attacker_types=["HI"], defender_types=["LI"]) == drm


def test_size_ratio_exemptions() -> None:
    applies = C.size_ratio_applies
    # 003: not when an EL or CH is involved, unless only EL/CH fight
    assert applies("sgboh", ["HI"], ["LI"])
    assert not applies("sgboh", ["HI"], ["EL"])
    assert not applies("sgboh", ["HI", "CH"], ["HI"])
    assert applies("sgboh", ["EL"], ["CH"])
    assert applies("sgboh", ["SK*"], ["HI"])
    assert C.size_ratio_drm("sgboh", 6, 1, attacker_types=["HI"], defender_types=["EL"]) == 0
    # 002: not when one whole side is EL/CH/SK/SK*, unless both are
    assert not applies("charts-v1", ["SK*"], ["HI"])
    assert applies("charts-v1", ["HI", "EL"], ["HI"])
    assert not applies("charts-v1", ["HI"], ["EL", "SK"])
    assert applies("charts-v1", ["EL"], ["SK"])
    assert C.size_ratio_drm("charts-v1", 1, 6, attacker_types=["SK*"], defender_types=["HI"]) == 0


def test_tq_ratio_capped() -> None:
    assert C.tq_ratio_drm(7, 5) == 2
    assert C.tq_ratio_drm(9, 2) == 3
    assert C.tq_ratio_drm(2, 9) == -3
    assert C.tq_ratio_drm(6, 6) == 0


def test_leader_casualty() -> None:
    one = C.leader_casualty("sgboh")
    assert (one.kill_on, one.rolls) == (0, 1)  # 003 §8.3: a single 0 kills
    assert C.leader_casualty("simple-spqr") == one
    two = C.leader_casualty("charts-v1")
    assert (two.kill_on, two.rolls) == (0, 2)  # 002: a 0, then another 0


# --- 002 Shock Results (charts-v1) -----------------------------------------------------


def test_v1_shock_rows() -> None:
    labels = [C.shock_result_v1(r).label for r in range(-6, 16)]
    assert labels[:14] == ["<-2"] * 4 + ["-2/-1"] * 2 + ["0/1"] * 2 + ["2", "3/4", "3/4", "5/6", "5/6", "7"]
    assert labels[14:] == ["8/9", "8/9", "10/11", "10/11", "12+", "12+", "12+", "12+"]
    e = C.v1_effect
    assert e(12, "defender", has_reduced_side=True).kind == "reduce"
    assert e(12, "defender", has_reduced_side=False).kind == "rout"
    assert e(-3, "attacker", has_reduced_side=False).kind == "rout"
    assert e(-3, "defender", has_reduced_side=False).kind == "none"
    ten = e(10, "defender", has_reduced_side=False)
    assert (ten.kind, ten.add, ten.fail, ten.hits, ten.retreat) == ("check", 2, "rout", 3, True)
    eight = e(8, "defender", has_reduced_side=True)
    assert (eight.kind, eight.add, eight.fail, eight.hits, eight.retreat) == ("check", 0, "reduce", 2, True)
    minus = e(-1, "attacker", has_reduced_side=True)
    assert (minus.kind, minus.add, minus.fail) == ("check", 2, "reduce")
    assert (e(7, "defender", has_reduced_side=False).hits, e(7, "defender", has_reduced_side=False).retreat) == (
        2,
        True,
    )
    assert e(7, "attacker", has_reduced_side=False).hits == 1
    assert (e(2, "attacker", has_reduced_side=True).hits, e(2, "attacker", has_reduced_side=True).retreat) == (2, True)
    assert [e(r, "defender", has_reduced_side=False).hits for r in (2, 3, 4, 5, 6)] == [1, 1, 1, 2, 2]
    assert [e(r, "attacker", has_reduced_side=False).hits for r in (3, 4, 5, 6)] == [2, 2, 1, 1]
    assert C.shock_result_v1(12).stack == "all" and C.shock_result_v1(8).stack == "top"
    assert C.shock_result_v1(5).stack is None
    k = C.v1_constants()
    assert (k.reduce_tq_loss, k.reduced_keeps_hits, k.no_retreat_hits) == (2, "half_round_down", 2)


def test_v1_shock_table_is_symmetric() -> None:
    """002's table mirrors around 4.5: what roll r does to the defender, roll 9-r does to
    the attacker (2 <-> 7, 3/4 <-> 5/6, 0/1 <-> 8/9, -2/-1 <-> 10/11, <-2 <-> 12+)."""
    for r in range(-6, 16):
        for reduced in (True, False):
            assert C.v1_effect(r, "defender", has_reduced_side=reduced) == C.v1_effect(
                9 - r, "attacker", has_reduced_side=reduced
            )


# --- Rally -----------------------------------------------------------------------------

RALLY_003 = {  # TQ band: (F high, D high) — R above
    (1, 3): (1, 3),
    (4, 5): (2, 5),
    (6, 7): (3, 6),
    (8, 9): (4, 8),
}


@pytest.mark.parametrize("tq", range(1, 10))
def test_rally_table_every_cell(tq: int) -> None:
    f_hi, d_hi = next(v for (lo, hi), v in RALLY_003.items() if lo <= tq <= hi)
    for roll in range(10):
        expect = "F" if roll <= f_hi else "D" if roll <= d_hi else "R"
        assert C.rally_band(tq, roll) == expect


def test_rally_results_and_modifiers() -> None:
    # rally-table case: TQ 6 disordered, die 5 - 2 = 3 -> full
    assert C.rally_drm(disordered=True, leader=False) == -2
    assert C.rally_result(6, 5 + C.rally_drm(disordered=True, leader=False)) == "full"
    # routed units rally as TQ 1: die 2 -> back to disordered
    assert C.rally_result(7, 2, routed=True) == "disordered"
    assert C.rally_result(9, 4, routed=True) == "eliminated"
    assert C.rally_result(9, 0, routed=True) == "full"
    assert C.rally_result(5, 7) == "routed"
    assert C.rally_result(5, 4) == "disordered"
    assert C.rally_drm(disordered=True, leader=True) == -3
    assert C.rally_drm(disordered=False, leader=True) == -1
    assert C.rally_band(8, -3) == "F" and C.rally_band(1, 12) == "R"
    with pytest.raises(ValueError):
        C.rally_band(0, 3)


# --- Pursuit ---------------------------------------------------------------------------

PURSUIT_003 = {  # TQ band: (HC, LN, LC) highest pursuing roll
    (1, 4): (8, 6, 5),
    (5, 5): (6, 4, 3),
    (6, 6): (5, 3, 2),
    (7, 7): (4, 2, 2),
    (8, 9): (2, 1, 0),
}


@pytest.mark.parametrize("tq", range(1, 10))
def test_pursuit_every_cell(tq: int) -> None:
    highs = next(v for (lo, hi), v in PURSUIT_003.items() if lo <= tq <= hi)
    for unit, high in zip(("HC", "LN", "LC"), highs, strict=True):
        assert C.pursuit_range(unit, tq) == range(0, high + 1)


def test_pursuit_rolls_and_aliases() -> None:
    assert C.pursues("HC", 7, 4) and not C.pursues("HC", 7, 5)
    assert not C.pursues("HC", 7, 4, leader=True)  # +1 with a leader
    assert C.pursues("LC", 8, 0) and not C.pursues("LC", 8, 0, leader=True)
    assert C.pursuit_range("RC", 5) == C.pursuit_range("HC", 5)
    assert C.pursuit_range("GC", 6) == C.pursuit_range("LC", 6)
    assert C.pursuing_types() == {"HC", "LN", "LC", "RC", "BC", "GC"}
    with pytest.raises(ValueError, match="pursues"):
        C.pursuit_range("HI", 5)


# --- Missile ---------------------------------------------------------------------------


def test_missile_hit_numbers() -> None:
    assert [C.missile_hit_number("J", r) for r in (1, 2, 3)] == [4, 2, None]
    assert [C.missile_hit_number("MJ", r) for r in (1, 2, 3)] == [3, 1, None]
    assert [C.missile_hit_number("S", r) for r in range(1, 6)] == [4, 3, 2, 1, None]
    assert C.missile_hit_number("S", 5, in_tower=True) == 0  # 002's garbled 'Qe' read as '0c' (§3.1)
    assert C.missile_hit_number("A", 6) is None and C.missile_hit_number("A", 6, in_tower=True) == 0
    assert C.missile_range("A") == 5 and C.missile_range("A", in_tower=True) == 6
    assert C.missile_hit_number("C", 1) == 4
    # the ballista's four legible cells merged two by two over eight columns (§3.1 R7)
    assert [C.missile_hit_number("ballista", r) for r in range(1, 9)] == [3, 3, 2, 2, 1, 1, None, None]
    assert C.missile_hit_number("ballista", 8, in_tower=True) == 0
    assert C.missile_hit_number("dart", 1, target_type="HI") is None
    assert C.missile_hit_number("dart", 1, target_type="EL") == 4
    assert C.missile_hit_number("J", 0) is None
    with pytest.raises(ValueError):
        C.missile_hit_number("X", 1)
    # hit numbers never rise with range
    chart = C.load_charts("sgboh").missile
    for mt in chart.types.values():
        assert list(mt.hit) == sorted(mt.hit, reverse=True)
        assert mt.derivation  # every row says how it is derived (tactical-charts.md §3.1)
    # what the rules fix (§3.1 R3, R5): footnote-c cells are tower ranges of 0; javelins and
    # mounted archers reach two hexes (002 GC note; 000 §6.55)
    for name, mt in chart.types.items():
        for cell in mt.read:
            if cell.endswith("c"):
                assert mt.hit[-1] == 0 and len(mt.hit) in mt.tower_only, name
    assert all(len(chart.types[t].hit) >= 2 for t in ("J", "MJ", "MA"))
    assert {n for n, mt in chart.types.items() if mt.status == "derived"} == {"C", "scorpion", "ballista"}


def test_missile_drms_each_modifier() -> None:
    assert C.missile_drms("A", "LI") == 0
    assert C.missile_drms("A", "LI", firer_hits=2) == 2
    assert C.missile_drms("A", "LI", firer_moved=True) == 1
    assert C.missile_drms("J", "LI", firer_moved=True) == 0  # foot javelins: no moving-fire DRM
    assert C.missile_drms("MJ", "LI", firer_moved=True, firer_mounted=True) == 1
    assert C.missile_drms("ballista", "EL") == -1
    assert C.missile_drms("A", "EL", hit_and_run=True) == 1
    assert C.missile_drms("J", "EL", hit_and_run=True) == 3
    assert C.missile_drms("A", "HI") == 1
    assert C.missile_drms("A", "PH") == 1
    assert C.missile_drms("A", "HC") == 0 and C.missile_drms("A", "HC", target_cataphract=True) == 1
    assert C.missile_drms("A", "LI", target_missile="S") == 1  # a non-SK slinger unit
    assert C.missile_drms("A", "SK", target_missile="S") == 0
    assert C.missile_drms("J", "LI", hit_and_run=True) == 2
    assert C.missile_drms("S", "HI", adjacent_frontal=True) == 2
    assert C.missile_drms("J", "HI", adjacent_frontal=True) == 1
    ids = {d.id for d in C.load_charts("sgboh").missile.drms.values() if d.terrain}
    assert ids == {"target_lower", "target_in_woods"}


def test_missile_restrictions() -> None:
    assert not C.may_fire("EL", "A")
    assert not C.may_fire("LG", "J")  # 000 §8.14
    assert not C.may_fire("CO(Vet)", "J")
    assert C.may_fire("LI", "J")
    assert not C.may_fire("LI", None)


# --- Terrain ---------------------------------------------------------------------------


def test_terrain_003() -> None:
    t = C.terrain_shock_drm
    m = C.terrain_missile_drm
    for ruleset in ("sgboh", "simple-spqr"):
        assert t(ruleset) == 0
        assert [t(ruleset, terrain=x) for x in ("woods", "rough", "marsh", "town")] == [-1, -1, -1, 0]
        assert [m(ruleset, terrain=x) for x in ("woods", "rough", "marsh")] == [1, 0, 0]
        assert t(ruleset, works="abatis") == -1 and m(ruleset, works="abatis") == 1
        assert t(ruleset, works="city_walls") is None and m(ruleset, works="city_walls") is None
        assert [t(ruleset, level_difference=d) for d in (-3, -1, 0, 1, 2, 3, 4)] == [1, 1, 0, -1, -2, -2, -2]
        assert [m(ruleset, level_difference=d) for d in (-2, -1, 0, 1, 2, 3)] == [-1, -1, 0, 0, 1, 1]
        assert t(ruleset, hexsides=["major_river"]) == -2
        assert t(ruleset, hexsides=["minor_river"]) == t(ruleset, hexsides=["steep_bank"]) == -1
        assert t(ruleset, hexsides=["stream"]) == 0
        assert t(ruleset, hexsides=["stream", "major_river"]) == -2
        assert t(ruleset, terrain="woods", level_difference=1, hexsides=["minor_river"]) == -3
    with pytest.raises(ValueError):
        t("sgboh", works="wall")


def test_terrain_002_fortifications() -> None:
    v = "charts-v1"
    t = C.terrain_shock_drm
    m = C.terrain_missile_drm
    assert t(v, terrain="woods") == -1
    assert t(v, works="ditch_berm") == -2
    assert t(v, works="wall") == -3 and t(v, works="tower_wall") == -4
    assert m(v, works="wall", missile_type="J") == 2
    assert m(v, works="wall", missile_type="A") == 1
    assert m(v, works="tower_rampart", missile_type="MJ") == 3
    assert m(v, works="wall", missile_type="ballista") is None
    assert m(v, level_difference=2) == 0
    assert m(v, level_difference=-1) == -1
    with pytest.raises(ValueError, match="missile_type"):
        m(v, works="wall")
    assert C.load_charts(v).terrain.uncertain
    assert C.missile_class("BS") == "S" and C.missile_class("MA") == "A" and C.missile_class("scorpion") == "AT"


# --- Immutability, caching, purity -----------------------------------------------------


def test_tables_are_immutable_and_cached() -> None:
    ch = C.load_charts("sgboh")
    assert C.load_charts("sgboh") is ch
    with pytest.raises(TypeError):
        ch.weapons.front[("HI", "LI")] = 9  # type: ignore[index]
    with pytest.raises(AttributeError):
        ch.ruleset = "x"  # type: ignore[misc]
    with pytest.raises(ValueError):
        ch.weapons.notes[0].drm = 3  # type: ignore[misc]
    C.validate_all()


def test_charts_do_not_import_arcade() -> None:
    code = "import sys, tactical.charts as c; c.validate_all(); assert 'arcade' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


# --- Broken data files -----------------------------------------------------------------


def _broken(tmp_path: Path, name: str, old: str, new: str, count: int = 1) -> Path:
    fname = {
        "weapons_sgboh": "weapons_sgboh.toml",
        "weapons_charts_v1": "weapons_charts_v1.toml",
        "shock_results": "shock_results.toml",
        "shock_results_charts_v1": "shock_results_charts_v1.toml",
        "missile": "missile.toml",
        "rally": "rally.toml",
        "pursuit": "pursuit.toml",
        "terrain_combat": "terrain_combat.toml",
    }[name]
    text = (DATA / fname).read_text()
    assert old in text, f"{old!r} not in {fname}"
    path = tmp_path / fname
    path.write_text(text.replace(old, new, count))
    return path


BROKEN = [
    # (table, old text, new text, place (regex), problem (regex))
    ("weapons_sgboh", 'defender = "LP"', 'defender = "XX"', r"row\[2\]\.defender", "not a unit type"),
    ("weapons_sgboh", "cells = [3, 2, 0, -1,", "cells = [2, 0, -1,", r"row\[2\]\.cells", "has 8 cells"),
    ("weapons_sgboh", "cells = [5, 5, 4, 3,", "cells = [15, 5, 4, 3,", r"row\[4\]\.cells\[0\]", "outside"),
    ("weapons_sgboh", '"[-3]"', '"[x]"', r"row\[0\]\.cells\[4\]", "bracketed"),
    ("weapons_sgboh", '"NA", "NA", "NA"', '"N/A", "NA", "NA"', r"row\[8\]\.cells\[4\]", "neither"),
    ("weapons_sgboh", 'defender = "CH"', 'defender = "EL"', r"row\[9\]\.defender", "second row"),
    (
        "weapons_sgboh",
        'MI = "HI"\nBI = "HI"\nRC = "HC"\nBC = "HC"\nGC = "LC"\n\n[alias.defender]',
        "[alias.defender]",
        r"alias\.attacker",
        "without a row or column",
    ),
    ("weapons_sgboh", '"SK*" = "LI"', '"SK*" = "MI"', r"alias\.attacker\.SK\*", "does not print"),
    ("weapons_sgboh", 'condition = "cataphract"', 'condition = "armoured"', r"note\[1\]\.condition", "frontal_moving"),
    ("weapons_sgboh", 'attackers = ["HC"]', 'attackers = ["HI"]', r"row PH, column HC", "bracketed"),
    ("weapons_sgboh", "source =", "sauce =", r"source", "required"),
    ("weapons_charts_v1", 'HI = ["HI", "CO(Rec)"]', 'HI = ["HI", "CO(Rek)"]', r"groups\.HI\[1\]", "not a unit type"),
    (
        "weapons_charts_v1",
        'attacker = "LP"\nfront = [  -2,',
        'attacker = "LP"\nfront = [',
        r"row\[7\]\.front",
        "has 16 cells",
    ),
    (
        "weapons_charts_v1",
        'columns = ["PH", "DD", "HI", "MI", "BI", "HC", "RC", "BC"]',
        'columns = ["PH", "DD", "HX"]',
        r"row\[\d+\]\.uncertain\[\d+\]\.columns",
        "not a defender column",
    ),
    ("weapons_charts_v1", 'AT = "SK"', 'AT = "QQ"', r"alias\.defender\.AT", "does not print"),
    ("weapons_charts_v1", 'MI = ["MI", "CO(Con)"]', 'MI = ["MI", "CO(Rec)"]', "columns", "both HI and MI"),
    ("weapons_charts_v1", 'attacker = "GC"', 'attacker = "LC"', r"row\[16\]\.attacker", "second row"),
    (
        "weapons_charts_v1",
        '[alias.defender]\nHO = "HI"\nCO = "CO(Rec)"\nAT = "SK"',
        "[alias.defender]",
        "columns",
        "no defender column",
    ),
    ("shock_results", "min = 4\nmax = 5", "min = 5\nmax = 5", r"band\[2\]\.min", "right after"),
    ("shock_results", 'result = "no_effect"', 'result = "attacker_disordered"', "band", "no_effect"),
    ("shock_results", 'result = "no_effect"', 'result = "nothing"', r"band\[2\]\.result", "input should be"),
    ("shock_results_charts_v1", 'label = "7"\nmin = 7', 'label = "7"\nmin = 8', r"row\[6\]", "above max"),
    (
        "shock_results_charts_v1",
        'label = "7"\nmin = 7\nmax = 7',
        'label = "7"\nmin = 8\nmax = 8',
        r"row\[6\]\.min",
        "right after",
    ),
    (
        "shock_results_charts_v1",
        'kind = "check", add = 2, fail = "reduce"',
        'kind = "check", add = 2',
        r"row\[1\]",
        "fail",
    ),
    (
        "shock_results_charts_v1",
        'label = "8/9"\nmin = 8\nmax = 9\nstack = "top"',
        'label = "8/9"\nmin = 8\nmax = 9',
        r"row\[7\]\.stack",
        "which units",
    ),
    (
        "rally",
        "full = [0, 2]\ndisordered = [3, 5]",
        "full = [0, 3]\ndisordered = [3, 5]",
        r"row\[1\]\.disordered",
        "already",
    ),
    ("rally", "tq = [8, 9]", "tq = [8, 8]", "row", "TQ 9"),
    (
        "rally",
        "full = [0, 4]\ndisordered = [5, 8]\nrouts = [9, 9]",
        "full = [0, 4]\ndisordered = [6, 9]\nrouts = [5, 5]",
        r"row\[3\]",
        "F, then D",
    ),
    ("rally", "routed_tq = 1", "routed_tq = 0", "routed_tq", "greater than"),
    ("pursuit", "HC = [0, 6]", "HC = [0, 12]", r"row\[1\]\.HC", "within"),
    ("pursuit", "tq = [7, 7]", "tq = [6, 7]", r"row\[3\]\.tq", "already"),
    ("pursuit", 'GC = "LC"', 'GC = "EL"', r"alias\.GC", "does not print"),
    ("missile", "hit = [4, 2]", "hit = [2, 4]", r"types\.J\.hit\[1\]", "may not rise"),
    ("missile", 'id = "firer_hit"', 'id = "firer_hits"', r"drm\[2\]\.id", "not a modifier"),
    ("missile", "[types.MJ]", "[types.XJ]", r"types", "MJ"),
    ("missile", "tower_only = [6]", "tower_only = [9]", r"types\.BS\.tower_only\[0\]", "not a range"),
    ("missile", 'read = ["4", "0c"]', 'read = ["0c", "4"]', r"types\.C\.read\[1\]", "not in the row in its order"),
    ("missile", 'read = ["4", "0c"]', 'read = ["4", "1c"]', r"types\.C\.read\[1\]", "not in the row in its order"),
    ("missile", 'status = "derived"', 'status = "guessed"', r"types\.C\.status", ""),
    ("missile", 'heavy = ["PH",', 'heavy = ["PX",', r"targets\.heavy\[0\]", "not a unit type"),
    ("terrain_combat", "marsh = { shock = -1, missile = 0 }", "", r"sgboh\.terrain", "marsh"),
    ("terrain_combat", "major_river = -2", "great_river = -2", r"sgboh\.hexside", "major_river"),
    (
        "terrain_combat",
        "[[sgboh.elevation]]\nmin = 2",
        "[[sgboh.elevation]]\nmin = 3",
        r"sgboh\.elevation\[3\]\.min",
        "right after",
    ),
    (
        "terrain_combat",
        "shock = -3, missile = { J = 2, A = 1, S = 1,",
        "shock = -3, missile = { J = 2, A = 1,",
        r"charts-v1\.works\.wall\.missile",
        "S",
    ),
    (
        "terrain_combat",
        "woods = { shock = -1, missile = 1 }",
        "woods = { shock = -11, missile = 1 }",
        r"sgboh\.terrain\.woods\.shock",
        "outside",
    ),
]


@pytest.mark.parametrize(("table", "old", "new", "place", "problem"), BROKEN)
def test_broken_file_is_refused(tmp_path: Path, table: str, old: str, new: str, place: str, problem: str) -> None:
    path = _broken(tmp_path, table, old, new)
    with pytest.raises(InputError) as info:
        C.load_table(table, path)
    err = info.value
    assert err.source == str(path)
    assert re.search(place, err.place) or re.search(place, str(err)), (err.place, str(err))
    assert re.search(problem, err.problem), err.problem


def test_not_toml_and_missing_file(tmp_path: Path) -> None:
    bad = tmp_path / "rally.toml"
    bad.write_text("routed_tq = = 1\n")
    with pytest.raises(InputError, match="not valid TOML"):
        C.load_table("rally", bad)
    with pytest.raises(InputError, match="no such file"):
        C.load_table("rally", tmp_path / "nope.toml")
    with pytest.raises(ValueError, match="unknown chart"):
        C.load_table("weather", bad)


def test_load_charts_from_a_broken_data_dir(tmp_path: Path) -> None:
    for f in DATA.glob("*.toml"):
        (tmp_path / f.name).write_text(f.read_text())
    (tmp_path / "pursuit.toml").write_text((DATA / "pursuit.toml").read_text().replace("LN = [0, 6]", "LN = [0, 16]"))
    with pytest.raises(InputError, match=r"pursuit\.toml: row\[0\]\.LN"):
        C.load_charts("sgboh", tmp_path)
    # the real data dir is unaffected
    assert C.load_charts("sgboh").pursuit.ranges["LN"][1] == range(0, 7)


# --- The system's logic: monotone tables -----------------------------------------------


def test_shock_results_rise_with_the_roll() -> None:
    order = [C.SHOCK_RESULTS.index(C.shock_result("sgboh", r).result) for r in range(-20, 26)]
    assert order == sorted(order)
    severity = {"none": 0, "hits": 1, "check": 2, "reduce": 3, "rout": 4}
    worst = [severity[C.v1_effect(r, "defender", has_reduced_side=False).kind] for r in range(2, 16)]
    assert worst == sorted(worst)


def test_better_troops_rally_better_and_pursue_less() -> None:
    rank = "FDR".index
    for roll in range(10):
        bands = [rank(C.rally_band(tq, roll)) for tq in range(1, 10)]
        assert bands == sorted(bands, reverse=True)  # a higher TQ is never worse off
    for unit in ("HC", "LN", "LC"):
        highs = [C.pursuit_range(unit, tq)[-1] for tq in range(1, 10)]
        assert highs == sorted(highs, reverse=True)
    for tq in range(1, 10):
        assert len(C.pursuit_range("HC", tq)) >= len(C.pursuit_range("LN", tq)) >= len(C.pursuit_range("LC", tq))
