"""Saves as players expect them (issue 15 item 5): the save dialog, the load screen and the
autosave of each turn.

* **The save dialog** (Ctrl+S or Save in the campaign window): a name for the slot (a
  suggestion typed in: the side and the date), the saves already in the player's folder — a
  click on one takes its name — and Save; a name that already holds a save asks first, and the
  save it replaces is kept as ``.bak``.
* **The load screen** (Ctrl+L or Load in the window, "Load a saved campaign" in the menu):
  every campaign save in the player's folder, the newest first — its name (autosaves
  marked), the side played, the date in the war, the turn and when it was saved; ↑ ↓ or a
  click chooses, Enter or Load loads (the game is replayed and its checksum checked), a save
  of a finished war also opens its end-of-war screen.  A save that cannot be loaded is one
  sentence in red, never a traceback.
* **The autosave** (``autosave_tick``, each frame of the campaign window): when a new turn
  begins, and when the war ends, the game is written to ``autosave/<game>/turn-NNN.toml``
  (``<game>``: the game's id, kept on each of its saves' cards, so two games never share
  autosaves); each game's latest ``bellum.slots.AUTOSAVES_KEPT`` turns stay.  The window
  finishes the one being written when it is hidden or closed (``settle_autosave``).

The files are ``bellum.slots``'; the card's words ``campaign.saveslots``'.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import arcade

from bellum import slots
from bellum.errors import BellumError
from bellum.saves import backup_path
from bellum.view import textfit
from campaign import saveslots
from campaign.view.mapview import rgba
from campaign.view.palette import BG_TOP, GOLD, PARCHMENT
from campaign.view.screen import BUTTON_H, DIM, WARN, Screen

#: the rows of saves the load screen shows at once (↑ ↓, PageUp, PageDown and the wheel scroll)
ROWS = 13
ROW_H = 34
#: the saves the save dialog lists (the newest)
DIALOG_ROWS = 7
#: the load screen's columns: (title, left edge from the table's left)
COLUMNS = (("Save", 0), ("Side", 390), ("Date in the war", 550), ("Turn", 720), ("Saved", 790))
TABLE_W = 1000
SELECTED = (222, 196, 140, 255)
AUTO_TINT = (226, 214, 188, 255)
HEADINGS = rgba(BG_TOP)


def describe(slot: slots.Slot) -> str:
    """A save in one line: "Caesarians · March 48 BC · turn 11 · saved 27 Nov 2026, 15:04"."""
    m = slot.meta
    if m is None:
        return "a save without a card" if not slot.problem else "cannot be read"
    return f"{m.side} · {m.date} · turn {m.turn} · saved {slots.when_text(m.saved_at)}"


def folder_words(engine: str = saveslots.ENGINE) -> str:
    """The saves' folder, with the home folder written ``~``."""
    folder = slots.saves_folder(engine)
    try:
        return "~/" + folder.relative_to(Path.home()).as_posix()
    except ValueError:
        return folder.as_posix()


# ---------------------------------------------------------------------- the save dialog


