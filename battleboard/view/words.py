"""The battleboard in words: unit and side names, the log, the header's losses, the odds of
each attack mode, the legend.  Pure text from the model (no drawing), so the window and its
tests read the same sentences.  Odds come from the real resolver (``battleboard.odds``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from battleboard.model import Action, State, Unit
from battleboard.odds import summary
from battleboard.queries import active_ground, fleets_held, land_lost, sp_lost
from bellum.events import Event
from bellum.report import name_sides

#: a unit kind's type symbol on its counter (the legend spells them out)
KIND_TAGS = {
    "legion": "Lg",
    "heavy_infantry": "HI",
    "auxiliary": "Ax",
    "cavalry": "Cv",
    "heavy_cavalry": "HC",
    "light_cavalry": "LC",
    "phalanx": "Ph",
    "mob": "Mb",
    "elephant": "El",
    "chariot": "Ch",
    "civis": "Cs",
    "impeditus": "Im",
    "fleet": "Fl",
}
DISCIPLINE_NAMES = {"I": "Imperator", "V": "Veteran", "R": "Recruit", "M": "Mob", "B": "Barbarian"}
MODE_NAMES = {
    "phalanx": "Phalanx",
    "fire": "Fire",
    "wedge": "Wedge",
    "quincunx": "Quincunx",
    "testudo": "Testudo",
    "chariot": "Chariot",
    "elephant": "Elephant",
    "ram": "Ram",
}
PHASES = {
    "allocate": "secret allocation to the fleets",
    "deploy": "set-up",
    "command": "command phase",
    "move": "movement phase",
    "combat": "combat phase",
}
#: the state marks in a counter's lower right corner
STATE_MARKS = {"failed": "F", "attacked": "a", "moved": "m"}

LEGEND = (
    "Counter: morale badge top left (I Imperator, V Veteran, R Recruit, M Mob, B Barbarian); "
    "yellow corner top right: a leader is with the unit; name; type and strength (Lg 5 = legion, 5 SP).",
    "State: pale counter = disrupted (hit again, it is lost); F failed its command check; m moved; "
    "a attacked. Fleets: one chip per passenger (grey: disrupted), the gold one (first) fights.",
    "Types: Lg legion, HI heavy infantry, Ph phalanx, Ax auxiliaries, Mb mob, Cs citizens, Cv cavalry, "
    "HC heavy cavalry, LC light cavalry, El elephants, Ch chariots, Im baggage, Fl fleet.",
)


def kind_words(kind: str) -> str:
    return {"impeditus": "baggage", "civis": "citizens", "auxiliary": "auxiliaries"}.get(kind, kind.replace("_", " "))


MINOR_WORDS = frozenset({"and", "of", "the", "de", "from", "with"})


def short_name(name: str, limit: int = 10) -> str:
    """A counter's name abbreviated by rule to ``limit`` characters: the whole name; else,
    when it ends in a short word such as a numeral, its first and last words ("Spanish
    legion III" → "Spanish III"); else its first words if two or more fit ("Legio X
    Equestris" → "Legio X"); else the first word cut to three letters and a full stop before
    a short rest ("Legio VIII" → "Leg. VIII"); else the first word ("Archers and slingers" →
    "Archers"); else cut with a full stop."""
    if len(name) <= limit:
        return name
    parts = name.split()
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
    if len(parts) > 1 and len(parts[0]) > 4 and len(parts[-1]) <= 4:
        abbr = f"{parts[0][:3]}. {parts[-1]}"
        if len(abbr) <= limit:
            return abbr
    return kept[0] if kept else name[: max(1, limit - 1)] + "."


@dataclass(frozen=True)
class Words:
    """Names for a battle's pieces and sides (a unit without a name is called by its id)."""

    names: Mapping[str, str]  # unit and leader ids -> names
    sides: Mapping[str, str]  # "A"/"B" -> the side's name

    @classmethod
    def of(cls, s: State, sides: Mapping[str, str]) -> Words:
        names = {u.id: u.name or u.id for u in s.units.values()}
        names.update({ld.id: ld.name or ld.id for ld in s.leaders.values()})
        return cls(names, dict(sides))

    @cached_property
    def _pattern(self) -> re.Pattern[str]:
        """Every id that has a name, as a whole word, longest first; never a lone letter that
        the rules' sentences use for a side or a combat result (A, B, F, L)."""
        ids = sorted(
            (k for k, v in self.names.items() if v != k and k not in {"A", "B", "F", "L"}), key=len, reverse=True
        )
        return re.compile(rf"(?<![\w'])(?:{'|'.join(map(re.escape, ids))})(?![\w'])" if ids else r"(?!x)x")

    def name(self, uid: str) -> str:
        return self.names.get(uid, uid)

    def side(self, side: str) -> str:
        return self.sides.get(side, f"side {side}")

    def event(self, e: Event) -> str:
        """One event as a log line: units, leaders and sides by name."""
        d = e.data
        if e.kind == "attack":
            what = {"ram": "rams", "fire": "fires at"}.get(str(d.get("mode")), "")
            if not what:
                what = "boards" if "boards" in e.text else f"attacks ({d.get('mode')})"
            results = " ".join(str(r) for r in d.get("results", ())) or "no roll"
            text = f"{self.name(str(d['unit']))} {what} {self.name(str(d['target']))}: {results}"
        elif e.kind == "allocate" and d.get("side") is not None:
            text = f"{self.side(str(d['side']))}: allocated in secret."
        elif e.kind == "turn":
            text = f"Turn {d.get('turn')}: {self.side(str(d.get('side')))} to play."
        else:
            text = name_sides(self._pattern.sub(lambda m: self.names[m.group(0)], e.text), self.sides)
        return text[:1].upper() + text[1:]

    def losses(self, s: State) -> list[str]:
        """Per side what it has LOST so far (for panic and victory), and how near it is to panic."""
        panic = s.cfg.tables.battle.panic
        out = []
        for side in ("A", "B"):
            lost = sp_lost(s, side)  # what the other side scores (§11.2)
            line = f"{self.side(side)} lost {lost} SP"
            if s.naval and s.phase not in ("allocate", "deploy", "over"):  # (no fleet is at sea before the set-up)
                orig = s.original_fleets.get(side, 0)
                num, den = panic.naval_fraction
                line += f"; holds {fleets_held(s, side)} of {orig} fleets, panics when down to {orig * num // den}"
            elif not s.naval:
                orig = s.original_sp.get(side, 0)
                line += f" of {orig}"
                at = -(-orig * panic.land_percent // 100)
                if s.phase != "over" and side not in s.panicked:
                    line += f"; panics when {at} are lost"
                    if land_lost(s, side) != lost:  # fugitives who will return count for panic only
                        line += f" ({land_lost(s, side)} with the fugitives)"
            if side in s.panicked:
                line += " — PANICKED"
            out.append(line)
        return out

    def superiority(self, s: State) -> str:
        """Who holds tactical superiority and where its double move stands (§4.3, §5.5)."""
        who = self.side(s.superior)
        if s.double_now:
            return f"Tactical superiority: {who} — DOUBLE MOVE this player turn (twice the movement)"
        if s.double_used:
            return f"Tactical superiority: {who} — moved first; its double move is spent"
        return f"Tactical superiority: {who} — moved first; one double move left (from turn 2)"

    def unit_line(self, s: State, u: Unit) -> str:
        """The selected unit in words."""
        what = (
            f"{self.name(u.id)} ({self.side(u.side)}): {kind_words(u.kind)}, "
            f"{DISCIPLINE_NAMES.get(u.discipline, u.discipline)}, {u.strength} SP"
        )
        if u.kind == "fleet":
            units = [s.units[p] for p in passengers(s, u)]
            aboard = [f"{self.name(p.id)} ({kind_words(p.kind)} {p.strength} SP)" for p in units]
            what += "; carrying " + (", ".join(aboard) or "nobody") + (" — the first fights" if len(aboard) > 1 else "")
        if u.captured:
            what += f"; captured from {self.side(u.owner)}"
        marks = [w for w, on in (("disrupted", u.flipped), ("failed its command check", u.failed)) if on]
        marks += [w for w, on in (("has moved", u.moved), ("has attacked", u.attacked), ("inspired", u.inspired)) if on]
        return what + "".join(f"; {m}" for m in marks)

    def option(self, s: State, a: Action) -> str:
        """An attack mode and its exact odds from the real resolver (``battleboard.odds.summary``)."""
        o = summary(s, a)
        pct = {k: f"{v:.0%}" for k, v in o.items()}
        mode = MODE_NAMES.get(a.mode, a.mode)
        if s.naval and a.mode == "ram":
            return (
                f"Ram: disrupt the ship {pct['target_flipped']} · sink it {pct['target_eliminated']}"
                f" · rammer hurt {pct['attacker_hurt']}"
            )
        if s.naval and a.mode == "fire":
            g = s.units[attack_defender(s, a)]
            return (
                f"Missile fire on {self.name(g.id)}: disrupt {pct['target_flipped']} · kill {pct['target_eliminated']}"
                f" · ship hurt {pct['attacker_hurt']}"
            )
        if s.naval:
            verb = "capture" if a.capture else "sink"
            return (
                f"Board ({mode}) to {verb}: {verb} the ship {pct['last_destroyed']}"
                f" · {self.name(attack_defender(s, a))} lost {pct['target_eliminated']}"
                f" · boarders hurt {pct['attacker_hurt']}"
            )
        return (
            f"{mode}: disrupt {pct['target_flipped']} · eliminate {pct['target_eliminated']}"
            f" · attacker hurt {pct['attacker_hurt']}"
        )


def attack_defender(s: State, a: Action) -> str:
    """The first unit to defend against ``a`` (the ship rammed; the active passenger fired on or boarded)."""
    from battleboard.odds import attack_odds

    return attack_odds(s, a)[0][1]


def passengers(s: State, fleet: Unit) -> list[str]:
    """A fleet's passengers, the active ground unit first (004 Passengers)."""
    g = active_ground(s, fleet)
    first = [g.id] if g is not None else []
    return first + [p for p in fleet.cargo if p not in first]
