"""The exhaustive checks' default judge: a right answer is only compared, never spelled."""
from __future__ import annotations

from graders.engine.call import exhaustive as exhaustive_module
from graders.engine.call.exhaustive import default_judge


def test_the_default_judge_spells_only_wrong_answers():
    """A right answer costs a comparison: its call and working are never built."""
    worked = []

    def detail(item):
        worked.append(item)
        return "(2 + 2)"
    assert default_judge("add", (2, 2), {"v": 4}, 4, detail=detail) is None
    assert worked == []
    failure = default_judge("add", (2, 2), {"v": 5}, 4, detail=detail)
    assert (failure.call, failure.got, failure.detail) == ("add(2, 2)", "returned 5", "(2 + 2)")
    assert worked == [(2, 2)]
    failure = default_judge("add", (2, 2), {"error": "TypeError", "message": "no"}, 4)
    assert failure.got == "raised TypeError: no"


def test_a_function_answering_none_everywhere_is_one_problem_said_once():
    """A stub left as 'pass': no list of rules by case, one sentence; and a sweep stopped
    early says how many can at most have been right."""
    sweep = exhaustive_module.Sweep("is_yahtzee", 10, stopped_early=True)
    sweep.failures = [exhaustive_module.Failure([n], f"is_yahtzee([{n}])", "returned None",
                                                "False", f"rule {n % 3}") for n in range(8)]
    message = sweep.report("throws")["message"]
    assert "It returned None for all 8 throws tried" in message
    assert "by rule" not in message and "at most 2 of 10 right" in message
