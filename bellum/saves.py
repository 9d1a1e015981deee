"""Saves: TOML written with tomli-w, validated with pydantic on load.

A save holds a header (format, version, engine, checksum), the scenario and
seed it started from, the dice state, the action log (so the game can be
replayed), the engine's state and its event log.  The checksum covers the
state; a replay from scenario + seed + actions that does not reach the same
checksum has drifted and is reported.

Writing is atomic: the new save goes to a temporary file in the same folder,
is flushed to disk, the previous save is copied to ``NAME.bak``, and only then
does the temporary file replace the save (``os.replace``).  An interrupted
write leaves the previous save intact.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import tomli_w
from pydantic import BaseModel, ConfigDict, Field

from bellum import __version__
from bellum.errors import InputError
from bellum.tomlio import read_toml, validate

SAVE_FORMAT = "bellum-civile-save"
SAVE_VERSION = 1
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


class DiceState(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    seed: int = Field(ge=0, le=2**64 - 1)
    counter: int = Field(ge=0, le=2**63 - 1)


class SaveFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    save: SaveHeader
    dice: DiceState
    actions: list[dict[str, Any]] = Field(default_factory=list, max_length=1_000_000)
    state: dict[str, Any]
    events: list[dict[str, Any]] = Field(default_factory=list, max_length=10_000_000)


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


def schema_line() -> str:
    """The first line of a save: the shipped save schema, for editors (``#:schema``, docs/MODDING.md)."""
    from bellum.paths import game_data

    schema = game_data("schemas", "save.schema.json")
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
        },
        "dice": dict(data.dice),
        "actions": plain(data.actions),
        "state": state,
        "events": plain(data.events),
    }
    payload = (schema_line() + tomli_w.dumps(doc)).encode("utf-8")
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        if target.exists():
            shutil.copy2(target, backup_path(target))
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return target


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
        raise InputError(p, "state", "the checksum does not match: the save was damaged or edited")
    return SaveData(
        engine=doc.save.engine,
        scenario=doc.save.scenario,
        seed=doc.save.seed,
        dice=doc.dice.model_dump(),
        state=doc.state,
        actions=doc.actions,
        events=doc.events,
    )
