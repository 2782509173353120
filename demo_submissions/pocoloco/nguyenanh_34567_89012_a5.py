# -----------------------------------------------------------------------------
# a5.py  -  PocoLoco
#
# Name:  Arjun Malhotra     Email: ama212@sfu.ca     Student #: 301533871
# Name:  Sofia Petrovic     Email: spe49@sfu.ca      Student #: 301540026
#
# CMPT 120 Assignment 5. One human against three computer players.
# We use colours (ANSI codes) and small pauses so the game is nicer to watch.
# -----------------------------------------------------------------------------

import random
import time

# one random number generator for the whole program
rng = random.Random()

# ANSI colour codes
RESET = "\033[0m"
BOLD = "\033[1m"
GREEN = "\033[1;32m"
YELLOW = "\033[1;33m"
CYAN = "\033[1;36m"
RED = "\033[1;31m"
MAGENTA = "\033[1;35m"

PAUSE = 0.5  # seconds between turns

COMPUTER_PLAYERS = ["Mo", "Barney", "Marge"]

# The rows inside each die (between the # borders). Regular dice patterns.
PIPS = {
    1: ["     ", "  *  ", "     "],
    2: [" *   ", "     ", "   * "],
    3: [" *   ", "  *  ", "   * "],
    4: [" * * ", "     ", " * * "],
    5: [" * * ", "  *  ", " * * "],
    6: [" * * ", " * * ", " * * "],
}


def show_title():
    print(MAGENTA + "*" * 50 + RESET)
    title = "P O C O L O C O   D I C E".center(48)
    print(MAGENTA + "*" + RESET + BOLD + title + RESET + MAGENTA + "*" + RESET)
    print(MAGENTA + "*" * 50 + RESET)


def show_rules():
    print(CYAN + "RULES" + RESET)
    print("- You play against Mo, Barney and Marge. The first player to lose")
    print("  ALL of their chips wins.")
    print("- Every round the order of the players is shuffled at random.")
    print("- On a turn you roll three dice up to 3 times and keep the last roll.")
    print("  Each player may roll at most as many times as the player before")
    print("  them (the first player of a round may roll 3 times).")
    print("- Rolls from best to worst: PoCo! (4 5 6), three-of-a-kind (6 6 6")
    print("  is the best, 1 1 1 the worst), Loco! (1 2 3), and then points:")
    print("  a 1 is worth 100, a 6 is worth 60, 2 to 5 are worth their number.")
    print("- The player with the lowest roll gets chips from everybody else:")
    print("  1 (best roll is points), 2 (Loco!), 3 (three-of-a-kind), 4 (PoCo!).")
    print("- If you have fewer chips than you owe, you pay what you have.")
    print(CYAN + "TIE-BREAK" + RESET)
    print("- If players tie for the lowest or the highest roll, the one who")
    print("  played EARLIER in that round's order is picked. The order is random")
    print("  every round, so it is fair to everyone.")
    print()


def ask_yes_or_no(question):
    while True:
        answer = input(YELLOW + question + RESET).strip().lower()
        if answer in ("y", "yes"):
            return True
        if answer in ("n", "no"):
            return False
        print(RED + "Please answer y or n." + RESET)


def ask_name():
    while True:
        name = input(YELLOW + "Please enter your name: " + RESET).strip()
        if name == "":
            print(RED + "The name cannot be blank." + RESET)
        elif name in COMPUTER_PLAYERS:
            print(RED + name + " is already playing. Choose a different name." + RESET)
        else:
            return name


def ask_chips():
    while True:
        answer = input(YELLOW + "How many chips does everyone start with? " + RESET)
        try:
            number = int(answer)
        except ValueError:
            print(RED + "Please type a whole number." + RESET)
            continue
        if number <= 0:
            print(RED + "The number of chips must be at least 1." + RESET)
        else:
            return number


def print_round_header(round_num):
    label = f"Round {round_num}"
    print()
    print(GREEN + "+" + "-" * (len(label) + 2) + "+")
    print("| " + label + " |")
    print("+" + "-" * (len(label) + 2) + "+" + RESET)


def print_standings(chips):
    """Prints an aligned table of every player and their chips."""
    width = max(len("Player"), max(len(name) for name in chips))
    print(BOLD + "Player".ljust(width) + " | Chips" + RESET)
    print("-" * width + "-+------")
    for name, count in chips.items():
        print(name.ljust(width) + " | " + str(count).rjust(5))


def draw_dice(dice):
    top = "   ".join("#######" for _ in dice)
    print(top)
    for row in range(3):
        print("   ".join("#" + PIPS[d][row] + "#" for d in dice))
    print(top)


def rolling_animation():
    print("Rolling", end="", flush=True)
    for _ in range(3):
        time.sleep(0.2)
        print(".", end="", flush=True)
    print()


def roll_dice():
    rolling_animation()
    return [rng.randint(1, 6) for _ in range(3)]


def get_rank(dice):
    """Higher rank means a better roll.
    PoCo! = 1000, three-of-a-kind = 900 + face, Loco! = 800, otherwise points."""
    d = sorted(dice)
    if d == [4, 5, 6]:
        return 1000
    if d[0] == d[1] == d[2]:
        return 900 + d[0]
    if d == [1, 2, 3]:
        return 800
    score = 0
    for value in d:
        if value == 1:
            score += 100
        elif value == 6:
            score += 60
        else:
            score += value
    return score


