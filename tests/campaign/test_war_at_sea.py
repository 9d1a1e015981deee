"""The war at sea (issue 13): the AI's naval decisions on the real resolver's odds, the
supplied side's fight for its convoys (004 case (b)), sieges of ports held by sea, the
war's counts by kind, and the routes that fight decisive battles on the tactical engine.
"""

from __future__ import annotations

from bellum.dice import Dice
from bellum.engagement import Engagement
from bellum.events import Event
from campaign import actions as A
from campaign.ai import CampaignAI
from campaign.chronicle import counts_text, war_counts
from campaign.engine import legal_actions
from campaign.routes import is_decisive, route
from campaign.rules import supply
from campaign.rules.battle import land_engagement
from campaign.rules.siege import update_sieges
from campaign.state import CampaignState
from tests.campaign.test_ops_sequence import army, fresh, play, recording

AI = CampaignAI()


def _crossing(senate_fleets: int, caesar_fleets: int, legions: int = 2, senate: str = "V") -> CampaignState:
    """A person's Caesarian army sails from Brundisium to Dyrrachium across the lower
    Adriatic, where a Senatorial squadron under Bibulus lies: the voyage waits on the
    Senate's interception decision."""
    s = fresh("movement", "caesarian", keep=[])
    s.owners["brundisium"] = "caesarian"
    s.owners["dyrrachium"] = "caesarian"
    fleet = "R" if senate == "V" else "V"
    units = [("legion", "V", 5)] * legions + [("fleet", fleet, 3)] * caesar_fleets
    s.forces["x"] = army("x", "caesarian", "brundisium", units, ("antonius",))
    squadron = [("fleet", senate, 3)] * senate_fleets
    s.forces["b"] = army("b", "senatorial", "mare_adriaticum_inf", squadron, ("bibulus",))
    s.stratagems["senatorial"]["military"] = 2
    sail = next(a for a in legal_actions(s) if isinstance(a, A.Sail) and a.force == "x" and a.to == "dyrrachium")
    s, _ = play(s, sail)
    assert s.pending is not None and s.pending.kind == "intercept"
    return s


def test_the_ai_intercepts_a_persons_crossing_when_the_odds_favour_it() -> None:
    """004 case (c); docs/AI.md: four veteran squadrons against one fleet of transports."""
    s = _crossing(senate_fleets=4, caesar_fleets=1)
    assert AI.choose(s) == A.Intercept("b")


def test_the_ai_lets_a_crossing_pass_when_the_odds_do_not_favour_it() -> None:
    """One raw squadron against six veteran ones sailing light: the Senate keeps its
    stratagem (the auto-resolve gives the interceptor 1 battle in 6 on these dice)."""
    s = _crossing(senate_fleets=1, caesar_fleets=6, legions=0, senate="R")
    assert AI.choose(s) == A.Decline()


def test_the_ai_does_not_intercept_when_the_drowned_legions_would_end_the_war() -> None:
    """§21, docs/AI.md: the fratricide guard weighs a sea fight as a land battle — the two
    legions aboard (10 SP) drown with their ships; 60% of them reckoned killed (+6) carries
    fratricide 95 past the limit of 100, and 90 not."""
    s = _crossing(senate_fleets=4, caesar_fleets=1)
    s.fratricide = 90
    assert AI.choose(s) == A.Intercept("b")
    s.fratricide = 95
    assert AI.choose(s) == A.Decline()


def _besieged_port(escort_fleets: int, cutter_fleets: int) -> CampaignState:
    """Brundisium, Caesarian, besieged by a Senatorial army; a Senatorial squadron in the
    lower Adriatic declares the cut of its sea supply.  The Caesarian AI has
    ``escort_fleets`` squadrons at sea beside it."""
    s = fresh("supply", "caesarian", keep=[])
    s.owners["brundisium"] = "caesarian"
    s.forces["g"] = army("g", "caesarian", "brundisium", [("civis", "R", 2)])
    s.forces["siege"] = army("siege", "senatorial", "brundisium", [("legion", "V", 5)] * 3, ("lentulus",))
    if escort_fleets:
        s.forces["e"] = army(
            "e", "caesarian", "mare_adriaticum_inf", [("fleet", "V", 3)] * escort_fleets, ("antonius",)
        )
    s.forces["c"] = army("c", "senatorial", "mare_adriaticum_inf", [("fleet", "R", 3)] * cutter_fleets, ("libo",))
    update_sieges(s)
    assert "brundisium" in s.sieges
    supply.open_supply_phase(s)
    assert s.pending is not None and s.pending.kind == "cut_supply"
    s, _ = play(s, A.CutSupply("brundisium", "c"))
    if s.pending is not None and s.pending.kind == "cut_supply":
        s, _ = play(s, A.Decline())  # the escort's own victuals at sea (§10.1) are left alone
    return s


