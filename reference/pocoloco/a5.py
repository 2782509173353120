"""PocoLoco: a three-dice game for one human player and three computer players.

Reference solution for assignment 5 (hidden from students).

Team members:
    Course Staff, staff@sfu.ca, 000000000

How this file is organised:
    1. constants (names, dice pictures, chip payments)
    2. small helpers for text and input
    3. dice rolling, ranking and drawing
    4. the human turn and the computer turn (with the computer strategy)
    5. playing one round, paying chips, announcing the end of the game
    6. main(), which sets everything up and runs the rounds

Interpretation choices (the handout leaves these to us):
    - Ties for the highest or the lowest roll of a round are broken at random, every tied
      player being equally likely (random.choice). The instructions say so.
    - If everybody ties, the round loser is drawn first and the winner is drawn from the others.
    - A player who owes more chips than they have pays what they have, and the loser receives
      only what was actually paid, so the total number of chips never changes.
    - If several players reach 0 chips in the same round, the same random tie-break picks the
      game winner among them.
    - The human is asked whether to roll again after every roll that is not their last allowed
      roll, even after a PoCo! (rolling again is legal, just not wise).
"""

import random

# ---------------------------------------------------------------------------------------------
# Constants
# ---------------------------------------------------------------------------------------------

COMPUTER_NAMES = ["Mo", "Barney", "Marge"]
# Used when the human picks one of the computer names, so that no two players share a name.
SPARE_COMPUTER_NAMES = ["Homer", "Lisa", "Patty", "Selma"]

MAX_ROLLS_PER_TURN = 3

# Ranking categories, from worst to best. A roll's rank is (category, tie value), so
# Python's tuple comparison orders any two rolls correctly.
POINTS = 1
LOCO = 2
THREE_OF_A_KIND = 3
POCO = 4

# How many chips each player pays the round loser, depending on the best roll of the round.
CHIPS_FOR_CATEGORY = {POINTS: 1, LOCO: 2, THREE_OF_A_KIND: 3, POCO: 4}
CATEGORY_NAMES = {
    POINTS: "a points total",
    LOCO: "a Loco!",
    THREE_OF_A_KIND: "a three-of-a-kind",
    POCO: "a PoCo!",
}

# Points for each face when a roll is scored as a points total.
FACE_POINTS = {1: 100, 2: 2, 3: 3, 4: 4, 5: 5, 6: 60}

# The three pip rows drawn inside each die (regular die patterns).
PIP_ROWS = {
    1: ["       ", "   o   ", "       "],
    2: [" o     ", "       ", "     o "],
    3: [" o     ", "   o   ", "     o "],
    4: [" o   o ", "       ", " o   o "],
    5: [" o   o ", "   o   ", " o   o "],
    6: [" o   o ", " o   o ", " o   o "],
}
DIE_EDGE = "+-------+"
GAP_BETWEEN_DICE = "   "

# A computer player that goes first re-rolls a points total below this score.
WEAK_FIRST_ROLL_POINTS = 100


# ---------------------------------------------------------------------------------------------
# Text and input helpers
# ---------------------------------------------------------------------------------------------

def plural(count, word):
    """Return e.g. '1 chip' or '3 chips'."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {word}s"


def join_names(names):
    """Join names into readable English: 'Mo', 'Mo and Lisa', 'Mo, Lisa and Marge'."""
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def print_box(text):
    """Print text inside a box of +, - and | that fits it exactly."""
    edge = "+" + "-" * (len(text) + 2) + "+"
    print(edge)
    print(f"| {text} |")
    print(edge)


def ask_yes_no(question):
    """Ask a yes/no question until the answer is y, yes, n or no; return True for yes."""
    while True:
        answer = input(question).strip().lower()
        if answer in ("y", "yes"):
            return True
        if answer in ("n", "no"):
            return False
        print("Please answer y or n.")


def ask_player_name():
    """Ask for the human player's name, refusing blank answers."""
    while True:
        name = input("What is your name? ").strip()
        if name:
            return name
        print("Please type a name.")


