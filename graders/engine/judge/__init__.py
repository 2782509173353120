"""Judging: what a check concludes. The rubric (items, a check's result, scores: ``rubric``),
requirements and their share of an item (``requirements``), the one wording of import
problems and crashed starts (``diagnose``), and readability measured from the files, with the
style checker (``readability``).

May use: ``run`` (the source's facts).
"""
