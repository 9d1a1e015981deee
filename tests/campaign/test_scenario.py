"""Campaign scenarios (docs/rules/campaign.md §5–§6): the 49 BC dispositions and the loader's checks."""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bellum.errors import InputError
from campaign.map import roman_world
from campaign.scenario import Scenario, count_units, load_scenario, resolve
from campaign.units import catalogue

SCENARIO = resolve("49bc")


@pytest.fixture(scope="module")
def s49() -> Scenario:
    return load_scenario(SCENARIO)


def _raw() -> dict[str, Any]:
    return tomllib.loads(SCENARIO.read_text("utf-8"))


def _force(raw: dict[str, Any], fid: str) -> dict[str, Any]:
    for f in raw["forces"]:
        if f["id"] == fid:
            return f
    raise KeyError(fid)


def _legions(s: Scenario, fid: str) -> list[str]:
    return [u.name for u in s.force(fid).units if u.kind == "legion"]


# --------------------------------------------------------------------------- it loads


def test_loads_and_starts_in_january_49(s49: Scenario) -> None:
    assert s49.start == "January 49 BC"
    assert set(s49.sides) == {"caesarian", "senatorial"}
    assert s49.sides["caesarian"].supreme_leader == "caesar"
    assert s49.sides["senatorial"].supreme_leader == "pompeius"


def test_every_place_is_on_the_map(s49: Scenario) -> None:
    m = roman_world()
    for f in s49.forces:
        assert f.location in m, f.id
    assert set(s49.owners) == set(m.spaces)


def test_every_unit_has_a_battleboard_kind(s49: Scenario) -> None:
    cat = catalogue()
    for _, u in s49.units():
        assert cat.kind(u.kind).battleboard


def test_ids_are_unique(s49: Scenario) -> None:
    units = [u.id for _, u in s49.units()]
    assert len(units) == len(set(units))
    forces = [f.id for f in s49.forces]
    assert len(forces) == len(set(forces))
    leaders = [ld for f in s49.forces for ld in f.leaders]
    assert len(leaders) == len(set(leaders))


def test_counter_mix_leaves_a_builds_pool(s49: Scenario) -> None:
    for owner, kinds in s49.counter_mix.items():
        for kind in kinds:
            pool = s49.builds_pool(owner, kind)
            assert pool is not None and pool >= 0, (owner, kind)
    assert s49.builds_pool("caesarian", "legion") == 30 - 10
    assert s49.builds_pool("caesarian", "civis") is None


# --------------------------------------------------------------------------- history


def test_caesar_at_ravenna_with_the_xiii(s49: Scenario) -> None:
    f = s49.leader_force("caesar")
    assert f is not None and f.location == "ravenna" and f.commander == "caesar"
    assert _legions(s49, f.id) == ["Legio XIII"]
    assert {"antonius", "curio", "q_cassius"} <= set(f.leaders)  # BC 1.5


def test_caesars_army_in_gaul(s49: Scenario) -> None:
    m = roman_world()
    legions = [(f, u) for f, u in s49.units() if f.side == "caesarian" and u.kind == "legion"]
    assert len(legions) == 10
    beyond_alps = [u for f, u in legions if m.space(f.location).province in ("gallia_comata", "gallia_narbonensis")]
    assert len(beyond_alps) == 9
    assert s49.force("fabius").location == "narbo"  # BC 1.37
    assert len(_legions(s49, "trebonius")) == 4  # BG 8.54
    assert not any(u.kind == "fleet" for f, u in s49.units() if f.side == "caesarian")  # BC 1.29


def test_pompeius_in_italy_with_the_two_legions(s49: Scenario) -> None:
    f = s49.leader_force("pompeius")
    assert f is not None and f.location == "luceria"
    assert roman_world().space(f.location).province == "italia"
    assert len(_legions(s49, f.id)) == 2
    assert "labienus" in f.leaders


def test_domitius_at_corfinium_with_thirty_cohorts(s49: Scenario) -> None:
    f = s49.leader_force("domitius")
    assert f is not None and f.location == "corfinium"
    cohorts = sum(u.strength * 2 for u in f.units if u.kind == "legion")  # 1 SP = two cohorts
    assert cohorts >= 30  # BC 1.17
    assert all(u.discipline == "R" for u in f.units)


