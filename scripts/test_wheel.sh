#!/usr/bin/env bash
# The installed package, as a user gets it: build the sdist and the wheel, install the wheel with
# the train extra into a fresh venv outside the checkout, and from another directory (so the
# checkout is not importable) check: import, gym.make of every registered id, PettingZoo
# api_test of one env per game, the shipped configs and component table, a tiny training run
# from a config referred to by name, the arena from a config name, every pretrained policy
# (loaded and playing as an opponent), and every console script's --help.
# Prints the wheel's size and a summary of its files, and the time taken.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
start=$SECONDS
.venv/bin/python -c "import build" 2>/dev/null || bash scripts/setup_env.sh train,test

# Outside the checkout; on a RAM disk where one has room (unless TMPDIR is set): on this machine's
# disk (ext4 mounted with discard) deleting the ~1 GB venv took ~50 s.
base=${TMPDIR:-/tmp}
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ "$(df -Pk /dev/shm | awk 'NR == 2 {print $4}')" -gt 3000000 ]; then
  base=/dev/shm
fi
work=$(mktemp -d "$base/maya-wheel.XXXXXX")
trap 'rm -rf "$work"; echo "cleaned up at $((SECONDS - start)) s"' EXIT  # the venv lives only as long as this script
echo "== build (sdist and wheel) into $work/dist"
if ! .venv/bin/python -m build --outdir "$work/dist" . >"$work/build.log" 2>&1; then
  cat "$work/build.log"
  exit 1
