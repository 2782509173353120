# ============================================================================
#  a5.py : PocoLoco
#  CMPT 120, Assignment 5
#
#  Ellie Fraser   (efraser@sfu.ca, 301455123)
#  Kwame Mensah   (kmensah@sfu.ca, 301462780)
#
#  Needs Python 3.12 or newer (we use the new f-string rules that let you put
#  the same kind of quotes inside an f-string).
# ============================================================================

import random

COMPUTERS = ["Ann", "Mo", "Ravi"]


def roll_die():
    return random.randrange(1, 7)


def roll_dice():
    return [roll_die() for _ in range(3)]


# --------------------------------------------------------------------------
# input helpers -- if the answer is bad they just call themselves again
# --------------------------------------------------------------------------

def ask_name():
    name = input("Player name: ").strip()
    if not name or name in COMPUTERS:
        print("Please type a name that isn't empty and isn't Ann, Mo or Ravi.")
        return ask_name()
    return name


def ask_start_chips():
    answer = input("Starting chips per player: ").strip()
    if not answer.isdigit() or int(answer) == 0:
        print("That has to be a whole number bigger than 0.")
        return ask_start_chips()
    return int(answer)


def ask_y_or_n(prompt):
    answer = input(prompt).strip().lower()
    if answer == "y":
        return True
    if answer == "n":
        return False
    print("Only y or n, please.")
    return ask_y_or_n(prompt)


# --------------------------------------------------------------------------
# dice pictures and scoring
# --------------------------------------------------------------------------

def die_rows(value):
    """The 3 middle rows of one die (without the side borders)."""
    tl = "o" if value in (2, 3, 4, 5, 6) else " "   # top-left and bottom-right
    tr = "o" if value in (4, 5, 6) else " "         # top-right and bottom-left
    mid = "o" if value in (1, 3, 5) else " "
    side = "o" if value == 6 else " "
    return [f"{tl} {tr}", f"{side}{mid}{side}", f"{tr} {tl}"]


def dice_art(dice):
    rows = [die_rows(v) for v in dice]
    lines = ["  ".join("╔═════╗" for _ in dice)]
    for r in range(3):
        lines.append("  ".join(f"║ {rows[i][r]} ║" for i in range(len(dice))))
    lines.append("  ".join("╚═════╝" for _ in dice))
    return "\n".join(lines)


def rank(dice):
    """Bigger is better. PoCo! 400, triples 300+face, Loco! 299, else points."""
    s = sorted(dice)
    if s == [4, 5, 6]:
        return 400
    if s[0] == s[2]:
        return 300 + s[0]
    if s == [1, 2, 3]:
        return 299
    value = {1: 100, 2: 2, 3: 3, 4: 4, 5: 5, 6: 60}
    return sum(value[d] for d in s)


def describe(dice):
    r = rank(dice)
    if r == 400:
        kind = "PoCo!"
    elif r > 300:
        kind = "three-of-a-kind"
    elif r == 299:
        kind = "Loco!"
    else:
        kind = f"{r} points"
    return f"[{" ".join(str(d) for d in dice)}] {kind}"


def payment_for(best):
    r = rank(best)
    if r == 400:
        return 4
    if r > 300:
        return 3
    if r == 299:
        return 2
    return 1


# --------------------------------------------------------------------------
# printing
# --------------------------------------------------------------------------

def instructions():
    print(f"""
{"~" * 56}
{"P O C O L O C O":^56}
{"~" * 56}
You (the human) play against {", ".join(COMPUTERS)}.
Get rid of all your chips to win!

 * The order of the players is shuffled at the start of every round.
 * On your turn, roll three dice. You may roll again, up to 3 rolls,
   but never more rolls than the player before you this round.
   Your LAST roll is the one that counts.
 * Best roll: PoCo! (4 5 6). Then three-of-a-kind (6 6 6 high, 1 1 1 low),
   then Loco! (1 2 3), then points: 1 = 100, 6 = 60, others = face value.
 * Lowest roll of the round gets chips from each other player:
   points -> 1, Loco! -> 2, three-of-a-kind -> 3, PoCo! -> 4 chips
   (based on the best roll). If you can't pay it all, you pay what you have.
 * Ties (for best or for worst) are broken by shuffling the tied players
   at random and taking the first one - everyone gets a fair chance.
 * After each round you can choose to keep playing or stop the game.
""")


