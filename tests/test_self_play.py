"""Self-play: pools per seat, the learner in every seat, reward routing per seat in scripted
games, and a training smoke test per game (both vector env kinds, self-play and the learning
curve on) that then runs the arena on the checkpoint; illegal actions are counted and 0."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import maya_envs  # noqa: F401  (registers the ids)
from maya_envs.games import DEFAULT_GAME, GAMES, find_game
from tests.conformance import default_variant
from training.config_names import config_names, resolve_config
from training.self_play import SnapshotPool, make_self_play_env

ROOT = Path(__file__).resolve().parent.parent
POOL_ID = DEFAULT_GAME.gym_id  # the pools' game (3 players: two pools)


def scripted(observation) -> int:
    """A deterministic scripted player that varies its choice with the position."""
    legal = np.flatnonzero(observation["action_mask"])
    return int(legal[int(abs(float(np.sum(observation["observation"]))) * 997) % len(legal)])


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory):
    """Three untrained MaskablePPO snapshots for the default game at 3 players, saved as a trainer would."""
    from sb3_contrib import MaskablePPO

    env = gym.make(POOL_ID, num_players=3)
    folder = tmp_path_factory.mktemp("snapshots")
    paths = []
    for k in range(3):
        model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, policy_kwargs={"net_arch": [8]}, seed=k)
        paths.append(str(folder / f"snapshot_{k * 100}.zip"))
        model.save(paths[-1])
    return paths


def test_pool_weights_and_size(snapshots):
    env = gym.make(POOL_ID, num_players=3)
    pool = SnapshotPool({"random": 1.0, "heuristic": 1.0}, env.unwrapped.rules, snapshot_weight=2.0, pool_size=2)
    assert pool.weights().tolist() == [0.5, 0.5]  # bots only before the first snapshot
    for path in snapshots:
        pool.add_snapshot(path)
    assert [Path(p).stem for p, _ in pool.snapshots] == ["snapshot_100", "snapshot_200"]  # the oldest left
    assert pool.weights() == pytest.approx([0.25, 0.25, 0.25, 0.25])
    with pytest.raises(ValueError, match=r"need pool_size >= 1 and snapshot_weight >= 0, got 0, 1.0"):
        SnapshotPool({"random": 1.0}, env.unwrapped.rules, pool_size=0)


def test_learner_sits_in_every_seat_and_every_other_seat_draws_from_the_pool(snapshots):
    env = make_self_play_env(POOL_ID, {"random": 1.0}, 3.0, pool_size=5, num_players=3)
    assert env.add_snapshot(snapshots[0]) == 1 and env.add_snapshot(snapshots[1]) == 2
    seats, picks = Counter(), Counter()
    rng = np.random.default_rng(0)
    for episode in range(24):
        _, info = env.reset(seed=episode)
        seats[info["learner"]] += 1
        picks[tuple(pool.current_name for pool in env.pools)] += 1
        done, illegal = False, 0
        while not done:
            mask = env.action_masks()
            _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            illegal += info.get("offender") == info["learner"]
            done = terminated or truncated
        assert illegal == 0
    assert set(seats) == {"player_0", "player_1", "player_2"}
    names = {name for pair in picks for name in pair}
    assert names == {"bot", "snapshot_0", "snapshot_100"}
    assert any(a != b for a, b in picks)  # the two other seats are drawn independently


def _scripted_cases() -> list[tuple[str, dict]]:
    """Every game at its second player count, every game at each count where seats play in
    teams, and the default game's first non-default variant at its smallest count."""
    cases = [(game.gym_id, {"num_players": game.player_counts[1]}) for game in GAMES.values()]
    cases += [(g.gym_id, {"num_players": n}) for g in GAMES.values() for n in g.player_counts if g.teams(n)]
    n = DEFAULT_GAME.player_counts[0]
    other = next(v for v in DEFAULT_GAME.hook("variants") if v != default_variant(DEFAULT_GAME, n))
    return cases + [(DEFAULT_GAME.gym_id, {"num_players": n, DEFAULT_GAME.variant_option: other})]


@pytest.mark.parametrize(("env_id", "options"), _scripted_cases())
def test_reward_goes_to_the_learners_own_seat_in_a_scripted_game(env_id, options):
    """Every seat plays the same scripted policy, so the game is the same whichever seat the
    learner takes; the learner's summed reward must be that seat's return (its team's where
    seats play in teams), and the known winning seat's reward is positive."""
    outcomes = []
    for seat in range(options["num_players"]):
        env = make_self_play_env(env_id, {scripted: 1.0}, learner_seat=seat, **options)
        observation, info = env.reset(seed=11)
        assert info["learner"] == f"player_{seat}"
        total, done, steps = 0.0, False, 0
        while not done:
            obs = {"observation": observation, "action_mask": env.action_masks()}
            observation, reward, terminated, truncated, _ = env.step(scripted(obs))
            total, done, steps = total + reward, terminated or truncated, steps + 1
            assert steps < 5000
        aec = env.unwrapped.aec_env
        returns = aec.rules.returns(aec.game_state)
        assert total == pytest.approx(returns[seat])
        outcomes.append((total, tuple(returns)))
    assert len({r for _, r in outcomes}) == 1  # the same scripted game from every seat
    returns = np.array(outcomes[0][1])
    winner = int(np.argmax(returns))
    assert outcomes[winner][0] > 0 and min(t for t, _ in outcomes) < 0
    for team in find_game(env_id).teams(options["num_players"]):
        assert len({returns[s] for s in team}) == 1, team  # partners share the result


