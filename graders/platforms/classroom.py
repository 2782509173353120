"""GitHub Classroom: a workflow and an autograding configuration in which every rubric item is
worth its points.

- ``.github/workflows/classroom.yml``: one step per item runs
  ``gradekit grade A . --item ID --format classroom``; the first grades the submission and
  stores the result, the others read it. Each step hands the item's score to GitHub
  Classroom's grading reporter (its ``result`` output, the runner format the reporter reads),
  so partial credit survives; the step also fails (a red cross in the log) unless the item
  earned full marks.
- ``.github/classroom/autograding.json``: the older command tests, one per item, each worth
  the item's points when its command exits 0 (full marks only: that format has no partial
  credit).
"""
from __future__ import annotations

import base64
import json
import re
from pathlib import Path

from ..engine.judge.rubric import Rubric
from . import bundle

STORE = Path(".gradekit") / "results.json"      # in the student's repository, per run


def step_id(item_id: str) -> str:
    """A step id the reporter can turn into an environment variable (ITEM_ROUND_BOX_...)."""
    return "item_" + re.sub(r"[^A-Za-z0-9]+", "_", item_id).strip("_").lower()


def stored(path: Path, digest: str) -> dict | None:
    """The results stored by an earlier step for this very submission, or None."""
    sidecar = path.with_suffix(".sha256")
    try:
        if sidecar.read_text(encoding="utf-8").strip() == digest:
            return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    return None


def store(path: Path, digest: str) -> None:
    """Mark the results at ``path`` as made from the submission with ``digest``."""
    path.with_suffix(".sha256").write_text(digest + "\n", encoding="utf-8")


def item_result(data: dict, item_id: str) -> tuple[dict, bool]:
    """The reporter's runner result for one item of a kit results.json, and whether the item
    earned full marks."""
    test = next((t for t in data.get("tests", []) if t.get("number") == item_id), None)
    if test is None:
        raise KeyError(item_id)
    full = abs(test["score"] - test["max_score"]) < 1e-9
    status = "pass" if full else "fail"
    message = test.get("output", "") or ("Full marks." if full else "")
    if data.get("output"):
        message = f"{message}\n\n{data['output']}".strip()
    result = {"version": 1, "status": status, "max_score": test["max_score"],
              "tests": [{"name": f"{item_id}: {test.get('name', item_id)}", "status": status,
                         "score": test["score"], "message": message[:20_000],
                         "test_code": f"gradekit grade {item_id}", "filename": "",
                         "line_no": 0, "execution_time": "0"}]}
    return result, full


def error_result(item, error: Exception) -> dict:
    """The runner result of an item whose grading failed: 0, status "error"."""
    message = (f"The grader failed ({type(error).__name__}: {error}); this is not a verdict "
               "on your program: tell your instructor.")
    return {"version": 1, "status": "error", "max_score": item.points,
            "tests": [{"name": f"{item.id}: {item.title}", "status": "error", "score": 0,
                       "message": message[:2_000], "test_code": f"gradekit grade {item.id}",
                       "filename": "", "line_no": 0, "execution_time": "0"}]}


def encoded(result: dict) -> str:
    """The runner result as the reporter reads it (base64 of its JSON)."""
    return base64.b64encode(json.dumps(result).encode("utf-8")).decode("ascii")


def _points(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _quoted(text: str) -> str:
    return json.dumps(text)       # a JSON string is a valid YAML double-quoted scalar


def workflow(rubric: Rubric, install: str) -> str:
    """The text of .github/workflows/classroom.yml."""
    a = rubric.assignment
    lines = ["name: Autograding Tests",
             "\"on\": [push, workflow_dispatch, repository_dispatch]",
             "permissions:", "  checks: write", "  actions: read", "  contents: read",
             "jobs:", "  run-autograding-tests:", "    runs-on: ubuntu-latest",
             "    if: github.actor != 'github-classroom[bot]'", "    steps:",
             "      - name: Checkout code", "        uses: actions/checkout@v4",
             "      - name: Set up Python", "        uses: actions/setup-python@v5",
             "        with:", "          python-version: \"3.12\"",
             "      - name: Install the grader",
             f"        run: python -m pip install --quiet {_quoted(install)}"]
    for item in rubric.items:
        points = _points(item.points)
        lines += [f"      - name: {_quoted(f'{item.id} ({points} points): {item.title}')}",
                  f"        id: {step_id(item.id)}", "        continue-on-error: true",
                  f"        run: gradekit grade {a} . --item {item.id} --format classroom"]
    ids = [step_id(item.id) for item in rubric.items]
    lines += ["      - name: Autograding Reporter",
              "        if: always()",
              "        uses: classroom-resources/autograding-grading-reporter@v1", "        env:"]
    lines += [f"          {i.upper()}_RESULTS: \"${{{{ steps.{i}.outputs.result }}}}\""
              for i in ids]
    lines += ["        with:", f"          runners: {','.join(ids)}"]
    return "\n".join(lines) + "\n"


def autograding(rubric: Rubric, install: str) -> dict:
    """The command tests of .github/classroom/autograding.json (full marks or nothing)."""
    tests = []
    for number, item in enumerate(rubric.items):
        tests.append({"name": f"{item.id}: {item.title}",
                      "setup": f"python3 -m pip install --quiet {install}" if number == 0
                      else "",
                      "run": f"gradekit grade {rubric.assignment} . --item {item.id}",
                      "input": "", "output": "", "comparison": "included", "timeout": 10,
                      "points": _points(item.points)})
    return {"tests": tests}


def export(assignment: str, out: Path, install: str) -> Path:
    """Write the workflow and the autograding configuration under ``out`` (the root of the
    template repository); ``install`` is what pip installs the grader from."""
    rubric = Rubric.load(assignment)
    bundle.write_tree(out, {
        ".github/workflows/classroom.yml": workflow(rubric, install),
        ".github/classroom/autograding.json": json.dumps(autograding(rubric, install),
                                                         indent=2) + "\n",
    })
    return out
