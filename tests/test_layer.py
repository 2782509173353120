"""Tests of the engine's grading layer: function cases with swapped helpers, exhaustive checks
in one child, requirements and their wording, readability settings, loaded draws with typed
events, run folders and the budget, and the rubric checked at collection time."""
from __future__ import annotations

import textwrap
from itertools import product

import pytest

from graders.engine.grading import plugin
from graders.engine.judge import readability
from graders.engine.run import static
from graders.engine.call.calls import Case, FunctionCalls, Kit, call_problem, parse_call, same
from graders.engine.run.draws import ScriptedDice, die_offset
from graders.engine.call.exhaustive import exhaustive
from graders.engine.run.harness import Child, Limits, run_folder
from graders.engine.drive.loaded import ScriptedValues
from graders.engine.drive.session import Session
from graders.engine.judge.requirements import Requirement, better, check, score
from graders.engine.judge.rubric import KIT_ROOT, CheckResult, Fail, Item, Rubric
from graders.engine.grading.submissions import from_path

from layer_helpers import kit_pairs

POKER = '''
def is_pair(hand):
    """Buggy on purpose: a triple counts as a pair."""
    return len(set(hand)) <= 2


def has_pair(hand):
    """Uses the helper above."""
    return is_pair(hand)


def count_up(limit):
    """Counts from 1; loops forever for 0."""
    number = 1
    while number != limit:
        number += 1 if limit > 0 else 0
    return number


def sort_in_place(hand):
    """Returns the list it was given, sorted."""
    hand.sort(reverse=True)
    return hand


def first_key(mapping):
    """The first key of a dict."""
    return next(iter(mapping))


def play():
    """Deals, asks, returns the points."""
    print("Your hand:", deal())
    answer = input("Play or fold? ")
    return 20 if answer == "p" else -10
'''
HANDS = [list(hand) for hand in product(range(2, 15), repeat=3)]


@pytest.fixture
def poker(tmp_path):
    """A FunctionCalls on the module above."""
    (tmp_path / "poker.py").write_text(POKER)
    with FunctionCalls(tmp_path / "poker.py", tmp_path) as calls:
        yield calls


def _result() -> CheckResult:
    return CheckResult("item", "check")


def _score(requirements, **options) -> CheckResult:
    result = _result()
    try:
        score(result, requirements, **options)
    except Fail as exc:          # not reached: score records shortfalls with partial()
        result.record_fail(exc)
    return result


# ----------------------------------------------------------------------------- function cases
def test_a_call_is_read_not_run():
    assert parse_call("has_pair([5, 5, 9])") == ("has_pair", [[5, 5, 9]], {})
    called = parse_call("Card.random({1: 'Ace'}, k=2)")
    assert called == ("Card.random", [{1: "Ace"}], {"k": 2})
    with pytest.raises(ValueError):
        parse_call("__import__('os').system('true')")
    assert same(True, True) and not same(1, True) and same(3.0, 3) and same([1, 2], (1, 2))


def test_cases_are_judged_against_their_expected_values(poker):
    cases = [Case("has_pair([5, 5, 9])", True, "Two cards of one rank are a pair."),
             Case("has_pair([5, 5, 5])", False, "A triple is not a pair.", size=1),
             Case("has_pair([2, 3, 4])", False, "No two cards match.")]
    requirements = poker.check(cases)
    assert [req.ok for req in requirements] == [True, False, True]
    wrong = requirements[1]
    assert (wrong.case, wrong.expected, wrong.actual) == ("has_pair([5, 5, 5])", "False",
                                                          "returned True")
    assert wrong.why == "A triple is not a pair."


def test_swap_judges_a_function_with_the_kits_helpers(poker):
    cases = [Case("has_pair([5, 5, 5])", False), Case("has_pair([5, 5, 9])", True)]
    own = poker.check(cases)
    swapped = poker.check([Case(c.call, c.expected) for c in cases],
                          swap={"is_pair": kit_pairs.is_pair})
    assert [r.ok for r in own] == [False, True] and [r.ok for r in swapped] == [True, True]
    assert better(own, swapped) == (swapped, True)
    # by module path too, and the student's helper is back afterwards
    (again,) = poker.check([Case("has_pair([5, 5, 5])", False)],
                           swap={"is_pair": "layer_helpers.kit_pairs:is_pair"})
    assert again.ok
    (after,) = poker.check([Case("is_pair([5, 5, 5])", True)])
    assert after.ok


