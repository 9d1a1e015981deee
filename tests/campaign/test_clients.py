"""Client states and barbarian hordes (docs/rules/campaign.md §19; reference: sides and
units; 004's campaign report) and the wider world's tables (``campaign/data/world.toml``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bellum.dice import Dice
from bellum.errors import InputError
from campaign.map import roman_world
from campaign.rules import clients as C
from campaign.rules.clients import activate, clash, horde_step, leaning, levy, load_world, move_hordes, rouse
from campaign.state import CampaignState
from campaign.units import catalogue
from tests.campaign.test_ops_sequence import army, fresh, put

WORLD = Path(C.__file__).resolve().parent.parent / "data" / "world.toml"


def world_text() -> str:
    return WORLD.read_text(encoding="utf-8")


# --------------------------------------------------------------------------- the data


def test_the_five_client_states_of_the_reference_are_all_described() -> None:
    """Reference: Egypt, Judea, Numidia, Pontus/Asia and Parthia are the client states."""
    w = C.world_tables()
    assert {c.id for c in w.clients} == {"egypt", "judea", "numidia", "pontus", "parthia"}
    for c in w.clients:
        assert roman_world().owned_by(c.id), c.id  # each has spaces of its own on the map


def test_the_scenario_gives_every_client_a_ruler_and_an_army() -> None:
    """campaign.md §19.1: each client has its leaders and forces in play from the start."""
    s = fresh(keep=None)
    for cid in ("egypt", "judea", "numidia", "pontus", "parthia"):
        forces = [f for f in s.forces.values() if f.side == cid]
        assert any(f.commander for f in forces), cid
        assert sum(f.strength() for f in forces) >= 4, cid
    assert s.forces["pharnaces"].commander == "pharnaces"  # the Bosporan king (BAlex 34)


def test_a_world_file_that_names_an_unknown_client_is_one_sentence(tmp_path: Path) -> None:
    bad = tmp_path / "world.toml"
    bad.write_text(world_text().replace('id = "judea"', 'id = "atlantis"', 1), encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_world(bad)
    assert "atlantis" in str(err.value)


def test_a_world_file_with_a_loss_over_100_percent_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "world.toml"
    bad.write_text(world_text().replace("horde_loss = [10,", "horde_loss = [110,", 1), encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_world(bad)
    assert "percentage" in str(err.value)


# --------------------------------------------------------------------------- entering the war


def test_a_neutral_client_joins_its_patron_on_a_low_roll() -> None:
    """§19.2: Egypt leans to the Senate (Pompeius' client house, Dio 39.55–58): d10 below
    its loyalty, the Senate holding Antiochia, puts it on the Senate's side."""
    s = fresh()
    assert s.owner_side("antiochia") == "senatorial"
    side, below = leaning(s, C.world_tables().client("egypt"))  # type: ignore[arg-type]
    assert (side, below) == ("senatorial", 6)
    events = activate(s, "egypt", Dice.forced([5]))
    assert s.clients["egypt"] == "senatorial"
    assert s.allegiance("egypt") == "senatorial"
    assert s.owner_side("alexandria") == "senatorial"  # its cities count for its ally (§7.5)
    assert any(e.kind == "client_joins" for e in events)


def test_a_client_joins_the_patrons_enemy_on_a_high_roll() -> None:
    s = fresh()
    activate(s, "egypt", Dice.forced([6]))
    assert s.clients["egypt"] == "caesarian"


def test_loyalty_falls_by_three_while_the_patron_lacks_the_watched_place() -> None:
    """§19.2: a patron who has lost the place the client watches is courted less."""
    s = fresh()
    s.owners["antiochia"] = "caesarian"
    _, below = leaning(s, C.world_tables().client("egypt"))  # type: ignore[arg-type]
    assert below == 3
    activate(s, "egypt", Dice.forced([3]))
    assert s.clients["egypt"] == "caesarian"


def test_parthia_sides_against_whoever_holds_syria() -> None:
    """§19.2, after 004: the Parthians became a Caesarian client while Scipio held Syria."""
    s = fresh()
    activate(s, "parthia", Dice.forced([9]))
    assert s.clients["parthia"] == "caesarian"
    s2 = fresh()
    s2.owners["antiochia"] = "caesarian"
    activate(s2, "parthia", Dice.forced([0]))
    assert s2.clients["parthia"] == "senatorial"


def test_a_client_at_war_raises_levies_for_its_damaged_units() -> None:
    """§19.3: its event, while it is at war and its ally holds the watched place, restores
    up to ``levy`` SP, recorded as gains."""
    s = fresh()
    s.clients["numidia"] = "senatorial"
    juba = s.forces["juba"]
    hurt = tuple(u.model_copy(update={"strength": 1}) if u.kind == "numidian_cavalry" else u for u in juba.units)
    s.forces["juba"] = juba.model_copy(update={"units": hurt})
    events = activate(s, "numidia", Dice.forced([9]))  # no defection roll below waver 2
    gained = events[0].data["gains"]
    assert sum(gained.values()) == C.world_tables().client("numidia").levy  # type: ignore[union-attr]
    cat = catalogue()
    for u in s.forces["juba"].units:
        assert u.strength <= cat.kind(u.kind).strength


def test_a_client_whose_ally_lost_the_watched_place_may_change_sides() -> None:
    """§19.2: Egypt and Judea went over to Caesar after Pharsalus (BAlex 65; Ant. 14.127)."""
    s = fresh()
    s.clients["egypt"] = "senatorial"
    s.owners["antiochia"] = "caesarian"
    events = activate(s, "egypt", Dice.forced([0]))
    assert s.clients["egypt"] == "caesarian"
    assert any(e.kind == "client_declares" and e.data["how"] == "defection" for e in events)


def test_a_loyal_client_does_not_waver_on_a_high_roll() -> None:
    s = fresh()
    s.clients["egypt"] = "senatorial"
    s.owners["antiochia"] = "caesarian"
    activate(s, "egypt", Dice.forced([9]))
    assert s.clients["egypt"] == "senatorial"


def test_levies_fill_damaged_units_first_then_raise_from_the_counter_mix() -> None:
    """§19.3 (004: the Parthian host raised in time): damaged units regain SP up to full
    strength; what is left raises new units of the client's counter mix in its capital,
    never past the mix."""
    s = fresh()
    s.clients["judea"] = "senatorial"
    cat = catalogue()
    room = sum(cat.kind(u.kind).strength - u.strength for f in s.forces.values() if f.side == "judea" for u in f.units)
    assert room == 1  # the civis of Hierosolyma (2 of 3)
    first = levy(s, "judea", 5)
    gains = first[0].data["gains"]
    assert gains["civis_hierosolyma"] == 1
    new = [uid for uid in gains if uid.startswith("judea_levy")]
    assert new and sum(gains[u] for u in new) <= 4
    units = {u.id: (f, u) for f in s.forces.values() for u in f.units}
    for uid in new:
        f, u = units[uid]
        assert f.location == "hierosolyma" and f.side == "judea" and u.strength == gains[uid]
    # a big levy raises no more than the counter mix allows
    levy(s, "judea", 100)
    mix = s.counter_mix["judea"]
    for kind, limit in mix.items():
        n = sum(1 for f in s.forces.values() for u in f.units if u.kind == kind and u.nation == "judea")
        assert n <= limit, kind
    assert "full strength" in levy(s, "judea", 100)[0].text


def test_a_client_without_its_capital_raises_no_new_units() -> None:
    s = fresh()
    s.clients["judea"] = "senatorial"
    s.owners["hierosolyma"] = "caesarian"
    events = levy(s, "judea", 10)
    assert not any(uid.startswith("judea_levy") for uid in events[0].data.get("gains", {}))


# --------------------------------------------------------------------------- hordes


def test_a_horde_waits_beyond_the_frontier_until_its_event() -> None:
    """§19.4 (004: a horde appeared on the Danube): the scenario places it, the event stirs it."""
    s = fresh()
    assert s.forces["horde_daci"].location == "dacia"
    assert not s.roused
    assert move_hordes(s, Dice.forced([])) == []
    rouse(s, "daci")
    assert s.roused == ("horde_daci",)
    assert "already on the move" in rouse(s, "daci")[0].text


def test_a_stirring_horde_moves_one_link_toward_the_nearest_city() -> None:
    s = fresh()
    rouse(s, "germani")
    step = horde_step(s, "horde_germani")
    assert step in {"durocortorum", "helvetii", "vesontio"}
    assert roman_world().link("germania", step) is not None  # type: ignore[arg-type]


def test_a_horde_sacks_an_undefended_city_and_pays_for_it() -> None:
    """§19.4: a city with no troops falls away (neutral); the horde loses ``sack_cost``."""
    s = fresh(keep=["horde_germani"])
    city = "vesontio"
    s.forces = {k: f for k, f in s.forces.items() if f.location != city}
    put(s, "horde_germani", city)
    before = s.forces["horde_germani"].strength()
    events = clash(s, "horde_germani", Dice.forced([]))
    assert events[0].kind == "sack"
    assert s.owners[city] == "neutral"
    assert s.forces["horde_germani"].strength() == before - C.world_tables().horde_clash.sack_cost


def _clash_setup(defender_sp: int) -> CampaignState:
    s = fresh(keep=["horde_germani"])
    s.forces = {k: f for k, f in s.forces.items() if f.location != "lugdunum"}
    put(s, "horde_germani", "lugdunum")
    s.forces["def"] = army("def", "caesarian", "lugdunum", [("legion", "R", defender_sp)])
    return s


def test_the_horde_clash_table_is_read_with_the_odds_modifiers() -> None:
    """§19.4: d10 + modifiers (+2 defenders at least even, +2 at least double, −2 under half,
    +1 veterans, +1 a leader) reads the horde's and the defenders' losses in percent."""
    t = C.world_tables().horde_clash
    s = _clash_setup(5)  # 5 SP against the horde's 10: under even, not under half
    horde_sp = s.forces["horde_germani"].strength()
    events = clash(s, "horde_germani", Dice.forced([4]))
    lost = events[0].data["losses"]
    h = sum(v for k, v in lost.items() if k.startswith("horde"))
    d = sum(v for k, v in lost.items() if k.startswith("def"))
    assert h == max(1, horde_sp * t.horde_loss[4] // 100)
    assert d == max(1, 5 * t.defender_loss[4] // 100)


def test_a_strong_garrison_destroys_a_horde_on_a_high_roll() -> None:
    s = _clash_setup(5)
    s.forces["def2"] = army("def2", "caesarian", "lugdunum", [("legion", "V", 5), ("legion", "V", 5)], ("caesar",))
    s.forces = {k: f for k, f in s.forces.items() if k == "def2" or "caesar" not in f.leaders}
    clash(s, "horde_germani", Dice.forced([9]))  # 9 +2 +2 +1 +1 → clamped to 9: horde 100%
    assert "horde_germani" not in s.forces
    assert s.owners["lugdunum"] == "caesarian"
