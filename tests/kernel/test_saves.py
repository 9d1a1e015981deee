"""Saves: exact round trip, atomic writes with a backup, refusal of bad files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from bellum import saves
from bellum.errors import InputError
from bellum.saves import SaveData, read_save, state_checksum, write_save


def sample(n: int = 3) -> SaveData:
    return SaveData(
        engine="tactical",
        scenario="scenarios/tactical/pharsalus.toml",
        seed=7,
        dice={"seed": 7, "counter": 12},
        state={
            "turn": n,
            "units": [{"id": f"A{i}", "hex": f"10{i:02d}", "tq": 7, "hits": 0.5} for i in range(n)],
            "flags": {"started": True, "name": "Pharsalus"},
        },
        actions=[{"do": "move", "unit": "A1", "path": ["1104", "face:2"]}],
        events=[{"kind": "move", "text": "A1 moves.", "data": {"mp": 2}}],
    )


def test_round_trip_is_exact(tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    data = sample()
    write_save(path, data)
    back = read_save(path, "tactical")
    assert back == data


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.text(max_size=20)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(min_size=1, max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.text(min_size=1, max_size=8), json_values, max_size=5))
def test_round_trip_any_state(tmp_path_factory: pytest.TempPathFactory, state: dict) -> None:
    path = tmp_path_factory.mktemp("s") / "g.toml"
    data = SaveData("campaign", "49bc", 1, {"seed": 1, "counter": 0}, state)
    write_save(path, data)
    back = read_save(path)
    assert back.state == saves.plain(state)
    assert state_checksum(back.state) == state_checksum(state)


def test_previous_save_kept_as_backup(tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    write_save(path, sample(1))
    write_save(path, sample(2))
    assert read_save(path).state["turn"] == 2
    assert read_save(saves.backup_path(path)).state["turn"] == 1


def test_interrupted_write_leaves_previous_save_intact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.toml"
    write_save(path, sample(1))
    before = path.read_bytes()

    def crash(fd: int) -> None:
        raise OSError("disk unplugged")

    monkeypatch.setattr(os, "fsync", crash)
    with pytest.raises(OSError):
        write_save(path, sample(5))
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.toml"]  # no temp file left behind


def test_interrupted_replace_leaves_previous_save_intact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.toml"
    write_save(path, sample(1))
    before = path.read_bytes()

    def crash(src: object, dst: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(saves.os, "replace", crash)
    with pytest.raises(KeyboardInterrupt):
        write_save(path, sample(5))
    assert path.read_bytes() == before
    # the .bak is written atomically too: it was the first rename to fail, and no temp file is left
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.toml"]


def test_a_kill_between_the_two_renames_leaves_both_files_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The previous save becomes the .bak first; if the new save's rename then fails, the
    save and its .bak are both the previous save, and no temp file is left."""
    path = tmp_path / "game.toml"
    write_save(path, sample(1))
    before = path.read_bytes()
    real = os.replace

    def second_fails(src: object, dst: object) -> None:
        if str(dst).endswith(".bak"):
            real(src, dst)  # type: ignore[arg-type]
            return
        raise KeyboardInterrupt

    monkeypatch.setattr(saves.os, "replace", second_fails)
    with pytest.raises(KeyboardInterrupt):
        write_save(path, sample(5))
    assert path.read_bytes() == before == saves.backup_path(path).read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.toml", "game.toml.bak"]


