"""``bellum shot VIEW --out FILE.png``: render any view headless to a PNG.

Rendering uses ``ARCADE_HEADLESS=1`` (Mesa EGL, software llvmpipe) when there
is no display.  If that cannot open a GL context, the same command is run
again under ``xvfb-run``.  Views are found in ``SHOT_VIEWS``: a name and the
``module:function`` that builds the ``arcade.View`` from the parsed arguments.
"""

from __future__ import annotations

import argparse
import importlib
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from bellum.errors import BellumError, InputError

#: view name -> "module:factory"; factory(args) -> arcade.View
SHOT_VIEWS: dict[str, str] = {
    "menu": "bellum.view.menu:shot_view",
    "tactical": "tactical.view.shot:shot_view",
    "battleboard": "battleboard.view.shot:shot_view",
    "campaign": "campaign.view.shot:shot_view",
    "picker": "bellum.view.picker:shot_view",
    "options": "bellum.view.options:shot_view",
    "watch": "bellum.view.watch:shot_view",
}

_NO_FALLBACK = "BELLUM_SHOT_NO_XVFB"


class HeadlessUnavailable(BellumError):
    """No GL context could be opened without a display."""


def add_shot_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("view", choices=sorted(SHOT_VIEWS), help="which view to render")
    p.add_argument("--out", required=True, metavar="FILE.png", help="where to write the PNG")
    p.add_argument("--scenario", default=None, help="scenario name or path (engine views)")
    p.add_argument("--width", type=int, default=1280)
    p.add_argument("--height", type=int, default=800)
    p.add_argument("--seed", type=int, default=1)


def _argv(args: argparse.Namespace) -> list[str]:
    argv = ["shot", args.view, "--out", str(args.out), "--width", str(args.width), "--height", str(args.height)]
    argv += ["--seed", str(args.seed)]
    if args.scenario:
        argv += ["--scenario", str(args.scenario)]
    return argv


def load_view_factory(name: str) -> Any:
    module_name, func = SHOT_VIEWS[name].split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise InputError("bellum shot", name, "this view is not built yet") from None
        raise
    return getattr(module, func)


def shot(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.suffix.lower() != ".png":
        raise InputError("bellum shot", "--out", f"{out} must end in .png")
    from bellum.paths import check_output

    check_output(out, "--out")
    if not (320 <= args.width <= 4096 and 240 <= args.height <= 4096):
        raise InputError("bellum shot", "--width/--height", "the size must be between 320x240 and 4096x4096")
    wants_xvfb = os.environ.get("BELLUM_SHOT_BACKEND") == "xvfb"
    if not (os.environ.get("DISPLAY") or wants_xvfb or "ARCADE_HEADLESS" in os.environ or "arcade" in sys.modules):
        os.environ["ARCADE_HEADLESS"] = "1"
    factory = load_view_factory(args.view)
    try:
        if os.environ.get("BELLUM_SHOT_BACKEND") == "xvfb" and not os.environ.get(_NO_FALLBACK):
            raise HeadlessUnavailable("xvfb requested")
        render_to_png(factory, args, out)
    except HeadlessUnavailable as why:
        return _render_under_xvfb(args, str(why))
    print(f"wrote {out}")
    return 0


def _render_under_xvfb(args: argparse.Namespace, why: str) -> int:
    """Run the same shot again on a virtual X display (the fallback for machines without EGL)."""
    xvfb = shutil.which("xvfb-run")
    if xvfb is None or os.environ.get(_NO_FALLBACK):
        raise BellumError(f"cannot render headless: {why}; install Mesa EGL or xvfb")
    env = {k: v for k, v in os.environ.items() if k not in ("ARCADE_HEADLESS", "BELLUM_SHOT_BACKEND")}
    env[_NO_FALLBACK] = "1"
    cmd = [xvfb, "-a", sys.executable, "-m", "bellum", *_argv(args)]
    return subprocess.run(cmd, env=env, check=False).returncode


def render_to_png(factory: Any, args: argparse.Namespace, out: Path) -> None:
    try:
        import arcade

        window = arcade.Window(args.width, args.height, "Bellum Civile", visible=False, antialiasing=False)
    except Exception as exc:  # pyglet raises several types when no GL context exists
        raise HeadlessUnavailable(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None
    try:
        view = factory(args)
        window.show_view(view)
        for _ in range(2):
            view.on_update(1 / 60)
            window.clear()
            view.on_draw()
        image = arcade.get_image(0, 0, args.width, args.height)
        colors = image.convert("RGB").getcolors(maxcolors=4)
        if colors is not None and len(colors) < 2:
            raise BellumError(f"the {args.view} view rendered a blank image")
        out.parent.mkdir(parents=True, exist_ok=True)
        image.save(out)
    finally:
        window.close()