def test_afranius_petreius_varro_in_hispania_with_seven_legions(s49: Scenario) -> None:
    m = roman_world()
    total = 0
    for lid, n in (("afranius", 3), ("petreius", 2), ("varro", 2)):  # BC 1.38
        f = s49.leader_force(lid)
        assert f is not None
        assert m.space(f.location).province.startswith("hispania")
        assert len(_legions(s49, f.id)) == n
        total += n
    assert total == 7


def test_scipio_in_syria_with_two_legions(s49: Scenario) -> None:
    f = s49.leader_force("scipio")
    assert f is not None and roman_world().space(f.location).province == "syria"
    assert len(_legions(s49, f.id)) == 2


def test_cato_in_sicily_varus_and_juba_in_africa(s49: Scenario) -> None:
    m = roman_world()
    cato = s49.leader_force("cato")
    varus = s49.leader_force("attius_varus")
    juba = s49.leader_force("juba")
    assert cato is not None and m.space(cato.location).province == "sicilia"
    assert varus is not None and m.space(varus.location).province == "africa"
    assert juba is not None and m.space(juba.location).province == "numidia"
    assert juba.side == "numidia" and s49.clients["numidia"].status == "senatorial"
    assert any(u.kind == "elephants" for u in juba.units)


def test_the_pompeian_fleets(s49: Scenario) -> None:
    fleets = [(f, u) for f, u in s49.units() if f.side == "senatorial" and u.kind == "fleet"]
    assert len(fleets) >= 3
    bibulus = s49.leader_force("bibulus")
    assert bibulus is not None and bibulus.side == "senatorial"
    assert len(bibulus.fleets()) >= 2  # BC 3.5


def test_massilia_neutral_with_its_fleet(s49: Scenario) -> None:
    [f] = s49.forces_at("massilia")
    assert f.side == "neutral"
    assert s49.owners["massilia"] == "neutral"
    assert {u.kind for u in f.units} == {"civis", "fleet"}


def test_republic_and_clients(s49: Scenario) -> None:
    assert s49.republic.tribune == "caesarian"  # BC 1.5
    assert s49.republic.dictator is None and s49.republic.imperator is None
    assert set(s49.clients) == {"egypt", "judea", "numidia", "pontus", "parthia"}
    assert s49.clients["egypt"].ruler == "cleopatra"
    for c in ("egypt", "judea", "pontus", "parthia"):
        assert s49.clients[c].status == "neutral"


def test_client_troops_in_play(s49: Scenario) -> None:
    assert count_units(s49, "egypt")["phalanx"] >= 2
    assert count_units(s49, "judea")["phalanx"] >= 1
    assert count_units(s49, "parthia")["horse_archers"] >= 1
    assert count_units(s49, "parthia")["cataphracts"] >= 1
    assert count_units(s49, "numidia")["numidian_cavalry"] >= 1


def test_one_civis_per_city_and_owned_by_the_city(s49: Scenario) -> None:
    seen: set[str] = set()
    for f, u in s49.units():
        if u.kind == "civis":
            assert f.location not in seen
            seen.add(f.location)
            assert s49.owners[f.location] == f.side


# --------------------------------------------------------------------------- broken copies


