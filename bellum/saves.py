"""Saves: TOML written with tomli-w, validated with pydantic on load.

A save holds a header (format, version, engine, checksum), the scenario and
seed it started from, the dice state, the action log (so the game can be
replayed), the engine's state and its event log.  The checksum covers the
state; a replay from scenario + seed + actions that does not reach the same
checksum has drifted and is reported.

Writing is atomic (``write_atomic``), the save and its ``NAME.bak`` alike: each is
written in full to a temporary file in the same folder and flushed to disk, and only
then renamed over the old one (``os.replace``).  The previous save becomes the
``.bak`` first, the new save replaces it second, so at every instant both files are
whole.  Where Linux offers ``O_TMPFILE`` the temporary file has no name until the
moment it is renamed, so a kill at any point of the write leaves nothing behind; a
named temporary file left by a kill elsewhere is removed by the next save; a write
that fails removes its own.  A save keeps the permissions of the one it replaces (a
new one gets the user's usual ones).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import tomli_w
from pydantic import BaseModel, ConfigDict, Field

from bellum import __version__
from bellum.errors import InputError
from bellum.tomlio import read_toml, validate

SAVE_FORMAT = "bellum-civile-save"
#: 2: a save may carry a card (``[meta]``) and the rule options (``save.options``), which a
#: build reading only version 1 refuses as unknown keys; this one still reads version 1
SAVE_VERSION = 2
Engine = Literal["tactical", "battleboard", "campaign"]


class SaveHeader(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    format: str
    version: int = Field(ge=1, le=1_000_000)
    engine: Engine
    game_version: str = Field(max_length=64)
    checksum: str = Field(pattern=r"^sha256:[0-9a-f]{64}$")
    scenario: str = Field(max_length=4096)
    seed: int = Field(ge=0, le=2**64 - 1)
    #: the optional rules the game was begun with, replacing the scenario's own (absent: the
    #: scenario's); each engine reads its own ids (``Session``, tactical/options.py)
    options: list[Annotated[str, Field(pattern=r"^[A-Za-z0-9:._-]{1,80}$")]] | None = Field(None, max_length=64)


class DiceState(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    seed: int = Field(ge=0, le=2**64 - 1)
    counter: int = Field(ge=0, le=2**63 - 1)


class SavedEvent(BaseModel):
    """One event of the log as a save holds it (``bellum.events.Event.to_dict``)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    kind: str = Field(max_length=80)
    text: str = Field(max_length=100_000)
    data: dict[str, Any] = Field(default_factory=dict)


class SaveMeta(BaseModel):
    """What a list of saves shows without reading the whole file (``bellum.slots``): the slot's
    name, when it was written, who plays which side and where the game stands.  Written right
    after the header, so ``bellum.slots.read_card`` parses the first lines only."""

    model_config = ConfigDict(extra="forbid", strict=True)

    slot: str = Field(max_length=80)
    autosave: bool = False
    #: the game's id (``bellum.slots.new_game_id``), the same on all its saves; names the
    #: folder of its autosaves (empty on a card written before games had one)
    game: str = Field(default="", pattern=r"^([a-z0-9][a-z0-9-]{0,59})?$")
    #: when the save was written, ISO 8601 in UTC ("2026-11-27T15:04:05Z")
    saved_at: str = Field(max_length=40)
    #: who the people at this computer play, in words ("Caesarians", "both sides (hotseat)")
    side: str = Field(default="", max_length=80)
    #: the sides people play here (the others are the computer's)
    humans: list[str] = Field(default_factory=list, max_length=8)
    #: how the game is played ("against the computer", "hotseat", "computer against computer")
    mode: str = Field(default="", max_length=80)
    #: the date in the war ("March 48 BC") and the turn (from 1)
    date: str = Field(default="", max_length=80)
    turn: int = Field(default=0, ge=0, le=1_000_000)
    #: the war's result in words once it is over, else empty
    over: str = Field(default="", max_length=2000)


