"""Reading a score table a program printed, one label and its number a line:

    Ones                    3          | Yahtzee |  50 |          Upper bonus (63+): 35
    Chance: 26 points.                 sum upper section: 63      Grand total = 505

``rows``: a named row's number is the first whole number after its name (the dice or other
numbers may follow it: ``Ones 3 (of 5) [1, 6, 1, 6, 1]``). ``totals``: a line told by words
it must and must not hold (``upper`` but not ``bonus``) gives, from those words on, the
number after the last ``:`` or ``=``, else the last number (the label may hold a number:
``Bonus (63+): 35``). When a label shows on several lines, the last one counts (a table
printed after the game's messages). ``last_number``: a handout's 'the total is the last number
on its line', read on the last line with the word.
"""
from __future__ import annotations

import re

NUMBER = re.compile(r"-?\d+")


def name_pattern(name: str, spellings=()) -> re.Pattern:
    """A name as a whole word, any case, any spaces between its words; or any of its other
    ``spellings`` ("Computer", ("CPU", "comp")); a compiled pattern is taken as it is."""
    if isinstance(name, re.Pattern):
        return name
    words = [r"\s+".join(map(re.escape, spelled.split())) for spelled in (name, *spellings)]
    return re.compile(r"\b(?:" + "|".join(words) + r")\b", re.I)


def rows(text: str, names, avoid: dict[str, str] | None = None,
         spellings: dict[str, tuple[str, ...]] | None = None) -> dict[str, int]:
    """name -> the first number after the name on the last line that has one; a line
    matching ``avoid[name]`` is not that name's row. ``spellings[name]``: other ways the
    program may write the name ("You": ("your", "player")); the result is keyed by name."""
    found = {}
    for name in names:
        pattern = name_pattern(name, (spellings or {}).get(name, ()))
        avoided = (avoid or {}).get(name)
        for line in text.splitlines():
            spot = pattern.search(line)
            # the number after the name, not one in a name ("Robo-9000 wins, Robo-9000!")
            number = spot and NUMBER.search(pattern.sub(" ", line[spot.end():]))
            if number and not (avoided and re.search(avoided, line, re.I)):
                found[name] = int(number.group())
    return found


def totals(text: str, labels: dict[str, tuple[str, str]]) -> dict[str, int]:
    """label -> the number of the last line matching its (wanted, avoided) regular
    expressions (any case), read from where ``wanted`` matched: after the last ':' or '=',
    else the last number ('Round 2: +20, total now -20' is -20)."""
    found = {}
    for label, (wanted, avoided) in labels.items():
        for line in text.splitlines():
            if (spot := re.search(wanted, line, re.I)) and not re.search(avoided, line, re.I):
                line = line[spot.start():]
                after = re.split(r"[:=]", line)[1:]
                numbers = (NUMBER.findall(after[-1]) if after else [])[:1] or \
                    NUMBER.findall(line)[-1:]
                found.update({label: int(numbers[0])} if numbers else {})
    return found


def last_number(text: str, words: str) -> int | None:
    """The last number on the last line matching ``words`` (a regular expression, any case);
    None when that line has no number. A handout's rule such as 'the total is the last number
    on its line' ('Total: was 20, now 30' is 30)."""
    for line in reversed(text.splitlines()):
        if re.search(words, line, re.I):
            numbers = NUMBER.findall(line)
            return int(numbers[-1]) if numbers else None
    return None


def columns(text: str, names, spellings: dict[str, tuple[str, ...]] | None = None) \
        -> dict[str, int]:
    """Scores in columns: a line naming every name (in any order) with the numbers on the
    next line that has as many, in the same order ("  You   Computer" over "   12     20",
    in a box or not); the last such pair counts. name -> its number ({} when there is none)."""
    patterns = {name: name_pattern(name, (spellings or {}).get(name, ())) for name in names}
    table = sideways(text.splitlines(), patterns)
    return table[2] if table else {}


def sideways(lines: list[str], patterns: dict[str, re.Pattern]) \
        -> tuple[int, int, dict[str, int]] | None:
    """A table turned sideways: a line naming everyone (``patterns``: name -> how it is
    written) and no other number, then, past any border ("+------+"), a line holding one
    number for each, in the same order. The last such pair: (index of the names' line, index
    of the numbers' line, name -> number), or None. Where two names overlap ("Chip Bot",
    "Chip"), the longer takes its place first; a name may hold digits ("Player 2")."""
    found = None
    longest_first = sorted(patterns, key=len, reverse=True)
    for at, line in enumerate(lines):
        spots: dict[str, tuple[int, int]] = {}
        for name in longest_first:
            spot = next((match.span() for match in patterns[name].finditer(line)
                         if not any(a < match.end() and match.start() < b
                                    for a, b in spots.values())), None)
            if spot is None:
                break
            spots[name] = spot
        if len(spots) < len(patterns):
            continue                            # (most lines: not everyone is named)
        unnamed = line
        for pattern in patterns.values():
            unnamed = pattern.sub(" ", unnamed)
        if NUMBER.search(unnamed):
            continue
        below = next((index for index in range(at + 1, min(at + 4, len(lines)))
                      if re.search(r"\w", lines[index])), None)
        numbers = NUMBER.findall(lines[below]) if below is not None else []
        if len(numbers) == len(patterns):
            order = sorted(patterns, key=lambda name: spots[name][0])
            found = (at, below, {name: int(number) for name, number in zip(order, numbers)})
    return found


def together(text: str, spellings: dict[str, tuple[str, ...]]) -> dict[str, int]:
    """Scores on one line naming every player, each with a number after the name ("Scores:
    You 17, HAL 115"); the last such line counts ({} when there is none)."""
    found = {}
    for line in text.splitlines():
        spots = {name: name_pattern(name, spelled).search(line)
                 for name, spelled in spellings.items()}
        if not all(spots.values()):
            continue
        starts = sorted((spot.end(), name) for name, spot in spots.items())
        ends = [start for start, _ in starts[1:]] + [len(line)]
        numbers = {name: NUMBER.search(line[start:end])
                   for (start, name), end in zip(starts, ends)}
        if all(numbers.values()):
            found = {name: int(number.group()) for name, number in numbers.items()}
    return found


def scores(text: str, spellings: dict[str, tuple[str, ...]], avoid: str = "") -> dict[str, int]:
    """Players' scores shown last: in columns, else on one line naming them all
    (``together``: a board beats a message such as "The computer reached 100 points"), else
    each name's row (``rows``; a line matching ``avoid`` is no score line: "You rolled 4").
    ``spellings``: name -> its other spellings; name -> score for the names found."""
    return columns(text, list(spellings), spellings) or together(text, spellings) or \
        rows(text, list(spellings), {name: avoid for name in spellings} if avoid else None,
             spellings)
