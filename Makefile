# Bellum Civile — the two commands a newcomer needs:
#   make play   installs everything and opens the game
#   make test   installs everything and runs every check (what CI runs)
#   make bundle a one-folder desktop build (PyInstaller) in dist/bellum/
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
APT_PACKAGES := libegl1 libegl-mesa0 libgl1 libgl1-mesa-dri libgles2 libglu1-mesa xvfb xauth \
                libfontconfig1 libfreetype6 fonts-dejavu-core

.PHONY: play test setup system lint typecheck unit release bundle cases bench shot screens clean

play: setup
	$(VENV)/bin/bellum

test: setup
	$(MAKE) -k --no-print-directory lint typecheck unit release

setup: system $(STAMP)

# Debian packages for headless OpenGL (Mesa EGL, llvmpipe) and xvfb; only as root on Debian.
system:
	@if [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
	  missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	  if [ -n "$$missing" ]; then \
	    echo "installing Debian packages:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	  fi; \
	else echo "not root on Debian: make sure Mesa EGL ($(APT_PACKAGES)) is installed"; fi

$(STAMP): pyproject.toml
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	@touch $(STAMP)

lint:
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

typecheck:
	$(VENV)/bin/mypy

unit:
	ARCADE_HEADLESS=1 $(VENV)/bin/pytest -q -p no:cacheprovider -n 2

# build sdist + wheel, check them, install the wheel in a fresh venv outside the checkout and play
release:
	tests/release/release-check.sh $(PY)

# the desktop build (docs/INSTALL.md): dist/bellum/bellum, the game with its data; not part of `make test`
bundle: setup
	$(PY) -m pip install -q 'pyinstaller>=6.10'
	$(VENV)/bin/pyinstaller --noconfirm --clean --log-level WARN --distpath dist --workpath build/pyinstaller bellum.spec

cases: setup
	$(VENV)/bin/bellum case ../shared/cases tests/cases

bench: setup
	$(VENV)/bin/bellum bench

shot: setup
	$(VENV)/bin/bellum shot menu --out shots/menu.png

# the window tests, writing their screenshots into docs/screens/ (a normal run never does)
screens: setup
	BELLUM_SCREENS=1 $(PY) -m pytest -q -n 2 -k 'window or view or screen or menu or picker' tests

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis .benchmarks build dist
