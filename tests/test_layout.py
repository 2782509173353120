"""The kit's layout (graders/__init__.py, graders/engine/__init__.py): no modules of graders/
import each other in a circle, no package imports one above it, every package says what it
owns (and an engine package what it may use, truly), ``__init__`` files import nothing, and
light modules stay light. Imports inside functions count as much as those at the top."""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

KIT_ROOT = Path(__file__).resolve().parents[1]
GRADERS = KIT_ROOT / "graders"
ENGINE = ("run", "judge", "drive", "call", "grading", "course")     # lowest first
ASSIGNMENTS = ("pocoloco", "hilo", "poker_dice", "three_card_poker", "yahtzee", "pig")
# (layer, its packages or modules, whether they are siblings that must not import each
# other), lowest first: a module imports its own layer and the layers before it only
LAYERS = [(name, (f"graders.engine.{name}",), False) for name in ENGINE] + [
    ("assignment graders", tuple(f"graders.{name}" for name in ASSIGNMENTS), True),
    ("platforms", ("graders.platforms",), False),
    ("commands", ("graders.cli", "graders.student_check", "graders.__main__"), False),
]
ROOTS = {"graders", "graders.engine"}       # documentation only: no layer, no imports
# what the heaviest modules would pull in; a module that only describes must not
HEAVY = ("pycodestyle", "pexpect", "ptyprocess", "jinja2", "pytest", "rich")
LIGHT = ("graders.engine.judge.requirements", "graders.engine.judge.rubric",
         "graders.engine.drive.answers", "graders.engine.drive.readers.prompts")


# ----------------------------------------------------------------------------- the graph
def modules(root: Path = GRADERS) -> dict[str, tuple[Path, bool]]:
    """Module name -> (file, whether it is a package's __init__) for every module of graders/."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if package else parts)] = (path, package)
    return found


def imports(name: str, path: Path, package: bool, known: set[str]) -> set[str]:
    """The modules (or packages) of graders/ that a module imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if package else name.split(".")[:-1]
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module
            # ``from package import module`` imports the module; ``from module import name``
            # the module
            found |= {f"{module}.{alias.name}" if f"{module}.{alias.name}" in known
                      else module for alias in node.names}
    return {target for target in found if target.split(".")[0] == "graders"}


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports(name, path, package, set(found)) - {name}
            for name, (path, package) in found.items()}


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import circle (its modules in order, the first again at the end), or None."""
    state: dict[str, int] = {}          # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(edges.get(node, ())):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state and (found := visit(target)):
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state and (found := visit(start)):
            return found
    return None


def layer_of(name: str) -> tuple[int, str] | None:
    """(rank of the module's layer, the package or module of that layer it belongs to)."""
    for rank, (_, members, _) in enumerate(LAYERS):
        for member in members:
            if name == member or name.startswith(member + "."):
                return rank, member
    return None


def upward(edges: dict[str, set[str]]) -> list[str]:
    """The imports that go up a layer, or across to a sibling assignment grader."""
    wrong = []
    for source, targets in sorted(edges.items()):
        here = layer_of(source)
        for target in sorted(targets):
            there = layer_of(target)
            if here is None or there is None:
                continue                    # the roots: checked to import nothing
            if there[0] > here[0]:
                wrong.append(f"{source} ({LAYERS[here[0]][0]}) imports {target} "
                             f"({LAYERS[there[0]][0]}, above it)")
            elif there[0] == here[0] and LAYERS[here[0]][2] and there[1] != here[1]:
                wrong.append(f"{source} imports {target}: another assignment's grader")
    return wrong


# ----------------------------------------------------------------------------- the tests
def test_the_checks_find_a_circle_and_an_upward_import():
    """The two checks below on a made-up graph (so that they can fail)."""
    edges = {"graders.engine.run.a": {"graders.engine.run.b"},
             "graders.engine.run.b": {"graders.engine.drive.c"},
             "graders.engine.drive.c": {"graders.engine.run.a"},
             "graders.pig.checks": {"graders.hilo.console", "graders.engine.run.a"}}
    assert cycle(edges) == ["graders.engine.drive.c", "graders.engine.run.a",
                            "graders.engine.run.b", "graders.engine.drive.c"]
    assert upward(edges) == [
        "graders.engine.run.b (run) imports graders.engine.drive.c (drive, above it)",
        "graders.pig.checks imports graders.hilo.console: another assignment's grader"]


def test_no_import_circle():
    found = cycle(graph())
    assert found is None, "modules import each other in a circle: " + " -> ".join(found)


def test_no_package_imports_one_above_it():
    assert upward(graph()) == []


def test_every_module_has_a_layer():
    """A new package of graders/ is placed in the order above (and in the docstrings)."""
    assert [name for name in modules() if name not in ROOTS and layer_of(name) is None] == []
    assert {p.name for p in GRADERS.iterdir() if (p / "__init__.py").is_file()} == \
        {"engine", "platforms", *ASSIGNMENTS}
    assert {p.name for p in (GRADERS / "engine").iterdir()
            if (p / "__init__.py").is_file()} == set(ENGINE)


def test_every_package_is_documented_and_its_init_imports_nothing():
    for name, (path, package) in modules().items():
        if not package:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert ast.get_docstring(tree), f"{path.relative_to(KIT_ROOT)} has no docstring"
        assert not [node for node in ast.walk(tree)
                    if isinstance(node, (ast.Import, ast.ImportFrom))], \
            f"{path.relative_to(KIT_ROOT)} imports: an __init__ file only describes"


def test_each_engine_package_uses_what_its_docstring_says():
    """``May use:`` in an engine package's docstring names the packages it imports, all of
    them below it."""
    edges = graph()
    for rank, package in enumerate(ENGINE):
        text = ast.get_docstring(ast.parse(
            (GRADERS / "engine" / package / "__init__.py").read_text(encoding="utf-8")))
        said = re.search(r"May use: (.*)", text, re.S)
        assert said, f"engine/{package}/__init__.py does not say what it may use"
        allowed = set(re.findall(r"``(\w+)``", said.group(1)))
        assert allowed <= set(ENGINE[:rank]), (package, allowed)
        used = {target.split(".")[2] for source, targets in edges.items()
                if source.startswith(f"graders.engine.{package}.") for target in targets
                if target.startswith("graders.engine.") and len(target.split(".")) > 2}
        assert used - {package} <= allowed, (package, used - {package} - allowed)


def test_light_modules_stay_light():
    """The small modules a grader builds its checks from load no style checker, no
    pseudo-terminal, no templates, no pytest (each in a fresh interpreter)."""
    for module in LIGHT:
        done = subprocess.run(
            [sys.executable, "-c", f"import sys, {module}; "
             f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r}))"],
            capture_output=True, text=True, check=True, cwd=KIT_ROOT)
        assert done.stdout.strip() == "[]", (module, done.stdout)
