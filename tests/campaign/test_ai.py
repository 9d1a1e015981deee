"""The campaign AI (docs/rules/campaign.md §14.2; issue 7 item 7, issue 8 item 7): it
plays only legal actions, concentrates, hunts armies it outnumbers, attacks only when
the real battleboard odds favour it, plays the political phases, and ends with the war."""

from __future__ import annotations

from bellum.dice import Dice
from bellum.session import Session
from campaign import actions as A
from campaign.ai import (
    CITY_NEED,
    CLIENT_RANGE,
    FRATRICIDE_BAR,
    FRATRICIDE_BAR_LAST,
    FRATRICIDE_SHARE,
    FRATRICIDE_SHARE_LAST,
    GUARD_POLITICAL,
    GUARD_TURN,
    HORDE_BASE,
    HUNT_BASE,
    HUNT_RANGE,
    LATE_ATTACK_EASE,
    LATE_HUNT_RANGE,
    LATE_HUNT_RATIO,
    LATE_HUNT_TURN,
    ROME_NEED,
    VALUE_ROME,
    CampaignAI,
    _Context,
    dist,
    only_politics_wanting,
    play_turns,
    rebuilding,
    road,
)
from campaign.decisions import VetoDecision
from campaign.engine import CampaignEngine, legal_actions
from campaign.rules.clients import levy
from campaign.state import CampaignState
from tests.campaign.test_ops_sequence import army, fresh, put


def duel(mine: list[tuple[str, str, int]], theirs: list[tuple[str, str, int]]) -> CampaignState:
    """Caesar's army at Ariminum, a Senatorial army one road step away at Ancona."""
    s = fresh(keep=[])
    s.forces["me"] = army("me", "caesarian", "ariminum", mine, ("caesar",))
    s.forces["them"] = army("them", "senatorial", "ancona", theirs, ("pompeius",))
    s.forces = {k: f for k, f in s.forces.items() if k in ("me", "them") or not f.leaders}
    return s


def test_the_ai_attacks_an_army_it_beats_on_the_battleboard() -> None:
    s = duel([("legion", "I", 5)] * 4, [("legion", "R", 3)] * 2)
    act = CampaignAI().choose(s)
    assert isinstance(act, A.March) and act.force == "me" and act.to == "ancona"


def test_the_ai_keeps_out_of_a_battle_it_would_lose() -> None:
    s = duel([("legion", "R", 3)] * 2, [("legion", "V", 5)] * 4)
    act = CampaignAI().choose(s)
    assert not (isinstance(act, A.March) and act.to == "ancona")


def test_a_close_fight_is_settled_by_the_real_odds() -> None:
    """Between the clear cases the AI asks the battleboard (``battleboard.resolve.odds``)."""
    ai = CampaignAI()
    s = duel([("legion", "V", 5)] * 3, [("legion", "V", 5)] * 3)
    ai.choose(s)
    assert ai._odds, "an even fight must be settled by the battleboard's odds"
    ((_, _, place, mine, theirs),) = ai._odds
    assert (place, mine, theirs) == ("ancona", 15, 15)


def test_fratricide_raises_the_odds_an_attack_needs() -> None:
    """§21: as fratricide nears the limit that ends the war with no winner, the AI fights
    only at better odds."""
    ai = CampaignAI()
    s = fresh()
    low = ai.bar(s)
    s.fratricide = 95
    assert ai.bar(s) > low + 0.25


def test_the_ai_hunts_an_army_it_outnumbers() -> None:
    """An army that outnumbers a distant enemy army moves toward it (§14.2)."""
    s = fresh(keep=[])
    s.forces["me"] = army("me", "caesarian", "ariminum", [("legion", "V", 5)] * 4, ("caesar",))
    s.forces["them"] = army("them", "senatorial", "brundisium", [("legion", "R", 4)] * 3, ("pompeius",))
    s.forces = {k: f for k, f in s.forces.items() if k in ("me", "them") or not f.leaders}
    act = CampaignAI().choose(s)
    assert isinstance(act, A.March)
    assert dist(act.to, "brundisium") < dist("ariminum", "brundisium")


def test_leaderless_troops_join_an_army_where_they_stand() -> None:
    s = fresh(keep=[])
    s.forces["me"] = army("me", "caesarian", "ariminum", [("legion", "V", 5)], ("caesar",))
    s.forces["loose"] = army("loose", "caesarian", "ariminum", [("legion", "R", 5)])
    s.forces = {k: f for k, f in s.forces.items() if k in ("me", "loose") or not f.leaders}
    act = CampaignAI().choose(s)
    assert act == A.Merge("loose", "me")