def print_round_banner(n):
    title = f"  Round {n}  "
    print()
    print("*" * (len(title) + 2))
    print(f"*{title}*")
    print("*" * (len(title) + 2))


def standings_line(chips):
    return f"Chips -> {" | ".join(f"{n}: {c}" for n, c in chips.items())}"


# --------------------------------------------------------------------------
# turns
# --------------------------------------------------------------------------

def human_turn(name, max_rolls, roll_number=1):
    """Recursive: each call does one roll, and calls itself to roll again."""
    dice = roll_dice()
    print(f"{name}, roll {roll_number} of {max_rolls}: {describe(dice)}")
    print(dice_art(dice))
    if roll_number < max_rolls and ask_y_or_n(f"Roll again, {name}? Enter y or n: "):
        return human_turn(name, max_rolls, roll_number + 1)
    return dice, roll_number


def computer_keeps(dice, rolls_left, ranks_before):
    """True if the computer should stop with these dice."""
    r = rank(dice)
    if rolls_left == 0 or r > 300:        # no rolls left / PoCo! / triple
        return True
    if not ranks_before:
        return r >= 100                   # first to roll: a 1 is good enough
    worst = min(ranks_before)
    if r <= worst:
        return False                      # would lose the round -> roll again
    # above the worst player: keep it if the lead is big or the roll is good
    return r - worst >= 15 or r >= 100


def computer_turn(name, max_rolls, ranks_before):
    rolls = 0
    while True:
        dice = roll_dice()
        rolls += 1
        print(f"{name}, roll {rolls} of {max_rolls}: {describe(dice)}")
        print(dice_art(dice))
        if computer_keeps(dice, max_rolls - rolls, ranks_before):
            return dice, rolls


def break_tie(tied):
    """Shuffle the tied players and take the first one."""
    tied = list(tied)
    random.shuffle(tied)
    return tied[0]


# --------------------------------------------------------------------------
# game
# --------------------------------------------------------------------------

def play_round(n, chips, human):
    print_round_banner(n)
    print(standings_line(chips))
    order = list(chips)
    random.shuffle(order)
    print(f"Turn order: {" -> ".join(order)}")

    kept = {}
    max_rolls = 3
    for name in order:
        print(f"\n--- {name}'s turn ---")
        if name == human:
            dice, used = human_turn(name, max_rolls)
        else:
            dice, used = computer_turn(name, max_rolls, [rank(d) for d in kept.values()])
        print(f"{name} keeps {describe(dice)} after {used} roll(s).")
        kept[name] = dice
        max_rolls = used

    low = min(rank(d) for d in kept.values())
    high = max(rank(d) for d in kept.values())
    loser = break_tie([n for n in order if rank(kept[n]) == low])
    winner = break_tie([n for n in order if rank(kept[n]) == high and n != loser])
    owed = payment_for(kept[winner])
    print(f"\nBest roll: {winner} {describe(kept[winner])}")
    print(f"Lowest roll: {loser} {describe(kept[loser])}")
    print(f"{loser} collects {owed} chip(s) from each other player.")
    for name in chips:
        if name != loser:
            paid = min(owed, chips[name])   # can't pay more than you have
            chips[name] -= paid
            chips[loser] += paid


def main():
    instructions()
    human = ask_name()
    start = ask_start_chips()
    chips = {human: start} | {c: start for c in COMPUTERS}

    n = 1
    while True:
        play_round(n, chips, human)
        zeros = [name for name in chips if chips[name] == 0]
        if zeros:
            winner = break_tie(zeros)     # more than one at 0: same tie-break
            print()
            print(f"{"=" * 10} {winner} has 0 chips and WINS PocoLoco! {"=" * 10}")
            print(f"Final {standings_line(chips)}")
            break
        print(f"After round {n}: {standings_line(chips)}")
        if not ask_y_or_n("Continue to the next round? (y/n) "):
            print("\nGame stopped early - nobody reached 0 chips.")
            print(f"Final {standings_line(chips)}")
            print("Goodbye, thanks for playing!")
            break
        n += 1


if __name__ == "__main__":
    main()
