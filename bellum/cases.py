"""The rules-case runner (``bellum case``), per ``../shared/cases/FORMAT.md``.

A case is a position, steps played from it, the dice those steps consume and
what must hold after each step.  This module owns what every engine shares —
finding files, the common keys, the dice bookkeeping, refused steps leaving the
position untouched, the report — and hands the engine-specific work to an
adapter (``tactical.cases``, ``battleboard.cases``) through ``CaseAdapter``.

The only allowed SKIP is a case whose engine or verb is not built yet.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TextIO

from bellum.dice import Dice
from bellum.errors import (
    BellumError,
    DiceError,
    InputError,
    MissingRollError,
    RuleError,
    UnusedRollError,
    printable,
)
from bellum.tomlio import read_toml

#: engine name -> module providing ``ADAPTER`` (a ``CaseAdapter``)
ADAPTER_MODULES = {"tactical": "tactical.cases", "battleboard": "battleboard.cases"}
COMMON_KEYS = {"engine", "title", "source", "rules", "options", "steps"}
STEP_KEYS = {"do", "dice", "expect"}


class CaseFailure(Exception):
    """The case does not hold (or cannot be read)."""


class NotBuilt(Exception):
    """The engine or verb the case needs does not exist yet (the only SKIP)."""


class CaseAdapter(Protocol):
    """What an engine provides to run cases in its notation."""

    engine: str
    #: top-level keys this engine's cases may have besides the common ones
    position_keys: frozenset[str]

    def build(self, doc: dict[str, Any], path: Path) -> Any:
        """Build the session (position + sequence) from the case; raise CaseFailure or InputError."""

    def apply(self, session: Any, step: dict[str, Any], dice: Dice) -> None:
        """Play one step; raise RuleError if the rules refuse it, NotBuilt for an unbuilt verb."""

    def snapshot(self, session: Any) -> Any:
        """A comparable copy of everything a refused step must leave untouched."""

    def observe(self, session: Any, key: str) -> Any:
        """The current value for an expectation key; raise KeyError if the key is unknown."""

    def finish_step(self, session: Any, step: dict[str, Any]) -> None:
        """Check engine-specific forced inputs were all used (e.g. battleboard results)."""


@dataclass(frozen=True)
class CaseResult:
    path: Path
    status: str  # "pass" | "fail" | "skip"
    message: str = ""

    def line(self) -> str:
        if self.status == "pass":
            return f"PASS {self.path}"
        if self.status == "skip":
            return f"SKIP {self.path}: {self.message}"
        return f"FAIL {self.path}: {self.message}"


def collect(paths: Iterable[str | Path]) -> list[Path]:
    """Every case file named: files as given, folders searched for ``*.toml``."""
    found: list[Path] = []
    for raw in paths:
        p = Path(raw)
        try:
            if p.is_dir():
                found.extend(sorted(q for q in p.rglob("*.toml") if q.is_file()))
            elif p.is_file():
                found.append(p)
            elif p.exists():
                raise InputError(p, "", "is not a regular file (a device, a pipe or a socket), so it is not read")
            else:
                raise InputError(p, "", "no such case file or folder")
        except OSError as exc:
            raise InputError(str(raw)[:200], "", f"cannot be read ({exc.strerror or exc})") from None
    return found


def load_adapter(engine: str) -> CaseAdapter:
    module_name = ADAPTER_MODULES[engine]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and (exc.name == module_name or module_name.startswith(exc.name + ".")):
            raise NotBuilt(f"the {engine} engine is not built yet") from None
        raise
    adapter = getattr(module, "ADAPTER", None)
    if adapter is None:
        raise NotBuilt(f"the {engine} engine has no case adapter yet")
    return adapter  # type: ignore[no-any-return]


def _fmt(value: Any) -> str:
    return repr(value) if not isinstance(value, str) else f'"{value}"'


def run_case(path: Path) -> CaseResult:
    """One case's result; its message on one line, control characters escaped (``printable``)."""
    try:
        _run(path)
    except NotBuilt as skip:
        return CaseResult(path, "skip", printable(str(skip)))
    except CaseFailure as fail:
        return CaseResult(path, "fail", printable(str(fail)))
    except InputError as bad:
        own = bad.source == str(path) and not bad.place
        return CaseResult(path, "fail", printable(bad.problem) if own else str(bad))
    except BellumError as err:
        return CaseResult(path, "fail", printable(str(err)))
    return CaseResult(path, "pass")


