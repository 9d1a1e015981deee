"""The main menu's entry for games by e-mail and replays (docs/PBEM.md).

One list: start a game by e-mail on either side; every turn file in the player's e-mail
folder (``<data folder>/pbem``: the files this game writes go there, and received ones are
put there), with who is to play; every save.  Enter plays the chosen turn file in the
campaign window (or starts the game), R watches the file or save again in the replay
window, Esc goes back to the menu."""

from __future__ import annotations

from pathlib import Path

import arcade

from bellum.errors import BellumError, InputError

LABEL = "Play by e-mail · replays"
BLURB = "Play a friend on another computer by sending turn files, or watch any game again."

GOLD = (222, 184, 96)
INK = (236, 222, 190)
DIM = (170, 150, 130)
NOTE = (160, 210, 150)
ERROR = (250, 140, 120)
ROW = 30
MAX_FILES = 12


def choices() -> list[tuple[str, str]]:
    """(key, label) rows: the two new games, the turn files newest first, the saves."""
    from bellum import pbem
    from bellum.paths import user_folder

    rows = [
        ("new:caesarian", "New game by e-mail — you are the Caesarians"),
        ("new:senatorial", "New game by e-mail — you are the Senatorials"),
    ]
    files = sorted(pbem.folder().glob("*.toml"), key=lambda p: p.stat().st_mtime, reverse=True)
    for p in files[:MAX_FILES]:
        try:
            doc, rules = pbem.read_turn_file(p)
            to_play = doc.pbem.to_play
            sender = next(s for s in rules.sides if s != to_play)
            mine = pbem.load_record(doc.pbem.game, to_play), pbem.load_record(doc.pbem.game, sender)
        except InputError:
            rows.append((f"file:{p}", f"{p.name[:40]} — not a turn file this game can read"))
            continue
        sent = mine[0] is None and mine[1] is not None
        if doc.pbem.ended:
            who = "the war is over"
        elif sent:
            who = f"sent to {rules.title(to_play)}"
        else:
            who = f"{rules.title(to_play)} to play"
        rows.append((f"file:{p}", f"{p.name[:40]} — {doc.pbem.at}: {who}"))
    for p in sorted((user_folder() / "saves").glob("*.toml"))[:4]:
        rows.append((f"save:{p}", f"Saved game {p.name[:40]} — R to watch it again"))
    return rows


class PbemPicker(arcade.View):
    """The list; ``note`` says what was done (a file written), ``error`` what was refused."""

    def __init__(self, menu: arcade.View) -> None:
        super().__init__()
        from bellum import pbem

        self.menu = menu
        self.rows = choices()
        self.selected = 0
        self.note = ""
        self.error = ""
        self.head = arcade.Text(
            "Play by e-mail  (Enter: play · R: watch again · Esc: back)", 0, 0, GOLD, 20, anchor_x="center"
        )
        self.where = arcade.Text(f"Turn files are kept in {pbem.folder()}", 0, 0, DIM, 11, anchor_x="center")
        self.texts = [arcade.Text(label, 0, 0, INK, 13, anchor_x="center") for _, label in self.rows]
        self.msg = arcade.Text("", 0, 0, NOTE, 12, anchor_x="center")

    def row_y(self, i: int) -> float:
        return float(self.window.height * 0.78 - i * ROW)

    def on_draw(self) -> None:
        self.clear(color=(24, 20, 18))
        cx = self.window.width / 2
        self.head.position = (cx, self.window.height * 0.9)
        self.head.draw()
        self.where.position = (cx, self.window.height * 0.9 - 28)
        self.where.draw()
        for i, t in enumerate(self.texts):
            y = self.row_y(i)
            if i == self.selected:
                arcade.draw_lrbt_rectangle_filled(cx - 480, cx + 480, y - 9, y + 21, (84, 66, 52))
            t.position = (cx, y)
            t.draw()
        self.msg.text = self.error or self.note
        self.msg.color = ERROR if self.error else NOTE
        self.msg.position = (cx, 40)
        self.msg.draw()

    def chosen(self) -> tuple[str, Path | None]:
        key = self.rows[self.selected][0]
        kind, _, rest = key.partition(":")
        return kind, Path(rest) if kind in ("file", "save") else None

    def open(self) -> arcade.View | None:
        """Enter: start a game (write its first file), or play the chosen turn file."""
        from bellum import pbem
        from campaign.view.play import CampaignView, pbem_game

        kind, path = self.chosen()
        self.note = self.error = ""
        try:
            if kind == "new":
                out = pbem.new_game("49bc", self.rows[self.selected][0].split(":", 1)[1])
                self.note = f"Written: {out.name} (in the folder above): send it to your opponent."
                self.refresh()
                return None
            if kind == "save" or path is None:
                self.error = "A save is watched again with R."
                return None
            session = pbem.open_turn_file(path)
            if session.turn_over():  # the first two turns only exchange secrets
                out = session.finish()
                self.note = f"Answered at once: send {out.name} (in the folder above) to your opponent."
                self.refresh()
                return None
        except BellumError as bad:
            self.error = str(bad)
            return None
        view = CampaignView(pbem_game(session), menu=self.menu)
        self.window.show_view(view)
        return view

    def replay(self) -> arcade.View | None:
        """R: the chosen file or save in the replay window."""
        from bellum.replay import load_replay
        from bellum.view.replay import replay_view

        _, path = self.chosen()
        if path is None:
            self.error = "Choose a turn file or a save to watch it again."
            return None
        try:
            view = replay_view(load_replay(path), menu=self)
        except BellumError as bad:
            self.error = str(bad)
            return None
        self.window.show_view(view)
        return view

    def refresh(self) -> None:
        self.rows = choices()
        self.texts = [arcade.Text(label, 0, 0, INK, 13, anchor_x="center") for _, label in self.rows]
        self.selected = min(self.selected, len(self.rows) - 1)

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        if symbol == arcade.key.ESCAPE:
            self.window.show_view(self.menu)
        elif symbol == arcade.key.DOWN:
            self.selected = (self.selected + 1) % len(self.rows)
        elif symbol == arcade.key.UP:
            self.selected = (self.selected - 1) % len(self.rows)
        elif symbol in (arcade.key.ENTER, arcade.key.RETURN):
            self.open()
        elif symbol == arcade.key.R:
            self.replay()

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        for i in range(len(self.rows)):
            if self.row_y(i) - 9 <= y <= self.row_y(i) + 21:
                self.selected = i
                self.open()
                return


def launch(window: arcade.Window, menu_view: arcade.View) -> None:
    window.show_view(PbemPicker(menu_view))
