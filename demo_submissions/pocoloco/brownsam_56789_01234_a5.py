# Sam Brown, sbrown@sfu.ca, 301000001 -- an unfinished submission with a syntax error
import random


def main():
    name = input("Name: ")
    print("Hello" name)


main()
