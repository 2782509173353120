"""Pig: a dice game against the computer. The first player to reach 100 points wins."""
import random

GOAL = 100
COMPUTER_HOLDS_AT = 20


def roll_die():
    """One roll of a six-sided die."""
    return random.randint(1, 6)


def show_scores(scores):
    """Both players' scores on one line."""
    print(f"Scores: You {scores['You']}, Computer {scores['Computer']}")


def wants_to_roll():
    """Ask until the player types r (roll again) or h (hold); True for roll."""
    while True:
        answer = input("Roll again or hold? (r/h) ").strip().lower()
        if answer in ("r", "h"):
            return answer == "r"
        print("Please type r to roll or h to hold.")


def player_turn():
    """The player's turn: the points it banks (0 after a 1)."""
    turn_total = 0
    while True:
        die = roll_die()
        if die == 1:
            print("You rolled a 1! You lose the turn total.")
            return 0
        turn_total += die
        print(f"You rolled {die}. Turn total: {turn_total}")
        if not wants_to_roll():
            print(f"You hold and bank {turn_total} points.")
            return turn_total


def computer_turn():
    """The computer rolls until its turn total is 20 or more (it holds) or it rolls a 1."""
    turn_total = 0
    while turn_total < COMPUTER_HOLDS_AT:
        die = roll_die()
        if die == 1:
            print("The computer rolled a 1 and loses its turn total.")
            return 0
        turn_total += die
        print(f"The computer rolled {die}. Turn total: {turn_total}")
    print(f"The computer holds and banks {turn_total} points.")
    return turn_total


def main():
    """Turns in order, you first, until someone reaches the goal."""
    scores = {"You": 0, "Computer": 0}
    print(f"Welcome to Pig! The first to {GOAL} points wins.")
    show_scores(scores)
    while True:
        print("\nYour turn.")
        scores["You"] += player_turn()
        show_scores(scores)
        if scores["You"] >= GOAL:
            print("You win!")
            return
        print("\nThe computer's turn.")
        scores["Computer"] += computer_turn()
        show_scores(scores)
        if scores["Computer"] >= GOAL:
            print("The computer wins!")
            return


if __name__ == "__main__":
    main()
