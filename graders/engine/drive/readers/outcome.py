"""Reading who won: a line with a word of winning ("wins", "won", "winner", "congratulations",
"beat") that names the winner, and not only the other player ("You beat the computer" names
the winner first; "The computer wins! You lose." is the computer's)."""
from __future__ import annotations

import re

WIN = re.compile(r"\bwins?\b|\bwon\b|winner|victor|congrat|champion|\bbeats?\b", re.I)


def winner_named(text: str, winner: re.Pattern, loser: re.Pattern) -> bool:
    """Whether a line of winning names ``winner`` (before ``loser``, if both are named). Where
    the two names overlap, the longer is the one meant: "Player 2 wins" names "Player 2",
    not the spelling "player" of the other side."""
    for line in text.splitlines():
        if not WIN.search(line):
            continue
        theirs = [match.span() for match in loser.finditer(line)]
        for found in winner.finditer(line):
            start, end = found.span()
            overlapping = [span for span in theirs if span[0] < end and start < span[1]]
            if any(span[1] - span[0] > end - start for span in overlapping):
                continue                    # the other side's longer name stands here
            apart = [span[0] for span in theirs if span not in overlapping]
            if not apart or start < apart[0]:
                return True
    return False
