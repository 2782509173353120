"""HTML reports and similarity: the pages hold the scores, the items and the evidence, escape
whatever a program printed, draw their charts as SVG, and look right in a real browser; the
similarity check finds a copied pair (variables renamed) and not unrelated programs, and leaves
the student template out."""
import io
import json
import re
import shutil
import struct
import subprocess
import sys
import tokenize
import zlib
from pathlib import Path

import pytest

from graders.engine.course import html, similarity
from graders.engine.grading import reports
from graders.engine.grading.reports import SubmissionReport
from graders.engine.judge.rubric import CheckResult, Item, ItemVerdict, Rubric

from conftest import KIT_ROOT

DEMO = KIT_ROOT / "demo_submissions" / "pocoloco"
CHROMIUM = Path("/usr/bin/chromium")
ATTACK = "<script>alert('owned')</script><img src=x onerror=alert(1)>"
TRANSCRIPT = ("Welcome to Demo!\nYour name? «Sam»\n[dice: 4 5 6]\nYou rolled " + ATTACK
              + "\nRoll again? (y/n) «y»\n[dice: 1 1 1]\nBye")


def _rubric() -> Rubric:
    return Rubric("demo", "Demo Dice", "demo.py", ["demo.py"],
                  [Item("rolls", 2.0, "Rolls the dice"), Item("totals", 1.0, "Totals"),
                   Item("chips", 1.0, "Chips"), Item("style", 3.0, "Readable code", True)])


def _report(student: str, wrong: bool) -> SubmissionReport:
    """A report like the plugin makes: one item failed with evidence, one not judged."""
    rubric = _rubric()
    verdicts = []
    for item in rubric.items:
        check = CheckResult(item.id, "check")
        score, judged = item.points, True
        if wrong and item.id == "totals":
            check.fraction = 0.0
            check.add_detail("The total of 4 5 6 was wrong.", expected="15",
                             actual="You rolled " + ATTACK, evidence=TRANSCRIPT)
            score = 0.0
        elif wrong and item.id == "chips":
            check.record_not_judged("No round ended with chips shown.")
            score, judged = 0.0, False
        elif item.id == "style":
            check.measure("comment lines", 12)
        verdicts.append(ItemVerdict(item, score, [check], judged))
    return SubmissionReport(student, rubric, verdicts, 0.5, ["The program finished."], [],
                            {"transcripts/game.txt": "Game 'game'.\n" + TRANSCRIPT})


@pytest.fixture
def class_folder(tmp_path):
    """Three students' report folders, written by reports.py, then the HTML pages."""
    folder = tmp_path / "demo"
    results = []
    for student, wrong in [("alice", False), ("bob", True), ("carol", True)]:
        path = reports.write_submission(_report(student, wrong), folder / student)
        results.append(json.loads(path.read_text(encoding="utf-8")))
    reports.write_class(results, _rubric(), folder)
    html.write_class_pages(results, _rubric(), folder)
    return folder


def test_feedback_page_has_the_score_items_and_evidence(class_folder):
    page = (class_folder / "bob" / "feedback.html").read_text(encoding="utf-8")
    assert "Demo Dice: feedback for bob" in page
    assert '<div class="big">5 / 7</div>' in page
    for item in ["rolls", "totals", "chips", "style"]:
        assert f'id="item-{item}"' in page and f'href="#item-{item}"' in page
    assert '<tr class="failed"><td><a class="itemlink" href="#item-totals">' in page
    assert '<section class="item not-judged" id="item-chips">' in page
    assert "This score is provisional" in page and "No round ended with chips shown." in page
    assert "The total of 4 5 6 was wrong." in page and "comment lines: 12" in page
    # the grader's typing and its dice are marked, in the evidence and the full transcript
    assert page.count('Your name? <kbd class="typed">«Sam»</kbd>') == 2
    assert page.count('<span class="dice">[dice: 4 5 6]</span>') == 2
    assert "<summary>transcripts/game.txt</summary>" in page
    alice = (class_folder / "alice" / "feedback.html").read_text(encoding="utf-8")
    assert '<div class="big">7 / 7</div>' in alice and "provisional" not in alice


