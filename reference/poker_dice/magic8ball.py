"""The Magic 8 ball: the oracle that rewards a Poker Dice winner."""

import random


class Magic8:
    """Answers yes/no questions at random, out loud when text to speech works."""

    ANSWERS = [
        "Without a doubt.",
        "Yes, absolutely.",
        "The stars say yes.",
        "Count on it.",
        "Most probably.",
        "Looking good.",
        "Ask me again tomorrow.",
        "The mist is too thick to tell.",
        "Better not to say right now.",
        "Concentrate and ask again.",
        "No way.",
        "The dice say no.",
        "Very unlikely.",
        "Not in a million rolls.",
        "I would not bet my purse on it.",
    ]

    def getAnswer(self):
        """Return one of ANSWERS, picked at random."""
        return random.choice(Magic8.ANSWERS)

    def speakAnswer(self, answer):
        """Say answer with pyttsx3; if speech is unavailable or fails, print it instead."""
        try:
            import pyttsx3
            engine = pyttsx3.init()
            engine.say("The Magic 8 ball says")
            engine.say(answer)
            engine.runAndWait()
        except Exception:  # no package, no speech driver, no audio device...
            print(f"(speech unavailable) {answer}")
