"""A game by e-mail played by the computer on both sides, for the PBEM and replay tests."""

from __future__ import annotations

import hashlib
import itertools
import os
from collections.abc import Callable
from pathlib import Path

from bellum import pbem

SIDES = ("caesarian", "senatorial")


def seeded(seed: str) -> Callable[[int], str]:
    """Reproducible "fresh" secrets for tests (the game draws them from ``secrets``)."""
    counter = itertools.count()
    return lambda n: hashlib.sha256(f"{seed}|{next(counter)}".encode()).hexdigest()[: 2 * n]


class Game:
    """A game played by the computer on both sides, each side with its own data folder."""

    def __init__(self, root: Path, seed: str = "game", battles: str = "auto") -> None:
        self.root = root
        self.battles = battles
        self.entropy = seeded(seed)
        self.homes = {s: root / f"home-{s}" for s in SIDES}
        self.files: list[Path] = []

    def as_side(self, side: str) -> None:
        os.environ["BELLUM_HOME"] = str(self.homes[side])

    def start(self) -> None:
        self.as_side("caesarian")
        pbem.entropy = self.entropy
        self.files.append(pbem.new_game("49bc", "caesarians", self.root / "t000.toml", {"battles": self.battles}))

    def step(self) -> pbem.PbemSession:
        doc, _ = pbem.read_turn_file(self.files[-1])
        self.as_side(doc.pbem.to_play)
        pbem.entropy = self.entropy
        s = pbem.open_turn_file(self.files[-1])
        pbem.play_ai(s)
        self.files.append(s.finish(self.root / f"t{len(self.files):03d}.toml"))
        return s

    def until_battle(self) -> None:
        """Play on until the game has fought a battle."""
        while True:
            s = self.step()
            if any(e.kind == "battle" for e in s.log):
                return

    def until_receiver_fights(self, kind: type) -> pbem.PbemSession:
        """Play on until the last file's receiver must move in a battle of ``kind``; that
        receiver's session (their data folder chosen)."""
        while True:
            doc, _ = pbem.read_turn_file(self.files[-1])
            self.as_side(doc.pbem.to_play)
            pbem.entropy = self.entropy
            got = pbem.open_turn_file(self.files[-1])
            if isinstance(got.battle, kind) and not got.turn_over():
                return got
            self.step()
