"""The Magic 8 ball that answers the winner's yes/no question."""

import random


class Magic8:
    """Answers yes/no questions at random."""

    # TODO: about 15 answers of your own: some yes, some no, some maybe.
    ANSWERS = [
        "TODO: an answer",
    ]

    def getAnswer(self):
        """Return one of Magic8.ANSWERS, picked at random."""
        # TODO
        pass

    def speakAnswer(self, answer):
        """Say answer with pyttsx3; print it instead if pyttsx3 is missing or fails."""
        # TODO: never let this method crash
        pass
