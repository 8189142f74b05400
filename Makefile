# marginboost: the two set-up commands are `make book` and `make test`.
# Both create the virtual environment .venv on first use (Python 3.11 and the package index are
# all they need) and reinstall it when pyproject.toml changes.

PYTHON  ?= python3
VENV    ?= .venv
PROFILE ?= full
BIN      = $(VENV)/bin
STAMP    = $(VENV)/.installed
export NUMBA_CACHE_DIR ?= $(CURDIR)/_build/numba-cache

.PHONY: help venv book book-strict test-book test test-unit test-notebooks test-one-thread test-nojit \
        notebooks results-update data-verify clean mutation lab lint typecheck

help:
	@echo "make book         build the book (executes notebooks, profile=$(PROFILE)); prints index.html"
	@echo "make test         unit tests + pytest --nbval over the notebooks"
	@echo "make test-book    the browser test on the book make book built last (Chromium)"
	@echo "make notebooks    re-execute notebooks/*.md into their committed paired .ipynb and"
	@echo "                  record their quick-profile key numbers in data/results"
	@echo "make results-update  copy the results of runs (_build/results) into data/results"
	@echo "make test-one-thread  pytest --nbval again with one thread everywhere"
	@echo "make data-verify  check the sha256 of every registered data file"
	@echo "make lint         ruff (lint and format check) over src, tests and benchmarks, then mypy over src (as CI)"
	@echo "make typecheck    mypy over src/marginboost (settings in pyproject.toml)"
	@echo "make lab          open the notebooks in JupyterLab (each .ipynb paired with its .md)"
	@echo "make mutation     mutation testing of the core modules (long; resumable; not part of make test)"
	@echo "make clean        remove _build/ (keeps .venv)"

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[book,test,distributed]"
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 --display-name "Python 3" >/dev/null
	$(BIN)/marginboost compile
	@touch $(STAMP)

venv: $(STAMP)

book: $(STAMP)
	$(BIN)/marginboost book --profile $(PROFILE)

book-strict: $(STAMP)
	$(BIN)/marginboost book --profile $(PROFILE) --strict

# The browser test (headless Chromium at 1280 px) on the book `make book` built last, instead of
# the book built from the committed quick-profile notebooks that `make test` checks.
test-book: $(STAMP)
	MARGINBOOST_BOOK_HTML=$(CURDIR)/_build/book/_build/html \
	$(BIN)/python -m pytest tests/test_book_browser.py $(PYTEST_ARGS)

# pytest exits with 5 when it collected no test; that is reported and fails like any error.
# The tests run in parallel (pytest-xdist), one worker per core; --dist loadfile keeps every
# file on one worker, so a notebook's cells run in order in one kernel; the files go out in
# the order tests/conftest.py sorts them (slowest first).  TEST_WORKERS=0 runs them in this
# process.
TEST_WORKERS ?= auto
test: $(STAMP)
	@$(BIN)/python -m pytest --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS); \
	status=$$?; [ $$status -ne 5 ] || echo "make test: pytest collected no tests" >&2; exit $$status

test-unit: $(STAMP)
	$(BIN)/python -m pytest tests $(PYTEST_ARGS)

test-notebooks: $(STAMP)
	$(BIN)/python -m pytest --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg notebooks $(PYTEST_ARGS)

# The same notebook outputs with one thread (numba, BLAS, OpenMP) as with the default number,
# and with numpy's AVX-512 code paths off (another CPU's last digits): every compared output
# must depend on neither.
NPY_NO_AVX512 = X86_V4 AVX512_ICL AVX512_SPR AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL
test-one-thread: $(STAMP)
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 NUMBA_NUM_THREADS=1 \
	NPY_DISABLE_CPU_FEATURES="$(NPY_NO_AVX512)" \
	$(BIN)/python -m pytest --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg notebooks $(PYTEST_ARGS)

# The numba kernels' tests run as plain Python (no compilation): the kernels' results must not
# depend on compiled code paths, and coverage tools see their lines.
NOJIT_TESTS ?= tests/test_weak_trees.py tests/test_fast_histograms.py tests/test_weak_binning.py \
               tests/test_binning_cuts.py \
               tests/test_weak_pool.py tests/test_weak_direct.py tests/test_direct_line_search.py \
               tests/test_dmcboost_search.py \
               tests/test_dmcboost_edges.py::test_pair_kernel_scores_every_split_as_the_segment_tree_kernel \
               tests/test_directboost_reference.py::test_exp_loss_step_matches_the_reference \
               tests/test_directboost_reference.py::test_direct_trees_against_greedy_and_exhaustive_search
test-nojit: $(STAMP)
	NUMBA_DISABLE_JIT=1 $(BIN)/python -m pytest $(NOJIT_TESTS) $(PYTEST_ARGS)

# Runs write under _build/results; committed results change only here (it says what changed).
notebooks: $(STAMP)
	$(BIN)/marginboost notebooks refresh
	$(BIN)/marginboost results update --profile quick

results-update: $(STAMP)
	$(BIN)/marginboost results update

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/python -m mypy

# Static types: strict for the estimators and weak learners, the default checks elsewhere
# (the files and the settings are in pyproject.toml's [tool.mypy]).
typecheck: $(STAMP)
	$(BIN)/python -m mypy

data-verify: $(STAMP)
	$(BIN)/marginboost data verify

# Mutation testing (cosmic-ray) of the core modules with their fast tests: a seeded sample of
# 15 mutants per module, tested in parallel; resumable.  MUTATION_ARGS replaces the options, e.g.
# MUTATION_ARGS="--modules boosting/_steps.py --sample 40 --jobs 4 --budget-minutes 60".
# The summary is written to benchmarks/mutation/SUMMARY.md.
MUTATION_ARGS ?= --sample 15 --jobs $(shell nproc 2>/dev/null || echo 2)
mutation: $(STAMP)
	$(BIN)/python benchmarks/mutation/run.py $(MUTATION_ARGS)

# JupyterLab on the notebooks; jupytext saves every notebook to its paired MyST source too.
lab: $(STAMP)
	$(BIN)/jupyter lab notebooks

clean:
	rm -rf _build
