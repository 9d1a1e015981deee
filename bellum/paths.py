"""Where the game's files are: the one data finder (``game_data``) and the player's own folder.

The game's data — the map, the scenarios, the rules texts and each engine's tables — is read
through ``importlib.resources`` by ``game_data``, which finds it wherever the game runs:

- **installed** (a wheel, ``pipx install bellum-civile``): the shared data ships inside the
  kernel package as ``bellum/data/{maps,scenarios,rules}`` — the wheel maps the repository's
  top-level ``maps/``, ``scenarios/`` and ``docs/rules/`` there (``pyproject.toml``
  ``[tool.setuptools.package-dir]``), so the repository keeps one copy;
- **frozen** (the PyInstaller bundle, ``make bundle``): the same layout inside the bundle,
  read through PyInstaller's resource reader;
- **a source checkout** (``pip install -e``, ``make play``): no ``bellum/data`` exists, and
  the same names are found in the checkout's ``maps/``, ``scenarios/`` and ``docs/rules/``.

A player's own scenarios and saves live in their data folder (``user_folder``:
platformdirs' user data folder for ``bellum-civile``, or ``$BELLUM_HOME``); a scenario is
looked for there before the shipped ones, and a path on the command line always works.
"""

from __future__ import annotations

import os
import sys
from importlib.resources import files
from pathlib import Path

from bellum.errors import InputError

#: the game's shared data: its folder in the package (``bellum/data/…``) → in a source checkout
SHARED = {"maps": "maps", "scenarios": "scenarios", "rules": "docs/rules", "schemas": "schemas"}
#: the engines' scenario folders (``scenarios/<engine>/``)
ENGINES = ("campaign", "battleboard", "tactical")

ROOT = Path(__file__).resolve().parent.parent
"""The source checkout (meaningful only when running from one: tests, benchmarks)."""


def game_data(*parts: str) -> Path:
    """The game's data file or folder ``parts``, wherever the game is installed.

    ``game_data("maps", "roman_world.toml")``, ``game_data("scenarios", "tactical")`` and
    ``game_data("rules", "campaign.md")`` name the shared data; any other first part is a
    package holding its own data (``game_data("campaign", "data", "units.toml")``).  The
    path is returned whether or not it exists: the reader says what is missing."""
    if not parts:
        raise ValueError("game_data needs the name of a file or folder")
    head, rest = parts[0], parts[1:]
    if head not in SHARED:
        return Path(str(files(head).joinpath(*rest)))
    packaged = Path(str(files("bellum"))) / "data"
    checkout = ROOT / SHARED[head]
    if not packaged.is_dir() and checkout.is_dir():  # a source checkout (an editable install)
        return checkout.joinpath(*rest)
    return packaged.joinpath(head, *rest)


def data_origin() -> str:
    """Where ``game_data`` finds the shared data, in words (``bellum version``)."""
    folder = game_data("maps").parent
    if getattr(sys, "frozen", False):
        return f"{folder} (the bundle)"
    return f"{folder} ({'installed' if folder.name == 'data' else 'source checkout'})"


def user_folder() -> Path:
    """The player's own folder: ``$BELLUM_HOME`` or the user data folder (``scenarios/<engine>/``, ``saves/``)."""
    home = os.environ.get("BELLUM_HOME")
    if home:
        return Path(home).expanduser()
    from platformdirs import user_data_path

    return user_data_path("bellum-civile", appauthor=False)


MAPS = game_data("maps")
SCENARIOS = game_data("scenarios")
RULES = game_data("rules")
# the player's saves: ``bellum.slots.saves_folder(engine)``, worked out when a save is written


def scenario_files(engine: str) -> list[Path]:
    """Every scenario of ``engine`` a player can choose: the shipped ones and their own (which
    replace a shipped one of the same name), sorted by name."""
    found = {p.stem: p for p in sorted((SCENARIOS / engine).glob("*.toml"))}
    found.update({p.stem: p for p in sorted((user_folder() / "scenarios" / engine).glob("*.toml"))})
    return [found[k] for k in sorted(found)]


