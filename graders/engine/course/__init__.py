"""The class over a grading week: the report folder kept true to the submissions and the TA's
decisions (``classbook``), the HTML pages (``html``, with ``templates/``), similar
submissions (``similarity``), and feedback shown in a terminal (``terminal``).

May use: ``run``, ``judge``, ``drive``, ``call``, ``grading``.
"""
