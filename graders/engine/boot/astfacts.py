"""Static facts about a student's file, computed by the *student's* Python (so syntax that only
newer versions parse is understood). Usage: ``python -I astfacts.py FILE`` prints JSON.
Compatible with Python 3.8+; standard library only; never runs the student's code.
"""
import ast
import io
import json
import sys
import tokenize


def _loop_targets(tree):
    """Names bound by for-loops and comprehensions (i, p, d ... are fine there)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            for inner in ast.walk(node.target):
                if isinstance(inner, ast.Name):
                    names.add(inner.id)
    return names


def facts(path):
    with open(path, encoding="utf-8", errors="replace") as handle:
        source = handle.read()
    lines = source.splitlines()
    code = [line for line in lines if line.strip() and not line.strip().startswith("#")]
    result = {"code_lines": len(code),
              "comment_lines": 0, "functions": [], "function_lines": {}, "docstrings": 0,
              "names": [], "classes": [], "strings": [], "parse_error": None}
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                result["comment_lines"] += 1
    except (tokenize.TokenError, SyntaxError):
        result["comment_lines"] = sum(1 for line in lines if line.strip().startswith("#"))
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        result["parse_error"] = "%s (line %s)" % (exc.msg, exc.lineno)
        return result
    loops = _loop_targets(tree)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            result["functions"].append(node.name)
            end = getattr(node, "end_lineno", None) or node.lineno
            result["function_lines"][node.name] = end - node.lineno + 1
            result["names"] += [a.arg for a in node.args.args if a.arg not in ("self", "cls")]
            result["docstrings"] += ast.get_docstring(node) is not None
        elif isinstance(node, ast.ClassDef):
            result["classes"].append(node.name)
            result["docstrings"] += ast.get_docstring(node) is not None
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) \
                and node.id not in loops:
            result["names"].append(node.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("print", "input"):
            for arg in node.args:
                for inner in ast.walk(arg):
                    if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                        result["strings"].append(inner.value)
    result["docstrings"] += ast.get_docstring(tree) is not None
    return result


if __name__ == "__main__":
    print(json.dumps(facts(sys.argv[1])))
