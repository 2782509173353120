"""Similar submissions: pairs whose code is suspiciously alike, for a human to look at.

The method is winnowing (Schleimer, Wilkerson and Aiken, 2003; the idea behind MOSS and the
copydetect package). Each submission's Python files are read as tokens, with every name that is
not a keyword or a builtin written as ``V``, every string as ``S`` and every number as ``N``,
and comments and layout left out, so renaming variables, rewording prompts, re-commenting or
re-indenting changes nothing (and a file Python cannot read still compares with its fixed
copy). Every run of ``K`` tokens is hashed, and the smallest hash of every ``W`` neighbouring
runs is a fingerprint: two programs sharing a run of ``K + W - 1`` tokens share a fingerprint.

Fingerprints of the student template are left out. A **group** is three or more submissions
linked by sharing most of their code (each of two linked submissions has at least
``GROUP_SHARE`` of its fingerprints in the other): a leaked solution copied by many. Then
fingerprints found in more than ``common_limit(n)`` of the class's submissions are left out
(code the handout or the lecture gave everybody), a group counting as one submission there, so
that a solution copied by half the class is not taken for code given to everybody. A pair is
listed when one side has at least ``FLAG_SHARE`` of its remaining fingerprints in common with
the other and they share at least ``MIN_SHARED`` fingerprints; pairs within a group are the
group's, and a submission outside a group is paired with the group's closest member only. The
score is a flag for a human, not a verdict: similar code can have innocent reasons.

copydetect itself was tried: it works, but it installs numpy, matplotlib and pillow (about
200 MB) for what is a few hundred lines of fingerprinting, so the kit does it itself.
"""
from __future__ import annotations

import builtins
import hashlib
import io
import itertools
import keyword
import re
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

from ..judge.rubric import DATA_ROOT, Rubric

K = 20                     # tokens in one hashed run
W = 12                     # runs per winnowing window: a shared run of K + W - 1 tokens is seen
FLAG_SHARE = 0.4           # a pair is listed from this share of one side's fingerprints
MIN_SHARED = 12            # ... and at least this many shared fingerprints
MAX_REGIONS = 8            # matching regions shown per pair
MAX_REGION_LINES = 40      # lines of code shown per side of a region
MAX_FILE_CHARS = 300_000   # a bigger file is read up to here
MIN_REGION_TOKENS = 2 * K  # a shorter shared stretch is not shown as a region
REGION_GAP = 2 * K         # tokens between two matches that still make one region
KEEP = set(dir(builtins)) | set(keyword.kwlist) | set(keyword.softkwlist)
GROUP_SHARE = 0.5          # two submissions are linked in a group from this share, both sides
MIN_GROUP = 3              # submissions in a group (two alike are a pair)


