# a5.py
#
# CMPT 120 - Assignment 5: PocoLoco
#
# Team members:
#   Priya Sandhu   psa123@sfu.ca   301456789
#   Daniel Okafor  dok12@sfu.ca    301467812
#
# One human player plays PocoLoco against three computer players.
# The first player to get rid of all their chips wins.

import random

COMPUTER_NAMES = ["Mo", "Barney", "Marge"]
MAX_ROLLS = 3

# Each die face is three rows of 5 characters that go between the "|" borders.
DIE_FACES = {
    1: ["     ", "  o  ", "     "],
    2: [" o   ", "     ", "   o "],
    3: [" o   ", "  o  ", "   o "],
    4: [" o o ", "     ", " o o "],
    5: [" o o ", "  o  ", " o o "],
    6: [" o o ", " o o ", " o o "],
}

# Points for each face when the roll is not a special roll.
FACE_POINTS = {1: 100, 2: 2, 3: 3, 4: 4, 5: 5, 6: 60}


def print_title_and_instructions():
    """Prints the game title and the rules, including the tie-break rule."""
    print("=" * 60)
    print("                 Welcome to PocoLoco!")
    print("=" * 60)
    print("You play against three computer players: Mo, Barney and Marge.")
    print("The goal is to LOSE all of your chips. The first player to")
    print("reach 0 chips wins the game.")
    print()
    print("Each round the playing order is shuffled. On your turn you roll")
    print("three dice up to 3 times and keep your last roll. The first")
    print("player may roll up to 3 times, and every player after that may")
    print("roll at most as many times as the player before them.")
    print()
    print("Rolls from best to worst:")
    print("  PoCo!            4 5 6 in any order")
    print("  Three-of-a-kind  6 6 6 is best, then 5 5 5, ... down to 1 1 1")
    print("  Loco!            1 2 3 in any order")
    print("  Points           1 = 100, 6 = 60, 2-5 = face value")
    print("                   (for example 1 4 6 = 164 points)")
    print()
    print("At the end of a round the player with the lowest roll gets chips")
    print("from everyone else: 1 chip if the best roll was a points total,")
    print("2 for a Loco!, 3 for a three-of-a-kind and 4 for a PoCo!")
    print("If you have fewer chips than you owe, you pay all you have.")
    print()
    print("Tie-break: if two or more players tie for the lowest (or the")
    print("highest) roll, the computer picks one of them at random, so")
    print("everybody has the same chance.")
    print("=" * 60)


def get_player_name():
    """Asks for the human's name until it is not empty or a computer name."""
    name = input("What is your name? ").strip()
    while name == "" or name in COMPUTER_NAMES:
        if name == "":
            print("Your name can't be empty.")
        else:
            print("That name is taken by a computer player, please pick another.")
        name = input("What is your name? ").strip()
    return name


def get_starting_chips():
    """Asks how many chips everyone starts with (a positive whole number)."""
    while True:
        answer = input("How many chips should each player start with? ").strip()
        if answer.isdigit() and int(answer) > 0:
            return int(answer)
        print("Please enter a whole number greater than 0.")


def ask_yes_no(prompt):
    """Keeps asking the prompt until the user types y or n."""
    answer = input(prompt).strip().lower()
    while answer not in ("y", "n"):
        print("Please type y or n.")
        answer = input(prompt).strip().lower()
    return answer == "y"


def print_round_box(round_number):
    """Prints the round number inside a box that fits the text exactly."""
    text = "Round " + str(round_number)
    border = "+" + "-" * (len(text) + 2) + "+"
    print()
    print(border)
    print("| " + text + " |")
    print(border)


def print_chip_counts(chips):
    """Prints every player's name and how many chips they have."""
    print("Chip counts:")
    for name in chips:
        print("  " + name + ": " + str(chips[name]))


def roll_dice():
    """Returns a list with three random dice values."""
    return [random.randint(1, 6), random.randint(1, 6), random.randint(1, 6)]


def draw_dice(dice):
    """Draws the three dice side by side."""
    border = "  ".join(["+-----+"] * len(dice))
    print(border)
    for row in range(3):
        line = ""
        for value in dice:
            line += "|" + DIE_FACES[value][row] + "|  "
        print(line.rstrip())
    print(border)


def is_poco(dice):
    return sorted(dice) == [4, 5, 6]


def is_loco(dice):
    return sorted(dice) == [1, 2, 3]


def is_three_of_a_kind(dice):
    return dice[0] == dice[1] == dice[2]


def points_total(dice):
    """Adds up the points of a normal (non-special) roll."""
    total = 0
    for value in dice:
        total += FACE_POINTS[value]
    return total


def roll_rank(dice):
    """Turns a roll into one number so that a bigger number is a better roll.
    Points totals are at most 260 (1 1 6), so the special rolls start at 500."""
    if is_poco(dice):
        return 700
    if is_three_of_a_kind(dice):
        return 600 + dice[0]
    if is_loco(dice):
        return 500
    return points_total(dice)


def describe_roll(dice):
    """Returns text like '1 4 6 (164 points)' or '4 5 6 (PoCo!)'."""
    numbers = " ".join(str(value) for value in dice)
    if is_poco(dice):
        return numbers + " (PoCo!)"
    if is_three_of_a_kind(dice):
        return numbers + " (three-of-a-kind)"
    if is_loco(dice):
        return numbers + " (Loco!)"
    return numbers + " (" + str(points_total(dice)) + " points)"


