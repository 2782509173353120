"""Reading name/number standings such as ``Ann: 7 chips``, ``| Mo | 10 |`` or
``Chips -> Ann: 10 | Mo: 9``: each known name takes the first whole number after it on its line.
"""
from __future__ import annotations

import re


TRANSFER = re.compile(r"\b(give|gives|gave|pay|pays|paid|receive|receives|received|get|gets|"
                      r"got|take|takes|took|collect|collects|owe|owes|lose|loses|lost|gain|"
                      r"gains|gained|win|wins|won|from|to)\b", re.I)


def numbers_by_name(line: str, names: list[str]) -> dict[str, int]:
    """Each name's number on a standings line; nothing from a line about a transfer
    ("Mo gives Ann 3 chips")."""
    if TRANSFER.search(line):
        return {}
    spots = sorted((m.start(), m.end(), name) for name in names
                   for m in re.finditer(r"(?<!\w)" + re.escape(name) + r"(?!\w)", line, re.I))
    found: dict[str, int] = {}
    for i, (_, end, name) in enumerate(spots):
        stop = spots[i + 1][0] if i + 1 < len(spots) else len(line)
        number = NEXT_NUMBER.match(line[end:stop])
        if number and name not in found:
            found[name] = int(number.group(1))
    return found


# After a name: punctuation, a short note in brackets, and a few linking words, then the number
# ("Ann: 7", "| Mo | 10", "Mo has 7 chips", "Mo (you) - 7"); not "Mo's turn: up to 3 rolls".
NEXT_NUMBER = re.compile(r"(?:\s*\((?!\s*-?\d)[^)]{0,12}\))?[^\w\d-]{0,30}"
                         r"(?:(?:now\s+)?(?:has|have|with|holds|chips?|total|count)\b"
                         r"[^\w\d-]{0,6})*(-?\d+)(?![\w.])(?!\s*[,-]?\s*\d)"
                         r"(?!\s*(?:points?|pts|rolls?|times?)\b)", re.I)


def last_standings(text: str, names: list[str], window: int = 14) -> tuple[dict[str, int], str]:
    """The last block of lines giving every name a number (and the lines themselves).

    Returns ({}, "") when no block within ``window`` lines names everyone.
    """
    lines = text.split("\n")
    for end in range(len(lines) - 1, -1, -1):
        found: dict[str, int] = {}
        used: list[int] = []
        for index in range(end, max(-1, end - window), -1):
            got = numbers_by_name(lines[index], names)
            new = {n: v for n, v in got.items() if n not in found}
            if new:
                found.update(new)
                used.append(index)
            if len(found) == len(names):
                block = "\n".join(lines[min(used):max(used) + 1])
                return found, block
        if not numbers_by_name(lines[end], names):
            continue
    return {}, ""
