"""Exhaustive sweeps: the child's compact answers spelled out for a judge as before, input
spaces and the reference's answers kept for the next sweeps, and each input's own CPU time."""
from __future__ import annotations

import marshal

import pytest

from graders.engine.call import exhaustive as engine
from graders.engine.call.calls import FunctionCalls
from graders.engine.call.exhaustive import exhaustive

MODULE = '''
class Thing:
    def __repr__(self):
        return "<thing>"


class Small(int):
    pass


def kinds(number):
    """A different kind of answer for each number."""
    if number == 5:
        raise ValueError("five")
    return [True, 1, (1, 2), "x", None, None, [1], {"a": 1}, Thing(), Small(3), 2.5][number]


def key_kind(mapping, pairs):
    """The types the arguments arrive with."""
    return [type(next(iter(mapping))).__name__, type(pairs[0]).__name__]


def is_even(number):
    """Right, but 1 and 0 instead of True and False for numbers above 3."""
    even = number % 2 == 0
    return int(even) if number > 3 else even


def pair(number):
    """(number, 'n') as a tuple, but a list for 2."""
    return [number, "n"] if number == 2 else (number, "n")


def busy(number):
    """About 0.07 s of CPU per input."""
    import time
    start = time.process_time()
    while time.process_time() - start < 0.07:
        pass
    return number
'''


@pytest.fixture
def calls(tmp_path):
    (tmp_path / "module.py").write_text(MODULE)
    with FunctionCalls(tmp_path / "module.py", tmp_path) as calls:
        yield calls


def test_a_judge_gets_the_same_entries_as_before(calls):
    seen = {}

    def judge(number, entry, expected):
        seen[number] = entry

    found = exhaustive(calls, "kinds", list(range(11)), lambda number: None, judge=judge)
    assert found.failures == [] and found.checked == 11
    traceback = seen[5].pop("traceback")
    assert "ValueError: five" in traceback
    assert [seen[number] for number in range(11)] == [
        {"v": True, "t": "bool"}, {"v": 1, "t": "int"}, {"v": [1, 2], "t": "tuple"},
        {"v": "x", "t": "str"}, {"v": None, "t": "NoneType"},
        {"error": "ValueError", "message": "five"}, {"v": [1], "t": "list"},
        {"v": {"a": 1}, "t": "dict"}, {"v": {"repr": "<thing>", "type": "Thing"}, "t": "Thing"},
        {"v": 3, "t": "Small"}, {"v": 2.5, "t": "float"}]


def test_arguments_arrive_as_json_gives_them_every_time(calls):
    inputs = [({1: "a"}, [(1, 2)])] * 3
    for _ in range(3):               # the kept space's marshal bytes, made from JSON's values
        found = exhaustive(calls, "key_kind", inputs, lambda mapping, pairs: ["str", "list"])
        assert found.failures == [] and found.checked == 3
    texts = engine.space(inputs, engine.BATCH).texts
    assert len(texts) == 1 and not texts[0].startswith("[")


def test_the_reference_answers_each_input_once_per_process(calls):
    asked = []

    def reference(number):
        asked.append(number)
        return number % 2 == 0

    inputs = list(range(2500, 2600))
    first = exhaustive(calls, "is_even", inputs, reference, batch=40)
    again = exhaustive(calls, "is_even", inputs, reference, batch=40)
    assert sorted(asked) == inputs
    # 1 and 0 are not True and False, whichever way the answers are compared
    assert len(first.failures) == len(again.failures) == 100
    assert first.failures[0].got == again.failures[0].got == "returned 1"
    assert "real bool" in first.failures[0].why


def test_small_inputs_are_compared_one_by_one(calls):
    found = exhaustive(calls, "is_even", list(range(8)), lambda number: number % 2 == 0)
    assert [failure.input for failure in found.failures] == [4, 5, 6, 7]


def test_an_agreeing_judge_is_asked_only_about_inexact_answers(calls):
    asked = []

    def judge(number, entry, expected):
        asked.append((number, entry))

    found = exhaustive(calls, "pair", [1, 2, 3], lambda number: (number, "n"), judge=judge,
                       exact_is_right=True)
    assert found.checked == 3 and asked == [(2, {"v": [2, "n"], "t": "list"})]


def test_each_input_gets_its_own_cpu_time(calls):
    found = exhaustive(calls, "busy", [1, 2, 3, 4], lambda number: number, timeout=0.15)
    assert found.hang is None and found.fraction == 1.0
    assert calls.restarts == 0


def test_a_constant_space_keeps_its_batches_on_itself(calls):
    asked = []

    def reference(number):
        asked.append(number)
        return number % 2 == 0

    numbers = engine.Inputs(range(1, 4))
    for _ in range(3):
        found = exhaustive(calls, "is_even", numbers, reference)
        assert found.checked == 3 and found.failures == []
    assert asked == [1, 2, 3]
    assert engine.space(numbers, engine.BATCH).texts == [marshal.dumps([[1], [2], [3]], 4).hex()]