def test_a_cut_the_ai_could_contest_and_win_is_fought_not_conceded() -> None:
    """004 case (b): the supplied side concedes or fights; with a stronger escort in reach
    the AI fights, so the cut is never unopposed — a convoy battle decides it."""
    s = _besieged_port(escort_fleets=4, cutter_fleets=1)
    assert s.pending is not None and s.pending.kind == "escort"
    choice = AI.choose(s)
    assert choice == A.Escort("brundisium", "e")
    s, _ = play(s, choice)
    seen: list[Engagement] = []
    _s2, ev = play(s, A.Supply(), Dice.forced([]), engine=recording("A", seen, retreats=False))
    assert [e.trigger for e in seen] == ["supply"]
    kinds = [e.kind for e in ev]
    assert "supply_cut" not in kinds and "siege" not in kinds  # held by sea: supplied


def test_a_besieged_port_starves_once_the_sea_is_lost() -> None:
    """campaign.md §11.2: with no fleet of its own in reach, the cut stands unopposed and
    the besieged garrison rolls for siege attrition."""
    s = _besieged_port(escort_fleets=0, cutter_fleets=1)
    assert s.pending is None  # nothing to contest it with
    _s2, ev = play(s, A.Supply(), Dice.forced([9]))
    kinds = [e.kind for e in ev]
    assert "supply_cut" in kinds and "siege" in kinds


def test_a_weak_escort_concedes_the_cut() -> None:
    """The AI does not throw one squadron against six that would sink it for little loss
    (the auto-resolve: 0 wins in 6, 3 SP lost against 0.5): it concedes the cut."""
    s = _besieged_port(escort_fleets=1, cutter_fleets=6)
    assert AI.choose(s) == A.Decline()


def test_the_summary_counts_every_kind_of_engagement() -> None:
    """Issue 13: the war's summary names each kind as ``N <kind>``."""
    ev = [
        Event("interception", "x", {}),
        Event("siege_begun", "x", {}),
        Event("storm", "x", {}),
        Event("battle", "x", {"battle_kind": "naval", "trigger": "supply"}),
        Event("battle", "x", {"battle_kind": "naval", "trigger": "mutual"}),
        Event("battle", "x", {"battle_kind": "land", "trigger": "battle", "relief": True, "engine": "tactical"}),
    ]
    counts = war_counts(ev)
    assert counts == {
        "land battles": 1,
        "sea interceptions": 1,
        "supply battles": 1,
        "mutual sea battles": 1,
        "sieges begun": 1,
        "storms": 1,
        "relief battles": 1,
        "tactical battles": 1,
    }
    assert counts_text(counts).startswith("1 land battles, 1 sea interceptions, 1 supply battles")


def _caesar_at_ravenna() -> CampaignState:
    s = fresh("combat", "caesarian", keep=[])
    s.forces["caesar"] = army("caesar", "caesarian", "ravenna", [("legion", "V", 5)] * 3, ("caesar",))
    s.supreme["caesarian"] = "caesar"
    return s


def test_a_battle_is_decisive_with_a_supreme_leader_and_armies_on_both_sides() -> None:
    """campaign.md §12.8: Caesar present and both sides at 12 SP or more."""
    s = _caesar_at_ravenna()
    place = "ravenna"
    s.forces["p"] = army("p", "senatorial", place, [("legion", "V", 5)] * 3, ("lentulus",))
    assert is_decisive(land_engagement(s, place, 0, 0))
    s.forces["p"] = army("p", "senatorial", place, [("legion", "V", 5)], ("lentulus",))
    assert not is_decisive(land_engagement(s, place, 0, 0))


def test_the_decisive_route_fights_decisive_battles_on_the_tactical_engine() -> None:
    """``--battles decisive-tactical``: a decisive battle comes back from the tactical
    engine with every SP accounted for; a small one from the battleboard."""
    s = _caesar_at_ravenna()
    place = "ravenna"
    s.forces["p"] = army("p", "senatorial", place, [("legion", "V", 5)] * 3, ("lentulus",))
    eng = land_engagement(s, place, 0, 0)
    out = route("decisive-tactical")(eng, Dice(5))
    assert out.engine == "tactical"
    assert {f.id for f in out.units} == {u.id for u in eng.units}
    s.forces["p"] = army("p", "senatorial", place, [("legion", "V", 5)], ("lentulus",))
    small = land_engagement(s, place, 0, 0)
    assert route("decisive-tactical")(small, Dice(5)).engine == "battleboard"


