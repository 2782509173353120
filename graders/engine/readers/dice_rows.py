"""Reading the dice a program showed as digits, and naming shown dice by their letters.

A display is read from its lines: five die digits on one line (``[5, 6, 6, 3, 1]``,
``a:5  b:6  c:6  d:3  e:1``, ``| 2 | 5 | 2 |``), or spread over lines (one die per line),
or big dice drawn as text (``readers.dice``). A digit next to another digit or a dot (``12``,
``2.5``) is not a die. Lines a grader names with ``skip`` (a menu, the points) are not read.

When a program shows its dice in another order than they were thrown (it sorts them, or puts
kept dice first), a player names the dice as displayed: ``relabel`` moves the letters of an
answer to the displayed dice with the same values.
"""
from __future__ import annotations

import re

from .dice import find_dice

DIE = re.compile(r"(?<![\d.])[1-6](?![\d.])")


def read_dice(text: str, expected: list[int] | None = None, *, any_order: bool = False,
              skip: re.Pattern | None = None, count: int = 5) -> list[int] | None:
    """The dice shown last: ``count`` die digits equal to ``expected`` (in any order, with
    ``any_order``) if the text shows them, else the last ``count`` digits of the last line
    holding that many (or of the whole text), else None."""
    lines = [line for line in text.splitlines() if not (skip and skip.search(line))]
    rows = [[int(face) for face in DIE.findall(line)] for line in lines]
    full = [row for row in rows if len(row) >= count]
    every = sum(rows, [])
    if expected:
        windows = [faces[at:at + count] for faces in full or [every]
                   for at in range(len(faces) - count + 1)]
        exact = [window for window in windows if window == list(expected)]
        if exact:
            return exact[0]
        if any_order:                         # the last display of the same values
            shuffled = [window for window in windows if sorted(window) == sorted(expected)]
            if shuffled:
                return shuffled[-1]
        if find_dice("\n".join(lines), list(expected)):
            return list(expected)
    return full[-1][-count:] if full else every[-count:] if len(every) >= count else None


def letters_named(answer: str, letters: str = "abcde") -> set[int]:
    """The positions an answer names by letter, in any case; repeats and every other
    character are ignored."""
    return {letters.index(ch) for ch in answer.lower() if ch in letters}


def relabel(answer: str, meant: list[int], shown: list[int], letters: str = "abcde") -> str:
    """The answer with each letter moved from a die of ``meant`` to a displayed die of the
    same value (a die that shows the same value in the same place keeps its letter); case and
    other characters stay. Unchanged when the two do not show the same values."""
    if sorted(meant) != sorted(shown):
        return answer
    places, free = {}, list(range(len(shown)))
    for at in sorted(range(len(meant)), key=lambda at: meant[at] != shown[at]):
        places[at] = min(free, key=lambda place: (shown[place] != meant[at], place != at))
        free.remove(places[at])
    moved = {ch: letters[places[at]] for at, ch in enumerate(letters)}
    return "".join(ch if ch.lower() not in moved else moved[ch.lower()].upper()
                   if ch.isupper() else moved[ch] for ch in answer)
