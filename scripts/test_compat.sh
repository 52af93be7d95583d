#!/usr/bin/env bash
# The test suite's env-layer part on gymnasium 1.2.2 with Ray RLlib, in a second venv (.venv-compat).
# Prints the time of each step.
#
# ray[rllib] pins gymnasium==1.2.2 while the main .venv (scripts/test.sh) has the newest 1.x, so
# this venv is both the project's gymnasium-1.2.2 check and the RLlib smoke test: it is created
# here when missing (CPU torch first: an unpinned torch pulls a multi-GB CUDA build), the
# gymnasium version is checked to be 1.2.x, and the suite runs with MAYA_REQUIRE_RLLIB=1 so that
# the RLlib tests fail instead of skipping if Ray cannot be imported.
# Extra arguments go to pytest, e.g. `bash scripts/test_compat.sh tests/test_rllib.py`.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
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
echo "test_compat.sh: .venv-compat ready at $((SECONDS - start)) s"
# Only what these versions change: the tests marked env_layer by tests/conftest.py (those that
# import gymnasium, pettingzoo, stable_baselines3, sb3_contrib or ray, or an RLlib adapter); the
# rules engines, bots, search, records, web and rendering ran once in scripts/test.sh on the same
# code. The many-game sweeps (marked slow) run once, there too; here only the slow RLlib runs.
# loadgroup: the tests that start a local Ray (xdist_group "ray") share one worker, one Ray at a time.
MAYA_REQUIRE_RLLIB=1 "$venv/bin/python" -m pytest -n 2 --dist loadgroup -q -p no:cacheprovider \
  -m "env_layer and not extended and (not slow or rllib)" "$@"
echo "test_compat.sh: pytest done at $((SECONDS - start)) s"
