"""AlphaZero on the JAX engine: Gumbel MuZero search (mctx) over Maya (2012) 2p with the true
model, a small flax policy-value network, self-play in lock step under jit/vmap (issue 33).

One file in the CleanRL spirit: :class:`Config` (one field per option, its docstring the help),
seeding at the top, ``{env}__{exp}__{seed}__{time}`` run folders under ``--out``. Each
iteration plays ``batch`` new games to the end (every move a Gumbel search of
``simulations`` simulations; the action is the search's choice, the policy target its
``action_weights``), then trains on every position: cross-entropy to the search policy plus
the squared error of the value head against the game's result for the player to move. The
params are written as ``params.msgpack`` (flax serialisation) with ``agent.json`` (the config),
and :class:`JaxAZBot` plays them in the project's arena (``act(rules state)``: a bot usable as
an opponent spec, so ``maya_envs.evaluation.arena.play_match`` matches it with the heuristic;
``--match-games`` does that at the end).

Two players only: the search steps the real game, which is fair with perfect information;
3-4p hide the task cards (a search there would need determinisation; not done).

Usage::

    python -m training.jax_alphazero --tiny --out /tmp/az         # CI scale, CPU, < 1 min
    python -m training.jax_alphazero --iterations 200 --batch 1024 --simulations 32   # a GPU
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import mctx
import numpy as np
import optax
from flax import linen as nn
from flax import serialization

from maya_envs.jax import ENV_ID, Maya2012, state_from_rules

TINY = {"iterations": 2, "batch": 8, "simulations": 4, "max_considered": 4, "hidden": 32, "max_turns": 16, "train_steps": 2, "minibatch": 64}


@dataclass
class Config:
    """Options of one run (``--name value`` on the command line)."""

    seed: int = 0
    """Seeds the keys of play and of the network's initialisation."""
    iterations: int = 20
    """Self-play + training rounds."""
    batch: int = 256
    """Games played at once per iteration (vmapped)."""
    simulations: int = 32
    """Gumbel search simulations per move."""
    max_considered: int = 16
    """Gumbel search: actions considered at the root (sequential halving)."""
    hidden: int = 128
    """Width of the network's two hidden layers."""
    learning_rate: float = 1e-3
    """Adam step size."""
    train_steps: int = 16
    """Gradient steps per iteration, each on ``minibatch`` positions drawn from the iteration's games."""
    minibatch: int = 1024
    """Positions per gradient step."""
    max_turns: int = 300
    """Game option ``max_turns`` (scored at the limit, the default)."""
    setup: str = "choose"
    """Game option ``setup`` (2p: ``choose`` or ``random``)."""
    match_games: int = 0
    """Games against ``heuristic`` at the end (seats rotated, ``play_match``; 0: none)."""
    out: str = "runs"
    """Folder of the run folders."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Reserved for notes saved with the run."""


class PolicyValueNet(nn.Module):
    """Observation ``(B, 610)`` -> ``(logits (B, 75), value (B,) in [-1, 1])`` for the player to move."""

    hidden: int
    num_actions: int

    @nn.compact
    def __call__(self, obs: jax.Array) -> tuple[jax.Array, jax.Array]:
        x = nn.relu(nn.Dense(self.hidden)(obs))
        x = nn.relu(nn.Dense(self.hidden)(x))
        return nn.Dense(self.num_actions)(x), jnp.tanh(nn.Dense(1)(x))[:, 0]


