"""The student kit: ``dist/<assignment>-student-kit.zip`` with the handout, the template and a
self-check that runs only the public items (``public = true`` in the rubric), on the public
scenarios, and the 100-character line rule.

Nothing hidden goes in: no reference solution, no check of a hidden item, no hidden scenario.
The assignment's grader is copied with its hidden parts cut out of the source:

- check functions whose items are all hidden are removed;
- names a grader lists in its ``student_kit.toml`` (``[hidden]``: module = [names], e.g. the
  scenarios of hidden games) are removed, and so are those names in list literals;
- then whatever nothing kept still uses (helpers, constants, imports, fixtures, whole modules)
  is removed too, until nothing changes.

A grader opts in with its ``student_kit.toml`` (even an empty ``[hidden]`` table), once its
author has checked what the public checks need: a grader whose oracle for a hidden item sits
in a module the public checks import would otherwise hand that oracle to the students.

The kit's rubric holds the public items only, and names the other items (at the level of the
handout) so the self-check can say what the full grading adds.
"""
from __future__ import annotations

import ast
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.grading.reports import SubmissionReport
from ..engine.judge.rubric import DATA_ROOT, KIT_ROOT, Rubric
from . import bundle

GRADERS = KIT_ROOT / "graders"
CONFIG = "student_kit.toml"
KIT_DATA = "graders/kitdata"      # where the kit's rubric and template sit (rubric.DATA_ROOT)


# ----------------------------------------------------------------------------- what ran
def what_ran(rubric: Rubric, report: SubmissionReport) -> str:
    """Which checks the self-check ran, and what the full grading adds (item titles only)."""
    ran = [v.item for v in report.verdicts]
    lines = ["This self-check ran the public checks only:"]
    lines += [f"  - {item.id}: {item.title}" for item in ran]
    lines.append("  - and the 100-character line rule" if not any(
        item.id == "readability" for item in ran) else "")
    others = also_graded(rubric.assignment, {item.id for item in ran})
    if others:
        lines.append("The full grading also checks, with games and cases this self-check "
                     "does not show you:")
        lines += [f"  - {title}" for title in others]
    lines.append("A passing self-check is a good sign, not your grade.")
    return "\n".join(line for line in lines if line)


def also_graded(assignment: str, ran: set[str]) -> list[str]:
    """The titles of the rubric items the self-check did not run (from the full rubric, or
    from the kit's ``[self_check]`` table, where only the public items are left)."""
    data = tomllib.loads((DATA_ROOT / "assignments" / assignment / "rubric.toml")
                         .read_text(encoding="utf-8"))
    listed = data.get("self_check", {}).get("also_graded")
    if listed is not None:
        return list(listed)
    return [_title(item) for item in data.get("item", []) if item["id"] not in ran]


def _title(item: dict) -> str:
    review = " (a TA reviews it)" if item.get("review") else ""
    return f"{item.get('title', item['id'])}{review}"


# ----------------------------------------------------------------------------- pruning
@dataclass
class Module:
    name: str
    source: str
    tree: ast.Module
    removed: set[int] = field(default_factory=set)        # ids of removed top-level nodes
    dropped: set[str] = field(default_factory=set)        # names taken out of list literals

    def kept(self) -> list[ast.stmt]:
        return [n for n in self.tree.body if id(n) not in self.removed]


def item_ids(node: ast.AST) -> list[str] | None:
    """The rubric items a check function is marked for (None: not a check)."""
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    ids = []
    for deco in node.decorator_list:
        if isinstance(deco, ast.Call) and ast.unparse(deco.func).endswith("mark.item") \
                and deco.args and isinstance(deco.args[0], ast.Constant):
            ids.append(str(deco.args[0].value))
    return ids or None


def _is_fixture(node: ast.AST) -> bool:
    return isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
        "fixture" in ast.unparse(d) for d in node.decorator_list)


