#!/usr/bin/env bash
# The one command: set up everything a fresh machine lacks, then run every check and test.
#   bash tools/test.sh            (CI runs it through .ci/run)
# Installs the dev requirements, Debian's Chromium when /usr/bin/chromium is missing, Debian's
# redis-server when /usr/bin/redis-server is missing, Node.js/npm
# when npm is missing, builds the site into site/ (tools/build_web.py), then runs ruff, mypy and
# pytest (engine and browser tests). Exits non-zero on any failure, "no tests ran" included.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_BREAK_SYSTEM_PACKAGES=1 DEBIAN_FRONTEND=noninteractive
PYTHON="${PYTHON:-python3}"

step() { printf '\n== %s\n' "$*"; }

apt_updated=0
apt_install() {
  if [ "$apt_updated" = 0 ]; then apt-get update -q; apt_updated=1; fi
  apt-get install -y -q "$@"
}

step "dev requirements"
"$PYTHON" -m pip install -q --root-user-action=ignore -r requirements-dev.txt

if [ ! -x /usr/bin/chromium ]; then
  step "installing Debian's chromium"
  apt_install chromium
fi
if [ ! -x /usr/bin/redis-server ]; then
  step "installing Debian's redis-server (the server's two-process test)"
  apt_install redis-server
fi
if ! command -v npm >/dev/null 2>&1; then
  step "installing Node.js and npm"
  apt_install nodejs npm
fi

step "the site (tools/build_web.py)"
"$PYTHON" tools/build_web.py

failed=()
check() {  # check NAME COMMAND...: run a check, remember a failure, go on with the others
  local name=$1 status=0
  shift
  step "$name"
  "$@" || status=$?
  if [ "$name" = pytest ] && [ "$status" = 5 ]; then
    echo "test.sh: pytest collected no tests" >&2
  fi
  if [ "$status" != 0 ]; then failed+=("$name (exit $status)"); fi
}

check ruff "$PYTHON" -m ruff check .
check mypy "$PYTHON" -m mypy  # files from pyproject.toml: spades_core, spades_server, ui
check pytest "$PYTHON" -m pytest -q --durations=30  # the slowest 30 listed: the suite keeps under 30 minutes

if [ "${#failed[@]}" != 0 ]; then
  printf '\ntest.sh: FAILED: %s\n' "${failed[*]}" >&2
  exit 1
fi
printf '\ntest.sh: all checks passed\n'
