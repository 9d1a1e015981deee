"""The battleboard's help (F1): the controls, the legend, and the section of the rules
(docs/rules/battleboard.md, packaged as ``game_data("rules", "battleboard.md")``) for what
the player is doing now — the combat rules while an attack mode is being chosen, the
boarding rules at sea, the command rules in the command phase, and so on."""

from __future__ import annotations

import re
from functools import lru_cache

from battleboard.model import State
from bellum.paths import game_data

CONTROLS = (
    "Click one of your units to select it: yellow squares are where it may move, red frames "
    "what it may attack. Click a square to move; click a framed enemy to see the attack modes "
    "with their odds, then click one or press its number.",
    "Keys: C command checks · D double move · Enter end turn · W withdraw (panicked army) · "
    "O leave the board · L allocate / S set up (P another plan) · Space let the AI play one "
    "action · U undo (until a die is rolled) · F5 save · F9 load · F1 this help · Esc menu.",
)


@lru_cache(maxsize=4)
def _doc(name: str) -> str:
    return game_data("rules", name).read_text("utf-8")


def plain(text: str) -> str:
    """Lines joined into paragraphs (a numbered paragraph or a list item starts one), then
    Markdown emphasis and code marks taken out (a result written `-` is not a list item)."""
    paras = [" ".join(line.strip() for line in p.splitlines()) for p in re.split(r"\n(?=\d+\.\d+ |- )", text)]
    paras = [re.sub(r"\*\*(.+?)\*\*|\*(.+?)\*", lambda m: m.group(1) or m.group(2), p) for p in paras]
    return "\n".join(p.replace("`", "") for p in paras if p)


def section(number: str, name: str = "battleboard.md") -> str:
    """One section of a rules document: ``"8"`` a whole chapter (its ``## 8.`` heading and
    text), ``"13.7"`` one numbered paragraph; '' when there is none."""
    doc = _doc(name)
    if "." not in number:
        m = re.search(rf"^## {re.escape(number)}\. .*?(?=^## |\Z)", doc, re.M | re.S)
    else:
        m = re.search(rf"^{re.escape(number)} .*?(?=^\d+\.\d+ |^## |\Z)", doc, re.M | re.S)
    if m is None:
        return ""
    return plain(m.group(0).removeprefix("## ").strip())


def sections_for(s: State, choosing_attack: bool) -> list[str]:
    """Which rules sections matter now (battleboard.md numbering)."""
    if s.phase == "over":
        return ["11", "12.1"] if not s.naval else ["13.12"]
    if choosing_attack:
        return ["13.7", "13.8", "8.2"] if s.naval else ["8"]
    if s.naval:
        phase = {"allocate": ["13.2", "13.5"], "deploy": ["4.2"], "command": ["13.6"], "move": ["13.4", "5.5"]}
        found = phase.get(s.phase, ["13.7"])
        return found + (["13.10"] if s.panicked else [])
    phase = {"deploy": ["4"], "command": ["6"], "move": ["7", "5.5"], "combat": ["8"]}
    return phase.get(s.phase, ["5"]) + (["10"] if s.panicked else [])


def rules_text(s: State, choosing_attack: bool) -> str:
    """The rules for what is selected, as plain paragraphs, each headed by its number."""
    return "\n".join(t for t in (section(n) for n in sections_for(s, choosing_attack)) if t)