def _defines(node: ast.stmt) -> list[str]:
    """The names a removable top-level statement defines ([] for any other statement)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) for t in node.targets):
        return [t.id for t in node.targets]
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return [node.target.id]
    if isinstance(node, ast.ImportFrom) and node.module == "__future__":
        return []                                   # always kept
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name).split(".")[0] for a in node.names]
    return []


def _uses(node: ast.AST, modules: dict[str, Module], aliases: dict[str, str],
          used_here: set[str]):
    """(names used, {module: names used from it}, argument names) of one statement; an
    import counts only for the names the module really uses (``used_here``)."""
    names: set[str] = set()
    outside: dict[str, set[str]] = {}
    args: set[str] = set()
    for sub in ast.walk(node):
        # a name only assigned (a dataclass field called like a module, a loop variable) is no
        # use of the top-level name it shares; ``x += 1`` reads x, so it is one
        if isinstance(sub, ast.Name) and not isinstance(sub.ctx, (ast.Store, ast.Del)):
            names.add(sub.id)
        elif isinstance(sub, ast.AugAssign) and isinstance(sub.target, ast.Name):
            names.add(sub.target.id)
        elif isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) \
                and sub.value.id in aliases:
            outside.setdefault(aliases[sub.value.id], set()).add(sub.attr)
        elif isinstance(sub, ast.arg):
            args.add(sub.arg)
        elif isinstance(sub, ast.ImportFrom) and sub.level == 1:
            if sub.module in modules:
                outside.setdefault(sub.module, set()).update(
                    a.name for a in sub.names if (a.asname or a.name) in used_here)
            elif sub.module is None:
                for alias in sub.names:
                    if alias.name in modules:
                        outside.setdefault(alias.name, set())
    return names, outside, args


def _sibling_aliases(module: Module, modules: dict[str, Module]) -> dict[str, str]:
    """Local names bound to sibling modules (``from . import rules``)."""
    aliases = {}
    for node in module.kept():
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module is None:
            for alias in node.names:
                if alias.name in modules:
                    aliases[alias.asname or alias.name] = alias.name
    return aliases


def prune(modules: dict[str, Module], public: set[str],
          hidden: dict[str, list[str]]) -> dict[str, Module]:
    """Cut hidden checks and hidden names, then everything left unused; returns the modules
    still needed (conftest and the modules with checks, and what they import)."""
    for module in modules.values():
        forced = set(hidden.get(module.name, []))
        module.dropped = forced
        for node in module.tree.body:
            ids = item_ids(node)
            if ids is not None and not set(ids) & public:
                module.removed.add(id(node))
            elif forced and set(_defines(node)) & forced and set(_defines(node)) <= forced:
                module.removed.add(id(node))
    roots = {name for name, m in modules.items()
             if name == "conftest" or any(item_ids(n) for n in m.kept())}
    changed = True
    while changed:
        changed = False
        wanted: dict[str, set[str]] = {name: set() for name in modules}
        args: set[str] = set()
        edges: dict[str, set[str]] = {name: set() for name in modules}
        for name, module in modules.items():
            aliases = _sibling_aliases(module, modules)
            used_here = _used_names(module)
            for node in module.kept():
                names, outside, node_args = _uses(node, modules, aliases, used_here)
                args |= node_args
                own = set(_defines(node))
                if not isinstance(node, (ast.Import, ast.ImportFrom)):
                    wanted[name] |= names - own if own else names
                for other, used in outside.items():
                    wanted[other] |= used
                    edges[name].add(other)
        needed, todo = set(roots), list(roots)
        while todo:
            for other in edges[todo.pop()] - needed:
                needed.add(other)
                todo.append(other)
        for name, module in modules.items():
            for node in module.kept():
                defined = _defines(node)
                if not defined or item_ids(node) or defined[0].startswith("pytest_") \
                        or defined == ["__all__"] or (name == "conftest" and
                                                      not _is_fixture(node) and
                                                      not isinstance(node, (ast.Import,
                                                                            ast.ImportFrom))):
                    continue
                if _is_fixture(node):
                    alive = defined[0] in args
                else:
                    alive = bool(set(defined) & wanted[name])
                if not alive:
                    module.removed.add(id(node))
                    changed = True
        modules = {name: m for name, m in modules.items() if name in needed}
    return modules


class KitError(Exception):
    """The assignment's grader has not opted in to a student kit."""


def supported(assignment: str) -> bool:
    """Whether the assignment's grader says what its student kit leaves out."""
    return (GRADERS / assignment / CONFIG).is_file()


class _DropNames(ast.NodeTransformer):
    def __init__(self, names: set[str]):
        self.names = names

    def _elements(self, node):
        node.elts = [e for e in node.elts
                     if not (isinstance(e, ast.Name) and e.id in self.names)]
        return self.generic_visit(node)

    visit_List = visit_Tuple = visit_Set = _elements


