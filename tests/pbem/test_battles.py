"""Battles fought move by move inside a game by e-mail (``--battles played``): each move is
the deciding side's, and a choice made in secret at the same time as the other side's (the
allocation at sea, battleboard.md §13.2) travels sealed until the other side has chosen."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
import tomli_w

from bellum import pbem
from bellum.dice import Dice
from bellum.errors import InputError
from bellum.pbem import Refused, Step, Table, seal_of
from campaign import actions as A
from campaign.engine import legal_actions
from campaign.pbem import RULES, PlayedBattle
from tests.campaign.test_ops_naval import at_sea
from tests.campaign.test_ops_sequence import play
from tests.pbem.helpers import Game

GAME = "0" * 32
OPTIONS = {"battles": "played"}


def offered() -> Table:
    """Caesar's fleets offer battle to Bibulus at sea; the Senatorials to answer."""
    s2, _ = play(at_sea(), A.OfferNaval("mare_adriaticum_inf"))
    assert legal_actions(s2) == [A.Accept(), A.Decline()]
    return Table(RULES, RULES.engine(OPTIONS), s2, OPTIONS, GAME)


def test_a_naval_battle_is_fought_move_by_move_with_sealed_allocations() -> None:
    table = offered()
    dice = Dice(11)
    table.play(Step(action={"type": "accept"}), "senatorial", dice)
    b = table.battle
    assert isinstance(b, PlayedBattle) and b.state.phase == "allocate"
    first = table.actor()
    move = b.legal()[0]
    assert b.must_seal(move)
    raw = b.encode(move)
    before = table.checksum()
    with pytest.raises(Refused, match="must be sealed"):
        table.play(Step(battle=raw), first, dice)
    assert table.checksum() == before
    salt = "ab" * 32
    table.play(Step(sealed=seal_of(GAME, salt, raw)), first, dice)
    second = table.actor()
    assert second != first  # the file goes to the other side, the choice sealed
    b2 = table.battle
    assert b2 is not None and b2.sealed(first) and not b2.must_seal(b2.legal()[0])
    with pytest.raises(Refused, match="decision is"):
        table.play(Step(battle=raw, salt=salt), first, dice)
    table.play(Step(battle=b2.encode(b2.legal()[0])), second, dice)
    assert table.actor() == first  # back to the first side, to break its seal
    with pytest.raises(Refused, match="not the choice sealed"):
        table.play(Step(battle=raw, salt="cd" * 32), first, dice)
    with pytest.raises(Refused, match="must first reveal"):
        table.play(Step(battle=raw), first, dice)
    table.play(Step(battle=raw, salt=salt), first, dice)
    assert isinstance(table.battle, PlayedBattle) and table.battle.state.phase != "allocate"
    # the battle fought out by the deciding sides' moves; it ends inside the campaign
    events = []
    for _ in range(2000):
        if table.battle is None:
            break
        who = table.actor()
        got, _ = table.play(Step(battle=table.battle.encode(table.battle.choose())), who, dice)
        events += got
    assert table.battle is None
    assert any(e.kind == "battle" and e.data["trigger"] == "mutual" for e in events)
    assert table.state.pending is None or table.state.pending.kind != "naval_offer"  # the offer is answered


def test_a_battle_move_out_of_turn_or_illegal_is_refused() -> None:
    table = offered()
    dice = Dice(3)
    with pytest.raises(Refused, match="decision is the Senatorials'"):
        table.play(Step(action={"type": "accept"}), "caesarian", dice)
    table.play(Step(action={"type": "accept"}), "senatorial", dice)
    with pytest.raises(Refused, match="must be fought first"):
        table.play(Step(action={"type": "decline"}), table.actor(), dice)
    with pytest.raises(Refused, match="not a legal move"):
        table.play(Step(battle={"verb": "end_turn"}), table.actor(), dice)
    with pytest.raises(Refused, match="not a valid battle move"):
        table.play(Step(battle={"verb": "move", "wings": 3}), table.actor(), dice)


