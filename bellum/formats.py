"""The game's data formats, for modders: one ``Format`` per kind of file, its JSON schema
generated from the pydantic model that validates it, and ``bellum check`` / ``bellum schemas``.

Every format names the model its loader validates with (one source of truth: the schema in
``schemas/<id>.schema.json`` is ``model.model_json_schema()``, written by ``bellum schemas``
and compared with the models by a test), where its files live, and its full check — the
engine's own loader, which also does what a schema cannot: a unit type or hex that does not
exist, a map link to nowhere, a table row missing.  The kernel declares the save format;
each engine declares its own in ``<engine>/formats.py`` (``FORMATS``), found the way the
command line finds the engines' commands.

A data file names its schema on its first line, ``#:schema ../../schemas/<id>.schema.json``
(taplo and Even Better TOML validate as one types); ``bellum check`` reads that line first,
then the file's place (``scenarios/tactical/*.toml``), then its top-level keys, to know
which format a file is.
"""

from __future__ import annotations

import argparse
import fnmatch
import importlib
import json
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from pydantic import BaseModel

from bellum.errors import BellumError, InputError

#: modules that may declare formats (``FORMATS``): the engines', and the kernel's play-by-e-mail
#: turn files once ``bellum/pbem.py`` exists and declares its own
ENGINE_FORMAT_MODULES = ("bellum.pbem", "tactical.formats", "battleboard.formats", "campaign.formats")
#: the JSON Schema dialect pydantic writes
DIALECT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_LINE = re.compile(r"^#:schema\s+(\S+)\s*$")


@dataclass(frozen=True)
class Context:
    """What a check reads besides the file: other files given to the same ``bellum check``
    (a map checked with the scenarios made for it), by format id."""

    given: dict[str, list[Path]] = field(default_factory=dict)

    def one(self, fmt: str) -> Path | None:
        paths = self.given.get(fmt, [])
        return paths[0] if paths else None


@dataclass(frozen=True)
class Format:
    """One kind of data file."""

    id: str
    title: str
    model: type[BaseModel]
    #: the full check: loads the file as the game does; raises ``InputError``
    check: Callable[[Path, Context], object]
    #: where such files live (patterns on the path's last parts: ``scenarios/tactical/*.toml``)
    places: tuple[str, ...] = ()
    #: top-level keys every such file has (to recognise a file found elsewhere)
    keys: frozenset[str] = frozenset()

    @property
    def schema_name(self) -> str:
        return f"{self.id}.schema.json"

    def schema(self) -> dict[str, Any]:
        """The JSON schema of the format, from its model (by alias: the keys files use)."""
        out = self.model.model_json_schema(by_alias=True)
        out["$schema"] = DIALECT
        out["$id"] = self.schema_name
        out["title"] = self.title
        return out


def model_check(model: type[BaseModel]) -> Callable[[Path, Context], None]:
    """The check of a format whose model says everything there is to check."""

    def check(path: Path, ctx: Context) -> None:
        from bellum.tomlio import load_model

        load_model(model, path)

    return check


def formats() -> list[Format]:
    """Every format: the kernel's and each engine's, in a fixed order."""
    from bellum.saves import SaveFile
    from bellum.settings import Settings

    found = [
        Format(
            "save",
            "Bellum Civile save",
            SaveFile,
            _check_save,
            places=("saves/**/*.toml",),  # named saves, campaign slots and autosaves alike
            keys=frozenset({"save", "dice", "state"}),
        ),
        Format(
            "settings",
            "Bellum Civile player settings (the options screen)",
            Settings,
            model_check(Settings),
            places=("settings.toml",),
        ),
    ]
    for module in engine_modules(ENGINE_FORMAT_MODULES):
        found.extend(getattr(module, "FORMATS", ()))
    return found


def engine_modules(names: Iterable[str]) -> Iterator[ModuleType]:
    """The engines' modules ``names`` that exist (an engine not built is skipped; an import
    error inside a module that exists is not hidden)."""
    for name in names:
        try:
            yield importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and name.startswith(exc.name):
                continue
            raise


def by_id(fmt_id: str) -> Format:
    for f in formats():
        if f.id == fmt_id:
            return f
    raise InputError("--as", "", f"{fmt_id!r} is no data format (one of {', '.join(f.id for f in formats())})")