def ask_starting_chips():
    """Ask how many chips everyone starts with; it must be a whole number of at least 1."""
    while True:
        answer = input("How many chips should everyone start with? ").strip()
        if answer.isdigit() and int(answer) >= 1:
            return int(answer)
        print("Please enter a whole number of at least 1.")


def choose_computer_names(human_name):
    """Return the three computer names, replacing any name that clashes with the human's."""
    spares = [name for name in SPARE_COMPUTER_NAMES if name.lower() != human_name.lower()]
    names = []
    for name in COMPUTER_NAMES:
        if name.lower() == human_name.lower():
            name = spares.pop(0)
        names.append(name)
    return names


def print_title_and_instructions():
    """Print the game title and the rules, including how ties are broken."""
    print_box("Welcome to PocoLoco!")
    print()
    print("PocoLoco is a dice game for you and three computer players. Everyone starts")
    print("with the same number of chips, and the first player to get rid of ALL their")
    print("chips wins. So your goal is to lose chips as fast as you can!")
    print()
    print("How a round works:")
    print("  - The order of play is shuffled at the start of every round.")
    print("  - On your turn you roll three dice, then decide whether to roll again.")
    print("    The first player may roll up to 3 times. Every later player may roll")
    print("    at most as many times as the player just before them.")
    print("  - Only your last roll counts.")
    print()
    print("Rolls from best to worst:")
    print("  1. PoCo!  (4 5 6)")
    print("  2. Three of a kind, from 6 6 6 down to 1 1 1")
    print("  3. Loco!  (1 2 3)")
    print("  4. Any other roll scores points: a 1 is worth 100, a 6 is worth 60,")
    print("     and 2, 3, 4 and 5 are worth their face value (1 4 6 = 164 points).")
    print()
    print("After everyone has rolled, every player except the lowest scorer gives the")
    print("lowest scorer chips: 1 chip if the best roll was a points total, 2 for a")
    print("Loco!, 3 for a three-of-a-kind and 4 for a PoCo!. A player who owes more")
    print("chips than they have pays what they have.")
    print()
    print("Ties: if players tie for the highest or the lowest roll, the winner (or")
    print("loser) is picked at random from the tied players, each equally likely.")
    print("The same random draw decides if several players run out of chips at once.")
    print()


# ---------------------------------------------------------------------------------------------
# Dice: rolling, ranking, describing and drawing
# ---------------------------------------------------------------------------------------------

def roll_dice():
    """Roll three six-sided dice and return them as a tuple."""
    return (random.randint(1, 6), random.randint(1, 6), random.randint(1, 6))


def roll_rank(dice):
    """Return a (category, tie value) pair; a bigger pair is a better roll."""
    ordered = sorted(dice)
    if ordered == [4, 5, 6]:
        return (POCO, 0)
    if ordered[0] == ordered[2]:
        return (THREE_OF_A_KIND, ordered[0])
    if ordered == [1, 2, 3]:
        return (LOCO, 0)
    return (POINTS, sum(FACE_POINTS[face] for face in dice))


def describe_roll(dice):
    """Return the roll's ranking in words, e.g. 'PoCo!', 'three 5s' or '164 points'."""
    category, value = roll_rank(dice)
    if category == POCO:
        return "PoCo!"
    if category == THREE_OF_A_KIND:
        return f"three {value}s"
    if category == LOCO:
        return "Loco!"
    return f"{value} points"


def dice_text(dice):
    """Return the faces as plain text, e.g. '3 4 5'."""
    return " ".join(str(face) for face in dice)


def draw_dice(dice):
    """Return the lines of a picture showing the dice side by side."""
    lines = [GAP_BETWEEN_DICE.join(DIE_EDGE for _ in dice)]
    for row in range(3):
        lines.append(GAP_BETWEEN_DICE.join(f"|{PIP_ROWS[face][row]}|" for face in dice))
    lines.append(lines[0])
    return lines