def test_a_hanging_call_gives_up_its_group_only(poker):
    cases = [Case("count_up(3)", 3), Case("count_up(0)", 0), Case("count_up(5)", 5),
             Case("has_pair([4, 4, 2])", True)]
    poker.run_cases(cases)
    assert cases[0].outcome["ok"] and cases[1].hung and cases[2].skipped
    assert cases[3].outcome["ok"] and poker.restarts == 1
    assert cases[1].problem == "count_up(0) did not return within 1 s (an endless loop?)"
    assert "earlier call of the same function" in cases[2].problem


def test_scripted_helpers_inputs_and_the_timeline(poker):
    (case,) = poker.run_cases([Case("play()", patch={"deal": [[14, 9, 4]]}, inputs=("p",),
                                    spy=())])
    assert case.value == 20
    kinds = [entry[0] for entry in case.outcome["timeline"]]
    assert kinds == ["script", "input", "answered"]
    printed = case.outcome["stdout"]
    assert printed[:case.outcome["timeline"][1][2]].endswith("Play or fold? ")


def test_returned_argument_and_kit_calls(poker):
    (case,) = poker.run_cases([Case("sort_in_place([2, 9, 5])", args_after=True)])
    assert case.outcome["same"] == 0 and case.outcome["args_after"] == [[9, 5, 2]]
    (probe,) = poker.run_cases([Case(Kit(kit_pairs.names_defined, "has_pair"))])
    assert probe.value == {"has_pair": True}
    (keys,) = poker.check([Case("first_key({14: 'Ace', 2: 'Two'})", 14)])
    assert keys.ok                   # int keys and tuples reach the function as written
    assert poker.defined(["has_pair", "main", "play"]) == {"has_pair": True, "main": False,
                                                           "play": True}


def test_the_wording_of_a_failed_call_is_shared():
    assert call_problem({"ok": True}, "f()") is None
    assert call_problem({"ok": False, "error": "ValueError", "message": "bad"}, "f(1)") == \
        "f(1) raised ValueError: bad"
    assert "time budget" in call_problem({"ok": False, "error": "budget"}, "f()")


# ----------------------------------------------------------------------------- exhaustive
def test_exhaustive_runs_the_whole_space_in_one_child(poker):
    sweep = exhaustive(poker, "has_pair", HANDS, kit_pairs.is_pair,
                       why=lambda hand, value: "A triple is not a pair.")
    assert sweep.total == sweep.checked == 2197 and poker.restarts == 0
    assert [f.input for f in sweep.failures] == [[rank] * 3 for rank in range(2, 15)]
    assert sweep.failures[0].call == "has_pair([2, 2, 2])"
    assert sweep.fraction == 0.9
    result = _result()
    sweep.score(result, noun="hands")
    text = "\n".join(result.messages)
    assert "a wrong answer for 13 of the 2197 hands" in text
    assert "has_pair([2, 2, 2]) returned True, but the right answer is False" in text


def test_exhaustive_stops_early_once_decided(poker):
    sweep = exhaustive(poker, "has_pair", HANDS, lambda hand: "never", batch=100,
                       stop_at_zero=True)
    assert sweep.stopped_early and sweep.zero and sweep.fraction == 0.0
    assert sweep.checked < 2197
    found = exhaustive(poker, "has_pair", HANDS, kit_pairs.is_pair, batch=500, stop_after=1)
    assert found.stopped_early and found.checked == 500
    assert found.failures[0].input == [2, 2, 2]


def test_exhaustive_with_a_hang_scores_nothing(poker):
    sweep = exhaustive(poker, "count_up", [1, 2, 0, 4], lambda limit: limit)
    assert sweep.hang == "count_up(0) did not return within 1 s (an endless loop?)"
    assert sweep.fraction == 0.0 and sweep.checked == 2
    after = exhaustive(poker, "has_pair", [[3, 3, 4]], kit_pairs.is_pair)
    assert after.fraction == 1.0


# ----------------------------------------------------------------------------- requirements
def test_score_shows_the_smallest_failure_first_and_each_problem_once():
    requirements = [check(True, "round 1"),
                    check(False, "round 3", 30, 20, "The total adds up.", size=3),
                    check(False, "round 2", 10, 0, "The total adds up.", size=2),
                    Requirement(False),                  # counted, said by another
                    check(True, "round 4")]
    result = _score(requirements, noun="rounds")
    assert result.fraction == 0.4
    assert result.messages[0] == "3 of 5 rounds went wrong. round 2. The total adds up."
    assert result.details[0]["expected"] == "10" and result.details[0]["actual"] == "0"
    assert len(result.messages) == 2 and result.judged_cases == 5
    passed = _score([check(True, "a")], all_right="Fine.")
    assert passed.fraction == 1.0 and passed.notes == ["Fine."]


