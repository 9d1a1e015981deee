"""The window's words: how actions, odds, Shock Results lines, hexes and the log read in the
panel.  No arcade here — these are plain functions over the model and ``tactical.odds``
(the real resolver over every die face), so the odds a player sees are the rules' own.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from bellum.errors import RuleError
from bellum.odds import exact_distribution
from tactical import odds as tac_odds
from tactical.actions import (
    Action,
    Activate,
    Continuity,
    Decline,
    Designate,
    Fire,
    Move,
    Pass,
    Rally,
    React,
    Replace,
    Resolve,
    Shock,
    Start,
)
from tactical.combat import RESULT_TEXT, plan_shock
from tactical.engine import apply
from tactical.state import State


def pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def describe(action: Action) -> str:
    """The choice list's wording for a non-map action."""
    if isinstance(action, Start):
        return "Begin the battle (who goes first)"
    if isinstance(action, Activate | Continuity):
        who = action.leader or "group " + ",".join(action.group or ())
        return f"{'Activate' if isinstance(action, Activate) else 'Continuity:'} {who}"
    if isinstance(action, Pass):
        return "Pass (end / decline)"
    if isinstance(action, Rally):
        return f"Rally {action.unit}"
    if isinstance(action, Replace):
        return f"Replace {action.leader} at {action.hex}" + (f" by {action.by}" if action.by else "")
    if isinstance(action, Resolve):
        return "Resolve"
    if isinstance(action, Shock):
        return f"Shock {'+'.join(action.attackers)} -> {action.defender}"
    if isinstance(action, Decline):
        return "No reaction (decline)"
    if isinstance(action, React):
        return describe_reaction(action)
    return action.notation()


def describe_reaction(action: React) -> str:
    """A defender's reaction in words (docs/rules/tactical.md §8.13)."""
    r = action.reaction
    if r is not None:
        if r.face is not None:
            return f"{r.unit} turns to face {r.face}"
        path = r.withdraw or ()
        return f"{r.unit} withdraws to {path[-1] if path else '?'}" + (", firing" if r.fire else "")
    if action.rbc:
        return f"Retreat before combat to {action.rbc[-1]}"
    if action.return_fire:
        return "Fire back"
    text = f"Reaction fire at {action.fire}" if action.fire else ""
    if action.reduce_hits:
        text += (" and " if text else "") + "give ground for a hit fewer"
    return text[:1].upper() + text[1:]


def reaction_prompt(state: State) -> list[str]:
    """What the game asks the defending side, in words (docs/rules/tactical.md §8.13)."""
    p = state.reacting
    if p is None:
        return []
    grid = state.field.grid
    if p.kind == "move":
        unit = p.action.carry or p.action.unit
        return [
            f"Side {p.side} may react: {unit} has moved into {grid.hex_id(p.at)}.",
            "A unit it came next to may turn one vertex (roll its TQ or less, else disordered;",
            "cavalry facing infantry need not roll, 003 §7.16); a faster unit or a leader it came",
            "within two hexes of may withdraw (000 §6.5). Choose below, or decline.",
        ]
    if p.kind == "shock":
        return [
            f"Side {p.side} may react: {'+'.join(p.action.attackers)} are about to shock {p.action.defender}.",
            "Fire at one attacker first (003 §8.2), or, cavalry facing foot, retreat two hexes",
            "before combat (003 §8.3). Each choice shows the exact odds of the shock after it.",
        ]
    if p.kind == "rampage":
        return [
            f"Side {p.side} may react: {p.action.elephant} rampages in {grid.hex_id(p.at)}.",
            "A faster unit within two hexes of it may withdraw first (000 §6.51), as from an",
            "enemy's move: away from the elephant, up to the difference in MA. Choose, or decline.",
        ]
    return [f"Side {p.side} may react: {p.action.target} may fire back at {p.action.unit} (003 §9.3)."]


def reaction_odds(state: State, action: React | Decline) -> str:
    """The exact odds of the waiting shock after this choice of the defender, in a few words
    (``tactical.odds.shock_odds`` with the choice: the real resolver over every die face)."""
    p = state.reacting
    if p is None or p.kind != "shock":
        return ""
    shock = p.action
    if isinstance(action, React):
        if action.rbc:
            return "no shock"
        from dataclasses import replace

        shock = replace(shock, reaction_fire=action.fire, reduce_hits=action.reduce_hits)
    try:
        full = tac_odds.shock_odds(state, shock)
    except RuleError as why:
        return str(why)
    lines = [line.strip() for line in _fate_lines(state, full)]
    return "; ".join(lines[:3]) if lines else "no unit harmed"


