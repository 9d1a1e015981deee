"""bellum.view.rulestext: the one reader of the rules documents for every help panel."""

from __future__ import annotations

from bellum.view import rulestext

DOC = """Intro line.

## 1. Terms

Some *words* and **bold** and `code`; 2 * 3 stays.

## 2. Play

### 2.1 First

- one item
  continued
- two

| a | b |
|---|---|
| 1 | 2 |

```
## not a heading
```

## 3. Combat
3.1 Modes: a paragraph
on two lines.
3.2 Odds: another.
"""


def test_split_at_headings_keeps_fenced_headings_as_text() -> None:
    secs = rulestext.split("x.md", DOC)
    assert [s.number for s in secs] == ["", "1", "2", "2.1", "3"]
    assert secs[0].title == "Introduction" and secs[3].heading == "2.1 First"
    assert "## not a heading" in secs[3].text
    assert secs[2].text == "" and secs[4].cite() == "x.md §3"


def test_plain_paragraphs_lists_tables_and_marks() -> None:
    secs = rulestext.split("x.md", DOC)
    assert rulestext.plain(secs[1].text) == ["Some words and bold and code; 2 * 3 stays."]
    assert rulestext.plain(secs[3].text) == [
        "- one item continued",
        "- two",
        "a · b",
        "1 · 2",
        "## not a heading",
    ]
    assert rulestext.plain(secs[4].text) == ["3.1 Modes: a paragraph on two lines.", "3.2 Odds: another."]


def test_sections_of_the_shipped_documents() -> None:
    shock = rulestext.section("tactical.md", "8.2")
    assert shock is not None and shock.title.startswith("Shock")
    assert [s.number for s in rulestext.chapter("tactical.md", "2")][:3] == ["2", "2.1", "2.2"]
    capture = rulestext.section("battleboard.md", "13.8")  # a numbered paragraph, not a heading
    assert capture is not None and capture.title == "" and capture.text.startswith("13.8 **Capture**")
    assert rulestext.section("battleboard.md", "99.9") is None
    assert rulestext.sections("no-such-document.md") == ()
