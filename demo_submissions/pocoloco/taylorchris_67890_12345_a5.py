# Chris Taylor, ctaylor@sfu.ca, 301000002 -- gets stuck in a loop after the set-up
import random


def main():
    """Ask the set-up questions, then loop forever by mistake."""
    name = input("What is your name? ")
    chips = int(input("How many chips? "))
    print("Welcome to PocoLoco,", name)
    rolls = 0
    while rolls < 3:
        dice = [random.randint(1, 6) for _ in range(3)]
        print(dice)


main()
