"""What the campaign window asks of the game: the ``MapModel`` interface.

The window only reads the model and tells it what the player picked; it never
changes the game state itself.  The playing window's model (``campaign.view.game``)
has this shape (the menu's map of January 49 BC is that game at its opening).

No arcade here: the AI and the tests may build models without a window.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from campaign.map import CampaignMap


@dataclass(frozen=True, slots=True)
class ForceMarker:
    """One force (stack) drawn on the map.

    ``id`` is stable across turns; ``place`` is a land space, an off-map region or a
    sea zone; ``owner`` is an owner id of the map (``caesarian``, ``senatorial``, a
    client…) and picks the counter's colour; ``label`` is the counter's text (the
    commander, say ``Caesar``); ``detail`` its size (``7 L · 2 C``); ``leader``
    marks a force under a named commander (drawn with a banner); ``symbol`` what the
    counter shows it is (``campaign.view.stacks.SYMBOLS``), ``strength`` its SP and
    ``card`` the lines of its stack card (leaders, strength, composition).
    """

    id: str
    place: str
    owner: str
    label: str
    detail: str = ""
    leader: bool = True
    symbol: str = "legion"
    strength: int = 0
    card: tuple[str, ...] = ()


@runtime_checkable
class MapModel(Protocol):
    """The game as the map window sees it.

    * ``world`` — the map (positions, spaces, links);
    * ``selected`` — the place the player picked (a land space, an off-map region or a
      sea zone), ``None`` for nothing; the window sets it through ``select``;
    * ``date_label`` / ``turn_label`` / ``phase_label`` — the top bar's text;
    * ``owners`` — who holds each land space now (space id -> owner id; a space not in
      the mapping keeps the map's owner of January 49 BC);
    * ``forces`` — the forces to draw (empty for a bare map).
    """

    world: CampaignMap
    selected: str | None

    def date_label(self) -> str: ...

    def turn_label(self) -> str: ...

    def phase_label(self) -> str: ...

    def owners(self) -> Mapping[str, str]: ...

    def forces(self) -> Sequence[ForceMarker]: ...

    def select(self, place: str | None) -> None: ...
