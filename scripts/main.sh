#!/usr/bin/env bash
# The main job: set up (if needed), train the default config, then evaluate the trained agent
# (table printed and written into the run directory). The default is expert iteration in
# Maya (2012), two players (configs/maya2012/2p_main.yaml: heuristic imitation at scale, then
# 3 iterations of guided search with the game's leaf estimate; bounded by work, not by the clock,
# so one seed gives one network on any machine), evaluated on both cores: raw against random and
# heuristic, with its search against heuristic (400 games each, seats rotated, Wilson 95%
# intervals; progress lines on stderr, each match appended to <run>/evaluation.jsonl as it ends).
# About 10 minutes on an idle 2-core machine (docs/main_job.md). Log it with
# `bash scripts/main.sh 2>&1 | tee main.log` (*.log is ignored).
# CONFIG=maya2012/2p_quick scripts/main.sh trains MaskablePPO instead.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup_env.sh train
.venv/bin/maya-train --config "${CONFIG:-maya2012/2p_main}" "$@"
