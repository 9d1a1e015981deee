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
from bellum.events import Event, EventLog
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
        self.log.extend(self.words.event(e) for e in battle_so_far(session))

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
        self.log.extend(self.words.event(e) for e in events)  # names, as the window's own log
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


def battle_so_far(session: Any) -> list[Event]:
    """The battle's events so far, the other side's moves included (since it began)."""
    events = list(session.log)
    begun = max((i for i, e in enumerate(events) if e.kind == "battle_begins"), default=len(events))
    return events[begun + 1 :]


class TacticalTurn:
    """The tactical window's session for a battle played by e-mail on the tactical engine:
    its moves go to the ``PbemSession`` (the turn's chain dice and the receiver's check), and
    it offers moves only while this side must act."""

    def __init__(self, session: Any, done: Any) -> None:
        self.pbem = session
        self.done = done
        self.scenario = "a battle by e-mail"
        self.seed = 0
        self.dice = session.dice
        self.log = EventLog(battle_so_far(session))
        self._last = session.battle.state

    @property
    def state(self) -> Any:
        b = self.pbem.battle
        return b.state if b is not None else self._last

    def legal_actions(self) -> list[Any]:
        b = self.pbem.battle
        if b is None or self.pbem.turn_over() or self.pbem.actor() != self.pbem.me:
            return []
        return list(b.legal())

    def play(self, action: Any) -> list[Event]:
        self._last = self.state
        events: list[Event] = self.pbem.play_battle(action)
        self.log.extend(events)
        self.done(events)
        return events

    def can_undo(self) -> bool:
        return False

    def undo(self) -> None:
        raise RuleError("A move in a game by e-mail cannot be taken back.")

    def save(self, path: Any) -> Any:
        raise RuleError("In a game by e-mail the turn files are the save.")


def tactical_view(session: Any, campaign: arcade.View) -> arcade.View:
    """The tactical window on a battle played by e-mail (``--battles played-tactical``)."""
    from tactical.view.battle import BattleView as TacticalBattleView

    class PbemTacticalView(TacticalBattleView):
        def on_update(self, delta_time: float) -> None:
            if turn.pbem.battle is None or turn.pbem.turn_over():
                self.window.show_view(campaign)
                return
            super().on_update(delta_time)  # no side is the computer's here: nothing plays by itself

    def done(events: list[Event]) -> None:
        campaign.game._after(events)  # type: ignore[attr-defined]

    b = session.battle
    turn = TacticalTurn(session, done)
    names = {x: side_title(b.faction(x)) for x in ("A", "B")}
    view = PbemTacticalView(turn, title=b.title[:1].upper() + b.title[1:], side_names=names, menu=campaign)  # type: ignore[arg-type]
    view.campaign = campaign  # type: ignore[attr-defined]
    return view
