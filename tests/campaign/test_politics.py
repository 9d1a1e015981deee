"""The politics of war: tribute, bribes, desertion and defection, assassination
(docs/rules/campaign.md §18)."""

from __future__ import annotations

import pytest

from bellum.dice import Dice
from bellum.errors import RuleError
from campaign import actions as A
from campaign.engine import legal_actions
from campaign.rules import politics as P
from campaign.state import CampaignState
from campaign.tables import tables
from campaign.units import Force, Unit
from tests.campaign.test_ops_sequence import army, fresh, play


def _side(s: CampaignState, side: str = "caesarian", political: int = 2, agent: int = 0) -> CampaignState:
    s.active = side
    s.stratagems[side].update(political=political, agent=agent)
    return s


def test_reach_is_traced_over_land_only() -> None:
    """§18 (reference: assassination range traced over land): Caralis, on Sardinia, is
    beyond any land trace from Italy; Utica, a short sail away, is 33 land steps round by
    Egypt; Corfinium is four steps from Ravenna."""
    steps = P.land_steps("ravenna")
    assert "caralis" not in steps and steps["utica"] == 33 and steps["corfinium"] == 4
    assert P.land_steps("mare_aegyptium") == {}


def test_tribute_wins_a_neutral_city_and_its_ships() -> None:
    """§18.1 (reference: tribute wins a city over): Fabius at Narbo, three steps from
    Massilia; d10 ≥ 6 with no modifier."""
    s = _side(fresh("recruiting", keep=["fabius", "massilia"]))
    assert A.Tribute("massilia") in legal_actions(s)
    need, mod = P.tribute_need(s, "caesarian", "massilia", 3)
    assert (need, mod) == (tables().tribute.city, 0)
    s2, ev = play(s, A.Tribute("massilia"), Dice.forced([need - 1]))
    assert s2.owners["massilia"] == "neutral" and ev[0].data["won"] is False
    assert s2.plays["fabius"] == 1 and s2.stratagems["caesarian"]["political"] == 1
    s3, ev = play(s, A.Tribute("massilia"), Dice.forced([need]))
    assert s3.owners["massilia"] == "caesarian"
    assert s3.forces["massilia"].side == "caesarian" and s3.forces["massilia_civis"].side == "caesarian"


def test_tribute_modifiers() -> None:
    """§18.1: Rome +1, more Res Publica markers +1, next to the target +1, a capital −1."""
    s = _side(fresh("recruiting"), "senatorial")
    _need, mod = P.tribute_need(s, "senatorial", "massilia", 1)
    assert mod == tables().tribute.rome + tables().tribute.markers + tables().tribute.near
    assert P.tribute_need(s, "senatorial", "egypt", 5) == (tables().tribute.client, 2)
    assert P.tribute_need(s, "caesarian", "numidia", 5)[0] == tables().tribute.enemy_client


def test_tribute_wins_a_client_state_at_peace() -> None:
    """§18.1 (reference: tribute wins a client state over)."""
    s = _side(fresh("recruiting", keep=[]))
    s.forces["ant"] = army("ant", "caesarian", "gaza", [("legion", "V", 5)], ("antonius",))
    assert A.Tribute("egypt") in legal_actions(s)
    s2, ev = play(s, A.Tribute("egypt"), Dice.forced([9]))
    assert s2.clients["egypt"] == "caesarian" and s2.owner_side("alexandria") == "caesarian"
    assert [e.kind for e in ev][:2] == ["tribute", "client_joins"]


def test_a_client_that_changes_sides_leaves_its_allys_forces_and_passengers_go_ashore() -> None:
    """§18.1 (reference: on fleets the passengers go ashore): a Caesarian legion aboard an
    Egyptian fleet at sea is landed when Egypt goes over to the Senate."""
    s = fresh("recruiting", keep=[])
    s.clients["egypt"] = "caesarian"
    s.forces["conv"] = Force(
        id="conv",
        side="caesarian",
        location="mare_aegyptium",
        commander="calvinus",
        leaders=("calvinus", "achillas"),
        units=(
            Unit(id="egfleet", kind="fleet", discipline="R", strength=3, nation="egypt"),
            Unit(id="leg37", kind="legion", discipline="V", strength=5, nation="roman", aboard="egfleet"),
        ),
    )
    ev = P.change_client(s, "egypt", "senatorial")
    assert s.clients["egypt"] == "senatorial"
    ships = next(f for f in s.forces.values() if any(u.id == "egfleet" for u in f.units))
    assert ships.side == "egypt" and ships.leaders == ("achillas",) and ships.location == "mare_aegyptium"
    legion = next(f for f in s.forces.values() if any(u.id == "leg37" for u in f.units))
    assert legion.side == "caesarian" and legion.location in ("alexandria", "gaza", "joppa", "pelusium")
    assert legion.unit("leg37").aboard is None
    assert legion.id == "conv" and legion.leaders == ("calvinus",)  # no ship left: Calvinus lands too
    assert "put_ashore" in [e.kind for e in ev] and ev[0].kind == "client_joins"


