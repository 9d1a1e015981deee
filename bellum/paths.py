"""Where the game's data lives: the repository's ``maps/``, ``scenarios/``, ``saves/``."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAPS = ROOT / "maps"
SCENARIOS = ROOT / "scenarios"
SAVES = ROOT / "saves"
DOCS = ROOT / "docs"


def resolve_scenario(name: str, engine: str) -> Path:
    """A scenario given as a path, or as a bare name under ``scenarios/<engine>/``."""
    p = Path(name)
    if p.suffix == ".toml" and p.exists():
        return p
    candidate = SCENARIOS / engine / (name if name.endswith(".toml") else f"{name}.toml")
    if candidate.exists():
        return candidate
    return p
