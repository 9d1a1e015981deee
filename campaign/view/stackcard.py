"""The stack card (issue 15): hovering a force counter shows every force of that stack —
its counter, its leaders with their ratings, its strength and its composition by kind
(``campaign.view.stacks.card``).  Built once per stack and place on the screen, drawn by
the cursor instead of the place's tooltip."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import arcade
from arcade import shape_list
from pyglet.graphics import Batch

from campaign.map import CampaignMap
from campaign.view import markers
from campaign.view.model import ForceMarker
from campaign.view.palette import BG_TOP, LABEL_INK, owner_kind

WIDTH = 330.0
ICON = 22.0
SANS = ("DejaVu Sans", "Arial", "sans-serif")


class StackCard:
    """The card of the stack at one place (see the module docstring)."""

    def __init__(self) -> None:
        #: what the card shows (the stack's forces, the window's width): its texts are laid
        #: out once for it; the cursor only moves them
        self.content: tuple[Any, ...] | None = None
        self.at = (0.0, 0.0)
        self.height = 0.0
        self.shapes: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        self.icons: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.batch = Batch()
        self.texts: list[arcade.Text] = []
        self.rect = (0.0, 0.0, 0.0, 0.0)

    def build(self, world: CampaignMap, forces: Sequence[ForceMarker], x: float, y: float, win_w: float) -> None:
        """Lay the card out with its top left near (x, y), kept inside the window."""
        content = (tuple(forces), win_w)
        if content != self.content:
            self.content = content
            self._lay_out(world, forces)
        left = min(x + 18, win_w - WIDTH - 4)
        top = max(y - 10, self.height + 4)
        if (left, top) != self.at:
            self._move_to(left, top)

    def _lay_out(self, world: CampaignMap, forces: Sequence[ForceMarker]) -> None:
        """The card's texts and icons, its top left at (0, 0)."""
        self.batch = Batch()
        self.texts = []
        self.icons = arcade.SpriteList()
        rows: list[tuple[ForceMarker, list[arcade.Text]]] = []
        for f in forces:
            lines = f.card or (f"{f.label} {f.detail}".strip(),)
            texts = [
                arcade.Text(
                    ln,
                    0,
                    0,
                    (*LABEL_INK, 255),
                    10 if i == 0 else 8.5,
                    font_name=SANS,
                    bold=i == 0,
                    multiline=True,
                    width=int(WIDTH - ICON - 24),
                    anchor_y="top",
                    batch=self.batch,
                )
                for i, ln in enumerate(lines)
            ]
            rows.append((f, texts))
        self.height = 10 + sum(max(ICON, sum(t.content_height for t in ts)) + 8 for _, ts in rows)
        cy = -8.0
        for f, ts in rows:
            icon = arcade.Sprite(markers.symbol_counter_texture(owner_kind(world, f.owner), f.symbol, f.leader))
            icon.scale = ICON / markers.SIZE
            icon.position = (8 + ICON / 2, cy - ICON / 2)
            self.icons.append(icon)
            ty = cy
            for t in ts:
                t.position = (ICON + 16, ty)
                ty -= t.content_height
            self.texts += ts
            cy -= max(ICON, cy - ty) + 8
        self.at = (0.0, 0.0)

    def _move_to(self, left: float, top: float) -> None:
        """The laid-out card moved so that its top left is at (left, top)."""
        dx, dy = left - self.at[0], top - self.at[1]
        for t in self.texts:
            t.position = (t.x + dx, t.y + dy)
        for icon in self.icons:
            icon.position = (icon.center_x + dx, icon.center_y + dy)
        self.at = (left, top)
        height = self.height
        self.rect = (left, top - height, left + WIDTH, top)
        box: shape_list.ShapeElementList[Any] = shape_list.ShapeElementList()
        cx, cyy = left + WIDTH / 2, top - height / 2
        box.append(shape_list.create_rectangle_filled(cx, cyy, WIDTH, height, (250, 242, 220, 245)))
        box.append(shape_list.create_rectangle_outline(cx, cyy, WIDTH, height, (*BG_TOP, 255), 1.5))
        self.shapes = box

    def draw(self) -> None:
        self.shapes.draw()
        self.icons.draw()
        self.batch.draw()
