"""Names shortened by one rule, for every window that has less room than a name needs (the
tactical leaders' tokens, the battleboard's counters).  Never a blind cut: the full name is
always in the hover card or the info panel.

The rule, for a name and the room it has (letters):

1. a name that fits is written whole (Curio, Mago, "Legio X");
2. a name of several words keeps its words, not its letters: when it ends in a short word
   (a numeral), its first and last words ("Spanish legion III" → "Spanish III"); else its
   first words when two or more fit ("Legio X Equestris" → "Legio X"), never ending on a minor
   word ("and", "of"…); else the first word cut (rule 3) before a short last word ("Legio
   VIII" → "Leg. VIII"); else the first word alone ("Archers and slingers" → "Archers");
3. a single word is cut the Roman scribes' way (:func:`cut`): after the consonants that
   follow its first vowel group, or the next group's when that leaves fewer than three letters,
   and never more than five letters before the stop (Ant., Caes., Pomp., Alex., Atil.); with
   more room, at the last syllable's end that fits (Afran., Aegypt.);
4. each later part of a hyphenated identifier adds its first letter and its digits after the
   stop (legate-right: Leg.R, tribune-B1: Trib.B1, foot-commander: Foot.C);
5. names that would read the same on one side each take a letter more until they differ
   (Philip, Philotas: Phili., Philo.) — :func:`distinct_tokens`.

Tokens (:func:`abbreviate`) have five letters of room; counters (:func:`short_name`) as many as
fit.  Only when rule 3's cut is still too long is a word cut at the room's last letter.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_VOWELS = frozenset("aeiouyAEIOUY")
#: the words a shortened name never ends on
MINOR_WORDS = frozenset({"and", "of", "the", "de", "from", "with"})


def _syllable_ends(word: str) -> list[int]:
    """Where the word may be cut: after each vowel group's closing consonants (not its end)."""
    ends, i, n = [], 0, len(word)
    while i < n:
        while i < n and word[i] not in _VOWELS:  # consonants before the vowels
            i += 1
        while i < n and word[i] in _VOWELS:  # the vowel group
            i += 1
        while i < n and word[i] not in _VOWELS:  # the consonants that close it
            i += 1
        if i < n:
            ends.append(i)
    return ends


def cut(word: str, room: int = 5, extra: int = 0) -> str:
    """``word`` cut by rule 3 in ``room`` letters with its stop: the first cut that leaves
    three letters or more (four when that is over five), or a longer cut at a syllable's end
    when one fits ``room``; ``extra`` letters longer (rule 5); whole when nothing is cut."""
    ends = _syllable_ends(word)
    first = next((e for e in ends if e >= 3), len(word))
    if first < len(word) and first > 5:  # never more than five letters before the stop
        first = 4
    i = max([first, *(e for e in ends if first <= e < room)]) + extra
    return word if i >= len(word) else word[:i] + "."


def _capital(word: str) -> str:
    return word[:1].upper() + word[1:]


def abbreviate(name: str, room: int = 5, extra: int = 0) -> str:
    """A one-word or hyphenated name (a leader's id) as a token writes it: whole when it fits
    ``room`` (rule 1), else by rules 3 and 4, capitalised; ``extra`` letters more (rule 5)."""
    words = [w for w in name.split("-") if w]
    if not words:
        return name
    if len(words) == 1 and len(name) <= room and not extra:
        return _capital(name)
    head = _capital(cut(words[0], room, extra))
    if len(words) > 1 and not head.endswith("."):
        head += "."
    return head + "".join(w[:1].upper() + "".join(c for c in w[1:] if c.isdigit()) for w in words[1:])


def distinct_tokens(leaders: Mapping[str, Any]) -> dict[str, str]:
    """Every leader's token name (``abbreviate`` of his id), distinct within each side (rule
    5); ``leaders`` maps ids to anything with a ``side``."""
    out: dict[str, str] = {}
    for side in sorted({ld.side for ld in leaders.values()}):
        ids = sorted(lid for lid, ld in leaders.items() if ld.side == side)
        extra = dict.fromkeys(ids, 0)
        for _ in range(8):
            names = {lid: abbreviate(lid, extra=extra[lid]) for lid in ids}
            seen: dict[str, list[str]] = {}
            for lid, n in names.items():
                seen.setdefault(n, []).append(lid)
            clashes = [lid for group in seen.values() if len(group) > 1 for lid in group]
            if not clashes:
                break
            for lid in clashes:
                extra[lid] += 1
        out.update(names)
    return out


def _word(word: str, limit: int) -> str:
    """One word in ``limit`` letters: rule 3's cut, else cut at the room's last letter."""
    token = cut(word, limit)
    return token if len(token) <= limit else word[: max(1, limit - 1)] + "."


def short_name(name: str, limit: int = 10) -> str:
    """A name (a counter's) in ``limit`` letters by rules 1–3 (see the module)."""
    if len(name) <= limit:
        return name
    parts = name.split()
    if len(parts) == 1:
        return _word(name, limit)
    if len(parts) > 2 and len(parts[-1]) <= 4 and len(f"{parts[0]} {parts[-1]}") <= limit:
        return f"{parts[0]} {parts[-1]}"
    kept: list[str] = []
    for word in parts:
        if len(" ".join([*kept, word])) > limit:
            break
        kept.append(word)
    while kept and kept[-1].lower() in MINOR_WORDS:  # never end on "and", "of"…
        kept.pop()
    if len(kept) >= 2:
        return " ".join(kept)
    if len(parts[0]) > 4 and len(parts[-1]) <= 4:
        abbr = f"{cut(parts[0], limit - len(parts[-1]) - 1)} {parts[-1]}"
        if len(abbr) <= limit:
            return abbr
    return kept[0] if kept else _word(parts[0], limit)
