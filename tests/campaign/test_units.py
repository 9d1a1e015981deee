"""The campaign counter set (docs/rules/campaign.md §2–§4): kinds, leaders, units, forces."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from pydantic import ValidationError

from battleboard.tables import tables as battleboard_tables
from bellum.errors import InputError
from campaign.map import roman_world
from campaign.units import (
    BATTLEBOARD_KINDS,
    LEADERS_FILE,
    UNITS_FILE,
    Catalogue,
    Force,
    Unit,
    catalogue,
    engagement_leader,
    engagement_unit,
    force_problems,
    load_catalogue,
)

#: the unit kinds issue 7 names, by our id
ISSUE7_KINDS = (
    "legion",
    "guard",
    "auxiliary",
    "cavalry",
    "engineers",
    "impediti",
    "civis",
    "fleet",
    "phalanx",
    "mob",
    "horse_archers",
    "cataphracts",
    "numidian_cavalry",
    "elephants",
    "horde",
)


@pytest.fixture(scope="module")
def cat() -> Catalogue:
    return catalogue()


def _problems(force: Force, cat: Catalogue) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    force_problems(force, cat, f"force '{force.id}'", lambda p, q: out.append((p, q)))
    return out


def _legion(uid: str, **kw: Any) -> Unit:
    base: dict[str, Any] = {"id": uid, "kind": "legion", "discipline": "V", "strength": 5, "nation": "roman"}
    base.update(kw)
    return Unit(**base)


def _fleet(uid: str) -> Unit:
    return Unit(id=uid, kind="fleet", discipline="R", strength=3, nation="roman")


# --------------------------------------------------------------------------- the catalogue


def test_catalogue_has_every_kind_issue7_names(cat: Catalogue) -> None:
    missing = [k for k in ISSUE7_KINDS if k not in cat.kinds]
    assert not missing


def test_every_kind_maps_to_a_battleboard_kind_the_battleboard_knows(cat: Catalogue) -> None:
    bb = battleboard_tables().units.kinds
    for kid, k in cat.kinds.items():
        assert k.battleboard in BATTLEBOARD_KINDS, kid
        assert k.battleboard in bb, kid


def test_every_battleboard_kind_is_used_by_some_campaign_kind(cat: Catalogue) -> None:
    used = {k.battleboard for k in cat.kinds.values()}
    assert used == set(BATTLEBOARD_KINDS)


def test_fleet_capacity_agrees_with_the_battleboard(cat: Catalogue) -> None:
    # 004 Setup: ground units are allocated to fleets up to their carrying capacity
    assert cat.kind("fleet").capacity == battleboard_tables().units.fleet_capacity
    assert all(k.capacity == 0 for k in cat.kinds.values() if not k.is_fleet)


def test_legion_is_five_points_and_climbs_r_v_i(cat: Catalogue) -> None:
    leg = cat.kind("legion")
    assert leg.strength == 5
    assert set(leg.disciplines) == {"I", "V", "R"}
    assert (leg.recruit, leg.colony) == ("R", "V")  # reference: recruited R, colonies raise V
    assert cat.promoted("legion", "R") == "V"
    assert cat.promoted("legion", "V") == "I"
    assert cat.promoted("legion", "I") is None


def test_imperator_class_only_by_promotion_except_guards(cat: Catalogue) -> None:
    # reference: I-class units enter play only by battlefield promotion, except Guards
    for kid, k in cat.kinds.items():
        assert k.recruit != "I" and k.colony != "I", kid
    assert cat.kind("guard").disciplines == ("I",)
    assert cat.kind("guard").guard > 0
    assert cat.promoted("guard", "I") is None


def test_mobs_and_barbarians_never_promote(cat: Catalogue) -> None:
    assert cat.promoted("mob", "M") is None
    assert cat.promoted("horde", "B") is None
    assert "M" not in cat.ladder and "B" not in cat.ladder


def test_fratricide_agrees_with_the_battleboard_count(cat: Catalogue) -> None:
    # battleboard/resolve.py counts a strength-5 legion or heavy infantry killed; the
    # campaign's flag must say the same for every kind that can reach strength 5.
    for kid, k in cat.kinds.items():
        counted_by_battleboard = k.battleboard in ("legion", "heavy_infantry") and k.strength >= 5
        assert k.fratricide == counted_by_battleboard, kid
    assert not cat.kind("horde").fratricide


def test_fratricide_value(cat: Catalogue) -> None:
    assert _legion("a").fratricide_value(cat) == 5
    assert _legion("b", strength=4).fratricide_value(cat) == 0
    horde = Unit(id="h", kind="horde", discipline="B", strength=4, nation="barbarian")
    assert horde.fratricide_value(cat) == 0


def test_engineers_storm_and_civis_stay_home(cat: Catalogue) -> None:
    assert cat.kind("engineers").storms
    civis = cat.kind("civis")
    assert not civis.mobile and not civis.embark


def test_client_nations_are_the_maps_client_states(cat: Catalogue) -> None:
    map_clients = {o.id for o in roman_world().data.owner if o.kind == "client"}
    assert set(cat.client_nations()) == map_clients


def test_client_troops_are_raised_by_their_own_states(cat: Catalogue) -> None:
    assert set(cat.kind("phalanx").nations) >= {"egypt", "judea"}
    assert cat.kind("horse_archers").nations == ("parthia",)
    assert cat.kind("cataphracts").nations == ("parthia",)
    assert cat.kind("numidian_cavalry").nations == ("numidia",)
    assert cat.kind("elephants").nations == ("numidia",)
    assert cat.kind("horde").nations == ("barbarian",)
    assert cat.kind("legion").nations == ("roman",)


# --------------------------------------------------------------------------- leaders


def test_leader_ratings_follow_the_reference(cat: Catalogue) -> None:
    # reference: ratings 1–3, Octavian 4
    for lid, ld in cat.leaders.items():
        if lid == "octavian":
            assert ld.rating == 4
        else:
            assert 1 <= ld.rating <= 3, lid
    assert cat.supreme_leaders() == ["caesar", "pompeius"]
    assert cat.leader("caesar").rating == cat.leader("pompeius").rating == 3
    assert cat.leader("caesar").discipline == "I"


def test_client_leaders_of_004(cat: Catalogue) -> None:
    for lid, nation in (
        ("cleopatra", "egypt"),
        ("antipater", "judea"),
        ("mithradates", "pontus"),
        ("juba", "numidia"),
        ("orodes", "parthia"),
    ):
        assert cat.leader(lid).nation == nation
        assert cat.leader(lid).allegiance is None
    assert cat.leader("orodes").role == "monarch"
    assert any(ld.role == "satrap" and ld.nation == "parthia" for ld in cat.leaders.values())
    for nation in cat.client_nations():
        assert any(ld.nation == nation for ld in cat.leaders.values()), nation


def test_engagement_pieces(cat: Catalogue) -> None:
    u = engagement_unit(Unit(id="g", kind="guard", discipline="I", strength=5, nation="roman"), "A", cat)
    assert (u.kind, u.discipline, u.strength, u.side) == ("legion", "I", 5, "A")
    h = engagement_unit(Unit(id="ha", kind="horse_archers", discipline="V", strength=2, nation="parthia"), "B", cat)
    assert h.kind == "light_cavalry"
    ld = engagement_leader("caesar", "A", cat, supreme=True)
    assert (ld.rating, ld.discipline, ld.supreme) == (3, "I", True)


# --------------------------------------------------------------------------- bad catalogues


def _write_copies(
    tmp_path: Path, units: dict[str, Any] | None = None, leaders: dict[str, Any] | None = None
) -> tuple[Path, Path]:
    u = tmp_path / "units.toml"
    ld = tmp_path / "leaders.toml"
    u.write_text(tomli_w.dumps(units if units is not None else tomllib.loads(UNITS_FILE.read_text("utf-8"))))
    ld.write_text(tomli_w.dumps(leaders if leaders is not None else tomllib.loads(LEADERS_FILE.read_text("utf-8"))))
    return u, ld


def _units_raw() -> dict[str, Any]:
    return tomllib.loads(UNITS_FILE.read_text("utf-8"))


def _leaders_raw() -> dict[str, Any]:
    return tomllib.loads(LEADERS_FILE.read_text("utf-8"))


def _refused(u: Path, ld: Path, *words: str) -> InputError:
    with pytest.raises(InputError) as info:
        load_catalogue(u, ld)
    msg = str(info.value)
    assert "\n" not in msg
    for w in words:
        assert w in msg, msg
    return info.value


def test_copies_load(tmp_path: Path) -> None:
    u, ld = _write_copies(tmp_path)
    assert set(load_catalogue(u, ld).kinds) == set(catalogue().kinds)


def test_unknown_battleboard_kind_refused(tmp_path: Path) -> None:
    raw = _units_raw()
    raw["kinds"]["legion"]["battleboard"] = "hoplite"
    u, ld = _write_copies(tmp_path, units=raw)
    err = _refused(u, ld, "kinds.legion.battleboard")
    assert err.source == str(u)


def test_discipline_outside_its_kind_refused(tmp_path: Path) -> None:
    raw = _units_raw()
    raw["kinds"]["mob"]["discipline"] = "V"
    u, ld = _write_copies(tmp_path, units=raw)
    _refused(u, ld, "kinds.mob", "not among its disciplines")


def test_unknown_nation_refused(tmp_path: Path) -> None:
    raw = _units_raw()
    raw["kinds"]["phalanx"]["nations"] = ["egypt", "macedon"]
    u, ld = _write_copies(tmp_path, units=raw)
    _refused(u, ld, "kinds.phalanx", "macedon")


def test_land_unit_with_capacity_refused(tmp_path: Path) -> None:
    raw = _units_raw()
    raw["kinds"]["legion"]["capacity"] = 1
    u, ld = _write_copies(tmp_path, units=raw)
    _refused(u, ld, "kinds.legion", "only a fleet")


def test_duplicate_leader_refused(tmp_path: Path) -> None:
    raw = _leaders_raw()
    raw["leaders"].append(dict(raw["leaders"][0]))
    u, ld = _write_copies(tmp_path, leaders=raw)
    err = _refused(u, ld, "caesar", "listed twice")
    assert err.source == str(ld)


def test_leader_rating_five_refused(tmp_path: Path) -> None:
    raw = _leaders_raw()
    raw["leaders"][0]["rating"] = 5
    u, ld = _write_copies(tmp_path, leaders=raw)
    _refused(u, ld, "leader 'caesar' (leaders[0].rating)")


def test_client_leader_with_allegiance_refused(tmp_path: Path) -> None:
    raw = _leaders_raw()
    for entry in raw["leaders"]:
        if entry["id"] == "juba":
            entry["allegiance"] = "senatorial"
    u, ld = _write_copies(tmp_path, leaders=raw)
    _refused(u, ld, "follows his state")


# --------------------------------------------------------------------------- forces


def test_force_fleets_passengers_and_capacity(cat: Catalogue) -> None:
    f = Force(
        id="f",
        side="caesarian",
        location="brundisium",
        commander="antonius",
        leaders=("antonius",),
        units=(
            _fleet("f1"),
            _fleet("f2"),
            _legion("l1", aboard="f1"),
            _legion("l2", aboard="f1"),
            _legion("l3", aboard="f2"),
            Unit(id="e1", kind="engineers", discipline="V", strength=1, nation="roman"),
        ),
    )
    assert [u.id for u in f.fleets(cat)] == ["f1", "f2"]
    assert [u.id for u in f.passengers("f1")] == ["l1", "l2"]
    assert [u.id for u in f.ashore(cat)] == ["e1"]
    assert f.capacity(cat) == 4
    assert f.strength() == 3 + 3 + 5 + 5 + 5 + 1
    assert f.can_storm(cat)
    assert not f.is_embarked(cat)
    assert _problems(f, cat) == []
    aboard = f.model_copy(update={"units": (*f.units[:5], f.units[5].model_copy(update={"aboard": "f2"}))})
    assert aboard.is_embarked(cat)
    assert _problems(aboard, cat) == []


def test_guard_protects(cat: Catalogue) -> None:
    g = Unit(id="g", kind="guard", discipline="I", strength=5, nation="roman")
    f = Force(id="f", side="caesarian", location="roma", commander="caesar", leaders=("caesar",), units=(g,))
    assert f.guard(cat) == cat.kind("guard").guard


def test_passenger_on_a_non_fleet(cat: Catalogue) -> None:
    f = Force(id="f", side="caesarian", location="roma", units=(_legion("l1"), _legion("l2", aboard="l1")))
    [(place, problem)] = _problems(f, cat)
    assert "unit 'l2'" in place and "not a fleet" in problem


def test_over_capacity(cat: Catalogue) -> None:
    f = Force(
        id="f",
        side="caesarian",
        location="roma",
        units=(_fleet("f1"), _legion("a", aboard="f1"), _legion("b", aboard="f1"), _legion("c", aboard="f1")),
    )
    [(place, problem)] = _problems(f, cat)
    assert "unit 'f1'" in place and "capacity of 2" in problem


def test_civis_cannot_embark(cat: Catalogue) -> None:
    civis = Unit(id="c", kind="civis", discipline="R", strength=2, nation="roman", aboard="f1")
    f = Force(id="f", side="caesarian", location="roma", units=(_fleet("f1"), civis))
    [(_, problem)] = _problems(f, cat)
    assert "cannot be carried" in problem


def test_unknown_kind_bad_discipline_and_strength(cat: Catalogue) -> None:
    f = Force(
        id="f",
        side="caesarian",
        location="roma",
        units=(
            Unit(id="x", kind="triarii", discipline="V", strength=2, nation="roman"),
            _legion("y", discipline="M"),
            _legion("z", strength=6),
            Unit(id="w", kind="phalanx", discipline="R", strength=4, nation="roman"),
        ),
    )
    problems = [q for _, q in _problems(f, cat)]
    assert any("triarii" in q for q in problems)
    assert any("discipline M" in q for q in problems)
    assert any("strength 6" in q for q in problems)
    assert any("Roman nation cannot raise" in q for q in problems)


def test_commander_must_be_with_the_force(cat: Catalogue) -> None:
    f = Force(
        id="f", side="caesarian", location="roma", commander="caesar", leaders=("antonius",), units=(_legion("a"),)
    )
    assert any("not among its leaders" in q for _, q in _problems(f, cat))


def test_units_are_values() -> None:
    u = _legion("a")
    with pytest.raises(ValidationError):
        u.strength = 4  # type: ignore[misc]
    assert u.model_copy(update={"strength": 4}).strength == 4
    with pytest.raises(ValidationError):
        Unit(id="a", kind="legion", discipline="X", strength=5, nation="roman")  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        Unit(id="a", kind="legion", discipline="V", strength=0, nation="roman")


def test_rules_doc_lists_every_kind_and_leader(cat: Catalogue) -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "rules" / "campaign.md").read_text("utf-8")
    for kid in cat.kinds:
        assert f"`{kid}`" in doc, kid
    for lid in cat.leaders:
        assert f"`{lid}`" in doc, lid


def test_allegiances_are_the_maps_sides(cat: Catalogue) -> None:
    sides = {o.id for o in roman_world().data.owner if o.kind == "side"}
    assert sides == {"caesarian", "senatorial"}
    assert {ld.allegiance for ld in cat.leaders.values() if ld.nation == "roman"} == sides
