"""Static facts about a student's file, computed by the *student's* Python (so syntax that only
newer versions parse is understood). Usage: ``python -I astfacts.py FILE`` prints JSON.
``python -I astfacts.py --serve`` parses one file per line of input, for a grader that has
many files to parse. Compatible with Python 3.8+; standard library only; never runs the
student's code.
"""
import ast
import hashlib
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


def _read(path):
    """The source as Python reads it (a BOM or a coding line honoured), and why Python would
    refuse to run it (a byte that is not UTF-8 without a coding line), or None."""
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        try:
            encoding = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
        except SyntaxError as exc:
            if b"coding" in b"\n".join(data.split(b"\n")[:2]):
                return data.decode("utf-8", "replace"), str(exc)
            encoding = "utf-8"
        return data.decode(encoding), None
    except (UnicodeDecodeError, LookupError) as exc:
        start = getattr(exc, "start", 0)
        line = data.count(b"\n", 0, start) + 1
        return (data.decode("utf-8", "replace").lstrip("\ufeff"),
                "Non-UTF-8 code starting with '\\x%02x' on line %d, but no encoding declared"
                % (data[start], line))


_TRIVIAL = (ast.Pass, ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal)


def _trivial(node):
    """A statement that does nothing by itself: pass, a docstring, an import, a constant, a
    bare call such as main(), a return of nothing, raise NotImplementedError."""
    if isinstance(node, _TRIVIAL):
        return True
    if isinstance(node, ast.Expr):
        value = node.value
        return isinstance(value, ast.Constant) or (
            isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
            and not value.args and not value.keywords)
    if isinstance(node, ast.Return):
        return node.value is None or (isinstance(node.value, ast.Constant)
                                      and node.value.value is None)
    if isinstance(node, ast.Raise):
        exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        return isinstance(exc, ast.Name) and exc.id == "NotImplementedError"
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        if node.value is None:
            return True
        try:
            ast.literal_eval(node.value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return False
        return True
    return False


def _main_guard(node):
    test = node.test if isinstance(node, ast.If) else None
    return isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) \
        and test.left.id == "__name__"


def _fingerprint(node):
    """The function's code without its docstring (comments and layout do not count)."""
    body = node.body[1:] if ast.get_docstring(node) is not None else node.body
    text = ast.dump(node.args) + "".join(ast.dump(statement) for statement in body)
    return hashlib.sha1(text.encode("utf-8", "replace")).hexdigest()[:16]


def _work(body, functions, prefix=""):
    """Statements that do something, outside functions; each function's own count and
    fingerprint go to ``functions`` (so code copied from a template can be told apart)."""
    count = 0
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            name = prefix + node.name
            functions[name] = [_fingerprint(node), _work(node.body, functions, name + ".")]
        elif isinstance(node, ast.ClassDef):
            count += _work(node.body, functions, prefix + node.name + ".")
        elif _main_guard(node):
            count += _work(node.body, functions, prefix) + _work(node.orelse, functions, prefix)
        elif not _trivial(node):
            count += 1
    return count


def facts(path):
    source, refused = _read(path)
    lines = source.splitlines()
    code = [line for line in lines if line.strip() and not line.strip().startswith("#")]
    result = {"code_lines": len(code),
              "comment_lines": 0, "functions": [], "function_lines": {}, "docstrings": 0,
              "names": [], "classes": [], "strings": [], "parse_error": refused,
              "work": {"top": 0, "functions": {}}}
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                result["comment_lines"] += 1
    except (tokenize.TokenError, SyntaxError):
        result["comment_lines"] = sum(1 for line in lines if line.strip().startswith("#"))
    if refused:
        return result
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        result["parse_error"] = "%s (line %s)" % (exc.msg, exc.lineno)
        return result
    except (ValueError, MemoryError, RecursionError) as exc:
        result["parse_error"] = "%s: %s" % (type(exc).__name__, exc)
        return result
    result["work"]["top"] = _work(tree.body, result["work"]["functions"])
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


if __name__ == "__main__" and sys.argv[1:] == ["--serve"]:
    # one file per line on stdin (its path as a JSON string), one line of JSON facts out; an
    # empty line when parsing failed (as a crashed run prints nothing). Run at module level so
    # that a file is parsed at the same depth of the stack as by a run of its own.
    for request in sys.stdin:
        try:
            answer = json.dumps(facts(json.loads(request)))
        except Exception:
            answer = ""
        sys.stdout.write(answer + "\n")
        sys.stdout.flush()
elif __name__ == "__main__":
    print(json.dumps(facts(sys.argv[1])))
