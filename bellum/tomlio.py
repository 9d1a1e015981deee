"""Safe reading of every TOML input (saves, scenarios, maps, tables, cases).

Bad input never produces a traceback or a half-built object: every failure is
an ``InputError`` whose message is one sentence naming the file, the place in
it and the problem.  Hostile files are refused before validation: too large,
nested too deeply, numbers outside 64-bit range, non-finite floats.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import re
import stat
import tomllib
from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, Field, ValidationError

from bellum.errors import InputError

M = TypeVar("M", bound=BaseModel)

#: the largest game file read: a whole war's campaign save is about 0.6 MB (docs/RELIABILITY.md)
MAX_FILE_BYTES = 3 * 1024 * 1024
#: lines plus list items a file may have, counted before parsing: a whole war's save has about
#: 40,000; parsing 120,000 takes about a second, so a file of a million tiny items is refused
#: at once instead of after a minute (issue 22: a 31 MB array of integers took 41 s)
MAX_ITEMS = 120_000
MAX_DEPTH = 32
MAX_INT = 2**63 - 1
MIN_INT = -(2**63)
MAX_STRING = 1_000_000

#: control and format characters (tab, newline, escape, soft hyphen, zero-width and direction
#: marks, line and paragraph separators, byte-order mark), spelt out so that pydantic, Python's
#: ``re`` and a JSON-schema validator read the pattern alike
_UNSEEN = r"\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb"
PIECE_ID_PATTERN = rf"^[^\s{_UNSEEN}](?:[^{_UNSEEN}]*[^\s{_UNSEEN}])?$"
#: the id of a piece (a unit, a leader, a fleet) in a file: 1 to 40 characters, no control or
#: format characters (tab, newline, a byte-order mark…), no space at either end
PieceId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=40,
        pattern=PIECE_ID_PATTERN,
    ),
]

_TOML_POS = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")


def read_toml(path: str | Path) -> dict[str, Any]:
    """Parse a TOML file, refusing anything malformed or hostile."""
    return parse_toml(read_input(path), Path(path))


def read_input(path: str | Path, limit: int | None = None) -> bytes:
    """The bytes of a game file, through the one input gate: a regular file only (a folder,
    a device such as ``/dev/zero``, a pipe or a socket is refused by its type, before it is
    opened, so nothing blocks or streams for ever), read up to ``limit`` bytes while
    streaming (a file that grows or lies about its size is stopped there)."""
    p = Path(path)
    limit = MAX_FILE_BYTES if limit is None else limit
    try:
        st = p.stat()
    except FileNotFoundError:
        raise InputError(p, "", "no such file") from None
    except ValueError:
        raise InputError(repr(str(path)), "", "is no file name (it holds a NUL character)") from None
    except OSError as exc:
        raise InputError(p, "", f"cannot be read ({exc.strerror or exc})") from None
    if stat.S_ISDIR(st.st_mode):
        raise InputError(p, "", "is a folder, not a TOML file")
    if not stat.S_ISREG(st.st_mode):
        raise InputError(p, "", "is not a regular file (a device, a pipe or a socket), so it is not read")
    if st.st_size > limit:
        raise InputError(p, "", f"is {st.st_size} bytes, more than the {limit} a game file may have")
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise InputError(p, "", "is not a regular file (a device, a pipe or a socket), so it is not read")
            raw = f.read(limit + 1)
    except OSError as exc:
        raise InputError(p, "", f"cannot be read ({exc.strerror or exc})") from None
    if len(raw) > limit:
        raise InputError(p, "", f"is more than the {limit} bytes a game file may have")
    if b"\x00" in raw:
        raise InputError(p, "", "holds a NUL byte: it is not a text file")
    return raw


def parse_toml(raw: bytes | str, source: str | Path) -> dict[str, Any]:
    """Parse TOML text; ``source`` names it in error messages."""
    if isinstance(raw, bytes):
        if b"\x00" in raw:
            raise InputError(source, "", "is not a text file (it contains NUL bytes)")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(source, f"byte {exc.start}", "is not valid UTF-8 text") from None
    else:
        text = raw
    check_shape(text, source)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        m = _TOML_POS.search(msg)
        place = f"line {m.group(1)}, column {m.group(2)}" if m else ""
        problem = _TOML_POS.sub("", msg) if m else msg
        raise InputError(source, place, f"is not valid TOML ({problem[:1].lower()}{problem[1:]})") from None
    except RecursionError:
        raise InputError(source, "", "is nested too deeply to be a game file") from None
    check_sane(data, source)
    return data


def check_shape(text: str, source: str | Path) -> None:
    """Refuse, before parsing, text too big in its shape for the parser to refuse fast: too
    many lines and list items (``MAX_ITEMS``), or a dotted key nested deeper than
    ``MAX_DEPTH`` (the parser's cost grows with the square of a dotted key's length: a
    600 kB key of 300,000 parts would fill the memory)."""
    items = text.count(",") + text.count("\n")
    if items > MAX_ITEMS:
        problem = f"has {items} lines and list items, more than the {MAX_ITEMS} a game file may have"
        raise InputError(source, "", problem)
    if text.count(".") <= MAX_DEPTH:
        return
    for n, line in enumerate(text.split("\n"), 1):
        if line.count(".") <= MAX_DEPTH:
            continue
        head, eq, _ = line.partition("=")
        header = not eq and line.lstrip().startswith("[") and "," not in line
        if (eq or header) and head.count(".") > MAX_DEPTH:
            raise InputError(source, f"line {n}", f"a key is nested more than {MAX_DEPTH} levels deep")


def check_sane(data: Any, source: str | Path, place: str = "", depth: int = 0) -> None:
    """Refuse structures no game file has: deep nesting, huge numbers, NaN."""
    if depth > MAX_DEPTH:
        raise InputError(source, place or "top", f"is nested more than {MAX_DEPTH} levels deep")
    if isinstance(data, dict):
        for k, v in data.items():
            check_sane(v, source, f"{place}.{k}" if place else str(k), depth + 1)
    elif isinstance(data, list):
        for i, v in enumerate(data):
            check_sane(v, source, f"{place}[{i}]", depth + 1)
    elif isinstance(data, bool):
        return
    elif isinstance(data, int):
        if not MIN_INT <= data <= MAX_INT:
            raise InputError(source, place, f"the number {str(data)[:20]}… is too large")
    elif isinstance(data, float):
        if not math.isfinite(data):
            raise InputError(source, place, f"{data} is not a finite number")
    elif isinstance(data, str):
        if len(data) > MAX_STRING:
            raise InputError(source, place, "the text is too long")
    elif isinstance(data, datetime.date | datetime.time):
        raise InputError(source, place, f"is a TOML date or time ({data}); no game file holds one")


def format_loc(loc: tuple[int | str, ...], prefix: str = "") -> str:
    out = prefix
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "top"


def validation_error(exc: ValidationError, source: str | Path, prefix: str = "") -> InputError:
    """Turn a pydantic error into one sentence: the first problem, and a count of the rest."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    loc = tuple(p for p in first["loc"] if not (isinstance(p, str) and p.startswith("function-")))
    msg = str(first["msg"])
    if first["type"] == "extra_forbidden":
        msg = "is not a key this file may have"
    elif first["type"] == "missing":
        msg = "is required but missing"
    elif first["type"] == "string_pattern_mismatch":
        pattern = str((first.get("ctx") or {}).get("pattern", ""))
        shown = repr(first.get("input"))[:60]
        if pattern == PIECE_ID_PATTERN:
            msg = f"{shown} is not an id (1 to 40 characters: no tab, newline or other control character)"
        else:
            msg = f"{shown} is not of the form this place needs"
    elif first["type"] == "value_error" and msg.startswith("Value error, "):
        msg = msg[len("Value error, ") :]  # a validator's own sentence, without pydantic's label
    elif first["type"] in ("literal_error", "enum") and isinstance(first.get("input"), str | int):
        msg = f"{str(first['input'])[:40]!r} is unknown: {msg[:1].lower()}{msg[1:]}"
    else:
        msg = msg[:1].lower() + msg[1:]
    more = len(errors) - 1
    if more:
        msg += f" (and {more} more problem{'s' if more > 1 else ''})"
    return InputError(source, format_loc(loc, prefix), msg)