def plural(count, word):
    if count == 1:
        return str(count) + " " + word
    return str(count) + " " + word + "s"


def human_turn(name, max_rolls):
    """Lets the human roll up to max_rolls times. Returns (dice, rolls used)."""
    print()
    print(name + ", it's your turn! You may roll up to " + plural(max_rolls, "time") + ".")
    rolls_used = 0
    while True:
        dice = roll_dice()
        rolls_used += 1
        print("Roll " + str(rolls_used) + " of " + str(max_rolls) + ":")
        draw_dice(dice)
        print("You rolled " + describe_roll(dice))
        if rolls_used == max_rolls:
            print("That was your last roll.")
            break
        if not ask_yes_no("Roll again? (y/n) "):
            break
    return dice, rolls_used


def computer_should_roll_again(dice, rolls_left, earlier_ranks):
    """The computer strategy. earlier_ranks are the ranks of the players who
    already played this round."""
    if rolls_left == 0:
        return False
    # Nothing beats these (well, almost), so never throw them away.
    if is_poco(dice) or is_three_of_a_kind(dice):
        return False
    my_rank = roll_rank(dice)
    if len(earlier_ranks) == 0:
        # First player: nobody to compare with, so keep anything with a 1
        # in it (100+ points) or a Loco!, and roll again otherwise.
        return my_rank < 100
    lowest = min(earlier_ranks)
    if my_rank <= lowest:
        # We would be the lowest (or tied for it), so try again.
        return True
    # We are above the lowest. Stop if we are safely above it, otherwise
    # only roll again if the roll is weak (no 1 in it).
    if my_rank - lowest >= 40:
        return False
    return my_rank < 100


def computer_turn(name, max_rolls, earlier_ranks):
    """Plays a computer player's turn. Returns (dice, rolls used)."""
    print()
    print(name + "'s turn (up to " + plural(max_rolls, "roll") + ").")
    rolls_used = 0
    while True:
        dice = roll_dice()
        rolls_used += 1
        print(name + " roll " + str(rolls_used) + ": " + describe_roll(dice))
        draw_dice(dice)
        if not computer_should_roll_again(dice, max_rolls - rolls_used, earlier_ranks):
            break
        print(name + " decides to roll again.")
    print(name + " stops after " + plural(rolls_used, "roll") + ".")
    return dice, rolls_used


def chips_owed(best_dice):
    """How many chips everyone gives the loser, based on the best roll."""
    if is_poco(best_dice):
        return 4
    if is_three_of_a_kind(best_dice):
        return 3
    if is_loco(best_dice):
        return 2
    return 1


def pick_loser_and_winner(results):
    """Finds the lowest and highest roll. Ties are broken with random.choice.
    If everybody tied, the winner is picked from the players that did not lose."""
    ranks = {}
    for name in results:
        ranks[name] = roll_rank(results[name])
    lowest = min(ranks.values())
    highest = max(ranks.values())
    lowest_players = [name for name in ranks if ranks[name] == lowest]
    highest_players = [name for name in ranks if ranks[name] == highest]
    loser = random.choice(lowest_players)
    if loser in highest_players and len(highest_players) > 1:
        highest_players.remove(loser)
    winner = random.choice(highest_players)
    return loser, winner


def give_chips_to_loser(chips, loser, amount):
    """Everybody except the loser pays amount chips to the loser. A player who
    has fewer chips pays all they have, and the loser only gets what was paid."""
    for name in chips:
        if name != loser:
            payment = min(amount, chips[name])
            chips[name] -= payment
            chips[loser] += payment


def play_round(round_number, chips, human_name):
    """Plays one whole round and updates the chips dictionary."""
    print_round_box(round_number)
    print_chip_counts(chips)

    order = list(chips.keys())
    random.shuffle(order)
    print("Order this round: " + ", ".join(order))

    results = {}
    max_rolls = MAX_ROLLS
    for name in order:
        earlier_ranks = [roll_rank(dice) for dice in results.values()]
        if name == human_name:
            dice, rolls_used = human_turn(name, max_rolls)
        else:
            dice, rolls_used = computer_turn(name, max_rolls, earlier_ranks)
        results[name] = dice
        # the next player can't roll more times than this player did
        max_rolls = rolls_used

    print()
    print("Results of round " + str(round_number) + ":")
    for name in order:
        print("  " + name + ": " + describe_roll(results[name]))

    loser, winner = pick_loser_and_winner(results)
    amount = chips_owed(results[winner])
    print(winner + " had the best roll: " + describe_roll(results[winner]))
    print(loser + " had the lowest roll and gets " + plural(amount, "chip")
          + " from every other player.")
    give_chips_to_loser(chips, loser, amount)


def main():
    print_title_and_instructions()
    human_name = get_player_name()
    start_chips = get_starting_chips()

    chips = {human_name: start_chips}
    for name in COMPUTER_NAMES:
        chips[name] = start_chips

    round_number = 1
    while True:
        play_round(round_number, chips, human_name)
        players_at_zero = [name for name in chips if chips[name] == 0]
        if len(players_at_zero) > 0:
            break
        round_number += 1

    # If more than one player hit 0 in the same round we pick one at random,
    # just like our other tie-breaks.
    winner = random.choice(players_at_zero)
    print()
    print("*" * 50)
    print(winner + " has no chips left and WINS the game!")
    print("*" * 50)
    print("Final chip counts:")
    for name in chips:
        print("  " + name + ": " + str(chips[name]))
    print("Thanks for playing PocoLoco!")


if __name__ == "__main__":
    main()
