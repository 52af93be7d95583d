#!/usr/bin/env bash
# The main job: set up (if needed), train the default config, then evaluate the trained agent
# (table printed and written into the run directory). The default is expert iteration in
# Maya (2012), two players (configs/maya2012/2p_main.yaml: heuristic imitation at scale, then
# guided search with the game's leaf estimate), evaluated raw and with its search against the
# random, heuristic and mcts:200:depth=2 bots (400 games each, seats rotated, Wilson 95%
# intervals). CONFIG=maya2012/2p_quick scripts/main.sh trains MaskablePPO instead.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup_env.sh train
.venv/bin/maya-train --config "${CONFIG:-maya2012/2p_main}" "$@"