def test_every_siege_and_interception_has_its_story() -> None:
    """Issue 13 item 4: ``--reports`` tells each siege from its beginning to its end (the
    blockade and the hunger on the way) and each interception, found or not."""
    from campaign.chronicle import stories

    d = {"date": "June 48 BC"}
    ev = [
        Event("siege_begun", "Caesar lays siege to Brundisium.", {**d, "place": "brundisium"}),
        Event("cut_declared", "Libo moves to cut the sea lanes.", {**d, "place": "brundisium"}),
        Event("siege", "The garrison loses 1 SP.", {**d, "place": "brundisium"}),
        Event("march", "Someone marches elsewhere.", {**d, "place": "roma"}),
        Event("capture", "Brundisium falls.", {**d, "place": "brundisium"}),
        Event(
            "interception", "Bibulus puts out but does not find the fleet.", {**d, "place": "corcyra", "found": False}
        ),
    ]
    siege, icp = stories(ev)
    assert siege.title() == "Siege of Brundisium, June 48 BC"
    assert len(siege.lines) == 4 and siege.end == "Brundisium fell."
    assert "marches" not in siege.markdown()
    assert icp.kind == "interception" and "not found" in icp.end


def test_a_decisive_battle_headless_is_fought_on_the_tactical_engine_and_kept_in_the_log() -> None:
    """``--battles decisive-tactical``: the defender's Commit carries the tactical outcome,
    so the action log replays under the default engine; other modes leave it alone."""
    from campaign.routes import settled

    s = _caesar_at_ravenna()
    s.forces["p"] = army("p", "senatorial", "ravenna", [("legion", "V", 5)] * 3, ("lentulus",))
    s, _ = play(s, A.Battle("ravenna", 0))
    assert s.pending is not None and s.pending.kind == "commit"
    plain = A.Commit(0)
    assert settled(s, plain, "auto", 5) is plain
    fought = settled(s, plain, "decisive-tactical", 5)
    assert isinstance(fought, A.Commit) and fought.outcome is not None and fought.outcome.engine == "tactical"
    _s2, ev = play(s, fought)
    battle = next(e for e in ev if e.kind == "battle")
    assert battle.data["engine"] == "tactical" and war_counts(ev)["tactical battles"] == 1


def test_a_person_sees_the_odds_of_each_sea_decision() -> None:
    """The window (campaign.view.game, no arcade) offers a person the fight for his convoys
    with the odds of the real resolver on that very engagement (``ODDS_BATTLES`` battles),
    or the concession."""
    from battleboard.resolve import odds
    from campaign.view.game import ODDS_BATTLES, CampaignGame

    game = CampaignGame.new(seed=5, humans=frozenset({"caesarian"}))
    game.session.state = _besieged_port(escort_fleets=4, cutter_fleets=1)
    options = game.pending_options()
    assert game.pending_title() == "Fight for your sea supply?"
    fight = next(o for o in options if isinstance(o.action, A.Escort))
    eng = supply.convoy_engagement(game.state, "brundisium", "e", "c")
    win = odds(eng, ODDS_BATTLES, seed=1 + game.state.turn)["A"]
    assert f"you win {win:.0%}" in fight.detail
    assert any(isinstance(o.action, A.Decline) and o.label == "Concede the cut" for o in options)


def test_a_lifted_siege_ends_the_garrisons_starving() -> None:
    """campaign.md §11.2: the storm's +1 against a starving garrison counts for *this*
    siege; when the besiegers leave, the garrison is no longer starving."""
    s = _besieged_port(escort_fleets=0, cutter_fleets=1)
    s.starving = ("brundisium",)
    for fid in [f.id for f in s.side_forces_at("brundisium", "senatorial")]:
        del s.forces[fid]  # the besiegers march away
    ev = update_sieges(s)
    assert [e.kind for e in ev] == ["siege_lifted"] and s.starving == () and "brundisium" not in s.sieges


