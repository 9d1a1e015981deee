"""After-action reports: what a battle was, how it went and what it cost, in words.

A report is built from the engagement contract (``bellum.engagement``): the
``Engagement`` the campaign handed over and the ``Outcome`` that came back, whichever
engine settled it (auto-resolve, the battleboard, the tactical engine).  The engine may
add the battle's turning points (``moments``: lines of its own event log) and the odds
shown before the battle.  Pure: no I/O; callers write or show the text.

Two renderings: ``summary()`` — a dozen lines for a window's dialog — and
``markdown()`` — the full report with every unit's fate, for files and the log.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from bellum.engagement import KILLED, SIDES, STANDING, Engagement, Outcome, Side

#: how a fate reads in a report's table
FATE_WORDS = {
    "survived": "survived",
    "eliminated": "destroyed",
    "sunk": "sunk",
    "drowned": "drowned",
    "captured": "captured",
    "fled_lost": "scattered in flight",
    "fled_returned": "fled and rallied",
    "broken_through": "broke through",
    "reconstituted": "rebuilt after the battle",
}
LEADER_WORDS = {
    "survived": "came through",
    "killed": "fell",
    "captured": "was taken",
    "drowned": "drowned",
    "executed": "was cut down",
    "escaped": "escaped",
}
TERRAIN_WORDS = {
    "field": "on open ground",
    "city": "under a city's walls",
    "hills": "in hilly country",
    "pass": "in a pass",
    "river": "across a river",
    "coast": "on the coast",
    "sea": "at sea",
}
TRIGGER_WORDS = {
    "battle": "a battle in the field",
    "storm": "the storm of a walled city",
    "mutual": "a battle at sea both sides sought",
    "supply": "a convoy battle for sea supply",
    "interception": "an interception at sea",
}


@dataclass(frozen=True)
class AfterAction:
    """One battle's report (see the module docstring)."""

    engagement: Engagement
    outcome: Outcome
    #: what each side is called, by side or faction ("caesarian" → "the Caesarians"), as it
    #: reads inside a sentence; default: the faction's name
    names: Mapping[str, str] = field(default_factory=dict)
    #: how the battle was settled: "auto-resolved", "the battleboard", "the tactical engine"
    fought: str = ""
    #: the place's name (default: the engagement's space id)
    place: str = ""
    #: the odds shown before the battle: outcome → probability
    odds: Mapping[str, float] = field(default_factory=dict)
    #: the turning points, from the battle engine's own log; unit and leader ids and "side A"
    #: in them read as names
    moments: tuple[str, ...] = ()
    #: the report's title when the battle has one of its own (a stand-alone scenario)
    heading: str = ""

    # -- who and what ---------------------------------------------------------
    def side_name(self, side: Side) -> str:
        faction = self.engagement.sides[side].faction
        return self.names.get(side) or self.names.get(faction) or faction.replace("_", " ").title()

    def _sides_named(self, text: str) -> str:
        return name_sides(text, {"A": self.side_name("A"), "B": self.side_name("B")})

    def title(self) -> str:
        if self.heading:
            return self.heading
        where = self.place or self.engagement.where.replace("_", " ").title()
        kind = "Battle off" if self.engagement.kind == "naval" else "Battle of"
        if self.engagement.trigger == "storm":
            kind = "Storm of"
        return f"{kind} {where}" + (f", {self.engagement.turn}" if self.engagement.turn else "")

    def verdict(self) -> str:
        out = self.outcome
        turns = f"{out.turns} turn{'s' if out.turns != 1 else ''}"
        reason = self._sides_named(out.reason)
        if out.winner is None:
            return f"Drawn after {turns}: {reason}."
        loser: Side = "B" if out.winner == "A" else "A"
        who = self.side_name(out.winner)
        verb = "defeat" if plural_name(who) else "defeats"
        return _cap(f"{who} {verb} {self.side_name(loser)} in {turns}: {reason}.")

    def named_moments(self) -> list[str]:
        """The turning points with ids read as names ("P1 is eliminated" → "Legio I is
        eliminated") and sides as the sides' names, each a sentence."""
        names = {u.id: u.name for u in self.engagement.units if u.name}
        names.update({ld.id: ld.name for ld in self.engagement.leaders if ld.name})
        named = namer(names)
        return [_sentence(named(self._sides_named(m))) for m in self.moments]

    def engaged(self, side: Side) -> int:
        return sum(u.strength for u in self.engagement.units if u.side == side)

    def fates(self, side: Side) -> dict[str, int]:
        """SP of ``side`` by what became of them (killed, captured, scattered, survived…)."""
        strength = {u.id: u.strength for u in self.engagement.units}
        out: dict[str, int] = {}
        for f in self.outcome.units:
            if f.side != side:
                continue
            if f.fate in STANDING:
                out["standing"] = out.get("standing", 0) + f.strength
                worn = strength.get(f.id, f.strength) - f.strength
                if worn > 0:
                    out["worn"] = out.get("worn", 0) + worn
            else:
                key = "killed" if f.fate in (*KILLED, "sunk") else f.fate
                out[key] = out.get(key, 0) + strength.get(f.id, f.strength)
        return out

    def consequences(self) -> list[str]:
        out, eng = self.outcome, self.engagement
        lines = []
        if out.winner is not None and out.loser_retreats:
            loser: Side = "B" if out.winner == "A" else "A"
            lines.append(_cap(f"{self.side_name(loser)} must leave the field."))
        if out.supply_passes is not None:
            lines.append("The convoy gets through." if out.supply_passes else "The sea supply is cut.")
        if out.movement_continues is not None:
            lines.append("The voyage goes on." if out.movement_continues else "The voyage is stopped.")
        if out.city_taken is not None:
            lines.append("The city falls." if out.city_taken else "The walls hold.")
        names = {u.id: u.name or u.id for u in eng.units}
        for c in out.captured_fleets:
            took = self.side_name(c.to_side)
            what = "man it" if c.converted else "burn it for want of crews"
            lines.append(_cap(f"{took} take {names.get(c.id, c.id)} and {what}."))
        if out.promotions:
            ups = [f"{names.get(p.id, p.id)} ({p.before} → {p.after})" for p in out.promotions]
            lines.append(f"Promoted: {', '.join(ups)}.")
        if out.fratricide:
            lines.append(f"Fratricide: {out.fratricide} points (Roman heavy infantry killed).")
        return lines

    def _side_line(self, side: Side) -> str:
        f = self.fates(side)
        parts = []
        for key, word in (
            ("killed", "killed"),
            ("captured", "captured"),
            ("fled_lost", "scattered"),
            ("worn", "worn away"),
        ):
            if f.get(key):
                parts.append(f"{f[key]} {word}")
        lost = self.outcome.strength_lost.get(side, 0)
        detail = f" ({', '.join(parts)})" if parts else ""
        return _cap(f"{self.side_name(side)}: {self.engaged(side)} SP engaged, {lost} lost{detail}.")

    def _leader_lines(self) -> list[str]:
        """The leaders who did not come through, a line per fate: "Pompeius and Lentulus were
        taken." (those who came through or escaped are in the full report)."""
        fates = {lf.id: lf.fate for lf in self.outcome.leaders}
        by_fate: dict[str, list[str]] = {}
        for ld in self.engagement.leaders:
            fate = fates.get(ld.id, "survived")
            if fate not in ("survived", "escaped"):
                by_fate.setdefault(fate, []).append(ld.name or ld.id)
        lines = []
        for what, who in by_fate.items():
            verb = LEADER_WORDS[what]
            if len(who) > 1:
                verb = verb.replace("was ", "were ")
            lines.append(f"{_and(who)} {verb}.")
        return lines

    # -- renderings -----------------------------------------------------------
    def summary(self, moments: int = 3) -> list[str]:
        """The report in a dozen short lines, for a dialog."""
        lines = [self.verdict()]
        lines += [self._side_line(s) for s in SIDES]
        lines += self._leader_lines()
        lines += self.consequences()
        if self.odds:
            lines.append("Odds beforehand: " + _odds_text(self.odds) + ".")
        lines += self.named_moments()[-moments:] if moments else []
        return lines

    def markdown(self) -> str:
        """The full report: the setting, both sides unit by unit, the leaders, the
        turning points and what follows."""
        eng, out = self.engagement, self.outcome
        md = [f"# {self.title()}", ""]
        ground = TERRAIN_WORDS.get(eng.terrain, f"on {eng.terrain} ground")
        setting = f"{_cap(TRIGGER_WORDS.get(eng.trigger, eng.trigger))} {ground}"
        if self.fought:
            setting += f", settled by {self.fought}"
        sup = eng.tactical_superiority()
        md += [setting + f"; {self.side_name(sup)} held the tactical superiority.", ""]
        md += ["**" + self.verdict() + "**", ""]
        if self.odds:
            md += [f"Odds shown before the battle: {_odds_text(self.odds)}.", ""]
        fates = {f.id: f for f in out.units}
        for side in SIDES:
            md += [f"## {_cap(self.side_name(side))}", ""]
            leaders = [ld for ld in eng.leaders if ld.side == side]
            if leaders:
                lf = {x.id: x.fate for x in out.leaders}
                md.append(
                    "Leaders: "
                    + ", ".join(
                        f"{ld.name or ld.id} (rating {ld.rating}{', Supreme Leader' if ld.supreme else ''}"
                        + ("" if lf.get(ld.id, "survived") == "survived" else f"; {LEADER_WORDS[lf[ld.id]]}")
                        + ")"
                        for ld in leaders
                    )
                    + "."
                )
                md.append("")
            md += ["| unit | kind | discipline | SP | fate | SP after |", "|---|---|---|---|---|---|"]
            for u in (u for u in eng.units if u.side == side):
                f = fates.get(u.id)
                fate = FATE_WORDS.get(f.fate, f.fate) if f else "unknown"
                after = f.strength if f and f.fate in STANDING else 0
                disc = u.discipline if not f or f.discipline == u.discipline else f"{u.discipline} → {f.discipline}"
                kind = u.kind.replace("_", " ")
                md.append(f"| {u.name or u.id} | {kind} | {disc} | {u.strength} | {fate} | {after} |")
            md += ["", self._side_line(side), ""]
        if self.moments:
            md += ["## How it went", ""] + [f"- {m}" for m in self.named_moments()] + [""]
        follows = self.consequences()
        if follows:
            md += ["## What follows", ""] + [f"- {c}" for c in follows] + [""]
        return "\n".join(md)


