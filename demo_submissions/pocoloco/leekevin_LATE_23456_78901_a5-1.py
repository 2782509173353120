"""
a5.py -- PocoLoco

CMPT 120, Assignment 5
Authors:
    Jordan Whitfield  jwa88@sfu.ca  301512334
    Mei-Ling Chen     mlc41@sfu.ca  301498120

A dice game for one human and three computer players. We used two classes:
Player keeps track of one player's chips, and PocoLocoGame runs the game.
"""

from random import randint, shuffle

COMPUTER_NAMES = ("Mo", "Barney", "Marge")

# pip positions for a 3x3 grid (row, column), used to draw the dice
PIP_SPOTS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (0, 2), (2, 0), (2, 2)],
    5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
    6: [(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)],
}


class Player:
    """One player in the game."""

    def __init__(self, name, chips, is_human=False):
        self.name = name
        self.chips = chips
        self.is_human = is_human

    def __str__(self):
        return f"{self.name} ({self.chips} chips)"


def roll_three_dice():
    return [randint(1, 6) for _ in range(3)]


def roll_category(dice):
    """Gives back a tuple that can be compared: bigger tuple = better roll.
    (4, 0) PoCo!, (3, face) three-of-a-kind, (2, 0) Loco!, (1, points) points."""
    ordered = sorted(dice)
    if ordered == [4, 5, 6]:
        return (4, 0)
    if ordered[0] == ordered[2]:
        return (3, ordered[0])
    if ordered == [1, 2, 3]:
        return (2, 0)
    points = {1: 100, 6: 60}
    return (1, sum(points.get(d, d) for d in dice))


def roll_name(dice):
    kind, value = roll_category(dice)
    if kind == 4:
        return "PoCo!"
    if kind == 3:
        return f"three {value}s"
    if kind == 2:
        return "Loco!"
    return f"{value} points"


def dice_picture(dice):
    """Returns the three dice drawn next to each other as one string."""
    lines = ["┌───────┐ " * 3]
    for row in range(3):
        line = ""
        for value in dice:
            cells = [" "] * 3
            for r, c in PIP_SPOTS[value]:
                if r == row:
                    cells[c] = "●"
            line += "│ " + " ".join(cells) + " │ "
        lines.append(line)
    lines.append("└───────┘ " * 3)
    return "\n".join(line.rstrip() for line in lines)


