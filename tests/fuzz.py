"""The hostile-input fuzzer (issue 22, docs/RELIABILITY.md): seeded mutations of real saves of
every engine, scenarios of every engine, the campaign map, rules-case files and command lines,
every engine's tables (checked as ``bellum check`` does), plus devices, pipes, folders and
odd names in their place — each fed to the loader the game uses, in this process, and judged:

- **traceback**: anything but the game's own one-sentence error (``BellumError``) escaped;
- **hang**: the input took longer than the watchdog (``HANG_SECONDS``);
- **message**: the refusal was not one printable line naming the file;
- **silent change**: a mutation the game must refuse (a value of another type, a key no file
  has, a NaN, nesting too deep…) was accepted, or an accepted save does not write back as
  the very file that was read (something in it was ignored or changed).

Run it: ``python -m tests.fuzz [--inputs 1000] [--seed 22]`` (a summary table; exit 1 on any
finding).  The test suite runs 1,000 inputs (``tests/kernel/test_fuzz.py``); 10,000 with
``BELLUM_FUZZ_LONG=1``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import os
import random
import signal
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

from bellum.errors import BellumError, InputError
from bellum.paths import ROOT, game_data, scenario_files
from bellum.saves import plain
from bellum.tomlio import read_toml

HANG_SECONDS = 20
#: how the 1,000 inputs of one run are shared out (in proportion for other sizes)
SHARES = {
    "save:battleboard": 110,
    "save:tactical": 110,
    "save:campaign": 90,
    "scenario:battleboard": 100,
    "scenario:tactical": 90,
    "scenario:campaign": 70,
    "map": 70,
    "turnfile": 40,
    "case": 100,
    "table": 60,
    "cli": 100,
    "special": 60,
}
GROUPS = {
    "saves": ("save:battleboard", "save:tactical", "save:campaign"),
    "files": ("scenario:battleboard", "scenario:tactical", "scenario:campaign", "map", "turnfile", "case", "table"),
    "commands": ("cli", "special"),
}


class Hang(Exception):
    pass


@dataclass
class Finding:
    target: str
    kind: str  # traceback | hang | message | silent change
    what: str  # the mutation
    detail: str

    def line(self) -> str:
        return f"{self.kind}: {self.target} ({self.what}): {self.detail}"


@dataclass
class Report:
    inputs: int = 0
    outcomes: Counter[tuple[str, str]] = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)
    slowest: tuple[float, str] = (0.0, "")
    seconds: float = 0.0

    def add(self, other: Report) -> None:
        self.inputs += other.inputs
        self.outcomes.update(other.outcomes)
        self.findings.extend(other.findings)
        self.slowest = max(self.slowest, other.slowest)
        self.seconds += other.seconds

    def table(self) -> str:
        targets = sorted({t for t, _ in self.outcomes})
        rows = [
            "| input | refused | accepted | traceback | hang | message | silent change |",
            "|---|---|---|---|---|---|---|",
        ]
        kinds = ("traceback", "hang", "message", "silent change")
        for t in targets:
            found = Counter(f.kind for f in self.findings if f.target == t)
            rows.append(
                f"| {t} | {self.outcomes[t, 'refused']} | {self.outcomes[t, 'accepted']} | "
                + " | ".join(str(found[k]) for k in kinds)
                + " |"
            )
        total = Counter(f.kind for f in self.findings)
        rows.append(
            f"| **all {self.inputs}** | {sum(v for (_, o), v in self.outcomes.items() if o == 'refused')} | "
            f"{sum(v for (_, o), v in self.outcomes.items() if o == 'accepted')} | "
            + " | ".join(str(total[k]) for k in kinds)
            + " |"
        )
        return "\n".join(rows)


@contextlib.contextmanager
def watchdog(seconds: int) -> Iterator[None]:
    """Raise ``Hang`` in this (main) thread after ``seconds``: a guard, not a measurement."""

    def ring(signum: int, frame: Any) -> None:
        raise Hang(f"no answer after {seconds} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


# ----------------------------------------------------------------------------- the corpus
def _tactical_save(path: Path, rng: random.Random) -> None:
    from bellum.session import Session
    from tactical.game import TacticalEngine

    session = Session(TacticalEngine(), "pharsalus", 5)
    for _ in range(25):
        acts = list(session.legal_actions())
        if not acts:
            break
        session.play(rng.choice(acts))
    session.save(path)


def _battleboard_save(path: Path, rng: random.Random) -> None:
    from battleboard.game import BattleboardEngine, encode_action, load
    from battleboard.resolve import autoplay
    from bellum.dice import Dice
    from bellum.session import Session

    played: list[Any] = []
    autoplay(load("sea-interception")[1], Dice(3), record=played)
    Session.replay(BattleboardEngine(), "sea-interception", 3, [encode_action(a) for a in played]).save(path)


def _campaign_save(path: Path, rng: random.Random) -> None:
    from bellum.session import Session
    from campaign.ai import CampaignAI
    from campaign.engine import CampaignEngine

    session = Session(CampaignEngine(), "49bc", 2)
    ai = CampaignAI()
    for _ in range(12):
        if session.state.result:
            break
        session.play(ai.choose(session.state))
    session.save(path)


def _turn_file(path: Path, home: Path) -> None:
    """A real turn file: a new game by e-mail, then the Caesarians' first turn played by the
    computer (the players' secrets in a data folder of the run's own)."""
    from bellum.cli import main

    old = os.environ.get("BELLUM_HOME")
    os.environ["BELLUM_HOME"] = str(home)
    try:
        first = path.with_name("turn-0.toml")
        assert main(["pbem", "new", "49bc", "--as", "caesarians", "--out", str(first)]) == 0
        assert main(["pbem", "play", str(first), "--ai", "--out", str(path)]) == 0
    finally:
        if old is None:
            os.environ.pop("BELLUM_HOME", None)
        else:
            os.environ["BELLUM_HOME"] = old


def _load_turn_file(path: Path) -> Any:
    from bellum.pbem import read_turn_file

    return read_turn_file(path)


def corpus(folder: Path, rng: random.Random) -> dict[str, list[Path]]:
    """The real files each kind of input is mutated from (saves made here, the rest shipped)."""
    folder.mkdir(parents=True, exist_ok=True)
    saves = {}
    makers = (("battleboard", _battleboard_save), ("tactical", _tactical_save), ("campaign", _campaign_save))
    for engine, make in makers:
        path = folder / f"real-{engine}.toml"
        make(path, rng)
        saves[f"save:{engine}"] = [path]
    turn = folder / "real-turn.toml"
    _turn_file(turn, folder / "home")
    shared = sorted((ROOT.parent / "shared" / "cases").glob("*/*.toml"))
    cases = shared + sorted((ROOT / "tests" / "cases").glob("*/*.toml"))
    return {
        **saves,
        "scenario:battleboard": scenario_files("battleboard"),
        "scenario:tactical": scenario_files("tactical"),
        "scenario:campaign": scenario_files("campaign"),
        "map": [game_data("maps", "roman_world.toml")],
        "turnfile": [turn],
        "case": cases,
        "table": [
            p
            for engine in ("battleboard", "tactical", "campaign")
            for p in sorted(game_data(engine, "data").glob("*.toml"))
        ],
    }


# ----------------------------------------------------------------------------- mutations
def _leaves(doc: Any, where: str = "") -> list[tuple[Any, Any, str]]:
    """Every (container, key, place) below ``doc``."""
    out: list[tuple[Any, Any, str]] = []
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else []
    for k, v in items:
        place = f"{where}.{k}" if isinstance(k, str) else f"{where}[{k}]"
        out.append((doc, k, place))
        out.extend(_leaves(v, place))
    return out


def _other_type(v: Any, rng: random.Random) -> Any:
    """A value of another type than ``v`` that no strict reader may take for it."""
    if isinstance(v, bool):
        return rng.choice([1, 0, "true", "yes"])
    if isinstance(v, int):
        return rng.choice([str(v), v + 0.5, True, [v]])
    if isinstance(v, float):
        return rng.choice([str(v), True, [v]])
    if isinstance(v, str):
        return rng.choice([1, True, 1.5, [v], {"x": v}])
    if isinstance(v, list):
        return rng.choice([1, "x", {"x": 1}])
    return rng.choice([1, "x", [1]])


HOSTILE_TEXT = [
    "\x00",
    "a\nb",
    "\ufeffX",
    "\x1b[31mred",
    "X\t",
    "",
    " ",
    "/dev/zero",
    "../../../../../dev/zero",
    "x" * 1_100_000,
    "é" * 50,
    "\u202e\u0644",
]
HOSTILE_NUMBERS = [2**63, -(2**63) - 1, 10**30, -1, 0, 2**31, 2**63 - 1, -(2**63)]


def mutate_data(doc: Any, rng: random.Random) -> tuple[Any, str, bool]:
    """(the mutated document, what was done, whether the game must refuse it)."""
    leaves = _leaves(doc)
    scalars = [t for t in leaves if not isinstance(t[0][t[1]], dict | list)]
    tables = [doc] + [c[k] for c, k, _ in leaves if isinstance(c[k], dict)]
    op = rng.choice(["type", "type", "unknown", "delete", "text", "number", "nan", "deep", "duplicate", "reverse"])
    if op == "type" and scalars:
        c, k, place = rng.choice(scalars)
        c[k] = _other_type(c[k], rng)
        return doc, f"{place} as {type(c[k]).__name__} {str(c[k])[:30]!r}", True
    if op == "unknown":
        t = rng.choice(tables)
        t["zz_fuzz"] = rng.choice([1, "x", True])
        return doc, "an unknown key zz_fuzz", True
    if op == "delete" and leaves:
        c, k, place = rng.choice(leaves)
        del c[k]
        return doc, f"{place} deleted", False
    if op == "text":
        texts = [t for t in scalars if isinstance(t[0][t[1]], str)]
        if texts:
            c, k, place = rng.choice(texts)
            c[k] = rng.choice(HOSTILE_TEXT)
            return doc, f"{place} = {c[k][:20]!r}", len(c[k]) > 1_000_000
    if op == "number":
        ints = [t for t in scalars if isinstance(t[0][t[1]], int) and not isinstance(t[0][t[1]], bool)]
        if ints:
            c, k, place = rng.choice(ints)
            c[k] = rng.choice(HOSTILE_NUMBERS)
            return doc, f"{place} = {c[k]}", not -(2**63) <= c[k] < 2**63
    if op == "nan" and scalars:
        c, k, place = rng.choice(scalars)
        c[k] = rng.choice([math.nan, math.inf, -math.inf])
        return doc, f"{place} = {c[k]}", True
    if op == "deep" and scalars:
        c, k, place = rng.choice(scalars)
        deep: Any = 1
        for _ in range(40):
            deep = [deep]
        c[k] = deep
        return doc, f"{place} nested 40 deep", True
    lists = [c[k] for c, k, _ in leaves if isinstance(c[k], list) and c[k]]
    if op == "duplicate" and lists:
        lst = rng.choice(lists)
        lst.append(lst[rng.randrange(len(lst))])
        return doc, "a list entry twice", False
    if lists:
        lst = rng.choice(lists)
        lst.reverse()
        return doc, "a list reversed", False
    doc["zz_fuzz"] = 1
    return doc, "an unknown key zz_fuzz", True


def mutate_bytes(raw: bytes, rng: random.Random) -> tuple[bytes, str, bool]:
    op = rng.choice(["truncate", "flip", "garbage", "dup_line", "empty", "bom", "crlf", "nul"])
    if op == "truncate":
        k = rng.randrange(len(raw))
        return raw[:k], f"cut at byte {k}", False
    if op == "flip":
        b = bytearray(raw)
        i = rng.randrange(len(b))
        b[i] = rng.randrange(256)
        return bytes(b), f"byte {i} set to {b[i]}", False
    if op == "garbage":
        i = rng.randrange(len(raw))
        junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 40)))
        return raw[:i] + junk + raw[i:], f"{len(junk)} random bytes at {i}", False
    if op == "dup_line":
        lines = raw.split(b"\n")
        i = rng.randrange(len(lines))
        return b"\n".join(lines[: i + 1] + lines[i:]), f"line {i + 1} twice", False
    if op == "empty":
        return b"", "empty", False
    if op == "bom":
        return b"\xef\xbb\xbf" + raw, "a byte-order mark first", False
    if op == "crlf":
        return raw.replace(b"\n", b"\r\n"), "CRLF line ends", False
    i = rng.randrange(len(raw))
    return raw[:i] + b"\x00" + raw[i:], f"a NUL byte at {i}", True


# ----------------------------------------------------------------------------- loaders and oracles
def _load_save(engine_name: str) -> Callable[[Path], Any]:
    def run(path: Path) -> Any:
        from bellum.session import Session

        if engine_name == "battleboard":
            from battleboard.game import BattleboardEngine

            engine: Any = BattleboardEngine()
        elif engine_name == "tactical":
            from tactical.game import TacticalEngine

            engine = TacticalEngine()
        else:
            from campaign.engine import CampaignEngine

            engine = CampaignEngine()
        return Session.load(engine, path)

    return run


def _load_scenario(engine: str) -> Callable[[Path], Any]:
    def run(path: Path) -> Any:
        if engine == "battleboard":
            from battleboard.scenario import load_scenario

            return load_scenario(str(path))
        if engine == "tactical":
            from tactical.scenario import load_scenario as tload

            return tload(path)
        from campaign.scenario import load_scenario as cload

        return cload(path)

    return run


def _load_map(path: Path) -> Any:
    from campaign.map import load_map

    return load_map(path)


def _run_case(path: Path) -> Any:
    from bellum.cases import run_case

    result = run_case(path)
    if result.status == "fail":
        raise _CaseFailed(result.message)
    return result


class _CaseFailed(Exception):
    pass


def _check_table(source: Path) -> Callable[[Path], Any]:
    """An engine's table, checked as ``bellum check`` checks the shipped one (its format)."""
    from bellum.formats import Context, recognise

    fmt = recognise(source)
    return lambda path: fmt.check(path, Context())