def show_roll(name, dice):
    """Print who rolled what: the numbers, the dice picture and the ranking."""
    print(f"{name} rolls: {dice_text(dice)}")
    for line in draw_dice(dice):
        print(line)
    print(f"Result: {describe_roll(dice)}")


# ---------------------------------------------------------------------------------------------
# Turns
# ---------------------------------------------------------------------------------------------

def print_turn_header(name, max_rolls):
    """Announce whose turn it is and how many rolls they may make."""
    print()
    print(f"== {name}'s turn: up to {plural(max_rolls, 'roll')} ==")


def print_turn_summary(name, dice, rolls_used):
    """Say which roll a player keeps at the end of their turn."""
    print(f"{name} keeps {dice_text(dice)} ({describe_roll(dice)}) "
          f"after {plural(rolls_used, 'roll')}.")


def describe_round_so_far(round_rolls):
    """Return a line listing the rolls kept so far this round, or '' if nobody has rolled."""
    if not round_rolls:
        return ""
    kept = [f"{name} ({describe_roll(dice)})" for name, dice in round_rolls.items()]
    return "Rolls so far this round: " + ", ".join(kept)


def human_turn(name, max_rolls, round_rolls):
    """Play the human's turn; return (final dice, number of rolls used)."""
    print_turn_header(name, max_rolls)
    situation = describe_round_so_far(round_rolls)
    if situation:
        print(situation)
    rolls_used = 0
    while True:
        dice = roll_dice()
        rolls_used += 1
        show_roll(name, dice)
        if rolls_used == max_rolls:
            break
        if not ask_yes_no("Roll again? (y/n) "):
            break
    print_turn_summary(name, dice, rolls_used)
    return dice, rolls_used


def computer_wants_to_roll_again(dice, rolls_used, max_rolls, round_rolls):
    """Decide whether a computer player rolls again.

    The computer wants to avoid being the lowest scorer, because the lowest scorer receives
    chips. It knows every final roll made earlier in this round (round_rolls).
    - It never rolls more than it is allowed to.
    - It keeps a PoCo! or a three-of-a-kind: these are among the best possible rolls.
    - Going first, it re-rolls a weak points total (under 100 points, i.e. no 1s showing).
    - Otherwise it re-rolls only while it is at or below the lowest roll so far, since a tie
      for lowest could still make it the loser; above that, rolling again only adds risk.
    """
    if rolls_used >= max_rolls:
        return False
    category, value = roll_rank(dice)
    if category in (POCO, THREE_OF_A_KIND):
        return False
    if not round_rolls:
        return category == POINTS and value < WEAK_FIRST_ROLL_POINTS
    lowest_so_far = min(roll_rank(other) for other in round_rolls.values())
    return roll_rank(dice) <= lowest_so_far


def computer_turn(name, max_rolls, round_rolls):
    """Play a computer player's turn; return (final dice, number of rolls used)."""
    print_turn_header(name, max_rolls)
    rolls_used = 0
    while True:
        dice = roll_dice()
        rolls_used += 1
        show_roll(name, dice)
        if not computer_wants_to_roll_again(dice, rolls_used, max_rolls, round_rolls):
            break
        print(f"{name} decides to roll again.")
    print_turn_summary(name, dice, rolls_used)
    return dice, rolls_used


# ---------------------------------------------------------------------------------------------
# Rounds and chips
# ---------------------------------------------------------------------------------------------

def print_standings(chips):
    """Print every player's name and chip count."""
    for name, count in chips.items():
        print(f"{name}: {plural(count, 'chip')}")


def break_tie(tied_names, what):
    """Pick one of the tied players at random (each equally likely) and say so."""
    if len(tied_names) == 1:
        return tied_names[0]
    chosen = random.choice(tied_names)
    print(f"{join_names(tied_names)} tie for {what}; a random draw picks {chosen}.")
    return chosen