def test_reports_come_in_the_order_the_engagements_began() -> None:
    """``--reports``: battles, sieges and interceptions numbered in the order they began."""
    from campaign.chronicle import Story, all_reports

    d = {"date": "June 48 BC"}
    ev = [
        Event("interception", "Bibulus misses.", {**d, "place": "corcyra", "found": False}),
        Event("siege_begun", "Caesar lays siege to Brundisium.", {**d, "place": "brundisium"}),
    ]
    got = all_reports(ev)
    assert [type(r) for r in got] == [Story, Story] and [r.kind for r in got] == ["interception", "siege"]  # type: ignore[union-attr]


def test_fleets_are_wanted_in_any_port_and_most_near_a_port_under_siege() -> None:
    """docs/AI.md: while a side wants fleets it values one raised in any port above the
    recruiting floor, more within ``THEATRE_REACH`` of a port under siege — and not at all
    once its fleets match its share of the enemy's."""
    from campaign import ai_sea

    s = fresh("recruiting", "caesarian", keep=[])
    quiet = ai_sea.fleet_recruit_value(s, "caesarian", "brundisium")
    assert quiet == ai_sea.FLEET_BASE
    s.sieges["dyrrachium"] = ("caesarian", s.turn)
    near = ai_sea.fleet_recruit_value(s, "caesarian", "brundisium")
    assert near == ai_sea.FLEET_BASE + ai_sea.FLEET_THEATRE
    s.forces["c"] = army("c", "caesarian", "ostia", [("fleet", "R", 3)] * 8)
    assert ai_sea.fleet_recruit_value(s, "caesarian", "brundisium") == 0.0


def test_a_squadron_with_nowhere_to_be_makes_for_its_sides_main_squadron() -> None:
    """docs/AI.md: ships with no station join the side's largest squadron, to fight beside it."""
    from campaign import ai_sea

    s = fresh("movement", "caesarian", keep=[])
    s.forces = {}
    s.forces["big"] = army("big", "caesarian", "brundisium", [("fleet", "R", 3)] * 4, ("antonius",))
    s.forces["small"] = army("small", "caesarian", "tarentum", [("fleet", "R", 3)])
    assert ai_sea.stations(s, "caesarian") == []
    sails = [a for a in legal_actions(s) if isinstance(a, A.Sail) and a.force == "small"]
    move = ai_sea.squadron_move(s, s.forces["small"], list(sails))
    assert move is not None and move.to == "brundisium"
    assert ai_sea.squadron_move(s, s.forces["big"], []) is None


def test_what_a_cut_costs_is_read_from_the_rules_own_tables() -> None:
    """ai_sea.hunger: a besieged garrison expects the siege table's mean loss (tables.toml
    [siege] attrition: 2, 1, 1, 1 and six 0 → 0.5 SP); an army in the open expects its
    forage losses, roll by roll (§10.3): 25 SP in the hills around Dyrrachium, which the
    Senate holds, forage at +2 (pillage) −1 (over 20 SP), so rolls 0 and 1 read the hills
    row's two 10% entries — 3 SP each (10% of 25, rounded) on 2 rolls in 10: 0.6 SP."""
    from campaign.ai_sea import hunger

    s = _besieged_port(escort_fleets=0, cutter_fleets=1)
    s.active = "caesarian"
    assert hunger(s, "brundisium") == 0.5
    field = fresh("supply", "caesarian", keep=[])
    field.forces["x"] = army("x", "caesarian", "dyrrachium", [("legion", "V", 5)] * 5)
    assert field.owner_side("dyrrachium") == "senatorial"
    assert hunger(field, "dyrrachium") == 0.6


def test_caesar_builds_fleets_to_parity_and_the_senate_beyond_it() -> None:
    """docs/AI.md (issue 13, BALANCE run 50): the Caesarians build while their fleets are
    fewer than the Senate's; the Senate until it has 130% of Caesar's."""
    from campaign import ai_sea

    s = fresh("recruiting", "caesarian", keep=[])
    s.forces["c"] = army("c", "caesarian", "ostia", [("fleet", "R", 3)] * 9)
    s.forces["s"] = army("s", "senatorial", "dyrrachium", [("fleet", "R", 3)] * 10)
    assert ai_sea.fleets_wanted(s, "caesarian")  # 9 against 10: under parity
    assert ai_sea.fleets_wanted(s, "senatorial")  # 10 against 9: under 130%
    s.forces["c"] = army("c", "caesarian", "ostia", [("fleet", "R", 3)] * 10)
    assert not ai_sea.fleets_wanted(s, "caesarian")  # parity reached
    s.forces["s"] = army("s", "senatorial", "dyrrachium", [("fleet", "R", 3)] * 13)
    assert not ai_sea.fleets_wanted(s, "senatorial")  # 13 against 10: 130% reached
