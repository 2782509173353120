"""Numbers a program prints in words ("twenty chips", "one hundred sixty-four points"), read
as digits, so the readers of counts and totals see them as they see "20" and "164"."""
from __future__ import annotations

import re

ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
TEENS = ["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
         "eighteen", "nineteen"]
TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
VALUES = {word: n for n, word in enumerate(ONES)}
VALUES.update({word: 10 + n for n, word in enumerate(TEENS)})
VALUES.update({word: 20 + 10 * n for n, word in enumerate(TENS)})

_ONE = "|".join(ONES[1:])
# a number below a hundred in words ("seven", "seventeen", "twenty-one"), as a pattern
BELOW_100 = (rf"(?:{'|'.join(TENS)})(?:[-\s](?:{_ONE}))?|{'|'.join(TEENS)}|zero|{_ONE}")
# (the lookahead for a number word's first letter lets the search skip the other letters
# at once: three times faster on a transcript, the same matches)
_FIRST_LETTERS = "".join(sorted({word[0] for word in ONES + TEENS + TENS}))
NUMBER_WORDS = re.compile(rf"(?=[{_FIRST_LETTERS}])"
                          rf"\b(?:(?:{_ONE})\s+hundred(?:\s+(?:and\s+)?(?:{BELOW_100}))?|"
                          rf"{BELOW_100})\b", re.I)


def value(words: str) -> int:
    """The number some number words say: 'one hundred sixty-four' -> 164."""
    total = 0
    for word in re.split(r"[-\s]+", words.lower()):
        if word == "hundred":
            total *= 100
        elif word != "and":
            total += VALUES[word]
    return total


def in_digits(text: str) -> str:
    """The text with its numbers in words written in digits."""
    return NUMBER_WORDS.sub(lambda match: str(value(match.group())), text)