def test_the_ai_takes_military_stratagems_first_when_short() -> None:
    s = fresh(phase="stratagems")
    s.stratagems["caesarian"] = {"military": 0, "political": 5, "agent": 0}
    s.due = 2
    act = CampaignAI().choose(s)
    assert act in legal_actions(s)
    assert act == A.Take("military")


def test_caesar_works_the_populares_until_his_requirement_is_safe() -> None:
    """§21: Caesar needs 4 Res Publica markers; he rolls on his own party's table."""
    s = fresh(phase="res_publica")
    s.stratagems["caesarian"] = {"military": 2, "political": 4, "agent": 0}
    s.res_publica = {"caesarian": 1, "senatorial": 2}
    act = CampaignAI().choose(s)
    assert act == A.Politics("populares")
    s.res_publica = {"caesarian": 5, "senatorial": 0}
    assert CampaignAI().choose(s) == A.Pass()


def test_the_tribune_vetoes_the_enemys_result() -> None:
    s = fresh(phase="res_publica", side="senatorial")
    s.pending = VetoDecision("caesarian", "senatorial", "populares", 0)
    assert s.republic["tribune"] == "caesarian"  # Antonius and Q. Cassius fled to Caesar
    assert A.Veto() in legal_actions(s)
    assert CampaignAI().choose(s) == A.Veto()


def test_every_choice_is_legal_and_the_ai_plays_whole_turns() -> None:
    engine = CampaignEngine()
    state = engine.new_state("49bc", Dice(7))
    dice = Dice(7)
    ai = CampaignAI()
    phases = set()
    while state.turn < 2:
        act = ai.choose(state)
        assert act in legal_actions(state)
        phases.add(state.phase)
        state, _ = engine.apply(state, act, dice)
    assert {"events", "stratagems", "res_publica", "recruiting", "movement", "combat", "supply"} <= phases


def test_play_turns_stops_when_the_war_is_over() -> None:
    s = Session(CampaignEngine(), "49bc", 3)
    s.state.fratricide = 101
    s.state.phase = "movement"
    s.state.active = "caesarian"
    play_turns(s, 1)  # the first change of phase ends the war
    assert s.state.result["how"] == "fratricide"
    assert s.state.turn == 0


def test_client_armies_keep_near_home() -> None:
    """§14.2: a client king's army fights within ``CLIENT_RANGE`` of its capital."""
    s = fresh(side="senatorial")
    s.clients["numidia"] = "senatorial"
    s.forces = {k: f for k, f in s.forces.items() if k == "juba" or not f.leaders}
    put(s, "juba", "zama")
    ai, ctx, juba = CampaignAI(), _Context(s, "senatorial"), s.forces["juba"]
    far = [p for p in ("cyrene", "leptis_magna", "hippo_regius", "utica") if dist("cirta", p) > CLIENT_RANGE]
    near = [p for p in ("cyrene", "leptis_magna", "hippo_regius", "utica") if dist("cirta", p) <= CLIENT_RANGE]
    assert far and near
    assert all(ai._score(ctx, juba, p) == -100.0 for p in far)
    assert all(ai._score(ctx, juba, p) > -100.0 for p in near)


def test_the_king_of_kings_stays_back() -> None:
    """004: the Parthian king stays far to the rear while a satrap leads the host."""
    s = fresh(side="senatorial")
    s.clients["parthia"] = "senatorial"
    ai, ctx = CampaignAI(), _Context(s, "senatorial")
    king, satrap = s.forces["parthia_king"], s.forces["parthia_satrap"]
    assert king.location == "ctesiphon"
    assert ai._score(ctx, king, "dura") == -100.0
    assert ai._score(ctx, king, "ctesiphon") > -100.0
    assert ai._score(ctx, satrap, "edessa") > -100.0


