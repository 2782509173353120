"""Reading who won: a line with a word of winning ("wins", "won", "winner", "congratulations",
"beat") that names the winner, and not only the other player ("You beat the computer" names
the winner first; "The computer wins! You lose." is the computer's)."""
from __future__ import annotations

import re

WIN = re.compile(r"\bwins?\b|\bwon\b|winner|victor|congrat|champion|\bbeats?\b", re.I)


def winner_named(text: str, winner: re.Pattern, loser: re.Pattern) -> bool:
    """Whether a line of winning names ``winner`` (before ``loser``, if both are named)."""
    for line in text.splitlines():
        if WIN.search(line) and (found := winner.search(line)):
            other = loser.search(line)
            if other is None or found.start() < other.start():
                return True
    return False
