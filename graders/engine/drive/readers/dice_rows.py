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
    rows = unlabelled([[int(face) for face in DIE.findall(line)] for line in lines], count)
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


def unlabelled(rows: list[list[int]], count: int = 5) -> list[list[int]]:
    """The digit rows of a display with the dice's position numbers taken out.

    Interpretation: students number their dice as often as they letter them, and a number
    1 to 5 is also a die's face, so a display is read as numbered only where its shape says
    so: a line ``1:3  2:3  3:1  4:5  5:6`` (positions 1 to ``count`` in order, each beside one
    face, before or after it); lines ``Die 1: 3`` ... ``Die 5: 6`` (one position and one
    face each, the positions in order); a line of the positions alone (``1  2  3  4  5``)
    just above or below a line of faces that are not a straight. Every other row is left as
    it is."""
    labels = list(range(1, count + 1))
    out: list[list[int]] = []
    at = 0
    while at < len(rows):
        row = rows[at]
        column = rows[at:at + count]
        if len(column) == count and all(len(pair) == 2 for pair in column):
            for side in (0, 1):
                if [pair[side] for pair in column] == labels:
                    out.append([pair[1 - side] for pair in column])
                    at += count
                    break
            else:
                column = None
            if column is not None:
                continue
        if len(row) == 2 * count:
            for side in (0, 1):
                if row[side::2] == labels:
                    row = row[1 - side::2]
                    break
        out.append(row)
        at += 1
    faced = [row for row in out if row]
    # positions alone beside faces that are not 1 to count themselves (two such rows are two
    # displays of a straight, and both stay)
    return [row for at, row in enumerate(faced) if not (
        row == labels and any(len(faced[near]) == count and sorted(faced[near]) != labels
                              for near in (at - 1, at + 1) if 0 <= near < len(faced)))]


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
