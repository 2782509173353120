# Alex Wong, awong@sfu.ca, 301000003 -- crashes when the chip count is not what it expects
import random


def main():
    """Set up, play one roll, then crash on a typo."""
    print("PocoLoco!")
    name = input("Your name: ")
    chips = int(input("Starting chips: "))
    players = {name: chips, "Mo": chips, "Bo": chips, "Jo": chips}
    for player in players:
        dice = [random.randint(1, 6) for _ in range(3)]
        print(player, "rolled", dice)
    print(players[nmae])


main()