def namer(names: Mapping[str, str]) -> Callable[[str], str]:
    """A function that reads every whole-word id of ``names`` in a text as its name
    ("P1 is eliminated" → "Legio I is eliminated"; ids may hold hyphens)."""
    if not names:
        return lambda text: text
    ids = re.compile(
        r"(?<![\w-])(" + "|".join(re.escape(i) for i in sorted(names, key=len, reverse=True)) + r")(?![\w-])"
    )
    return lambda text: ids.sub(lambda m: names[m.group(1)], text)


_IRREGULAR = {"has": "have", "is": "are", "was": "were"}


def name_sides(text: str, names: Mapping[str, str]) -> str:
    """An engine's "side A" in ``text`` read as the side's name, the verbs after it agreeing
    with a plural name ("side B breaks and flees" → "the Pompeians break and flee",
    "side B has" → "… have")."""

    def plural(word: str) -> str:
        return _IRREGULAR.get(word, word[:-1] if word.endswith("s") and not word.endswith("ss") else word)

    def name(m: re.Match[str]) -> str:
        who = names.get(m.group(1), f"side {m.group(1)}")
        verbs = m.group(2) or ""
        if verbs and plural_name(who):
            verbs = re.sub(r"[a-z]+", lambda w: w.group(0) if w.group(0) == "and" else plural(w.group(0)), verbs)
        return who + verbs

    return re.sub(r"\bside ([AB])((?: [a-z]+)(?: and [a-z]+)?)?\b", name, text)


