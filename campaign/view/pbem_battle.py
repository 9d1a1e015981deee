"""A battle fought move by move inside a game by e-mail (``--battles played``): the
battleboard window on the battle the ``PbemSession`` holds.  Every move goes through the
session (the turn's chain dice, the same check the receiver makes); only this computer's
side is offered its set-up plans and moves, the other side is played on the other computer
(nobody here, not the AI), and a secret allocation at sea is sealed by the session.  When
the battle ends, or the decision passes to the other side, the window goes back to the
campaign, which writes the next turn file."""

from __future__ import annotations

from typing import Any

import arcade

from battleboard.model import Action
from battleboard.view.battle import BattleView
from bellum.errors import RuleError
from campaign.state import side_title


class PbemBattleView(BattleView):
    def __init__(self, session: Any, campaign: arcade.View) -> None:
        b = session.battle
        assert b is not None
        theirs = "B" if b.letter(session.me) == "A" else "A"
        super().__init__(
            b.state,
            title=b.title[:1].upper() + b.title[1:],
            side_names={x: side_title(b.faction(x)) for x in ("A", "B")},
            ai=frozenset({theirs}),  # only this side's plans are offered; nobody plays the other here
            menu=campaign,
            menu_label="Campaign",
        )
        self.session = session
        self.campaign = campaign
        self.dice = session.dice
        # the battle so far, the other side's moves included (the events since it began)
        events = list(session.log)
        begun = max((i for i, e in enumerate(events) if e.kind == "battle_begins"), default=len(events))
        self.log.extend(_line(e) for e in events[begun + 1 :])

    def human_to_act(self) -> bool:
        return self.session.battle is not None and not self.session.turn_over()

    def can_undo(self) -> bool:
        return False

    def undo(self) -> bool:
        self.message = "A move in a game by e-mail cannot be taken back."
        self.dirty = True
        return False

    def act(self, action: Action) -> bool:
        try:
            events = self.session.play_battle(action)
        except RuleError as no:
            self.message = str(no)
            self.dirty = True
            return False
        game = self.campaign.game  # type: ignore[attr-defined]
        game._after(events)
        self.log.extend(_line(e) for e in events)
        self.message = ""
        self.selected = None
        self.options = []
        self.dirty = True
        if self.session.battle is not None:
            self.state = self.session.battle.state
        if self.session.battle is None or self.session.turn_over():
            self.window.show_view(self.campaign)
        return True

    def on_update(self, delta_time: float) -> None:
        self._layout()  # the other side moves on its own computer: no computer player here


def _line(e: Any) -> str:
    """How a battle event reads in the log (an allocation says only that it was made)."""
    if e.kind == "allocate" and e.data.get("side") is not None:
        return f"Side {e.data['side']} has allocated in secret."
    return str(e.text)
