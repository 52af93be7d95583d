#!/usr/bin/env bash
# Set up (if needed) and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup_env.sh train,test,openspiel
.venv/bin/python -m pytest -n 2 -q -m "not extended" "$@"