LOADERS: dict[str, Callable[[Path], Any]] = {
    "save:battleboard": _load_save("battleboard"),
    "save:tactical": _load_save("tactical"),
    "save:campaign": _load_save("campaign"),
    "scenario:battleboard": _load_scenario("battleboard"),
    "scenario:tactical": _load_scenario("tactical"),
    "scenario:campaign": _load_scenario("campaign"),
    "map": _load_map,
    "turnfile": _load_turn_file,
    "case": _run_case,
}


def one_line(msg: str) -> bool:
    return bool(msg) and msg.isprintable()


def _save_round_trip(session: Any, path: Path, scratch: Path) -> str:
    """'' if the loaded save writes back as the very file read (but for the game's version)."""
    session.save(scratch)
    got, want = read_toml(scratch), plain(read_toml(path))
    got["save"].pop("game_version", None)
    want.get("save", {}).pop("game_version", None)
    for doc in (got, want):  # an event without data has empty data: the one default a save may leave out
        for e in doc.get("events", []):
            if isinstance(e, dict):
                e.setdefault("data", {})
    for part in ("save", "dice", "actions", "state", "events"):
        if got.get(part) != want.get(part):
            return f"[{part}] was not taken as written"
    return ""


class Fuzzer:
    def __init__(self, seed: int, folder: Path) -> None:
        self.seed = seed
        self.folder = folder
        self.rng = random.Random(seed)
        self.files = corpus(folder / "corpus", random.Random(seed))
        self.n = 0

    def _path(self, suffix: str = ".toml") -> Path:
        self.n += 1
        return self.folder / f"in-{self.n:05d}{suffix}"  # a new name each time: loaders cache by name

    def run(self, target: str, count: int) -> Report:
        rep = Report()
        for _ in range(count):
            start = time.perf_counter()
            if target == "cli":
                what, outcome, finding = self._cli()
            elif target == "special":
                what, outcome, finding = self._special()
            else:
                what, outcome, finding = self._file(target)
            spent = time.perf_counter() - start
            rep.inputs += 1
            rep.outcomes[target, outcome] += 1
            rep.slowest = max(rep.slowest, (spent, f"{target}: {what}"))
            if finding:
                rep.findings.append(Finding(target, finding[0], what, finding[1]))
            rep.seconds += spent
        return rep

    def _judge(
        self,
        target: str,
        load: Callable[[], Any],
        must_refuse: bool,
        name: str,
        after: Callable[[Any], str] | None = None,
    ) -> tuple[str, tuple[str, str] | None]:
        try:
            with watchdog(HANG_SECONDS):
                got = load()
        except Hang as h:
            return "refused", ("hang", str(h))
        except InputError as bad:
            msg = str(bad)
            if not one_line(msg) or (name and name not in msg):
                return "refused", ("message", msg[:200])
            return "refused", None
        except _CaseFailed as bad:
            return "refused", None if one_line(str(bad)) else ("message", str(bad)[:200])
        except BellumError as bad:
            return "refused", None if one_line(str(bad)) else ("message", str(bad)[:200])
        except Exception as exc:
            return "refused", ("traceback", f"{type(exc).__name__}: {str(exc)[:160]}")
        if must_refuse:
            return "accepted", ("silent change", "accepted though it must be refused")
        if after is not None:
            problem = after(got)
            if problem:
                return "accepted", ("silent change", problem)
        return "accepted", None

    def _file(self, target: str) -> tuple[str, str, tuple[str, str] | None]:
        rng = self.rng
        source = rng.choice(self.files[target])
        raw = source.read_bytes()
        path = self._path()
        if rng.random() < 0.6:
            doc, what, must = mutate_data(read_toml(source), rng)
            try:
                data = tomli_w.dumps(doc).encode("utf-8", "surrogatepass")
            except (TypeError, ValueError):  # a value TOML cannot write: write it by hand
                data = raw + b"\nzz_fuzz = nan\n"
                what, must = "nan appended", True
        else:
            data, what, must = mutate_bytes(raw, rng)
        path.write_bytes(data)
        what = f"{source.name}: {what}"
        after = None
        if target.startswith("save:"):
            scratch = self._path()

            def after(session: Any) -> str:
                return _save_round_trip(session, path, scratch)

        load = _check_table(source) if target == "table" else LOADERS[target]
        outcome, finding = self._judge(target, lambda: load(path), must, str(path), after)
        return what, outcome, finding

    def _special(self) -> tuple[str, str, tuple[str, str] | None]:
        """A device, a pipe, a folder, a dangling or looping link, odd names — in place of a file."""
        rng = self.rng
        kinds = ["device", "null", "fifo", "folder", "missing", "loop", "link-device", "nul-name", "newline-name"]
        kind = rng.choice(kinds)
        path = self._path()
        if kind == "device":
            path = Path("/dev/zero")
        elif kind == "null":
            path = Path("/dev/null")
        elif kind == "fifo":
            os.mkfifo(path)
        elif kind == "folder":
            path.mkdir()
        elif kind == "loop":
            path.symlink_to(path)
        elif kind == "link-device":
            path.symlink_to("/dev/zero")
        elif kind == "nul-name":
            path = Path(str(path) + "\x00.toml")
        elif kind == "newline-name":
            path = path.with_name("a\nb\x1b[2J.toml")
        target = rng.choice(list(LOADERS))
        outcome, finding = self._judge(target, lambda: LOADERS[target](path), True, "")
        return f"{kind} as {target}", outcome, finding

    def _cli(self) -> tuple[str, str, tuple[str, str] | None]:
        """A command line with one hostile argument (never one that plays a long game)."""
        from bellum.cli import main

        rng = self.rng
        fifo = self._path()
        os.mkfifo(fifo)
        folder = self._path("")
        folder.mkdir()
        hostile = [
            "",
            "-1",
            str(2**64),
            "1e3",
            "nan",
            "0x10",
            " 5",
            "5\n",
            "\x1b[31m",
            "x\x00y",
            "/dev/zero",
            "/dev/null",
            str(fifo),
            str(folder),
            "/proc/nope/x.toml",
            "no-such-file.toml",
            "é" * 5000,
            "--bogus",
            "../../../../etc/passwd",
        ]
        bad = rng.choice(hostile)
        save = str(self._path())
        templates = [
            ["board", "sea-interception", "--ai", "both", "--headless", "--seed", "{}"],
            ["board", "{}", "--ai", "both", "--headless"],
            ["board", "field-pharsalus", "--ai", "both", "--headless", "--save", "{}"],
            ["board", "field-pharsalus", "--ai", "both", "--headless", "--load", "{}"],
            ["board", "mountain-pass", "--ai", "both", "--headless", "--report", "{}"],
            ["battle", "{}", "--ai", "both", "--headless"],
            ["battle", "pharsalus", "--ai", "both", "--headless", "--load", "{}"],
            ["battle", "pharsalus", "--ai", "{}", "--headless"],
            ["campaign", "--ai", "both", "--headless", "--turns", "1", "--load", "{}"],
            ["campaign", "--ai", "both", "--headless", "--turns", "1", "--scenario", "{}"],
            ["campaign", "--ai", "both", "--headless", "--turns", "{}", "--load", "/dev/zero"],
            ["case", "{}"],
            ["shot", "{}", "--out", save],
            ["shot", "menu", "--out", "{}"],
        ]
        template = rng.choice(templates)
        # a hostile value that is a valid one here would play a whole war or battle: skip those
        if template[0] in ("battle", "campaign", "shot") and bad in ("", " 5", "5\n", "-1", "0x10", "1e3", "nan"):
            bad = "/dev/zero"
        if template[0] == "campaign" and "--turns" in template and template[template.index("--turns") + 1] == "{}":
            bad = rng.choice(["-1", "x", str(2**64), "\x1b[31m", "nan"])
        argv = [bad if a == "{}" else a for a in template]
        what = " ".join(repr(a) if not a.isprintable() or not a else a for a in argv)[:120]
        out, err = io.StringIO(), io.StringIO()

        def call() -> int:
            here = Path.cwd()
            os.chdir(folder)  # a relative output path lands in the fuzz folder
            try:
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    return main(argv)
            except SystemExit as done:
                return int(done.code or 0)
            finally:
                os.chdir(here)

        try:
            with watchdog(HANG_SECONDS):
                code = call()
        except Hang as h:
            return what, "refused", ("hang", str(h))
        except Exception as exc:
            return what, "refused", ("traceback", f"{type(exc).__name__}: {str(exc)[:160]}")
        lines = err.getvalue().strip().splitlines()
        if code == 0:
            return what, "accepted", None
        if argv[0] == "case" and code == 1:  # the runner's own answer: a FAIL line per case file, on stdout
            report = out.getvalue().strip().splitlines()
            if any(ln.startswith("FAIL ") for ln in report) and all(ln.isprintable() for ln in report):
                return what, "refused", None
        if code != 2 or len(lines) != 1 or not lines[0].isprintable():
            return what, "refused", ("message", f"exit {code}: {err.getvalue()[:200]!r}")
        return what, "refused", None


def fuzz(inputs: int, seed: int, folder: Path, targets: tuple[str, ...] | None = None) -> Report:
    """``inputs`` hostile inputs shared out as ``SHARES`` (only ``targets`` when given)."""
    chosen = targets or tuple(SHARES)
    whole = sum(SHARES[t] for t in chosen)
    fz = Fuzzer(seed, folder)
    rep = Report()
    for t in chosen:
        rep.add(fz.run(t, round(inputs * SHARES[t] / whole)))
    return rep


def main() -> int:
    import tempfile

    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=22)
    args = parser.parse_args()
    os.environ.setdefault("ARCADE_HEADLESS", "1")
    with tempfile.TemporaryDirectory(prefix="bellum-fuzz-") as tmp:
        os.environ.setdefault("BELLUM_HOME", str(Path(tmp) / "home"))
        rep = fuzz(args.inputs, args.seed, Path(tmp))
    print(rep.table())
    print(f"\n{rep.inputs} inputs in {rep.seconds:.1f} s; slowest {rep.slowest[0]:.2f} s ({rep.slowest[1]})")
    for f in rep.findings:
        print(f.line())
    return 1 if rep.findings else 0


if __name__ == "__main__":
    raise SystemExit(main())
