"""Loaded cards: playing cards as the grader sees them, and draw policies that deal planned
cards (or planned values) whatever way a program draws them. Loaded dice are ``draws.py``'s
``ScriptedDice``.

Cards have values 1 (Ace) to 13 (King) and four suits; ``parse_card`` and ``find_cards`` read
the card names a program prints ("Queen of Hearts", "10 of Clubs", "Q♥").

``LoadedCards``: a program may draw a card in parts (a value, then a suit: ``random.choice``
of the value rules' keys, ``random.randint(1, 13)``, ``random.choice(SUITS)``,
``random.randint(0, 3)``) or whole, from a deck: ``random.choice(deck)``,
``random.sample(deck, 2)``, ``random.shuffle(deck)`` followed by ``pop()``, or
``deck[random.randint(0, len(deck) - 1)]``. Each request is recognised by its shape; a deck's
layout (which card sits where) is read from how the child describes its items (strings such as
"Queen of Hearts", or the suit of each card object), matched against decks the grader knows
(the program's own deck order, the two usual orders), and followed through the shuffles the
policy itself chooses and the cards it deals.

Cards are planned per *deal* (``start_deal(i)`` moves to the i-th; a grader calls it when the
program is about to deal, e.g. after a bet). A shuffle puts the planned cards at *both* ends
of the deck (same values, other suits at the back), so ``pop()`` and ``pop(0)`` deal the plan
alike. What cannot be recognised is answered by the seeded generator, as usual. Each draw's
typed event (``draws.Draw``) names the cards it dealt.

``ScriptedValues``: planned values for draws over one range of integers, e.g. card ranks
drawn with ``randint(2, 14)``, ``randrange(2, 15)`` or ``choice(range(2, 15))``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..run.draws import DrawPolicy

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


Layout = list  # of PlayingCard | None: the card at each position of a population
MIN_DECK = 14            # a population at least this big (and not all values) is a deck
REMEMBERED = 8           # layouts kept for later requests (after shuffles and deals)


class LoadedCards(DrawPolicy):
    """Deals planned cards; ``decks`` are deck orders the program is known to build (its
    generate_deck), tried when the items of a deck do not say which card is where."""

    def __init__(self, deals: list[list[PlayingCard]], decks: list[list[PlayingCard]] = (),
                 seed: int = 1):
        super().__init__(seed)
        self.deals = [list(deal) for deal in deals]
        self.decks = [list(deck) for deck in decks] + standard_decks()
        self.queue: list[PlayingCard] = [card for deal in self.deals for card in deal]
        self.partial: list | None = None      # [card, value given, suit given]
        self.dealt: list[PlayingCard | None] = []
        self.layouts: list[Layout] = []
        self.turn = 0                           # round robin over values not planned
        self._dealt_before = 0

    def cards_of(self, value) -> tuple:
        """The cards the last answer dealt."""
        return tuple(self.dealt[self._dealt_before:])

    # -------------------------------------------------------------- plan
    def start_deal(self, index: int) -> None:
        """The program is about to deal the index-th planned deal."""
        self.queue = [card for deal in self.deals[index:] for card in deal]
        self.partial = None

    def _next(self) -> PlayingCard | None:
        return self.queue.pop(0) if self.queue else None

    # -------------------------------------------------------------- answering
    def answer(self, event: dict) -> tuple[object, list[int]]:
        fn, req = event.get("fn"), event.get("req", {})
        self._dealt_before = len(self.dealt)
        try:
            value = self._answer(fn, req)
        except (KeyError, TypeError, ValueError, IndexError):
            value = None
        if value is None:
            return super().answer(event)
        return value, []

    def _answer(self, fn: str, req: dict):
        items, size = req.get("items"), req.get("n", 0)
        if fn in ("randint", "randrange"):
            return self._integer(fn, req)
        if fn not in ("choice", "choices", "sample", "shuffle") or not size:
            return None
        kind = population_kind(items, size)
        if kind == "values":
            return self._pick(fn, req, [self._value_index(items) for _ in
                                        range(_count(fn, req))])
        if kind == "value pairs":
            return self._pick(fn, req, [self._value(list(range(1, 14))) - 1
                                        for _ in range(_count(fn, req))])
        if kind == "suits":
            return self._pick(fn, req, [self._suit_index(items) for _ in
                                        range(_count(fn, req))])
        if kind != "deck":
            return None
        layout = self._layout(items, size)
        if layout is None:
            return None
        if fn == "shuffle":
            return self._shuffle(layout)
        picks: list[int] = []
        for _ in range(_count(fn, req)):
            index = self._deck_index(layout, avoid=picks if fn == "sample" else ())
            if index is None:
                return None
            picks.append(index)
        self._remember_deal(layout, picks if fn == "sample" else picks[-1:])
        return self._pick(fn, req, picks)

    @staticmethod
    def _pick(fn: str, req: dict, indexes: list[int | None]):
        if any(index is None for index in indexes):
            return None
        return indexes[0] if fn == "choice" else list(indexes)

    def _integer(self, fn: str, req: dict):
        low, high = req.get("a", 0), req.get("b", 0)
        if fn == "randrange":
            if req.get("step", 1) != 1:
                return None
            high -= 1
        if (low, high) in ((1, 13), (0, 12)):            # a value, or an index of ranks
            return self._value(list(range(1, 14))) - 1 + low
        if (low, high) in ((0, 3), (1, 4)):              # an index of the four suits
            return SUITS.index(self._suit()) + low
        if low == 0 and high + 1 >= MIN_DECK:            # an index into a deck
            layout = self._layout(None, high + 1)
            index = self._deck_index(layout) if layout else None
            if index is not None:
                self._remember_deal(layout, [index])
            return index
        return None

    # -------------------------------------------------------------- cards in parts
    def _value(self, allowed: list[int]) -> int:
        """The next card's value (a value draw starts a card unless its suit came first)."""
        if self.partial is None or self.partial[1]:
            self.partial = [self._next(), False, False]
        card = self.partial[0]
        self.partial[1] = True
        if card is not None and card.value in allowed:
            value = card.value
        else:
            value = allowed[self.turn % len(allowed)]
            self.turn += 1
        if self.partial[2] or card is None:
            self.dealt.append(PlayingCard(value, card and card.suit))
        return value

    def _suit(self) -> str:
        if self.partial is None or self.partial[2]:
            self.partial = [self._next(), False, False]
        card = self.partial[0]
        self.partial[2] = True
        suit = card.suit if card is not None and card.suit in SUITS else SUITS[self.turn % 4]
        if self.partial[1] and card is not None:
            self.dealt.append(card)
        return suit

    def _value_index(self, items: list) -> int:
        values = [_item_value(item) for item in items]
        value = self._value([v for v in values if v is not None])
        return values.index(value)

    def _suit_index(self, items: list) -> int:
        suits = [parse_suit(item) if isinstance(item, str) else None for item in items]
        return suits.index(self._suit())

    # -------------------------------------------------------------- decks
    def _layout(self, items: list | None, size: int) -> Layout | None:
        """Which card sits where: from the items themselves, else a known deck whose
        cards agree with what the items show."""
        described = [describe(item) for item in items] if items else []
        if described and len(described) == size and \
                all(isinstance(card, PlayingCard) for card in described):
            return described
        for layout in self.layouts + self.decks:
            if len(layout) == size and agrees(layout, described):
                return list(layout)
        return None

    def _deck_index(self, layout: Layout, avoid=()) -> int | None:
        """Where the next planned card lies (the same value will do)."""
        self.partial = None
        card = self._next()
        if card is None:
            return None
        index = find(layout, card, set(avoid))
        if index is not None:
            self.dealt.append(layout[index])
        return index

    def _remember_deal(self, layout: Layout, indexes: list[int]) -> None:
        """After a deal the program may remove the cards or keep them: remember both."""
        removed = [card for index, card in enumerate(layout) if index not in indexes]
        self._remember(layout)
        self._remember(removed)

    def _remember(self, layout: Layout) -> None:
        self.layouts = [layout] + [known for known in self.layouts
                                   if known is not layout][:REMEMBERED - 1]

    def _shuffle(self, layout: Layout) -> list[int]:
        """A permutation putting the planned cards first and (again) last."""
        size = len(layout)
        front: list[int] = []
        back: list[int] = []
        for card in self.queue[:size // 2]:
            index = find(layout, card, set(front))
            if index is None:
                break
            front.append(index)
        for card in self.queue[:size // 2]:
            index = find(layout, card, set(front) | set(back))
            if index is None:
                break
            back.append(index)
        rest = [index for index in range(size) if index not in front and index not in back]
        self.rng.shuffle(rest)
        order = front + rest + list(reversed(back))
        self._remember([layout[index] for index in order])
        self.partial = None
        return order


def _count(fn: str, req: dict) -> int:
    return req.get("k", 1) if fn in ("choices", "sample") else 1


def _item_value(item) -> int | None:
    if isinstance(item, int) and not isinstance(item, bool):
        return item if 1 <= item <= 13 else None
    return parse_rank(item) if isinstance(item, str) else None


def population_kind(items: list | None, size: int) -> str | None:
    """'values' (ints 1..13 or rank names), 'suits' (four suit names or symbols), 'deck'."""
    items = items or []
    if 2 <= size <= 13 and len(items) == size and \
            all(_item_value(item) is not None for item in items):
        return "values"
    if size == 13 and items == [{"type": "tuple"}] * 13:     # list(value_rules.items())
        return "value pairs"
    if size == 4 and all(isinstance(item, str) and parse_suit(item) for item in items):
        return "suits"
    if size >= MIN_DECK or any(isinstance(describe(item), PlayingCard) for item in items):
        return "deck"
    return None


def describe(item) -> PlayingCard | str | None:
    """What a population item says about its card: the card, only its suit, or nothing."""
    if isinstance(item, int) and not isinstance(item, bool):
        return PlayingCard(item) if 1 <= item <= 13 else None
    text = item.get("name") if isinstance(item, dict) else item
    if not isinstance(text, str):
        return None
    card = parse_card(text)
    if card is not None:
        return card
    value = parse_rank(text)
    if value is not None:
        return PlayingCard(value)
    return parse_suit(text)


def agrees(layout: Layout, described: list) -> bool:
    """Does a known layout fit what the items show (their cards, values or suits)?"""
    for card, seen in zip(layout, described):
        if seen is None or card is None:
            continue
        if isinstance(seen, str):
            if card.suit != seen:
                return False
        elif card.value != seen.value or (seen.suit and card.suit and card.suit != seen.suit):
            return False
    return True


def find(layout: Layout, card: PlayingCard, taken: set[int]) -> int | None:
    """The position of a card (or, failing that, of another card of the same value)."""
    same_value = None
    for index, here in enumerate(layout):
        if index in taken or here is None:
            continue
        if here.value == card.value:
            if here.suit == card.suit:
                return index
            if same_value is None:
                same_value = index
    return same_value


class ScriptedValues(DrawPolicy):
    """Answers draws over the integers ``low``..``high`` (``randint(low, high)``,
    ``randrange(low, high + 1)``, ``choice`` of exactly those values) with planned values in
    order; other draws, and draws after the plan, come from the seeded generator."""

    def __init__(self, values: list[int], low: int, high: int, seed: int = 1):
        super().__init__(seed)
        self.values, self.low, self.high = list(values), low, high

    def answer(self, event: dict) -> tuple[object, list[int]]:
        """The next planned value for a draw over the range, else the usual answer."""
        fn, req = event.get("fn"), event.get("req", {})
        if self.values and self._in_range(fn, req):
            value = self.values.pop(0)
            return (value - self.low if fn == "choice" else value), []
        return super().answer(event)

    def _in_range(self, fn: str, req: dict) -> bool:
        if fn == "randint":
            return (req.get("a"), req.get("b")) == (self.low, self.high)
        if fn == "randrange":
            return (req.get("a"), req.get("b"), req.get("step", 1)) == \
                (self.low, self.high + 1, 1)
        return fn == "choice" and req.get("items") == list(range(self.low, self.high + 1))