def describe_variant(action: Action) -> str:
    """One line per option in the odds panel."""
    if isinstance(action, Move):
        return action.notation()
    if isinstance(action, Designate):
        return f"designate {'+'.join(action.attackers)} -> {action.defender}"
    if isinstance(action, Fire):
        return f"fire {action.unit} -> {action.target}" + (
            " (hit and run" + (", return fire)" if action.return_fire else ")") if action.hit_and_run else ""
        )
    if isinstance(action, Shock):
        extra = []
        if action.weapon:
            extra.append(f"weapon {action.weapon}")
        if action.defender_weapon:
            extra.append(f"defender's weapon {action.defender_weapon}")
        if action.reaction_fire:
            extra.append(f"reaction fire by {action.reaction_fire}")
        if action.retreat_before_combat:
            extra.append("retreat before combat to " + ",".join(action.retreat_before_combat))
        if action.pursue:
            extra.append("pursue")
        if action.advance:
            extra.append("advance")
        if action.reduce_hits:
            extra.append("retreat to reduce hits")
        return f"shock {'+'.join(action.attackers)} -> {action.defender}" + (f" ({', '.join(extra)})" if extra else "")
    return action.notation()


def target_of(action: Action) -> str | None:
    if isinstance(action, Designate | Shock):
        return action.defender
    if isinstance(action, Fire):
        return action.target
    return None


def actors_of(action: Action) -> tuple[str, ...]:
    if isinstance(action, Designate | Shock):
        return action.attackers
    if isinstance(action, Fire):
        return (action.unit,)
    return ()


def continuity_odds(state: State, action: Continuity) -> Fraction:
    """The exact chance that a Continuity designation succeeds (the side keeps the move), by
    running the real rule over every die face (``bellum.odds.exact_distribution``)."""
    side = state.seq.side

    def run(dice: Any) -> bool:
        after, _ = apply(state, action, dice)
        return after.seq.side == side and after.seq.phase == "move"

    try:
        return exact_distribution(run).get(True, Fraction(0))
    except RuleError:
        return Fraction(0)


def odds_lines(state: State, action: Action) -> tuple[list[str], dict[Any, Fraction] | None]:
    """The odds panel's text for one fire, designation or shock, by the real resolver
    (``tactical.odds``), and the distribution shown: shock results, or hits for fire."""
    lines: list[str] = []
    try:
        if isinstance(action, Designate | Shock):
            shock = action.as_shock() if isinstance(action, Designate) else action
            full = tac_odds.shock_odds(state, shock)
            marginal = tac_odds.result_marginal(full)
            designated = any(d == shock.defender and set(a) == set(shock.attackers) for a, d in state.designations)
            plan = plan_shock(state, shock, designated=designated)
            if isinstance(action, Designate):
                lines.append("As the position stands now (the roll comes after Resolve):")
            drms = ", ".join(f"{k} {v:+d}" for k, v in plan.drms.items() if v)
            lines.append(f"DRM total {plan.total:+d}" + (f": {drms}" if drms else ""))
            for result, p in sorted(marginal.items(), key=lambda kv: (-kv[1], str(kv[0]))):
                lines.append(f"  {result_words(plan, result)}: {pct(p)}")
            lines.extend(_fate_lines(state, full))
            return lines, marginal
        if isinstance(action, Fire):
            full = tac_odds.fire_odds(state, action)
            hits: dict[str, Fraction] = {}
            before = state.units[action.target].missile_hits
            for outcome, p in full.items():
                after = dict(outcome[2]).get(action.target, before)
                label = "miss" if after == before else f"{after - before} hit{'s' if after - before > 1 else ''}"
                hits[label] = hits.get(label, Fraction(0)) + p
            for label, p in sorted(hits.items(), key=lambda kv: -kv[1]):
                lines.append(f"  {label}: {pct(p)}")
            lines.extend(_fate_lines(state, full))
            return lines, hits
    except RuleError as why:
        return [str(why)], None
    return [action.notation()], None


def hex_words(state: State, h: int, names: bool = True) -> str:
    """The hex under the mouse in words: id, terrain, elevation, hexside features, who is there
    (without ``names``: the hover card names them)."""
    from tactical.tables import TERRAINS

    field = state.field
    grid = field.grid
    parts = [grid.hex_id(h), TERRAINS[field.terrain[h]]]
    if field.level[h]:
        parts.append(f"level {field.level[h]}")
    sides = sorted({feat.replace("_", " ") for (a, b), feat in field.hexsides.items() if h in (a, b)})
    parts += sides
    if any(h in edge for edge in field.roads) or any(h in edge for edge in field.roman_roads):
        parts.append("road")
    here = [u.id for u in state.units_at(h)] + [ld.id for ld in state.leaders_at(h)] if names else []
    return " · ".join(parts) + (f"   ({', '.join(here)})" if here else "")