def _ariminum_civis(s: CampaignState) -> None:
    s.forces["ar_civis"] = Force(
        id="ar_civis",
        side="senatorial",
        location="ariminum",
        units=(Unit(id="ar_c", kind="civis", discipline="R", strength=2, nation="roman"),),
    )


def test_a_bribed_civis_revolts_and_the_city_changes_hands() -> None:
    """§18.2 (reference: bribing a civis into revolt)."""
    s = _side(fresh("recruiting", keep=["caesar"]))
    _ariminum_civis(s)
    assert A.Bribe("ariminum") in legal_actions(s)
    mod = P.bribe_modifier(s, "caesarian", "ariminum")
    assert mod == 0
    need = tables().bribe.need
    s2, ev = play(s, A.Bribe("ariminum"), Dice.forced([need - 1]))
    assert s2.owners["ariminum"] == "senatorial" and ev[0].data["won"] is False
    s3, ev = play(s, A.Bribe("ariminum"), Dice.forced([need]))
    assert s3.owners["ariminum"] == "caesarian" and s3.forces["ar_civis"].side == "caesarian"


def test_bribes_are_hard_in_rome() -> None:
    """§18.2: Rome −3."""
    s = _side(fresh("recruiting", keep=[]))
    assert P.bribe_modifier(s, "caesarian", "roma") <= tables().bribe.rome + tables().bribe.capital * 0


def _garrisoned(starving: bool = False) -> CampaignState:
    """Ariminum's civis with a Senatorial legion of 3 SP in garrison, Caesar at the gates."""
    s = _side(fresh("recruiting", keep=[]))
    s.forces["c"] = army("c", "caesarian", "ariminum", [("legion", "V", 5)], ("caesar",))
    _ariminum_civis(s)
    s.forces["g"] = army("g", "senatorial", "ariminum", [("legion", "R", 3), ("fleet", "R", 3)], ())
    if starving:
        s.starving = ("ariminum",)
    return s


def test_a_bribed_civis_rises_against_the_garrison_and_can_open_the_city() -> None:
    """§18.2 (004's report: the civis bribed into revolt fights the garrison): with Caesar at
    the gates and the garrison starving (+3), a fight roll of 2 makes 5 → 3 SP: the garrison
    (3 SP) is cut down, its ships spared, and the city and civis go over."""
    s = _garrisoned(starving=True)
    assert "ariminum" in P.bribe_targets(s, "caesarian")
    assert P.revolt_modifier(s, "caesarian", "ariminum") == 3
    need = tables().bribe.need
    s2, ev = play(s, A.Bribe("ariminum"), Dice.forced([need, 2]))
    assert tables().revolt.garrison_loss[5] == 3
    assert "cut down the garrison" in ev[0].text
    assert s2.owners["ariminum"] == "caesarian"
    assert s2.forces["ar_civis"].side == "caesarian"
    assert s2.fratricide == s.fratricide  # a massacre in the streets, not a battle (§21.3)


def test_a_rising_the_garrison_survives_is_put_down_and_the_civis_is_lost() -> None:
    """§18.2: a full garrison under no siege pressure: fight roll 0 (+1 Caesar at the gates)
    → 1 SP lost; the city stays, the civis is destroyed."""
    s = _garrisoned()
    need = tables().bribe.need
    s2, ev = play(s, A.Bribe("ariminum"), Dice.forced([need, 0]))
    assert "puts them down" in ev[0].text
    assert s2.owners["ariminum"] == "senatorial"
    assert "ar_civis" not in s2.forces or not s2.forces["ar_civis"].units
    g = s2.forces["g"]
    assert [(u.kind, u.strength) for u in g.units] == [("legion", 2), ("fleet", 3)]


