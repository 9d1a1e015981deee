"""The rules documents as text for the help panels of every window (F1).

One reader for docs/rules/*.md (shipped as ``game_data("rules", name)``): a document splits at
its ``##`` and ``###`` headings into :class:`Section` s (a heading's number is its first word:
``## 8. Combat`` is "8", ``### 8.2 Shock`` is "8.2"); a numbered paragraph inside a section
(``13.7 ...`` at the start of a line, as the battleboard rules write them) is found by
:func:`section` too.  :func:`plain` turns Markdown into plain paragraphs a panel can lay out.

Pure text: no arcade here (it lives in bellum.view only because the help panels use it).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from bellum.paths import game_data


@dataclass(frozen=True, slots=True)
class Section:
    """One section of a rules document: its number ('' for an unnumbered one), heading title
    and Markdown text (without the heading line)."""

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
_PARAGRAPH_START = re.compile(r"^(?:\d+\.\d+ |\s*[-*] |\s*\d+\. |\s*\|)")


def split(doc: str, text: str) -> list[Section]:
    """A rules document's text split at its ``##`` and ``###`` headings (the text before the
    first is its "Introduction"); headings inside code fences are text.  A numbered heading
    is a section even with no text of its own (a chapter whose subsections follow at once)."""
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
        if body or number:
            out.append(Section(doc, number, title, body))
        number, title, lines = m.group(2) or "", m.group(3).strip(), []
    body = "\n".join(lines).strip()
    if body or number:
        out.append(Section(doc, number, title, body))
    return out


@functools.cache
def sections(doc: str) -> tuple[Section, ...]:
    """Every section of rules document ``doc`` ("tactical.md"), read through ``game_data``;
    none when the document is not shipped."""
    path = game_data("rules", doc)
    if not path.is_file():
        return ()
    return tuple(split(doc, path.read_text(encoding="utf-8")))


def section(doc: str, number: str) -> Section | None:
    """Section ``number`` of ``doc``: a heading with that number, else a numbered paragraph
    (``13.7 ...`` at a line's start, up to the next numbered paragraph) as an untitled
    section; None when there is neither."""
    found = sections(doc)
    for sec in found:
        if sec.number == number:
            return sec
    start = re.compile(rf"^{re.escape(number)} .*?(?=^\d+\.\d+ |\Z)", re.M | re.S)
    for sec in found:
        m = start.search(sec.text)
        if m is not None:
            return Section(doc, number, "", m.group(0).strip())
    return None


def chapter(doc: str, number: str) -> list[Section]:
    """Section ``number`` of ``doc`` followed by its subsections ("2", then "2.1", "2.2"…)."""
    return [s for s in sections(doc) if s.number == number or s.number.startswith(number + ".")]


def _inline(text: str) -> str:
    """Emphasis and code marks dropped (a lone ``*``, as in "2 * 3", stays)."""
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text, flags=re.DOTALL)
    text = re.sub(r"(?<!\w)\*(?! )(.+?)(?<! )\*(?!\w)", r"\1", text)
    return text.replace("`", "")


def plain(markdown: str) -> list[str]:
    """Markdown as plain paragraphs: a blank line ends one; a list item, a numbered paragraph
    (``8.2 ...``) and a table row each start one.  A paragraph's lines are joined with spaces,
    a table row's cells with " · " (the table's rule lines are dropped), and emphasis and code
    marks are taken out."""
    out: list[str] = []
    for block in re.split(r"\n\s*\n", markdown.strip()):
        paras: list[list[str]] = []
        for line in block.splitlines():
            if line.strip().startswith("```"):
                continue
            if not paras or _PARAGRAPH_START.match(line) or paras[-1][0].lstrip().startswith("|"):
                paras.append([])
            paras[-1].append(line.strip())
        for lines in paras:
            if lines[0].startswith("|"):
                if set("".join(lines)) <= set("|-: "):
                    continue  # a table's rule line
                text = " · ".join(c.strip() for c in lines[0].strip("|").split("|"))
            else:
                text = " ".join(lines)
            text = _inline(text).strip()
            if text:
                out.append(text)
    return out