def test_what_a_program_printed_is_escaped(class_folder):
    for page in [class_folder / "bob" / "feedback.html", class_folder / "index.html"]:
        text = page.read_text(encoding="utf-8")
        # the class page's one script is the kit's own (tests/test_class_page.py)
        text = text.replace(f"<script>{html.TABLE_SCRIPT}</script>", "")
        assert "<script" not in text and "<img" not in text
    bob = (class_folder / "bob" / "feedback.html").read_text(encoding="utf-8")
    assert "You rolled &lt;script&gt;alert(&#39;owned&#39;)&lt;/script&gt;" in bob


def test_markdown_links_and_markup_in_messages_stay_text():
    blocks = html.markdown_blocks("See [here](javascript:alert(1)) and [the run](runs/a.txt) "
                                  "and **<b>bold</b>**\n\nTranscript:\n```text\n<i>x</i> «y»\n```")
    para, code = blocks
    kinds = [(kind, text, href) for kind, text, href in para["lines"][0]]
    assert not [href for kind, _, href in kinds if "javascript" in href]
    assert "".join(text for _, text, _ in kinds).startswith("See [here](javascript:alert(1))")
    assert ("link", "the run", "runs/a.txt") in kinds
    assert ("strong", "<b>bold</b>", "") in kinds
    assert code["title"] == "Transcript"
    assert code["lines"] == [("typed", "<i>x</i> ", "«y»")]


def test_class_page_has_histogram_bars_problems_and_links(class_folder):
    page = (class_folder / "index.html").read_text(encoding="utf-8")
    svgs = re.findall(r"<svg [^>]*role=\"img\".*?</svg>", page, re.S)     # the charts
    assert len(svgs) == 2
    histogram, items = svgs
    assert 'aria-label="Histogram of the total scores"' in histogram
    bars = re.findall(r'<rect class="bar (\w+)"', histogram)
    assert bars == ["mid", "high"]              # bob and carol at 5 (of 7), alice at 7
    assert "2 submission(s) scored 5" in histogram and "1 submission(s) scored 7" in histogram
    rates = re.findall(r"<title>(\w+): [^(]*\((\d/3) \(", items)
    assert rates == [("rolls", "3/3"), ("totals", "1/3"), ("chips", "1/3"), ("style", "3/3")]
    assert "2 not judged" in items
    for student in ["alice", "bob", "carol"]:
        assert f'<a href="{student}/feedback.html">{student}</a>' in page
    problems = page[page.index('id="problems"'):page.index('id="students"')]
    assert "The total of 4 5 6 was wrong." in problems and "bob, carol" in problems
    assert "Not judged. Why: No round ended with chips shown." in problems
    assert "similarity" not in page.lower()         # no code was compared


def test_common_problems_group_numbers_and_skip_one_offs():
    def result(student, message):
        return {"extra_data": {"student": student}, "tests": [
            {"number": "a", "score": 0, "max_score": 1, "output": message + "\n\nMore."}]}
    found = html.common_problems([result("x", "Found 3 of 5."), result("y", "Found 1 of 5."),
                                  result("z", "Something else.")])
    assert [(p.message, p.students, p.items) for p in found] == [
        ("Found 3 of 5.", ["x", "y"], ["a"])]


def test_feedback_page_without_feedback_md(tmp_path):
    """A student the grader failed on has only results.json: the page still says why."""
    folder = tmp_path / "dan"
    folder.mkdir()
    data = reports.missing_result(_rubric(), "dan", "the grader failed on it <b>")
    (folder / "results.json").write_text(json.dumps(data), encoding="utf-8")
    page = html.feedback_page(folder, _rubric())
    assert '<div class="big">0 / 7</div>' in page
    assert page.count("the grader failed on it &lt;b&gt;") == 4
    assert '<tr class="failed"><td><a class="itemlink" href="#item-rolls">' in page


