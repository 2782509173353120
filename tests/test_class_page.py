"""The class page for a TA: a student table with every item's points, late, the review state
(provisional, confirmed, set for an earlier version), the file graded and short reasons; sorted
and filtered by the page's one script, which the page's Content-Security-Policy allows by its
hash (and nothing else), checked in headless Chromium."""
from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import subprocess
import tempfile
import zipfile
from pathlib import Path

import pytest

from graders.engine.course import classbook, html
from graders.engine.grading import reports
from graders.engine.grading.reports import SubmissionReport
from graders.engine.judge.rubric import CheckResult, Item, ItemVerdict, Rubric
from graders.engine.grading.submissions import discover, from_path

CHROMIUM = Path("/usr/bin/chromium")
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's chromium (/usr/bin/chromium): `make browser`")
GAMES = ("This happened in 5 of the grader's 5 games: 'long' (seven rounds covering every "
         "kind of roll), 'ties' (ties for the lowest (two and three players) and for the "
         "highest), 'game-over' (a whole game, which the human wins after three rounds, paying "
         "the last round's chips with fewer than it owes), 'round-ten' (ten rounds, to check "
         "the round box at Round 10), 'strategy' (computer decisions).")


def _rubric() -> Rubric:
    return Rubric("demo", "Demo Dice", "demo.py", ["demo.py"],
                  [Item("rolls", 3.0, "Rolls the dice"), Item("chips", 1.0, "Chips"),
                   Item("style", 2.0, "Readable code", True)])


def _automatic(student: str, rolls: float, problems: list[str] = (), graded_file="demo.py",
               judged_chips: bool = True) -> dict:
    rubric = _rubric()
    verdicts = []
    for item in rubric.items:
        check = CheckResult(item.id, "check")
        score, judged = item.points, True
        if item.id == "rolls":
            score = rolls
            if rolls < item.points:
                check.fraction = rolls / item.points
                check.add_detail("Some totals were wrong.")
        elif item.id == "chips" and not judged_chips:
            check.record_not_judged("No round ended with chips shown.")
            score, judged = 0.0, False
        verdicts.append(ItemVerdict(item, score, [check], judged))
    report = SubmissionReport(student, rubric, verdicts, 0.1, [], list(problems), {})
    data = reports.results_json(report)
    data["extra_data"]["submission"] = {"user_id": None, "late": student == "dana",
                                        "submission_id": None, "display_name": student,
                                        "content": "x", "graded_file": graded_file}
    return data


@pytest.fixture(scope="module")
def class_folder(tmp_path_factory) -> Path:
    """Five students: one provisional with a crash in every game, one confirmed, one whose
    TA decisions were made for an earlier version, one late with a partial score, one whose
    file was renamed and an item not judged."""
    folder = tmp_path_factory.mktemp("classpage") / "demo"
    rubric = _rubric()
    cases = {
        "alice": (_automatic("alice", 3.0), classbook.Override("alice", confirmed={"style"})),
        "bob": (_automatic("bob", 0.0, [GAMES.replace(
            "This", "The program crashed: NameError. This")], "a5-2.py"), None),
        "carol": (_automatic("carol", 1.0), classbook.Override(
            "carol", points={"rolls": 2.0}, confirmed={"style"}, earlier_version=True)),
        "dana": (_automatic("dana", 2.0, graded_file="demo.py in work.zip"), None),
        "<erin>": (_automatic("<erin>", 3.0, [
            "The grader stopped the program (an endless loop?). This happened in 2 of the "
            "grader's 5 games: 'long' (seven rounds covering every kind of roll), 'game-over' "
            "(a whole game, paying the last round's chips with fewer than it owes)."], "half.py",
            judged_chips=False), classbook.Override("<erin>", confirmed={"style"})),
    }
    results = []
    for student, (automatic, override) in cases.items():
        result = classbook.applied_result(automatic, rubric, override, None)
        (folder / student).mkdir(parents=True)
        (folder / student / "results.json").write_text(json.dumps(result), encoding="utf-8")
        results.append(result)
    html.write_class_pages(results, rubric, folder)
    return folder


def _rows(page: str) -> dict[str, str]:
    body = page[page.index('<table id="student-table"'):]
    body = body[:body.index("</table>")]
    rows = re.findall(r'<tr class="[^"]*" data-flags="[^"]*" data-name="([^"]*)">(.*?)</tr>',
                      body, re.S)
    return dict(rows)


