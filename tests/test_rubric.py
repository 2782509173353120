"""Scoring rules: an item nothing could judge never gets marks silently; it scores 0, says
"not judged" and goes to the TA list; an item some check judged is scored from those checks."""
from __future__ import annotations

import csv
import json
import textwrap

import pytest

from graders.engine.grading import plugin
from graders.engine.grading.reports import (SubmissionReport, feedback_markdown, results_json,
                                            summary_text, write_class)
from graders.engine.judge.rubric import CheckResult, Item, NotJudged, Rubric, item_verdicts
from graders.engine.grading.submissions import from_path

RUBRIC = Rubric("toy", "Toy game", "game.py", ["game.py"],
                [Item("rolls", 4, "Rolls dice"), Item("chips", 2, "Chips move"),
                 Item("ui", 1, "Layout", review=True)])


def _not_judged(item_id: str, why: str, name: str = "check") -> CheckResult:
    check = CheckResult(item_id, name)
    try:
        check.not_judged(why, evidence="Round 1 ...")
    except NotJudged as exc:
        check.record_not_judged(exc.reason, exc.evidence, exc.evidence_title)
    return check


def _passing(item_id: str, cases: int | None = None) -> CheckResult:
    check = CheckResult(item_id, "passing")
    if cases is not None:
        check.judged(cases)
    return check


def _verdicts(*checks: CheckResult):
    return {v.item.id: v for v in item_verdicts(RUBRIC, list(checks))}


def test_not_judged_raises_so_the_check_stops():
    with pytest.raises(NotJudged) as caught:
        CheckResult("rolls", "x").not_judged("the game never reached Round 2")
    assert caught.value.reason == "the game never reached Round 2"


def test_an_item_only_not_judged_scores_zero_and_is_listed_for_review():
    verdicts = _verdicts(_not_judged("rolls", "The game never reached Round 2."),
                         _passing("chips"), _passing("ui"))
    rolls = verdicts["rolls"]
    assert rolls.score == 0 and not rolls.judged and not rolls.passed
    assert rolls.status == "failed"                    # Gradescope, until a TA has looked
    assert rolls.why_not_judged == ["The game never reached Round 2."]
    assert verdicts["chips"].judged and verdicts["chips"].score == 2
    report = SubmissionReport("sam", RUBRIC, list(verdicts.values()), 1.0)
    assert [v.item.id for v in report.not_judged] == ["rolls"]
    assert any(r.startswith("not judged: rolls") and "Round 2" in r
               for r in report.needs_review)


def test_one_not_judged_and_one_passing_check_score_from_the_passing_one():
    verdicts = _verdicts(_not_judged("rolls", "Scenario A had no tie."), _passing("rolls", 3))
    assert verdicts["rolls"].judged and verdicts["rolls"].score == 4
    assert verdicts["rolls"].passed


def test_an_item_partly_checked_is_listed_for_a_ta():
    """No evidence, no marks: a part of an item nothing checked (a PocoLoco program whose
    game ended before Round 10 kept the round-box marks for its Round 1 box alone) reaches the
    TA's list, while its score comes from what was checked."""
    verdicts = _verdicts(_not_judged("rolls", "Round 10 was not reached."), _passing("rolls", 1),
                         _passing("chips", 2), _passing("ui"))
    assert verdicts["rolls"].partly_unchecked == ["Round 10 was not reached."]
    assert verdicts["chips"].partly_unchecked == []
    report = SubmissionReport("sam", RUBRIC, list(verdicts.values()), 1.0)
    assert "partly checked: rolls (Round 10 was not reached.)" in report.needs_review
    assert not any("chips" in reason for reason in report.needs_review)
    # the student's summary (the self-check) says it too, beside the full marks
    lines = {line.split()[1]: line for line in summary_text(report).splitlines()[1:]
             if line.startswith("  ok ")}
    assert "only partly checked: Round 10 was not reached." in lines["rolls"]
    assert "partly" not in lines["chips"]


def test_not_judged_checks_do_not_dilute_a_partial_score():
    half = CheckResult("rolls", "half")
    half.partial(0.5, "One roll in two was shown.")
    verdicts = _verdicts(_not_judged("rolls", "No second game."), half)
    assert verdicts["rolls"].judged and verdicts["rolls"].score == 2


def test_several_checks_of_one_item_are_rounded_down_to_a_tenth_together():
    """0.9 and 1.0 are 0.95 on average: the item gets 0.9 of its points, as the check saying
    'this item gets 0.9' told the student; all right is still full marks."""
    nine = CheckResult("rolls", "sweep")
    nine.partial(0.9, "Wrong on 150 of 7776 throws.")
    assert _verdicts(nine, _passing("rolls"))["rolls"].score == 3.6
    assert _verdicts(_passing("rolls"), _passing("rolls"))["rolls"].score == 4
    half = CheckResult("rolls", "half")
    half.partial(0.5, "One game of two.")
    assert _verdicts(half, _passing("rolls"))["rolls"].score == 2.8    # 0.75: 0.7


