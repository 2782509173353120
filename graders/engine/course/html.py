"""HTML reports: ``feedback.html`` beside every student's ``feedback.md``, and the class's
``index.html`` (score histogram, full-marks rate of every item, the most common problems,
similar submissions, and a link to every student's page).

The pages are built from what the kit already wrote, so they say what the Markdown says: a
student's ``results.json`` (scores, statuses, what a TA must look at), ``feedback.md`` (the
explanations and evidence, read section by section) and the transcripts it links to. Every
page is one self-contained file (inline CSS and SVG, nothing fetched), made from the Jinja2
templates in ``templates/`` with autoescaping on: whatever a student's program printed is shown
as text, never as markup. The class page's student table is sorted and filtered by the kit's
one script (``templates/class_table.js``), which only reorders and hides the rows the kit wrote;
each page's Content-Security-Policy allows that script by its hash and no other.
"""
from __future__ import annotations

import base64
import functools
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import jinja2

from . import similarity
from ..grading import reports
from ..judge.rubric import Rubric

TEMPLATES = Path(__file__).resolve().parent / "templates"
TRANSCRIPT_CHARS = 200_000      # of each full transcript shown on a page (the file has it all)
PAGE_TRANSCRIPT_CHARS = 800_000  # of all full transcripts on one page
COMMON_PROBLEMS = 12            # problems listed on the class page

FENCE = re.compile(r"^(`{3,})([\w+-]*)\s*$")
INLINE = re.compile(r"`([^`\n]+)`|\*\*([^*\n]+)\*\*|\[([^\]\n]+)\]\(([^)\s]+)\)")
SAFE_LINK = re.compile(r"^(?![a-z][a-z0-9+.-]*:)(?!/)(?!.*\.\.)[\w./ -]+$", re.I)
TYPED = re.compile(r"^(.*?)(«[^«»]*»)$")
DICE = re.compile(r"^\[dice: [^\[\]]*\]$")
PROVISIONAL = "This score is provisional"
SCORE_LINE = re.compile(r"^\*\*Score: [^*]*\*\*$")


# ---------------------------------------------------------------------- Markdown
# The kit's feedback.md uses a small part of Markdown: headings, paragraphs, "- " lists,
# tables, `code`, **bold**, [links](file) and fenced blocks (a block's title is the line
# before it, ending in ":"). These turn it into blocks the templates draw.
def spans(text: str) -> list[tuple[str, str, str]]:
    """Inline pieces of one line: (kind, text, link) with kind text, code, strong or link.
    Only links to files beside the page are kept as links."""
    found, at = [], 0
    for match in INLINE.finditer(text):
        if match.start() > at:
            found.append(("text", text[at:match.start()], ""))
        code, strong, label, href = match.groups()
        if code is not None:
            found.append(("code", code, ""))
        elif strong is not None:
            found.append(("strong", strong, ""))
        elif SAFE_LINK.match(href):
            found.append(("link", label, quote(href)))
        else:
            found.append(("text", match.group(), ""))
        at = match.end()
    if at < len(text):
        found.append(("text", text[at:], ""))
    return found


def transcript_lines(text: str) -> list[tuple[str, str, str]]:
    """Lines of a transcript or an evidence block: (kind, before, typed) where kind is
    "dice" for the dice the grader loaded, "typed" for a line ending in what the grader
    typed («like this»; ``before`` is the program's prompt), else "text"."""
    lines = []
    for line in text.split("\n"):
        typed = TYPED.match(line)
        if DICE.match(line):
            lines.append(("dice", line, ""))
        elif typed:
            lines.append(("typed", typed.group(1), typed.group(2)))
        else:
            lines.append(("text", line, ""))
    return lines


def _table_row(line: str) -> list[list]:
    cells = line.strip().strip("|").split("|")
    return [spans(cell.strip()) for cell in cells]


