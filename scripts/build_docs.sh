#!/usr/bin/env bash
# Build the documentation site: regenerate nothing, check everything. `mkdocs build --strict`
# fails on a broken link, anchor, reference or a page left out of the nav. The site goes to
# site/ (ignored), or to the folder given as $1, e.g. `bash scripts/build_docs.sh /tmp/site`.
# Without $PYTHON it sets up .venv/ with the docs extra first (scripts/setup_env.sh), as the two
# README commands do; PYTHON=path/to/python uses that interpreter (it needs the docs extra).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${PYTHON:-}" ]; then
  bash scripts/setup_env.sh docs
fi
python="${PYTHON:-.venv/bin/python}"
out="${1:-site}"
# the generated game pages must match the code before they are published
"$python" scripts/gen_docs.py --check
NO_MKDOCS_2_WARNING=1 "$python" -m mkdocs build --strict --site-dir "$out"
echo "build_docs.sh: site in $out"