def test_the_odds_of_a_rising_are_shown_before_the_bribe() -> None:
    """The window's odds of a bribe enumerate both dice (campaign.odds.decision_odds)."""
    from campaign.odds import decision_odds

    odds = decision_odds(_garrisoned(starving=True), A.Bribe("ariminum"))
    assert odds is not None
    words = {w for w, _p in odds}
    assert any("open the city" in w for w in words) and any("put" in w for w in words)
    assert "they stay loyal" in words
    assert sum(p for _w, p in odds) == 1


def _facing() -> CampaignState:
    s = _side(fresh("recruiting", keep=[]))
    s.forces["c"] = army("c", "caesarian", "ravenna", [("legion", "V", 5)], ("caesar",))
    s.forces["d"] = army("d", "senatorial", "ariminum", [("legion", "V", 5), ("legion", "R", 4)], ("domitius",))
    return s


def test_desertion_costs_sp_and_is_recorded() -> None:
    """§18.3: the desertion table; losses go in the event (campaign.md §7.6)."""
    s = _facing()
    assert A.Subvert("d") in legal_actions(s)
    mod = P.subvert_modifier(s, "caesarian", s.forces["d"], 1)
    results = tables().desertion.results
    die = results.index("desert:1") - mod
    s2, ev = play(s, A.Subvert("d"), Dice.forced([die]))
    assert ev[0].kind == "desertion" and sum(ev[0].data["losses"].values()) == 1
    assert s2.forces["d"].strength() == 8


def test_defection_brings_the_worst_roman_unit_over_to_the_leader() -> None:
    """§18.3 (reference: making enemy units defect): the R legion goes over to Caesar."""
    s = _facing()
    mod = P.subvert_modifier(s, "caesarian", s.forces["d"], 1)
    die = tables().desertion.results.index("defect") - mod
    s2, ev = play(s, A.Subvert("d"), Dice.forced([die]))
    assert ev[0].kind == "defection" and ev[0].data["unit"] == "d_1"
    assert any(u.id == "d_1" for u in s2.forces["c"].units)
    assert all(u.id != "d_1" for u in s2.forces["d"].units)


def test_subversion_modifiers() -> None:
    """§18.3: out of supply +2, winter +1, the enemy Supreme Leader there −2, the
    Imperator +1, the leader in the same space +1."""
    t = tables().desertion
    s = _facing()
    base = P.subvert_modifier(s, "caesarian", s.forces["d"], 1)
    assert P.subvert_modifier(s, "caesarian", s.forces["d"], 0) == base + t.same_space
    s.republic["imperator"] = "caesarian"
    assert P.subvert_modifier(s, "caesarian", s.forces["d"], 1) == base + t.imperator
    s.republic["imperator"] = None
    s.forces["d"] = s.forces["d"].model_copy(update={"leaders": ("domitius", "pompeius")})
    assert P.subvert_modifier(s, "caesarian", s.forces["d"], 1) == base + t.supreme
    s.turn = 0  # January: winter
    assert P.subvert_modifier(s, "caesarian", s.forces["d"], 1) == base + t.supreme + t.winter


def test_an_agent_kills_a_leader_within_reach() -> None:
    """§18.4 (reference: assassination by Agent stratagems)."""
    s = _facing()
    s.stratagems["caesarian"]["agent"] = 1
    assert A.Assassinate("domitius") in legal_actions(s)
    killed = tables().assassination.results.index("killed")
    s2, ev = play(s, A.Assassinate("domitius"), Dice.forced([killed]))
    assert "domitius" in s2.dead and s2.forces["d"].leaders == ()
    assert ev[0].kind == "assassination" and ev[0].data["result"] == "killed"
    assert s2.stratagems["caesarian"]["agent"] == 0 and s2.expended["caesarian"]["agent"] == 1


