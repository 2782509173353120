# One engine, several assignments. `make grade` and `make test` do all the set-up themselves.
# The kit's own Python (its venv): the system's python3 where that is 3.11 or newer and can
# make a venv, else the python3 on PATH (or PYTHON=...). A distribution's python3 (Debian's,
# Ubuntu's) is built with profile-guided optimisation, a pyenv or source build of the same
# version by default is not: on the same machine the test suite took about 5 % less CPU, the kit's
# own processes about a fifth less. The students' programs run on the newest Python the
# machine has either way (graders/engine/run/pythons.py).
SYSTEM_PYTHON := /usr/bin/python3
ifeq ($(origin PYTHON),undefined)
PYTHON := $(shell $(SYSTEM_PYTHON) -c "import sys, ensurepip, venv; \
	sys.exit(sys.version_info < (3, 11))" >/dev/null 2>&1 && echo $(SYSTEM_PYTHON) || echo python3)
endif
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
ASSIGNMENT ?= pocoloco
SUBMISSIONS ?= demo_submissions/$(ASSIGNMENT)
REPORTS ?= reports
# A value as one shell word, whatever it holds (spaces, any letters, quotes): paths such as
# SUBMISSIONS="Classe Été 2026/Devoir 5 — PocoLoco" are passed to the kit whole.
quote = '$(subst ','"'"',$(1))'
# Python's default: compiled modules are kept in __pycache__ (ignored by git). Where the
# environment turns that off, each of the kit's processes (a grade-all starts several, the
# test suite about two hundred) would compile the kit's and pytest's sources again.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: grade test bench check clean setup browser screenshots student-kit

setup: $(STAMP)

# The pip a venv of Python 3.11+ comes with installs the kit (editable, PEP 660) and lends
# itself to other venvs (pip --python, in the tests): upgrading it first only costs time.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[test]"
	touch $(STAMP)

## Grade every submission in SUBMISSIONS (default: the bundled demo submissions).
grade: $(STAMP)
	$(call quote,$(BIN)/python) -m graders grade-all $(call quote,$(ASSIGNMENT)) \
		$(call quote,$(SUBMISSIONS)) --out $(call quote,$(REPORTS))

## The kit's own test suite, on every core and one worker more: each test module stays on one
## worker (--dist loadscope, so a module's grading fixtures run once) and the heaviest modules
## start first (tests/conftest.py). Some tests wait on purpose (real-time safety nets, a frozen
## program, a busy machine on one core): a worker per core left ~15 core-seconds idle a run,
## one more leaves about 4 for the same CPU seconds. The 20 slowest steps are listed at the end.
TEST_WORKERS ?= $(shell $(PYTHON) -c "import os; print((os.cpu_count() or 1) + 1)")
test: $(STAMP)
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadscope --no-loadscope-reorder \
		--durations=20

## Speed: one submission, a class folder, and the same sessions without the grader.
bench: $(STAMP)
	$(BIN)/python benchmarks/bench.py

## Debian's chromium, for the browser screenshot test and `make screenshots` (needs root).
browser:
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } || \
		{ echo "no chromium: install Debian's chromium package (apt-get install chromium)"; exit 1; }

## PNGs of the HTML reports of `make grade` in $(REPORTS)/$(ASSIGNMENT)/screenshots/.
screenshots: browser grade
	$(call quote,$(BIN)/python) -m graders.engine.course.html $(call quote,$(REPORTS)/$(ASSIGNMENT))

## A student's self-check: make check ASSIGNMENT=pocoloco FILE=a5.py
check: $(STAMP)
	$(call quote,$(BIN)/python) -m graders check $(call quote,$(ASSIGNMENT)) $(call quote,$(FILE))

## The students' kit: make student-kit ASSIGNMENT=pocoloco -> dist/pocoloco-student-kit.zip
student-kit: $(STAMP)
	$(call quote,$(BIN)/python) -m graders export student-kit $(call quote,$(ASSIGNMENT)) --out dist

clean:
	rm -rf $(call quote,$(VENV)) $(call quote,$(REPORTS)) build dist *.egg-info
