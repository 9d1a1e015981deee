"""Shared fixtures.

``window`` is one hidden arcade window for the whole test session (arcade
allows one window per process).  It renders headless on Mesa EGL
(``ARCADE_HEADLESS=1``), set here before arcade is imported.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# set before any test module imports arcade (pyglet reads it at import time)
if not os.environ.get("DISPLAY"):
    os.environ.setdefault("ARCADE_HEADLESS", "1")
# the player's own folder (scenarios, saves): a fresh one for the test session, never the tester's
os.environ["BELLUM_HOME"] = tempfile.mkdtemp(prefix="bellum-home-")

ROOT = Path(__file__).resolve().parent.parent
SHARED_CASES = ROOT.parent / "shared" / "cases"
OWN_CASES = ROOT / "tests" / "cases"


@pytest.fixture(scope="session")
def _test_window() -> Iterator[Any]:
    if not os.environ.get("DISPLAY"):
        os.environ.setdefault("ARCADE_HEADLESS", "1")
    import arcade

    win = arcade.Window(1280, 800, "Bellum Civile tests", visible=False, antialiasing=False)
    yield win
    win.close()


@pytest.fixture
def window(_test_window: Any) -> Any:
    """The tests' one window, made the active one again for each test (code under test that
    opens and closes a window of its own — the illustrated report's — leaves none active)."""
    import arcade

    arcade.set_window(_test_window)
    _test_window.switch_to()
    return _test_window


@pytest.fixture(autouse=True)
def _own_home_for_window_tests(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A window test gets its own player's folder (``$BELLUM_HOME`` = ``tmp_path/home``, the
    path the tests' own ``home`` fixtures use too), so the saves and autosaves one window test
    writes are never found by the next."""
    if "window" in request.fixturenames:
        home = request.getfixturevalue("tmp_path") / "home"
        monkeypatch.setenv("BELLUM_HOME", str(home))


def keep_screen(shot: Any, name: str, tmp_path: Path) -> Path:
    """Save a test's screenshot: into the test's ``tmp_path`` on a normal run, and into
    docs/screens/ as well when ``BELLUM_SCREENS=1`` (``make screens``) — a test run never
    rewrites the committed screens."""
    out = tmp_path / name
    shot.save(out)
    if os.environ.get("BELLUM_SCREENS"):
        shot.save(ROOT / "docs" / "screens" / name)
    return out


def render(window: Any, view: Any) -> Any:
    """Show ``view``, draw one frame and return the screenshot (a PIL image)."""
    import arcade

    window.show_view(view)
    view.on_update(1 / 60)
    window.clear()
    view.on_draw()
    return arcade.get_image(0, 0, window.width, window.height)
