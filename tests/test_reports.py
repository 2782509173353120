"""Bounded reports: whatever a program prints, a line of a transcript, an item's output,
results.json, feedback.md and the full transcripts in the report folder stay within their
limits, say what they left out, and put every reason on one line of needs_review.md."""
import json
import subprocess
import sys

from graders.engine.grading import reports
from graders.engine.run.harness import Event
from graders.engine.grading.reports import (ATTACHMENT_BYTES, ITEM_CHARS, REPORT_BYTES,
                                            SubmissionReport, feedback_markdown, results_json)
from graders.engine.judge.rubric import CheckResult, Item, ItemVerdict, Rubric
from graders.engine.drive.transcript import LINE_CAP, Transcript, cap_line

from conftest import FIXTURES, KIT_ROOT


def _report(items: int, evidence: str, message: str = "Wrong.", notes=()) -> SubmissionReport:
    rubric = Rubric("demo", "Demo", "demo.py", ["demo.py"],
                    [Item(f"item-{i}", 1.0, f"Item {i}") for i in range(items)])
    verdicts = []
    for item in rubric.items:
        check = CheckResult(item.id, "check", fraction=0.0)
        check.add_detail(message, expected="7", actual=evidence, evidence=evidence)
        verdicts.append(ItemVerdict(item, 0.0, [check]))
    return SubmissionReport("sam", rubric, verdicts, 1.0, list(notes), [])


def test_a_long_line_is_cut_and_says_how_much():
    assert cap_line("x" * LINE_CAP) == "x" * LINE_CAP
    assert cap_line("x" * 1234) == "x" * LINE_CAP + " … 734 characters left out"


def test_render_cuts_long_lines():
    log = [Event("out", "Name? "), Event("input", "Name? "), Event("answer", "Sam"),
           Event("out", "y" * 100_000 + "\nbye\n")]
    text = Transcript(log).render()
    lines = text.splitlines()
    assert lines[0] == "Name? «Sam»"
    assert lines[1] == "y" * LINE_CAP + " … 99,500 characters left out"
    assert lines[2] == "bye"


def test_item_output_is_bounded():
    data = results_json(_report(3, "z" * 40 + "\n" * 1 + ("line of text\n" * 50_000)))
    for test in data["tests"]:
        assert len(test["output"]) <= ITEM_CHARS
        assert "characters left out" in test["output"]
        assert test["output"].startswith("Wrong.")


def test_results_json_and_feedback_stay_under_a_megabyte():
    # 1000 items each with 16 KB explanations would be ~30 MB: evidence goes first
    report = _report(1000, "w" * 400 + "\n" + "a line the program printed\n" * 20_000,
                     message="The program printed the wrong total.",
                     notes=["n" * 50_000] * 80)
    text = json.dumps(results_json(report), indent=2, ensure_ascii=False)
    assert len(text.encode("utf-8")) <= REPORT_BYTES
    data = json.loads(text)
    assert all(t["output"].startswith("The program printed the wrong total.")
               for t in data["tests"])
    assert "left out to keep this report small" in data["tests"][0]["output"]
    feedback = feedback_markdown(report)
    assert len(feedback.encode("utf-8")) <= REPORT_BYTES
    assert "The program printed the wrong total." in feedback
    assert "… and 30 more notes" in feedback


def test_small_reports_are_unchanged():
    report = _report(2, "3 + 4 = 8")
    data = results_json(report)
    assert "3 + 4 = 8" in data["tests"][0]["output"]
    assert "left out" not in json.dumps(data)


def test_attachments_are_capped_and_stay_in_the_folder(tmp_path):
    report = _report(1, "x")
    report.attachments = {"transcripts/long.txt": ("é" * 300 + "\n") * 20_000,
                          "../outside.txt": "no"}
    reports.write_submission(report, tmp_path / "sam")
    written = (tmp_path / "sam" / "transcripts" / "long.txt").read_bytes()
    assert len(written) <= ATTACHMENT_BYTES
    assert "characters left out" in written.decode("utf-8")
    assert not (tmp_path / "outside.txt").exists()


def test_needs_review_reasons_stay_on_one_line(tmp_path):
    rubric = Rubric("demo", "Demo", "demo.py", ["demo.py"], [Item("a", 1.0, "A")])
    forged = {"score": 0, "max_score": 1, "tests": [{"number": "a", "score": 0}],
              "extra_data": {"student": "sam\n- **alex** (1): fine",
                             "problems": ["crashed:\n- **kim** (1): all good"]}}
    reports.write_class([forged], rubric, tmp_path)
    lines = (tmp_path / "needs_review.md").read_text().splitlines()
    assert sum(line.startswith("- **") for line in lines) == 1
    rows = (tmp_path / "gradebook.csv").read_text().splitlines()
    assert len(rows) == 2


def test_a_program_printing_one_endless_line(tmp_path):
    program = FIXTURES / "inputs" / "endless_line"
    out = tmp_path / "results.json"
    done = subprocess.run([sys.executable, "-m", "graders", "grade", "pocoloco", str(program),
                           "--json", str(out), "--out", str(tmp_path)],
                          capture_output=True, text=True, cwd=KIT_ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    assert out.stat().st_size <= REPORT_BYTES
    data = json.loads(out.read_text())
    assert "printed more than" in data["output"]
    folder = tmp_path / "pocoloco" / "endless_line"
    assert (folder / "feedback.md").stat().st_size <= REPORT_BYTES
    transcripts = list((folder / "transcripts").glob("*.txt"))
    assert transcripts
    for path in transcripts:
        text = path.read_text(encoding="utf-8")
        assert path.stat().st_size <= ATTACHMENT_BYTES
        assert max(len(line) for line in text.splitlines()) <= LINE_CAP + 50
        assert "characters left out" in text


def test_left_out_counts_say_character_or_characters():
    """A transcript line one character too long said "… 1 characters left out"."""
    assert cap_line("x" * (LINE_CAP + 1)).endswith(" … 1 character left out")
    assert cap_line("x" * (LINE_CAP + 1234)).endswith(" … 1,234 characters left out")
    assert "\n… 1,037 characters left out …\n" in reports.shorten("y" * 1_100, 100)
