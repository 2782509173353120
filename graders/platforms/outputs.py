"""The results file a platform reads, written by ``grade --format FORMAT --json FILE``."""
from __future__ import annotations

import json
from pathlib import Path

from ..engine.grading.reports import REPORT_BYTES, SubmissionReport
from ..engine.judge.rubric import Rubric
from ..engine.grading.submissions import Submission
from . import gradescope, prairielearn

PLATFORMS = ("gradescope", "prairielearn")


def write(platform: str, report: SubmissionReport, rubric: Rubric,
          submission: Submission | None, path: Path, hide_review: bool = False) -> Path:
    """Write ``report`` in ``platform``'s results format to ``path``."""
    if platform == "gradescope":
        data = gradescope.results(report, hide_review)
    elif platform == "prairielearn":
        data = prairielearn.results(report, prairielearn.format_errors(rubric, submission))
    else:
        raise ValueError(f"unknown platform {platform!r}")
    text = json.dumps(data, indent=2, ensure_ascii=False)
    if len(text.encode("utf-8")) > REPORT_BYTES:         # both platforms cap the file at 1 MB
        for test in data.get("tests", []):
            test["output"] = test.get("output", "")[:2_000]
        text = json.dumps(data, indent=2, ensure_ascii=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
