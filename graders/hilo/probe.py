"""Runs inside the student's process, lent to it function by function (``calls.lent_source``).

The grader's calls import it and pass the student's module ``m``; every function returns
plain data (what each call returned or raised, the game's attributes after every step), which
the grader judges in its own process. It uses only the standard library and must run on the
student's Python.
"""
import copy

SUITS = ["Clubs", "Diamonds", "Hearts", "Spades"]
RULES = {1: "Ace", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
         10: "10", 11: "Jack", 12: "Queen", 13: "King"}


class KitCard:
    """The handout's Card, put in the student's game when their own Card does not work."""

    def __init__(self, value_rules, value, suit):
        self.value_rules, self.value, self.suit = value_rules, value, suit

    @property
    def rank(self):
        return self.value_rules[self.value]

    def __eq__(self, other):
        return (isinstance(other, KitCard) and self.value == other.value
                and self.rank == other.rank and self.suit == other.suit)

    def __str__(self):
        return self.rank if self.suit == "" else f"{self.rank} of {self.suit}"

    def __repr__(self):
        return f"Card({self.rank}, {self.suit}, {self.value})"


def attempt(function):
    """[value, None] (as plain data), or [None, 'Error: message'] when the call raised."""
    value, error = call(function)
    return [plain(value), error]


def call(function):
    """(what function() returned, None), or (None, 'Error: message') when it raised."""
    try:
        return function(), None
    except Exception as exc:        # noqa: BLE001 - the student's code may raise anything
        return None, f"{type(exc).__name__}: {exc}"[:300]


def plain(value):
    """A value the grader can read: JSON types stay, anything else becomes its repr."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, list) and len(value) < 10:
        return [plain(item) for item in value]
    try:
        return {"repr": repr(value)[:200], "type": type(value).__name__}
    except Exception:               # noqa: BLE001
        return {"repr": "?", "type": type(value).__name__}


def available(m):
    """Which of the required names the module defines."""
    game = getattr(m, "HiLo_Game", None)
    card = getattr(m, "Card", None)
    return {"Card": isinstance(card, type),
            "generate_deck": callable(getattr(m, "generate_deck", None)),
            "HiLo_Game": isinstance(game, type), "logic": callable(getattr(game, "logic", None)),
            "Card.random": callable(getattr(card, "random", None)),
            "main": callable(getattr(m, "main", None))}


def card_facts(m, value, suit, rules=None):
    """Everything the card item compares about Card(rules, value, suit)."""
    rules = RULES if rules is None else rules
    card, error = call(lambda: m.Card(rules, value, suit))
    if error:
        return {"error": error}
    other_suit = SUITS[(SUITS.index(suit) + 1) % 4] if suit in SUITS else "Clubs"
    other_value = next((key for key in rules if key != value), None)
    return {
        "value": attempt(lambda: card.value), "suit": attempt(lambda: card.suit),
        "value_rules": attempt(lambda: card.value_rules == rules),
        "rank": attempt(lambda: card.rank), "str": attempt(lambda: str(card)),
        "repr": attempt(lambda: repr(card)),
        "eq_twin": attempt(lambda: card == m.Card(rules, value, suit)),
        "ne_twin": attempt(lambda: card != m.Card(rules, value, suit)),
        "eq_other_suit": attempt(lambda: card == m.Card(rules, value, other_suit)),
        "eq_other_value": attempt(lambda: card == m.Card(rules, other_value, suit))
        if other_value is not None else [False, None],
        "eq_text": attempt(lambda: card == str(card)),
        "eq_none": attempt(lambda: card == None),        # noqa: E711 - what == does is tested
    }


def random_cards(m, rules, count):
    """count cards from Card.random(rules): [value, suit, is a Card, error] each."""
    drawn = []
    for _ in range(count):
        card, error = call(lambda: _card_view(m.Card.random(rules), m.Card))
        drawn.append([plain(part) for part in card] + [None] if card else
                     [None, None, False, error])
    return drawn


def _card_view(card, card_class):
    return [getattr(card, "value", None), getattr(card, "suit", None),
            isinstance(card, card_class)]


def deck(m, rules, *args):
    """generate_deck(rules, *args): the type of the result and every card's facts."""
    made, error = call(lambda: m.generate_deck(rules, *args))
    if error:
        return {"error": error}
    cards = []
    for card in list(made)[:200] if isinstance(made, (list, tuple)) else []:
        view = _card_view(card, m.Card)
        rank, rank_error = attempt(lambda: card.value_rules[card.value])
        cards.append([plain(part) for part in view] + [rank if not rank_error else None])
    return {"type": type(made).__name__, "cards": cards}


