# marginboost: the two set-up commands are `make book` and `make test`.
# Both create the virtual environment .venv on first use (Python 3.11 and the package index are
# all they need) and reinstall it when pyproject.toml changes.

PYTHON  ?= python3
VENV    ?= .venv
PROFILE ?= full
BIN      = $(VENV)/bin
STAMP    = $(VENV)/.installed
export NUMBA_CACHE_DIR ?= $(CURDIR)/_build/numba-cache

.PHONY: help venv book book-strict test test-unit test-notebooks notebooks data-verify clean mutation

help:
	@echo "make book         build the book (executes notebooks, profile=$(PROFILE)); prints index.html"
	@echo "make test         unit tests + pytest --nbval over the notebooks"
	@echo "make notebooks    re-execute notebooks/*.md into their committed paired .ipynb"
	@echo "make data-verify  check the sha256 of every registered data file"
	@echo "make mutation     mutation testing of the core modules (long; resumable; not part of make test)"
	@echo "make clean        remove _build/ (keeps .venv)"

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[book,test,distributed]"
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 --display-name "Python 3" >/dev/null
	@touch $(STAMP)

venv: $(STAMP)

book: $(STAMP)
	$(BIN)/marginboost book --profile $(PROFILE)

book-strict: $(STAMP)
	$(BIN)/marginboost book --profile $(PROFILE) --strict

# pytest exits with 5 when it collected no test; that is reported and fails like any error.
test: $(STAMP)
	@$(BIN)/python -m pytest --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg $(PYTEST_ARGS); \
	status=$$?; [ $$status -ne 5 ] || echo "make test: pytest collected no tests" >&2; exit $$status

test-unit: $(STAMP)
	$(BIN)/python -m pytest tests $(PYTEST_ARGS)

test-notebooks: $(STAMP)
	$(BIN)/python -m pytest --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg notebooks $(PYTEST_ARGS)

notebooks: $(STAMP)
	$(BIN)/marginboost notebooks refresh

data-verify: $(STAMP)
	$(BIN)/marginboost data verify

# Mutation testing (cosmic-ray) of the core modules with their fast tests; resumable, and
# MUTATION_ARGS passes options, e.g. MUTATION_ARGS="--modules boosting/_steps.py --budget-minutes 60".
# The summary is written to benchmarks/mutation/SUMMARY.md.
mutation: $(STAMP)
	$(BIN)/python benchmarks/mutation/run.py $(MUTATION_ARGS)

clean:
	rm -rf _build