def test_the_student_table_has_items_state_file_and_short_reasons(class_folder):
    page = (class_folder / "index.html").read_text(encoding="utf-8")
    rows = _rows(page)
    assert set(rows) == {"alice", "bob", "carol", "dana", "&lt;erin&gt;"}
    for item in ["rolls", "chips", "style"]:
        assert f'data-key="item-{item}"' in page
    # each item's points, a part of them as the points (1/3 is not a half), a TA's marked
    assert 'class="num cell partial" data-sort="1"' not in rows["carol"]     # the TA set 2
    assert re.search(r'class="num cell partial" data-sort="2"[^>]*>2/3\*<', rows["carol"])
    assert re.search(r'class="num cell partial" data-sort="2"[^>]*>2/3<', rows["dana"])
    assert re.search(r'class="num cell not-judged" data-sort="0"[^>]*>0/1\?<',
                     rows["&lt;erin&gt;"])
    assert "½" not in page
    # the review state of each
    states = {name: re.search(r'<span class="state [^"]*">([^<]*)</span>', row).group(1)
              for name, row in rows.items()}
    assert states == {"alice": "confirmed", "bob": "provisional",
                      "carol": "set for an earlier version", "dana": "provisional",
                      "&lt;erin&gt;": "provisional"}
    # the file graded, as the student named it
    assert "<code>a5-2.py</code>" in rows["bob"]
    assert "<code>demo.py in work.zip</code>" in rows["dana"]
    assert "<code>half.py</code>" in rows["&lt;erin&gt;"]
    # late
    assert "LATE" in rows["dana"] and "LATE" not in rows["alice"]
    # short reasons: the games by name, never their descriptions cut with "…"
    assert ">The program crashed: NameError. In all 5 games.</li>" in rows["bob"]
    assert (">The grader stopped the program (an endless loop?). In 2 of 5 games: long, "
            "game-over.</li>") in rows["&lt;erin&gt;"]
    table = page[page.index('id="student-table"'):page.index("</table>",
                                                             page.index('id="student-table"'))]
    assert "seven rounds" not in table.split('title="')[0] and "…" not in table
    # the full reason stays at hand, as the reason's tooltip
    assert 'title="The program crashed: NameError. This happened in 5 of' in rows["bob"]
    # filters count what they would show
    assert re.search(r'data-filter="look"[^>]*>needs a look \(3\)<', page)   # bob, carol, erin
    assert re.search(r'data-filter="earlier"[^>]*>set for an earlier version \(1\)<', page)


def test_the_page_allows_its_own_script_only(class_folder):
    page = (class_folder / "index.html").read_text(encoding="utf-8")
    csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', page)
    policy = csp.group(1).replace("&#39;", "'")
    assert "default-src 'none'" in policy and "base-uri 'none'" in policy
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert len(scripts) == 1 and "<script" not in page.replace("<script>", "", 1)
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}';" in policy
    assert "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    assert not re.search(r"\son[a-z]+=", page)                 # no inline event handlers
    assert not re.search(r"(src|href)=\"(https?:)?//", page)    # nothing fetched
    code = re.sub(r"//.*", "", scripts[0])                      # comments left out
    for name in ["innerHTML", "outerHTML", "insertAdjacentHTML", "eval(", "fetch(", "XMLHttp",
                 "document.write", "import("]:
        assert name not in code
    student = (class_folder / "alice" / "feedback.html").read_text(encoding="utf-8")
    assert "script-src 'none'" in student and "<script" not in student


def test_a_partial_score_shows_its_points_in_the_feedback():
    report = SubmissionReport("x", _rubric(), [
        ItemVerdict(_rubric().items[0], 2.0, [CheckResult("rolls", "c")], True),
        ItemVerdict(_rubric().items[1], 0.5, [CheckResult("chips", "c")], True),
        ItemVerdict(_rubric().items[2], 2.0, [CheckResult("style", "c")], True)], 0.1, [], [],
        {})
    text = reports.feedback_markdown(report)
    assert "| `rolls` Rolls the dice | 2 / 3 | 2/3 |" in text
    assert "| `chips` Chips | 0.5 / 1 | 0.5/1 |" in text and "½" not in text