def deck_order(m):
    """The order of generate_deck(RULES), as [value, suit] pairs (for loading cards)."""
    return [[getattr(card, "value", None), getattr(card, "suit", None)]
            for card in m.generate_deck(RULES)]


def card_class(m):
    """The student's Card if it keeps a value and a suit and can be shown (the game may rely
    on its own methods), else the kit's. What str() shows is judged as the game shows it."""
    try:
        card = m.Card(RULES, 12, "Hearts")
        if (card.value, card.suit) == (12, "Hearts") and isinstance(str(card), str):
            return m.Card
    except Exception:               # noqa: BLE001
        pass
    return KitCard


def play(m, bet, steps):
    """A HiLo_Game(bet) driven through steps; the game's state after each.

    Steps: ["cards", [value, suit], [value, suit]] puts a visible and a hidden card in the
    game; ["say", text] calls logic(text) (logic() for None); ["win", guess] says the guess
    the game itself treats as right, preferring ``guess``.
    """
    maker = card_class(m)
    record = {"kit_card": maker is KitCard, "states": []}
    game, error = call(lambda: m.HiLo_Game(bet))
    said = "new"
    if error and error.startswith("TypeError"):
        # the walkthrough's HiLo_Game(user, bet_amount): tested anyway, one rule lost
        game, second_error = call(lambda: m.HiLo_Game("Player", bet))
        error, said = (error, said) if second_error else (None, "new with a player")
    if error:
        record["error"] = error
        return record
    record["states"].append(state(game, said, None, None))
    for step in steps:
        if step[0] == "cards":
            game.card_visible = maker(RULES, step[1][0], step[1][1])
            game.card_hidden = maker(RULES, step[2][0], step[2][1])
            record["states"].append(dict(state(game, None, None, None), set=True))
            continue
        text = step[1]
        if step[0] == "win":
            text = winning_guess(game, text)
        returned, error = attempt(lambda: game.logic() if text is None else game.logic(text))
        record["states"].append(state(game, text, returned, error))
    return record


def winning_guess(game, preferred):
    """The guess the game treats as right: the preferred one, unless only the other wins."""
    other = "lower" if preferred.strip().lower() == "higher" else "higher"
    if _wins(game, preferred) is False and _wins(game, other):
        return other
    return preferred


def _wins(game, guess):
    """Does a copy of the game accept 'pass' after this guess (so it counted as right)?"""
    try:
        trial = copy.deepcopy(game)
        trial.logic(guess)
        return trial.logic("pass") is not None
    except Exception:               # noqa: BLE001
        return None


def state(game, said, returned, error):
    """The attributes the grader reads, after one step."""
    return {"said": said, "returned": returned, "error": error,
            "stage": attempt(lambda: game.stage)[0],
            "bet": attempt(lambda: game.bet_amount)[0],
            "visible": _shown(getattr(game, "card_visible", None)),
            "hidden": _shown(getattr(game, "card_hidden", None))}


def _shown(card):
    """[value, suit, str(card)] of a game's card (None for what cannot be read)."""
    if card is None:
        return None
    return [attempt(lambda: card.value)[0], attempt(lambda: card.suit)[0],
            attempt(lambda: str(card))[0]]
