"""FunctionCalls loads a student's module so that every function it defines can be called:
a game at import gets answers that end it, then the end of input; top-level statements that
fail are reported and skipped; a statement that never stops is skipped in a fresh child;
modules that are not installed get stand-ins; call timeouts count CPU time."""
from __future__ import annotations

import shutil
import textwrap

import pytest

from conftest import busy_machine, fresh_run_folder
from graders.engine.call.calls import MAX_STUCK, FunctionCalls, output_at_calls


@pytest.fixture
def load(tmp_path):
    """load(source, specs, others) -> (results, calls): the calls made on a module with that
    source (``others``: more files, name -> source)."""
    def run(source: str, specs: list[dict], others: dict[str, str] | None = None):
        path = tmp_path / "prog.py"
        path.write_text(textwrap.dedent(source))
        workdir = fresh_run_folder([path], others)
        try:
            with FunctionCalls(workdir / "prog.py", workdir, module="prog") as calls:
                results = calls.run([dict(spec, id=number) for number, spec in
                                     enumerate(specs)])
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        return results, calls
    return run


def test_a_game_at_import_is_ended_and_the_functions_after_it_are_reached(load):
    (after,), calls = load("""
        def play_round():
            choice = input("Play or fold? (p/f) ")
            return -10 if choice == "f" else 20

        total = 0
        while True:
            total += play_round()
            print("Total:", total)
            if input("Play again? (y/n) ") in ("n", "no"):
                break

        def after_the_loop():
            return total
    """, [{"func": "after_the_loop"}])
    assert after["ok"] and after["value"] == -10
    assert calls.load["asked"] == 2 and calls.load["stubbed"] == []
    (loop,) = calls.load["problems"]
    assert (loop["line"], loop["statement"], loop["error"]) == (7, "while True:", None)
    assert "Play or fold? (p/f) «f»\nTotal: -10\nPlay again? (y/n) «n»" in loop["printed"]
    assert calls.import_error is None and calls.stuck == []


def test_a_calls_output_is_cut_where_it_asked_and_called_its_scripted_functions(load):
    (played,), _ = load("""
        def deal():
            return 0

        def main():
            print("Welcome")
            card = deal()
            print("You got", card)
            answer = input("Again? ")
            print("Bye", answer)
    """, [{"func": "main", "inputs": ["n"], "patch": {"deal": [7]}}])
    assert output_at_calls(played) == [
        ("script", "deal", "Welcome\n"), ("input", "", "You got 7\nAgain? "),
        ("answered", "", "n\n"), ("end", "", "Bye n\n")]


def test_a_question_asked_again_gets_the_next_form_of_the_answer(load):
    (value,), calls = load("""
        answer = ""
        while answer != "no":
            answer = input("Again? ")
        def value():
            return answer
    """, [{"func": "value"}])
    assert value["value"] == "no" and calls.load["asked"] == 2


def test_a_loop_that_outlasts_the_answers_ends_at_the_end_of_input(load):
    (reached,), calls = load("""
        rounds = 0
        while True:
            rounds += 1
            if input("Type stop to end: ") == "stop":
                break
        def reached():
            return rounds
    """, [{"func": "reached"}])
    assert reached["ok"] and reached["value"] == 11        # ten answers, then EOF
    (loop,) = calls.load["problems"]
    assert loop["error"] == "EOFError" and loop["asked"] == 11
    assert loop["printed"].endswith("Type stop to end: «end of input»\n")
    assert calls.restarts == 0 and calls.stuck == []


def test_failing_top_level_statements_are_reported_and_skipped(load):
    (reached,), calls = load("""
        assert 1 + 1 == 3, "my own test"
        x = 1 / 0
        exit()
        def reached():
            return "reached"
    """, [{"func": "reached"}])
    assert reached["value"] == "reached"
    errors = [(p["line"], p["error"]) for p in calls.load["problems"]]
    assert errors == [(2, "AssertionError"), (3, "ZeroDivisionError"), (4, "SystemExit")]
    assert "x = 1 / 0" in calls.load["problems"][1]["traceback"]


def test_a_statement_computing_too_long_is_stopped_after_cpu_seconds(load):
    (reached,), calls = load("""
        count = 0
        while True:
            count += 1
        def reached():
            return count > 0
    """, [{"func": "reached"}])
    assert reached["value"] is True
    (loop,) = calls.load["problems"]
    assert loop["stopped"] and "CPU" in loop["message"]


@pytest.mark.parametrize("loop", [
    # swallows the end of input and the grader's stop, and keeps asking
    """while True:
           try:
               input("Again? ")
           except:
               pass""",
    # swallows the grader's stop and keeps computing
    """while True:
           try:
               while True:
                   pass
           except BaseException:
               pass"""])