def _run(path: Path) -> None:
    doc = read_toml(path)
    engine = doc.get("engine")
    if not isinstance(engine, str) or engine not in ADAPTER_MODULES:
        raise CaseFailure(f"engine {_fmt(engine)} is not one of {sorted(ADAPTER_MODULES)}")
    for key in ("title", "source", "rules"):
        if key in doc and not isinstance(doc[key], str):
            raise CaseFailure(f"{key} must be text, not {_fmt(doc[key])}")
    steps = doc.get("steps", [])
    if not isinstance(steps, list) or not all(isinstance(s, dict) for s in steps):
        raise CaseFailure("steps must be a list of [[steps]] tables")
    if "options" in doc and not isinstance(doc["options"], list):
        raise CaseFailure("options must be a list of option ids")
    adapter = load_adapter(engine)
    unknown = set(doc) - COMMON_KEYS - adapter.position_keys
    if unknown:
        raise CaseFailure(f"unknown key {_fmt(sorted(unknown)[0])} for a {engine} case")
    session = adapter.build(doc, path)
    for number, step in enumerate(steps, start=1):
        _run_step(adapter, session, step, number)


def _run_step(adapter: CaseAdapter, session: Any, step: dict[str, Any], number: int) -> None:
    where = f"step {number}"
    verb = step.get("do")
    if not isinstance(verb, str):
        raise CaseFailure(f"{where}: has no verb (do = ...)")
    raw_dice = step.get("dice", [])
    if not isinstance(raw_dice, list) or not all(isinstance(d, int) and not isinstance(d, bool) for d in raw_dice):
        raise CaseFailure(f"{where}: dice must be a list of whole numbers")
    expect = step.get("expect", {})
    if not isinstance(expect, dict):
        raise CaseFailure(f"{where}: expect must be a table")
    want_error = expect.get("error", False) is True
    dice = Dice.forced(raw_dice)
    before = adapter.snapshot(session)
    try:
        adapter.apply(session, step, dice)
    except NotBuilt as nb:
        raise NotBuilt(f"{where}: {nb}") from None
    except RuleError as refused:
        if not want_error:
            raise CaseFailure(f"{where} ({verb}): refused: {refused}") from None
        if adapter.snapshot(session) != before:
            raise CaseFailure(f"{where} ({verb}): refused, but the position changed") from None
        if dice.rolls:
            raise CaseFailure(f"{where} ({verb}): refused, but it consumed dice") from None
    except MissingRollError as missing:
        raise CaseFailure(f"{where} ({verb}): {missing}") from None
    except DiceError as bad:
        raise CaseFailure(f"{where} ({verb}): {bad}") from None
    else:
        if want_error:
            raise CaseFailure(f"{where} ({verb}): the engine should have refused this step")
        try:
            dice.assert_exhausted()
        except UnusedRollError as unused:
            raise CaseFailure(f"{where} ({verb}): {unused}") from None
        adapter.finish_step(session, step)
    for key, wanted in expect.items():
        if key == "error":
            continue
        try:
            actual = adapter.observe(session, key)
        except KeyError:
            raise CaseFailure(f"{where}: unknown expectation key {_fmt(key)}") from None
        if actual != wanted:
            raise CaseFailure(f"{where} ({verb}): {key} is {_fmt(actual)}, expected {_fmt(wanted)}")


def run_cases(paths: Iterable[str | Path], out: TextIO) -> int:
    """Run every case under ``paths``; print one line each and the closing line.

    Returns the exit code: 0 if nothing failed, 1 otherwise.
    """
    files = collect(paths)
    counts = {"pass": 0, "fail": 0, "skip": 0}
    for path in files:
        result = run_case(path)
        counts[result.status] += 1
        print(result.line(), file=out)
    print(f"{counts['pass']} passed, {counts['fail']} failed, {counts['skip']} skipped", file=out)
    return 1 if counts["fail"] else 0
