"""Yahtzee - assignment 4.

Student 1: name Tomas Lindqvist, email tlindqvist@example.edu, student number 20230077
"""
import random

CATEGORIES = ["Ones", "Twos", "Threes", "Fours", "Fives", "Sixes", "Three Of A Kind",
              "Four Of A Kind", "Full House", "Small Straight", "Large Straight", "Yahtzee",
              "Chance"]
FACES = [1, 2, 3, 4, 5, 6]


def roll_one():
    """One die."""
    return random.choice(FACES)


def roll_five():
    """Five new dice."""
    return [roll_one() for _ in range(5)]


def reroll(dice, keep_answer):
    """Roll five new dice and put back the ones the player keeps."""
    new_dice = roll_five()
    keep_answer = keep_answer.upper()
    for position, letter in enumerate("ABCDE"):
        if letter in keep_answer:
            new_dice[position] = dice[position]
    return new_dice


def show(dice):
    """Print the dice with their letters."""
    print("  ".join(f"{letter}:{value}" for letter, value in zip("abcde", dice)))


def tally(dice):
    """How often each face shows, e.g. {6: 2, 3: 3}."""
    table = {}
    for value in dice:
        table[value] = table.get(value, 0) + 1
    return table


def is_three_of_a_kind(dice):
    """Three or more alike."""
    return any(amount >= 3 for amount in tally(dice).values())


def is_four_of_a_kind(dice):
    """Four or more alike."""
    return any(amount >= 4 for amount in tally(dice).values())


def is_full_house(dice):
    """A triple and a pair of another value."""
    return sorted(tally(dice).values()) == [2, 3]


def has_run(dice, length):
    """True when the dice have `length` values in a row."""
    values = sorted(set(dice))
    best = run = 1
    for before, after in zip(values, values[1:]):
        run = run + 1 if after == before + 1 else 1
        best = max(best, run)
    return best >= length


def is_small_straight(dice):
    """Four in a row."""
    return has_run(dice, 4)


def is_large_straight(dice):
    """Five in a row."""
    return has_run(dice, 5)


def is_yahtzee(dice):
    """Five alike."""
    return len(tally(dice)) == 1


def joker_allowed(dice, history):
    """A yahtzee whose upper box and the Yahtzee box are both filled."""
    return is_yahtzee(dice) and "Yahtzee" in history and CATEGORIES[dice[0] - 1] in history


def calculate_score(dice, name_of_option, history):
    """Points for the dice in one category."""
    position = CATEGORIES.index(name_of_option)
    if position < 6:
        return sum(value for value in dice if value == position + 1)
    checks = {"Three Of A Kind": (is_three_of_a_kind, sum(dice)),
              "Four Of A Kind": (is_four_of_a_kind, sum(dice)),
              "Full House": (is_full_house, 25),
              "Small Straight": (is_small_straight, 30),
              "Large Straight": (is_large_straight, 40),
              "Yahtzee": (is_yahtzee, 50),
              "Chance": (lambda anything: True, sum(dice))}
    test, points = checks[name_of_option]
    if test(dice):
        return points
    if name_of_option in ("Full House", "Small Straight", "Large Straight"):
        if joker_allowed(dice, history):
            return points
    return 0


def calculate_final_scores(history):
    """Upper sum, upper bonus, lower sum, Yahtzee bonus."""
    upper = sum(points for name, (points, dice) in history.items()
                if CATEGORIES.index(name) < 6)
    lower = sum(points for name, (points, dice) in history.items()
                if CATEGORIES.index(name) >= 6)
    names = list(history)
    yahtzee_bonus = 0
    if history.get("Yahtzee", (0, []))[0] == 50:
        filled_at = names.index("Yahtzee")
        for name in names[filled_at + 1:]:
            if is_yahtzee(history[name][1]):
                yahtzee_bonus += 100
    upper_bonus = 35 if upper >= 63 else 0
    return upper, upper_bonus, lower, yahtzee_bonus


def ask_keep():
    """The keep question."""
    return input("Which dice do you want to keep? ")


def ask_category(dice, history):
    """Ask until an open category number is given."""
    for number, name in enumerate(CATEGORIES, 1):
        if name not in history:
            print(f"  {number:2d} {name:16s} -> {calculate_score(dice, name, history)}")
    while True:
        answer = input("Pick a category (1-13): ").strip()
        if answer.isdigit() and 1 <= int(answer) <= 13:
            name = CATEGORIES[int(answer) - 1]
            if name not in history:
                return name
            print(name, "is already filled in.")
        else:
            print("Type a number from 1 to 13.")


def play_turn(turn, history):
    """One round: three throws, then a category."""
    print(f"\n--- Turn {turn}/13 ---")
    dice = roll_five()
    show(dice)
    for _ in range(2):
        dice = reroll(dice, ask_keep())
        show(dice)
    name = ask_category(dice, history)
    history[name] = (calculate_score(dice, name, history), dice)
    print("Score:", history[name][0])


def print_table(history):
    """The final score sheet."""
    upper, bonus, lower, yahtzee_bonus = calculate_final_scores(history)
    print("\nFINAL SCORE SHEET")
    for name in CATEGORIES[:6]:
        print(f"{name}: {history[name][0]}")
    print(f"Upper total: {upper}")
    print(f"Bonus: {bonus}")
    for name in CATEGORIES[6:]:
        print(f"{name}: {history[name][0]}")
    print(f"Lower total: {lower}")
    print(f"Yahtzee bonus: {yahtzee_bonus}")
    print(f"TOTAL: {upper + bonus + lower + yahtzee_bonus}")


def main():
    """Thirteen turns and the score sheet."""
    history = {}
    for turn in range(1, 14):
        play_turn(turn, history)
    print_table(history)


if __name__ == "__main__":
    main()