def test_a_statement_that_never_stops_is_skipped_in_a_fresh_child(load, loop):
    source = "LIMIT = 3\n" + textwrap.dedent(loop) + "\ndef reached():\n    return LIMIT\n"
    (reached,), calls = load(source, [{"func": "reached"}])
    assert reached["ok"] and reached["value"] == 3
    (stuck,) = calls.stuck
    assert stuck["line"] == 2 and calls.load["skipped"] == [{"line": 2,
                                                             "statement": "while True:"}]
    assert calls.load["mode"] == "statements" and calls.import_error is None


def test_after_too_many_such_statements_only_definitions_are_loaded(load):
    loop = "while True:\n    try:\n        input('Again? ')\n    except:\n        pass\n"
    source = "RANKS = '23456789XJQKA'\nprint('hello')\n" + loop * (MAX_STUCK + 1) + \
        "def first():\n    return RANKS[0]\n"
    (first,), calls = load(source, [{"func": "first"}])
    assert first["ok"] and first["value"] == "2"
    assert calls.load["mode"] == "definitions"
    assert [stuck["line"] for stuck in calls.stuck] == [3, 8, 13, None]
    assert {"line": 2, "statement": "print('hello')"} in calls.load["skipped"]


def test_modules_that_are_not_installed_get_stand_ins_for_the_students_imports(load):
    results, calls = load("""
        from bakery import assert_equal
        import pyinputplus as pyip
        import bakery.extra
        assert_equal(1, 2)
        def ask():
            return pyip.inputYesNo(prompt="Sure? ")
        def other():
            return pyip.anything_else(3)
    """, [{"func": "ask", "inputs": ["yes"]}, {"func": "other"},
          {"code": "try:\n    import not_installed_anywhere\n    result = 'stand-in'\n"
                   "except ImportError:\n    result = 'ImportError'"}])
    asked, other, grader_import = results
    assert asked["value"] == "yes" and asked["stdout"] == "Sure? yes\n"
    assert other["ok"] and other["value"] is None
    assert grader_import["value"] == "ImportError"        # only the student's imports
    assert calls.load["stubbed"] == ["bakery", "pyinputplus"]
    assert calls.load["problems"] == []


def test_a_star_import_of_a_missing_testing_library_gives_the_names_the_file_uses(load):
    (value,), calls = load("""
        from cisc108 import *
        assert_equal(1 + 1, 3)
        assert_true(False)
        def value():
            return 7
    """, [{"func": "value"}])
    assert value["value"] == 7
    assert calls.load["stubbed"] == ["cisc108"] and calls.load["problems"] == []


@pytest.mark.parametrize("source", ["def broken(:\n    pass\n",
                                    "print('never')\nreturn 5\n"])
def test_a_syntax_error_is_an_import_error_and_nothing_runs(load, source):
    (probe,), calls = load(source, [{"code": "result = 1"}])
    assert probe["error"] == "import" and "SyntaxError" in calls.import_error
    assert calls.stuck == [] and calls.load == {}


@pytest.mark.parametrize("source, others, error", [
    ("from random import randInt\n", {}, "cannot import name 'randInt'"),
    ("import helper\nVALUE = 3\n", {"helper.py": "from prog import VALUE\n"},
     "partially initialized module 'prog'")])
def test_an_import_that_fails_fails_the_load_as_it_fails_the_program(load, source, others,
                                                                     error):
    (probe,), calls = load(source, [{"code": "result = 1"}], others)
    assert probe["error"] == "import" and error in calls.import_error
    assert "ImportError" in calls.import_error and calls.stuck == []


def test_a_call_that_swallows_its_timeout_is_reported_and_the_next_call_runs(load):
    (swallowed, after), calls = load("""
        def swallows():
            while True:
                try:
                    while True:
                        pass
                except BaseException:
                    pass
        def after():
            return "fresh"
    """, [{"func": "swallows", "timeout": 0.3}, {"func": "after"}])
    assert swallowed["error"] == "timeout" and "CPU" in swallowed["message"]
    assert after["ok"] and after["value"] == "fresh" and calls.restarts == 1


def test_a_call_that_catches_its_timeout_and_returns_still_timed_out(load):
    (caught, after), calls = load("""
        def has_pair(hand):
            try:
                while True:
                    pass
            except BaseException:
                return False
        def after():
            return "next"
    """, [{"func": "has_pair", "args": [[2, 2, 5]], "timeout": 0.3}, {"func": "after"}])
    assert caught["error"] == "timeout" and after["value"] == "next"


def test_the_load_is_the_same_on_a_busy_machine(load):
    source = """
        count = 0
        while True:                    # stopped after its CPU time
            count += 1
        while True:                    # swallows the stop: skipped in a fresh child
            try:
                input("Again? ")
            except:
                pass
        def reached():
            return count > 0
    """

    def outcome():
        (reached,), calls = load(source, [{"func": "reached"}])
        problems = [(p["line"], p["error"], p["stopped"]) for p in calls.load["problems"]]
        return reached["value"], problems, [s["line"] for s in calls.stuck]

    quiet = outcome()
    assert quiet == (True, [(3, "LoadStopped", True)], [5])
    with busy_machine(1) as burners:
        busy = outcome()
        assert all(burner.poll() is None for burner in burners)
    assert busy == quiet
