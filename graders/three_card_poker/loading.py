"""What the student's file did when it was loaded for the function calls (the engine's
``calls.LoadReport``), said once: under ``main``, the only item it costs (handout section 11:
nothing may run when the file is imported, the game belongs in main() under the ``__name__``
guard). Modules replaced by stand-ins are said in a note at the top of the feedback.
"""

from graders.engine.calls import LoadReport

AT_IMPORT_SHARE = 0.5       # main when the file plays or fails when it is imported


def main_message(loading: LoadReport, has_main: bool) -> str:
    """Why main loses part of its points, with what the file did at import."""
    if loading.asked:
        lead = (f"When your file is imported, it already asks for input: {loading.asked} "
                f"question{'s' if loading.asked != 1 else ''} before any function was called.")
        steps = ["answered those questions to end the game (fold, no, quit, then the end "
                 "of input)"]
        fix = ("Put the game loop inside main() and call main() only under  "
               "if __name__ == \"__main__\":  so importing the file runs nothing. With the "
               "game at import")
    else:
        lead, steps = "When your file is imported, it does more than define functions.", []
        fix = ("Fix or remove the top-level statements that fail, so that importing the "
               "file runs without errors. With an error at import")
    lines = [lead + " The grader imports your file to call your functions one at a time "
             "(handout section 7), so nothing may run at import (section 11):"]
    lines += [f"- {sentence}" for sentence in loading.what_happened()]
    if loading.stuck or any(problem.get("error") for problem in loading.problems):
        steps.append("skipped what failed")
    lines.append(f"The grader {', '.join(steps)} and still graded every function it could "
                 "reach; only this item is marked down for it.")
    if not has_main and loading.asked:
        fix = ("Your file has no function main(): the game runs at the top level of the "
               "file instead, and that game was played in a terminal to judge this item. "
               + fix)
    lines += ["", f"{fix} this item earns at most {AT_IMPORT_SHARE:g} of its points."]
    return "\n".join(lines)
