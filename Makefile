# Entry points. Each target installs uv when it is missing (into .tools/,
# beside the checkout) and syncs every workspace package from uv.lock.
#
#   make demo                 the main job: a Tool round trip through the port
#   make test                 everything CI runs: lint, types, contracts,
#                             deps-check, dist-check, then pytest (on every core)
#   make checkpoint FILE=...  exactly one focused test file, in one process
#   make run ARGS='...'       any command in the synced .venv: make run ARGS='course demo'
#   make wheels               every package's wheel into dist/
#   make lint                 ruff (lint + format check), mypy, lint-imports
#   make deps-check           each member imports only what it declares (deptry)
#   make dist-check           wheels build; each adapter installs and runs alone
#   make fuzz                 property tests only, 5,000 random examples each
#                             (make test runs them at 100 fixed examples each)
#   make bench                side-by-side performance tables (the benchmarks member's peers group)
#   make bench-smoke          the benchmark harness on a tiny budget
#   make node-deps            the Node example's SDK, from its lock (make pytest runs it)
#   make api-reference        regenerate each package README's API reference
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

UV_VERSION := 0.13.9
UV := $(or $(shell command -v uv 2>/dev/null),$(CURDIR)/.tools/bin/uv)
export UV_PYTHON_DOWNLOADS := never
export PYTHONASYNCIODEBUG := 1
# Bytecode goes to one git-ignored folder, never into the source tree, and is
# kept: without it every interpreter (two pytest workers, a hundred child
# processes) compiled every module it imported, the SDKs and hypothesis
# included, and pytest rewrote every test module again (half of collection).
unexport PYTHONDONTWRITEBYTECODE
export PYTHONPYCACHEPREFIX := $(CURDIR)/.pycache

RUN := $(UV) run --frozen --no-sync
# One line per check: its label and "ok", or its whole output when it fails.
STEP := scripts/step.sh

.PHONY: help sync sync-bench demo run wheels test checkpoint lint pytest bench bench-smoke deps-check dist-check api-reference node-deps

help:
	@sed -n '/^#/!q;p' Makefile | sed 's/^# \{0,1\}//'

$(CURDIR)/.tools/bin/uv:
	python3 -m pip install --quiet --disable-pip-version-check --target $(CURDIR)/.tools 'uv==$(UV_VERSION)'

sync: $(UV)
	@$(UV) sync --all-packages --locked --quiet

sync-bench: $(UV)
	@$(UV) sync --all-packages --locked --quiet --group peers

demo: sync
	$(RUN) course demo

run: sync
	@if [ -z "$(ARGS)" ]; then echo "usage: make run ARGS='course demo'" >&2; exit 2; fi
	$(RUN) $(ARGS)

wheels: sync
	$(UV) build --all-packages --wheel --out-dir dist

lint: sync
	@$(STEP) "ruff: lint rules" $(RUN) ruff check .
	@$(STEP) "ruff: formatting" $(RUN) ruff format --check .
	@$(STEP) "mypy: strict types, returns plugin" $(RUN) mypy
	@$(STEP) "lint-imports: layers, no network, wire vocabularies" $(RUN) lint-imports

# -n auto: one pytest-xdist worker per CPU (two on the project's 2-vCPU
# machines). Tests are independent (tmp_path, port 0, the environment of
# tests/children.py for every child process); --dist loadfile keeps each
# file on one worker, so a module-scoped fixture (the benchmark smoke run,
# a minute of CPU) runs once, not once per worker. (loadgroup would group
# finer, but pytest 9.2 silently ignores its xdist_group marks.)
pytest: sync node-deps
	@echo "pytest: every test, one worker per CPU (warnings are errors, asyncio debug on)"
	@UV=$(UV) $(RUN) pytest -q -n auto --dist loadfile

test: lint deps-check dist-check pytest

# The official Node SDK of examples/record_with_node, installed from its lock
# whenever the lock is newer than the install (npm writes the hidden lockfile
# last, so an install cut short is tried again). Without npm, or offline, it
# says so and goes on: the example's test then skips, naming what is missing.
# A registry that does not answer gives up within minutes (fetch timeout, one retry).
NODE_EXAMPLE := examples/record_with_node
NODE_INSTALLED := $(NODE_EXAMPLE)/node_modules/.package-lock.json

node-deps: $(NODE_INSTALLED)

$(NODE_INSTALLED): $(NODE_EXAMPLE)/package-lock.json
	@if ! command -v npm >/dev/null 2>&1; then \
	  echo "node-deps: no npm on PATH: the Node example's test will skip"; \
	elif npm ci --prefix $(NODE_EXAMPLE) --no-audit --no-fund --loglevel=error \
	    --fetch-timeout=60000 --fetch-retries=1 >/dev/null; then \
	  echo "node-deps: the Node example's SDK installed from its lock"; \
	else \
	  echo "node-deps: npm ci failed (offline?): the Node example's test will skip"; \
	fi

# Each member imports only what its own pyproject declares (deptry per member).
deps-check: sync
	@$(STEP) "deptry: each member imports only what it declares" env UV=$(UV) scripts/deps_check.sh

# Wheels and sdists build; each adapter installs and runs alone in a fresh venv.
dist-check: sync
	@$(STEP) "wheels: each adapter installs and runs alone" env UV=$(UV) scripts/dist_check.sh

checkpoint: sync
	@if [ -z "$(FILE)" ]; then echo "usage: make checkpoint FILE=tests/checkpoints/test_...py" >&2; exit 2; fi
	@if [ ! -f "$(FILE)" ]; then echo "make checkpoint: no such test file: $(FILE)" >&2; exit 2; fi
	$(RUN) pytest -q "$(FILE)"

# The "fuzz" Hypothesis profile (tests/conftest.py): 5,000 random examples per
# property instead of the 100 derandomized ones of make test; a failure
# prints a @reproduce_failure blob and is saved in .hypothesis/ for the rerun.
.PHONY: fuzz
fuzz: sync
	HYPOTHESIS_PROFILE=fuzz $(RUN) pytest -q tests/properties

bench: sync-bench
	env -u PYTHONASYNCIODEBUG $(RUN) python -m benchmarks.run

bench-smoke: sync
	env -u PYTHONASYNCIODEBUG $(RUN) python -m benchmarks.run --smoke --out benchmarks/results/smoke

api-reference: sync
	$(RUN) python scripts/api_reference.py --write
