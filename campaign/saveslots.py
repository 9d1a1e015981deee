"""The campaign's saves as players expect them (issue 15 item 5): named slots, an autosave
each turn, and loading either back — the words of a slot's card (who plays which side, the
date in the war, the turn, whether the war is over) and the one sentence a save that cannot
be loaded gets.  The files and their list are the kernel's (``bellum.slots``); no arcade here.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bellum import slots
from bellum.errors import BellumError, InputError
from bellum.saves import SaveData, write_save
from bellum.session import Session
from campaign import actions as A
from campaign.engine import CampaignEngine
from campaign.state import SIDES, CampaignState, side_short

ENGINE = "campaign"


def mode_words(humans: Iterable[str]) -> tuple[str, str]:
    """(who the people here play, how the game is played), in words."""
    people = [s for s in SIDES if s in set(humans)]
    if len(people) == len(SIDES):
        return "both sides", "hotseat"
    if people:
        return side_short(people[0]), "against the computer"
    return "neither side", "computer against computer"


def card(state: CampaignState, humans: Iterable[str], slot: str = "", game: str = "") -> dict[str, Any]:
    """The card of a campaign save (``bellum.saves.SaveMeta`` without its name and moment);
    ``game``: the game's id (``bellum.slots.new_game_id``)."""
    people = [s for s in SIDES if s in set(humans)]
    side, mode = mode_words(people)
    out: dict[str, Any] = {
        "game": game,
        "side": side,
        "humans": people,
        "mode": mode,
        "date": state.date(),
        "turn": state.turn + 1,
        "over": str(state.result.get("text", "")) if state.result else "",
    }
    if slot:
        out["slot"] = slot.strip()
    return out


def save_slot(session: Session[CampaignState, A.Action], humans: Iterable[str], name: str, game: str = "") -> Path:
    """Write the game to the slot called ``name`` (its previous save kept as ``.bak``)."""
    path = slots.slot_path(ENGINE, name)
    return slots.write_slot(session, path, card(session.state, humans, name, game))


def save_file(session: Session[CampaignState, A.Action], humans: Iterable[str], path: Path, game: str = "") -> Path:
    """Write the game to a file the player named (``--save F``), with its card."""
    return slots.write_slot(session, path, card(session.state, humans, path.stem[: slots.NAME_MAX], game))


def autosave(session: Session[CampaignState, A.Action], humans: Iterable[str], game: str) -> Path:
    """The turn's autosave of the game ``game`` (its id); only the latest
    ``bellum.slots.AUTOSAVES_KEPT`` turns of each game are kept (``bellum.slots.prune_autosaves``)."""
    folder, path, data = _autosave_data(session, humans, game)
    return _write_and_prune(folder, path, data)


def autosave_later(session: Session[CampaignState, A.Action], humans: Iterable[str], game: str) -> Future[Path]:
    """The same, written by a background thread (a long war's save takes a third of a second
    to write): the game is copied and the folder worked out now, so play goes on while it is
    written; one writer, so autosaves are written in the order asked."""
    folder, path, data = _autosave_data(session, humans, game)
    return _WRITER.submit(_write_and_prune, folder, path, data)


#: the one thread that writes autosaves
_WRITER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="autosave")


def _autosave_data(
    session: Session[CampaignState, A.Action], humans: Iterable[str], game: str
) -> tuple[Path, Path, SaveData]:
    folder = slots.saves_folder(ENGINE)
    path = slots.autosave_path(folder, game, session.state.turn + 1)
    card_ = slots.card_of(path, card(session.state, humans, "Autosave", game), autosave=True)
    data = session.save_data(card_)
    data.state = copy.deepcopy(data.state)  # nothing the writing thread reads is shared with play
    return folder, path, data


def _write_and_prune(folder: Path, path: Path, data: SaveData) -> Path:
    written = write_save(path, data)
    slots.prune_autosaves(folder)
    return written


def game_of(meta: Any, scenario: str) -> str:
    """The id of the game a save belongs to: its card's, or a new one for a save without."""
    game = str(getattr(meta, "game", "") or "")
    return game or slots.new_game_id(scenario)


def load_slot(
    path: str | Path, engine: CampaignEngine | None = None, scenario: str | None = None
) -> Session[CampaignState, A.Action]:
    """The game saved at ``path``, replayed and checked; a save that cannot be loaded is one
    ``InputError`` whose ``sentence`` says so (never a traceback).  ``scenario``: the one the
    player is playing (a file they named themselves), for a save of that same scenario."""
    try:
        return Session.load(engine or CampaignEngine(), path, scenario)
    except BellumError:
        raise
    except Exception as exc:  # whatever a damaged save makes the replay meet: a sentence, not a traceback
        raise InputError(path, "", f"is damaged and cannot be replayed ({type(exc).__name__})") from None


def humans_of(meta: Any, default: Iterable[str] = (SIDES[0],)) -> frozenset[str]:
    """The sides people played when the save was written (a save without a card: ``default``)."""
    people = [s for s in getattr(meta, "humans", []) or [] if s in SIDES]
    if meta is None:
        return frozenset(default)
    return frozenset(people)


#: the first words of a problem that read after "it" ("it is not valid TOML")
_VERBS = ("is ", "was ", "names ", "holds ", "has ", "cannot ", "does ", "needs ")


def sentence(exc: BaseException, path: str | Path) -> str:
    """A save that cannot be loaded, in one sentence for the player."""
    problem = (exc.problem if isinstance(exc, InputError) else str(exc)).rstrip(".")
    place = exc.place if isinstance(exc, InputError) else ""
    if place.startswith("actions["):
        problem = f"its action {place[8:-1]} {problem}"
    elif problem.startswith(_VERBS):
        problem = f"it {problem}"
    return f"The save “{Path(path).name}” cannot be loaded: {problem}."
