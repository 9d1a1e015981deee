"""Colours of the tactical window (the main menu's parchment, gold and Roman red)."""

from __future__ import annotations

RGBA = tuple[int, int, int, int]

BG = (24, 20, 18)
PANEL = (40, 32, 27, 255)
PANEL_EDGE = (222, 184, 96, 255)
INK = (236, 222, 190)
DIM = (170, 150, 130)
GOLD = (222, 184, 96)
BAD = (250, 140, 120)
GOOD = (150, 220, 140)

#: counter colours: side A red (Caesar), side B purple (the Senate), as on the battleboard
SIDE_FILL = {"A": (196, 64, 56), "B": (132, 84, 160)}
SIDE_DARK = {"A": (98, 22, 24), "B": (62, 28, 84)}
SIDE_INK = {"A": (252, 240, 224), "B": (252, 244, 236)}

TERRAIN_COLORS = {
    "clear": (176, 176, 118, 255),
    "woods": (86, 120, 66, 255),
    "rough": (150, 128, 92, 255),
    "marsh": (112, 142, 128, 255),
    "impassable": (92, 84, 76, 255),
    "town": (170, 150, 140, 255),
}
#: each elevation level lightens clear ground toward this tan
LEVEL_TINT = (206, 172, 110, 255)
GRID_LINE = (70, 66, 44, 110)
CONTOUR = (112, 72, 36, 255)
RIVER = (58, 110, 170, 255)
BANK = (120, 80, 40, 255)
ROAD = (140, 104, 64, 255)
ROMAN_ROAD = (200, 190, 170, 255)

MOVE_HL = (250, 236, 130, 120)
PATH_HL = (255, 255, 255, 200)
TARGET_HL = (240, 50, 40, 150)
SELECT_HL = (255, 246, 170, 255)
COMMAND_HL = (120, 200, 255, 60)
