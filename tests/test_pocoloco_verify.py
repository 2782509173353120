"""The check of a PocoLoco round's reading against its transcript (graders/pocoloco/verify.py),
on made-up rounds: what a line claims, what contradicts a reading, and the other readings
tried before a round is left to a TA."""
from __future__ import annotations

from graders.pocoloco import verify
from graders.pocoloco.reading import Round, Turn, word

NAMES = ["Quillon", "Otto", "Wren", "Juno"]


def test_dice_on_a_line_are_read_after_a_counter_and_in_threes():
    assert verify.triples("Quillon, roll 1: 2 3 4") == [(2, 3, 4)]
    assert verify.triples("Otto rolled 2-3-5 -> 1 5 6") == [(2, 3, 5), (1, 5, 6)]
    assert verify.triples("Wren: [6, 5, 4]") == [(4, 5, 6)]
    assert verify.triples("Juno has 12 chips") == []


def test_a_claim_names_one_player_and_is_not_a_target_or_a_roll_off():
    text = ("Otto rolled 2 3 5\n"
            "Wren needs to beat 2 3 5\n"
            "Otto 2 3 5 beats Juno 1 1 2\n"
            "Juno rolled twice\n"
            "Tie between Otto and Wren! Roll-off:\n"
            "Otto rolled 6 6 6\n")
    claims = verify.claims_in(text, 0, len(text), NAMES, word)
    assert [(c.player, c.dice, c.count) for c in claims] == [
        ("Otto", (2, 3, 5), None), ("Juno", None, 2)]


def _round(turns: dict[str, list[tuple[int, int, list[int]]]]) -> Round:
    """A round read as ``turns``: player -> [(place, text offset, faces)]."""
    made = {p: Turn(p, [f for _, _, f in rolls], [e for _, e, _ in rolls],
                    [s for s, _, _ in rolls]) for p, rolls in turns.items()}
    return Round(0, list(made), made, 0, 0)


def _draws(round_: Round) -> list[tuple[int, int]]:
    return sorted((s, e) for t in round_.turns.values() for s, e in zip(t.seqs, t.ends))


# Computers roll silently after the human; the summary names every player's kept dice.
SUMMARY = ("Round summary:\n  Quillon kept 2 3 5\n  Otto kept 4 4 6\n  Wren kept 1 5 6\n"
           "  Juno kept 2 2 3\n")


def test_a_reading_that_merged_two_silent_turns_is_replaced_by_the_one_that_fits():
    at = 1000                                    # every computer's dice drawn at one offset
    wrong = _round({"Quillon": [(2, 10, [2, 3, 5])],
                    "Otto": [(5, at, [4, 4, 6]), (8, at, [1, 5, 6])],
                    "Wren": [(11, at, [2, 2, 3])]})
    text = " " * (at + 50) + SUMMARY            # printed after the last draw
    claims = verify.claims_in(text, at + 50, len(text), NAMES, word)
    assert len(claims) == 4
    ok, why, seats = verify.verify_round(wrong, "Quillon", NAMES, claims, [], _draws(wrong), [])
    assert ok and why is None
    assert {p: [r for _, _, r in rolls] for p, rolls in seats.items()} == {
        "Quillon": [(2, 3, 5)], "Otto": [(4, 4, 6)], "Wren": [(1, 5, 6)], "Juno": [(2, 2, 3)]}


def test_a_round_no_single_reading_explains_is_left_with_its_contradiction():
    at = 1000
    wrong = _round({"Quillon": [(2, 10, [2, 3, 5])],
                    "Otto": [(5, at, [4, 4, 6]), (8, at, [1, 5, 6])],
                    "Wren": [(11, at, [2, 2, 3])]})
    # only the human's dice are named: the three computers could be seated any way
    claims = [verify.Claim("Quillon", (2, 3, 5), None, "Quillon kept 2 3 5", at + 50),
              verify.Claim("Otto", None, 1, "Otto rolled once", at + 60)]
    ok, why, seats = verify.verify_round(wrong, "Quillon", NAMES, claims, [], _draws(wrong), [])
    assert not ok and seats is None
    assert "Otto rolled once" in why and "more than one other reading" in why


def test_the_graders_answers_place_the_humans_turn():
    round_ = _round({"Otto": [(2, 10, [4, 4, 6])], "Quillon": [(5, 30, [2, 3, 5])],
                     "Wren": [(8, 60, [1, 5, 6]), (11, 90, [2, 2, 3])],
                     "Juno": [(14, 120, [3, 3, 4])]})
    draws = _draws(round_)
    # answered after Quillon's roll: fine; answered yes between Wren's rolls: not the human's
    fine = verify.placed([verify.Question(40, False)], draws)
    assert verify.problems(_seats(round_), "Quillon", [], fine) == []
    during = verify.placed([verify.Question(40, False), verify.Question(70, True)], draws)
    assert verify.problems(_seats(round_), "Quillon", [], during) == [
        "the grader answered a roll question during Wren's turn"]
    # the human rolled again after the grader said no
    twice = _round({"Otto": [(2, 10, [4, 4, 6])],
                    "Quillon": [(5, 30, [2, 3, 5]), (8, 60, [1, 5, 6])],
                    "Wren": [(11, 90, [2, 2, 3])], "Juno": [(14, 120, [3, 3, 4])]})
    said_no = verify.placed([verify.Question(40, False)], _draws(twice))
    assert verify.problems(_seats(twice), "Quillon", [], said_no) == [
        "Quillon rolled again after the grader answered no"]


def _seats(round_: Round) -> dict:
    return {p: list(zip(t.seqs, t.ends, map(tuple, t.rolls))) for p, t in round_.turns.items()}
