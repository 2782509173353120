"""Reading name/number standings such as ``Ann: 7 chips``, ``| Mo | 10 |`` or
``Chips -> Ann: 10 | Mo: 9``: each known name takes the first whole number after it on its line;
or a table turned sideways, the names on one line and their numbers on the next.
"""
from __future__ import annotations

import functools
import re

from .numbers import in_digits
from .score_table import sideways


TRANSFER = re.compile(r"\b(give|gives|gave|pay|pays|paid|receive|receives|received|get|gets|"
                      r"got|take|takes|took|collect|collects|owe|owes|lose|loses|lost|gain|"
                      r"gains|gained|win|wins|won|from|to)\b", re.I)


# "Frank has 0 chips and wins the game!" states a count; "Frank wins 3 chips" is a transfer.
HAS_COUNT = re.compile(r"\b(has|have|had|with|on|at)\s+-?\d+\s*chips?\b", re.I)


DIGIT = re.compile(r"\d")
BAR = re.compile(r"([^\w\s])\1{3,}")       # "●●●●●●●●" drawn for a count of chips
# numbers followed by these words are not counts (see ``next_number``)
NOT_AFTER = ("points?", "pts", "rolls?", "times?")


@functools.lru_cache(maxsize=1024)
def _name_pattern(name: str) -> re.Pattern:
    """A name as a word of its own, in any case (compiled once: every line is read for it).
    A hyphen joins words into another name: "Robo-Otto" is not Otto."""
    return re.compile(r"(?<!\w)(?<!\w-)" + re.escape(name) + r"(?!\w)(?!-\w)", re.I)


def numbers_by_name(line: str, names: list[str],
                    not_after: tuple[str, ...] = NOT_AFTER) -> dict[str, int]:
    """Each name's number on a standings line; nothing from a line about a transfer
    ("Mo gives Ann 3 chips"); ``not_after``: see ``next_number``. Numbers in words count
    ("Mo has twenty chips"), and a bar of symbols before a count is one gap ("Mo ●●●● 4")."""
    line = BAR.sub(r"\1\1\1", in_digits(line)) if not DIGIT.search(line) or BAR.search(line) \
        else line
    if not DIGIT.search(line):
        return {}                   # every number read is digits (NEXT_NUMBER): none here
    transfer = [m.group(0).lower() for m in TRANSFER.finditer(line)]
    if transfer and not (HAS_COUNT.search(line) and
                         all(word.startswith(("win", "won")) for word in transfer)):
        return {}
    spots = sorted((m.start(), m.end(), name) for name in names
                   for m in _name_pattern(name).finditer(line))
    # a line that spells some name as the program does reads names only so spelled (or in
    # capitals): a player called Max is not the "max" of "Rex (max 3 rolls)"; a line all in
    # small letters ("mo currently has 19 chips") is read in any case
    spelled = [spot for spot in spots
               if line[spot[0]:spot[1]] in (spot[2], spot[2].upper(), spot[2].title())]
    if spelled:
        spots = spelled
    # a name inside a longer one is that one's ("CPU Juno: 10" is CPU Juno's, not Juno's)
    spots = [spot for spot in spots if not any(
        other[0] <= spot[0] and spot[1] <= other[1] and other[1] - other[0] > spot[1] - spot[0]
        for other in spots)]
    found: dict[str, int] = {}
    for i, (_, end, name) in enumerate(spots):
        stop = spots[i + 1][0] if i + 1 < len(spots) else len(line)
        number = next_number(tuple(not_after)).match(line[end:stop])
        # "Order: 1. Mo, 2. Ann": a number just before the next name is that name's label
        if number and stop < len(line) and re.fullmatch(r"[.):]\s*", line[end + number.end():stop]):
            continue
        if number and name not in found:
            found[name] = int(number.group(1))
    return found


# After a name: punctuation, a short note in brackets, and a few linking words, then the number
# ("Ann: 7", "| Mo | 10", "Mo has 7 chips", "Mo (you) - 7"); not "Mo's turn: up to 3 rolls".
# A dash with a space after it, or an arrow, separates ("Mo - 7 chips", "Mo -> 7");
# "-7" is a negative count; "7." ends a sentence ("and you have 7."), "7.5" is no count.
# ``not_after``: words that make a number something else than the count read (by default
# "points", "rolls" and "times": a chip count is no score; a game whose standings are points
# passes its own, e.g. ("rolls?", "times?")).
@functools.lru_cache(maxsize=32)
def next_number(not_after: tuple[str, ...] = NOT_AFTER) -> re.Pattern:
    """The pattern of the number after a name (see above), refusing ``not_after`` words."""
    refused = rf"(?!\s*(?:{'|'.join(not_after)})\b)" if not_after else ""
    return re.compile(r"(?:\s*\((?!\s*-?\d)[^)]{0,12}\))?[^\w\d-]{0,30}"
                      r"(?:-+(?:>|\s)[^\w\d-]{0,6})?"
                      r"(?:(?:now|currently|still|finished|finishes|ends|ended)\s+)?"
                      r"(?:(?:has|have|with|on|holds|chips?|total|count)\b"
                      r"[^\w\d-]{0,6})*(-?\d+)(?!\w)(?!\.\d)(?!\s*[,-]?\s*\d)" + refused,
                      re.I)


NEXT_NUMBER = next_number()


def last_standings(text: str, names: list[str], window: int = 14,
                   not_after: tuple[str, ...] = NOT_AFTER) -> tuple[dict[str, int], str]:
    """The last block of lines giving every name a number (and the lines themselves);
    ``not_after``: see ``next_number``.

    Returns ({}, "") when no block within ``window`` lines names everyone.
    """
    text = in_digits(text)                  # "Mo has twenty chips" gives a count too
    lines = text.split("\n")
    # Lines after the last one with a digit give no number (numbers are read from digits
    # only): leaving them out changes no answer, and a program that floods the screen at the
    # end ("rolling..." up to the output limit) is read at once instead of in minutes.
    last = max(text.rfind(digit) for digit in "0123456789")
    if text.isascii() or text[last + 1:].isascii():     # no other kind of digit after it
        del lines[text.count("\n", 0, last) + 1 if last >= 0 else 0:]
    while lines and not any(ch.isdigit() for ch in lines[-1]):
        lines.pop()
    read: dict[int, dict[str, int]] = {}    # each line is read once, not once per window

    def numbers_on(index: int) -> dict[str, int]:
        if index not in read:
            read[index] = numbers_by_name(lines[index], names, not_after)
        return read[index]

    # a table turned sideways: the names on one line, their numbers on the next
    table = sideways(lines, {name: _name_pattern(name) for name in names})
    for end in range(len(lines) - 1, -1, -1):
        if table and end == table[1]:
            return table[2], "\n".join(lines[table[0]:end + 1])
        found: dict[str, int] = {}
        used: list[int] = []
        for index in range(end, max(-1, end - window), -1):
            got = numbers_on(index)
            new = {n: v for n, v in got.items() if n not in found}
            if new:
                found.update(new)
                used.append(index)
            if len(found) == len(names):
                block = "\n".join(lines[min(used):max(used) + 1])
                return found, block
        if not numbers_on(end):
            continue
    return {}, ""