def markdown_blocks(text: str) -> list[dict]:
    """The blocks of a Markdown text written by the kit."""
    blocks: list[dict] = []
    lines = text.split("\n")
    index = 0
    paragraph: list[str] = []

    def flush():
        if paragraph:
            blocks.append({"kind": "para", "lines": [spans(p) for p in paragraph]})
            paragraph.clear()

    while index < len(lines):
        line = lines[index]
        fence = FENCE.match(line)
        if fence:
            title = None
            if paragraph and paragraph[-1].endswith(":"):
                title = paragraph.pop()[:-1]
            flush()
            body = []
            index += 1
            while index < len(lines) and lines[index].rstrip() != fence.group(1):
                body.append(lines[index])
                index += 1
            blocks.append({"kind": "code", "title": title,
                           "lines": transcript_lines("\n".join(body))})
        elif line.startswith("#"):
            flush()
            level = len(line) - len(line.lstrip("#"))
            blocks.append({"kind": "heading", "level": min(level, 4),
                           "spans": spans(line[level:].strip())})
        elif line.startswith("|"):
            flush()
            rows = []
            while index < len(lines) and lines[index].startswith("|"):
                rows.append(lines[index])
                index += 1
            index -= 1
            body = [r for r in rows[1:] if not re.fullmatch(r"[|\s:-]+", r)]
            blocks.append({"kind": "table", "head": _table_row(rows[0]),
                           "rows": [_table_row(r) for r in body]})
        elif line.startswith("- "):
            flush()
            items = []
            while index < len(lines) and lines[index].startswith("- "):
                items.append(spans(lines[index][2:]))
                index += 1
            index -= 1
            blocks.append({"kind": "list", "items": items})
        elif not line.strip():
            flush()
        else:
            paragraph.append(line)
        index += 1
    flush()
    return blocks


# ---------------------------------------------------------------------- one student
@dataclass
class Section:
    """A part of the feedback: an item's explanation, or a general part."""

    title: list
    blocks: list[dict]
    item: str = ""              # the rubric item id, for an item's section
    status: str = ""            # passed, partial, failed, not-judged


def status_of(test: dict, not_judged: set[str]) -> str:
    if test.get("number") in not_judged:
        return "not-judged"
    if test["score"] >= test["max_score"] - 1e-9:
        return "passed"
    return "partial" if test["score"] > 0 else "failed"


def _item_of(heading: list) -> str:
    codes = [text for kind, text, _ in heading if kind == "code"]
    return codes[0] if codes else ""


def feedback_sections(markdown: str, result: dict) -> tuple[list[dict], list[Section]]:
    """The blocks before the first section (less the title and score line, which the page
    shows itself), and the sections, each marked with its item's status."""
    statuses = _statuses(result)
    lead: list[dict] = []
    sections: list[Section] = []
    for block in markdown_blocks(markdown):
        if block["kind"] == "heading" and block["level"] == 1 and not sections and not lead:
            continue
        if (block["kind"] == "para" and len(block["lines"]) == 1 and not sections
                and SCORE_LINE.match("".join(f"**{t}**" if k == "strong" else t
                                             for k, t, _ in block["lines"][0]))):
            continue
        if block["kind"] == "heading" and block["level"] == 2:
            item = _item_of(block["spans"])
            sections.append(Section(block["spans"], [], item if item in statuses else "",
                                    statuses.get(item, "")))
        elif sections:
            sections[-1].blocks.append(block)
        else:
            lead.append(block)
    # the score table (the first table listing the rubric items) comes first, under the
    # score, each row coloured by its item's status
    for blocks in [lead] + [section.blocks for section in sections]:
        tables = [b for b in blocks if b["kind"] == "table"
                  and any(_item_of(row[0]) in statuses for row in b["rows"] if row)]
        if tables:
            table = tables[0]
            table["statuses"] = [statuses.get(_item_of(row[0]) if row else "", "")
                                 for row in table["rows"]]
            blocks.remove(table)
            lead.append(table)
            break
    for block in lead:                      # "This score is provisional: ..." stands out
        if block["kind"] == "para" and _plain(block["lines"][0]).startswith(PROVISIONAL):
            block["note"] = "not-judged"
    return lead, sections


def _plain(pieces: list) -> str:
    return "".join(text for _, text, _ in pieces)


def _statuses(result: dict) -> dict[str, str]:
    not_judged = set(result.get("extra_data", {}).get("not_judged", []))
    return {t["number"]: status_of(t, not_judged) for t in result.get("tests", [])}