@pytest.mark.parametrize("anonymous", [True, False])
def test_a_failed_write_leaves_no_temp_file_either_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, anonymous: bool
) -> None:
    """With ``O_TMPFILE`` (Linux) and with a named temporary file (elsewhere) alike."""
    if not anonymous:
        monkeypatch.setattr(saves, "_write_anonymous", lambda *a: False)
    path = tmp_path / "game.toml"
    write_save(path, sample(1))
    write_save(path, sample(2))
    assert read_save(path).state["turn"] == 2 and read_save(saves.backup_path(path)).state["turn"] == 1

    def crash(src: object, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(saves.os, "replace", crash)
    with pytest.raises(OSError):
        write_save(path, sample(3))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.toml", "game.toml.bak"]


def test_a_temp_file_left_by_a_kill_is_removed_by_the_next_save(tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    (tmp_path / ".game.toml.1a2b3c4d5e6f.tmp").write_text("half a sa")
    (tmp_path / ".other.toml.1a2b3c4d5e6f.tmp").write_text("not ours")
    write_save(path, sample(1))
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.toml.1a2b3c4d5e6f.tmp", "game.toml"]


def test_a_save_keeps_the_permissions_of_the_one_it_replaces(tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    write_save(path, sample(1))
    path.chmod(0o640)
    write_save(path, sample(2))
    assert path.stat().st_mode & 0o777 == 0o640 == saves.backup_path(path).stat().st_mode & 0o777


_KILLED_WRITER = """
import sys
from bellum.saves import SaveData, write_save
state = {"units": [{"id": f"u{i}", "hex": "0101", "tq": i % 9} for i in range(4000)]}
print("ready", flush=True)
n = 0
while True:
    n += 1
    write_save(sys.argv[1], SaveData("tactical", "x", 1, {"seed": 1, "counter": n}, {**state, "n": n}))
"""


def test_kill_9_in_the_middle_of_saves_never_loses_the_save(tmp_path: Path) -> None:
    """Kill -9 a process that saves over and over, at 6 moments (90 with ``BELLUM_FUZZ_LONG=1``):
    the save and its .bak always load; a temporary file a kill leaves is gone after the next save."""
    import random
    import signal
    import subprocess
    import sys
    import time

    path = tmp_path / "game.toml"
    write_save(path, sample(1))
    rng = random.Random(22)
    for _ in range(90 if os.environ.get("BELLUM_FUZZ_LONG") else 6):
        proc = subprocess.Popen([sys.executable, "-c", _KILLED_WRITER, str(path)], stdout=subprocess.PIPE)
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"ready"
        time.sleep(rng.uniform(0.0, 0.3))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        read_save(path)
        read_save(saves.backup_path(path))
    write_save(path, sample(2))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.toml", "game.toml.bak"]


def refused(path: Path, text: str | bytes) -> str:
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    with pytest.raises(InputError) as info:
        read_save(path)
    message = str(info.value)
    assert message.startswith(str(path)), message
    assert "\n" not in message and "Traceback" not in message
    return message


def good_text(tmp_path: Path) -> str:
    path = tmp_path / "good.toml"
    write_save(path, sample())
    return path.read_text(encoding="utf-8")


def test_truncated_save_refused(tmp_path: Path) -> None:
    text = good_text(tmp_path)
    msg = refused(tmp_path / "cut.toml", text[: len(text) // 2])
    # where the cut falls depends on the save's length (its schema line names the folder the
    # game is installed in): the sentence names the line, the end of the document or what is missing
    assert "line" in msg or "end of document" in msg or "checksum" in msg or "missing" in msg


def test_damaged_state_fails_checksum(tmp_path: Path) -> None:
    text = good_text(tmp_path).replace("tq = 7", "tq = 9", 1)
    assert "checksum" in refused(tmp_path / "edited.toml", text)


def test_foreign_file_refused(tmp_path: Path) -> None:
    assert "not a Bellum Civile save" in refused(tmp_path / "foreign.toml", 'title = "some other game"\n')


def test_binary_garbage_refused(tmp_path: Path) -> None:
    assert "not a text file" in refused(tmp_path / "bin.toml", b"\x00\x01\x02garbage")


def test_newer_version_refused(tmp_path: Path) -> None:
    text = good_text(tmp_path)
    assert f"version = {saves.SAVE_VERSION}\n" in text
    text = text.replace(f"version = {saves.SAVE_VERSION}", "version = 7", 1)
    assert "newer" in refused(tmp_path / "future.toml", text)


def test_a_save_with_a_card_is_version_2_which_a_version_1_build_calls_newer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Saves carrying a card ([meta]) and rule options are version 2: a build that reads up to
    version 1 says the save is newer (instead of an unknown key); this one reads both."""
    data = sample()
    data.options = ["rules:sgboh"]
    data.meta = {"slot": "Mine", "saved_at": "2026-11-27T15:04:05Z", "game": "pharsalus-0a1b2c3d", "turn": 3}
    path = write_save(tmp_path / "v2.toml", data)
    assert saves.SAVE_VERSION == 2 and "version = 2\n" in path.read_text()
    assert read_save(path).meta["game"] == "pharsalus-0a1b2c3d"  # type: ignore[index]
    monkeypatch.setattr(saves, "SAVE_VERSION", 1)  # the build before cards
    with pytest.raises(InputError) as caught:
        read_save(path)
    assert "written by a newer Bellum Civile (save format 2; this game reads up to 1)" in str(caught.value)


def test_a_version_1_save_still_loads(tmp_path: Path) -> None:
    """A save written before cards and options (version 1, no [meta]) reads as it did."""
    old = tmp_path / "v1.toml"
    old.write_text(good_text(tmp_path).replace("version = 2", "version = 1", 1))
    got = read_save(old)
    assert got.meta is None and got.state == sample().state


def test_wrong_types_refused(tmp_path: Path) -> None:
    text = good_text(tmp_path).replace("seed = 7\n", 'seed = "seven"\n', 1)
    msg = refused(tmp_path / "types.toml", text)
    assert "save.seed" in msg


def test_huge_number_refused(tmp_path: Path) -> None:
    text = good_text(tmp_path).replace("turn = 3", "turn = 99999999999999999999999999", 1)
    msg = refused(tmp_path / "huge.toml", text)
    assert "state.turn" in msg and "too large" in msg


def test_unknown_key_refused(tmp_path: Path) -> None:
    text = good_text(tmp_path).replace("[dice]", "cheat = true\n\n[dice]", 1)
    msg = refused(tmp_path / "extra.toml", text)
    assert "save.cheat" in msg and "not a key" in msg


def test_deep_nesting_refused(tmp_path: Path) -> None:
    deep = "x = " + "[" * 5000 + "]" * 5000 + "\n"
    refused(tmp_path / "deep.toml", deep)
    nested: dict = {"v": 1}
    for _ in range(60):
        nested = {"n": nested}
    doc = tomli_w.dumps({"save": {"format": "bellum-civile-save"}, "state": nested})
    assert "nested" in refused(tmp_path / "deep2.toml", doc)


def test_engine_mismatch_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    write_save(path, sample())
    with pytest.raises(InputError, match="not a campaign save"):
        read_save(path, "campaign")


def test_missing_file_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        read_save(tmp_path / "nope.toml")
