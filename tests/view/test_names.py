"""bellum.view.names: the one rule that shortens names (tactical tokens, battleboard counters)."""

from __future__ import annotations

from types import SimpleNamespace

from bellum.view.names import abbreviate, cut, distinct_tokens, short_name


def test_the_scribes_cut() -> None:
    assert [cut(w) for w in ("Antonius", "Caesar", "Pompeius", "Alexander", "Atilius")] == [
        "Ant.",
        "Caes.",
        "Pomp.",
        "Alex.",
        "Atil.",
    ]
    assert cut("Afranius", 7) == "Afran." and cut("Aegyptus", 7) == "Aegypt."  # more room: a later syllable
    assert cut("Antonius", extra=1) == "Anto." and cut("Bogud", extra=9) == "Bogud"


def test_tokens() -> None:
    assert abbreviate("curio") == "Curio" and abbreviate("Antonius") == "Ant."
    assert abbreviate("legate-right") == "Leg.R" and abbreviate("tribune-B1") == "Trib.B1"
    leaders = {"Philip": SimpleNamespace(side="A"), "Philotas": SimpleNamespace(side="A")}
    assert distinct_tokens(leaders) == {"Philip": "Phili.", "Philotas": "Philo."}


def test_counter_names_keep_words() -> None:
    assert short_name("Legio X", 10) == "Legio X"
    assert short_name("Spanish legion III", 12) == "Spanish III"
    assert short_name("Legio X Equestris", 12) == "Legio X"
    assert short_name("Legio VIII", 9) == "Leg. VIII"
    assert short_name("Archers and slingers", 10) == "Archers"
    assert short_name("Agrigentum", 7) == "Agrig." and short_name("Agrigentum", 2) == "A."
    for name in ("Afranius' first legion", "Cataphractarii", "Aethiopia (Upper Egypt)"):
        assert all(len(short_name(name, n)) <= max(n, 2) for n in range(2, 14)), name