def find_round_winner_and_loser(final_rolls):
    """Return (winner, loser) of a round, breaking ties at random.

    The loser is drawn first. If every player tied, the winner is drawn from the others, so
    a player is never both the winner and the loser of a round.
    """
    ranks = {name: roll_rank(dice) for name, dice in final_rolls.items()}
    lowest_rank = min(ranks.values())
    highest_rank = max(ranks.values())
    lowest = [name for name in final_rolls if ranks[name] == lowest_rank]
    loser = break_tie(lowest, "the lowest roll")
    highest = [name for name in final_rolls if ranks[name] == highest_rank and name != loser]
    winner = break_tie(highest, "the highest roll")
    return winner, loser


def pay_the_loser(chips, loser, chips_each):
    """Move chips from every other player to the loser and print each payment.

    A player who owes more than they have pays everything they have, and the loser receives
    only the chips that were actually paid, so the total number of chips never changes.
    """
    total_received = 0
    for name in chips:
        if name == loser:
            continue
        payment = min(chips_each, chips[name])
        if payment < chips_each:
            print(f"{name} only has {plural(chips[name], 'chip')}, "
                  f"so {name} gives {loser} {plural(payment, 'chip')}.")
        else:
            print(f"{name} gives {loser} {plural(payment, 'chip')}.")
        chips[name] -= payment
        total_received += payment
    chips[loser] += total_received
    print(f"{loser} receives {plural(total_received, 'chip')} in total.")


def play_round(round_number, chips, human_name):
    """Play one full round and update chips."""
    print()
    print_box(f"Round {round_number}")
    print_standings(chips)

    order = list(chips)
    random.shuffle(order)
    print(f"Order of play: {', '.join(order)}")

    final_rolls = {}
    max_rolls = MAX_ROLLS_PER_TURN
    for name in order:
        if name == human_name:
            dice, rolls_used = human_turn(name, max_rolls, final_rolls)
        else:
            dice, rolls_used = computer_turn(name, max_rolls, final_rolls)
        final_rolls[name] = dice
        # The next player may roll at most as many times as this player did.
        max_rolls = rolls_used

    print()
    print(f"End of round {round_number}. Final rolls:")
    for name in order:
        print(f"  {name}: {dice_text(final_rolls[name])} ({describe_roll(final_rolls[name])})")
    winner, loser = find_round_winner_and_loser(final_rolls)
    print(f"Round winner: {winner} ({describe_roll(final_rolls[winner])})")
    print(f"Round loser: {loser} ({describe_roll(final_rolls[loser])})")

    best_category = roll_rank(final_rolls[winner])[0]
    chips_each = CHIPS_FOR_CATEGORY[best_category]
    print(f"The best roll was {CATEGORY_NAMES[best_category]}, so everyone else gives "
          f"{loser} {plural(chips_each, 'chip')}.")
    pay_the_loser(chips, loser, chips_each)


def announce_game_winner(chips):
    """Print the winner (breaking a tie at random) and everyone's final chip counts."""
    out_of_chips = [name for name, count in chips.items() if count == 0]
    print()
    print_box("Game Over")
    winner = break_tie(out_of_chips, "the win")
    print(f"{winner} has no chips left and wins the game!")
    print("Final chip counts:")
    print_standings(chips)


def main():
    """Set up the players and play rounds until someone has no chips left."""
    print_title_and_instructions()
    human_name = ask_player_name()
    starting_chips = ask_starting_chips()

    # Chip counts by player name; the human is listed first.
    chips = {human_name: starting_chips}
    for name in choose_computer_names(human_name):
        chips[name] = starting_chips
    print()
    print(f"Good luck, {human_name}! You are playing against "
          f"{join_names(list(chips)[1:])}.")

    round_number = 1
    while True:
        play_round(round_number, chips, human_name)
        if 0 in chips.values():
            break
        round_number += 1
    announce_game_winner(chips)


# Keep this set-up: the grader imports or runs this file and calls main().
if __name__ == "__main__":
    main()