def make_search(env: Maya2012, net: PolicyValueNet, cfg: Config):
    """``search(params, key, states) -> mctx PolicyOutput`` over a batch of states."""
    step = jax.vmap(env.step)

    def evaluate(params, states):
        logits, value = net.apply(params, states.observation)
        return jnp.where(states.legal_action_mask, logits, jnp.finfo(logits.dtype).min), value

    def recurrent_fn(params, key, action, states):
        keys = jax.random.split(key, action.shape[0])
        mover = states.current_player
        nxt = step(states, action, keys)
        reward = nxt.rewards[jnp.arange(action.shape[0]), mover]
        logits, value = evaluate(params, nxt)
        # the next value is the next mover's: the same seat after a setup decision, else the other
        sign = jnp.where(nxt.current_player == mover, 1.0, -1.0)
        over = nxt.terminated | nxt.truncated
        discount = jnp.where(over, 0.0, sign)
        value = jnp.where(over, 0.0, value)
        return mctx.RecurrentFnOutput(reward=reward, discount=discount, prior_logits=logits, value=value), nxt

    def search(params, key, states):
        logits, value = evaluate(params, states)
        root = mctx.RootFnOutput(prior_logits=logits, value=value, embedding=states)
        return mctx.gumbel_muzero_policy(
            params, key, root, recurrent_fn, num_simulations=cfg.simulations,
            invalid_actions=~states.legal_action_mask, max_num_considered_actions=cfg.max_considered,
        )  # fmt: skip

    return search


def make_selfplay(env: Maya2012, search, cfg: Config):
    """A jitted ``(params, key) -> (obs, policy targets, value targets, valid)`` of ``batch``
    games played to the end (``T`` = the longest game: ``max_turns`` + 2 setup moves)."""
    length = cfg.max_turns + 2
    init, step = jax.vmap(env.init), jax.vmap(env.step)

    def move(carry, key):
        params, states = carry
        k_search, k_step = jax.random.split(key)
        out = search(params, k_search, states)
        running = ~(states.terminated | states.truncated)
        record = (states.observation, out.action_weights, states.current_player, running)
        states = step(states, out.action, jax.random.split(k_step, cfg.batch))
        return (params, states), (record, states.rewards)

    def play(params, key):
        k_init, k_moves = jax.random.split(key)
        states = init(jax.random.split(k_init, cfg.batch))
        _, ((obs, policy, player, valid), rewards) = jax.lax.scan(
            move, (params, states), jax.random.split(k_moves, length)
        )
        result = rewards.sum(axis=0)  # (batch, 2): paid once, at the end
        value = jnp.take_along_axis(result[None], player[..., None], axis=2)[..., 0]
        flat = lambda a: a.reshape((-1,) + a.shape[2:])  # noqa: E731
        return flat(obs), flat(policy), flat(value), flat(valid)

    return jax.jit(play)


def make_train_step(net: PolicyValueNet, optimiser):
    def loss_fn(params, obs, policy, value, weight):
        logits, predicted = net.apply(params, obs)
        ce = optax.softmax_cross_entropy(logits, policy)
        mse = (predicted - value) ** 2
        norm = jnp.maximum(weight.sum(), 1.0)
        return ((ce + mse) * weight).sum() / norm, (ce * weight).sum() / norm

    @jax.jit
    def train_step(params, opt_state, batch):
        (loss, ce), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, *batch)
        updates, opt_state = optimiser.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss, ce

    return train_step


def train(cfg: Config) -> Path:
    """Run the iterations; returns the run folder (``params.msgpack``, ``agent.json``, ``log.jsonl``)."""
    env = Maya2012(num_players=2, setup=cfg.setup, max_turns=cfg.max_turns)
    run_dir = Path(cfg.out) / f"maya2012__jax_alphazero__{cfg.seed}__{int(time.time())}"
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "agent.json").write_text(json.dumps(dataclasses.asdict(cfg), indent=2))
    key = jax.random.PRNGKey(cfg.seed)
    net = PolicyValueNet(cfg.hidden, env.num_actions)
    key, k_net = jax.random.split(key)
    params = net.init(k_net, jnp.zeros((1, env.observation_shape[0])))
    optimiser = optax.adam(cfg.learning_rate)
    opt_state = optimiser.init(params)
    selfplay = make_selfplay(env, make_search(env, net, cfg), cfg)
    train_step = make_train_step(net, optimiser)
    log = (run_dir / "log.jsonl").open("w")
    for iteration in range(cfg.iterations):
        start = time.perf_counter()
        key, k_play = jax.random.split(key)
        obs, policy, value, valid = selfplay(params, k_play)
        positions = int(valid.sum())
        played = time.perf_counter() - start
        for _ in range(cfg.train_steps):
            key, k_pick = jax.random.split(key)
            pick = jax.random.choice(k_pick, valid.shape[0], (cfg.minibatch,), p=valid / jnp.maximum(valid.sum(), 1))
            batch = (obs[pick], policy[pick], value[pick], valid[pick].astype(jnp.float32))
            params, opt_state, loss, ce = train_step(params, opt_state, batch)
        row = {"iteration": iteration, "positions": positions, "loss": float(loss), "policy_ce": float(ce),
               "selfplay_s": round(played, 2), "positions_per_s": round(positions / played, 1)}  # fmt: skip
        log.write(json.dumps(row) + "\n")
        log.flush()
        print(json.dumps(row), flush=True)
    (run_dir / "params.msgpack").write_bytes(serialization.to_bytes(params))
    return run_dir