def _refused(tmp_path: Path, change: Callable[[dict[str, Any]], None], *words: str) -> str:
    raw = copy.deepcopy(_raw())
    change(raw)
    p = tmp_path / "broken.toml"
    p.write_text(tomli_w.dumps(raw), encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_scenario(p)
    msg = str(info.value)
    assert msg.startswith(str(p))
    assert "\n" not in msg
    for w in words:
        assert w in msg, msg
    return msg


def test_copy_loads(tmp_path: Path) -> None:
    p = tmp_path / "copy.toml"
    p.write_text(tomli_w.dumps(_raw()), encoding="utf-8")
    assert len(load_scenario(p).forces) == len(load_scenario(SCENARIO).forces)


def test_unknown_space(tmp_path: Path) -> None:
    _refused(tmp_path, lambda r: _force(r, "caesar").update(location="rubicon"), "force 'caesar'", "'rubicon'")


def test_unknown_unit_kind(tmp_path: Path) -> None:
    def change(r: dict[str, Any]) -> None:
        _force(r, "caesar")["units"][0]["kind"] = "legio"

    _refused(tmp_path, change, "force 'caesar', unit 'leg_xiii'", "'legio'")


def test_duplicate_unit_id(tmp_path: Path) -> None:
    def change(r: dict[str, Any]) -> None:
        _force(r, "pompeius")["units"][0]["id"] = "leg_xiii"

    _refused(tmp_path, change, "unit 'leg_xiii'", "already given")


def test_duplicate_force_id(tmp_path: Path) -> None:
    _refused(tmp_path, lambda r: _force(r, "varro").update(id="afranius"), "force 'afranius'", "listed twice")


def test_passenger_on_a_non_fleet(tmp_path: Path) -> None:
    def change(r: dict[str, Any]) -> None:
        _force(r, "fabius")["units"][1]["aboard"] = "leg_ix"

    _refused(tmp_path, change, "force 'fabius', unit 'leg_x'", "not a fleet")


def test_passenger_over_capacity(tmp_path: Path) -> None:
    def change(r: dict[str, Any]) -> None:
        bib = _force(r, "bibulus")
        bib["units"] += [
            {"id": f"marines_{i}", "kind": "legion", "aboard": "fleet_liburnian", "strength": 2} for i in range(3)
        ]

    _refused(tmp_path, change, "unit 'fleet_liburnian'", "capacity of 2")


def test_fleet_inland(tmp_path: Path) -> None:
    _refused(tmp_path, lambda r: _force(r, "bibulus").update(location="larissa"), "force 'bibulus'", "not a port")


def test_at_sea_not_aboard(tmp_path: Path) -> None:
    def change(r: dict[str, Any]) -> None:
        f = _force(r, "bibulus")
        f["location"] = "mare_ionium"
        f["units"].append({"id": "marines", "kind": "legion", "strength": 2})

    _refused(tmp_path, change, "unit 'marines'", "aboard no fleet")


def test_at_sea_aboard_is_fine(tmp_path: Path) -> None:
    raw = _raw()
    f = _force(raw, "bibulus")
    f["location"] = "mare_ionium"
    f["units"].append({"id": "marines", "kind": "legion", "strength": 2, "aboard": "fleet_achaean"})
    p = tmp_path / "sea.toml"
    p.write_text(tomli_w.dumps(raw), encoding="utf-8")
    s = load_scenario(p)
    assert s.force("bibulus").is_embarked()
    assert [u.id for u in s.force("bibulus").passengers("fleet_achaean")] == ["marines"]


def test_leader_in_two_forces(tmp_path: Path) -> None:
    _refused(tmp_path, lambda r: _force(r, "domitius").update(leaders=["antonius"]), "leader 'antonius'")


def test_supreme_leader_not_in_play(tmp_path: Path) -> None:
    def change(r: dict[str, Any]) -> None:
        f = _force(r, "pompeius")
        f["commander"] = "labienus"
        f["leaders"] = []

    _refused(tmp_path, change, "side 'senatorial'", "no force")


def test_client_leader_in_the_wrong_force(tmp_path: Path) -> None:
    _refused(tmp_path, lambda r: _force(r, "scipio").update(leaders=["antipater"]), "leader 'antipater'")


def test_roman_leader_on_the_wrong_side(tmp_path: Path) -> None:
    _refused(tmp_path, lambda r: _force(r, "domitius").update(commander="hirtius"), "leader 'hirtius'", "caesarians")


def test_client_unit_in_a_roman_force_needs_an_alliance(tmp_path: Path) -> None:
    def change(r: dict[str, Any]) -> None:
        _force(r, "scipio")["units"].append({"id": "phal_x", "kind": "phalanx", "nation": "judea"})

    _refused(tmp_path, change, "unit 'phal_x'", "Judean")


def test_allied_client_unit_in_a_roman_force_is_fine(tmp_path: Path) -> None:
    raw = _raw()
    _force(raw, "varus")["units"].append({"id": "ncav_x", "kind": "numidian_cavalry"})
    p = tmp_path / "ally.toml"
    p.write_text(tomli_w.dumps(raw), encoding="utf-8")
    u = load_scenario(p).force("varus").unit("ncav_x")
    assert u.nation == "numidia"


def test_counter_mix_exceeded(tmp_path: Path) -> None:
    def change(r: dict[str, Any]) -> None:
        r["counter_mix"][0]["kinds"]["legion"] = 5

    _refused(tmp_path, change, "counter mix of 'caesarian', legion", "10 in play")


def test_second_civis_in_a_city(tmp_path: Path) -> None:
    def change(r: dict[str, Any]) -> None:
        _force(r, "caesar")["units"].append({"id": "civis_x", "kind": "civis"})

    # the Caesarian army comes first in the file, so the garrison is the second civis
    _refused(tmp_path, change, "unit 'civis_ravenna'", "second civis in Ravenna", "'caesar'")


def test_owner_change_of_an_unknown_space(tmp_path: Path) -> None:
    _refused(tmp_path, lambda r: r.update(owners=[{"space": "auximum", "owner": "caesarian"}]), "'auximum'")


def test_owner_change_applies(tmp_path: Path) -> None:
    raw = _raw()
    raw["owners"] = [{"space": "ariminum", "owner": "caesarian"}]
    p = tmp_path / "own.toml"
    p.write_text(tomli_w.dumps(raw), encoding="utf-8")
    assert load_scenario(p).owners["ariminum"] == "caesarian"


def test_unknown_key_and_bad_strength_are_named(tmp_path: Path) -> None:
    _refused(tmp_path, lambda r: _force(r, "caesar").update(general="caesar"), "force 'caesar'", "general")

    def change(r: dict[str, Any]) -> None:
        _force(r, "caesar")["units"][0]["strength"] = 11

    _refused(tmp_path, change, "force 'caesar', unit 'leg_xiii'", "strength")


def test_unknown_client_status(tmp_path: Path) -> None:
    def change(r: dict[str, Any]) -> None:
        r["clients"][0]["status"] = "pompeian"

    _refused(tmp_path, change, "client 'numidia'", "pompeian")


def test_tribune_held_by_a_client_refused(tmp_path: Path) -> None:
    _refused(tmp_path, lambda r: r.update(republic={"tribune": "egypt"}), "republic.tribune")


# --------------------------------------------------------------------------- hostile edits

_FIELDS = ("location", "side", "commander", "kind", "aboard", "strength", "discipline", "nation", "id")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    force=st.integers(min_value=0, max_value=200),
    field=st.sampled_from(_FIELDS),
    value=st.one_of(
        st.none(),
        st.integers(min_value=-3, max_value=40),
        st.sampled_from(["roma", "mare_ionium", "leg_xiii", "fleet_achaean", "caesar", "juba", "I", "M", "egypt"]),
        st.text(alphabet="abcxyz_ 1!", max_size=12),
    ),
)
def test_any_single_edit_loads_or_is_refused_in_one_sentence(
    tmp_path_factory: pytest.TempPathFactory, force: int, field: str, value: Any
) -> None:
    raw = _raw()
    f = raw["forces"][force % len(raw["forces"])]
    target = f if field in ("location", "side", "commander") or not f.get("units") else f["units"][0]
    if value is None:
        target.pop(field, None)
    else:
        target[field] = value
    p = tmp_path_factory.mktemp("edit") / "edit.toml"
    p.write_text(tomli_w.dumps(raw), encoding="utf-8")
    try:
        load_scenario(p)
    except InputError as exc:
        assert "\n" not in str(exc)
        assert exc.source == str(p) and exc.problem


def test_every_sides_capital_rome_and_brundisium_have_a_civis(s49: Scenario) -> None:
    # campaign.md §6.1
    m = roman_world()
    with_civis = {f.location for f, u in s49.units() if u.kind == "civis"}
    wanted = {c for c in m.capitals() if s49.owners[c] in s49.sides} | {"roma", "brundisium"}
    assert wanted <= with_civis