def test_zero_cases_judged_is_not_judged_but_a_failure_is_judged():
    nothing = CheckResult("rolls", "counted nothing")
    nothing.judged(0)
    assert not nothing.is_judged
    assert _verdicts(nothing)["rolls"].score == 0
    assert "0 cases" in _verdicts(nothing)["rolls"].why_not_judged[0]
    found_wrong = CheckResult("rolls", "found a wrong roll")
    found_wrong.judged(0)
    found_wrong.partial(0.0, "Round 1 was wrong.")
    assert found_wrong.is_judged
    assert _passing("rolls", 2).is_judged and _passing("rolls").is_judged   # plain pass


def test_a_grader_error_is_not_judged_and_gives_no_marks():
    broken = CheckResult("chips", "broken")
    broken.error = "KeyError: 'Round 3'"
    verdict = _verdicts(broken)["chips"]
    assert verdict.score == 0 and not verdict.judged
    assert "KeyError" in verdict.why_not_judged[0]
    # ...but another check that judged the item still scores it
    assert _verdicts(broken, _passing("chips", 1))["chips"].score == 2


def test_an_item_without_any_check_is_not_judged():
    verdict = _verdicts(_passing("rolls"))["chips"]
    assert verdict.score == 0 and not verdict.judged
    assert "No check" in verdict.why_not_judged[0]


def test_reports_say_not_judged_clearly(tmp_path):
    verdicts = item_verdicts(RUBRIC, [_not_judged("rolls", "The game never reached Round 2."),
                                    _passing("chips"), _passing("ui")])
    report = SubmissionReport("sam", RUBRIC, verdicts, 1.0)
    data = results_json(report)
    rolls = next(t for t in data["tests"] if t["number"] == "rolls")
    assert rolls["status"] == "failed" and rolls["score"] == 0
    assert rolls["output"].startswith("Not judged:")
    assert "a TA will look at it" in rolls["output"] and "Round 2" in rolls["output"]
    assert data["extra_data"]["not_judged"] == ["rolls"]
    assert any("not judged: rolls" in r for r in data["extra_data"]["needs_review"])
    feedback = feedback_markdown(report)
    assert "| `rolls` Rolls dice | 0 / 4 | ? not judged: a TA will look at it |" in feedback
    assert "(0/4, not judged)" in feedback
    assert "the grader could not check this; a TA will look at it" in feedback
    assert "?? rolls" in summary_text(report)
    write_class([data], RUBRIC, tmp_path)
    review = (tmp_path / "needs_review.md").read_text()
    assert "**sam**" in review and "not judged" in review and "rolls" in review
    rows = list(csv.reader((tmp_path / "gradebook.csv").open()))
    assert "rolls" in rows[1][-1] and float(rows[1][3]) == 0


def test_plugin_scores_not_judged_checks_and_fixtures(tmp_path):
    """A grader module using the API through pytest: a check and a fixture not judged."""
    grader = tmp_path / "toy"
    grader.mkdir()
    (grader / "checks.py").write_text(textwrap.dedent("""
        import pytest
        from graders.engine.judge.rubric import NotJudged

        @pytest.fixture(scope="session")
        def second_game(submission):
            raise NotJudged("The second game could not be played.")

        @pytest.mark.item("rolls")
        def check_rolls_first_game(submission, result):
            result.not_judged("The first game never reached a roll.")

        @pytest.mark.item("rolls")
        def check_rolls_counted(submission, result):
            result.judged(2)

        @pytest.mark.item("chips")
        def check_chips(second_game, result):
            result.judged(1)

        @pytest.mark.item("ui")
        def check_ui(submission, result):
            result.measure("lines", 3)
    """))
    program = tmp_path / "game.py"
    program.write_text("print('hi')\n")
    reports = plugin.run(RUBRIC, [from_path(program, "game.py", "sam")], grader)
    scores = {v.item.id: (v.score, v.judged) for v in reports[0].verdicts}
    assert scores == {"rolls": (4, True), "chips": (0, False), "ui": (1, True)}
    data = results_json(reports[0])
    assert data["extra_data"]["not_judged"] == ["chips"]
    chips = next(t for t in data["tests"] if t["number"] == "chips")
    assert chips["output"].startswith("Not judged:") and "second game" in chips["output"]
    assert json.dumps(data)          # JSON-able
