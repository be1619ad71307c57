# Everything runs inside .venv, which the first target that needs it creates.
# TORCH: the exact torch version to install (outputs are recorded with it).
# TORCH_INDEX: an extra package index for torch, e.g. https://download.pytorch.org/whl/cpu to get
#   the CPU build on a Linux machine without GPUs (plain PyPI serves the CUDA build there).
# TORCH=system: the torch PYTHON already has (a GPU runner's container or cluster module), for
#   make doctest and make outputs only: .venv-system is made from PYTHON and sees PYTHON's
#   packages (refsite/testing/doctest_env.py), and only what requirements-doctest.txt lists and
#   PYTHON lacks is installed, from WHEELHOUSE alone (pip install --no-index) when it is set
#   (make wheelhouse fills one on a machine that reaches the registry).
PYTHON ?= python3
TORCH ?= 2.15.0
TORCH_INDEX ?=
WHEELHOUSE ?=
VENV := $(if $(filter system,$(TORCH)),.venv-system,.venv)
ifeq ($(TORCH),system)
ifneq ($(filter-out doctest outputs gpu-capture doctest-slurm outputs-slurm venv wheelhouse clean,$(or $(MAKECMDGOALS),test)),)
$(error TORCH=system is for make doctest, make outputs and make gpu-capture (a GPU runner's own torch); the other targets need the pinned torch: leave TORCH unset)
endif
endif
# More pytest arguments for make doctest and make outputs, e.g. PYTEST_ARGS="-n 8 -k cuda".
PYTEST_ARGS ?=
PY := $(VENV)/bin/python
PYTEST := $(PY) -m pytest
SNIPPETS ?= snippets
SOAK_RUNS ?= 50
SOAK_JOBS ?= 1

.PHONY: test test-all test-fast html doctest outputs gpu-capture doctest-slurm outputs-slurm bench soak compat serve clean venv system-deps cluster-records wheelhouse
comma := ,

# System packages the tests use, from the distribution: the browser tests' Chromium and its
# driver; the virtual cluster's Slurm and munge (src/ranktest/cluster/slurm.py; the cluster starts its own
# daemons inside its namespaces, the packages' system services are neither started nor needed).
# Installed when make runs as root with apt-get, otherwise named for you to install.
SYSTEM_PACKAGES := chromium chromium-driver slurm-wlm munge
SYSTEM_COMMANDS := chromium chromedriver slurmctld slurmd sbatch munged

# --reuse-passed: a costly snippet check (a copied-alone launch, a Chinese-file run, a distributed
# snippet's harness run) that passed before with exactly the same inputs is skipped and says so
# (tooling/refsite/testing/passed_checks.py); test-all runs every one again.
# --dist load: pytest-xdist 3.8's loadgroup groups nothing under pytest 9 (it renames items
# through an attribute pytest 9 no longer reads); the costly shared fixture (the built site of
# the browser tests) is shared between workers through a lock instead.
# TEST_WORKERS: pytest-xdist workers. Three on two cores: a third worker fills some waits (a
# torchrun launch's start and exit, a Slurm time limit, a page load); measured 2026-11-29 the gain
# over two is small and a fourth gains nothing (the two cores are about 190% busy at three).
TEST_WORKERS ?= 3
test: system-deps $(VENV)/.installed
	$(PYTEST) -n $(TEST_WORKERS) --dist load --reuse-passed

test-all: system-deps $(VENV)/.installed
	$(PYTEST) -n $(TEST_WORKERS) --dist load

# The inner loop: everything but real torchrun launches, pytester sessions and the browser.
test-fast: $(VENV)/.installed
	$(PYTEST) -n $(TEST_WORKERS) --dist load --reuse-passed -m "not slow and not browser"

# Copies the browser tests' build when nothing changed since (docs/build.py, refsite.site_builds).
html: $(VENV)/.installed
	$(PY) docs/build.py _build/html

# Every snippet variant this machine can run; a table of outcomes at the end, JUnit XML for CI.
DOCTEST_JUNIT ?= _build/doctest/junit.xml
doctest: $(VENV)/.installed
	mkdir -p $(dir $(DOCTEST_JUNIT))
	$(PYTEST) $(SNIPPETS) -v -rs --junitxml=$(DOCTEST_JUNIT) $(PYTEST_ARGS)

outputs: $(VENV)/.installed
	$(PYTEST) $(SNIPPETS) --write-outputs -rs $(PYTEST_ARGS)

# On a GPU machine: every GPU variant it can run checked, recorded and checked again (three passes,
# each stopped after PASS_TIMEOUT seconds), and what happened to each written to
# docs/measurements/gpu/<gpu>.json (refsite.commands.gpu_capture); e.g. PYTEST_ARGS="-n 8".
PASS_TIMEOUT ?= 600
gpu-capture: $(VENV)/.installed
	$(PY) -m refsite.commands.gpu_capture --pass-timeout $(PASS_TIMEOUT) $(PYTEST_ARGS)

# The same, every variant as a Slurm job with the nodes and GPUs it needs (run on a login node,
# in a checkout the compute nodes see): PARTITION, JOB_PYTHON (the Python the jobs run; default
# this venv's), SLURM_ARGS (e.g. --device cuda, -k nccl, --ranks-per-node 4, --dry-run).
# refsite/commands/slurm/doctest.py; the batch scripts it writes: docs/ci/slurm/.
PARTITION ?=
SLURM_ARGS ?=
JOB_PYTHON ?= $(abspath $(PY))
SLURM_DOCTEST = $(PY) -m refsite.commands.slurm.doctest $(SNIPPETS) --python $(JOB_PYTHON) $(if $(PARTITION),--partition $(PARTITION))
doctest-slurm: $(VENV)/.installed
	$(SLURM_DOCTEST) --junitxml $(dir $(DOCTEST_JUNIT))junit-slurm.xml $(SLURM_ARGS)

outputs-slurm: $(VENV)/.installed
	$(SLURM_DOCTEST) --outputs $(SLURM_ARGS)

bench: $(VENV)/.installed
	$(PY) -m refsite.commands.bench

# The session's time limit follows the soak's size: measured on 2 cores, one harness pass over
# every distributed snippet takes about 60 s and one copied-alone pass about 450 s; twice that, plus 10 minutes.
SOAK_ALONE_RUNS ?= $(SOAK_RUNS)
SOAK_LIMIT_S = $(shell echo $$(( 600 + 120 * $(SOAK_RUNS) + 900 * $(SOAK_ALONE_RUNS) )))
soak: $(VENV)/.installed
	SOAK_RUNS=$(SOAK_RUNS) SOAK_ALONE_RUNS=$(SOAK_ALONE_RUNS) $(PYTEST) tests/testing/test_soak.py -v -o session_timeout=$(SOAK_LIMIT_S) $(if $(filter-out 1,$(SOAK_JOBS)),-n $(SOAK_JOBS))

# Every CPU variant on each older torch release (docs/measurements/compat/releases.txt, or
# RELEASES=2.4.1,2.5.1), each in its own environment outside the repository, removed after use
# (COMPAT_KEEP=1 keeps them): one measurement file per release in docs/measurements/compat/.
# Only variants without a current result run (changed code or record); COMPAT_ALL=1 runs all;
# COMPAT_AGAIN='distributed/elastic_restart.py*,...' runs those too (after a change of how results are judged);
# COMPAT_REPEAT='...' (same patterns) runs them 12 times alone and stores "k of N" (a result that changes kind
# from one run to the next is repeated so without asking).
compat: $(VENV)/.installed
	$(PY) -m refsite.commands.compat.cli $(if $(RELEASES),--releases $(RELEASES)) $(if $(COMPAT_KEEP),--keep) $(if $(COMPAT_ALL),--all) $(if $(COMPAT_JOBS),--jobs $(COMPAT_JOBS)) $(if $(COMPAT_AGAIN),--again '$(COMPAT_AGAIN)') $(if $(COMPAT_REPEAT),--repeat '$(COMPAT_REPEAT)')

# The multi-node records of docs/measurements/cluster/: scenarios run on a virtual cluster of
# network-namespace hosts and a real Slurm (as root); SCENARIOS=static,c10d picks some, REPEAT=3
# runs each 3 times (the record says how many printed the same). Not run by make test.
SCENARIOS ?=
REPEAT ?= 1
cluster-records: system-deps $(VENV)/.installed
	$(PY) -m refsite.commands.cluster.cli $(subst $(comma), ,$(SCENARIOS)) --repeat $(REPEAT)

serve: html
	$(PY) -m http.server --directory _build/html --bind 127.0.0.1 8000

venv: $(VENV)/.installed

system-deps:
	@missing=""; for c in $(SYSTEM_COMMANDS); do command -v $$c >/dev/null || missing="$$missing $$c"; done; \
	if [ -z "$$missing" ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "installing$$missing for the browser and cluster tests: apt-get install $(SYSTEM_PACKAGES)"; \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(SYSTEM_PACKAGES); \
	else \
		echo "note:$$missing not found; the browser and Slurm tests need them. Install them as root (apt-get install $(SYSTEM_PACKAGES)), or run make as root. Without them those tests skip; with CI set they fail."; \
	fi

# Wheels for make doctest TORCH=system on a machine without a registry, fetched here; for
# another Python or platform add e.g. PIP_DOWNLOAD_ARGS="--python-version 3.12 --only-binary=:all:".
wheelhouse:
	$(PYTHON) -m pip download --quiet --dest $(or $(WHEELHOUSE),wheelhouse) -r requirements-doctest.txt $(PIP_DOWNLOAD_ARGS)

ifeq ($(TORCH),system)
$(VENV)/.installed: requirements-doctest.txt Makefile pyproject.toml tooling/pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) tooling/refsite/testing/doctest_env.py requirements-doctest.txt --runner-python $(PYTHON) $(if $(WHEELHOUSE),--wheelhouse $(WHEELHOUSE))
	# The project's own packages, editable, without their dependencies (no Sphinx here).
	$(PY) -m pip install --quiet --no-deps --no-build-isolation $(if $(WHEELHOUSE),--no-index) -e . -e tooling
	touch $@
else
$(VENV)/.installed: requirements.txt requirements-doctest.txt Makefile pyproject.toml tooling/pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet torch==$(TORCH) $(if $(TORCH_INDEX),--extra-index-url $(TORCH_INDEX))
	$(PY) -m pip install --quiet -r requirements.txt
	# The project's own packages, editable: ranktest (src/) and the site's tooling, refsite (tooling/).
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e . -e tooling
	$(PY) -m refsite.commands.check_install $(TORCH)
	touch $@
endif

clean:
	rm -rf _build .pytest_cache docs/*/apidocs