class SaveDialog(Screen):
    """Name a slot and save to it (over the campaign window, which stays drawn beneath)."""

    def __init__(self, back: Any) -> None:
        super().__init__()
        self.back = back  # the CampaignView
        game = back.game
        self.card = saveslots.card(game.state, game.humans, game=game.game_id)
        self.name = f"{self.card['side']} {self.card['date']}"[: slots.NAME_MAX]
        self.message = ""
        self.confirm: slots.Slot | None = None
        self.existing = [s for s in slots.list_slots(saveslots.ENGINE) if not s.autosave][:DIALOG_ROWS]

    def draw_backdrop(self) -> None:
        self.clear()
        self.back.on_draw()
        arcade.draw_lrbt_rectangle_filled(0, self.window.width, 0, self.window.height, (20, 10, 12, 110))

    def build(self) -> None:
        w, h = self.window.width, self.window.height
        dw = 700
        rows = max(1, len(self.existing))
        height = 250 + rows * 26 + (20 if self.confirm is not None else 0)
        left, top = (w - dw) / 2, (h + height) / 2
        self.panel(left, top - height, left + dw, top)
        x, y = left + 20, top - 16
        y -= self.text("Save the campaign", x, y, HEADINGS, 17, bold=True, serif=True).content_height + 8
        c = self.card
        line = f"{c['side']} · {c['date']} · turn {c['turn']} · {c['mode']}"
        y -= self.text(line, x, y, size=11).content_height + 10
        self.text("Name of the save:", x, y, size=10.5, bold=True)
        y -= 22
        self.box(x, y - 30, left + dw - 20, y, (252, 248, 236, 255), outline=(92, 60, 48, 255))
        cursor = "" if self.confirm is not None else "|"
        self.name_text = self.text(self.name + cursor, x + 8, y - 6, size=12)
        y -= 40
        hint = self.message or "Enter saves · Esc goes back · click a save below to write over it"
        y -= self.text(hint, x, y, WARN if self.message else DIM, 9.5, width=dw - 40).content_height + 10
        self.text("Your saves, the newest first:", x, y, size=10, bold=True)
        y -= 22
        self.slot_rows: list[tuple[float, float, slots.Slot]] = []
        for s in self.existing:
            said = self.text(describe(s), left + dw - 20, y, DIM, 9.5, anchor_x="right")
            textfit.ellipsize(self.text(s.name, x + 8, y, size=10, bold=True), said.left - x - 20)
            self.slot_rows.append((y - 22, y + 4, s))
            y -= 26
        if not self.existing:
            self.text("none yet", x + 8, y, DIM, 10)
            y -= 26
        if self.confirm is not None:
            self._build_confirm(x, y - 4, dw - 40)
            return
        bw = (dw - 40 - 12) / 2
        self.button("save", "Save", x, top - height + 16, bw, self.submit)
        self.button("cancel", "Cancel", x + bw + 12, top - height + 16, bw, self.cancel)

    def _build_confirm(self, x: float, y: float, width: float) -> None:
        s = self.confirm
        assert s is not None
        question = (
            f"“{s.name}” already holds a save ({describe(s)}). Write over it? "
            f"The save it replaces is kept as {s.path.name}.bak."
        )
        t = self.text(question, x, y, WARN, 10.5, width=width)
        bottom = y - t.content_height - 12 - BUTTON_H
        bw = (width - 12) / 2
        self.button("overwrite", "Write over it", x, bottom, bw, self.overwrite)
        self.button("rename", "Choose another name", x + bw + 12, bottom, bw, self.unconfirm)

    # ------------------------------------------------------------------ acting
    def submit(self) -> None:
        self.invalidate()
        problem = slots.name_problem(self.name)
        if problem:
            self.message = problem
            return
        path = slots.slot_path(saveslots.ENGINE, self.name)
        if path.exists():
            self.confirm = slots.read_card(path)
            return
        self._write()

    def overwrite(self) -> None:
        self._write()

    def unconfirm(self) -> None:
        self.confirm = None
        self.invalidate()

    def cancel(self) -> None:
        self.window.show_view(self.back)

    def _write(self) -> None:
        game = self.back.game
        try:
            where = saveslots.save_slot(game.session, game.humans, self.name, game.game_id)
        except BellumError as no:  # a game by e-mail: its turn files are the save
            self.message, self.confirm = str(no), None
            self.invalidate()
            return
        except OSError as no:
            self.message, self.confirm = f"The save could not be written: {no.strerror or no}.", None
            self.invalidate()
            return
        game.message = f"Saved “{self.name.strip()}” ({where.name} in {folder_words()})."
        game.version += 1
        self.window.show_view(self.back)

    # ------------------------------------------------------------------ input
    def on_text(self, text: str) -> bool | None:
        if self.confirm is not None:
            return None
        typed = "".join(ch for ch in text if ch.isprintable())
        if typed:
            self.name = (self.name + typed)[: slots.NAME_MAX]
            self.message = ""
            self.invalidate()
        return None

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if symbol == arcade.key.ESCAPE:
            self.unconfirm() if self.confirm is not None else self.cancel()
        elif symbol in (arcade.key.ENTER, arcade.key.RETURN):
            self.overwrite() if self.confirm is not None else self.submit()
        elif symbol == arcade.key.BACKSPACE and self.confirm is None:
            self.name = self.name[:-1]
        self.invalidate()
        return None

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        self.ensure_built()
        if self.button_at(x, y) is None and self.confirm is None:
            for bottom, top, s in self.slot_rows:
                if bottom <= y <= top:
                    self.name = s.name
                    self.invalidate()
                    return None
        return super().on_mouse_press(x, y, button, modifiers)


# ---------------------------------------------------------------------- the load screen


