# CS101 - Assignment 4: Yahtzee
# Name: Chris Taylor   Email: ctaylor@example.edu   Student no: 20231999
import random

NAMES = ["Ones", "Twos", "Threes", "Fours", "Fives", "Sixes", "Three Of A Kind",
         "Four Of A Kind", "Full House", "Small Straight", "Large Straight", "Yahtzee",
         "Chance"]
MAX_POINTS = [5, 10, 15, 20, 25, 30, 30, 30, 25, 30, 40, 50, 30]

dice = [0, 0, 0, 0, 0]
history = {}
round_no = 1


def counts(dice):
    """list with how many 1s, 2s, ... 6s there are"""
    result = []
    for face in range(1, 7):
        result.append(dice.count(face))
    return result


def is_three_of_a_kind(dice):
    """three or more the same"""
    return max(counts(dice)) >= 3


def is_four_of_a_kind(dice):
    """four or more the same"""
    return max(counts(dice)) >= 4


def is_full_house(dice):
    """a three and a pair"""
    c = counts(dice)
    return 3 in c and 2 in c


def is_small_straight(dice):
    """four in a row"""
    c = counts(dice)
    for start in range(3):
        if c[start] > 0 and c[start + 1] > 0 and c[start + 2] > 0 and c[start + 3] > 0:
            return True
    return False


def is_large_straight(dice):
    """five in a row"""
    return sorted(dice) == [1, 2, 3, 4, 5] or sorted(dice) == [2, 3, 4, 5, 6]


def is_yahtzee(dice):
    """all five the same"""
    return max(counts(dice)) == 5


def calculate_score(dice, name_of_option, history):
    """points for these dice in this option"""
    index = NAMES.index(name_of_option)
    if index < 6:
        return dice.count(index + 1) * (index + 1)
    joker = is_yahtzee(dice) and "Yahtzee" in history and NAMES[dice[0] - 1] in history
    if name_of_option == "Three Of A Kind" and is_three_of_a_kind(dice):
        return sum(dice)
    if name_of_option == "Four Of A Kind" and is_four_of_a_kind(dice):
        return sum(dice)
    if name_of_option == "Full House" and (is_full_house(dice) or joker):
        return 25
    if name_of_option == "Small Straight" and (is_small_straight(dice) or joker):
        return 30
    if name_of_option == "Large Straight" and (is_large_straight(dice) or joker):
        return 40
    if name_of_option == "Yahtzee" and is_yahtzee(dice):
        return 50
    if name_of_option == "Chance":
        return sum(dice)
    return 0


def calculate_final_scores(history):
    """upper sum, upper bonus, lower sum, yahtzee bonus"""
    upper = 0
    lower = 0
    ybonus = 0
    got_fifty = False
    for name in history:
        points = history[name][0]
        if NAMES.index(name) < 6:
            upper = upper + points
        else:
            lower = lower + points
        if is_yahtzee(history[name][1]):
            if got_fifty:
                ybonus = ybonus + 100
            if name == "Yahtzee" and points == 50:
                got_fifty = True
    bonus = 0
    if upper > 63:
        bonus = 35
    return upper, bonus, lower, ybonus


def main():
    """plays the game"""
    global dice, round_no
    print("*** YAHTZEE ***")
    while round_no <= 13:
        print()
        print("ROUND", round_no)
        for i in range(5):
            dice[i] = random.randint(1, 6)
        throw = 1
        while True:
            print("Throw", throw)
            print("  a  b  c  d  e")
            print(" ", dice)
            if throw == 3:
                break
            answer = input("Type letter(s) of dice to keep and press ENTER >>> ")
            for i in range(5):
                if "abcde"[i] not in answer:
                    dice[i] = random.randint(1, 6)
            throw = throw + 1
        print("You can still play:")
        for i in range(13):
            if NAMES[i] not in history:
                print(i + 1, NAMES[i])
        while True:
            choice = input("enter number of option to play >>> ")
            if not choice.isdigit():
                print("That is not a number")
            elif int(choice) < 1 or int(choice) > 13:
                print("Only 1 to 13 please")
            else:
                break
        name = NAMES[int(choice) - 1]
        points = calculate_score(dice, name, history)
        history[name] = (points, list(dice))
        print("you get", points, "points for", name)
        input("press ENTER to continue >>> ")
        round_no = round_no + 1
    upper, bonus, lower, ybonus = calculate_final_scores(history)
    print("GAME OVER")
    for i in range(13):
        print(NAMES[i].ljust(18), str(history[NAMES[i]][0]).rjust(3), "(of",
              str(MAX_POINTS[i]) + ")", history[NAMES[i]][1])
        if i == 5:
            print("sum upper section:", upper)
            print("upper section bonus:", bonus)
    print("sum lower section", lower)
    print("Yahtzee bonus:", ybonus)
    print("final score:", upper + bonus + lower + ybonus)


if __name__ == "__main__":
    main()
