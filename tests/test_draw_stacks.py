"""Draw events from the same place as the draw before them carry no stack of their own (the
boot file says "same stack"); the harness gives them the stack that draw carried."""
from __future__ import annotations

from graders.engine.run.harness import Child


def test_every_draw_gets_the_stack_of_the_place_it_was_made(run_program):
    session = run_program("""
        import random
        def roll(player):
            return [random.randint(1, 6) for _ in range(3)]
        def turn(player):
            return roll(player)
        for name in ["Ann", "Ann", "Bob"]:
            print(name, turn(name))
        input("Again? ")
        print(roll("Cy"), random.randint(1, 6))
    """, answers=["no"])
    stacks = [mark.data["stack"] for mark in session.transcript.draws]
    assert len(stacks) == 3 * 4 + 1
    players = [dict(stack[0]["strings"])["player"] for stack in stacks[:12]]
    assert players == ["Ann"] * 6 + ["Bob"] * 3 + ["Cy"] * 3
    assert [stack[0]["fn"] for stack in stacks[:12]] == ["roll"] * 12
    assert stacks[0] == stacks[5] and stacks[6] != stacks[5]
    assert [frame["fn"] for frame in stacks[6]] == ["roll", "turn", "<module>"]
    assert [frame["fn"] for frame in stacks[9]] == ["roll", "<module>"]
    assert [frame["fn"] for frame in stacks[12]] == ["<module>"]


def test_a_same_stack_draw_takes_the_stack_of_the_last_draw_that_had_one(tmp_path):
    child = Child(tmp_path / "prog.py", workdir=tmp_path)
    first = {"ev": "draw", "stack": [{"fn": "roll", "line": 3, "strings": [], "module": False}]}
    again = {"ev": "draw", "same_stack": True}
    own = {"ev": "draw", "same_stack": True, "stack": []}
    for event in (first, again, own):
        child._draw_stack(event)
    assert again["stack"] == first["stack"] and "same_stack" not in again
    assert own["stack"] == []                    # a stack of its own is kept
    child._draw_stack(again := {"ev": "draw", "same_stack": True})
    assert again["stack"] == []                  # the last draw that carried one


def test_a_stack_names_what_holds_a_name_and_passes_over_the_rest(run_program):
    """Functions, classes, numbers, None and plain containers say no name; strings, a dict's
    or an object's name and a module do; a key that is not a string (``globals()[1] = ...``)
    is passed over, not a crash of the program at its first die."""
    session = run_program("""
        import random
        class Player:
            def __init__(self, name):
                self.name = name
        TITLE, ROUNDS, NOTHING, DICE = "PocoLoco", 10, None, [1, 2]
        seat = {"name": "Bo"}
        current = Player("Cy")
        globals()[1] = "one"
        def roll(player):
            return random.randint(1, 6)
        print(roll("Ann"))
    """)
    (stack,) = [mark.data["stack"] for mark in session.transcript.draws]
    assert dict(stack[0]["strings"]) == {"player": "Ann"}
    module = dict(stack[1]["strings"])
    assert module["TITLE"] == "PocoLoco" and module["seat['name']"] == "Bo"
    assert module["current.name"] == "Cy" and module["random.name"] == "random"
    assert not {"ROUNDS", "NOTHING", "DICE", "Player", "roll"} & set(module)
    assert session.child.outcome.get("status") != "exception", session.transcript.text
