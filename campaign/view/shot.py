"""``bellum shot campaign --out F.png``: the whole Roman world of January 49 BC."""

from __future__ import annotations

import argparse

import arcade

from campaign.view.mapview import MapView
from campaign.view.model import PlainMapModel


def shot_view(args: argparse.Namespace) -> arcade.View:
    return MapView(PlainMapModel())