def test_a_long_expectation_several_failures_share_is_shown_once():
    """A whole game's plan expected by three failing cases is shown under the first alone;
    a short expected value stays beside each case's own value."""
    plan = "round 1: your hand Q 7 5, dealer K 9 2: -20; round 2: your hand A 9 4: +10."
    requirements = [check(False, f"answer {n}", plan, None, "The game went wrong.", size=n)
                    for n in range(3)] + [check(False, "total", 10, 0, "Add up.", size=3)]
    details = _score(requirements).details
    assert [detail["expected"] for detail in details[:3]] == [plan, None, None]
    short = _score([check(False, "a", 10, 0, "Add."), check(False, "b", 10, 1, "Add.")])
    assert [detail["expected"] for detail in short.details] == ["10", "10"]


# ----------------------------------------------------------------------------- readability
def test_readability_weights_come_from_the_rubric_table(tmp_path):
    code = tmp_path / "game.py"
    code.write_text('def add(a, b):\n    return a + b\n\n\ndef total(numbers):\n'
                    '    """The sum."""\n    return sum(numbers)\n')
    even = readability.measure({"game.py": code})
    assert even.parts == {"lines": 1.0, "docstrings": 0.5, "names": 0.5}
    assert even.fraction == round(2 / 3, 2)
    settings = readability.Settings.from_table({"weights": {"names": 0},
                                                "allowed_short": ["a", "b"]})
    weighted = readability.measure({"game.py": code}, settings)
    assert weighted.short_names == {} and weighted.fraction == 0.75
    with pytest.raises(ValueError):
        readability.Settings.from_table({"wieghts": {}})


# ----------------------------------------------------------------------------- draws, folders
FACES = "\u2680\u2681\u2682\u2683\u2684\u2685"            # six die faces as one character each


def test_loaded_dice_report_typed_draws_to_observers(tmp_path):
    program = tmp_path / "dice.py"
    program.write_text("import random\nprint(random.randint(1, 6), "
                       f"random.choice({FACES!r}),"
                       " random.randint(2, 14))\n", encoding="utf-8")
    dice, seen = ScriptedDice([4, 2]), []
    dice.observe(seen.append)
    child = Child(program, workdir=tmp_path, policy=dice).start()
    while child.next_event() is not None:
        pass
    assert [draw.faces for draw in dice.die_draws_since(0)] == [(4,), (2,)]
    assert [draw.number for draw in seen] == [1, 2, 3] and seen[0].fn == "randint"
    ranks = ScriptedValues([12, 3], 2, 14)
    assert ranks.answer({"fn": "randint", "req": {"a": 2, "b": 14}})[0] == 12
    assert ranks.answer({"fn": "choice", "req": {"items": list(range(2, 15)), "n": 13}})[0] \
        == 1


@pytest.mark.parametrize("frames", ["before", "after", "are the throw"])
def test_a_rolling_animation_does_not_take_the_loaded_dice(tmp_path, frames):
    """Random faces flashed on one line ('\\r') before or after the real throw are frames:
    the throw shows the loaded faces, and counts its own dice only (a Yahtzee program
    animating its throws with random.randint was judged against dice it never threw, and lost
    3.8 of 18 points). Where the frames are the throw (the last one stays), it counts once."""
    loop = ("for frame in range(4):\n"
            "    {name} = [random.randint(1, 6) for _ in range(5)]\n"
            "    print('\\rRolling... ' + str({name}), end='', flush=True)\n")
    throw = "dice = [random.randint(1, 6) for _ in range(5)]\n"
    first = {"before": loop.format(name="fake") + throw, "after": throw + loop.format(
        name="fake"), "are the throw": loop.format(name="dice")}[frames]
    program = tmp_path / "anim.py"
    program.write_text("import random\n" + first + "print('\\rThrow:', *dice)\n"
                       + "input('Keep? ')\n" + throw + "print('Throw:', *dice)\n")
    dice = ScriptedDice([6, 5, 4, 3, 2])
    session = Session.start(program, tmp_path, policy=dice)
    try:
        while session.wait() is not None:
            dice.load([1, 1, 2, 2, 3])
            session.type("")
        printed = "".join(event.text for event in session.child.log if event.kind == "out")
    finally:
        session.close()
    shown = [line.split("Throw:")[1].split() for line in printed.splitlines()
             if "Throw:" in line]
    assert shown == [["6", "5", "4", "3", "2"], ["1", "1", "2", "2", "3"]]
    assert [draw.faces[0] for draw in dice.die_draws_since(0)] == [6, 5, 4, 3, 2, 1, 1, 2, 2, 3]