class SaveFile(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    save: SaveHeader
    #: the slot's card (``bellum.slots``); saves written before slots have none
    meta: SaveMeta | None = None
    dice: DiceState
    #: each engine's ``decode_action`` refuses an action with a field it does not know
    actions: list[dict[str, Any]] = Field(default_factory=list, max_length=1_000_000)
    state: dict[str, Any]
    events: list[SavedEvent] = Field(default_factory=list, max_length=10_000_000)


@dataclass
class SaveData:
    """Everything a save holds, in plain data (the engine validates ``state``)."""

    engine: Engine
    scenario: str
    seed: int
    dice: dict[str, int]
    state: dict[str, Any]
    actions: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    #: the rule options the game began with (None: the scenario's own)
    options: list[str] | None = None
    #: the slot's card (``SaveMeta`` as a dict), written after the header when given
    meta: dict[str, Any] | None = None


def plain(value: Any) -> Any:
    """The value as TOML can hold it: no ``None`` (dropped), tuples as lists."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value if v is not None]
    return value


def state_checksum(state: Any) -> str:
    """A stable checksum of a state: SHA-256 of its canonical JSON."""
    canonical = json.dumps(plain(state), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return "sha256:" + hashlib.sha256(canonical.encode("ascii")).hexdigest()


def schema_line(name: str = "save") -> str:
    """The first line of a TOML file the game writes: its shipped schema
    (``schemas/<name>.schema.json``) for editors (``#:schema``, docs/MODDING.md); '' when the
    schema is not shipped.  Saves use ``"save"``, the settings ``"settings"``."""
    from bellum.paths import game_data

    schema = game_data("schemas", f"{name}.schema.json")
    return f"#:schema {schema.resolve().as_uri()}\n" if schema.is_file() else ""


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + ".bak")


def write_save(path: str | Path, data: SaveData) -> Path:
    """Write ``data`` atomically to ``path``, keeping the previous save as ``.bak``."""
    target = Path(path)
    state = plain(data.state)
    doc = {
        "save": {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "engine": data.engine,
            "game_version": __version__,
            "checksum": state_checksum(state),
            "scenario": data.scenario,
            "seed": data.seed,
            **({} if data.options is None else {"options": list(data.options)}),
        },
        **({"meta": SaveMeta.model_validate(data.meta).model_dump()} if data.meta is not None else {}),
        "dice": dict(data.dice),
        "actions": plain(data.actions),
        "state": state,
        "events": plain(data.events),
    }
    payload = (schema_line() + tomli_w.dumps(doc)).encode("utf-8")
    target.parent.mkdir(parents=True, exist_ok=True)
    for stray in target.parent.glob(f".{glob_escape(target.name)}.*.tmp"):  # left by a kill mid-write
        with contextlib.suppress(OSError):
            stray.unlink()
    if target.is_file():
        mode = target.stat().st_mode & 0o777
        write_atomic(backup_path(target), target.read_bytes(), mode)
        write_atomic(target, payload, mode)
    else:
        write_atomic(target, payload)
    return target


def glob_escape(name: str) -> str:
    return "".join(f"[{c}]" if c in "*?[]" else c for c in name)


def write_atomic(target: Path, payload: bytes, mode: int | None = None) -> None:
    """``payload`` to ``target`` in one step: written in full and flushed to disk under a
    temporary name (none at all where ``O_TMPFILE`` exists), then renamed over ``target``.
    ``mode``: the permissions to keep (default: a new file's, under the user's umask).
    On any failure the temporary file is removed and ``target`` is left as it was."""
    tmp = target.with_name(f".{target.name}.{uuid.uuid4().hex[:12]}.tmp")
    try:
        if not _write_anonymous(target, tmp, payload, mode):
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            _fill(fd, payload, mode)
        os.replace(tmp, target)
        _sync_folder(target.parent)
    except BaseException:
        with contextlib.suppress(OSError, ValueError):
            tmp.unlink()
        raise


def _fill(fd: int, payload: bytes, mode: int | None) -> None:
    with os.fdopen(fd, "wb") as fh:
        fh.write(payload)
        fh.flush()
        if mode is not None and hasattr(os, "fchmod"):  # not on Windows
            os.fchmod(fh.fileno(), mode)
        os.fsync(fh.fileno())


#: whether this system links an ``O_TMPFILE`` into a folder (learnt at the first save)
_anonymous_links = True


def _write_anonymous(target: Path, tmp: Path, payload: bytes, mode: int | None) -> bool:
    """Write through an ``O_TMPFILE`` (a file without a name until ``tmp`` is linked to it
    just before the rename); False where the system or the file system has none."""
    global _anonymous_links
    flag = getattr(os, "O_TMPFILE", 0)
    if not flag or not _anonymous_links or not Path("/proc/self/fd").is_dir():
        return False
    try:
        fd = os.open(target.parent, flag | os.O_WRONLY, 0o666)
    except OSError:
        return False
    try:
        with os.fdopen(os.dup(fd), "wb") as fh:
            fh.write(payload)
            fh.flush()
            if mode is not None:
                os.fchmod(fh.fileno(), mode)
            os.fsync(fh.fileno())
        try:
            os.link(f"/proc/self/fd/{fd}", tmp, follow_symlinks=True)
        except OSError:
            _anonymous_links = False  # e.g. a sandbox refusing the link: named files from now on
            raise
    except OSError:
        return False
    finally:
        os.close(fd)
    return True


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (best effort: not every system opens folders)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def read_save(path: str | Path, engine: Engine | None = None) -> SaveData:
    """Read and check a save; every problem is one ``InputError`` sentence."""
    p = Path(path)
    raw = read_toml(p)
    header = raw.get("save")
    if not isinstance(header, dict) or header.get("format") != SAVE_FORMAT:
        raise InputError(p, "save.format", "this is not a Bellum Civile save")
    version = header.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > SAVE_VERSION:
        raise InputError(
            p,
            "save.version",
            f"was written by a newer Bellum Civile (save format {version}; this game reads up to {SAVE_VERSION})",
        )
    doc = validate(SaveFile, raw, p)
    if engine is not None and doc.save.engine != engine:
        raise InputError(p, "save.engine", f"is a {doc.save.engine} save, not a {engine} save")
    if state_checksum(doc.state) != doc.save.checksum:
        raise InputError(p, "state", "its checksum does not match (the save was damaged or edited)")
    return SaveData(
        engine=doc.save.engine,
        scenario=doc.save.scenario,
        seed=doc.save.seed,
        dice=doc.dice.model_dump(),
        state=doc.state,
        actions=doc.actions,
        events=[e.model_dump() for e in doc.events],
        options=doc.save.options,
        meta=doc.meta.model_dump() if doc.meta is not None else None,
    )