def schema_text(fmt: Format) -> str:
    return json.dumps(fmt.schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def schema_folder() -> Path:
    """Where the shipped schemas are (``schemas/`` of a checkout, ``bellum/data/schemas`` installed)."""
    from bellum.paths import game_data

    return game_data("schemas")


def write_schemas(folder: Path) -> list[Path]:
    """Write every format's schema into ``folder``; the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for fmt in formats():
        p = folder / fmt.schema_name
        p.write_text(schema_text(fmt), encoding="utf-8")
        out.append(p)
    return out


def stale_schemas(folder: Path) -> list[str]:
    """The schema files in ``folder`` that differ from the models (or are missing, or name no format)."""
    wanted = {fmt.schema_name: schema_text(fmt) for fmt in formats()}
    stale = [n for n, text in wanted.items() if not (folder / n).is_file() or (folder / n).read_text("utf-8") != text]
    stale += [p.name for p in sorted(folder.glob("*.schema.json")) if p.name not in wanted]
    return stale


# --------------------------------------------------------------------------- recognising a file


def schema_reference(path: Path) -> str | None:
    """The schema a TOML file names on its first line (``#:schema …``), or None."""
    try:
        with path.open("rb") as f:
            head = f.readline(4096).decode("utf-8", "replace").strip()
    except OSError:
        return None
    m = SCHEMA_LINE.match(head)
    return m.group(1) if m else None


def _by_place(path: Path, fmts: Iterable[Format]) -> Format | None:
    parts = path.resolve().parts
    for fmt in fmts:
        for pattern in fmt.places:
            if _in_place(parts, pattern):
                return fmt
    return None


def _in_place(parts: tuple[str, ...], pattern: str) -> bool:
    """Whether a file's path ends as ``pattern`` says: folders and a name, each matched by
    ``fnmatch``, where a ``**`` folder stands for any number of folders (none included)."""
    if "/**/" not in pattern:
        n = pattern.count("/") + 1
        return len(parts) >= n and fnmatch.fnmatchcase("/".join(parts[-n:]), pattern)
    head, tail = pattern.split("/**/", 1)
    nh, nt = head.count("/") + 1, tail.count("/") + 1
    if len(parts) < nh + nt or not fnmatch.fnmatchcase("/".join(parts[-nt:]), tail):
        return False
    return any(fnmatch.fnmatchcase("/".join(parts[i : i + nh]), head) for i in range(len(parts) - nt - nh + 1))


def recognise(path: Path, fmts: list[Format] | None = None) -> Format:
    """The format of ``path``: by its ``#:schema`` line, its place, then its keys."""
    fmts = formats() if fmts is None else fmts
    ref = schema_reference(path)
    if ref is not None:
        name = ref.rsplit("/", 1)[-1]
        for named in fmts:
            if named.schema_name == name:
                return named
        raise InputError(path, "line 1", f"names the schema {name!r}, which is no format of the game")
    fmt = _by_place(path, fmts)
    if fmt is not None:
        return fmt
    from bellum.tomlio import read_toml

    keys = set(read_toml(path))
    matches = [f for f in fmts if f.keys and f.keys <= keys]
    if matches:
        return max(matches, key=lambda f: len(f.keys))
    raise InputError(
        path,
        "",
        "is no file the game knows how to check: give it a '#:schema' first line (docs/MODDING.md) "
        "or name its kind with --as",
    )


# --------------------------------------------------------------------------- the save format

#: the ``Session`` engine of each engine that saves through one, found by name as the engines'
#: commands and formats are (the kernel imports no engine: docs/ARCHITECTURE.md)
SESSION_ENGINES = {
    "tactical": "tactical.game:TacticalEngine",
    "campaign": "campaign.engine:CampaignEngine",
    "battleboard": "battleboard.game:BattleboardEngine",
}


def _check_save(path: Path, ctx: Context) -> None:
    """A save: its header, checksum and a full replay from scenario + seed + actions."""
    from bellum.saves import read_save
    from bellum.session import Session

    data = read_save(path)
    where = SESSION_ENGINES.get(data.engine)
    if where is None:  # read_save refuses an engine it does not know; nothing more to replay
        return
    module, name = where.split(":")
    engine: Any = getattr(importlib.import_module(module), name)()
    Session.load(engine, path)


# --------------------------------------------------------------------------- the commands


def _expand(paths: list[str]) -> list[Path]:
    """The files named, a folder standing for every ``*.toml`` under it."""
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        found = sorted(q for q in p.rglob("*.toml") if q.is_file()) if p.is_dir() else []
        out.extend(found or [p])
    return out


def check_files(paths: list[str], as_id: str | None = None, out: Callable[[str], None] = print) -> int:
    """``bellum check``: every file checked; one line each (``ok`` or the sentence). 0 if all pass."""
    fmts = formats()
    todo: list[tuple[Path, Format | None, InputError | None]] = []
    for p in _expand(paths):
        try:
            from bellum.tomlio import read_input

            read_input(p)  # a missing file, a folder or a device: the input gate's sentence
            todo.append((p, by_id(as_id) if as_id else recognise(p, fmts), None))
        except InputError as exc:
            todo.append((p, None, exc))
    given: dict[str, list[Path]] = {}
    for p, known, _ in todo:
        if known is not None:
            given.setdefault(known.id, []).append(p)
    ctx = Context(given)
    failed = 0
    for p, kind, err in todo:
        if kind is not None:
            try:
                kind.check(p, ctx)
            except InputError as exc:
                err = exc
            except BellumError as exc:
                err = InputError(p, "", str(exc))
        if err is not None:
            failed += 1
            print(f"bellum: {err}", file=sys.stderr)
        elif kind is not None:
            out(f"{p}: ok ({kind.title})")
    return 1 if failed else 0


def add_check_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "files", nargs="+", metavar="FILE", help="data files (scenarios, maps, tables, saves) or folders of them"
    )
    p.add_argument(
        "--as", dest="as_id", metavar="KIND", help="check the files as this format ('bellum schemas --list')"
    )


def add_schemas_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", metavar="DIR", help="write the schemas here (default: the game's schemas folder)")
    p.add_argument("--check", action="store_true", help="only say whether the schemas folder matches the models")
    p.add_argument("--list", action="store_true", help="list the formats and where their files live")


def run_schemas(args: argparse.Namespace) -> int:
    """``bellum schemas``: write (or check, or list) the JSON schemas of every format."""
    if args.list:
        for fmt in formats():
            print(f"{fmt.id:28} {fmt.title} ({', '.join(fmt.places) or 'anywhere'})")
        return 0
    if args.out:
        from bellum.paths import check_output

        folder = check_output(args.out, "--out", folder=True)
    else:
        folder = schema_folder()
        if not folder.is_dir():
            raise InputError(folder, "", "the game's schemas folder is missing: name one with --out")
    if args.check:
        stale = stale_schemas(folder)
        if stale:
            print(f"bellum: {folder}: out of date with the models: {', '.join(stale)} (run 'bellum schemas')")
            return 1
        print(f"{folder}: every schema matches its model")
        return 0
    written = write_schemas(folder)
    print(f"{len(written)} schemas written to {folder}")
    return 0
