# leanmirror — the two commands of the README:
#   make report   set up (a virtual environment, when there is none) and run the main job
#   make test     set up (with the test extras) and run the test suite
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
BASE_STAMP := $(VENV)/.leanmirror-base
TEST_STAMP := $(VENV)/.leanmirror-test
REPORT_DIR ?= report
# extra arguments of `leanmirror report`
REPORT_ARGS ?=

.PHONY: report test test-slow bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(BASE_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

# torch is pinned (a CPU wheel); flash-linear-attention is installed without its
# dependencies (never triton): the tests load its naive reference by path.
$(TEST_STAMP): pyproject.toml $(BASE_STAMP)
	$(BIN)/pip install --quiet "torch==2.13.0"
	$(BIN)/pip install --quiet -e ".[test]"
	$(BIN)/pip install --quiet --no-deps "fla-core==0.6.0" "flash-linear-attention==0.6.0"
	touch $@

report: $(BASE_STAMP)
	$(BIN)/leanmirror report --out $(REPORT_DIR) $(REPORT_ARGS)

# The rendered-report tests need headless Chromium: installed here when missing and we are
# root with apt-get; otherwise `make test` stops with what to install (tests never skip).
test: $(TEST_STAMP)
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else \
	    echo "make test: chromium is missing and cannot be installed here (needs root and apt-get); install the package chromium and rerun" >&2; \
	    exit 1; \
	  fi; }
	$(BIN)/python -m pytest -n auto

test-slow: $(TEST_STAMP)
	$(BIN)/python -m pytest -m slow

# Benchmarks print side-by-side ratios; bench_scaling.py also writes docs/bench/scaling.png.
# OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE are unset for the benchmarks only (a machine may set
# them to a slower kernel); every table names the BLAS kernel in use (threadpoolctl).
bench: $(TEST_STAMP)
	for f in bench/bench_*.py; do echo "== $$f"; \
	  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE PYTHONPATH=. $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) $(REPORT_DIR) .leanmirror .pytest_cache