def _quick_form(name: str) -> tuple[int, object]:
    """``(num_players, variant)`` that the shipped config ``name`` plays."""
    import yaml

    data = yaml.safe_load(resolve_config(name).read_text(encoding="utf-8"))
    game = find_game(data["env_id"])
    rules = game.make_rules(data.get("game_options") or {})
    return rules.spec.num_players, getattr(rules.config, game.variant_option)


def _smoke_config(game) -> str:
    """The game's shipped ``*_quick`` config in its most demanding shipped form: a player count
    where seats play in teams, else a non-default variant, else its smallest player count."""
    wanted = [(n, default_variant(game, n)) for n in game.player_counts if game.teams(n)]
    wanted += [(n, v) for v in game.hook("variants") for n in game.player_counts if v != default_variant(game, n)]
    wanted.append((game.player_counts[0], default_variant(game, game.player_counts[0])))
    quick = [name for name in config_names(game.key) if name.endswith("_quick")]
    forms = {name: _quick_form(name) for name in quick}
    return next(name for form in wanted for name in quick if forms[name] == form)


#: (config, vector env kind, the run directory's env name): one game a case, the first in one
#: process (``dummy``), the others in subprocesses; the last one is resumed.
SMOKE = [
    (_smoke_config(game), "dummy" if k == 0 else "subproc", game.gym_id.split("/")[-1])
    for k, game in enumerate(GAMES.values())
]


@pytest.mark.parametrize(("config", "vec_env", "env_name"), SMOKE)
def test_self_play_training_smoke_then_arena(tmp_path, config, vec_env, env_name):
    command = [
        sys.executable, "-m", "training.train", "--config", str(resolve_config(config)),
        "--set", "total_timesteps=256", "--set", "n_envs=2", "--set", f"vec_env={vec_env}", "--set", "n_steps=64",
        "--set", "batch_size=64", "--set", "n_epochs=1", "--set", "net_arch=[16]", "--set", "eval_games=2",
        "--set", "eval_every=100", "--set", "eval_curve_games=2", "--set", "self_play.enabled=true",
        "--set", "self_play.snapshot_every=128", "--set", "progress_bar=false", "--set", f"output_dir={tmp_path}",
    ]  # fmt: skip
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    (run_dir,) = [p for p in tmp_path.iterdir() if p.name.startswith(env_name)]
    evaluation = json.loads((run_dir / "evaluation.json").read_text())
    assert evaluation["illegal_actions_in_rollouts"] == 0
    assert sum(evaluation["rollout_learner_seats"].values()) > 0
    assert all(r["illegal_actions"] == 0 and r["games"] == 2 for r in evaluation["results"])
    assert sorted(p.name for p in (run_dir / "snapshots").iterdir())[:2] == ["snapshot_0.zip", "snapshot_128.zip"]
    curve = json.loads((run_dir / "learning_curve.json").read_text())
    assert {p["timesteps"] for p in curve} >= {128, 256} and (run_dir / "learning_curve.png").is_file()
    assert all(p["timesteps"] % 128 == 0 for p in curve)  # taken after an update (rollout 2 x 64), never mid-rollout

    arena = [sys.executable, "-m", "training.arena", "--agents", f"ppo={run_dir / 'model.zip'}", "random",
             "--games", "2", "--out", str(tmp_path / "arena")]  # fmt: skip
    done = subprocess.run(arena, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    data = json.loads((tmp_path / "arena" / "arena.json").read_text())
    assert data["env_id"].endswith(env_name) and data["balanced"]
    ppo = next(a for a in data["agents"] if a["name"] == "ppo")
    assert ppo["illegal_actions"] == 0 and ppo["games"] == sum(ppo["games_per_seat"]) > 0
    assert (tmp_path / "arena" / "arena.md").is_file() and (tmp_path / "arena" / "ratings.png").is_file()
    assert "arena: 100%" in done.stderr and "seat-games" in done.stdout  # progress bar; the column says what it counts

    if env_name == SMOKE[-1][2]:  # resume: continue the checkpoint to 384 steps in all, in a new run directory
        resume = [sys.executable, "-m", "training.train", "--resume", str(run_dir / "model.zip"),
                  "--set", "total_timesteps=384"]  # fmt: skip
        done = subprocess.run(resume, cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        assert f"resumed from {run_dir / 'model.zip'} at 256 timesteps" in done.stdout
        (resumed,) = [p for p in tmp_path.iterdir() if p.name.startswith(env_name) and p != run_dir]
        evaluation = json.loads((resumed / "evaluation.json").read_text())
        assert evaluation["total_timesteps"] == 384 and evaluation["resumed_from"] == str(run_dir / "model.zip")