def test_a_side_short_of_a_triumph_values_cities_more_and_takes_towns_of_no_side() -> None:
    """§21.1 and §20.1: Caesar, far from 25 cities, values every city more, and a town of
    no side (it submits to an army standing in it) is worth marching to."""
    s = fresh(keep=["caesar"])
    for c in sorted(c for c, o in s.owners.items() if o == "caesarian")[10:]:
        s.owners[c] = "senatorial"  # Gaul lost to revolts and hordes
    s.owners["ravenna"] = "caesarian"
    s.owners["ariminum"] = "neutral"
    s.forces = {k: f for k, f in s.forces.items() if f.location != "ariminum"}
    ctx = _Context(s, "caesarian")
    assert ctx.bonus == CITY_NEED and "ariminum" in ctx.open
    assert _Context(s, "senatorial").bonus == 0.0  # the Senate holds far more than 25
    ai, caesar = CampaignAI(), s.forces["caesar"]
    assert ai._score(ctx, caesar, "ariminum") > ai._score(ctx, caesar, "ravenna")


def test_a_side_that_is_not_losing_refuses_a_battle_that_would_end_the_war_unwon() -> None:
    """§21: fratricide past 100 ends the war with no winner. The Senate, which would win if
    the war ended now, will not fight a battle likely to push it past the limit; nor will
    Caesar, who would lose (§14.2: neither side seeks an end with no winner)."""
    s = duel([("legion", "V", 5)] * 3, [("legion", "V", 5)] * 4)
    s.active = "senatorial"
    ai = CampaignAI()
    them, me = s.forces["me"], s.forces["them"]  # from the Senate's side
    assert not ai.would_end_the_war(s, me, them.location)
    s.fratricide = 78
    assert not ai.would_end_the_war(s, me, them.location)  # 7 legions, 60% of them killed: +21
    s.fratricide = 80
    assert ai.would_end_the_war(s, me, them.location)
    s.active = "caesarian"
    # the Senate is winning, yet Caesar keeps the guard too: the consuls (§16.5), a beaten
    # champion (§16.6) and the tables may still turn the war (§14.2; BALANCE.md run 45)
    assert ai.would_end_the_war(s, them, me.location)
    s.turn = 39  # even in December 45 BC, with a smaller margin (below)
    s.fratricide = 92  # 7 legions, 25% of them killed: +8.75
    assert ai.would_end_the_war(s, them, me.location)


def test_the_fratricide_guard_counts_worn_legions_too() -> None:
    """§21.5, §14.2 (BALANCE.md run 50): the killed SP of a side's legions add up in blocks
    of 5, so the guard reckons every legion's SP, not only full legions' (seed 35's war
    ended so: five worn legions and a full one against five full, at fratricide 90)."""
    s = duel([("legion", "V", 4)] * 5, [("legion", "V", 5)] * 2)
    ai, me, them = CampaignAI(), s.forces["me"], s.forces["them"]
    s.fratricide = 85  # 30 legion SP on the field, 60% of them: +18 (full legions alone: +6)
    assert ai.would_end_the_war(s, me, them.location)
    s.fratricide = 80
    assert not ai.would_end_the_war(s, me, them.location)


def test_leaderless_troops_never_march_into_an_enemy_army() -> None:
    """§14.2 (BALANCE.md run 50): leaderless troops make for the nearest led army of their
    side, but not through an enemy army's space — nobody would have chosen that battle or
    weighed its odds and blood (seed 13's war ended in fratricide so: a leaderless rearguard
    walked into Pompeius' ten legions at fratricide 95)."""
    s = duel([("legion", "V", 5)] * 3, [("legion", "V", 5)] * 4)
    s.forces["loose"] = army("loose", "caesarian", "asculum", [("auxiliary", "R", 2)] * 3)
    ctx = _Context(s, "caesarian")
    ai, loose = CampaignAI(), s.forces["loose"]
    assert dist("ancona", "ariminum") < dist("asculum", "ariminum")  # the way to Caesar
    assert ai._score(ctx, loose, "ancona") < ai._score(ctx, loose, "asculum")
    s.forces = {k: f for k, f in s.forces.items() if k != "them"}
    ctx = _Context(s, "caesarian")  # with the enemy gone the road is open again
    assert ai._score(ctx, loose, "ancona") > ai._score(ctx, loose, "asculum")