def source_of(module: Module) -> str:
    """The module's text without its removed statements (and the comments just above them);
    an import that lost names, or a list that lost hidden names, is written out again."""
    lines = module.source.splitlines()
    out: dict[int, str | None] = {}          # line index -> replacement (None: removed)
    for node in module.tree.body:
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        span = range(first - 1, node.end_lineno)
        if id(node) in module.removed:
            for index in span:
                out[index] = None
            above = first - 2
            while above >= 0 and lines[above].lstrip().startswith("#"):
                out[above] = None
                above -= 1
            continue
        text = None
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            used = _used_names(module)
            kept = [a for a in node.names if (a.asname or a.name) in used]
            if len(kept) < len(node.names):
                node.names = kept
                text = ast.unparse(node) if kept else ""
        elif module.dropped and any(isinstance(s, ast.Name) and s.id in module.dropped
                                    for s in ast.walk(node)):
            text = ast.unparse(_DropNames(module.dropped).visit(node))
        if text is not None:
            for index in span:
                out[index] = None
            out[span[0]] = text if text else None
    kept_lines = [out.get(i, line) for i, line in enumerate(lines)]
    text = "\n".join(line for line in kept_lines if line is not None) + "\n"
    return re.sub(r"\n{4,}", "\n\n\n", text)


def _used_names(module: Module) -> set[str]:
    names: set[str] = set()
    for node in module.kept():
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    return names


