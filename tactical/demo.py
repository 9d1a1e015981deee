"""The demo field shown when no tactical scenario exists yet: a Pharsalus-like position
written in the rules-case notation (``cases/FORMAT.md``), validated by ``PositionIn`` like
any other position.  It is the project's own sketch, not a scenario: the historical
orders of battle live in ``scenarios/tactical/``.
"""

from __future__ import annotations

from typing import Any


def _hex(c: int, r: int) -> str:
    return f"{c:02d}{r:02d}"


def demo_position() -> dict[str, Any]:
    columns, rows = 30, 20
    terrain: dict[str, str] = {}
    level: dict[str, int] = {}
    hexsides: dict[str, Any] = {}
    for r in range(1, rows + 1):  # the Enipeus along the west of the field
        hexsides[f"{_hex(3, r)}/{_hex(4, r)}"] = "minor_river"
        for c in (1, 2, 3):
            terrain[_hex(c, r)] = "marsh" if (c + r) % 3 == 0 else "clear"
    for c in range(6, 24):  # the slope before Pompey's camp
        for r in (1, 2):
            level[_hex(c, r)] = 1
    for c in range(10, 18):
        level[_hex(c, 1)] = 2
    for c, r in ((26, 8), (27, 8), (26, 9), (28, 9), (27, 10), (25, 3), (26, 3)):
        terrain[_hex(c, r)] = "woods"
    for c, r in ((24, 16), (25, 16), (25, 17), (6, 18), (7, 18)):
        terrain[_hex(c, r)] = "rough"
    for r in range(14, rows):  # a road up from the south edge: SE of an odd row, SW of an even one
        hexsides[f"{_hex(20, r)}/{_hex(20, r + 1)}"] = "road"
    units: list[dict[str, Any]] = []

    def unit(uid: str, side: str, t: str, size: int, tq: int, ma: int, c: int, r: int, face: int, **kw: Any) -> None:
        units.append(
            {"id": uid, "side": side, "type": t, "size": size, "tq": tq, "ma": ma, "hex": _hex(c, r), "facing": face}
            | kw
        )

    legions_a = ("VIII", "IX", "XI", "XII", "X")
    for k, c in enumerate(range(9, 19)):
        unit(f"A{k + 1}", "A", "LG", 6, 7 if k < 8 else 8, 5, c, 13, 12, roman=True, group=legions_a[k // 2])
    for k, c in enumerate(range(10, 17)):
        unit(f"A{k + 11}", "A", "LG", 5, 6, 5, c, 15, 12, roman=True, group=legions_a[min(k // 2, 4)])
    for k, c in enumerate((20, 21, 22)):
        unit(f"AC{k + 1}", "A", "RC", 3, 6, 8, c, 13, 12, roman=True, group="eq")
    for k, c in enumerate((19, 20)):
        unit(f"A4{k + 1}", "A", "LG", 5, 8, 5, c, 15, 12, roman=True, group="IV")
    unit("AS1", "A", "SK", 2, 5, 8, 12, 12, 12, missile="J", group="v")
    unit("AS2", "A", "SK", 2, 5, 8, 16, 12, 12, missile="J", group="v")
    legions_b = ("I", "III", "Cil", "Syr", "Hisp", "Pomp")
    for k, c in enumerate(range(8, 20)):
        unit(f"B{k + 1}", "B", "LG", 7, 6, 5, c, 7, 6, roman=True, group=legions_b[k // 2])
    for k, c in enumerate(range(9, 19)):
        unit(f"B{k + 13}", "B", "LG", 6, 5, 5, c, 5, 6, roman=True, group=legions_b[min(k // 2, 5)])
    for k, c in enumerate((20, 21, 22, 23)):
        unit(f"BC{k + 1}", "B", "HC", 4, 5, 7, c, 7, 6, group="eq")
    for k, c in enumerate((21, 22)):
        unit(f"BL{k + 1}", "B", "LC", 3, 5, 8, c, 6, 6, missile="J", group="eq")
    unit("BS1", "B", "SK", 2, 4, 8, 11, 8, 6, missile="A", group="v")
    unit("BS2", "B", "SK", 2, 4, 8, 21, 8, 6, missile="A", group="v")
    leaders = [
        {"id": "Caesar", "side": "A", "hex": _hex(14, 14), "initiative": 6, "range": 6, "elite": True, "overall": True},
        {"id": "Antonius", "side": "A", "hex": _hex(10, 13), "initiative": 4, "range": 4},
        {"id": "Sulla", "side": "A", "hex": _hex(16, 13), "initiative": 4, "range": 4},
        {"id": "Pompeius", "side": "B", "hex": _hex(14, 4), "initiative": 4, "range": 5, "overall": True},
        {"id": "Labienus", "side": "B", "hex": _hex(22, 7), "initiative": 5, "range": 4},
        {"id": "Scipio", "side": "B", "hex": _hex(13, 7), "initiative": 3, "range": 3},
        {"id": "Domitius", "side": "B", "hex": _hex(9, 7), "initiative": 3, "range": 3},
    ]
    return {
        "rules": "simple-spqr",
        "map": {"columns": columns, "rows": rows, "terrain": terrain, "level": level, "hexsides": hexsides},
        "units": units,
        "leaders": leaders,
        "withdrawal": {"A": 40, "B": 55},
    }