fi
wheel=$(ls "$work"/dist/*.whl)
.venv/bin/python - "$wheel" "$work"/dist/*.tar.gz <<'EOF'
import json
import sys
import zipfile
from collections import Counter
from pathlib import Path

wheel, sdist = Path(sys.argv[1]), Path(sys.argv[2])
names = zipfile.ZipFile(wheel).namelist()
print(f"{wheel.name}: {wheel.stat().st_size / 1e6:.2f} MB, {len(names)} files; {sdist.name}: {sdist.stat().st_size / 1e6:.2f} MB")
folders = Counter(name.rsplit("/", 1)[0] for name in names)
for folder, count in sorted(folders.items()):
    kinds = Counter(Path(n).suffix or Path(n).name for n in names if n.rsplit("/", 1)[0] == folder)
    print(f"  {folder + '/':45s} {count:3d}  " + ", ".join(f"{k} x{v}" for k, v in sorted(kinds.items())))
required = [
    "maya_envs/py.typed", "training/py.typed", "maya_envs/maya2012/__init__.py",
    "maya_envs/maya_quarry/data/components.json", "maya_envs/pretrained/registry.json",
    "training/configs/__init__.py", "training/configs/maya2012/2p_quick.yaml", "training/configs/rllib/maya2012_2p.yaml",
]  # fmt: skip
registry = json.loads(zipfile.ZipFile(wheel).read("maya_envs/pretrained/registry.json"))
required += [f"maya_envs/pretrained/{entry['file']}" for entry in registry.values()]  # .zip and .pt alike
missing = [name for name in required if name not in names]
stray = [name for name in names if name.split("/")[0] not in ("maya_envs", "training") and ".dist-info/" not in name]
if missing or stray:
    sys.exit(f"wheel: missing {missing}, unexpected {stray}")
EOF

echo "== fresh venv outside the checkout: $work/venv"
"${PYTHON:-python3}" -m venv "$work/venv"
py="$work/venv/bin/python"
# the CPU torch first, as scripts/setup_env.sh does (scripts/install_torch.sh);
# --no-compile: byte-compiling all of torch at install time (and deleting it) took most of the time
bash scripts/install_torch.sh "$py" --no-compile
"$py" -m pip install -qq --no-compile "$wheel[train]"
echo "built and installed at $((SECONDS - start)) s"

mkdir "$work/run"
cd "$work/run"
export MPLBACKEND=Agg
echo "== python checks from $PWD (at $((SECONDS - start)) s)"
"$py" - "$repo" <<'EOF'
import importlib
import sys
import warnings
from pathlib import Path

import gymnasium as gym
import numpy as np
from pettingzoo.test import api_test, parallel_api_test

import maya_envs
import training
from maya_envs.games import GAMES
from maya_envs.maya_quarry.rules.config import load_components
from maya_envs.pretrained import list_pretrained, load_pretrained, pretrained_info
from maya_envs.registration import ENV_IDS
from training.config_names import CONFIGS_DIR, config_names

repo = Path(sys.argv[1]).resolve()
for module in (maya_envs, training):
    where = Path(module.__file__).resolve()
    if repo in where.parents:
        sys.exit(f"{module.__name__} imported from the checkout ({where}), not from the installed wheel")
site = Path(maya_envs.__file__).resolve().parents[1]
print(f"maya_envs {maya_envs.__version__} from {site}")
for package in (maya_envs, training):
    assert (Path(package.__file__).parent / "py.typed").is_file(), package
static = Path(maya_envs.__file__).parent / "web" / "static"
assert all((static / name).is_file() for name in ("index.html", "app.js", "style.css")), "maya-web page missing"

for env_id in ENV_IDS:
    env = gym.make(env_id)
    obs, info = env.reset(seed=0)
    action = int(np.flatnonzero(env.unwrapped.action_masks())[0])
    env.step(action)
    env.close()
print(f"gym.make + reset + step: {sorted(ENV_IDS)}")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the repository's tests run these with warnings as errors
    for game in GAMES.values():  # every PettingZoo module of the game table, as a user imports it
        module = importlib.import_module(game.env_module)
        api_test(module.env(num_players=game.player_counts[0]), num_cycles=200)
        if hasattr(module, "parallel_env"):
            parallel_api_test(module.parallel_env(num_players=game.player_counts[0]), num_cycles=200)
print(f"pettingzoo api_test (+ parallel_api_test where there is one): {[g.name for g in GAMES.values()]}")

table = load_components(None, 4)
assert site in Path(table.source).parents and not table.canonical, table.source
assert site in CONFIGS_DIR.parents and "maya2012/2p_quick" in config_names(), CONFIGS_DIR
print(f"component table {table.source}; {len(config_names())} configs in {CONFIGS_DIR}")

names = list_pretrained()
assert names, "no pretrained policies in the wheel"
for name in names:
    info = pretrained_info(name)
    env = gym.make(info.env_id, opponent=f"pretrained:{name}", **info.game_options)
    obs, _ = env.reset(seed=0)
    mask = env.unwrapped.action_masks()
    if info.kind == "network":  # a policy-value network (.pt): plays from the rules state
        from maya_envs.bots import make_bot

        rules, state = env.unwrapped.rules, env.unwrapped.aec_env.game_state
        for spec in (f"policy:{name}", f"az:{name}:4"):
            action = make_bot(spec, rules, 0).act(state)
            assert mask[int(action)], (spec, action)
    else:
        model = load_pretrained(name)
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert mask[int(action)], (name, action)
    for _ in range(3):  # the pretrained opponent answers in the other seats
        obs, reward, terminated, truncated, _ = env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))
        if terminated or truncated:
            break
    env.close()
print(f"pretrained policies loaded and played: {names}")
EOF

echo "== maya-train from a config name (at $((SECONDS - start)) s)"
"$work/venv/bin/maya-train" --list-configs | tr '\n' ' '
echo
"$work/venv/bin/maya-train" --config maya2012/2p_quick --set total_timesteps=512 --set n_envs=2 --set n_steps=128 \
  --set batch_size=64 --set eval_games=4 --set progress_bar=false --set output_dir=runs >"$work/train.log" 2>&1 \
  || { cat "$work/train.log"; exit 1; }
run=$(ls -d runs/*/)
for file in config.yaml model.zip evaluation.json evaluation.md; do
  [ -s "$run/$file" ] || { cat "$work/train.log"; echo "missing $run$file"; exit 1; }
done
echo "trained: $run (config.yaml model.zip evaluation.json evaluation.md)"
"$work/venv/bin/maya-arena" --config maya2012/2p_quick --agents "ppo=${run}model.zip" random --games 2 --no-plot \
  --out arena >"$work/arena.log" 2>&1 || { cat "$work/arena.log"; exit 1; }
[ -s arena/arena.json ] || { cat "$work/arena.log"; echo "missing arena/arena.json"; exit 1; }
echo "arena from a config name: arena/arena.json"

echo "== console scripts (at $((SECONDS - start)) s)"
for command in maya-train maya-eval maya-arena maya-play maya-replay maya-web; do
  "$work/venv/bin/$command" --help >/dev/null
  echo "$command --help: ok"
done
echo "test_wheel.sh: all checks passed in $((SECONDS - start)) s"