def test_in_the_last_year_the_fratricide_care_keeps_a_smaller_margin() -> None:
    """§14.2, §21 (BALANCE.md run 50): the guard's margin is for the battles still to come;
    from January 45 BC (``GUARD_TURN``) only months are left for them, so it reckons
    ``FRATRICIDE_SHARE_LAST`` of the full legions killed and the bar rises by at most
    ``FRATRICIDE_BAR_LAST`` — the war's last battles are fought, not refused."""
    s = duel([("legion", "V", 5)] * 3, [("legion", "V", 5)] * 4)
    s.active = "senatorial"
    ai = CampaignAI()
    them, me = s.forces["me"], s.forces["them"]
    s.fratricide = 80  # 7 full legions on the field
    s.turn = GUARD_TURN - 1  # December 46 BC: 60% of them, +21, past the limit
    assert FRATRICIDE_SHARE_LAST < FRATRICIDE_SHARE and FRATRICIDE_BAR_LAST < FRATRICIDE_BAR
    assert ai.would_end_the_war(s, me, them.location)
    before = ai.bar(s)
    s.turn = GUARD_TURN  # January 45 BC: 25% of them, +8.75, within it
    assert not ai.would_end_the_war(s, me, them.location)
    assert ai.bar(s) < before - 0.1
    s.fratricide = 30  # far from the limit the bar is the same in both years
    late = ai.bar(s)
    s.turn = GUARD_TURN - 1
    assert ai.bar(s) == late


def test_the_ai_falls_on_a_horde_it_outnumbers_and_keeps_clear_of_one_it_does_not() -> None:
    """§8.3, §19.4: a stirring horde may be attacked; the AI marches on one it outnumbers
    1.5 to 1 (HORDE_RATIO) and avoids one it cannot beat."""
    s = fresh(keep=["horde_germani"])
    s.forces["me"] = army("me", "caesarian", "ravenna", [("legion", "V", 5)] * 4, ("caesar",))
    put(s, "horde_germani", "ariminum")
    s.roused = ("horde_germani",)
    ai = CampaignAI()
    ctx = _Context(s, "caesarian")
    horde = s.forces["horde_germani"].strength()
    assert ctx.hordes == {"ariminum": horde} and 1.5 * horde <= 20
    assert dict(ctx.goals(s.forces["me"]))["ariminum"] >= HORDE_BASE
    assert ai._score(ctx, s.forces["me"], "ariminum") > ai._score(ctx, s.forces["me"], "ravenna")
    s.forces["me"] = army("me", "caesarian", "ravenna", [("legion", "V", 1)], ("caesar",))
    ctx = _Context(s, "caesarian")
    assert dict(ctx.goals(s.forces["me"])).get("ariminum", 0.0) < HORDE_BASE  # only as a city
    assert ai._score(ctx, s.forces["me"], "ariminum") < ai._score(ctx, s.forces["me"], "ravenna")


def test_two_armies_facing_a_stronger_enemy_join_before_they_attack() -> None:
    """§14.2 (concentration): two armies of a side in one space, each weaker than the enemy
    army nearby, become one (the Merge action) so that together they can meet it."""
    s = duel([("legion", "V", 5)] * 4, [("legion", "V", 5)] * 6)
    s.forces["friend"] = army("friend", "caesarian", "ariminum", [("legion", "V", 5)] * 3, ("antonius",))
    assert CampaignAI().choose(s) == A.Merge("friend", "me")
    # with no stronger enemy army near, each keeps its own theatre
    s.forces["them"] = army("them", "senatorial", "ancona", [("legion", "V", 5)] * 2, ("pompeius",))
    assert not isinstance(CampaignAI().choose(s), A.Merge)


def test_an_outmatched_army_marches_to_a_friend_that_together_matches_the_enemy() -> None:
    """§14.2 (concentration): an army facing a stronger enemy army is drawn toward the
    strongest friendly army within reach when the two together would match it."""
    s = duel([("legion", "V", 5)] * 3, [("legion", "V", 5)] * 6)
    s.forces["friend"] = army("friend", "caesarian", "ravenna", [("legion", "V", 5)] * 4, ("antonius",))
    ctx = _Context(s, "caesarian")
    me = s.forces["me"]
    assert ctx.partner(me) == s.forces["friend"]
    assert ctx.partner(s.forces["friend"]) is None  # the bigger army is the one joined
    s.forces["them"] = army("them", "senatorial", "ancona", [("legion", "V", 5)] * 12, ("pompeius",))
    assert _Context(s, "caesarian").partner(me) is None  # even together no match: no pull


