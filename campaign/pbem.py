"""The campaign's adapter for play by e-mail (``bellum.pbem``, docs/PBEM.md).

Who acts is the rules' own answer (``CampaignState.actor``: the side a pending decision
waits on, else the active side), so a turn file stops wherever the rules hand a decision
to the other side — at the end of a phase, and for the defender's stratagems in a battle,
an interception, a naval battle offered, the fight for sea supply or a Tribune's veto.
Battles are fought by the chosen engine's AI on the turn's chain dice (``options.battles``:
``campaign.routes``); a result fought elsewhere may not travel in a turn file.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Literal

from bellum.paths import game_data
from campaign import actions as A
from campaign.engine import CampaignEngine
from campaign.routes import route
from campaign.state import SIDES, CampaignState


class CampaignRules:
    name: Literal["campaign"] = "campaign"
    sides: tuple[str, str] = SIDES
    options: ClassVar[dict[str, tuple[str, ...]]] = {"battles": ("auto", "tactical", "decisive-tactical")}

    def engine(self, options: dict[str, str]) -> CampaignEngine:
        return CampaignEngine(resolver=route(options.get("battles", "auto")))

    def title(self, side: str) -> str:
        return {"caesarian": "the Caesarians", "senatorial": "the Senatorials"}.get(side, side)

    def side_named(self, text: str) -> str | None:
        t = text.strip().lower().removeprefix("the ")
        for side in SIDES:
            if t in (side, side + "s"):
                return side
        return {"caesar": SIDES[0], "pompey": SIDES[1], "pompeians": SIDES[1], "optimates": SIDES[1]}.get(t)

    def shipped(self, scenario: str) -> bool:
        return game_data("scenarios", "campaign", f"{scenario}.toml").is_file()

    def actor(self, state: CampaignState) -> str:
        return state.actor

    def over(self, state: CampaignState) -> bool:
        return bool(state.result)

    def when(self, state: CampaignState) -> str:
        return f"{state.date()}, {state.phase.replace('_', ' ')}"

    def refuse(self, raw: dict[str, Any]) -> str | None:
        if "outcome" in raw or "outcomes" in raw:
            return (
                "carries the result of a battle fought elsewhere; in a game by e-mail every battle is fought again "
                "from the dice"
            )
        return None

    def ai(self) -> Callable[[CampaignState], A.Action]:
        from campaign.ai import CampaignAI

        return CampaignAI().choose


RULES = CampaignRules()
