"""Save slots: named saves and autosaves in the player's own folder, and their list.

Every save a window writes lives under ``user_folder()/saves/<engine>/`` (platformdirs'
user data folder, or ``$BELLUM_HOME``), never inside the game: a **named slot** is
``<slug of its name>.toml`` there, an **autosave** ``autosave/<game>/turn-NNN.toml`` (one a
turn; ``<game>`` is the game's id, its scenario and a random tag given when the game begins and
kept on every save's card, so two games never write over each other's autosaves; the newest
``AUTOSAVES_KEPT`` turns of each of the ``AUTOSAVE_GAMES_KEPT`` games autosaved last are kept).
Each is an ordinary save (``bellum.saves``: TOML, atomic, the previous one kept as ``.bak``,
the state's checksum checked on load) carrying a card (``SaveMeta``: the slot's name, the
game's id, when it was written, who plays which side, the date in the war, the turn) right
after its header, so ``read_card`` parses the first lines of a file only and a list of a
hundred saves costs a hundred small reads, not a hundred replays.

No arcade and no engine here: the engine gives the card's words (``campaign.saveslots``),
the views show the list.
"""

from __future__ import annotations

import contextlib
import re
import secrets
import stat
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bellum.errors import BellumError, InputError
from bellum.saves import SAVE_FORMAT, SaveHeader, SaveMeta, backup_path
from bellum.tomlio import parse_toml, validate

#: the autosaves kept of each game (its latest turns, one a turn)
AUTOSAVES_KEPT = 6
#: the games whose autosaves are kept (those autosaved last; an older game's are removed)
AUTOSAVE_GAMES_KEPT = 4
#: the longest slot name
NAME_MAX = 40
#: the bytes of a save read to find its card (the header and the card fit in far less)
HEAD_BYTES = 16 * 1024
#: the folder of autosaves inside an engine's saves
AUTOSAVE_FOLDER = "autosave"
#: a game's id, as a card keeps it and its autosaves' folder is named
GAME_ID = r"[a-z0-9][a-z0-9-]{0,59}"
#: the tables a card read stops before (the first one after the header and the card)
_CARD_TABLES = ("[save]", "[meta]")


def saves_folder(engine: str) -> Path:
    """Where ``engine``'s saves live: the player's own folder, read now (never at import, so a
    test's or a player's ``$BELLUM_HOME`` set later is honoured)."""
    from bellum.paths import user_folder

    return user_folder() / "saves" / engine


def name_problem(name: str) -> str:
    """Why ``name`` cannot name a slot, in a sentence ('' when it can)."""
    if not name.strip():
        return "Give the save a name."
    if len(name.strip()) > NAME_MAX:
        return f"A save's name has at most {NAME_MAX} characters."
    if not slug(name):
        return "A save's name needs at least one letter or digit."
    return ""


def slug(name: str) -> str:
    """The file name a slot's name is kept under: letters and digits (accents dropped), the
    rest one hyphen — "Caesar's war, take 2" → "caesar-s-war-take-2"."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    return re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:NAME_MAX]


def slot_path(engine: str, name: str) -> Path:
    """The file of the slot called ``name`` (an ``InputError`` sentence for a name that cannot be one)."""
    problem = name_problem(name)
    if problem:
        raise InputError(name[:NAME_MAX], "", problem)
    return saves_folder(engine) / f"{slug(name)}.toml"


def new_game_id(scenario: str) -> str:
    """A new game's id: its scenario's name and a random tag ("49bc-3f9a1c2e"), kept on the
    card of each of its saves (``SaveMeta.game``) and naming the folder of its autosaves."""
    return f"{slug(Path(scenario).stem)[:24] or 'game'}-{secrets.token_hex(4)}"


def autosave_path(folder: Path, game: str, turn: int) -> Path:
    """The autosave of ``game`` (its id, ``new_game_id``) at ``turn`` in the saves ``folder``
    (``saves_folder(engine)``, worked out by the caller when the save is asked for)."""
    if not re.fullmatch(GAME_ID, game):
        raise InputError(game[:80], "", "is no game id (letters, digits and hyphens)")
    return folder / AUTOSAVE_FOLDER / game / f"turn-{turn:03d}.toml"


def now_text(now: datetime | None = None) -> str:
    """A moment as a card keeps it: ISO 8601 in UTC, to the second."""
    return (now or datetime.now(UTC)).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def when_text(saved_at: str) -> str:
    """When a save was written, in the player's local time: "27 Nov 2026, 15:04"."""
    try:
        moment = datetime.strptime(saved_at, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).astimezone()
    except ValueError:
        return saved_at or "?"
    return moment.strftime("%d %b %Y, %H:%M").lstrip("0")


@dataclass(frozen=True)
class Slot:
    """One save in a list: its file, its card (None for a save written before slots, or one
    that cannot be read) and, for a file that is no save, why."""

    path: Path
    meta: SaveMeta | None
    scenario: str = ""
    problem: str = ""

    @property
    def name(self) -> str:
        if self.meta is not None and not self.meta.autosave:
            return self.meta.slot
        if self.meta is not None:
            return f"Autosave, turn {self.meta.turn}"
        return self.path.stem

    @property
    def autosave(self) -> bool:
        return self.meta is not None and self.meta.autosave

    @property
    def saved_at(self) -> str:
        """The card's moment, or the file's own for a save without one (sorts as text)."""
        if self.meta is not None:
            return self.meta.saved_at
        with contextlib.suppress(OSError):
            return now_text(datetime.fromtimestamp(self.path.stat().st_mtime, UTC))
        return ""


