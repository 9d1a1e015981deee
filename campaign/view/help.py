"""What the campaign window's help panel (F1) says: the controls, a legend of the map's
symbols and markers, the sequence of play, and the rules from ``docs/rules/`` split into
sections and searchable (issue 15 item 6).  No arcade here: the panel in ``campaign.view
.play`` draws it, tests read it without a window.

The rules are read through ``bellum.paths.game_data("rules", ...)`` (they ship in the wheel as
``bellum/data/rules``), so the help works installed, in the bundle and in a checkout.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from bellum.paths import game_data
from campaign.state import SIDE_PHASES, SIDES, side_title

#: the rules documents the help reads, in the order it lists them, with their titles
RULES_DOCS = (
    ("campaign.md", "The campaign"),
    ("campaign-map.md", "The map"),
    ("battleboard.md", "The battleboard"),
    ("tactical.md", "The tactical engine"),
)

#: the window's controls: (keys or mouse, what they do)
CONTROLS: tuple[tuple[str, str], ...] = (
    ("Click a force", "select it: the places it may reach light up, each with the chance it gets there"),
    ("Click a lit place", "march or sail there (a risky march asks first, with its odds)"),
    ("Click a place", "select it: what can be done there is listed in the place panel"),
    ("Drag · arrow keys · WASD", "pan the map"),
    ("Mouse wheel", "zoom on the cursor (over a list: its next or previous page)"),
    ("Home", "the whole map"),
    ("Enter", "end or pass the phase"),
    ("Ctrl+Z", "undo the last step (a step for which a die was rolled stays, and the window says why)"),
    ("Ctrl+S · Ctrl+L", "save in a named slot · the load screen, every save the newest first"),
    ("C", "fold or open the chronicle"),
    ("L", "show or hide the map legend"),
    ("R", "the war's battles and their after-action reports"),
    ("V", "the end-of-war screen again, once the war is over"),
    ("F1", "this help (F1 or Esc closes it)"),
    ("Esc", "close a dialog, clear the selection, or back to the menu"),
    ("− and + on a panel", "fold it to its title or open it again; ⇄ moves it to the other side"),
)

#: the legend: (its sample on the map, what is drawn, what it means) — counters described by
#: what they show, so any symbol set the map draws on them reads the same way
LEGEND: tuple[tuple[str, str, str], ...] = (
    ("fill:caesarian", "Red land", "held by the Caesarians"),
    ("fill:senatorial", "Purple land", "held by the Senatorials"),
    ("fill:client", "Sand land", "a client state (Egypt, Judea, Numidia, Pontus, Parthia)"),
    ("fill:neutral", "Grey land", "neutral, or nobody's yet"),
    ("line:road", "Dark red line", "a named Roman road; a thinner line: a road"),
    ("line:cross", "Dashed line", "a cross-country link (a roll on the March Table)"),
    ("line:strait", "Blue dashes", "a strait or a sea lane"),
    ("line:border", "Dotted line", "a province border"),
    ("city", "White disc", "a city, ringed in its owner's ink"),
    ("capital", "Double ring", "a provincial capital"),
    ("income", "Gold ring", "a city that pays income"),
    ("anchor", "Anchor", "a port (fleets are raised, sail and supply from here)"),
    ("colony", "Pennant", "a colony site"),
    ("region", "Diamond", "a region"),
    ("pass", ")(", "a mountain pass"),
    (
        "counter",
        "Counter",
        "a force in its side's colour: its symbol says what it is (legion, cavalry, auxilia, fleet, leader, "
        "garrison, client army); the number is its strength in SP",
    ),
    ("counter-leader", "Counter with a leader", "a force led by a leader; his name and rating beside it"),
    ("", "Hover a counter", "the force's leaders, units, strength and movement"),
    ("ring:gold", "Gold ring (place)", "something can be done there now: click it"),
    ("ring:green", "Green ring", "a sure march; amber or red: the March Table's risk; blue: by sea"),
    ("", "Number under a ring", "the chance that the march arrives"),
)


@dataclass(frozen=True, slots=True)
class Section:
    """One section of a rules document: its heading and its text."""

    doc: str
    number: str
    title: str
    text: str

    @property
    def heading(self) -> str:
        return f"{self.number} {self.title}".strip()

    def cite(self) -> str:
        """How a rule is cited ("campaign.md §8.2")."""
        return f"{self.doc} §{self.number}" if self.number else self.doc


_HEADING = re.compile(r"^(#{2,3})\s+(?:(\d+(?:\.\d+)*)\.?\s+)?(.*)$")


def split_sections(doc: str, text: str) -> list[Section]:
    """A rules document split at its ``##`` and ``###`` headings (the text before the first
    is its introduction); code fences are kept as text."""
    out: list[Section] = []
    number, title, lines = "", "Introduction", []
    fence = False
    for line in text.splitlines():
        if line.startswith("```"):
            fence = not fence
        m = None if fence else _HEADING.match(line)
        if m is None:
            lines.append(line)
            continue
        body = "\n".join(lines).strip()
        if body:
            out.append(Section(doc, number, title, body))
        number, title, lines = m.group(2) or "", m.group(3).strip(), []
    body = "\n".join(lines).strip()
    if body:
        out.append(Section(doc, number, title, body))
    return out


@functools.cache
def rule_sections() -> tuple[Section, ...]:
    """Every section of the rules the help shows (read through ``game_data``)."""
    out: list[Section] = []
    for name, _ in RULES_DOCS:
        path = game_data("rules", name)
        if path.is_file():
            out.extend(split_sections(name, path.read_text(encoding="utf-8")))
    return tuple(out)


def search(sections: tuple[Section, ...] | list[Section], query: str) -> list[Section]:
    """The sections that hold every word of ``query`` (case ignored); those with the words
    in their heading first.  An empty query gives the sections' headings in order."""
    words = query.lower().split()
    if not words:
        return list(sections)
    hits = [s for s in sections if all(w in (s.heading + " " + s.text).lower() for w in words)]
    return sorted(hits, key=lambda s: not all(w in s.heading.lower() for w in words))


def plain(text: str) -> str:
    """Markdown made readable as plain text in a panel (emphasis and code marks dropped)."""
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text, flags=re.DOTALL)
    text = re.sub(r"(?<!\w)\*(.+?)\*(?!\w)", r"\1", text)
    return text.replace("`", "")


def sequence_of_play(side: str, phase: str) -> list[tuple[str, bool]]:
    """The turn's steps in order (campaign.md §7.2), each with whether it is the one now."""
    steps = [("Historical events (both sides)", phase == "events")]
    for s in SIDES:
        for p in SIDE_PHASES:
            steps.append((f"{side_title(s)}: {p.replace('_', ' ').title()}", s == side and p == phase))
    return steps
