"""The player's settings (the options screen, ``bellum.view.options``): the optional rules of
each battle engine, the ruleset, the AI's strength and the speed of the computer's moves.

Kept in ``settings.toml`` in the player's own folder (``bellum.paths.user_folder()``), read
through the one input gate (``bellum.tomlio``) and written atomically (``saves.write_atomic``).
No arcade here: the model, the catalogue's shape (``Choice``) and the file.

A battle engine's rule options are one list of written option ids, as a scenario's
``options`` and a save's ``[save] options`` hold them (tactical/options.py,
battleboard/options.py list each engine's ``Choice``s); a battle begun with them replaces the
scenario's own, and its save carries them (``bellum.session.Session``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

import tomli_w
from pydantic import BaseModel, ConfigDict, Field

from bellum.errors import InputError

#: an option as written in settings, scenarios and saves (``no-pilum``, ``rout-bid:B:40``, ``rules:sgboh``)
OptionText = Annotated[str, Field(pattern=r"^[A-Za-z0-9:._-]{1,80}$")]
AiStrength = Literal["easy", "normal", "strong"]
Speed = Literal["slow", "normal", "fast", "fastest"]
#: how many times faster than "normal" the computer's moves follow each other
SPEED_FACTOR: dict[str, float] = {"slow": 0.5, "normal": 1.0, "fast": 2.5, "fastest": 8.0}
SETTINGS_FILE = "settings.toml"


class Settings(BaseModel):
    """What the options screen sets (every field has a default: an empty file is valid)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    #: the tactical engine's options, ``rules:RULESET`` among them (absent: the scenario's ruleset)
    tactical: list[OptionText] = Field(default_factory=list, max_length=32)
    #: the battleboard's options
    battleboard: list[OptionText] = Field(default_factory=list, max_length=32)
    ai_strength: AiStrength = "normal"
    speed: Speed = "normal"

    def options(self, engine: str) -> list[str]:
        return list(getattr(self, engine, []))


@dataclass(frozen=True)
class Choice:
    """One line of the options screen: a setting with its values (``(written, shown)``; the
    written value ``""`` is "none of them"), where the rule comes from and what it changes.
    For an engine's rule option the written value is an option id in its list."""

    key: str
    label: str
    source: str
    line: str
    values: tuple[tuple[str, str], ...]

    def current(self, chosen: Sequence[str]) -> int:
        """The index of the value ``chosen`` (an option list) holds; 0 if none."""
        for i, (written, _) in enumerate(self.values):
            if written and written in chosen:
                return i
        return 0

    def pick(self, chosen: Sequence[str], index: int) -> list[str]:
        """``chosen`` with this choice set to value ``index`` (its other values removed)."""
        mine = {w for w, _ in self.values if w}
        out = [o for o in chosen if o not in mine]
        written = self.values[index % len(self.values)][0]
        return [*out, written] if written else out


def toggle(option: str, label: str, source: str, line: str) -> Choice:
    """An optional rule that is on or off."""
    return Choice(option, label, source, line, (("", "off"), (option, "on")))


#: the play settings every engine shares (not rules: they are not written into saves)
AI_CHOICE = Choice(
    "ai_strength",
    "Computer's strength",
    "docs/AI.md",
    "Easy plays the best-looking action; normal is the engine's AI; strong (tactical) scores more attacks exactly.",
    (("easy", "easy"), ("normal", "normal"), ("strong", "strong")),
)
SPEED_CHOICE = Choice(
    "speed",
    "Speed of the computer's moves",
    "",
    "How fast the computer's actions follow each other (its turns, and the battles you watch).",
    (("slow", "slow"), ("normal", "normal"), ("fast", "fast"), ("fastest", "fastest")),
)


def settings_path() -> Path:
    from bellum.paths import user_folder

    return user_folder() / SETTINGS_FILE


def load_settings(path: Path | None = None) -> Settings:
    """The saved settings, or the defaults when there is no file; a bad file is one
    ``InputError`` sentence (the options screen shows it and starts from the defaults)."""
    from bellum.tomlio import load_model

    p = path or settings_path()
    if not p.exists():
        return Settings()
    return load_model(Settings, p)


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write the settings atomically (the previous file is replaced whole or not at all)."""
    from bellum.saves import write_atomic

    p = path or settings_path()
    p.parent.mkdir(parents=True, exist_ok=True)
    doc = settings.model_dump()
    from bellum.paths import game_data

    schema = game_data("schemas", "settings.schema.json")
    head = f"#:schema {schema.resolve().as_uri()}\n" if schema.is_file() else ""
    text = head + "# Bellum Civile settings (the options screen writes this file)\n" + tomli_w.dumps(doc)
    try:
        write_atomic(p, text.encode("utf-8"))
    except OSError as exc:
        raise InputError(p, "", f"the settings could not be written ({exc.strerror or exc})") from None
    return p
