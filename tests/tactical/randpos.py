"""Random legal positions for property tests (deterministic from a seed)."""

from __future__ import annotations

from bellum.dice import Dice
from tactical.hexes import FACING_CLOCK
from tactical.state import State
from tests.tactical.helpers import position

TYPES = ("HI", "LG", "MI", "LI", "SK", "HC", "LC", "EL", "BI", "PH")
MA = {"HI": 6, "LG": 5, "MI": 6, "LI": 7, "SK": 8, "HC": 8, "LC": 9, "EL": 6, "BI": 6, "PH": 4}


def random_position(
    seed: int, columns: int = 16, rows: int = 12, n_units: int = 14, rules: str = "simple-spqr"
) -> State:
    dice = Dice(seed)
    terrain: dict[str, str] = {}
    level: dict[str, int] = {}
    hexsides: dict[str, str] = {}
    for c in range(1, columns + 1):
        for r in range(1, rows + 1):
            k = dice.roll(20, "terrain")
            hid = f"{c:02d}{r:02d}"
            if k <= 2:
                terrain[hid] = "woods"
            elif k == 3:
                terrain[hid] = "rough"
            elif k == 4:
                terrain[hid] = "marsh"
            elif k == 5:
                terrain[hid] = "impassable"
            if dice.roll(6, "level") == 1:
                level[hid] = dice.roll(3, "height")
            if c < columns and dice.roll(12, "side") == 1:
                hexsides[f"{hid}/{c + 1:02d}{r:02d}"] = ("stream", "minor_river", "steep_bank")[dice.roll(3, "f") - 1]
    used: set[str] = set()
    units = []
    for n in range(n_units):
        utype = TYPES[dice.roll(len(TYPES), "type") - 1]
        side = "A" if n % 2 == 0 else "B"
        for _ in range(50):
            c, r = dice.roll(columns - 1, "c"), dice.roll(rows, "r")
            hid = f"{c:02d}{r:02d}"
            f = dice.roll(6, "facing") - 1
            spec = {
                "id": f"{side}{n}",
                "side": side,
                "type": utype,
                "size": 6,
                "tq": dice.roll(6, "tq") + 3,
                "ma": MA[utype],
                "hex": hid,
                "facing": FACING_CLOCK[f],
                "roman": utype == "LG",
                "group": "III Legion" if utype == "LG" else "",
            }
            hexes = {hid}
            if utype == "PH":
                # hex2 a quarter-turn clockwise from the facing
                from tactical.hexes import Grid

                g = Grid.make(columns, rows)
                j = g.nbr[g.index(hid) * 6 + (f + 1) % 6]
                if j < 0:
                    continue
                spec["hex2"] = g.hex_id(j)
                hexes.add(spec["hex2"])
            if hexes & used or any(terrain.get(h) in ("impassable",) for h in hexes):
                continue
            if utype in ("EL", "PH") and any(terrain.get(h) in ("marsh",) for h in hexes):
                pass
            used |= hexes
            units.append(spec)
            break
    return position(units, rules=rules, columns=columns, rows=rows, terrain=terrain, level=level, hexsides=hexsides)