def plural_name(name: str) -> bool:
    """ "the Caesarians", "Pompeians" read as plural; "Pompeius", "side A" do not."""
    return name.endswith("s") and not name.endswith(("us", "ss", "is")) and not name.startswith("side ")


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _sentence(text: str) -> str:
    text = _cap(text.strip())
    return text if text.endswith((".", "!", "?")) else text + "."


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _odds_text(odds: Mapping[str, float]) -> str:
    return ", ".join(f"{k} {round(100 * v)}%" for k, v in sorted(odds.items(), key=lambda kv: -kv[1]))


def without_references(text: str) -> str:
    """An engine's log line as a sentence without its closing parenthesis of rule references
    or causes ("italian-5 is eliminated (it fails to rally (003 §10.27))." → "italian-5 is
    eliminated.", "side B panics (§10.1)" → "side B panics.")."""
    text = text.strip().rstrip(".")
    while text.endswith(")"):
        depth = 0
        for i in range(len(text) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(text[i], 0)
            if depth == 0:
                text = text[:i].rstrip()
                break
        else:
            break
    return text + "."


def from_data(data: Mapping[str, object], **kw: object) -> AfterAction:
    """A report from the ``{"engagement": …, "outcome": …}`` dumps a campaign's battle event
    carries (a saved game drops ``None`` values: a missing winner is a draw)."""
    eng = Engagement.model_validate(data["engagement"])
    raw = data["outcome"]
    if not isinstance(raw, Mapping):
        raise ValueError("a battle report's outcome must be a table")
    out = Outcome.model_validate({"winner": None, **raw})
    return AfterAction(eng, out, **kw)  # type: ignore[arg-type]
