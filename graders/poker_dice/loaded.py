"""Loaded dice: die draws answered from a queue the grader refills before each answer or call."""
from __future__ import annotations

from graders.engine.draws import DrawPolicy


class LoadedDice(DrawPolicy):
    """Die draws take the loaded faces in order, then come from the seeded generator.

    Every draw is recorded in ``draws`` (fn, req, faces), so the grader can count the dice a
    call or an answer rolled.
    """

    def __init__(self, faces: list[int] | None = None, seed: int = 7):
        """Dice loaded with ``faces`` first."""
        super().__init__(seed)
        self.queue = list(faces or [])
        self.draws: list[dict] = []

    def load(self, faces: list[int]) -> None:
        """The faces the next die draws show (replacing whatever was left)."""
        self.queue = list(faces)

    def next_face(self, event: dict) -> int | None:
        """The next loaded face, or None for a random one."""
        return self.queue.pop(0) if self.queue else None

    def answer(self, event: dict) -> tuple[object, list[int]]:
        """Answer the draw and remember it."""
        value, faces = super().answer(event)
        self.draws.append({"fn": event.get("fn"), "req": event.get("req", {}), "faces": faces})
        return value, faces

    def die_draws_since(self, start: int) -> list[dict]:
        """The die draws made after the first ``start`` draws."""
        return [draw for draw in self.draws[start:] if draw["faces"]]