def public_grader(assignment: str) -> dict[str, str]:
    """File name -> text of the assignment's grader with every hidden part cut out."""
    rubric = Rubric.load(assignment)
    public = {item.id for item in rubric.items if item.public}
    folder = GRADERS / assignment
    if not supported(assignment):
        kits = [p.parent.name for p in sorted(GRADERS.glob(f"*/{CONFIG}"))]
        raise KitError(f"the {assignment} grader has no {CONFIG}, which says what its "
                       f"student kit leaves out; without it, helpers the public checks "
                       f"import could carry hidden items' answers (kits: {', '.join(kits)})")
    hidden = tomllib.loads((folder / CONFIG).read_text(encoding="utf-8")).get("hidden", {})
    modules = {}
    for path in sorted(folder.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        modules[path.stem] = Module(path.stem, source, ast.parse(source))
    init = modules.pop("__init__", None)
    kept = prune(modules, public, hidden)
    files = {f"{name}.py": source_of(module) for name, module in kept.items()}
    files["__init__.py"] = init.source if init else ""
    return files


# ----------------------------------------------------------------------------- the kit
def kit_rubric(assignment: str) -> str:
    """The rubric with the public items only, and a [self_check] table naming the others."""
    path = DATA_ROOT / "assignments" / assignment / "rubric.toml"
    text = path.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    head = text.split("[[item]]", 1)[0]
    head = re.sub(r"(?ms)^\[(late|canvas|self_check)\].*?(?=^\[|\Z)", "", head)
    blocks = []
    for item in data["item"]:
        if not item.get("public"):
            continue
        fields = [f"{key} = {_toml_value(value)}" for key, value in item.items()]
        blocks.append("[[item]]\n" + "\n".join(fields) + "\n")
    others = [_title(item) for item in data["item"] if not item.get("public")]
    tail = "[self_check]\n# what the full grading adds, as the handout's marking scheme says\n"
    tail += "also_graded = [\n" + "".join(f"    {_toml_value(t)},\n" for t in others) + "]\n"
    readability = re.search(r"(?ms)^\[readability\].*?(?=^\[|\Z)", text)
    extra = readability.group(0) if readability and readability.group(0) not in head else ""
    return head.rstrip() + "\n\n" + "\n".join(blocks) + "\n" + extra + tail


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


# flit_core builds the wheel straight from the kit's folder: `pip install .` leaves no build/
# or *.egg-info in the student's folder (setuptools did), and it takes every file of the
# graders package, kitdata/ included.
PYPROJECT = """\
[build-system]
requires = ["flit_core>=3.9,<4"]
build-backend = "flit_core.buildapi"

[project]
name = "gradekit-selfcheck-@NAME@"
version = "1.0"
description = "The public self-check of @TITLE@"
requires-python = ">=3.11"
dependencies = [@DEPS@]

[project.scripts]
gradekit = "graders.student_check:main"

[tool.flit.module]
name = "graders"
"""

SELFCHECK = '''\
"""Run the self-check without installing the kit: python3 selfcheck.py @MAIN@"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
try:
    from graders.student_check import main  # noqa: E402
    status = main(["check", "@NAME@", *(sys.argv[1:] or ["@MAIN@"])])
except ModuleNotFoundError as missing:      # the kit's packages are not in this Python
    sys.exit(f"The self-check needs packages this Python does not have ({missing.name}). "
             "Install the kit once, as README.md says, then run it again.")
sys.exit(status)
'''

README = """\
# @TITLE@: your starter kit

- `handout.md`: the assignment.
- @TEMPLATE@: where you start (keep the file names).
- A self-check: it runs the grader's **public** checks on your program and the
  100-character line rule.

## Install (once)

You need Python 3.11 or newer. In this folder, a virtual environment of its own (some
systems, Debian, Ubuntu, WSL and Homebrew among them, refuse `pip install` outside one):

```sh
python3 -m venv .venv
.venv/bin/python -m pip install .
```

(on Windows: `py -m venv .venv` then `.venv\\Scripts\\python -m pip install .`)

## Run the self-check

```sh
.venv/bin/gradekit check @NAME@ @MAIN@
.venv/bin/gradekit check @NAME@ @MAIN@ -v     # each problem in full, with its transcript
```

Without installing: `python3 selfcheck.py @MAIN@` (needs the packages listed in
`pyproject.toml`).

It plays your program in a terminal emulation (a pty), which Linux and macOS have. On
Windows the self-check checks the line rule only and says so: run it in WSL for the rest.

## What it checks, and what it does not

It runs these checks of the marking scheme:

@PUBLIC@

The full grading also checks, with games and cases the self-check does not show you:

@HIDDEN@

A passing self-check is a good sign, not your grade.
"""


def build(assignment: str, out: Path) -> Path:
    """Write the student kit zip for ``assignment`` to ``out`` (a .zip path or a folder)."""
    rubric = Rubric.load(assignment)
    if out.suffix != ".zip":
        out = out / f"{assignment}-student-kit.zip"
    top = f"{assignment}-student-kit"
    members: dict[str, str | Path] = {}
    for name, text in public_grader(assignment).items():
        members[f"{top}/graders/{assignment}/{name}"] = text
    for name in ("__init__.py", "__main__.py", "cli.py", "student_check.py"):
        members[f"{top}/graders/{name}"] = GRADERS / name
    for folder in ("engine", "platforms"):
        for path in bundle._files(GRADERS / folder):
            members[f"{top}/{path.relative_to(KIT_ROOT)}"] = path
    data = f"{top}/{KIT_DATA}"
    members[f"{data}/assignments/{assignment}/rubric.toml"] = kit_rubric(assignment)
    template = sorted(p for p in (DATA_ROOT / "student_template" / assignment).glob("*")
                      if p.is_file())
    for path in template:
        members[f"{data}/student_template/{assignment}/{path.name}"] = path
        members[f"{top}/{path.name}"] = path
    handout = DATA_ROOT / "assignments" / assignment / "handout.md"
    members[f"{top}/handout.md"] = handout
    members[f"{data}/assignments/{assignment}/handout.md"] = handout
    deps = ", ".join(f'"{line}"' for line in bundle.requirements().splitlines()
                     if line.strip())
    fill = {"@NAME@": assignment, "@TITLE@": rubric.title, "@MAIN@": rubric.main_file,
            "@DEPS@": deps,
            "@TEMPLATE@": ", ".join(f"`{p.name}`" for p in template),
            "@PUBLIC@": "\n".join(f"- {i.title}" for i in rubric.items if i.public),
            "@HIDDEN@": "\n".join(f"- {t}" for t in
                                  also_graded(assignment, {i.id for i in rubric.items
                                                           if i.public}))}
    for name, text in (("pyproject.toml", PYPROJECT), ("selfcheck.py", SELFCHECK),
                       ("README.md", README)):
        for key, value in fill.items():
            text = text.replace(key, value)
        members[f"{top}/{name}"] = text
    bundle.write_zip(out, members)
    return out