class LoadScreen(Screen):
    """Every campaign save, the newest first; load one, or see the end of a finished war."""

    def __init__(
        self,
        opener: Callable[..., arcade.View],
        back: arcade.View | None = None,
        menu: arcade.View | None = None,
        scenario: str | None = None,
    ) -> None:
        """``opener(game, menu=…)``: the campaign window on a loaded game (``CampaignView``);
        ``scenario``: the one being played, which a save of that scenario is replayed from (a
        scenario file the player named, which a save alone may not name)."""
        super().__init__()
        self.opener = opener
        self.scenario = scenario
        self.back = back
        self.menu = menu
        self.slots = slots.list_slots(saveslots.ENGINE)
        self.selected = 0
        self.first = 0
        self.message = ""
        self.busy = ""  # what is being done ("Loading …"), while the loading thread replays the save
        self.deleting: slots.Slot | None = None  # the save a player asked to delete, not yet confirmed
        #: the save being loaded and its replay in the loading thread
        self._job: tuple[slots.Slot, Future[tuple[Any, Any]]] | None = None

    def build(self) -> None:
        w, h = self.window.width, self.window.height
        tw = min(TABLE_W, w - 80)
        left = (w - tw) / 2
        self.text("Load a campaign", w / 2, h - 16, rgba(GOLD), 22, bold=True, serif=True, anchor_x="center")
        count = f"{len(self.slots)} save" + ("" if len(self.slots) == 1 else "s")
        sub = f"{count} in {folder_words()}, the newest first" if self.slots else ""
        self.text(sub, w / 2, h - 48, rgba(PARCHMENT), 10.5, anchor_x="center")
        top = h - 100
        table_h = 36 + ROWS * ROW_H + 12
        self.panel(left - 16, top - table_h, left + tw + 16, top)
        scale = tw / TABLE_W
        for title, dx in COLUMNS:
            self.text(title, left + dx * scale, top - 12, HEADINGS, 11, bold=True)
        y = top - 40
        self.rows: list[tuple[float, float, int]] = []
        if not self.slots:
            self.text("No campaign has been saved yet: Ctrl+S in a game saves one.", left, y - 8, DIM, 11)
        for i in range(self.first, min(len(self.slots), self.first + ROWS)):
            self._row(i, left, y, tw, scale)
            self.rows.append((y - ROW_H, y, i))
            y -= ROW_H
        if len(self.slots) > ROWS:
            more = (
                f"{self.first + 1}–{min(len(self.slots), self.first + ROWS)} of {len(self.slots)} · ↑ ↓ PageUp PageDown"
            )
            self.text(more, left + tw, top - table_h + 14, DIM, 9, anchor_x="right")
        bottom = top - table_h - 16
        hint = "↑ ↓ or a click chooses · Enter or a second click loads · Delete deletes · Esc goes back"
        self.text(hint, w / 2, top - table_h - 10, rgba(PARCHMENT), 10, anchor_x="center")
        bottom -= 24
        note = self.busy or self.message
        if note:
            color = rgba(PARCHMENT) if self.busy else (250, 150, 130, 255)
            self.text(note, w / 2, bottom, color, 11.5, width=tw, anchor_x="center", bold=not self.busy)
        chosen = self.chosen()
        over = chosen is not None and chosen.meta is not None and bool(chosen.meta.over)
        yb = 24
        if self.deleting is not None:
            self._build_delete(left, yb, tw, w)
            return
        bw = (tw - 36) / 4
        free = chosen is not None and self._job is None
        self.button("load", "Load", left, yb, bw, self.load_selected, enabled=free)
        self.button("victory", "The end of the war", left + bw + 12, yb, bw, self.end_of_war, enabled=over and free)
        self.button("delete", "Delete…", left + 2 * (bw + 12), yb, bw, self.ask_delete, enabled=free)
        self.button("back", "Back", left + 3 * (bw + 12), yb, bw, self.go_back)

    def _build_delete(self, left: float, yb: float, tw: float, w: float) -> None:
        s = self.deleting
        assert s is not None
        question = f"Delete “{s.name}” ({describe(s)})? It cannot be brought back."
        self.text(question, w / 2, yb + 70, (250, 150, 130, 255), 11.5, anchor_x="center", bold=True)
        bw = (tw - 12) / 2
        self.button("confirm-delete", "Delete it", left, yb, bw, self.delete)
        self.button("keep", "Keep it", left + bw + 12, yb, bw, self.keep)

    def _row(self, i: int, left: float, y: float, tw: float, scale: float) -> None:
        s = self.slots[i]
        if i == self.selected:
            self.box(left - 8, y - ROW_H + 2, left + tw + 8, y, SELECTED)
        elif s.autosave:
            self.box(left - 8, y - ROW_H + 2, left + tw + 8, y, AUTO_TINT)
        m = s.meta
        ink = (48, 30, 24, 255)
        name = self.text(s.name, left, y - 8, ink, 11, bold=not s.autosave, italic=s.autosave)
        textfit.ellipsize(name, (COLUMNS[1][1] - 14) * scale)
        if m is not None and m.over:
            self.text("war over", left + 380 * scale, y - 10, WARN, 9, anchor_x="right", bold=True)
        if m is None:
            self.text(
                "cannot be read: Load says why" if s.problem else "(no card)", left + 330 * scale, y - 8, WARN, 10
            )
            return
        for (_, dx), value in zip(COLUMNS[1:], (m.side, m.date, str(m.turn), slots.when_text(m.saved_at)), strict=True):
            self.text(value, left + dx * scale, y - 8, ink, 11)

    # ------------------------------------------------------------------ acting
    def chosen(self) -> slots.Slot | None:
        return self.slots[self.selected] if 0 <= self.selected < len(self.slots) else None

    def select(self, index: int) -> None:
        if not self.slots:
            return
        self.selected = max(0, min(len(self.slots) - 1, index))
        if self.selected < self.first:
            self.first = self.selected
        elif self.selected >= self.first + ROWS:
            self.first = self.selected - ROWS + 1
        self.message = ""
        self.invalidate()

    def load_selected(self) -> None:
        """Load the chosen save: it is replayed in a background thread (a long war takes
        seconds) while the screen says so; the game opens when it is done (``on_update``)."""
        self._start("Loading “{}”: the saved war is being replayed…", count=False)

    def end_of_war(self) -> None:
        self._start("Loading “{}”: the saved war is being replayed to count it…", count=True)

    def _start(self, busy: str, count: bool) -> None:
        s = self.chosen()
        if s is None or self._job is not None:
            return
        own = self.scenario if self.scenario is not None and s.scenario == self.scenario else None
        self.busy, self.message = busy.format(s.name), ""
        self._job = (s, _LOADER.submit(replay_save, s.path, own, count))
        self.invalidate()

    def loading(self) -> bool:
        return self._job is not None

    def on_update(self, delta_time: float) -> bool | None:
        job = self._job
        if job is not None and job[1].done():
            self._job, self.busy = None, ""
            self.invalidate()
            self._open(*job)
        return None

    def finish(self) -> None:
        """Wait for the save being loaded and open it (tests)."""
        self.ensure_built()
        if self._job is not None:
            self._job[1].exception()  # waits
        self.on_update(0.0)

    def _open(self, s: slots.Slot, job: Future[tuple[Any, Any]]) -> None:
        """On the main thread: the game loaded (its window, or its end-of-war screen), or why not."""
        from campaign.view.game import CampaignGame
        from campaign.view.victory import VictoryView

        try:
            session, stats = job.result()
        except Exception as no:  # a BellumError's sentence; anything else named, never a traceback
            self.message = saveslots.sentence(no, s.path)
            return
        game = CampaignGame(session, saveslots.humans_of(s.meta), game_id=saveslots.game_of(s.meta, session.scenario))
        if stats is not None:
            self.window.show_view(VictoryView(game, back=self, menu=self.menu, stats=stats))
            return
        game.message = f"Loaded “{s.name}”: {game.state.date()}, turn {game.state.turn + 1}."
        menu = self.menu or getattr(self.back, "menu", None)
        self.window.show_view(self.opener(game, menu=menu))

    def ask_delete(self) -> None:
        if self._job is not None:
            return
        self.deleting = self.chosen()
        self.invalidate()

    def keep(self) -> None:
        self.deleting = None
        self.invalidate()

    def delete(self) -> None:
        """Remove the save asked about, and the previous one kept beside it."""
        s, self.deleting = self.deleting, None
        if s is None:
            return
        problem = ""
        for p in (s.path, backup_path(s.path)):
            try:
                p.unlink(missing_ok=True)
            except OSError as no:
                problem = f"“{s.name}” could not be deleted: {no.strerror or no}."
        self.slots = slots.list_slots(saveslots.ENGINE)
        self.first = 0
        self.select(min(self.selected, len(self.slots) - 1))
        self.message = problem
        self.invalidate()

    def go_back(self) -> None:
        self._job, self.busy = None, ""  # a save being loaded is left to finish unseen
        target = self.back or self.menu
        if target is not None:
            self.window.show_view(target)

    # ------------------------------------------------------------------ input
    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        k = arcade.key
        if self.deleting is not None:
            if symbol == k.ESCAPE:
                self.keep()
            elif symbol in (k.ENTER, k.RETURN):
                self.delete()
            return None
        if symbol == k.ESCAPE:
            self.go_back()
        elif symbol in (k.DOWN, k.UP):
            self.select(self.selected + (1 if symbol == k.DOWN else -1))
        elif symbol in (k.PAGEDOWN, k.PAGEUP):
            self.select(self.selected + (ROWS if symbol == k.PAGEDOWN else -ROWS))
        elif symbol in (k.ENTER, k.RETURN):
            self.load_selected()
        elif symbol == k.DELETE:
            self.ask_delete()
        return None

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool | None:
        self.select(self.selected - int(scroll_y))
        return None

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        self.ensure_built()
        if self.button_at(x, y) is None and self.deleting is None:
            for bottom, top, i in self.rows:
                if bottom <= y <= top:
                    if i == self.selected:  # a second click on the chosen save loads it
                        self.load_selected()
                    self.select(i)
                    return None
        return super().on_mouse_press(x, y, button, modifiers)