def test_dice_from_the_handouts_function_leave_other_faces_as_decoration(tmp_path):
    """Poker Dice's handout throws dice with random.randint(1, 6): once a program has, six
    faces picked with random.choice (an animation) are neither loaded nor counted; a program
    that only ever uses choice keeps its draws as dice (its rule break costs one item)."""
    program = tmp_path / "dice.py"
    program.write_text("import random\nprint(random.randint(1, 6), "
                       f"random.choice({FACES!r}),"
                       " random.randint(1, 6))\n", encoding="utf-8")
    dice = ScriptedDice([4, 2, 6], dice_from=("randint",))
    child = Child(program, workdir=tmp_path, policy=dice).start()
    while child.next_event() is not None:
        pass
    assert [(draw.fn, draw.faces) for draw in dice.die_draws_since(0)] == \
        [("randint", (4,)), ("randint", (2,))]
    program.write_text("import random\nprint(random.choice([1, 2, 3, 4, 5, 6]))\n")
    dice = ScriptedDice([5], dice_from=("randint",))
    child = Child(program, workdir=tmp_path, policy=dice).start()
    while child.next_event() is not None:
        pass
    assert [(draw.fn, draw.faces) for draw in dice.die_draws_since(0)] == [("choice", (5,))]


@pytest.mark.parametrize("items, offset", [
    (list(FACES), 0), (["+---+\n| o |\n+---+"] * 6, 0),
    (["[.]", "[:]", "[.:]", "[::]", "[:.:]", "[:::]"], 0),
    ([1, 2, 3, 4, 5, 6], 1), ([0, 1, 2, 3, 4, 5], 0), ([1, 2, 3, 4, 5, 7], None),
    (["Otto", "Mo", "Wren", "Juno", "Ann", "Bo"], None),
    # a pool of computer players' names: 'R2D2' holds no word, the others do
    (["Bender", "R2D2", "Wall-E", "Data", "Robby", "Johnny 5"], None)])
def test_six_faces_are_a_die_and_six_names_are_not(items, offset):
    """A choice among six names was taken for a die roll before Round 1 (PocoLoco: the
    program's view of the game went out of step, and 'standings' lost half its marks)."""
    assert die_offset("choice", {"n": 6, "items": items}) == offset


def test_imports_the_grader_lacks_outside_try_are_listed(tmp_path):
    (tmp_path / "helpers.py").write_text("X = 1\n")
    program = tmp_path / "game.py"
    program.write_text("import random, os.path\nfrom bakery import assert_equal\n"
                       "import cs1_lib.io\nimport helpers\nfrom . import nothing\n"
                       "try:\n    import colorama\nexcept ImportError:\n    colorama = None\n"
                       "def main():\n    if True:\n        import cisc108\n"
                       "    else:\n        pass\n    try:\n        pass\n"
                       "    finally:\n        import inside_finally\n"
                       "class Game:\n    for _ in range(1):\n        import pyfiglet\n"
                       "    else:\n        import termcolor\n"
                       "match 1:\n    case 1:\n        import in_a_case\n"
                       "while False:\n    with open('x') as f:\n        import in_with\n")
    assert static.unavailable_imports(program) == [
        "bakery", "cisc108", "cs1_lib", "in_a_case", "in_with", "pyfiglet", "termcolor"]


def test_a_course_library_the_grader_lacks_does_not_stop_a_game(run_program):
    """A game importing a course's testing library (bakery) crashed at once in the terminal
    (Yahtzee 12/18, HiLo 10/13 for one import); it now gets a stand-in, as the function calls
    do, and a library imported inside try keeps its own way out."""
    session = run_program("""
        from bakery import assert_equal
        try:
            import colorama
        except ImportError:
            colorama = None
        answer = input("Roll? ")
        print("rolled", answer, colorama)
        if __name__ == "__main__":
            assert_equal(1, 2)
    """, answers=["yes"])
    printed = session.transcript.text
    assert "rolled y None" in printed and "ModuleNotFoundError" not in printed