_ENTRY = re.compile(r"^(\w+)\[(\d+)\](.*)$")


def entry_at(raw: dict[str, Any], place: str, tables: tuple[str, ...]) -> tuple[str, dict[str, Any], str] | None:
    """The entry of one of ``tables`` that a validation place points into, so a loader can
    name it by its id: ``space[12].terrain`` → ``("space", raw["space"][12], ".terrain")``;
    None when the place is elsewhere or the entry is not a table."""
    m = _ENTRY.match(place)
    if m is None or m.group(1) not in tables:
        return None
    items, index = raw.get(m.group(1)), int(m.group(2))
    if not isinstance(items, list) or index >= len(items) or not isinstance(items[index], dict):
        return None
    return m.group(1), items[index], m.group(3)


def validate(model: type[M], data: Any, source: str | Path, prefix: str = "") -> M:
    """Validate ``data`` (what a file holds: tables, arrays, text, numbers, booleans) against
    ``model`` strictly, or raise one clear ``InputError``.

    Strict as JSON is: nothing is coerced — ``"3"`` is no whole number, ``1`` and ``"true"``
    are no booleans, ``"42.12"`` is no number, ``1.0`` is no whole number (a whole number is
    a number, though) — while arrays still fill tuples and text fills enums (the types a file
    can hold).  Unknown keys are refused by the models themselves (``extra="forbid"``)."""
    try:
        text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InputError(source, prefix or "top", f"holds a value no game file may hold ({exc})") from None
    except RecursionError:
        raise InputError(source, prefix or "top", "is nested too deeply") from None
    try:
        return model.model_validate_json(text, strict=True)
    except ValidationError as exc:
        raise validation_error(exc, source, prefix) from None
    except RecursionError:
        raise InputError(source, prefix or "top", "is nested too deeply") from None


def load_model(model: type[M], path: str | Path) -> M:
    """Read and validate a whole TOML file as ``model``."""
    return validate(model, read_toml(path), path)