def resolve_scenario(name: str, engine: str) -> Path:
    """A scenario given as a path (any existing file), or as a bare name: the player's own
    (``<user folder>/scenarios/<engine>/``) before the shipped ones (``scenarios/<engine>/``).
    A name found nowhere is one ``InputError`` sentence naming the choices."""
    p = Path(name)
    own = user_folder() / "scenarios" / engine
    try:
        if p.is_file():
            return p
        if p.exists() and not p.is_dir():
            raise InputError(name, "", "is not a regular file (a device, a pipe or a socket), so it is not read")
        file = name if name.endswith(".toml") else f"{name}.toml"
        for folder in (own, SCENARIOS / engine):
            candidate = folder / file
            if candidate.is_file():
                return candidate
    except OSError as exc:  # a name too long, a folder that cannot be searched…
        raise InputError(name[:200], "", f"cannot be a {engine} scenario ({exc.strerror or exc})") from None
    names = ", ".join(p.stem for p in scenario_files(engine)) or "none"
    raise InputError(name, "", f"no such {engine} scenario: give a file, or one of {names} (your own go in {own})")


def shipped_or_own(name: str, engine: str) -> bool:
    """Whether ``name`` — a scenario written inside a save — is a bare name, or a path to a
    file in the game's or the player's scenario folder of ``engine``: the only scenarios a
    save may name by itself (any other path must come from the player, with the save)."""
    if "/" not in name and "\\" not in name and not name.startswith("."):
        return True
    try:
        where = Path(name).resolve()
        folders = [(SCENARIOS / engine).resolve(), (user_folder() / "scenarios" / engine).resolve()]
    except (OSError, ValueError, RuntimeError):
        return False
    return any(where.is_relative_to(folder) for folder in folders)


def check_output(path: str | Path, flag: str, folder: bool = False) -> Path:
    """Refuse, before any work is done, an output path the game could not write at the end
    (campaign, battle, board and shot commands): a folder where a file is wanted (or a file
    where a folder is), a device or pipe, a parent folder that does not exist or cannot be
    written.  One ``InputError`` sentence naming the flag and the path."""
    import os
    import stat

    from bellum.errors import InputError

    if "\x00" in str(path):
        raise InputError(flag, "", f"{str(path)!r} is no file name (it holds a NUL character)")
    try:
        p = Path(path)
        st = p.stat() if p.exists() else None
    except (OSError, ValueError) as exc:
        raise InputError(flag, "", f"{str(path)!r} cannot be used ({exc})") from None
    if st is not None:
        if folder and not stat.S_ISDIR(st.st_mode):
            raise InputError(flag, "", f"{p} is a file, not a folder")
        if not folder and stat.S_ISDIR(st.st_mode):
            raise InputError(flag, "", f"{p} is a folder: give a file name in it")
        if not folder and not stat.S_ISREG(st.st_mode):
            raise InputError(flag, "", f"{p} is not a regular file (a device, a pipe or a socket)")
        if not os.access(p, os.W_OK):
            raise InputError(flag, "", f"{p} cannot be written (no permission)")
        _probe(p if folder else (p.parent if str(p.parent) else Path(".")), flag, p)
        return p
    parent = p.parent if str(p.parent) else Path(".")
    if folder:
        # a folder may be made with its parents: the nearest existing one must be writable
        while not parent.exists() and parent != parent.parent:
            parent = parent.parent
    if parent.exists() and not parent.is_dir():
        raise InputError(flag, "", f"{p}: {parent} is a file, not a folder")
    if not parent.is_dir():
        raise InputError(flag, "", f"{p}: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise InputError(flag, "", f"{p}: the folder {parent} cannot be written (no permission)")
    _probe(parent, flag, p)
    return p


def _probe(folder: Path, flag: str, path: Path) -> None:
    """Make and remove a file in ``folder``: what permissions do not tell (``/proc``, a read-only
    disk, a folder the superuser may 'write' but no file can be made in) is found out now."""
    import tempfile

    from bellum.errors import InputError

    try:
        fd, name = tempfile.mkstemp(prefix=".bellum-probe-", dir=folder)
    except OSError as exc:
        raise InputError(flag, "", f"{path}: no file can be made in {folder} ({exc.strerror or exc})") from None
    os.close(fd)
    Path(name).unlink(missing_ok=True)