def test_a_side_without_a_field_army_rebuilds() -> None:
    """§14.2 (rebuilding), §17.1: a side whose led armies have (nearly) nothing left levies
    legions first, even with its last Political stratagem."""
    s = fresh(phase="recruiting", side="senatorial")
    assert not rebuilding(s, "senatorial")
    pompeius = s.forces["pompeius"]
    s.forces = {k: f for k, f in s.forces.items() if f.side != "senatorial" or not f.leaders}
    s.forces["pompeius"] = pompeius.model_copy(update={"location": "roma", "units": ()})
    s.owners["roma"] = "senatorial"
    s.forces = {k: f for k, f in s.forces.items() if k == "pompeius" or f.location != "roma"}
    s.stratagems["senatorial"] = {"military": 1, "political": 1, "agent": 0}
    assert rebuilding(s, "senatorial")
    act = CampaignAI().choose(s)
    assert act in legal_actions(s)
    assert isinstance(act, A.Recruit) and act.kind == "legion" and act.city == "roma"


def test_the_ai_measures_distance_round_spaces_it_may_not_enter() -> None:
    """§8.3: a space a power at peace holds cannot be entered, so the AI's road to a goal
    goes round it (``road``), longer than the whole network's shortest path."""
    assert dist("ariminum", "asculum") == road(frozenset(), "ariminum", "asculum")
    assert road(frozenset({"ancona"}), "ariminum", "asculum") > dist("ariminum", "asculum")
    s = fresh()
    ctx = _Context(s, "caesarian")
    assert "massilia" in ctx.closed  # a free city with troops of its own (§20)


def test_client_levies_are_named_for_the_chronicle() -> None:
    """§19.3: a client's new units bear their kind and state, a new force "Levies of …" —
    the chronicle (and the AI's reports) never show an id."""
    s = fresh()
    s.clients["numidia"] = "senatorial"
    s.forces = {k: f for k, f in s.forces.items() if not (f.side == "numidia" and f.location == "cirta")}
    levy(s, "numidia", 6)
    new = [f for f in s.forces.values() if f.side == "numidia" and f.location == "cirta"]
    assert new and all(f.label() == "Levies of Numidia" for f in new)
    assert all(u.name.endswith(" of Numidia") for f in new for u in f.units)


def test_the_ai_hunts_only_armies_within_reach() -> None:
    """§14.2: an enemy army more than ``HUNT_RANGE`` movement points away (by the roads the
    side may march) is no hunting goal — it will have moved on long before it is reached."""
    s = fresh(keep=[])
    s.forces["me"] = army("me", "caesarian", "ariminum", [("legion", "V", 5)] * 4, ("caesar",))
    s.forces["near"] = army("near", "senatorial", "brundisium", [("legion", "R", 4)] * 2, ("pompeius",))
    s.forces["far"] = army("far", "senatorial", "antiochia", [("legion", "R", 4)] * 2, ("scipio",))
    s.forces = {k: f for k, f in s.forces.items() if k in ("me", "near", "far") or not f.leaders}
    ctx = _Context(s, "caesarian")
    assert ctx.dist("ariminum", "brundisium") <= HUNT_RANGE < ctx.dist("ariminum", "antiochia")
    goals = dict(ctx.goals(s.forces["me"]))
    assert goals.get("brundisium", 0.0) >= HUNT_BASE
    assert goals.get("antiochia", 0.0) < HUNT_BASE


def test_from_47_bc_armies_seek_battle_farther_and_against_bigger_armies() -> None:
    """§14.2: from January 47 BC (``LATE_HUNT_TURN``) an army hunts enemy armies within
    ``LATE_HUNT_RANGE`` that it matches ``LATE_HUNT_RATIO`` to 1 — the war seeks its
    decision — and attacks at ``LATE_ATTACK_EASE`` lower odds."""
    s = fresh(keep=[])
    s.forces["me"] = army("me", "caesarian", "ariminum", [("legion", "V", 5)] * 4, ("caesar",))
    s.forces["them"] = army("them", "senatorial", "brundisium", [("legion", "R", 5)] * 5, ("pompeius",))
    s.forces = {k: f for k, f in s.forces.items() if k in ("me", "them") or not f.leaders}
    assert LATE_HUNT_RATIO * 25 <= 20 < 25  # 20 SP against 25: matched late, not early
    assert LATE_HUNT_TURN == 16 and LATE_HUNT_RANGE > HUNT_RANGE
    ai = CampaignAI()
    early = ai.bar(s)
    assert dict(_Context(s, "caesarian").goals(s.forces["me"])).get("brundisium", 0.0) < HUNT_BASE
    s.turn = LATE_HUNT_TURN  # January 47 BC
    assert dict(_Context(s, "caesarian").goals(s.forces["me"])).get("brundisium", 0.0) >= HUNT_BASE
    assert abs(ai.bar(s) - (early - LATE_ATTACK_EASE)) < 1e-9


