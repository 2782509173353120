"""The exhaustive checks' default judge: a right answer is only compared, never spelled."""
from __future__ import annotations

from graders.engine.exhaustive import default_judge


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
