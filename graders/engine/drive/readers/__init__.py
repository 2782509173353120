"""Readers of a transcript: dice drawn or shown as digits, boxes, standings, score tables, who
won, and the kind of a question by its wording (the one pause). Text in, values out.

May use: nothing outside ``readers``.
"""
