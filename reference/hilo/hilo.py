"""HiLo: guess whether the face-down card is higher or lower than the card you can see.

Reference solution.

Student 1: name Reference Solution, email staff@example.edu, student number 0000000
"""
import random

SUITS = ["Clubs", "Diamonds", "Hearts", "Spades"]
STARTING_PURSE = 100
QUIT_WORD = "quit"


class Card:
    """One playing card: a value, a suit, and the rules that name its rank."""

    suits = SUITS

    def __init__(self, value_rules, value, suit):
        """Store the value-to-rank rules, the card's value and its suit."""
        self.value_rules = value_rules
        self.value = value
        self.suit = suit

    @property
    def rank(self):
        """The name of the card's rank, e.g. 'Queen' for the value 12."""
        return self.value_rules[self.value]

    def __eq__(self, other):
        """Two cards are equal when they have the same value, rank and suit."""
        return (isinstance(other, Card) and self.value == other.value
                and self.rank == other.rank and self.suit == other.suit)

    def __str__(self):
        """'Queen of Hearts', or just the rank for a card without a suit (a Joker)."""
        if self.suit == "":
            return self.rank
        return f"{self.rank} of {self.suit}"

    def __repr__(self):
        """The rank, suit and value, e.g. Card(Queen, Hearts, 12)."""
        return f"Card({self.rank}, {self.suit}, {self.value})"

    @staticmethod
    def random(value_rules):
        """A card with a random value from the rules and a random suit."""
        value = random.choice(list(value_rules.keys()))
        suit = random.choice(SUITS)
        return Card(value_rules, value, suit)


def generate_deck(value_rules, jokers=0, joker_value=0):
    """Every card of the rules in every suit, then the given number of Jokers."""
    deck = [Card(value_rules, value, suit) for value in value_rules for suit in SUITS]
    for _ in range(jokers):
        deck.append(Card({joker_value: "Joker"}, joker_value, ""))
    return deck


class HiLo_Game:
    """One bet: guess the face-down card, then double or pass after every right guess."""

    value_rules = {1: "Ace", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8",
                   9: "9", 10: "10", 11: "Jack", 12: "Queen", 13: "King"}
    responses = {"start": [None], "guess": ["higher", "lower"],
                 "choose": ["double", "pass"], "over": []}

    def __init__(self, bet_amount):
        """A new game staking bet_amount dollars, with two cards already dealt."""
        self.bet_amount = int(bet_amount)
        self.stage = "start"
        self.card_hidden = None
        self.card_visible = None
        self._new_cards()

    def _new_cards(self):
        """Deal two cards; the face-down one is dealt again until the values differ."""
        self.card_hidden = Card.random(self.value_rules)
        self.card_visible = Card.random(self.value_rules)
        while self.card_hidden.value == self.card_visible.value:
            self.card_hidden = Card.random(self.value_rules)

    def _question(self):
        """The question shown while the player must guess."""
        return (f"Is the face-down card higher or lower than the {self.card_visible}? "
                f"(${self.bet_amount} at stake)")

    def logic(self, answer=None):
        """Play one step of the game; the text to show, or None if the answer is not valid."""
        if answer is not None:
            answer = answer.strip().lower()
        if answer not in self.responses[self.stage]:
            return None
        if self.stage == "start":
            self.stage = "guess"
            return self._question()
        if self.stage == "guess":
            return self._judge_guess(answer)
        if answer == "double":
            self._new_cards()
            self.bet_amount *= 2
            self.stage = "guess"
            return self._question()
        self.stage = "over"
        return f"You take ${self.bet_amount * 2}. It goes into your purse."

    def _judge_guess(self, guess):
        """The text after a guess; moves to 'choose' after a right guess, else 'over'."""
        hidden, visible = self.card_hidden, self.card_visible
        right = (hidden.value > visible.value) if guess == "higher" \
            else (hidden.value < visible.value)
        verdict = "is" if right else "is not"
        text = f"The face-down card was the {hidden}: it {verdict} {guess} than the {visible}.\n"
        if right:
            self.stage = "choose"
            return text + (f"You won ${self.bet_amount * 2}! Type double to stake it on new "
                           "cards (double or nothing), or pass to take it.")
        self.stage = "over"
        return text + f"You lost ${self.bet_amount}."


def ask_bet(purse):
    """Ask for a bet from 1 to the purse; returns the bet, or None when the player quits."""
    while True:
        answer = input(f"Your bet (1-{purse}), or {QUIT_WORD} to stop: ").strip()
        if answer.lower() == QUIT_WORD:
            return None
        if answer.lstrip("-").isdigit() and 1 <= int(answer) <= purse:
            return int(answer)
        print(f"A bet is a whole number of dollars from 1 to {purse}.")


def play_hand(bet):
    """Play one bet to its end; returns what the hand pays into the purse."""
    game = HiLo_Game(bet)
    print(game.logic())
    while game.stage != "over":
        if game.stage == "guess":
            answer = input("higher or lower? ")
        else:
            answer = input("double or pass? ")
        response = game.logic(answer)
        if response is None:
            print(f"Please type one of: {', '.join(game.responses[game.stage])}.")
            continue
        print(response)
        if answer.strip().lower() == "pass":
            return game.bet_amount * 2
    return 0


def main():
    """Play bets until the player quits or the purse is empty, then sum up."""
    purse = STARTING_PURSE
    hands = 0
    print(f"Welcome to HiLo! You start with ${purse}.")
    while purse > 0:
        print(f"Purse: ${purse}")
        bet = ask_bet(purse)
        if bet is None:
            break
        hands += 1
        purse = purse - bet + play_hand(bet)
    if purse == 0:
        print("Your purse is empty.")
    print(f"Hands played: {hands}. Final purse: ${purse} (you started with "
          f"${STARTING_PURSE}).")


if __name__ == "__main__":
    main()