# ---------------------------------------------------------------------- similarity
def _renamed(text: str) -> str:
    """The program with every own name renamed, comments reworded and strings changed."""
    out, names = [], {}
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        value = tok.string
        if tok.type == tokenize.NAME and value not in similarity.KEEP and value not in (
                "random", "randint", "shuffle", "choice", "main", "sleep", "time", "os"):
            value = names.setdefault(value, f"v{len(names)}_{value[::-1]}")
        elif tok.type == tokenize.COMMENT:
            value = "# my own comment"
        elif tok.type == tokenize.STRING and not value.startswith(('"""', "f", "'''")):
            value = value[0] + "Changed text" + value[-1]
        out.append((tok.type, value))
    return tokenize.untokenize(out)


def _demo(name: str) -> str:
    return next(DEMO.glob(f"{name}_*.py")).read_text(encoding="utf-8")


def test_a_copy_with_renamed_variables_is_found_and_unrelated_programs_are_not():
    original = _demo("nguyenanh")
    copy = _renamed(original)
    assert copy != original and "def main" in copy
    sources = {name: {"a5.py": _demo(name)} for name in
               ["nguyenanh", "smithjane", "garciamaria", "leekevin", "wongalex"]}
    sources["copycat"] = {"a5.py": copy}
    template = similarity.template_sources("pocoloco")
    pairs = similarity.find_pairs(sources, template)
    assert [(p.a, p.b) for p in pairs] == [("copycat", "nguyenanh")]
    pair = pairs[0]
    assert pair.share_a > 0.9 and pair.share_b > 0.9
    region = pair.regions[0]
    assert region.file_a == region.file_b == "a5.py"
    assert region.lines_b[1] - region.lines_b[0] > 200          # nearly the whole program
    assert "main()" in region.code_b and region.code_a != region.code_b


def test_a_copy_python_cannot_read_is_found():
    original = _demo("smithjane")
    broken = _renamed(original).replace("def ", "def  ", 1) + '\nprint("""never closed\n'
    with pytest.raises(tokenize.TokenError):
        list(tokenize.generate_tokens(io.StringIO(broken).readline))
    pairs = similarity.find_pairs({"a": {"a5.py": original}, "b": {"a5.py": broken},
                                   "c": {"a5.py": _demo("leekevin")}})
    assert [(p.a, p.b) for p in pairs] == [("a", "b")] and pairs[0].share_a > 0.9


def test_half_a_program_copied_is_found():
    original = _demo("nguyenanh")
    half = "\n".join(original.splitlines()[:160]) + "\n\n" + _demo("smithjane")
    pairs = similarity.find_pairs({"orig": {"a5.py": original}, "half": {"a5.py": half},
                                   "other": {"a5.py": _demo("garciamaria")}})
    assert [(p.a, p.b) for p in pairs] == [("half", "orig")]
    assert pairs[0].share_b > similarity.FLAG_SHARE
    assert pairs[0].regions[0].lines_a[0] <= 20 <= pairs[0].regions[0].lines_a[1]


def test_the_student_template_is_left_out():
    """Two students who filled in the same large template differently are not a pair; they
    would be without the template left out."""
    folder = KIT_ROOT / "student_template" / "poker_dice"
    template = {p.name: p.read_text(encoding="utf-8") for p in folder.glob("*.py")}
    ann, ben = dict(template), dict(template)
    ann["project.py"] += "\n\ndef extra(a):\n    return [x * 2 for x in a if x]\n"
    ben["project.py"] += "\n\nclass Other:\n    pass\n"
    sources = {"ann": ann, "ben": ben}
    assert similarity.find_pairs(sources) != []
    assert similarity.find_pairs(sources, similarity.template_sources("poker_dice")) == []


