#!/usr/bin/env bash
# Set up (if needed) and run the whole test suite but the `extended` sweeps: every many-game sweep
# (`slow`) once, here. The browser tests of maya-web (tests/test_web_browser.py) need Debian's
# chromium and chromium-driver: .ci/run installs them and sets MAYA_REQUIRE_BROWSER=1; elsewhere
# they skip with a message when no browser is found. Prints the time of each step.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
bash scripts/setup_env.sh train,test,openspiel,browser,jax,docs
echo "test.sh: .venv ready at $((SECONDS - start)) s"
# worksteal: a worker that runs out of tests takes some of the other's, so one long sweep near the
# end does not leave a core idle
.venv/bin/python -m pytest -n 2 --dist worksteal -q -m "not extended" --ignore=tests/jax "$@"
echo "test.sh: pytest done at $((SECONDS - start)) s"
# The JAX engine's tests in a run of their own: JAX is multithreaded, and a pytest worker that has
# imported it warns (and may deadlock) when a later test forks (the stats workers, SB3's vector envs).
if [ "$#" -eq 0 ]; then
  .venv/bin/python -m pytest -n 2 -q tests/jax
  echo "test.sh: JAX tests done at $((SECONDS - start)) s"
fi
# Branch coverage of the three rules engines over the rules tests: one figure per engine and
# every uncovered branch, printed in the CI log (skipped when pytest was given arguments).
if [ "$#" -eq 0 ]; then
  .venv/bin/python scripts/rules_coverage.py
  echo "test.sh: rules coverage done at $((SECONDS - start)) s"
fi
