"""Yahtzee in the console: thirteen rounds of five dice, up to three throws a round.

Student 1: name Sam Brown, email sbrown@example.edu, student number 20235678
"""
import random

OPTIONS = ["Ones", "Twos", "Threes", "Fours", "Fives", "Sixes",
           "Three Of A Kind", "Four Of A Kind", "Full House", "Small Straight",
           "Large Straight", "Yahtzee", "Chance"]
UPPER_SECTION = OPTIONS[:6]
LETTERS = "abcde"
ROUNDS = 13
THROWS = 3
UPPER_BONUS = 35
UPPER_BONUS_NEEDS = 63
YAHTZEE_BONUS = 100
FIXED_SCORES = {"Full House": 25, "Small Straight": 30, "Large Straight": 40, "Yahtzee": 50}


def count_most_common(dice):
    """How many dice show the most common number."""
    return max(dice.count(number) for number in dice)


def is_three_of_a_kind(dice):
    """True when at least three of the five dice show the same number."""
    return count_most_common(dice) >= 3


def is_four_of_a_kind(dice):
    """True when at least four of the five dice show the same number."""
    return count_most_common(dice) >= 4


def is_full_house(dice):
    """True for three dice of one number and two of another (five alike is not one)."""
    counts = sorted(dice.count(number) for number in set(dice))
    return counts == [2, 3]


def is_small_straight(dice):
    """True when the dice hold four numbers in a row: 1-2-3-4, 2-3-4-5 or 3-4-5-6."""
    numbers = set(dice)
    return any({first, first + 1, first + 2, first + 3} <= numbers for first in (1, 2, 3))


def is_large_straight(dice):
    """True when the dice are 1-2-3-4-5 or 2-3-4-5-6 in any order."""
    return set(dice) in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})


def is_yahtzee(dice):
    """True when all five dice show the same number."""
    return len(set(dice)) == 1


def is_joker(dice, history):
    """True when a Yahtzee may stand in for a Full House or a straight: the Yahtzee box and
    the upper box of its number are both used already."""
    upper_box = UPPER_SECTION[dice[0] - 1]
    return is_yahtzee(dice) and "Yahtzee" in history and upper_box in history


def calculate_score(dice, name_of_option, history):
    """The points the five dice score in the named option, given the options played so far
    (history: option name -> (points, dice))."""
    if name_of_option in UPPER_SECTION:
        number = UPPER_SECTION.index(name_of_option) + 1
        return number * dice.count(number)
    if name_of_option == "Three Of A Kind":
        return sum(dice) if is_three_of_a_kind(dice) else 0
    if name_of_option == "Four Of A Kind":
        return sum(dice) if is_four_of_a_kind(dice) else 0
    if name_of_option == "Chance":
        return sum(dice)
    rules = {"Full House": is_full_house, "Small Straight": is_small_straight,
             "Large Straight": is_large_straight, "Yahtzee": is_yahtzee}
    if rules[name_of_option](dice):
        return FIXED_SCORES[name_of_option]
    if name_of_option != "Yahtzee" and is_joker(dice, history):
        return FIXED_SCORES[name_of_option]
    return 0


def calculate_final_scores(history):
    """(upper section sum, upper bonus, lower section sum, Yahtzee bonus) of a game."""
    upper_sum = 0
    lower_sum = 0
    yahtzee_bonus = 0
    bonus_allowed = False
    for option, (points, dice) in history.items():
        if option in UPPER_SECTION:
            upper_sum += points
        else:
            lower_sum += points
        if is_yahtzee(dice):
            if bonus_allowed:
                yahtzee_bonus += YAHTZEE_BONUS
            elif option == "Yahtzee" and points == 50:
                bonus_allowed = True
    upper_bonus = UPPER_BONUS if upper_sum >= UPPER_BONUS_NEEDS else 0
    return upper_sum, upper_bonus, lower_sum, yahtzee_bonus


def throw_dice(dice, kept):
    """Throw again every die whose position is not in kept (all of them when dice is empty)."""
    if not dice:
        return [random.randint(1, 6) for _ in range(5)]
    return [dice[place] if place in kept else random.randint(1, 6) for place in range(5)]


def letters_to_keep(answer):
    """The positions (0 to 4) named by the letters a to e in an answer, in any case; other
    characters and repeated letters are ignored."""
    return {LETTERS.index(letter) for letter in answer.lower() if letter in LETTERS}


def show_dice(dice, throw):
    """Print the throw number and the dice under their letters."""
    print(f"Throw {throw} of {THROWS}")
    print("   " + "  ".join(LETTERS))
    print("   " + "  ".join(str(number) for number in dice))


def play_round(round_number):
    """Throw the dice up to three times, keeping the dice the player names; return them."""
    print(f"\n======== Round {round_number} of {ROUNDS} ========")
    dice = throw_dice([], set())
    for throw in range(1, THROWS + 1):
        show_dice(dice, throw)
        if throw == THROWS:
            break
        answer = input("Letters of the dice to keep (Enter keeps none): ")
        dice = throw_dice(dice, letters_to_keep(answer))
    return dice


def choose_option(dice, history):
    """Show the open options with the points they would score; return the one chosen."""
    print("Options still open:")
    for number, option in enumerate(OPTIONS, start=1):
        if option not in history:
            points = calculate_score(dice, option, history)
            print(f"{number:>4}. {option:<16} {points:>3} points")
    while True:
        answer = input("Number of the option to score: ").strip()
        if not answer.isdigit() or not 1 <= int(answer) <= len(OPTIONS):
            print(f"Please type a number from 1 to {len(OPTIONS)}.")
            continue
        option = OPTIONS[int(answer) - 1]
        if option in history:
            print(f"{option} is used up already; choose another option.")
            continue
        return option


def print_score_table(history):
    """Print every option's points, the section sums, the bonuses and the final score."""
    upper_sum, upper_bonus, lower_sum, yahtzee_bonus = calculate_final_scores(history)
    print("\n======== Final score table ========")
    for option in OPTIONS:
        points = history[option][0] if option in history else 0
        print(f"{option:<20} {points:>4}")
        if option == "Sixes":
            print(f"{'Upper section sum':<20} {upper_sum:>4}")
            print(f"{'Upper bonus':<20} {upper_bonus:>4}")
    print(f"{'Lower section sum':<20} {lower_sum:>4}")
    print(f"{'Yahtzee bonus':<20} {yahtzee_bonus:>4}")
    total = upper_sum + upper_bonus + lower_sum + yahtzee_bonus
    print(f"{'Final score':<20} {total:>4}")


def main():
    """Play one game of thirteen rounds and show the final score table."""
    print("Welcome to Yahtzee!")
    history = {}
    for round_number in range(1, ROUNDS + 1):
        dice = play_round(round_number)
        option = choose_option(dice, history)
        points = calculate_score(dice, option, history)
        history[option] = (points, dice)
        print(f"{option}: {points} points.")
    print_score_table(history)


if __name__ == "__main__":
    main()
