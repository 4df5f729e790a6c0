# The two commands a newcomer runs: `make demo` (the horde, examples/horde_strike.py) and `make test`.
# Each sets itself up on first use (a virtual environment in .venv, the package installed
# editable with its extras) and is quick on later runs.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo showcase actions test bench lint setup clean-cache

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install -q --upgrade pip
	@$(PY) -m pip install -q -e ".[render,dev]"
	@touch $(STAMP)

setup: $(STAMP)

demo: $(STAMP)
	@$(PY) examples/horde_strike.py

showcase: $(STAMP)
	@$(PY) examples/motion_showcase.py

actions: $(STAMP)
	@$(PY) examples/actions.py

test: $(STAMP)
	@$(PY) -m pytest tests

bench: $(STAMP)
	@for b in physics ragdolls motion_cost render handover; do $(PY) bench/$$b.py --json bench/$$b.json || exit 1; done

lint: $(STAMP)
	@$(VENV)/bin/ruff check ae3d tests bench examples

# numba's cache does not notice edits to helpers in other files: wipe it after such an edit.
clean-cache:
	@find . -path ./$(VENV) -prune -o -name '*.nbi' -print -o -name '*.nbc' -print | xargs rm -f
