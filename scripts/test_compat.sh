#!/usr/bin/env bash
# The test suite's env-layer part on gymnasium 1.2.2 with Ray RLlib, in a second venv (.venv-compat).
#
# ray[rllib] pins gymnasium==1.2.2 while the main .venv (scripts/test.sh) has the newest 1.x, so
# this venv is both the project's gymnasium-1.2.2 check and the RLlib smoke test: it is created
# here when missing (CPU torch first: an unpinned torch pulls a multi-GB CUDA build), the
# gymnasium version is checked to be 1.2.x, and the suite runs with MAYA_REQUIRE_RLLIB=1 so that
# the RLlib tests fail instead of skipping if Ray cannot be imported.
# Extra arguments go to pytest, e.g. `bash scripts/test_compat.sh tests/test_rllib.py`.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv-compat
if [ ! -x "$venv/bin/python" ]; then
  "${PYTHON:-python3}" -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import ray.rllib, torch, stable_baselines3, pytest, xdist" 2>/dev/null; then
  bash scripts/install_torch.sh "$venv/bin/python"
  "$venv/bin/python" -m pip install -q -e ".[train,test,rllib]"
fi
"$venv/bin/python" - <<'EOF'
import gymnasium, ray
print(f"gymnasium {gymnasium.__version__}, ray {ray.__version__}")
if not gymnasium.__version__.startswith("1.2."):
    raise SystemExit(f"expected gymnasium 1.2.x in this venv (ray[rllib] pins it), got {gymnasium.__version__}")
EOF
# loadgroup: the tests that start a local Ray (xdist_group "ray") share one worker, one Ray at a time.
# The many-game sweeps (marked slow) run once, in scripts/test.sh; here only the slow RLlib runs.
# Modules marked engine (tests/conftest.py: they never reach the Gymnasium/PettingZoo layer) ran
# in scripts/test.sh on the same code and are left out here.
MAYA_REQUIRE_RLLIB=1 "$venv/bin/python" -m pytest -n 2 --dist loadgroup -q -p no:cacheprovider \
  -m "not extended and (not slow or rllib) and not engine" "$@"
