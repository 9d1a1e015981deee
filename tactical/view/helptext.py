"""The words of the F1 help (issue 16 item 5): the controls, the legend of every mark on the
map, and the section of the tactical rules (``docs/rules/tactical.md``, read through
``bellum.paths.game_data``) for what the player is doing — the shock rules while a shock is
being designated or resolved, missile fire while a fire is aimed, the defender's reactions
while he is asked, movement while a piece is selected, the sequence of play otherwise.

No arcade here: the window lays these out (``BattleView._update_help``).
"""

from __future__ import annotations

import re
from functools import cache

from bellum.paths import game_data
from tactical.actions import Action, Designate, Fire, Move, Shock
from tactical.state import State

CONTROLS = (
    "Left-click a unit or leader of the side to act: select it",
    "Left-click a lit hex: move there (near a corner: end facing it)",
    "Left-click a red enemy: the odds of fire or shock; Enter confirms",
    "Choices panel: click a row, or press its number (1-9)",
    "Minimap: click to go there · right-drag or arrows: pan",
    "Wheel or + / -: zoom · Home: the whole field · Space: centre",
    "N next piece · Q / E turn · C carry a unit with the leader",
    "L every command range · Tab next option · Esc cancel",
    "P pass · R resolve · U undo (until a die is rolled)",
    "F5 save · F9 load · F1 this help (PgUp / PgDn scroll the rules)",
)

#: (colour, what it means) for the legend's swatches
LEGEND: tuple[tuple[tuple[int, int, int, int], str], ...] = (
    ((250, 236, 130, 200), "a hex the selected piece can reach; the figure is its cost in MP"),
    ((255, 246, 170, 255), "the selected piece (a bright ring)"),
    ((240, 50, 40, 200), "an enemy it can fire at or shock"),
    ((230, 40, 30, 255), "a designated shock: arrow from each attacker, ring on the defender"),
    ((120, 200, 255, 255), "the activated leader's command range and his group"),
    ((255, 170, 0, 255), "waiting on the defender's reaction (amber)"),
    ((90, 220, 120, 255), "a piece that may react (green)"),
    ((196, 64, 56, 255), "side A's counters, rout-point bar and minimap dots"),
    ((132, 84, 160, 255), "side B's counters, rout-point bar and minimap dots"),
)

COUNTER_WORDS = (
    "Counter: type and symbol in the middle; size top-left, TQ bottom-left, MA bottom-right;",
    "yellow notch: facing; DISORD band: disordered; ROUTED on a pale face; black disc: missile",
    "hits. Leader token: name by the abbreviation rule (full name on hover), Initiative · range;",
    "gold ring: overall commander; glowing: activated. Bars: rout points / withdrawal level.",
)

#: the leaders' names on their tokens (``tactical.view.words.abbreviate``)
ABBREVIATION_WORDS = (
    "The abbreviation rule: a name of five letters or fewer is written whole; a longer one is cut",
    "after the consonants that follow its first vowels (Ant., Caes., Pomp.; Alex. when that leaves",
    "under three letters); each later word of a hyphenated name adds its initial and digits",
    "(Leg.R, Trib.B1); two leaders of a side that would read the same take a letter more each.",
)


@cache
def rules_sections() -> dict[str, tuple[str, str]]:
    """The tactical rules' sections by number ("8.2", "4"): (heading, text)."""
    text = game_data("rules", "tactical.md").read_text(encoding="utf-8")
    out: dict[str, tuple[str, str]] = {}
    parts = re.split(r"^(#{2,3} .*)$", text, flags=re.MULTILINE)
    for head, body in zip(parts[1::2], parts[2::2], strict=True):
        title = head.lstrip("#").strip()
        number = title.split(" ", 1)[0].rstrip(".")
        out.setdefault(number, (title, body))
    return out


def section_for(state: State, pending: Action | None, selected: str | None) -> str:
    """The number of the rules section for what the player is doing now."""
    if state.reacting is not None:
        return "8.13"
    if isinstance(pending, Designate | Shock) or state.seq.phase == "shock":
        return "8.2"
    if isinstance(pending, Fire):
        return "8.1"
    if isinstance(pending, Move) or (selected is not None and state.seq.phase == "move"):
        return "4" if selected not in state.leaders else "4.10"
    return "2"


def plain(markdown: str) -> list[str]:
    """Markdown as plain paragraphs (code marks, emphasis and table rules dropped)."""
    out: list[str] = []
    # a blank line ends a paragraph; so does a list item's start
    for para in re.split(r"\n\s*\n|\n(?=\s*(?:[-*]|\d+\.) )", markdown.strip()):
        line = " ".join(p.strip() for p in para.splitlines())
        line = re.sub(r"[`*]", "", line).replace("|", " ").strip()
        if line and not set(line) <= set("-: "):
            out.append(line)
    return out


def rules_text(number: str) -> tuple[str, list[str]]:
    """The heading and paragraphs of rules section ``number`` (and its subsections for a
    chapter), from docs/rules/tactical.md."""
    sections = rules_sections()
    title, body = sections.get(number, (f"Section {number}", "(not found in docs/rules/tactical.md)"))
    paras = plain(body)
    if "." not in number:  # a chapter: its subsections follow
        for key, (sub, text) in sections.items():
            if key.startswith(number + "."):
                paras += [sub, *plain(text)]
    return f"docs/rules/tactical.md §{title.replace('`', '')}", paras
