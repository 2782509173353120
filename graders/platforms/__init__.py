"""Where courses grade: exports for Gradescope, PrairieLearn and GitHub Classroom, their
results formats, and the students' self-check kit.

| module | job |
|---|---|
| `bundle.py` | the files of the kit a platform's grader needs (never other assignments) |
| `outputs.py` | `grade --format gradescope/prairielearn`: the platform's results file |
| `gradescope.py` | Gradescope's `results.json` and the autograder zip |
| `prairielearn.py` | PrairieLearn's external-grading results and question files |
| `classroom.py` | GitHub Classroom's workflow, per-item results and exit statuses |
| `student_kit.py` | the student kit: handout, template, public self-check only |
"""