def test_the_guard_protects_and_a_botched_plot_costs_a_marker() -> None:
    """§18.4 (reference: a Guard protects against assassination; campaign.md §2.6)."""
    s = _facing()
    s.stratagems["caesarian"]["agent"] = 2
    s.forces["d"] = s.forces["d"].model_copy(
        update={
            "leaders": ("domitius", "pompeius"),
            "units": (*s.forces["d"].units, Unit(id="gd", kind="guard", discipline="I", strength=5, nation="roman")),
        }
    )
    assert P.guard_of(s, "pompeius") == 1 + 2 and P.guard_of(s, "domitius") == 2
    assert P.assassination_modifier(s, "caesarian", "pompeius", 1) == -3
    # at −3 the best roll reaches 6: the plot is hopeless and not offered
    assert P.assassination_targets(s, "caesarian") == ["domitius"]
    with pytest.raises(RuleError):
        play(s, A.Assassinate("pompeius"), Dice.forced([9]))
    s.res_publica["caesarian"] = 1
    s2, ev = play(s, A.Assassinate("domitius"), Dice.forced([2]))
    assert ev[0].data["result"] == "exposed" and s2.res_publica["caesarian"] == 0
    assert "domitius" not in s2.dead


def test_a_murdered_supreme_leader_leaves_his_side_without_one() -> None:
    """§17.6: the Senate loses its held stratagems and must claim the succession."""
    s = _facing()
    s.stratagems["caesarian"]["agent"] = 1
    s.stratagems["senatorial"] = {"military": 2, "political": 1, "agent": 0}
    s.forces["d"] = s.forces["d"].model_copy(update={"leaders": ("domitius", "pompeius")})
    s2, ev = play(s, A.Assassinate("pompeius"), Dice.forced([9]))
    assert s2.supreme["senatorial"] is None and "pompeius" in s2.dead
    assert s2.stratagems["senatorial"] == {"military": 0, "political": 0, "agent": 0}
    assert "succession_lost" in [e.kind for e in ev]


def test_out_of_reach_or_without_the_stratagem_nothing_is_offered() -> None:
    """§18: reach and the stratagem in hand."""
    s = _facing()
    assert P.assassination_targets(s, "caesarian") == []  # no Agent stratagem
    s.stratagems["caesarian"]["agent"] = 1
    s.forces["far"] = army("far", "senatorial", "utica", [("legion", "R", 5)], ("cato",))
    assert "cato" not in P.assassination_targets(s, "caesarian")
    with pytest.raises(RuleError):
        play(s, A.Assassinate("cato"), Dice.forced([9]))


def test_chances_for_the_ai_and_the_window() -> None:
    """§18.1–§18.2: the odds shown are the table's: d10 + modifier against the need."""
    assert P.chance(7, 0) == 0.3 and P.chance(7, -3) == 0.0 and P.chance(0, 0) == 1.0
    s = _side(fresh("recruiting", keep=["fabius", "massilia"]))
    assert P.tribute_chance(s, "caesarian", "massilia") == P.chance(tables().tribute.city, 0)
    assert P.tribute_chance(s, "caesarian", "parthia") == 0.0  # out of reach
    t = _side(fresh("recruiting", keep=["caesar"]))
    _ariminum_civis(t)
    assert P.bribe_chance(t, "caesarian", "ariminum") == P.chance(tables().bribe.need, 0)
    assert P.bribe_chance(t, "caesarian", "roma") == 0.0


def test_bribe_modifiers() -> None:
    """§18.2: a V civis −1, the briber's troops in the city +1, a starving garrison +1,
    more markers +1; Rome −3, a provincial capital −1."""
    t = tables().bribe
    s = _side(fresh("recruiting", keep=["caesar"]))
    _ariminum_civis(s)
    assert P.bribe_modifier(s, "caesarian", "ariminum") == 0
    s.forces["ar_civis"] = s.forces["ar_civis"].model_copy(
        update={"units": (Unit(id="ar_c", kind="civis", discipline="V", strength=2, nation="roman"),)}
    )
    s.forces["sieg"] = army("sieg", "caesarian", "ariminum", [("legion", "V", 5)], ())
    s.starving = ("ariminum",)
    s.res_publica = {"caesarian": 3, "senatorial": 1}
    assert P.bribe_modifier(s, "caesarian", "ariminum") == t.veteran + t.besieged + t.starving + t.markers
    r = _side(fresh("recruiting", keep=[]))
    assert P.bribe_modifier(r, "caesarian", "roma") == t.rome  # the plebs of Rome: an M civis
    assert P.bribe_modifier(r, "caesarian", "syracusa") == t.capital
