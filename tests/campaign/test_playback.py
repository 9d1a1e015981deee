"""The other side's half-turn as map steps (campaign.playback) and the chronicle grouped by
turn and half-turn (campaign.chronicle.Chronicler): pure, no window."""

from __future__ import annotations

from bellum.events import Event
from campaign.chronicle import Chronicler, grouped
from campaign.playback import enemy_playback, half_turns, last_half_turn, playback


def ev(kind: str, text: str, date: str = "March 49 BC", **data: object) -> Event:
    return Event(kind, text, {"date": date, **data})


#: a log as the engine writes it: January's half-turns, then March's turn event and March's
LOG = [
    ev("historical_event", "The provincials demand justice.", "January 49 BC"),
    ev("side_turn", "The Caesarians play.", "January 49 BC", side="caesarian"),
    ev(
        "march",
        "Caesar marches from Ravenna to Ariminum.",
        "January 49 BC",
        force="caesar",
        path=["ravenna", "ariminum"],
        side="caesarian",
    ),
    ev("pass", "The Caesarians end their movement phase.", "January 49 BC", phase="movement"),
    ev("side_turn", "The Senatorials play.", "January 49 BC", side="senatorial"),
    ev(
        "march",
        "Pompeius marches from Luceria to Asculum.",
        "January 49 BC",
        force="pompeius",
        path=["luceria", "asculum"],
        side="senatorial",
    ),
    ev(
        "sail",
        "Ahenobarbus sails from Ancona to Aquileia.",
        "January 49 BC",
        force="domitius",
        path=["ancona", "mare_adriaticum_sup", "aquileia"],
        side="senatorial",
    ),
    ev(
        "battle",
        "Battle of Ariminum: Pompeius defeats Caesar.",
        "January 49 BC",
        place="ariminum",
        lost={"caesarian": 4, "senatorial": 1},
    ),
    ev("retreat", "Caesar retreats from Ariminum to Ravenna.", "January 49 BC", force="caesar", place="ravenna"),
    ev("capture", "The Senatorials occupy Ariminum.", "January 49 BC", place="ariminum", side="senatorial"),
    ev("siege_begun", "Pompeius lays siege to Ravenna.", "January 49 BC", place="ravenna"),
    ev("turn", "— March 49 BC —", "March 49 BC", turn=1),
    ev("wavering", "The towns of Gallia Cisalpina stay loyal.", "March 49 BC"),
    ev("side_turn", "The Caesarians play.", "March 49 BC", side="caesarian"),
]


def test_the_chronicle_lists_each_line_under_its_own_turn_and_half_turn() -> None:
    out = grouped(LOG)
    jan, mar = out.index("— January 49 BC —"), out.index("— March 49 BC —")
    assert jan == 0 and mar > jan
    # every January line sits between the January and March headers, every March line after
    for i, ln in enumerate(out):
        if ln.startswith("January"):
            assert jan < i < mar, ln
        if ln.startswith("March 49 BC —"):
            assert i > mar, ln
    # the half-turns in the order they were played, each before its own lines
    sen = out.index("The Senatorials play.")
    assert out.index("The Caesarians play.") < out.index("January 49 BC — Caesar marches from Ravenna to Ariminum.")
    assert sen < out.index("January 49 BC — Pompeius marches from Luceria to Asculum.")
    assert out.index("January 49 BC — Caesar marches from Ravenna to Ariminum.") < sen
    # a half-turn with no line yet writes no header (the March Caesarians have done nothing)
    assert out.count("The Caesarians play.") == 1


def test_the_chronicle_fed_in_pieces_is_the_whole_chronicle() -> None:
    c = Chronicler()
    pieces = [c.feed(LOG[i : i + 3]) for i in range(0, len(LOG), 3)]
    assert [ln for p in pieces for ln in p] == grouped(LOG)


def test_half_turns_and_the_last_ended_one_of_the_other_side() -> None:
    assert half_turns(LOG) == [(1, 4, "caesarian"), (4, 11, "senatorial"), (13, 14, "caesarian")]
    found = last_half_turn(LOG, ["senatorial"])
    assert found is not None and found[0] == 4
    # the Caesarians' March half-turn has not ended: their last ended one is January's
    found = last_half_turn(LOG, ["caesarian"])
    assert found is not None and found[0] == 1
    assert last_half_turn(LOG[:5], ["senatorial"]) is None


def test_the_enemy_playback_steps_marches_voyages_battles_sieges_and_captures() -> None:
    found = enemy_playback(LOG, ["senatorial"])
    assert found is not None
    start, pb = found
    assert start == 4 and pb.side == "senatorial" and pb.date == "January 49 BC"
    assert pb.title() == "Senatorials' turn, January 49 BC"
    kinds = [s.kind for s in pb.steps]
    assert kinds == ["march", "sail", "battle", "retreat", "capture", "siege_begun"]
    march, sail, battle, retreat, capture, siege = pb.steps
    assert march.path == ("luceria", "asculum") and march.place == "asculum"
    assert sail.path == ("ancona", "mare_adriaticum_sup", "aquileia")
    assert battle.place == "ariminum" and not battle.path
    assert retreat.path == ("ariminum", "ravenna")  # from the battle just fought
    assert capture.place == "ariminum" and siege.place == "ravenna"
    assert "Pompeius marches" in march.text
    assert pb.summary == (
        "1 march, 1 voyage.",
        "1 battle: the Caesarians lose 4 SP, the Senatorials lose 1 SP.",
        "1 siege or storm.",
        "The Senatorials take Ariminum.",
    )


def test_a_quiet_half_turn_says_so() -> None:
    pb = playback([ev("side_turn", "The Senatorials play.", side="senatorial")], "senatorial")
    assert pb.steps == () and pb.summary == ("Nothing moved on the map.",)


def test_the_windows_chronicle_keeps_each_turns_lines_under_its_header() -> None:
    """Issue 15: the window listed January's events under the March header."""
    from campaign.ai import CampaignAI
    from campaign.view.game import CampaignGame

    game = CampaignGame.new("49bc", 1, humans=frozenset())
    ai = CampaignAI()
    while game.state.turn < 2:
        game.play(ai.choose(game.state))
    lines = game.chronicle
    headers = [i for i, ln in enumerate(lines) if ln.startswith("— ")]
    assert [lines[i] for i in headers][:2] == ["— January 49 BC —", "— March 49 BC —"]
    for i, ln in enumerate(lines):
        if " — " in ln and not ln.startswith("— "):
            date = ln.split(" — ")[0]
            header = max(h for h in headers if h < i)
            assert lines[header].startswith(f"— {date}"), (ln, lines[header])
    # undo rebuilds the same chronicle from the log
    before = list(lines)
    game.chronicle = []
    game._chronicle_from(game.session.log)
    assert game.chronicle == before
