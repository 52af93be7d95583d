"""Game-agnostic test helpers used by every game's tests, and the cases every cross-cutting
test sweeps, derived from the game table (:data:`maya_envs.games.GAMES`): a new game,
player count or variant is covered without a test edited."""

from __future__ import annotations

import ast
import hashlib
import json
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from maya_envs.core.errors import ConfigError, IllegalActionError
from maya_envs.games import GAMES, Game

RL_PACKAGES = {"gymnasium", "pettingzoo", "torch", "stable_baselines3", "sb3_contrib", "ray", "PIL", "matplotlib"}
PACKAGE_ROOT = Path(__file__).resolve().parent.parent / "maya_envs"


@contextmanager
def warnings_as_errors() -> Iterator[None]:
    """Turn every warning into an error, except the two that PettingZoo's ``api_test`` raises
    for any env with ``{"observation", "action_mask"}`` dict observations; PettingZoo exempts
    its own masked classic games (chess, connect four, ...) from both by name."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        yield


def _every_case() -> list[tuple[str, dict]]:
    """``(game key, options)`` for every variant at every player count the rules accept, in
    table order; each game's variants in the order of its ``variants`` hook."""
    out = []
    for key, game in GAMES.items():
        for value in game.hook("variants"):
            for n in game.player_counts:
                options = {"num_players": n, game.variant_option: value}
                try:
                    game.make_rules(options)
                except ConfigError:
                    continue
                out.append((key, options))
    return out


def default_variant(game: Game):
    """The value of ``game.variant_option`` its rules take when none is given."""
    return getattr(game.make_rules({}).config, game.variant_option)


def _whole_game_cases() -> list[tuple[str, dict]]:
    """The cases a test that plays whole games sweeps: the default variant at every player
    count, every other variant at the first player count it allows."""
    out, seen = [], set()
    for key, options in ALL_CASES:
        game = GAMES[key]
        value = options[game.variant_option]
        if value == default_variant(game) or (key, value) not in seen:
            out.append((key, options))
            seen.add((key, value))
    return out


ALL_CASES: list[tuple[str, dict]] = _every_case()
"""Every game x player count x variant the rules accept, as ``(game key, options)``."""

GAME_CASES: list[tuple[str, dict]] = _whole_game_cases()
"""Every player count with the default variant, every other variant once (see :func:`_whole_game_cases`)."""


def case_id(case) -> str:
    """``"<key>-<num_players>-<variant>"``, the test id of a case."""
    key, options = case
    return f"{key}-" + "-".join(f"{v}" for v in options.values())


def accepted_actions(rules, state) -> set[int]:
    """Every action id that ``apply_action`` accepts in ``state`` (tried on the same, immutable
    state; ``apply_action`` must not change it)."""
    accepted = set()
    for action in range(rules.spec.num_actions):
        try:
            rules.apply_action(state, action, np.random.default_rng(0))
        except IllegalActionError:
            continue
        accepted.add(action)
    return accepted


def assert_mask_matches_rules(rules, state) -> None:
    """The mask, the legal list and what ``apply_action`` accepts are the same set."""
    mask = rules.legal_mask(state)
    assert mask.dtype == np.int8 and mask.shape == (rules.spec.num_actions,)
    masked = set(np.flatnonzero(mask).tolist())
    assert masked == set(rules.legal_actions(state))
    assert masked == accepted_actions(rules, state)


def play_states(rules, bots, rng: np.random.Generator, state=None):
    """Yield every state of one game played by ``bots`` (indexed by seat), the last one final."""
    state = rules.initial_state(rng) if state is None else state
    for _ in range(rules.spec.max_game_length + 1):
        yield state
        if rules.current_player(state) < 0:
            return
        action = bots[rules.current_player(state)].act(state)
        state = rules.apply_action(state, action, rng)
    raise AssertionError(f"game did not end within max_game_length={rules.spec.max_game_length}")


def imported_modules(path: Path) -> set[str]:
    """Top-level names of the modules a Python file imports (absolute imports only)."""
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def assert_pure(relative_paths: list[str], pure_internal: tuple[str, ...]) -> None:
    """The files import no RL/rendering package, and only the listed ``maya_envs`` modules."""
    for relative in relative_paths:
        for name in imported_modules(PACKAGE_ROOT / relative):
            assert name.split(".")[0] not in RL_PACKAGES, f"{relative} imports {name}"
            if name.startswith("maya_envs"):
                assert name.startswith(pure_internal), f"{relative} imports non-pure module {name}"


def seeded_chooser(env, policy: str, seed: int) -> Callable:
    """A ``choose(observation dict) -> action`` for :func:`trajectory_digest`: ``"random"`` draws a
    masked-in action from ``default_rng(seed)``; any other bot spec (``"heuristic"``,
    ``"mcts:4"``, ...) is that bot, seeded with ``seed``, acting on the env's rules state."""
    from maya_envs.bots import make_bot

    if policy == "random":
        rng = np.random.default_rng(seed)
        return lambda obs: int(rng.choice(np.flatnonzero(obs["action_mask"])))
    bot = make_bot(policy, env.unwrapped.rules, seed)
    return lambda obs: bot.act(env.unwrapped.game_state)


def trajectory_digest(env, seed: int, choose: Callable, extra: Callable | None = None) -> str:
    """sha256 over one seeded AEC game (the pinned-trajectory tests of speed work): per step,
    every agent's observation bytes, action mask bytes and reward, the acting agent with its
    reward and end flags, its info, ``extra(env)`` bytes (if given) and the action, which is
    ``choose(observation dict)`` (``None`` once the agent is done)."""
    env.reset(seed=seed)
    h = hashlib.sha256()
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        for a in env.agents:
            o = env.observe(a)
            h.update(o["observation"].tobytes())
            h.update(o["action_mask"].tobytes())
            h.update(np.float64(env.rewards[a]).tobytes())
        h.update(repr((agent, float(reward), termination, truncation)).encode())
        h.update(json.dumps(info, sort_keys=True, default=str).encode())
        if extra is not None:
            h.update(extra(env))
        action = None if termination or truncation else choose(obs)
        h.update(repr(action).encode())
        env.step(action)
    return h.hexdigest()