def _from_results(result: dict) -> tuple[list[dict], list[Section]]:
    """Without feedback.md (a submission the grader failed on): the score table and each
    item's text as results.json has them."""
    statuses = _statuses(result)
    lead: list[dict] = []
    not_judged = result.get("extra_data", {}).get("not_judged", [])
    if not_judged:
        lead.append({"kind": "para", "note": "not-judged", "lines": [spans(
            PROVISIONAL + ": the grader could not check "
            + ", ".join(f"`{i}`" for i in not_judged)
            + ", which count 0 until a TA has looked at them.")]})
    table = {"kind": "table", "head": [spans("item"), spans("points"), spans("result")],
             "rows": [], "statuses": []}
    sections = []
    for test in result.get("tests", []):
        status = statuses.get(test["number"], "")
        table["rows"].append([spans(f"`{test['number']}` {test.get('name', '')}"),
                              spans(f"{test['score']:g} / {test['max_score']:g}"),
                              spans(status.replace("-", " "))])
        table["statuses"].append(status)
        title = spans(f"`{test['number']}`: {test.get('name', '')} "
                      f"({test['score']:g}/{test['max_score']:g})")
        blocks = [{"kind": "code", "title": None,
                   "lines": transcript_lines(test["output"])}] if test.get("output") else []
        sections.append(Section(title, blocks, str(test["number"]), status))
    lead.append(table)
    return lead, sections


@dataclass
class Transcript:
    name: str
    href: str
    lines: list
    cut: int = 0                # characters not shown


def _transcripts(folder: Path, markdown: str) -> list[Transcript]:
    """The full transcripts the feedback links to (or those in transcripts/), each shown up
    to TRANSCRIPT_CHARS, all of them up to PAGE_TRANSCRIPT_CHARS."""
    names = [href for href in re.findall(r"\]\(([^)\s]+\.txt)\)", markdown)
             if SAFE_LINK.match(href)]
    if not names and (folder / "transcripts").is_dir():
        names = [f"transcripts/{p.name}" for p in sorted((folder / "transcripts").glob("*.txt"))]
    inside = folder.resolve()
    found, room = [], PAGE_TRANSCRIPT_CHARS
    for name in dict.fromkeys(names):
        path = (folder / name).resolve()
        if not path.is_relative_to(inside) or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        shown = text[:max(0, min(TRANSCRIPT_CHARS, room))]
        room -= len(shown)
        found.append(Transcript(name, quote(name), transcript_lines(shown),
                                len(text) - len(shown)))
    return found


@functools.lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    """One environment per process, so that each template is compiled once, not once per
    page (jinja2 keeps compiled templates in its environment)."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["num"] = lambda value: f"{value:g}"
    env.filters["pct"] = lambda value: f"{value:.0%}"
    return env


def feedback_page(folder: Path, rubric: Rubric | None = None) -> str:
    """The HTML page of one student's report folder (results.json, feedback.md, transcripts)."""
    result = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    markdown_path = folder / "feedback.md"
    markdown = markdown_path.read_text(encoding="utf-8") if markdown_path.exists() else ""
    if markdown:
        lead, sections = feedback_sections(markdown, result)
    else:
        lead, sections = _from_results(result)
    extra = result.get("extra_data", {})
    title = rubric.title if rubric else extra.get("assignment", "")
    return _environment().get_template("feedback.html.j2").render(
        title=title, student=extra.get("student") or folder.name, result=result,
        score=result.get("score", 0), max_score=result.get("max_score", 0),
        fraction=_fraction(result.get("score", 0), result.get("max_score", 0)),
        not_judged=extra.get("not_judged", []), lead=lead, sections=sections,
        transcripts=_transcripts(folder, markdown))


def write_feedback_page(folder: Path, rubric: Rubric | None = None) -> Path | None:
    """Write ``feedback.html`` in a student's report folder (None without results.json)."""
    if not (folder / "results.json").is_file():
        return None
    path = folder / "feedback.html"
    path.write_text(feedback_page(folder, rubric), encoding="utf-8")
    return path


def _fraction(score, most) -> float:
    return max(0.0, min(1.0, score / most)) if most else 0.0


# ---------------------------------------------------------------------- the class
@dataclass
class Bar:
    label: str
    value: float            # 0..1 of the bar's full length, or a count
    text: str
    title: str = ""
    detail: str = ""


@dataclass
class Problem:
    """A failure message shared by several students."""

    message: str
    items: list[str] = field(default_factory=list)
    students: list[str] = field(default_factory=list)


