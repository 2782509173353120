"""Draw policies: how the grader answers the student program's random draws.

Every draw the program makes (``randint``, ``randrange``, ``choice``, ``choices``, ``shuffle``,
``sample``, ``random``, ``uniform``) arrives as a request. A policy answers it with a value the
child can use. Die draws (anything that picks one of six consecutive values) are recognised in
all common spellings, so an assignment can load dice by face (1..6) without caring whether the
student wrote ``randint(1, 6)``, ``randrange(6) + 1`` or ``choice([1, 2, 3, 4, 5, 6])``.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from typing import Callable


@dataclass(frozen=True)
class Draw:
    """One random draw of a run, as the policy answered it (observers get one per draw)."""

    number: int                     # 1 for the run's first draw
    fn: str                         # randint, randrange, choice, choices, shuffle, sample, ...
    request: dict                   # what was asked: a, b, step, n, k, items (described)
    value: object                   # what the program was given (an index for choices)
    faces: tuple[int, ...] = ()     # the die faces it stands for (empty: not a die)
    cards: tuple = ()               # the cards it stands for (loaded cards)
    stack: tuple = ()               # who asked: the student's functions and short strings


WORD = re.compile(r"[^\W\d_]{2}")       # two letters in a row


def draw_site(event: dict) -> tuple:
    """Where the program made a draw: (function, line) of each of its frames, innermost
    first (one helper called from two places is two places)."""
    return tuple((frame.get("fn"), frame.get("line")) for frame in event.get("stack") or [])


def die_offset(fn: str, req: dict) -> int | None:
    """For a die draw, what the program receives for face 1 (faces are consecutive).

    Returns None when the draw is not a die: a range of size six is a die; a choice among six
    items is a die when the items are six consecutive ints or six non-numbers (art, symbols).
    """
    if fn == "randint" and req.get("b", 0) - req.get("a", 0) == 5:
        return req["a"]
    if fn == "randrange" and req.get("step", 1) == 1 and req.get("b", 0) - req.get("a", 0) == 6:
        return req["a"]
    if fn in ("choice", "choices", "sample") and req.get("n") == 6:
        items = req.get("items", [])
        if all(isinstance(x, int) and not isinstance(x, bool) for x in items):
            if sorted(items) == list(range(min(items), min(items) + 6)):
                return min(items)
            return None
        if any(isinstance(x, (int, float)) for x in items):
            return None
        # six pictures of faces (art, "⚀".."⚅") are a die; six names (a pool of computer
        # players' names to pick from, "R2D2", "Wall-E" and "Johnny 5" among them) are not:
        # one-line strings most of which hold a word (two letters in a row)
        names = all(isinstance(x, dict) and "name" in x for x in items) or (
            all(isinstance(x, str) and "\n" not in x for x in items)
            and sum(bool(WORD.search(x)) for x in items) >= 4)
        return None if names else 0
    return None


class DrawPolicy:
    """Answers draws with a seeded generator; subclasses load dice via ``next_face``.

    ``dice_from``: the random functions a handout names for throwing dice (Poker Dice: "roll
    only with random.randint(1, 6)"). Once a program has thrown a die with one of them, its
    other die-like draws (six faces picked with random.choice for an animation) are
    decoration: not loaded, not counted. A program that never uses them keeps every die-like
    draw as a die (its rule break costs one item, not the games). Empty: any die-like draw
    is a die (see ``die_offset``)."""

    def __init__(self, seed: int = 1, dice_from: tuple[str, ...] = ()):
        self.seed, self.dice_from = seed, tuple(dice_from)
        self.named_die_seen = False
        self.rng = random.Random(seed)
        self.log = None          # the run's event log, set by the harness
        self.enough = False      # set to end the run after this draw (the scenario is done)
        self.die_style_seen = False   # a randint(1, 6)-like draw has happened in this run
        self.observers: list[Callable[[Draw], None]] = []
        self.count = 0

    def observe(self, callback: Callable[[Draw], None]) -> None:
        """Call ``callback(draw)`` after every draw this policy answers."""
        self.observers.append(callback)

    def cards_of(self, value) -> tuple:
        """The cards a draw's answer stands for (policies that deal cards override this)."""
        return ()

    def record(self, event: dict, value, faces) -> Draw | None:
        """The typed draw for an answered request; observers are told (the harness calls
        this after every answer). Without observers the draw is only counted (None)."""
        self.count += 1
        if not self.observers:
            return None
        draw = Draw(self.count, str(event.get("fn")), dict(event.get("req") or {}), value,
                    tuple(faces or ()), self.cards_of(value), tuple(event.get("stack") or ()))
        for callback in self.observers:
            callback(draw)
        return draw

    # Subclasses override these two hooks.
    def next_face(self, event: dict) -> int | None:
        """The face (1..6) for the next die, or None to let the generator pick."""
        return None

    def order(self, event: dict) -> list[int] | None:
        """A permutation for shuffle/sample of the whole population, or None."""
        return None

    def choose_index(self, event: dict) -> int | None:
        """An index for a non-die choice (e.g. a random tie-break), or None."""
        return None

    # ------------------------------------------------------------------
    def answer(self, event: dict) -> tuple[object, list[int]]:
        """The value to send back, and the die faces it stands for (empty if not a die)."""
        fn, req = event.get("fn"), event.get("req", {})
        offset = die_offset(fn, req)
        if offset is not None and self.dice_from:
            if fn in self.dice_from:
                self.named_die_seen = True
            elif self.named_die_seen:
                offset = None                   # decoration: the dice come from dice_from
        if offset is not None:
            self.die_style_seen = True
            count = req.get("k", 1) if fn in ("choices", "sample") else 1
            faces = [self._face(event) for _ in range(count)]
            if fn == "sample" and len(set(faces)) < count:      # a sample cannot repeat
                faces = self.rng.sample(range(1, 7), count)
            if fn in ("choices", "sample"):
                return [self._face_value(fn, req, f, offset) for f in faces], faces
            return self._face_value(fn, req, faces[0], offset), faces
        if fn == "random":
            face = self.next_face(event) if self.wants_random_as_die(event) else None
            if face is not None:
                return (face - 0.5) / 6, [face]
            return self.rng.random(), []
        return self._other(fn, req, event), []

    def wants_random_as_die(self, event: dict) -> bool:
        """int(random.random() * 6) + 1 dice: random() counts as a die until the program
        shows it rolls dice another way (then random() is a decision, e.g. a strategy)."""
        return not self.die_style_seen

    def _face(self, event: dict) -> int:
        face = self.next_face(event)
        return face if face in range(1, 7) else self.rng.randint(1, 6)

    @staticmethod
    def _face_value(fn: str, req: dict, face: int, offset: int):
        if fn in ("choice", "choices", "sample"):
            items = req.get("items", [])
            if offset == 0 and not isinstance(items[0] if items else 0, int):
                return face - 1
            return items.index(offset + face - 1)
        return offset + face - 1

    def _other(self, fn: str, req: dict, event: dict):
        n = req.get("n", 0)
        if fn == "randint":
            return self.rng.randint(req["a"], req["b"])
        if fn == "randrange":
            return self.rng.randrange(req["a"], req["b"], req.get("step", 1))
        if fn == "choice":
            index = self.choose_index(event)
            return index if index in range(n) else (self.rng.randrange(n) if n else None)
        if fn == "choices":
            return [self.rng.randrange(n) for _ in range(req.get("k", 1))] if n else None
        if fn in ("shuffle", "sample"):
            k = n if fn == "shuffle" else req.get("k", n)
            perm = self.order(event)
            if perm is None or sorted(perm) != list(range(n)):
                perm = list(range(n))
                self.rng.shuffle(perm)
            return perm[:k]
        if fn == "uniform":
            return None
        return None


class ScriptedDice(DrawPolicy):
    """Loads dice from a queue of faces (then falls back to the seeded generator).

    ``load(faces)`` replaces what is left of the queue (before each answer or call);
    ``draws`` holds every draw of the run (typed :class:`Draw`), and ``die_draws_since(n)``
    the die draws after the first ``n`` draws.
    """

    def __init__(self, faces: list[int] = (), seed: int = 1, dice_from: tuple[str, ...] = ()):
        super().__init__(seed, dice_from)
        self.faces = list(faces)
        self.draws: list[Draw] = []
        self.observe(self.draws.append)
        # the dice drawn since the output last ended a line: (face loaded or None, the
        # program's lines that drew it, the draw's index in the log, in ``draws``)
        self._frame: list[tuple] = []
        self._frame_sites: set = set()  # where the program draws its animation frames
        self._line_sites: set = set()   # where the dice since the last whole line came from
        self._latest = -1               # the log index of the latest die drawn

    def load(self, faces: list[int]) -> None:
        """The faces the next die draws show (replacing whatever was left)."""
        self._end_of_line()
        self.faces = list(faces)

    def next_face(self, event: dict) -> int | None:
        self._put_back_a_flashed_frame()
        face = self.faces.pop(0) if self.faces else None
        self._latest = len(self.log or [])           # this draw's index once logged
        site = draw_site(event)
        self._frame.append((face, site, self._latest, len(self.draws)))
        self._line_sites.add(site)
        return face

    def _put_back_a_flashed_frame(self) -> None:
        """A rolling animation: dice drawn and shown on a line that the next output writes
        over ('\r', no new line), then more dice drawn. Those were a frame, not a throw:
        its loaded faces go back to the front of the queue, so the throw itself (before or
        after the frames) shows the loaded faces, and its draws are no dice any more (a throw
        counts the dice it threw, not its animation's). Drawing random faces for an animation
        is allowed (any use of random is); frames that took the loaded dice put a whole game
        out of step with its plan.

        A frame is the last draws made from one place in the program (the same lines of its
        functions): a throw drawn just before it, with nothing printed between, stays a
        throw. The last frame, ended by a whole line, is known by its place."""
        since = (self.log or [])[self._latest + 1:]
        text = "".join(event.text for event in since if event.kind == "out")
        if "\n" in text or any(event.kind == "input" for event in since):
            self._end_of_line()
        elif "\r" in text and self._frame:
            frame = self._last_frame()
            self._frame_sites.add(frame[0][1])
            self.faces = [face for face, *_ in frame if face is not None] + self.faces
            self._frame = []
            self._uncount(frame)

    def _end_of_line(self) -> None:
        """A whole line or a question ends what was drawn: a throw, or the last frame of an
        animation after the throw (drawn from where the frames are, the throw from elsewhere
        since the last line; frames alone end with the throw itself, as the last frame)."""
        site = self._frame[-1][1] if self._frame else None
        if site in self._frame_sites and self._line_sites - self._frame_sites:
            self._uncount(self._last_frame())
        self._frame, self._line_sites = [], set()

    def _last_frame(self) -> list[tuple]:
        """The last draws of ``_frame`` made from one place, taken off it."""
        site, frame = self._frame[-1][1], []
        while self._frame and self._frame[-1][1] == site:
            frame.insert(0, self._frame.pop())
        return frame

    def _uncount(self, frame: list[tuple]) -> None:
        """A frame's draws are no dice: not in the transcript's dice, not in ``draws``'."""
        in_draws = {entry[3] for entry in frame}
        for index in {entry[2] for entry in frame}:
            event = next((e for e in self.log[index:] if e.kind == "draw"), None)
            if event is not None:
                event.data["faces"] = []
        self.draws[:] = [replace(draw, faces=()) if index in in_draws else draw
                         for index, draw in enumerate(self.draws)]

    def die_draws_since(self, start: int) -> list[Draw]:
        """The die draws made after the first ``start`` draws: those of ``dice_from`` where
        there are any (a call that also animates its dice with other draws), else all."""
        found = [draw for draw in self.draws[start:] if draw.faces]
        return [draw for draw in found if draw.fn in self.dice_from] or found
