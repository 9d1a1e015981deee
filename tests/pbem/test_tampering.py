"""Turn files are hostile input: every tampering is refused in one sentence naming the turn
(and the action), and nothing the receiver holds changes (docs/PBEM.md)."""

from __future__ import annotations

import os
import re
import shutil
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from bellum import pbem
from bellum.cli import main
from bellum.errors import InputError
from tests.pbem.helpers import SIDES, Game


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Game]:
    """A game until a file whose last turn rolled dice and holds several actions, waiting on its receiver."""
    home = os.environ["BELLUM_HOME"]
    g = Game(tmp_path_factory.mktemp("pbem"))
    g.start()
    while True:
        s = g.step()
        if len(g.files) > 6 and len(s.actions) >= 3 and any(st.dice for st in s.steps):
            break
    yield g
    os.environ["BELLUM_HOME"] = home


@pytest.fixture
def game(played: Game, tmp_path: Path) -> Iterator[Game]:
    """A copy of the played game (files and both data folders) for one test to tamper with."""
    g = Game(tmp_path)
    for side in SIDES:
        shutil.copytree(played.homes[side], g.homes[side])
    for f in played.files:
        shutil.copy(f, tmp_path / f.name)
        g.files.append(tmp_path / f.name)
    doc, _ = pbem.read_turn_file(g.files[-1])
    g.as_side(doc.pbem.to_play)
    yield g


def snapshot(g: Game) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in g.root.rglob("*") if p.is_file()}


def tampered(g: Game, edit: Callable[[dict[str, Any]], None]) -> Path:
    data = tomllib.loads(g.files[-1].read_text())
    edit(data)
    bad = g.root / "tampered.toml"
    bad.write_text(tomli_w.dumps(data))
    return bad


def refused(g: Game, path: Path, *words: str) -> str:
    """Open ``path`` as the receiver: refused with one sentence holding ``words``, nothing changed."""
    before = snapshot(g)
    with pytest.raises(InputError) as err:
        pbem.open_turn_file(path)
    msg = str(err.value)
    assert "\n" not in msg
    for w in words:
        assert w in msg, msg
    # the command line says the same sentence and writes nothing either
    assert main(["pbem", "play", str(path), "--ai", "--out", str(g.root / "answer.toml")]) == 2
    assert snapshot(g) == before
    return msg


def last_turn(data: dict[str, Any]) -> dict[str, Any]:
    turn: dict[str, Any] = data["turns"][-1]
    return turn


def test_the_untouched_file_is_accepted(game: Game) -> None:
    s = pbem.open_turn_file(game.files[-1])
    assert s.checksum() == pbem.read_turn_file(game.files[-1])[0].pbem.checksum


def test_an_edited_die(game: Game) -> None:
    n = len(game.files) - 1

    def edit(d: dict[str, Any]) -> None:
        for k, step in enumerate(last_turn(d)["steps"]):
            if step["dice"]:
                label, value = step["dice"][0].rsplit("= ", 1)
                sides = int(re.search(r"d(\d+) $", label).group(1))  # type: ignore[union-attr]
                step["dice"][0] = f"{label}= {int(value) % sides + 1}"
                d["where"] = k + 1
                return
        raise AssertionError("no die in the last turn")

    data = tomllib.loads(game.files[-1].read_text())
    edit(data)
    k = data.pop("where")
    bad = game.root / "tampered.toml"
    bad.write_text(tomli_w.dumps(data))
    refused(game, bad, f"turn {n} (", f"action {k}", "dice chain")


@pytest.mark.parametrize("how", ["inserted", "removed", "reordered"])
def test_an_inserted_removed_or_reordered_action(game: Game, how: str) -> None:
    n = len(game.files) - 1

    def edit(d: dict[str, Any]) -> None:
        steps = last_turn(d)["steps"]
        if how == "inserted":
            steps.insert(1, steps[0])
        elif how == "removed":
            del steps[1]
        else:
            steps[0], steps[1] = steps[1], steps[0]

    refused(game, tampered(game, edit), f"turn {n} (")


def test_an_edited_earlier_turn(game: Game) -> None:
    def edit(d: dict[str, Any]) -> None:
        d["turns"][2]["steps"].pop()

    refused(game, tampered(game, edit), "turn 2 (", "earlier history was changed")


def test_a_changed_checksum(game: Game) -> None:
    n = len(game.files) - 1

    def edit(d: dict[str, Any]) -> None:
        last_turn(d)["checksum"] = "sha256:" + "0" * 64
        d["pbem"]["checksum"] = "sha256:" + "0" * 64

    refused(game, tampered(game, edit), f"turn {n} (", "checksum")