def histogram(results: list[dict], max_score: float) -> list[Bar]:
    """One bar per whole point (or per twentieth of the maximum for a long rubric)."""
    step = 1.0 if max_score <= 30 else max_score / 20
    bins = int(max_score // step) + 1
    counts = [0] * bins
    for result in results:
        where = int(max(0.0, min(result.get("score", 0), max_score)) // step)
        counts[min(where, bins - 1)] += 1
    bars = []
    for index, count in enumerate(counts):
        low = index * step
        label = f"{low:g}" if step == 1 else f"{low:.0f}-{low + step:.0f}"
        bars.append(Bar(label, count, str(count) if count else "",
                        f"{count} submission(s) scored {label}"))
    return bars


def item_bars(results: list[dict], rubric: Rubric) -> list[Bar]:
    """Each item's full-marks rate, with its average and how many were not judged."""
    bars = []
    for item in rubric.items:
        tests = [t for r in results for t in r.get("tests", []) if t["number"] == item.id]
        full = sum(1 for t in tests if t["score"] >= item.points - 1e-9)
        unjudged = sum(1 for r in results
                       if item.id in r.get("extra_data", {}).get("not_judged", []))
        average = sum(t["score"] for t in tests) / len(results) if results else 0.0
        rate = full / len(results) if results else 0.0
        detail = f"average {average:.2f} / {item.points:g}"
        if unjudged:
            detail += f", {unjudged} not judged"
        bars.append(Bar(item.id, rate, f"{full}/{len(results)} ({rate:.0%})", item.title,
                        detail))
    return bars


def _first_message(output: str) -> str:
    """The first thing an item's explanation says (for a not-judged item, why)."""
    parts = [p.strip() for p in output.split("\n\n") if p.strip()]
    if parts and parts[0].startswith("Not judged:"):
        why = [p for p in parts if p.startswith("Why:")]
        return "Not judged. " + (why[0] if why else parts[0])
    return " ".join(parts[0].split())[:300] if parts else ""


def common_problems(results: list[dict], limit: int = COMMON_PROBLEMS) -> list[Problem]:
    """The failure messages most students got (numbers ignored when grouping), each with its
    items and students; a message given to one student only is left out of a class of more
    than two."""
    groups: dict[str, Problem] = {}
    for result in results:
        student = str(result.get("extra_data", {}).get("student", ""))
        for test in result.get("tests", []):
            if test["score"] >= test["max_score"] - 1e-9:
                continue
            message = _first_message(str(test.get("output", "")))
            if not message:
                continue
            problem = groups.setdefault(re.sub(r"\d+", "#", message), Problem(message))
            if test["number"] not in problem.items:
                problem.items.append(str(test["number"]))
            if student not in problem.students:
                problem.students.append(student)
    found = sorted(groups.values(), key=lambda p: (-len(p.students), -len(p.items), p.message))
    if len(results) > 2:
        found = [p for p in found if len(p.students) > 1] or found[:limit // 2]
    return found[:limit]


REASON_CHARS = 160              # of a reason in the class page's "for a TA" column
GAMES_LIST = re.compile(r"This happened in (\d+) of the grader's (\d+) games?: (.*)$", re.S)


def game_names(listing: str) -> list[str]:
    """The games' names in "'long' (seven rounds ...), 'ties' (ties for ...)": the quoted
    names outside any parentheses (a purpose may hold parentheses of its own)."""
    names, depth = [], 0
    # a quote holds no parenthesis: an apostrophe in a purpose ("the round's chips") never
    # reaches past the purpose's own closing parenthesis
    for match in re.finditer(r"[()]|'([^'()]*)'", listing):
        if match.group() == "(":
            depth += 1
        elif match.group() == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            names.append(match.group(1))
    return names


def short_reason(text: str, limit: int = REASON_CHARS) -> str:
    """A reason for a TA in a few words: the games a problem happened in by their names
    only (their descriptions are in feedback.md), then cut at a word (the full reason is the
    cell's tooltip and in needs_review.md)."""
    text = " ".join(str(text).split())
    games = GAMES_LIST.search(text)
    if games:
        hit, played = games.group(1), games.group(2)
        names = game_names(games.group(3))
        if hit == played:
            text = text[:games.start()] + f"In all {played} games."
        else:
            text = text[:games.start()] + f"In {hit} of {played} games" + (
                f": {', '.join(names)}." if names else ".")
    if len(text) > limit:
        # the whole sentences or clauses that fit, else the words that fit
        ends = [m.end() for m in re.finditer(r"[.?!;](?= )", text[:limit]) if m.end() > 40]
        if ends:
            text = text[:ends[-1]].rstrip(";") + ("" if text[ends[-1] - 1] in ".?!" else ".")
        else:
            text = text[:limit].rsplit(" ", 1)[0].rstrip(",;:") + " …"
    return text


def review_state(extra: dict, review_items: list[str]) -> str:
    """Where a student's score stands: "grading failed", "not graded yet" (no result: a
    grade-all with --only, or one stopped before it), "set for an earlier version" (a TA's
    decisions made for code the student has replaced since), "provisional" (items not
    judged, or review items not confirmed yet), "confirmed" (every review item confirmed or
    set by a TA) or "automatic" (a rubric with nothing for a TA to confirm)."""
    if extra.get("grading_failed"):
        return "not graded yet" if extra.get("not_graded") else "grading failed"
    if extra.get("overrides_for_earlier_version"):
        return "set for an earlier version"
    provisional = extra.get("provisional", review_items)
    if extra.get("not_judged") or provisional:
        return "provisional"
    return "confirmed" if review_items or extra.get("overrides") else "automatic"


def _item_cells(result: dict, rubric: Rubric) -> list[dict]:
    """Each rubric item's points for the student table (its status colours the cell)."""
    tests = {t["number"]: t for t in result.get("tests", [])}
    not_judged = set(result.get("extra_data", {}).get("not_judged", []))
    changed = result.get("extra_data", {}).get("overrides", {})
    cells = []
    for item in rubric.items:
        test = tests.get(item.id)
        if test is None:
            cells.append({"id": item.id, "text": "-", "score": -1, "status": "", "title": ""})
            continue
        status = status_of(test, not_judged)
        title = f"{item.id}: {test['score']:g} of {item.points:g}"
        title += {"not-judged": ", not judged (0 until a TA looks)",
                  "partial": ", part of the points"}.get(status, "")
        if item.id in changed:
            title += f", set by a TA (automatic: {changed[item.id].get('automatic', 0):g})"
        cells.append({"id": item.id, "text": f"{test['score']:g}/{item.points:g}"
                      + ("?" if status == "not-judged" else "")
                      + ("*" if item.id in changed else ""),
                      "score": test["score"], "status": status, "title": title})
    return cells


def _students(results: list[dict], folder: Path, rubric: Rubric | None = None) -> list[dict]:
    rows = []
    review_items = [i.id for i in rubric.items if i.review] if rubric else []
    for result in sorted(results, key=lambda r: str(r.get("extra_data", {}).get("student"))):
        extra = result.get("extra_data", {})
        student = str(extra.get("student", ""))
        page = folder / student / "feedback.html"
        state = review_state(extra, review_items)
        late = bool(extra.get("late"))
        reasons = [{"short": short_reason(p), "full": " ".join(str(p).split())}
                   for p in extra.get("problems", [])]
        lost = result.get("score", 0) < result.get("max_score", 0) - 1e-9
        look = bool(extra.get("problems") or extra.get("not_judged")
                    or extra.get("grading_failed"))
        flags = ["look"] * look + ["late"] * late + ["lost"] * lost + [
            {"provisional": "provisional", "confirmed": "confirmed",
             "set for an earlier version": "earlier"}.get(state, "")]
        flags += ["overridden"] * bool(extra.get("overrides"))
        rows.append({"student": student, "score": result.get("score", 0),
                     "graded_file": str(extra.get("submission", {}).get("graded_file") or ""),
                     "cells": _item_cells(result, rubric) if rubric else [],
                     "state": state, "look": look, "reasons": reasons,
                     "flags": " ".join(f for f in flags if f),
                     "max_score": result.get("max_score", 0),
                     "fraction": _fraction(result.get("score", 0),
                                           result.get("max_score", 0)),
                     "href": quote(f"{student}/feedback.html") if page.exists() else "",
                     "not_judged": extra.get("not_judged", []),
                     "problems": extra.get("problems", []),
                     # what the TA's week added (classbook): LATE, items a TA set, review
                     # items not confirmed yet
                     "late": bool(extra.get("late")),
                     "late_deduction": extra.get("late_deduction") or 0,
                     "overridden": list(extra.get("overrides", {})),
                     "earlier_version": bool(extra.get("overrides_for_earlier_version")),
                     "provisional": extra.get("provisional", review_items)})
    return rows


def class_page(results: list[dict], rubric: Rubric, folder: Path, similar=None) -> str:
    """The class page: ``similar`` is what ``similarity.write_report`` returned (or None when
    the code was not compared)."""
    # the figures are of the graded submissions (as in class_report.md): one with no result
    # is in the table, not a 0 in the mean, the histogram or the items' rates
    graded = reports.with_a_result(results)
    totals = sorted(r.get("score", 0) for r in graded)
    stats = {}
    if totals:
        stats = {"mean": sum(totals) / len(totals), "median": totals[len(totals) // 2],
                 "min": totals[0], "max": totals[-1]}
    bars = histogram(graded, rubric.max_score)
    students = _students(results, folder, rubric)
    filters = [(key, label, sum(1 for s in students if key in s["flags"].split()))
               for key, label in FILTERS]
    return _environment().get_template("index.html.j2").render(
        rubric=rubric, count=len(results), stats=stats, histogram=bars,
        tallest=max([b.value for b in bars] + [1]), items=item_bars(graded, rubric),
        without_result=len(results) - len(graded),
        problems=common_problems(results), students=students,
        flagged=sum(1 for s in students if s["look"]), filters=filters,
        script=TABLE_SCRIPT, script_hash=script_hash(TABLE_SCRIPT),
        similar=similar, similar_threshold=similarity.FLAG_SHARE)


# the student table's filters: (flag, label); the table's script shows the rows with the flag
FILTERS = [("look", "needs a look"), ("provisional", "provisional"),
           ("confirmed", "confirmed"), ("earlier", "set for an earlier version"),
           ("overridden", "set by a TA"), ("late", "late"), ("lost", "lost marks")]
# the class page's only script (sorting and filtering the student table): allowed by its hash
TABLE_SCRIPT = (TEMPLATES / "class_table.js").read_text(encoding="utf-8")


def script_hash(script: str) -> str:
    """The Content-Security-Policy source that allows exactly this inline script."""
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def write_class_pages(results: list[dict], rubric: Rubric, folder: Path,
                      submissions=None) -> Path:
    """Every student's ``feedback.html``, ``similarity.md`` (when ``submissions`` are given:
    objects with ``student`` and ``files``) and ``index.html``; returns index.html's path."""
    inside = folder.resolve()
    for result in results:
        student = str(result.get("extra_data", {}).get("student", ""))
        mine = (folder / student).resolve()
        if student and mine.is_dir() and mine.parent == inside:
            write_feedback_page(folder / student, rubric)
    similar = None
    if submissions is not None:
        similar = similarity.write_report(submissions, rubric, folder)
    path = folder / "index.html"
    path.write_text(class_page(results, rubric, folder, similar), encoding="utf-8")
    return path


# ---------------------------------------------------------------------- screenshots
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]


def screenshot(page: Path, png: Path, browser: str = "chromium",
               size: tuple[int, int] = (1200, 1600)) -> Path:
    """A PNG of ``page`` as headless Chromium draws it (to look at the pages as a person
    would; ``make screenshots``)."""
    png.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="grader-chromium-") as profile:
        subprocess.run([browser, *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
                        f"--screenshot={png.resolve()}", f"--window-size={size[0]},{size[1]}",
                        page.resolve().as_uri()], check=True, capture_output=True,
                       timeout=120)
    if not png.is_file():
        raise RuntimeError(f"{browser} wrote no screenshot of {page}")
    return png


def main(argv: list[str] | None = None) -> int:
    """``python -m graders.engine.course.html FOLDER``: PNGs of a class's index.html and of its
    students' feedback.html in FOLDER/screenshots/."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or not (Path(args[0]) / "index.html").is_file():
        print("usage: python -m graders.engine.course.html REPORT_FOLDER (holding index.html)",
              file=sys.stderr)
        return 2
    folder = Path(args[0])
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        print("no chromium on PATH (Debian: apt-get install chromium)", file=sys.stderr)
        return 2
    pages = [folder / "index.html", *sorted(folder.glob("*/feedback.html"))]
    for page in pages:
        name = "index" if page.parent == folder else page.parent.name
        print(screenshot(page, folder / "screenshots" / f"{name}.png", browser))
    return 0


if __name__ == "__main__":
    sys.exit(main())