def roll_text(dice):
    rank = get_rank(dice)
    numbers = f"{dice[0]} {dice[1]} {dice[2]}"
    if rank == 1000:
        return numbers + " = PoCo!"
    if rank > 900:
        return numbers + " = three-of-a-kind"
    if rank == 800:
        return numbers + " = Loco!"
    return numbers + f" = {rank} points"


def chips_to_give(best_rank):
    if best_rank == 1000:
        return 4
    if best_rank > 900:
        return 3
    if best_rank == 800:
        return 2
    return 1


def human_turn(name, max_rolls):
    print(CYAN + f"\n{name}, it is your turn. You can roll up to {max_rolls} time(s)." + RESET)
    roll_count = 0
    while True:
        dice = roll_dice()
        roll_count += 1
        print(f"Roll #{roll_count}")
        draw_dice(dice)
        print("You rolled " + BOLD + roll_text(dice) + RESET)
        if roll_count == max_rolls:
            print("You have no rolls left.")
            break
        choice = input(YELLOW + "1) Roll again\n2) Stop\nChoose 1 or 2: " + RESET).strip()
        while choice not in ("1", "2"):
            print(RED + "Invalid choice, please type 1 or 2." + RESET)
            choice = input(YELLOW + "1) Roll again\n2) Stop\nChoose 1 or 2: " + RESET).strip()
        if choice == "2":
            break
    return dice, roll_count


def computer_turn(name, max_rolls, ranks_so_far):
    """The computer keeps rolling while it would be the lowest of the players
    that already went. It never re-rolls a PoCo! or a three-of-a-kind."""
    print(CYAN + f"\n{name}'s turn (at most {max_rolls} roll(s))" + RESET)
    roll_count = 0
    while True:
        dice = roll_dice()
        roll_count += 1
        rank = get_rank(dice)
        print(f"{name} - roll #{roll_count}: {roll_text(dice)}")
        draw_dice(dice)
        if roll_count == max_rolls or rank > 900:
            break
        if ranks_so_far:
            lowest = min(ranks_so_far)
            # keep going if we are the lowest or only a little above it
            keep_rolling = rank <= lowest or (rank < lowest + 20 and rank < 160)
        else:
            # nobody has rolled yet: a 6 and a 1 (160+) or a Loco! is good
            keep_rolling = rank < 160
        if not keep_rolling:
            break
        print(f"{name} rolls again.")
    print(f"{name} stops with {roll_text(dice)}")
    return dice, roll_count


def settle_round(chips, order, final_rolls):
    """Works out the round winner and loser and moves the chips.
    Ties go to the player who played first in this round's order."""
    ranks = [get_rank(final_rolls[name]) for name in order]
    loser = order[ranks.index(min(ranks))]       # index() finds the earliest
    best = max(ranks)
    winner = None
    for name in order:
        if get_rank(final_rolls[name]) == best and name != loser:
            winner = name
            break
    amount = chips_to_give(best)

    print()
    print(f"Best roll:   {GREEN}{winner}{RESET} with {roll_text(final_rolls[winner])}")
    print(f"Lowest roll: {RED}{loser}{RESET} with {roll_text(final_rolls[loser])}")
    print(f"Everyone gives {loser} {amount} chip(s).")
    for name in chips:
        if name != loser:
            # If a player doesn't have enough they pay what they have, but
            # the loser still receives the FULL amount from each player.
            chips[name] -= min(amount, chips[name])
            chips[loser] += amount


def play_round(round_num, chips, human):
    print_round_header(round_num)
    print_standings(chips)
    order = list(chips)
    rng.shuffle(order)
    print("\nOrder of play: " + ", ".join(order))

    final_rolls = {}
    max_rolls = 3
    for name in order:
        time.sleep(PAUSE)
        ranks_so_far = [get_rank(d) for d in final_rolls.values()]
        if name == human:
            dice, used = human_turn(name, max_rolls)
        else:
            dice, used = computer_turn(name, max_rolls, ranks_so_far)
        final_rolls[name] = dice
        max_rolls = used
    time.sleep(PAUSE)
    settle_round(chips, order, final_rolls)
    return order


def main():
    show_title()
    if ask_yes_or_no("Would you like to read the rules? (y/n) "):
        show_rules()
    human = ask_name()
    start = ask_chips()
    chips = {human: start}
    for computer in COMPUTER_PLAYERS:
        chips[computer] = start

    round_num = 0
    while True:
        round_num += 1
        order = play_round(round_num, chips, human)
        zero_players = [name for name in order if chips[name] == 0]
        if zero_players:
            # if two players reach 0 together, the one who played earlier wins
            winner = zero_players[0]
            break

    print()
    message = f" {winner} lost all their chips and WINS the game! "
    print(GREEN + "=" * len(message) + RESET)
    print(GREEN + message + RESET)
    print(GREEN + "=" * len(message) + RESET)
    print("Final chip counts:")
    print_standings(chips)


if __name__ == "__main__":
    main()
