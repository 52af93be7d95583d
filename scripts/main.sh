#!/usr/bin/env bash
# Set up (if needed), train MaskablePPO on the default config, then evaluate it against the
# random and heuristic bots (table printed and written next to the checkpoint).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup_env.sh train
.venv/bin/maya-train --config "${CONFIG:-maya2012/2p_quick}" "$@"