class PocoLocoGame:
    """Runs a whole game of PocoLoco."""

    def __init__(self):
        self.players = []
        self.round_number = 0

    # ---------------------------------------------------------------- setup
    def show_instructions(self):
        print("╔══════════════════════════════════════════════╗")
        print("║           P O C O L O C O   D I C E          ║")
        print("╚══════════════════════════════════════════════╝")
        print("""
How to play:
  * You play against Mo, Barney and Marge. Everyone starts with the same
    number of chips, and the aim is to get RID of your chips.
  * Each round the order of play is shuffled. On your turn you roll three
    dice up to three times and keep the last roll. The first player may
    roll three times; everybody else may roll at most as many times as the
    player right before them.
  * Best to worst: PoCo! (4-5-6), three-of-a-kind (6-6-6 down to 1-1-1),
    Loco! (1-2-3), then points (1 = 100, 6 = 60, 2 to 5 = face value).
  * The lowest roll of the round collects chips from every other player:
    1 chip if the best roll was points, 2 for Loco!, 3 for three-of-a-kind
    and 4 for PoCo!. You pay even if it puts you into debt (below zero).
  * The game ends when somebody has 0 chips or fewer. The player with the
    fewest chips wins.

Ties: if players tie for the lowest or the highest roll, they have a
roll-off. Each tied player rolls one die; for the lowest roll the smallest
die loses, for the highest roll the biggest die wins. Anyone who ties again
rolls again until there is only one player left. If the game ends with
several players tied for the fewest chips, they roll off too (biggest die
wins the game).
""")

    def setup_players(self):
        chips = self.ask_starting_chips()
        name = self.ask_name()
        self.players.append(Player(name, chips, is_human=True))
        for computer_name in COMPUTER_NAMES:
            self.players.append(Player(computer_name, chips))

    def ask_starting_chips(self):
        while True:
            text = input("Starting chips for everyone: ").strip()
            try:
                chips = int(text)
            except ValueError:
                print("That's not a number, try again.")
                continue
            if chips < 1:
                print("You need at least 1 chip.")
            else:
                return chips

    def ask_name(self):
        while True:
            name = input("Enter your name: ").strip()
            if not name:
                print("Please type a name.")
            elif name.lower() in (n.lower() for n in COMPUTER_NAMES):
                print("A computer player already has that name.")
            else:
                return name

    # --------------------------------------------------------- printing
    def print_round_box(self):
        text = f"Round {self.round_number}"
        print()
        print("╔" + "═" * (len(text) + 2) + "╗")
        print("║ " + text + " ║")
        print("╚" + "═" * (len(text) + 2) + "╝")

    def print_standings(self):
        print("Players and chips:")
        for player in self.players:
            print(f"   {player.name:<12}{player.chips:>4} chips")

    # ---------------------------------------------------------- turns
    def ask_roll_again(self):
        # only the full words are accepted
        while True:
            answer = input("Would you like to roll again? (yes/no): ").strip().lower()
            if answer == "yes":
                return True
            if answer == "no":
                return False
            print("Please answer with the whole word: yes or no.")

    def human_turn(self, player, max_rolls):
        print(f"\n>>> Your turn, {player.name}! You can roll up to {max_rolls} time(s).")
        rolls = 0
        while True:
            dice = roll_three_dice()
            rolls += 1
            print(f"Roll {rolls}/{max_rolls}:")
            print(dice_picture(dice))
            print(f"You got {dice[0]} {dice[1]} {dice[2]} -> {roll_name(dice)}")
            if rolls >= max_rolls:
                print("No rolls left, you keep this one.")
                return dice, rolls
            if not self.ask_roll_again():
                return dice, rolls

    def computer_turn(self, player, max_rolls, scores_so_far):
        """scores_so_far: the roll_category tuples of the players before."""
        print(f"\n>>> {player.name}'s turn (may roll up to {max_rolls} time(s))")
        rolls = 0
        while True:
            dice = roll_three_dice()
            rolls += 1
            print(f"{player.name} roll {rolls}/{max_rolls}: {dice[0]} {dice[1]} {dice[2]}"
                  f" -> {roll_name(dice)}")
            print(dice_picture(dice))
            if rolls >= max_rolls or not self.computer_wants_more(dice, scores_so_far):
                print(f"{player.name} keeps it.")
                return dice, rolls
            print(f"{player.name} rolls again...")

    def computer_wants_more(self, dice, scores_so_far):
        """Strategy: look at what the earlier players got this round."""
        mine = roll_category(dice)
        if mine[0] >= 3:
            # PoCo! or three-of-a-kind, can't really do better
            return False
        if not scores_so_far:
            # going first: roll again unless we have a 1 (100+) or Loco!
            return mine < (1, 100)
        lowest = min(scores_so_far)
        if mine <= lowest:
            return True  # we'd be the loser (or in a roll-off for it)
        if mine[0] > lowest[0]:
            return False  # a whole category better than the worst, safe
        # same category (points): stop if we are a good bit above the lowest
        return mine[1] - lowest[1] < 30 and mine[1] < 100

    # ---------------------------------------------------------- tie-break
    def roll_off(self, tied, want_lowest, reason):
        """Tied players roll one die each until one is the single lowest
        (want_lowest=True) or the single highest."""
        contenders = list(tied)
        while len(contenders) > 1:
            names = ", ".join(p.name for p in contenders)
            print(f"Tie {reason} between {names}! Roll-off:")
            rolls = {}
            for p in contenders:
                rolls[p.name] = randint(1, 6)
                print(f"   {p.name} rolls a {rolls[p.name]}")
            if want_lowest:
                target = min(rolls.values())
            else:
                target = max(rolls.values())
            contenders = [p for p in contenders if rolls[p.name] == target]
        return contenders[0]

    # ---------------------------------------------------------- rounds
    def play_round(self):
        self.round_number += 1
        self.print_round_box()
        self.print_standings()

        order = self.players[:]
        shuffle(order)
        print("Playing order: " + " -> ".join(p.name for p in order))

        results = []  # list of (player, dice)
        max_rolls = 3
        for player in order:
            scores = [roll_category(d) for _, d in results]
            if player.is_human:
                dice, used = self.human_turn(player, max_rolls)
            else:
                dice, used = self.computer_turn(player, max_rolls, scores)
            results.append((player, dice))
            max_rolls = used  # next player can't roll more than this

        print("\n--- End of round summary ---")
        for player, dice in results:
            print(f"   {player.name:<12}{dice[0]} {dice[1]} {dice[2]}   {roll_name(dice)}")

        scores = {p.name: roll_category(d) for p, d in results}
        worst = min(scores.values())
        best = max(scores.values())
        losers = [p for p, _ in results if scores[p.name] == worst]
        if len(losers) == 1:
            loser = losers[0]
        else:
            loser = self.roll_off(losers, True, "for the lowest roll")
        winners = [p for p, _ in results if scores[p.name] == best and p is not loser]
        if not winners:
            winners = [loser]
        if len(winners) == 1:
            winner = winners[0]
        else:
            winner = self.roll_off(winners, False, "for the best roll")

        kind = best[0]
        amount = {4: 4, 3: 3, 2: 2, 1: 1}[kind]
        print(f"Best roll: {winner.name} with {roll_name(dict(results)[winner])}")
        print(f"Lowest roll: {loser.name}, who collects {amount} chip(s) from every other player.")
        # We decided that players DO pay even if they don't have enough chips,
        # so they can end up with a negative number of chips (debt).
        for player in self.players:
            if player is not loser:
                player.chips -= amount
                loser.chips += amount

    def game_over(self):
        return any(p.chips <= 0 for p in self.players)

    def find_game_winner(self):
        """The winner is whoever has the fewest chips (it could be negative)."""
        fewest = min(p.chips for p in self.players)
        tied = [p for p in self.players if p.chips == fewest]
        if len(tied) == 1:
            return tied[0]
        return self.roll_off(tied, False, "for the fewest chips")

    def play(self):
        self.show_instructions()
        self.setup_players()
        while True:
            self.play_round()
            if self.game_over():
                break
            input("Press Enter to continue...")
        winner = self.find_game_winner()
        print()
        print("★" * 40)
        print(f"  GAME OVER! {winner.name} wins with {winner.chips} chips!")
        print("★" * 40)
        print("Final chips:")
        for player in self.players:
            print(f"   {player.name:<12}{player.chips:>4}")


def main():
    game = PocoLocoGame()
    game.play()


if __name__ == "__main__":
    main()