def log_tail(texts: list[str], lines: int, width: int) -> list[str]:
    """The newest events that fit in ``lines`` wrapped lines of ``width`` characters (oldest
    first); an event too long for what is left is cut with an ellipsis."""
    out: list[str] = []
    left = lines
    for text in reversed(texts):
        need = max(1, -(-len(text) // width))
        if need > left:
            if left > 0:
                out.append(text[: left * width - 1] + "…")
            break
        out.append(text)
        left -= need
    return out[::-1]


def result_words(plan: Any, result: Any) -> str:
    """A Shock Results line in words: 003's result names (``tactical.combat.RESULT_TEXT``), or
    for 002's chart set (charts-v1, ``v1:<row>``) the row's effect on each side."""
    if not result:
        return "no result"
    if isinstance(result, str) and result.startswith("v1:"):
        from tactical import charts

        table = charts.load_charts("charts-v1").shock_v1
        row = next((r for r in table.rows if r.label == result[3:]), None) if table is not None else None
        if row is None:
            return result
        d = row.defender.reduced if plan.defender.reduced_side else row.defender.unreduced
        top = max(plan.attackers, key=lambda a: a.tq) if plan.attackers else None
        a = row.attacker.reduced if top is not None and top.reduced_side else row.attacker.unreduced
        return f"row {row.label}: defender {_effect_words(d)}; attacker {_effect_words(a)}"
    return RESULT_TEXT.get(result, str(result))


def _effect_words(e: Any) -> str:
    if e.kind == "none":
        return "no effect"
    if e.kind == "hits":
        return f"{e.hits} hit{'s' if e.hits > 1 else ''}" + (" + retreat" if e.retreat else "")
    if e.kind == "reduce":
        return "reduced"
    if e.kind == "rout":
        return "routs"
    return f"TQ check +{e.add} ({e.fail} if failed, else {e.hits} hits + retreat)"


def _fate_lines(state: State, full: dict[Any, Fraction]) -> list[str]:
    """Each unit's chance of ending disordered, routed or eliminated (from the full odds)."""
    fates: dict[tuple[str, str], Fraction] = {}
    for outcome, p in full.items():
        for uid, status, _engaged in outcome[1]:
            if status != state.units[uid].status:
                fates[(uid, status)] = fates.get((uid, status), Fraction(0)) + p
    out = [f"  {uid} {status}: {pct(p)}" for (uid, status), p in sorted(fates.items())]
    return out[:8]


_VOWELS = frozenset("aeiouyAEIOUY")


def _cut(word: str, extra: int = 0) -> str:
    """The word cut after the consonants that follow its first vowel group; after the next
    group's consonants too when that leaves fewer than three letters (Ant., Caes., Alex.);
    ``extra`` letters more when two names would read the same."""
    i, n = 0, len(word)
    while True:
        while i < n and word[i] not in _VOWELS:  # consonants before the vowels
            i += 1
        while i < n and word[i] in _VOWELS:  # the vowel group
            i += 1
        while i < n and word[i] not in _VOWELS:  # the consonants that close it
            i += 1
        if i >= n or i >= 3:
            break
    if i < n and i > 5:  # never more than five letters before the stop
        i = 4
    i += extra
    return word if i >= n else word[:i] + "."


def abbreviate(name: str, room: int = 5, extra: int = 0) -> str:
    """A leader's name as his token writes it, by a rule (never by a blind cut):

    1. a name of ``room`` letters or fewer is written whole (Curio, Mago, Sulla);
    2. otherwise its first word is cut after the consonants that follow its first vowel
       group — the Roman scribes' habit (Ant., Caes., Pomp., Scip., Lab.) — and, when that
       leaves fewer than three letters, after the next group's too (Alex., Atil.); never more
       than five letters before the stop;
    3. each later word of a hyphenated name adds its first letter and its digits, after a
       stop (legate-right: Leg.R, tribune-B1: Trib.B1, foot-commander: Foot.C);
    4. two leaders of a side that would still read the same each take one more letter
       until they differ (Philip, Philotas: Phili., Philo.) — ``token_names``.

    The full name is in the hover card and the info panel."""
    words = [w for w in name.split("-") if w]
    if not words:
        return name
    if len(words) == 1 and len(name) <= room and not extra:
        return name[:1].upper() + name[1:]
    head = _cut(words[0], extra)
    head = head[:1].upper() + head[1:]
    if len(words) > 1 and not head.endswith("."):
        head += "."
    return head + "".join(w[:1].upper() + "".join(c for c in w[1:] if c.isdigit()) for w in words[1:])


def token_names(leaders: dict[str, Any]) -> dict[str, str]:
    """Every leader's token name (``abbreviate``), made distinct within each side (rule 4)."""
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


def piece_words(state: State, pid: str, side_names: dict[str, str]) -> str:
    """The hover card of a unit or leader: the full name and what it is."""
    u = state.units.get(pid)
    if u is not None:
        return (
            f"{u.id}: {u.type}{' (' + u.group + ')' if u.group else ''}, {side_names.get(u.side, u.side)}, "
            f"size {u.size} TQ {u.tq} MA {u.ma}, {u.status}"
        )
    ld = state.leaders[pid]
    kind = ld.kind.replace("_", " ")
    return (
        f"{ld.id}: {kind}, {side_names.get(ld.side, ld.side)}, "
        f"Initiative {ld.initiative}, command range {ld.range}" + (", overall commander" if ld.overall else "")
    )
