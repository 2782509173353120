"""Playing cards as the grader sees them: values 1 (Ace) to 13 (King), four suits, and the
card names a program prints ("Queen of Hearts", "10 of Clubs", "Q♥").

Nothing here is particular to HiLo: a grader of any card game can read cards with it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

RANKS = {1: "Ace", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
         10: "10", 11: "Jack", 12: "Queen", 13: "King"}
SUITS = ("Clubs", "Diamonds", "Hearts", "Spades")
SYMBOLS = {"♣": "Clubs", "♦": "Diamonds", "♥": "Hearts", "♠": "Spades",
           "♧": "Clubs", "♢": "Diamonds", "♡": "Hearts", "♤": "Spades"}
RANK_WORDS = {name.lower(): value for value, name in RANKS.items()}
RANK_WORDS.update({"a": 1, "j": 11, "q": 12, "k": 13, "t": 10})
SUIT_WORDS = {suit.lower(): suit for suit in SUITS}
SUIT_WORDS.update({suit[0].lower(): suit for suit in SUITS})
SUIT_WORDS.update(SYMBOLS)

_RANK = r"(ace|king|queen|jack|10|[2-9]|[akqj])"
_SUIT = r"(clubs|diamonds|hearts|spades|[♣♦♥♠♧♢♡♤])"
CARD_IN_TEXT = re.compile(rf"\b{_RANK}\s*(?:of\s+)?{_SUIT}", re.I)


@dataclass(frozen=True)
class PlayingCard:
    """A card's value (1..13) and suit (None when a program did not say)."""

    value: int
    suit: str | None = None

    def __str__(self) -> str:
        return f"{RANKS.get(self.value, self.value)} of {self.suit}" if self.suit \
            else RANKS.get(self.value, str(self.value))


def parse_rank(text: str) -> int | None:
    """The value of a rank name ('Queen', 'q', '10'), or None."""
    return RANK_WORDS.get(str(text).strip().lower())


def parse_suit(text: str) -> str | None:
    """The suit of a suit name or symbol ('hearts', '♥', 'H'), or None."""
    return SUIT_WORDS.get(str(text).strip().lower())


def parse_card(text: str) -> PlayingCard | None:
    """A whole string naming one card ('Queen of Hearts', 'Q♥', 'QH', '10 of clubs')."""
    text = str(text).strip()
    match = CARD_IN_TEXT.fullmatch(text)
    if match:
        return PlayingCard(RANK_WORDS[match.group(1).lower()], SUIT_WORDS[match.group(2).lower()])
    compact = re.fullmatch(r"(10|[2-9AKQJT])([CDHS])", text, re.I)
    if compact:
        return PlayingCard(RANK_WORDS[compact.group(1).lower()],
                           SUIT_WORDS[compact.group(2).lower()])
    return None


def find_cards(text: str) -> list[PlayingCard]:
    """Every card named in a piece of output, in order."""
    return [PlayingCard(RANK_WORDS[rank.lower()], SUIT_WORDS[suit.lower()])
            for rank, suit in CARD_IN_TEXT.findall(text)]


def standard_decks() -> list[list[PlayingCard]]:
    """The two usual orders of a 52-card deck: value by value, and suit by suit."""
    by_value = [PlayingCard(value, suit) for value in RANKS for suit in SUITS]
    by_suit = [PlayingCard(value, suit) for suit in SUITS for value in RANKS]
    return [by_value, by_suit]