# ---------------------------------------------------------------------- loading in the background

#: the thread that replays a save being loaded (plain data only: arcade objects are made on
#: the main thread, by ``LoadScreen._open``)
_LOADER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="load-save")


def replay_save(path: Path, scenario: str | None, count: bool) -> tuple[Any, Any]:
    """In the loading thread: the save at ``path`` replayed and checked (``saveslots.load_slot``)
    and, with ``count``, the war in numbers its replay counted (``campaign.warstats``)."""
    if not count:
        return saveslots.load_slot(path, None, scenario), None
    from campaign.warstats import Counting, war_stats

    engine = Counting()
    session = saveslots.load_slot(path, engine, scenario)
    return session, war_stats(session.state, list(session.log), engine.close(session.state))


# ---------------------------------------------------------------------- the window's hooks


def open_save_dialog(view: Any) -> None:
    """Ctrl+S in the campaign window."""
    if view.game.remote:
        view.game.message = "In a game by e-mail the turn files are the save: open the last one again to go on."
        view.game.version += 1
        return
    view.window.show_view(SaveDialog(view))


def open_load_screen(view: Any) -> None:
    """Ctrl+L in the campaign window (Esc comes back to the game)."""
    if view.game.remote:
        view.game.message = "In a game by e-mail, open the turn file you received instead of a save."
        view.game.version += 1
        return
    scenario = view.game.session.scenario
    view.window.show_view(LoadScreen(type(view), back=view, menu=getattr(view, "menu", None), scenario=scenario))