def test_a_reused_secret(game: Game) -> None:
    n = len(game.files) - 1

    def edit(d: dict[str, Any]) -> None:
        last_turn(d)["commit"] = d["turns"][-3]["commit"]  # the sender commits his previous secret again

    refused(game, tampered(game, edit), f"turn {n} (", f"re-uses the secret of turn {n - 2}")


def test_a_revealed_secret_that_was_not_committed(game: Game) -> None:
    n = len(game.files) - 1

    def edit(d: dict[str, Any]) -> None:
        last_turn(d)["reveal"] = "ab" * 32  # other dice: a secret chosen after seeing the opponent's

    refused(game, tampered(game, edit), f"turn {n} (", "not the one committed")


def test_a_file_from_another_game(game: Game, played: Game) -> None:
    other = Game(game.root / "other", seed="another game")
    other.root.mkdir()
    other.homes = {s: game.root / f"other-home-{s}" for s in SIDES}
    other.start()
    for _ in range(3):
        other.step()
    doc, _ = pbem.read_turn_file(other.files[-1])
    game.as_side(doc.pbem.to_play)
    foreign = game.root / "foreign.toml"
    shutil.copy(other.files[-1], foreign)
    refused(game, foreign, "pbem.game", "do not play on this computer")


@pytest.mark.parametrize("cut", ["truncated", "garbage"])
def test_a_truncated_or_garbage_file(game: Game, cut: str) -> None:
    raw = game.files[-1].read_bytes()
    bad = game.root / "bad.toml"
    bad.write_bytes(raw[: len(raw) // 2] if cut == "truncated" else os.urandom(4000))
    refused(game, bad, str(bad))


def test_a_scenario_named_by_a_path(game: Game) -> None:
    def edit(d: dict[str, Any]) -> None:
        d["pbem"]["scenario"] = "../../etc/passwd"

    msg = refused(game, tampered(game, edit), "pbem.scenario", "ships with the game")
    assert "root:" not in msg


def test_a_50_mb_file(game: Game) -> None:
    big = game.root / "big.toml"
    with big.open("wb") as f:
        f.write(game.files[-1].read_bytes())
        f.write(b"#" * (50 * 1024 * 1024))
    refused(game, big, "more than the")


def test_a_deeply_nested_file(game: Game) -> None:
    deep = game.root / "deep.toml"
    deep.write_text(game.files[-1].read_text() + "\n[nest]\nx = " + "[" * 5000 + "]" * 5000 + "\n")
    refused(game, deep, "nested")


def test_an_action_that_settles_a_battle_elsewhere(game: Game) -> None:
    n = len(game.files) - 1

    def edit(d: dict[str, Any]) -> None:
        last_turn(d)["steps"][0]["action"]["outcome"] = {"engagement": "x"}

    refused(game, tampered(game, edit), f"turn {n} (", "action 1", "fought again from the dice")


def test_an_answered_file_is_not_played_twice(game: Game) -> None:
    s = pbem.open_turn_file(game.files[-1])
    pbem.play_ai(s)
    s.finish(game.root / "answer1.toml")
    refused(game, game.files[-1], "already answered")


def test_a_step_without_dice_may_be_taken_back_never_one_with(tmp_path: Path) -> None:
    """Undo in one's own turn follows the session's rule: never across a die."""
    from campaign import actions as A
    from campaign.ai import CampaignAI

    home = os.environ["BELLUM_HOME"]
    try:
        g = Game(tmp_path, seed="undo")
        g.start()
        ai = CampaignAI()
        while True:  # a turn of the receiver's with its movement phase in it
            doc, _ = pbem.read_turn_file(g.files[-1])
            g.as_side(doc.pbem.to_play)
            s = pbem.open_turn_file(g.files[-1])
            while not s.turn_over() and not (s.state.phase == "movement" and s.state.pending is None):
                s.play(ai.choose(s.state))
            if not s.turn_over():
                break
            g.step()
        while True:  # march until a march rolls no die (a sure march by road)
            march = next(a for a in s.legal_actions() if isinstance(a, A.March) and not a.stratagem)
            before, steps = s.checksum(), len(s.steps)
            s.play(march)
            if not s.steps[-1].dice:
                break
            assert not s.can_undo()  # the dice have spoken
        assert s.can_undo()
        s.undo()
        assert len(s.steps) == steps and s.checksum() == before
    finally:
        os.environ["BELLUM_HOME"] = home