def test_the_file_graded_is_named_as_the_student_named_it(tmp_path):
    klass = tmp_path / "class"
    klass.mkdir()
    (klass / "smithjane_12345_67890_a5.py").write_text("print('first')\n")
    (klass / "smithjane_12345_67891_a5-2.py").write_text("print('second')\n")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("work/a5.py", "print('zipped')\n")
    (klass / "leekevin_23456_78901_work.zip").write_bytes(buffer.getvalue())
    (klass / "wongalex_34567_89012_pocoloco.py").write_text("print('renamed')\n")
    found = {s.student: s.graded_file for s in discover(klass, "a5.py")}
    assert found == {"smithjane": "a5-2.py", "leekevin": "a5.py in work.zip",
                     "wongalex": "pocoloco.py"}


def test_a_file_given_by_its_path_is_the_main_file_whatever_lies_beside_it(tmp_path):
    (tmp_path / "a5.py").write_text("print('the real one')\n")
    (tmp_path / "selfcheck.py").write_text("print('kit')\n")
    (tmp_path / "half.py").write_text("print('half done')\n")
    submission = from_path(tmp_path / "half.py", "a5.py", siblings=["a5.py"])
    assert submission.main.read_text() == "print('half done')\n"
    assert submission.graded_file == "half.py"
    assert "used half.py as a5.py (the file given to the grader)" in submission.notes
    assert not [n for n in submission.notes if "only Python file" in n]


# ---------------------------------------------------------------------- in a browser
def _dom(url: str) -> str:
    with tempfile.TemporaryDirectory(prefix="grader-chromium-") as profile:
        done = subprocess.run([str(CHROMIUM), *html.CHROMIUM_FLAGS,
                               f"--user-data-dir={profile}", "--dump-dom", url],
                              capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _shown(dom: str) -> list[str]:
    table = dom[dom.index('id="student-table"'):]
    return [re.search(r'data-name="([^"]*)"', tag).group(1) for tag in re.findall(
        r"<tr [^>]*data-name=[^>]*>", table[:table.index("</table>")])
        if not re.search(r"\shidden(=|\s|>)", tag)]


@needs_chromium
def test_the_table_sorts_and_filters_in_a_browser(class_folder):
    index = (class_folder / "index.html").resolve().as_uri()
    plain = _dom(index)
    assert 'id="student-controls" class="controls"' in plain and "hidden=" not in \
        plain[plain.index('id="student-controls"'):plain.index("Show:")]   # the script ran
    assert _shown(plain) == ["&lt;erin&gt;", "alice", "bob", "carol", "dana"]
    assert "5 of 5 shown" in plain
    by_score = _dom(index + "#filter=all&sort=score-desc")
    # 6, then three at 5 (by name), then 3
    assert _shown(by_score) == ["alice", "&lt;erin&gt;", "carol", "dana", "bob"]
    look = _dom(index + "#filter=look&sort=score-asc")
    assert _shown(look) == ["bob", "&lt;erin&gt;", "carol"] and "3 of 5 shown" in look
    assert 'aria-sort="ascending"' in look
    earlier = _dom(index + "#filter=earlier")
    assert _shown(earlier) == ["carol"]
    found = _dom(index + "#filter=all&find=ERIN")
    assert _shown(found) == ["&lt;erin&gt;"]


@needs_chromium
def test_a_script_the_kit_did_not_write_does_not_run(class_folder, tmp_path):
    """Were a page ever to hold markup it should not, the policy stops its script."""
    page = (class_folder / "index.html").read_text(encoding="utf-8")
    bad = tmp_path / "index.html"
    bad.write_text(page.replace("</main>", "<script>document.body.setAttribute('data-owned', "
                                "'yes')</script><img src=x onerror=\"document.body."
                                "setAttribute('data-owned', 'yes')\"></main>"), encoding="utf-8")
    dom = _dom(bad.resolve().as_uri())
    assert "data-owned" not in dom.replace("setAttribute('data-owned'", "")
    assert "5 of 5 shown" in dom                        # the kit's own script still ran


@needs_chromium
def test_screenshots_of_the_class_page_and_a_students_page(class_folder, tmp_path):
    for name, page in [("index", class_folder / "index.html"),
                       ("feedback", class_folder / "bob" / "feedback.html")]:
        png = html.screenshot(page, tmp_path / f"{name}.png", str(CHROMIUM), (1300, 900))
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