def read_card(path: str | Path) -> Slot:
    """The card of the save at ``path`` from its first lines only (its header and its card);
    a file that is no save, or whose first lines are damaged, is a ``Slot`` with a problem."""
    p = Path(path)
    try:
        head = _head(p, HEAD_BYTES + 1)
        whole = len(head) <= HEAD_BYTES
        text = head[:HEAD_BYTES].decode("utf-8", errors="replace")
        raw = parse_toml(_card_lines(text, whole).encode("utf-8"), p)
        header = raw.get("save")
        if not isinstance(header, dict) or header.get("format") != SAVE_FORMAT:
            raise InputError(p, "save.format", "this is not a Bellum Civile save")
        saved = validate(SaveHeader, header, p, "save")
        meta = validate(SaveMeta, raw["meta"], p, "meta") if "meta" in raw else None
    except BellumError as exc:
        return Slot(p, None, problem=str(exc))
    return Slot(p, meta, saved.scenario)


def _head(path: Path, size: int) -> bytes:
    """The first ``size`` bytes of a regular file (a folder, a device or a pipe is refused by
    its type before it is opened, as ``bellum.tomlio.read_input`` does)."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise InputError(path, "", "is not a regular file")
        with path.open("rb") as fh:
            return fh.read(size)
    except OSError as exc:
        raise InputError(path, "", f"cannot be read ({exc.strerror or exc})") from None


def _card_lines(text: str, whole: bool) -> str:
    """The lines of a save up to the first table after its header and card."""
    lines = text.splitlines()
    if not whole:
        lines = lines[:-1]  # the last line read may be cut
    kept: list[str] = []
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("[") and stripped not in _CARD_TABLES:
            break
        kept.append(line)
    return "\n".join(kept) + "\n"


def list_slots(engine: str) -> list[Slot]:
    """Every save of ``engine`` in the player's folder, named slots and autosaves, the newest
    first (by the moment on its card; a save without a card by its file's time)."""
    return _newest_first(_listed(saves_folder(engine)))


def _listed(folder: Path) -> list[Slot]:
    """The saves in an engine's saves ``folder``: its slots, its autosaves (each game's in its
    own folder; those of an earlier build straight in ``autosave/``)."""
    auto = folder / AUTOSAVE_FOLDER
    files = [*folder.glob("*.toml"), *auto.glob("*.toml"), *auto.glob("*/*.toml")]
    return [read_card(p) for p in files if p.is_file()]


def _newest_first(slots: list[Slot]) -> list[Slot]:
    return sorted(slots, key=lambda s: (s.saved_at, _mtime(s.path)), reverse=True)


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0


def card_of(path: Path, card: dict[str, Any], *, autosave: bool = False) -> dict[str, Any]:
    """The whole card of a save about to be written to ``path``: ``card`` holds the engine's
    words (side, humans, mode, date, turn, over); the slot's name and the moment are added."""
    meta = {"slot": card.get("slot", path.stem), "autosave": autosave, "saved_at": now_text(), **card}
    return SaveMeta.model_validate(meta).model_dump()


def write_slot(session: Any, path: Path, card: dict[str, Any], *, autosave: bool = False) -> Path:
    """Write ``session`` (a ``bellum.session.Session``) to ``path`` with its card (``card_of``)."""
    written: Path = session.save(path, meta=card_of(path, card, autosave=autosave))
    return written


def prune_autosaves(folder: Path, keep: int = AUTOSAVES_KEPT, games: int = AUTOSAVE_GAMES_KEPT) -> list[Path]:
    """In the saves ``folder`` (``saves_folder(engine)``, passed in so a writing thread never
    reads ``$BELLUM_HOME``), keep of each game's autosaves its ``keep`` latest turns, and only
    the autosaves of the ``games`` games autosaved last; the rest (and their ``.bak``) are
    removed.  The files removed."""
    by_game: dict[str, list[Slot]] = {}
    for s in _listed(folder):
        if s.path.parent != folder:
            by_game.setdefault(s.path.parent.name, []).append(s)
    latest = sorted(by_game, key=lambda g: max((s.saved_at, _mtime(s.path)) for s in by_game[g]), reverse=True)
    gone: list[Path] = []
    for rank, game in enumerate(latest):
        ordered = sorted(by_game[game], key=lambda s: (_turn(s), _mtime(s.path)), reverse=True)
        for s in ordered[keep if rank < games else 0 :]:
            for p in (s.path, backup_path(s.path)):
                with contextlib.suppress(OSError):
                    p.unlink()
            gone.append(s.path)
        if rank >= games and game != AUTOSAVE_FOLDER:
            with contextlib.suppress(OSError):
                (folder / AUTOSAVE_FOLDER / game).rmdir()  # a game no longer kept: its folder, once empty
    return gone


def _turn(slot: Slot) -> int:
    """The turn of an autosave: its card's, or its file name's (``turn-NNN``) without one."""
    if slot.meta is not None and slot.meta.turn:
        return slot.meta.turn
    m = re.fullmatch(r"turn-(\d+)", slot.path.stem)
    return int(m.group(1)) if m else 0