def test_a_played_battle_goes_back_and_forth_and_its_dice_are_checked(tmp_path: Path) -> None:
    home = os.environ["BELLUM_HOME"]
    try:
        g = Game(tmp_path, seed="battle", battles="played")
        g.start()
        while True:
            s = g.step()
            if s.battle is not None and any(st.battle and st.dice for st in s.steps):
                break
        # the file stops in the middle of the battle: the other side's move
        doc, _ = pbem.read_turn_file(g.files[-1])
        assert doc.pbem.to_play != s.me and " — the battle " in doc.pbem.at
        g.as_side(doc.pbem.to_play)
        k, step = next((k, st) for k, st in enumerate(s.steps, start=1) if st.battle and st.dice)
        data = tomllib.loads(g.files[-1].read_text())
        label, value = data["turns"][-1]["steps"][k - 1]["dice"][0].rsplit("= ", 1)
        data["turns"][-1]["steps"][k - 1]["dice"][0] = f"{label}= {(int(value) + 1) % 10}"
        bad = tmp_path / "bad.toml"
        bad.write_text(tomli_w.dumps(data))
        with pytest.raises(InputError, match=f"turn {s.number} .*action {k}: die 1 reads"):
            pbem.open_turn_file(bad)
        got = pbem.open_turn_file(g.files[-1])
        assert got.battle is not None and got.actor() == got.me
        assert step.battle
    finally:
        os.environ["BELLUM_HOME"] = home


def test_the_session_seals_a_secret_allocation_and_reveals_it_next_turn(tmp_path: Path) -> None:
    """The player's side of the seal: ``play_battle`` sends the hash only, the record keeps the
    choice and its salt, and the side's next turn begins by revealing it."""
    home = os.environ["BELLUM_HOME"]
    try:
        os.environ["BELLUM_HOME"] = str(tmp_path / "home")
        first = pbem.new_game("49bc", "caesarians", tmp_path / "t0.toml", OPTIONS)
        doc, rules = pbem.read_turn_file(first)
        got = pbem.replay(doc, rules, first)
        table = offered()
        table.game = doc.pbem.game
        dice = Dice(5)
        table.play(Step(action={"type": "accept"}), "senatorial", dice)
        assert table.actor() == "caesarian"  # the side that offered battle allocates first
        got.table = table
        rec = pbem.load_record(doc.pbem.game, "caesarian")
        session = pbem.PbemSession(got, rec, first)
        session.me, session.number, session.dice = "caesarian", 2, dice  # as if the handshake were done
        session.remote = frozenset({"senatorial"})
        b = session.battle
        assert isinstance(b, PlayedBattle) and b.state.phase == "allocate"
        move = b.legal()[0]
        session.play_battle(move)
        assert session.steps[-1].sealed and not session.steps[-1].battle
        assert session.turn_over() and session.sealing is not None
        out = session.finish(tmp_path / "t1.toml")
        assert "allocate" not in out.read_text().split("[[turns.steps]]")[-1]  # the choice is not in the file
        kept = pbem.load_record(doc.pbem.game, "caesarian")
        assert kept is not None and kept.sealed["choice"] == b.encode(move)
        # the other side allocates; the next turn of this side breaks the seal first
        other = session.battle
        assert other is not None
        table.play(Step(battle=other.encode(other.legal()[0])), "senatorial", dice)
        got.table = table
        again = pbem.PbemSession(got, kept, out)
        again.me, again.number, again.dice = "caesarian", 4, dice
        again.reveal_sealed()
        assert again.steps[0].salt == kept.sealed["salt"] and again.steps[0].battle == b.encode(move)
        assert isinstance(again.battle, PlayedBattle) and again.battle.state.phase != "allocate"
    finally:
        os.environ["BELLUM_HOME"] = home


def test_a_tactical_battle_move_is_checked_by_the_tactical_rules(tmp_path: Path) -> None:
    """``--battles played-tactical``: the file stops for the defender's reactions; a move of
    the wrong side, or one the tactical rules refuse, is refused and changes nothing."""
    from campaign.pbem import PlayedTacticalBattle

    home = os.environ["BELLUM_HOME"]
    try:
        g = Game(tmp_path, seed="tac", battles="played-tactical")
        g.start()
        g.until_receiver_fights(PlayedTacticalBattle)
        doc, rules = pbem.read_turn_file(g.files[-1])
        table = pbem.replay(doc, rules, g.files[-1]).table
        assert table is not None and isinstance(table.battle, PlayedTacticalBattle)
        b = table.battle
        acting = b.state.acting
        theirs = next(ld.id for ld in b.state.leaders.values() if ld.side != acting)
        before = table.checksum()
        dice = Dice(1)
        with pytest.raises(Refused, match="refused by the rules"):
            table.play(Step(battle={"action": f"activate {theirs}"}), table.actor(), dice)
        with pytest.raises(Refused, match="not a valid battle move"):
            table.play(Step(battle={"action": "charge at once"}), table.actor(), dice)
        with pytest.raises(Refused, match="decision is"):
            other = next(x for x in ("caesarian", "senatorial") if x != table.actor())
            table.play(Step(battle=b.encode(b.legal()[0])), other, dice)
        assert table.checksum() == before
    finally:
        os.environ["BELLUM_HOME"] = home