def test_similarity_markdown_and_class_page(tmp_path):
    class Sub:
        def __init__(self, student, files):
            self.student, self.files = student, files
    paths = {}
    for name, text in [("nguyenanh", _demo("nguyenanh")), ("copycat", _renamed(
            _demo("nguyenanh"))), ("smithjane", _demo("smithjane"))]:
        paths[name] = tmp_path / f"{name}.py"
        paths[name].write_text(text, encoding="utf-8")
    subs = [Sub(name, {"a5.py": path}) for name, path in paths.items()]
    rubric = Rubric.load("pocoloco")
    folder = tmp_path / "reports"
    results = [reports.missing_result(rubric, s.student, "not graded") for s in subs]
    html.write_class_pages(results, rubric, folder, subs)
    text = (folder / "similarity.md").read_text(encoding="utf-8")
    assert "| copycat and nguyenanh |" in text and "smithjane and" not in text
    assert "### Region 1: copycat a5.py lines" in text
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert 'id="similarity"' in page and "copycat and nguyenanh" in page


# ---------------------------------------------------------------------- the command
def test_grade_all_writes_the_pages(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ["brownsam", "wongalex"]:           # quick: a syntax error and a crash
        source = next(DEMO.glob(f"{name}_*.py"))
        shutil.copy(source, folder / source.name)
    done = subprocess.run([sys.executable, "-m", "graders", "grade-all", "pocoloco",
                           str(folder), "--out", str(tmp_path / "out")], cwd=KIT_ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "out" / "pocoloco"
    assert (out / "similarity.md").is_file()
    page = (out / "index.html").read_text(encoding="utf-8")
    assert '<a href="brownsam/feedback.html">' in page
    assert '<div class="big">0 / 24</div>' in (out / "brownsam" / "feedback.html").read_text()


# ---------------------------------------------------------------------- in a browser
def _png_rows(path: Path, rows: int) -> tuple[int, int, list[bytes]]:
    """Width, height and the first ``rows`` rows (RGB or RGBA bytes) of a PNG."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
    assert depth == 8 and colour in (2, 6)
    channels = 3 if colour == 2 else 4
    at, packed = 8, b""
    while at < len(data):
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"IDAT":
            packed += data[at + 8:at + 8 + size]
        at += size + 12
    raw = zlib.decompress(packed)
    stride = width * channels
    previous, found = bytearray(stride), []
    for row in range(min(rows, height)):
        kind = raw[row * (stride + 1)]
        line = bytearray(raw[row * (stride + 1) + 1:(row + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else
                                      up if pb <= pc else corner)) & 255
        found.append(bytes(line))
        previous = line
    return width, height, found


def _colours(rows: list[bytes], channels: int) -> set[tuple[int, int, int]]:
    return {tuple(row[i:i + 3]) for row in rows for i in range(0, len(row), channels)}


@pytest.mark.skipif(not CHROMIUM.exists(),
                    reason="needs Debian's chromium (/usr/bin/chromium): apt-get install "
                           "chromium, or `make screenshots` installs it")
def test_pages_look_right_in_a_browser(class_folder, tmp_path):
    shots = {}
    for name, page in [("index", class_folder / "index.html"),
                       ("feedback", class_folder / "bob" / "feedback.html")]:
        shots[name] = html.screenshot(page, tmp_path / f"{name}.png", str(CHROMIUM))
        width, height, rows = _png_rows(shots[name], 420)
        assert (width, height) == (1200, 1600)
        channels = len(rows[0]) // width
        colours = _colours(rows, channels)
        assert len(colours) > 50                    # text and charts, not a blank page
        if name == "index":
            # the histogram's bars: amber for 5/7 and green for 7/7 (style.css.j2)
            assert (0xd4, 0xa7, 0x2c) in colours and (0x1a, 0x7f, 0x37) in colours
        else:
            # the score meter at 5/7 is amber, the provisional notice pale blue
            assert (0xd4, 0xa7, 0x2c) in colours and (0xdd, 0xf4, 0xff) in colours