def test_a_side_that_would_win_but_for_its_requirement_spends_every_political_stratagem() -> None:
    """§21.1, §14.2: the Senate holds Rome, its cities and Pompeius but Caesar holds three
    markers; it works the Optimates with its last Political stratagem and takes Political
    stratagems first."""
    s = fresh(phase="res_publica", side="senatorial")
    s.res_publica = {"caesarian": 3, "senatorial": 2}
    s.stratagems["senatorial"] = {"military": 2, "political": 1, "agent": 0}
    assert only_politics_wanting(s, "senatorial")
    assert CampaignAI().choose(s) == A.Politics("optimates")
    s.res_publica = {"caesarian": 1, "senatorial": 2}  # its requirement met: it keeps one
    assert not only_politics_wanting(s, "senatorial")
    assert CampaignAI().choose(s) == A.Pass()
    s.res_publica = {"caesarian": 3, "senatorial": 2}
    s.phase, s.due = "stratagems", 2
    assert CampaignAI().choose(s) == A.Take("political")


def test_a_side_meeting_its_requirement_without_rome_values_rome_above_all() -> None:
    """§21.1, §14.2: Caesar with four markers but without Rome adds ``ROME_NEED`` to it."""
    s = fresh(keep=["caesar"])
    s.res_publica = {"caesarian": 4, "senatorial": 0}
    ctx = _Context(s, "caesarian")
    assert ctx.rome_need == ROME_NEED
    assert dict(ctx.targets)["roma"] == VALUE_ROME + ctx.bonus + ROME_NEED
    s.res_publica = {"caesarian": 3, "senatorial": 2}
    assert _Context(s, "caesarian").rome_need == 0.0


def test_a_side_without_a_supreme_leader_takes_a_political_stratagem_to_claim_first() -> None:
    """§17.6, §14.2: the succession is claimed with a Political stratagem, so a side that
    lost its Supreme Leader (and every stratagem with him) takes one before Military ones."""
    s = fresh(phase="stratagems")
    s.stratagems["caesarian"] = {"military": 0, "political": 0, "agent": 0}
    s.due = 2
    assert CampaignAI().choose(s) == A.Take("military")  # short of Military: those first
    s.supreme["caesarian"] = None
    assert CampaignAI().choose(s) == A.Take("political")
    s.stratagems["caesarian"]["political"] = 1  # one in hand is enough for the claim
    assert CampaignAI().choose(s) == A.Take("military")


def test_in_the_last_year_a_side_keeps_political_stratagems_for_the_res_publica() -> None:
    """§21.2, §14.2: the Requirement is judged when the war ends; from ``GUARD_TURN`` a side
    not rebuilding recruits with Political stratagems only above ``GUARD_POLITICAL``."""
    s = fresh(phase="recruiting", side="senatorial")
    s.stratagems["senatorial"] = {"military": 1, "political": GUARD_POLITICAL, "agent": 0}
    assert not rebuilding(s, "senatorial")
    act = CampaignAI().choose(s)
    assert not isinstance(act, A.Pass) and act in legal_actions(s)  # April 49: it recruits
    s.turn = GUARD_TURN
    assert CampaignAI().choose(s) in (A.Pass(), A.EndPhase())
    s.stratagems["senatorial"]["political"] = GUARD_POLITICAL + 1
    assert not isinstance(CampaignAI().choose(s), (A.Pass, A.EndPhase))


def test_in_the_last_year_the_senate_works_until_caesar_holds_no_marker() -> None:
    """§21.1, §14.2: the Senate's Requirement (Caesar at most 1) is met with Caesar at 1, but
    in the last year it rolls on for a margin against his rolls; before, it stops."""
    s = fresh(phase="res_publica", side="senatorial")
    s.stratagems["senatorial"] = {"military": 2, "political": 4, "agent": 0}
    s.res_publica = {"caesarian": 1, "senatorial": 4}
    assert CampaignAI().choose(s) == A.Pass()
    s.turn = GUARD_TURN
    assert CampaignAI().choose(s) == A.Politics("optimates")
    s.res_publica = {"caesarian": 0, "senatorial": 4}
    assert CampaignAI().choose(s) == A.Pass()