def common_limit(students: int) -> int:
    """Code found in more submissions than this is taken as given to everybody."""
    return max(3, students // 2)


@dataclass
class Token:
    text: str           # the normalised token
    file: str
    line: int
    end_line: int


@dataclass
class Code:
    """One submission's normalised tokens, their runs' hashes and its fingerprints."""

    student: str
    sources: dict[str, str]
    tokens: list[Token]
    hashes: list[int]                       # the hash of the run starting at each token
    fingerprints: dict[int, int]            # fingerprint -> first token position

    @classmethod
    def of(cls, student: str, sources: dict[str, str]) -> "Code":
        tokens = [t for name in sorted(sources) for t in tokens_of(name, sources[name])]
        hashes = run_hashes([t.text for t in tokens])
        return cls(student, sources, tokens, hashes, winnow(hashes))


@dataclass
class Region:
    """A stretch of code found in both submissions of a pair."""

    file_a: str
    lines_a: tuple[int, int]
    file_b: str
    lines_b: tuple[int, int]
    tokens: int
    code_a: str = ""
    code_b: str = ""


@dataclass
class Pair:
    """Two submissions with a lot of code in common."""

    a: str
    b: str
    share_a: float          # share of a's fingerprints also in b
    share_b: float
    shared: int             # fingerprints in common
    regions: list[Region] = field(default_factory=list)

    @property
    def score(self) -> float:
        return max(self.share_a, self.share_b)


@dataclass
class Group:
    """Three or more submissions sharing most of their code (a solution copied by many)."""

    members: list[str]                      # the one sharing most with the others first
    shares: dict[str, float]                # each other member: share of its code in the first's
    regions: list[Region] = field(default_factory=list)    # the first and the closest other

    @property
    def first(self) -> str:
        return self.members[0]

    @property
    def closest(self) -> str:
        return max(self.members[1:], key=lambda m: (self.shares[m], m))


# ---------------------------------------------------------------------- tokens
def tokens_of(name: str, text: str) -> list[Token]:
    """The normalised tokens of one file (a file Python cannot tokenize is read by a simple
    word-and-symbol lexer instead, so a broken program is still compared)."""
    text = text[:MAX_FILE_CHARS]
    try:
        return _python_tokens(name, text)
    except (tokenize.TokenError, SyntaxError, ValueError):
        return _plain_tokens(name, text)


def _python_tokens(name: str, text: str) -> list[Token]:
    found: list[Token] = []
    fstring_depth = 0
    # layout (new lines, indents) is left out, so a file Python cannot tokenize, read by the
    # simple lexer, gives the same tokens as a working copy of it
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
            tokenize.ENCODING, tokenize.ENDMARKER}
    fstart = getattr(tokenize, "FSTRING_START", None)      # Python 3.12+
    fend = getattr(tokenize, "FSTRING_END", None)
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if fstart is not None and tok.type == fstart:
            if fstring_depth == 0:
                found.append(Token("S", name, tok.start[0], tok.end[0]))
            fstring_depth += 1
            continue
        if fstring_depth:
            if tok.type == fend:
                fstring_depth -= 1
                found[-1].end_line = tok.end[0]
            continue
        if tok.type in skip:
            continue
        if tok.type == tokenize.NAME:
            value = tok.string if tok.string in KEEP else "V"
        elif tok.type == tokenize.STRING:
            value = "S"
        elif tok.type == tokenize.NUMBER:
            value = "N"
        else:
            value = tok.string
        found.append(Token(value, name, tok.start[0], tok.end[0]))
    return found


TRIPLE = r"'''[\s\S]*?'''" + r'|"""[\s\S]*?"""'
SINGLE = r'''"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*\''''
PLAIN = re.compile(r"(?P<comment>#[^\n]*|\\\n)"
                   r"|(?P<string>[rRbBfFuU]{0,2}(?:" + TRIPLE + "|" + SINGLE + "))"
                   r"|(?P<number>\d[\w.]*)|(?P<name>\w+)"
                   r"|\*\*=?|//=?|>>=?|<<=?|->|:=|[-+*/%&|^@<>=!]=|\S")


def _plain_tokens(name: str, text: str) -> list[Token]:
    found: list[Token] = []
    line, counted = 1, 0
    for match in PLAIN.finditer(text):
        line += text.count("\n", counted, match.start())
        counted = match.start()
        word = match.group()
        if match.group("comment"):
            continue
        end_line = line + word.count("\n")
        if match.group("string"):
            word = "S"
        elif match.group("number"):
            word = "N"
        elif match.group("name"):
            word = word if word in KEEP else "V"
        found.append(Token(word, name, line, end_line))
    return found


