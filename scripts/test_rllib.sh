#!/usr/bin/env bash
# Ray RLlib tests in their own venv (.venv-rllib: ray[rllib] pins gymnasium==1.2.2, so this venv
# is also the project's gymnasium-1.2.2 check): set it up if needed, then run
#   1. tests/test_rllib.py (tiny local-Ray training runs, 2p and 3p, illegal actions, arena),
#   2. the env conformance tests tests/*/test_env.py on gymnasium 1.2.2.
# Extra arguments go to both pytest runs. The main .venv (newest gymnasium) is left untouched.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv-rllib
if [ ! -x "$venv/bin/python" ]; then
  "${PYTHON:-python3}" -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import ray.rllib, torch, pytest, stable_baselines3" 2>/dev/null; then
  # the CPU torch on this machine's disk first, so that ray's torch does not pull a CUDA build
  "$venv/bin/python" -m pip install -q "torch==2.13.0" || "$venv/bin/python" -m pip install -q "torch>=2.3"
  "$venv/bin/python" -m pip install -q -e ".[rllib,test]"
  "$venv/bin/python" -m pip install -q "stable-baselines3>=2.3,<3"  # check_env in tests/*/test_env.py
fi
"$venv/bin/python" -c "import gymnasium, ray; print(f'gymnasium {gymnasium.__version__}, ray {ray.__version__}')"
"$venv/bin/python" -m pytest -q -p no:cacheprovider tests/test_rllib.py "$@"
"$venv/bin/python" -m pytest -q -p no:cacheprovider -n 2 tests/maya2012/test_env.py tests/maya_quarry/test_env.py tests/yaxha/test_env.py "$@"
