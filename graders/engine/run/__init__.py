"""Running student code: the student's Python (``pythons``), the bubblewrap sandbox
(``sandbox``), the fork server (``forkserver``), one program under a pseudo-terminal with its
limits (``harness``), the processes of runs and the compiled boot file (``processes``), a run
folder's files (``files``), runs that end before reading anything (``starts``), answers to
random draws (``draws``), the source's facts as the student's Python reads them (``static``),
and ``boot/``, the files that run inside the student's process (standard library only).

May use: no other package of the kit.
"""