def _hash(run: list[str]) -> int:
    # a stable hash (Python's own hash() of strings changes from one process to the next)
    digest = hashlib.blake2b(" ".join(run).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def run_hashes(texts: list[str]) -> list[int]:
    """The hash of every run of K tokens."""
    return [_hash(texts[i:i + K]) for i in range(len(texts) - K + 1)]


def winnow(hashes: list[int]) -> dict[int, int]:
    """The fingerprints: the smallest hash of every W neighbouring runs (the rightmost one on
    a tie), each with where it first occurs."""
    chosen: dict[int, int] = {}
    if not hashes:
        return chosen
    for start in range(max(1, len(hashes) - W + 1)):
        window = hashes[start:start + W]
        low = min(window)
        position = start + max(i for i, h in enumerate(window) if h == low)
        chosen.setdefault(hashes[position], position)
    return chosen


# ---------------------------------------------------------------------- pairs and groups
def find_pairs(sources: dict[str, dict[str, str]], template: dict[str, str] | None = None,
               flag_share: float = FLAG_SHARE) -> list[Pair]:
    """Pairs of submissions (``student -> {file name: code}``) whose code is alike, most alike
    first, each with its matching regions (pairs within a group are left to the group: see
    ``compare``)."""
    return compare(sources, template, flag_share)[0]


def _shared_counts(holders: dict[int, list[str]], ignored: set[int]) \
        -> dict[tuple[str, str], int]:
    shared: dict[tuple[str, str], int] = {}
    for print_, who in holders.items():
        if print_ in ignored:
            continue
        for pair in itertools.combinations(who, 2):
            shared[pair] = shared.get(pair, 0) + 1
    return shared


def _linked_groups(shared: dict[tuple[str, str], int], own: dict[str, list[int]]) \
        -> list[list[str]]:
    """Submissions linked by sharing most of their code (both sides), MIN_GROUP or more."""
    parent = {student: student for student in own}

    def root(student: str) -> str:
        while parent[student] != student:
            parent[student] = parent[parent[student]]
            student = parent[student]
        return student

    for (a, b), count in shared.items():
        if count >= MIN_SHARED and count >= GROUP_SHARE * max(len(own[a]), len(own[b])):
            parent[root(a)] = root(b)
    found: dict[str, list[str]] = {}
    for student in sorted(own):
        found.setdefault(root(student), []).append(student)
    return [members for members in found.values() if len(members) >= MIN_GROUP]


def compare(sources: dict[str, dict[str, str]], template: dict[str, str] | None = None,
            flag_share: float = FLAG_SHARE) -> tuple[list[Pair], list[Group]]:
    """The pairs (as ``find_pairs``) and the groups of a class, largest group first."""
    codes = {student: Code.of(student, files) for student, files in sorted(sources.items())}
    given = set(Code.of("template", template or {}).hashes)
    holders: dict[int, list[str]] = {}
    for code in codes.values():
        for print_ in code.fingerprints:
            if print_ not in given:
                holders.setdefault(print_, []).append(code.student)
    # groups first, on all the code beyond the template: a solution copied by more than
    # common_limit(n) students would otherwise be left out as code given to everybody
    beyond = {s: [h for h in c.fingerprints if h not in given] for s, c in codes.items()}
    all_shared = _shared_counts(holders, given)
    members = _linked_groups(all_shared, beyond)
    group_of = {m: index for index, group in enumerate(members) for m in group}
    # Interpretation: a group counts as one submission when telling code given to everybody
    # (in most submissions) from code copied by many
    limit = common_limit(len(codes))
    ignored = given | {h for h, who in holders.items()
                       if len({group_of.get(s, s) for s in who}) > limit}
    groups = [_group(group, codes, all_shared, beyond, ignored) for group in members]
    own = {s: [h for h in c.fingerprints if h not in ignored] for s, c in codes.items()}
    best: dict[tuple[str, int], Pair] = {}
    pairs = []
    for (a, b), count in _shared_counts(holders, ignored).items():
        if a in group_of and group_of.get(b) == group_of[a]:
            continue                        # the group's
        share_a, share_b = count / len(own[a]), count / len(own[b])
        if count >= MIN_SHARED and max(share_a, share_b) >= flag_share:
            pair = Pair(a, b, round(share_a, 3), round(share_b, 3), count)
            grouped = [(x, group_of[y]) for x, y in ((a, b), (b, a)) if y in group_of]
            if len(grouped) == 1:           # one outsider: its closest member of the group
                key = grouped[0]
                if key not in best or (pair.score, pair.shared) > (best[key].score,
                                                                   best[key].shared):
                    best[key] = pair
                continue
            pairs.append(pair)
    pairs += best.values()
    for pair in pairs:
        pair.regions = regions(codes[pair.a], codes[pair.b], ignored)
    return (sorted(pairs, key=lambda p: (-p.score, p.a, p.b)),
            sorted(groups, key=lambda g: (-len(g.members), g.members)))


def _group(members: list[str], codes: dict[str, Code], shared: dict[tuple[str, str], int],
           own: dict[str, list[int]], ignored: set[int]) -> Group:
    def between(a: str, b: str) -> int:
        return shared.get((a, b), shared.get((b, a), 0))

    first = max(members, key=lambda m: (sum(between(m, o) for o in members if o != m), m))
    shares = {m: round(between(first, m) / max(1, len(own[m])), 3)
              for m in members if m != first}
    group = Group([first] + sorted(shares, key=lambda m: (-shares[m], m)), shares)
    group.regions = regions(codes[first], codes[group.closest], ignored)
    return group


def regions(a: Code, b: Code, ignored: set[int]) -> list[Region]:
    """The stretches of code found in both (every shared run of K tokens, not only the
    fingerprints, grouped when they follow each other in both programs), largest first."""
    in_b: dict[int, list[int]] = {}
    for position, value in enumerate(b.hashes):
        if value not in ignored:
            in_b.setdefault(value, []).append(position)
    matches: list[tuple[int, int]] = []
    for i, value in enumerate(a.hashes):
        if value not in in_b:
            continue
        # code repeated in b: take the place that continues the previous match
        want = matches[-1][1] + i - matches[-1][0] if matches else 0
        matches.append((i, min(in_b[value][:50], key=lambda j: (abs(j - want), j))))
    groups: list[list[tuple[int, int]]] = []
    for i, j in matches:
        last = groups[-1][-1] if groups else None
        if last and i - last[0] <= REGION_GAP and -REGION_GAP <= j - last[1] <= REGION_GAP:
            groups[-1].append((i, j))
        else:
            groups.append([(i, j)])
    found = []
    for group in groups:
        if group[-1][0] - group[0][0] + K < MIN_REGION_TOKENS:
            continue
        start_a, end_a = group[0][0], group[-1][0] + K - 1
        start_b = min(j for _, j in group)
        end_b = max(j for _, j in group) + K - 1
        found.append(_region(a, b, start_a, end_a, start_b, end_b))
    found.sort(key=lambda r: -r.tokens)
    return found[:MAX_REGIONS]


def _region(a: Code, b: Code, start_a: int, end_a: int, start_b: int, end_b: int) -> Region:
    first_a, last_a = a.tokens[start_a], a.tokens[end_a]
    first_b, last_b = b.tokens[start_b], b.tokens[end_b]
    if last_a.file != first_a.file:          # a match across two files: keep the first file
        last_a = [t for t in a.tokens[start_a:end_a + 1] if t.file == first_a.file][-1]
    if last_b.file != first_b.file:
        last_b = [t for t in b.tokens[start_b:end_b + 1] if t.file == first_b.file][-1]
    lines_a = (first_a.line, last_a.end_line)
    lines_b = (first_b.line, last_b.end_line)
    return Region(first_a.file, lines_a, first_b.file, lines_b, end_a - start_a + 1,
                  _lines(a.sources[first_a.file], lines_a),
                  _lines(b.sources[first_b.file], lines_b))


def _lines(text: str, span: tuple[int, int]) -> str:
    lines = text.splitlines()[span[0] - 1:span[1]]
    if len(lines) > MAX_REGION_LINES:
        keep = MAX_REGION_LINES // 2
        lines = lines[:keep] + [f"… {len(lines) - 2 * keep} lines left out …"] + lines[-keep:]
    return "\n".join(line[:200] for line in lines)


# ---------------------------------------------------------------------- files
def python_sources(files: dict[str, Path]) -> dict[str, str]:
    """The ``.py`` files of a submission (name -> text), unreadable bytes replaced."""
    found = {}
    for name, path in sorted(files.items()):
        if name.endswith(".py"):
            try:
                found[name] = path.read_bytes()[:MAX_FILE_CHARS].decode("utf-8", "replace")
            except OSError:
                continue
    return found


def template_sources(assignment: str) -> dict[str, str]:
    folder = DATA_ROOT / "student_template" / assignment
    if not folder.is_dir():
        return {}
    return python_sources({p.relative_to(folder).as_posix(): p for p in folder.rglob("*.py")})


def class_sources(submissions) -> dict[str, dict[str, str]]:
    """``student -> {file name: code}`` for ``submissions`` (objects with ``student`` and
    ``files``, as ``submissions.discover`` returns them); those without Python are left out."""
    sources = {}
    for submission in submissions:
        code = python_sources(getattr(submission, "files", None) or {})
        if code:
            sources[submission.student] = code
    return sources


def similarity_markdown(pairs: list[Pair], rubric: Rubric, students: int,
                        groups: list[Group] = ()) -> str:
    lines = [f"# {rubric.title}: similar submissions", "",
             "A flag for a human, not a verdict: these groups and pairs share more code than "
             "independent work usually does. Names, strings, numbers and comments are "
             "ignored, so renamed variables still match; the student template's code is left "
             f"out, and for pairs also code found in more than {common_limit(students)} of "
             f"the {students} submissions (a group counting as one there). Similar code can "
             "have innocent reasons (working together where that is allowed, the same lecture "
             "example); read the regions before deciding anything.", ""]
    if groups:
        lines += ["## Groups", "",
                  f"Submissions linked by sharing {GROUP_SHARE:.0%} or more of their code "
                  "beyond the template, both ways: one solution in many hands (a leaked "
                  "solution looks like this; a group of nearly the whole class may also be "
                  "code everybody was given outside the template).", "",
                  "| group | submissions | shared code |", "|---|---|---|"]
        for number, group in enumerate(groups, 1):
            lines.append(f"| group {number} | {', '.join(group.members)} "
                         f"({len(group.members)}) | {describe_group(group)} |")
        for number, group in enumerate(groups, 1):
            lines += ["", f"### Group {number}: {len(group.members)} submissions", "",
                      "Share of each submission's code also in "
                      f"{group.first}'s: " + ", ".join(
                          f"{m} {group.shares[m]:.0%}" for m in group.members[1:]) + ".", ""]
            for index, region in enumerate(group.regions, 1):
                lines += _region_lines(f"Group {number}, region {index}", group.first,
                                       group.closest, region)
        lines.append("")
    if not pairs:
        lines.append(f"No {'other ' if groups else ''}pair of the {students} submissions shares "
                     f"{FLAG_SHARE:.0%} or more of its code.")
        return "\n".join(lines) + "\n"
    if groups:
        lines += ["## Pairs", ""]
    lines += ["| pair | similarity | shared regions |", "|---|---|---|"]
    for pair in pairs:
        lines.append(f"| {pair.a} and {pair.b} | {describe(pair)} | "
                     f"{len(pair.regions)} |")
    for pair in pairs:
        lines += ["", f"## {pair.a} and {pair.b}: {describe(pair)}", ""]
        for number, region in enumerate(pair.regions, 1):
            lines += _region_lines(f"Region {number}", pair.a, pair.b, region)
    return "\n".join(lines) + "\n"


def _region_lines(title: str, a: str, b: str, region: Region) -> list[str]:
    return [f"### {title}: {a} {region.file_a} {span(region.lines_a)}, {b} {region.file_b} "
            f"{span(region.lines_b)}", "", f"{a}:", _fence(region.code_a), "", f"{b}:",
            _fence(region.code_b), ""]


def describe_group(group: Group) -> str:
    low = min(group.shares.values())
    return (f"each has {low:.0%} or more of its code in {group.first}'s "
            f"({group.first}: the one sharing most with the others)")


def describe(pair: Pair) -> str:
    return (f"{pair.share_a:.0%} of {pair.a}'s code is also in {pair.b}'s, "
            f"{pair.share_b:.0%} of {pair.b}'s in {pair.a}'s")


def span(lines: tuple[int, int]) -> str:
    return f"line {lines[0]}" if lines[0] == lines[1] else f"lines {lines[0]}-{lines[1]}"


def _fence(code: str) -> str:
    fence = "````" if "```" in code else "```"
    return f"{fence}python\n{code}\n{fence}"


@dataclass
class ClassSimilarity:
    """What ``similarity.md`` says: the pairs found among ``compared`` submissions."""

    pairs: list[Pair]
    compared: int
    groups: list[Group] = field(default_factory=list)


def write_report(submissions, rubric: Rubric, folder: Path) -> ClassSimilarity:
    """Compare a class's submissions and write ``similarity.md`` in its report folder."""
    sources = class_sources(submissions)
    pairs, groups = compare(sources, template_sources(rubric.assignment))
    found = ClassSimilarity(pairs, len(sources), groups)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "similarity.md").write_text(
        similarity_markdown(found.pairs, rubric, found.compared, found.groups),
        encoding="utf-8")
    return found
