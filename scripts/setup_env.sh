#!/usr/bin/env bash
# Create .venv (if missing) and install maya-envs with the given extras, e.g.
#   bash scripts/setup_env.sh train,test,openspiel
# torch: where none is installed, take the CPU build first (scripts/install_torch.sh: PyTorch's
# CPU wheel index where it can be reached, else plain pip from a local mirror), so that the
# project's range `torch>=2.3` does not pull a multi-GB CUDA build.
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-train,test}"
python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
if [[ "$extras" == *train* ]]; then
  bash scripts/install_torch.sh .venv/bin/python
fi
# OpenSpiel (extra "openspiel"): a binary wheel or nothing. Where none exists for this Python
# and platform, building it from source would take long, so it is skipped with a message and
# tests/test_openspiel.py is skipped.
if [[ ",$extras," == *,openspiel,* ]]; then
  extras="$(echo ",$extras," | sed 's/,openspiel,/,/; s/^,//; s/,$//')"
  .venv/bin/python -m pip install -q --only-binary=:all: "open_spiel>=2.0" \
    || echo "setup_env.sh: no OpenSpiel wheel for this Python/platform; the OpenSpiel tests will be skipped" >&2
fi
# setuptools warns on every editable install of a flat layout ("Please be careful with folders
# in your working directory with the same name as your package"); here those folders are the
# package itself, so the advice has nothing to act on. Only that install step hides UserWarnings.
if [ -n "$extras" ]; then
  PYTHONWARNINGS="ignore::UserWarning" .venv/bin/python -m pip install -q -e ".[$extras]"
else
  PYTHONWARNINGS="ignore::UserWarning" .venv/bin/python -m pip install -q -e .
fi