def test_run_folders_are_removed_and_runs_draw_from_the_budget(tmp_path):
    program = tmp_path / "game.py"
    program.write_text("print('hi')\n")
    submission = from_path(program, "game.py", "sam")
    with run_folder(submission, "games") as folder:
        assert (folder / "game.py").read_text() == "print('hi')\n"
        (folder / "locked").mkdir(mode=0o500)
    assert not folder.exists()
    budget = plugin.Budget(2.0)
    assert budget.limits(cpu_seconds=10).cpu_seconds <= 2.0
    child = Child(program, workdir=tmp_path, limits=Limits(cpu_seconds=30), budget=budget)
    assert child.limits.cpu_seconds <= 2.0
    assert budget.map(lambda number: number * 2, [1, 2, 3]) == [2, 4, 6]
    spent = plugin.Budget(0.0)
    assert spent.map(lambda number: number, [1, 2]) == [None, None]


# ----------------------------------------------------------------------------- the plugin
RUBRIC = Rubric("toy", "Toy", "game.py", ["game.py"],
                [Item("rolls", 2, "Rolls"), Item("ui", 1, "Layout", review=True)])


def _grade(tmp_path, checks: str):
    """Grade a one-line program with a toy grader (a package of its own, so that pytest does
    not reuse another test's ``checks`` module)."""
    grader = tmp_path / f"toy_{tmp_path.name.replace('-', '_')}"
    grader.mkdir()
    (grader / "__init__.py").write_text("")
    (grader / "checks.py").write_text(textwrap.dedent(checks))
    program = tmp_path / "game.py"
    program.write_text("print('hi')\n")
    return plugin.run(RUBRIC, [from_path(program, "game.py", "sam")], grader)


def test_an_unknown_item_id_stops_grading_before_anything_runs(tmp_path):
    with pytest.raises(RuntimeError) as error:
        _grade(tmp_path, """
            import pytest

            @pytest.mark.item("rols")
            def check_rolls(result):
                raise SystemExit("must not run")
        """)
    text = str(error.value)
    assert "check_rolls is marked for item 'rols', which rubric.toml does not have" in text
    assert "item 'rolls' is scored automatically (review = false) but no check" in text


def test_a_check_out_of_time_is_recognised_by_type(tmp_path):
    reports = _grade(tmp_path, """
        import time
        import pytest

        @pytest.mark.timeout(0.3)
        @pytest.mark.item("rolls")
        def check_rolls(submission, result):
            time.sleep(5)
    """)
    (rolls,) = [v for v in reports[0].verdicts if v.item.id == "rolls"]
    assert not rolls.judged and "ran out of real time" in rolls.why_not_judged[0]
    assert any("timed out" in problem for problem in reports[0].problems)


# ----------------------------------------------------------------------------- the guide
GUIDE = KIT_ROOT / "graders" / "engine" / "README.md"
GUIDE_RULES = '''
def has_pair(hand):
    return len(set(hand)) == 2


def score_hand(hand):
    feature = max(hand, key=hand.count) if has_pair(hand) else 0
    return feature * 4096 + hand[0] * 256 + hand[1] * 16 + hand[2]
'''


def test_the_guides_example_grader_works(tmp_path):
    """The checks.py of graders/engine/README.md, as written, grades a submission."""
    text = GUIDE.read_text(encoding="utf-8")
    example = text.split("```python\n", 1)[1].split("```", 1)[0]
    grader = tmp_path / "guide_poker"
    grader.mkdir()
    (grader / "__init__.py").write_text("")
    (grader / "rules.py").write_text(GUIDE_RULES)
    (grader / "checks.py").write_text(textwrap.dedent(example))
    rubric = Rubric("poker", "Poker", "poker.py", ["poker.py"],
                    [Item("has_pair", 1, "has_pair"), Item("score_hand", 2, "score_hand"),
                     Item("readability", 2, "Readability", review=True)])
    program = tmp_path / "poker.py"
    program.write_text('"""Poker."""\n\n\ndef is_two(hand):\n    """Buggy helper."""\n'
                       '    return False\n\n\ndef has_pair(hand):\n    """A pair."""\n'
                       '    return len(set(hand)) == 2 or is_two(hand)\n\n\n'
                       'def score_hand(hand):\n    """The score."""\n'
                       '    feature = max(hand, key=hand.count) if has_pair(hand) else 0\n'
                       '    return feature * 4096 + hand[0] * 256 + hand[1] * 16 + hand[2]\n')
    (report,) = plugin.run(rubric, [from_path(program, "poker.py", "sam")], grader)
    scores = {v.item.id: v.score for v in report.verdicts}
    assert scores == {"has_pair": 1, "score_hand": 2, "readability": 2}