class JaxAZBot:
    """A trained run as a bot of the arena: ``act(rules state) -> action``, a Gumbel search of
    ``simulations`` simulations with the run's network over the JAX engine (2p).

    Args:
        rules: the rules of the games it plays (2p; their config must match the run's options).
        run_dir: a :func:`train` folder.
        simulations: search simulations per move (default: the run's).
        seed: seeds the search's Gumbel noise.

    Raises:
        ValueError: ``rules`` is not a 2p game.
    """

    def __init__(self, rules, run_dir: str | Path, simulations: int | None = None, seed: int = 0) -> None:
        if rules.config.num_players != 2:
            raise ValueError(f"JaxAZBot plays 2p games, got num_players={rules.config.num_players}")
        saved = json.loads((Path(run_dir) / "agent.json").read_text())
        cfg = Config(**{k: v for k, v in saved.items() if k in {f.name for f in dataclasses.fields(Config)}})
        if simulations is not None:
            cfg.simulations = simulations
        self.env = Maya2012(rules.config)
        net = PolicyValueNet(cfg.hidden, self.env.num_actions)
        template = net.init(jax.random.PRNGKey(0), jnp.zeros((1, self.env.observation_shape[0])))
        self.params = serialization.from_bytes(template, (Path(run_dir) / "params.msgpack").read_bytes())
        search = make_search(self.env, net, cfg)
        self._choose = jax.jit(lambda params, key, state: search(params, key, _batched(state)).action[0])
        self.rng = np.random.default_rng(seed)

    def act(self, state) -> int:
        key = jax.random.PRNGKey(int(self.rng.integers(2**31)))
        return int(self._choose(self.params, key, state_from_rules(self.env, state)))


def _batched(state):
    return jax.tree_util.tree_map(lambda v: v[None], state)


def match(run_dir: Path, cfg: Config) -> dict[str, Any]:
    """``play_match`` of the run's bot against ``heuristic`` (seats rotated)."""
    from maya_envs.evaluation.arena import play_match
    from maya_envs.games import find_game

    game = find_game(ENV_ID)  # the game the JAX engine plays (its Pgx id is the game key)
    options = {"setup": cfg.setup, "max_turns": cfg.max_turns}
    rules = game.make_aec_env(**options).unwrapped.rules
    result = play_match(lambda: game.make_aec_env(**options).unwrapped, JaxAZBot(rules, run_dir, seed=cfg.seed),
                        "heuristic", cfg.match_games, seed=cfg.seed, candidate_name="jax_az")  # fmt: skip
    return result.to_dict()


def parse(argv: list[str] | None = None) -> Config:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tiny", action="store_true", help=f"CI scale: {TINY}")
    for f in dataclasses.fields(Config):
        if f.name != "extra":
            parser.add_argument(f"--{f.name.replace('_', '-')}", type=type(f.default), default=None)
    args = parser.parse_args(argv)
    values = dict(TINY) if args.tiny else {}
    values.update({k: v for k, v in vars(args).items() if k != "tiny" and v is not None})
    return Config(**values)


def main(argv: list[str] | None = None) -> int:
    cfg = parse(argv)
    run_dir = train(cfg)
    print(f"run: {run_dir}")
    if cfg.match_games:
        result = match(run_dir, cfg)
        (run_dir / "match.json").write_text(json.dumps(result, indent=2))
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