#: the turn each game was last seen at (its autosave is written when a new one begins)
_seen: weakref.WeakKeyDictionary[Any, tuple[int, bool]] = weakref.WeakKeyDictionary()
#: each game's autosave being written in the background
_writing: weakref.WeakKeyDictionary[Any, Future[Path]] = weakref.WeakKeyDictionary()


def autosave_tick(game: Any) -> Future[Path] | None:
    """The autosave of a new turn or of the war's end, once (the game's first sighting only
    notes where it stands), written in the background; the autosave being written, or None.
    A save that could not be written becomes the game's message."""
    done = _writing.get(game)
    if done is not None and done.done():
        _settled(game, done)
    if game.remote or not game.humans:
        return None
    now = (game.state.turn, bool(game.state.result))
    before = _seen.get(game)
    _seen[game] = now
    if before is None or now <= before:
        return None
    future = saveslots.autosave_later(game.session, game.humans, game.game_id)
    _writing[game] = future
    return future


def wait_autosave(game: Any) -> Path | None:
    """Wait for the game's autosave being written and return its file (None when none was
    being written); a failed one raises its error (tests: ``settle_autosave`` says it instead)."""
    future = _writing.get(game)
    return future.result() if future is not None else None


def settle_autosave(game: Any) -> str:
    """Wait for the game's autosave being written (the campaign window calls it when it is
    hidden or closed); a failure becomes the game's message, and is returned ('' if none)."""
    future = _writing.get(game)
    if future is None:
        return ""
    future.exception()  # waits
    return _settled(game, future)


def _settled(game: Any, future: Future[Path]) -> str:
    """The game's finished autosave forgotten; a failure told in the game's message."""
    if _writing.get(game) is future:
        del _writing[game]
    problem = future.exception()
    if problem is None:
        return ""
    game.message = f"The autosave could not be written: {getattr(problem, 'strerror', None) or problem}."
    game.version += 1
    return str(game.message)
