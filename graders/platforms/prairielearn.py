"""PrairieLearn: its external-grading results and the files an externally graded question
needs (the entrypoint script, the ``externalGradingOptions`` of ``info.json``, the image).

Results, as PrairieLearn's external-grading documentation defines them: ``score`` is a
fraction from 0 to 1; each rubric item is a test with ``points``, ``max_points``, ``message``
and ``output``. A submission Python cannot read (its main file missing, refused, or stopping
at a SyntaxError) is ``gradable: false`` with ``format_errors``: PrairieLearn then takes no
attempt from the student, which is what a file that does not parse deserves.
"""
from __future__ import annotations

import json
import uuid
from pathlib import Path

from ..engine.grading import reports
from ..engine.run import static
from ..engine.grading.reports import SubmissionReport
from ..engine.judge.rubric import Rubric
from ..engine.grading.submissions import Submission
from . import bundle

ROOT_ENV = "GRADEKIT_PL_ROOT"          # /grade in PrairieLearn's container; a folder in tests
SERVER_FOLDER = "gradekit"             # serverFilesCourse/gradekit/
DEFAULT_IMAGE = "gradekit/grader-python312"


def format_errors(rubric: Rubric, submission: Submission | None) -> list[str]:
    """Why the submission cannot be graded at all (empty when it can)."""
    if submission is None:
        return [f"No files were submitted: {rubric.main_file} is needed."]
    if not submission.found:
        return [submission.missing_why]
    errors = []
    for name in rubric.files:
        path = submission.files.get(name)
        if path is None or not name.endswith(".py"):
            continue
        try:
            problem = static.facts(path).parse_error
        except static.ParserUnavailable:     # the grader's problem: grading will say so
            continue
        if problem:
            errors.append(f"Python cannot read {name}: {problem}. Fix it and submit again "
                          "(this submission costs no attempt).")
    return errors


def results(report: SubmissionReport, errors: list[str] = ()) -> dict:
    """PrairieLearn's results.json for one submission (``errors``: see format_errors)."""
    if errors:
        return {"gradable": False, "format_errors": list(errors),
                "message": "This submission could not be graded: " + " ".join(errors)}
    kit = reports.results_json(report)
    tests = []
    for verdict, test in zip(report.verdicts, kit["tests"]):
        first = next((m for check in verdict.judging_checks for m in check.messages), "")
        if not verdict.judged:
            first = "Not judged: the grader could not check this; a TA will look at it."
        tests.append({"name": f"{verdict.item.title} [{verdict.item.id}]",
                      "points": verdict.score, "max_points": verdict.item.points,
                      "message": reports.one_line(first or ("Passed." if verdict.passed
                                                            else "Not full marks."), 500),
                      "output": test["output"]})
    maximum = report.rubric.max_score
    return {"gradable": True,
            "score": round(report.score / maximum, 4) if maximum else 0.0,
            "message": f"{report.score:g} / {maximum:g} points",
            "output": kit["output"], "tests": tests}


RUN = r"""#!/usr/bin/env bash
# PrairieLearn's external grader runs this (the question's entrypoint): grade /grade/student and
# write /grade/results/results.json, always.
ROOT="${GRADEKIT_PL_ROOT:-/grade}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PY="${GRADEKIT_PYTHON:-python3}"
export PYTHONPATH="$HERE/kit${PYTHONPATH:+:$PYTHONPATH}"
RESULTS="$ROOT/results/results.json"
mkdir -p "$ROOT/results"
rm -f "$RESULTS"
"$PY" -m graders grade @ASSIGNMENT@ "$ROOT/student" --format prairielearn \
    --json "$RESULTS" --out "$ROOT/reports"
status=$?
if [ ! -s "$RESULTS" ]; then    # the grader itself failed: not gradable, so it costs the
    # student neither points nor an attempt (PrairieLearn's gradable: false)
    cat > "$RESULTS" <<'JSON'
{"gradable": false, "succeeded": false, "message":
 "The grader failed (its error, not yours): this attempt does not count; tell your teacher."}
JSON
fi
echo "gradekit: grade exited with status $status"
exit 0
"""

DOCKERFILE = """\
# The grading image: Python 3.12 (the kit needs 3.11 or newer), the kit's dependencies and
# bubblewrap. Build and push it, then name it in info.json ("image"):
#   docker build -t @IMAGE@ . && docker push @IMAGE@
FROM python:3.12-slim-bookworm
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap \\
    && rm -rf /var/lib/apt/lists/*
COPY requirements.txt /tmp/requirements.txt
RUN pip install --no-cache-dir -r /tmp/requirements.txt
"""

QUESTION = """\
<pl-question-panel>
  <p>Upload your program for <strong>@TITLE@</strong> (@FILES@).</p>
</pl-question-panel>
<pl-file-upload file-names="@FILES@"></pl-file-upload>
<pl-submission-panel>
  <pl-external-grader-results></pl-external-grader-results>
  <pl-file-preview></pl-file-preview>
</pl-submission-panel>
"""


def grading_options(image: str, timeout: int = 180) -> dict:
    """The ``externalGradingOptions`` object of the question's info.json."""
    return {"enabled": True, "image": image, "serverFilesCourse": [f"{SERVER_FOLDER}/"],
            "entrypoint": f"/grade/serverFilesCourse/{SERVER_FOLDER}/run.sh",
            "timeout": timeout}


def export(assignment: str, out: Path, image: str = DEFAULT_IMAGE) -> Path:
    """``out``/serverFilesCourse/gradekit/ (entrypoint and kit), ``out``/questions/<a>/
    (info.json, question.html), ``out``/image/ (Dockerfile, requirements.txt)."""
    rubric = Rubric.load(assignment)
    server = {"run.sh": RUN.replace("@ASSIGNMENT@", assignment)}
    server.update({f"kit/{name}": path
                   for name, path in bundle.grading_files(assignment).items()})
    bundle.write_tree(out / "serverFilesCourse" / SERVER_FOLDER, server, {"run.sh"})
    # a question needs a uuid; one derived from the assignment keeps re-exports the same
    info = {"uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"gradekit:{assignment}")),
            "title": rubric.title, "topic": "Programs", "type": "v3",
            "singleVariant": True, "gradingMethod": "External",
            "externalGradingOptions": grading_options(image)}
    question = {"info.json": json.dumps(info, indent=2) + "\n",
                "question.html": QUESTION.replace("@TITLE@", rubric.title)
                                         .replace("@FILES@", ",".join(rubric.files))}
    bundle.write_tree(out / "questions" / assignment, question)
    bundle.write_tree(out / "image", {"Dockerfile": DOCKERFILE.replace("@IMAGE@", image),
                                      "requirements.txt": bundle.requirements()})
    (out / "externalGradingOptions.json").write_text(
        json.dumps({"externalGradingOptions": grading_options(image)}, indent=2) + "\n",
        encoding="utf-8")
    return out
