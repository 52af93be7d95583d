"""Game-agnostic test helpers used by every game's tests, and the cases every cross-cutting
test sweeps, derived from the game table (:data:`maya_envs.games.GAMES`): a new game,
player count or variant is covered without a test edited."""

from __future__ import annotations

import ast
import hashlib
import importlib
import json
import math
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from maya_envs.core.chance import ChanceNeeded, OutcomeRecorder, OutcomeScript
from maya_envs.core.errors import ConfigError, IllegalActionError, StateError
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


def random_single_agent_episode(env, seed: int) -> tuple[Any, float]:
    """Play one episode of a single-agent (gymnasium) env with uniformly random legal actions
    from ``np.random.default_rng(seed)``, after ``reset(seed=seed)``; return the first
    observation and the learner's summed reward."""
    first, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, done = 0.0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(env.unwrapped.action_masks())))
        _, reward, terminated, truncated, _ = env.step(action)
        total += reward
        done = terminated or truncated
    return first, total


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


def env_module(key: str):
    """The imported PettingZoo module of the game ``key`` (``env()``, ``raw_env()`` and, where the
    game has one, ``parallel_env()``): :attr:`maya_envs.games.Game.env_module` of its entry, so a
    game's own tests name its key only and a version bump edits no test.

    Raises:
        KeyError: ``key`` is not a key of :data:`maya_envs.games.GAMES`.
    """
    return importlib.import_module(GAMES[key].env_module)


def resample_hidden(key: str) -> Callable:
    """The game's resampler of what a seat may not see, ``resample_hidden(state, observer, rng)
    -> state``: ``tests/<key>/hidden.py`` answers it for every game (another seat's cards, picks
    or bids redrawn consistently with what ``observer`` knows), as a package answers a hook of
    :data:`maya_envs.games.STANDARD_HOOKS`; written apart from the rules' ``determinize`` hook,
    so that a test of the rules does not use the rules' own code.

    Raises:
        KeyError: ``key`` is not a key of :data:`maya_envs.games.GAMES`.
    """
    return importlib.import_module(f"tests.{GAMES[key].key}.hidden").resample_hidden


def default_variant(game: Game, num_players: int):
    """The value of ``game.variant_option`` its rules take at ``num_players`` when none is given."""
    return getattr(game.make_rules({"num_players": num_players}).config, game.variant_option)


def _whole_game_cases(cases: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
    """The cases of ``cases`` a test that plays whole games sweeps: the default variant at every
    player count (the default at that count), every other variant at the first player count."""
    out, seen = [], set()
    for key, options in cases:
        game = GAMES[key]
        value = options[game.variant_option]
        if value == default_variant(game, options["num_players"]) or (key, value) not in seen:
            out.append((key, options))
            seen.add((key, value))
    return out


ALL_CASES: list[tuple[str, dict]] = _every_case()
"""Every game x player count x variant the rules accept, as ``(game key, options)``."""

GAME_CASES: list[tuple[str, dict]] = _whole_game_cases(ALL_CASES)
"""Every player count with the default variant, every other variant once (see :func:`_whole_game_cases`)."""

HIDDEN_CASES: list[tuple[str, dict]] = [
    (key, options) for key, options in ALL_CASES if GAMES[key].make_rules(options).spec.information != "perfect"
]
"""The cases of :data:`ALL_CASES` with hidden information (``GameSpec.information`` is not ``"perfect"``)."""

HIDDEN_GAME_CASES: list[tuple[str, dict]] = _whole_game_cases(HIDDEN_CASES)
"""The :data:`HIDDEN_CASES` a test that plays whole games sweeps (as :data:`GAME_CASES`)."""

FIRST_HIDDEN_CASES: list[tuple[str, dict]] = [next(case for case in HIDDEN_CASES if case[0] == key) for key in GAMES]
"""Each game's first case of :data:`HIDDEN_CASES` (its smallest player count with hidden information)."""


def first_game(wanted: str, has: Callable[[Game], bool]) -> Game:
    """The first entry in table order for which ``has(game)`` is true: how a test that needs one
    game with a property (two players, teams, an alias) picks it without naming it.

    Raises:
        LookupError: no entry has it (the message says ``wanted``).
    """
    for game in GAMES.values():
        if has(game):
            return game
    raise LookupError(f"no game in maya_envs.games.GAMES has {wanted}")


CONFIGS = PACKAGE_ROOT.parent / "configs"
"""The shipped training configs, one folder per game key (``configs/<key>/<n>p[_<variant>]_<kind>.yaml``)."""


def shipped_config(game: Game, kind: str) -> str:
    """The name (``"<key>/<stem>"``, as ``load_config`` takes it) of the first shipped config of
    ``game``, in name order (so the smallest player count), whose name ends in ``_<kind>``
    (``"quick"``, ``"exit"``, ``"main"``).

    Raises:
        LookupError: the game ships no such config.
    """
    for path in sorted((CONFIGS / game.key).glob(f"*_{kind}.yaml")):
        return f"{game.key}/{path.stem}"
    raise LookupError(f"configs/{game.key}/ has no *_{kind}.yaml")


def turn_cap(game: Game, max_turns: int) -> dict[str, int]:
    """``{"max_turns": max_turns}`` where ``game``'s rules take that option (a shorter game for a
    quick test), else ``{}``."""
    try:
        game.make_rules({"max_turns": max_turns})
    except ConfigError:
        return {}
    return {"max_turns": max_turns}


def case_id(case) -> str:
    """``"<key>-<num_players>-<variant>"``, the test id of a case."""
    key, options = case
    return f"{key}-" + "-".join(f"{v}" for v in options.values())


def seeded_states(rules, seed: int, steps: int):
    """Every state of a seeded random game, at most ``steps`` moves long."""
    rng = np.random.default_rng(seed)
    state = rules.initial_state(rng)
    yield state
    for _ in range(steps):
        if rules.is_terminal(state) or rules.is_truncated(state):
            return
        state = rules.apply_action(state, int(rng.choice(rules.legal_actions(state))), rng)
        yield state


def saved_states(rules, seed: int, steps: int = 400):
    """The saved dicts (through JSON) of :func:`seeded_states`."""
    for state in seeded_states(rules, seed, steps):
        yield json.loads(json.dumps(rules.state_to_dict(state)))


def first_saved_in_phase(rules, seed: int, phase: str, steps: int = 2000) -> dict:
    """The saved dict of the first state in ``phase`` of a seeded random game."""
    for data in saved_states(rules, seed, steps):
        if data["phase"] == phase:
            return data
    raise AssertionError(f"no state in phase {phase!r}")


def assert_refused(rules, data, *fields):
    """``state_from_dict(data)`` raises a ``StateError`` naming one of ``fields``; the error."""
    with pytest.raises(StateError) as caught:
        rules.state_from_dict(data)
    assert caught.value.field.split("[")[0] in fields, str(caught.value)
    return caught.value


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


def pinned_digest(make_env: Callable, options: dict, policy: str, seed: int = 7, with_state: bool = False) -> str:
    """:func:`trajectory_digest` of one seeded game of ``make_env(**options)``, actions from
    :func:`seeded_chooser` ``policy``; ``with_state`` adds the full rules state
    (``rules.state_to_dict``, sorted JSON) at every step (the pinned-trajectory tests)."""
    env = make_env(**options)
    rules = env.unwrapped.rules

    def state_bytes(env):
        return json.dumps(rules.state_to_dict(env.unwrapped.game_state), sort_keys=True).encode()

    return trajectory_digest(env, seed, seeded_chooser(env, policy, seed), state_bytes if with_state else None)


def check_chance_paths_agree(rules) -> int:
    """Each step of a seeded game is taken three ways: with the generator (the env's path), with a
    recorder over an equally seeded generator, and with the recorded outcomes as a script; the
    three states are equal, and the script path needs exactly the recorded outcomes. Returns the
    number of steps (``initial_state`` included) that drew."""
    plain_rng, recorded_rng = np.random.default_rng(7), np.random.default_rng(7)
    pick = np.random.default_rng(8)
    drawn_steps = 0

    def three_ways(step):
        nonlocal drawn_steps
        recorder = OutcomeRecorder(recorded_rng)
        plain = step(plain_rng)
        recorded = step(recorder)
        script = OutcomeScript(recorder.outcomes)
        scripted = step(script)
        assert plain == recorded == scripted
        assert script.used == len(recorder.outcomes)
        if recorder.outcomes:
            drawn_steps += 1
            with pytest.raises(ChanceNeeded):  # one outcome short: the last node is asked for
                step(OutcomeScript(recorder.outcomes[:-1]))
        return plain

    state = three_ways(rules.initial_state)
    for _ in range(400):
        if rules.is_terminal(state) or rules.is_truncated(state):
            break
        legal = rules.legal_actions(state)
        action = legal[int(pick.integers(len(legal)))]
        state = three_ways(lambda rng, s=state, a=action: rules.apply_action(s, a, rng))
    return drawn_steps


def chance_nodes(step, outcomes):
    """Chance nodes met while ``step`` consumes ``outcomes``: [(node outcomes, chosen), ...]."""
    nodes = []
    while True:
        try:
            step(OutcomeScript(outcomes[: len(nodes)]))
        except ChanceNeeded as need:
            nodes.append((need.outcomes, outcomes[len(nodes)]))
            continue
        return nodes


def check_chance_nodes_sum_to_one(rules) -> None:
    """The setup's chance nodes list distinct sorted outcomes with probabilities > 0 summing to 1."""
    recorder = OutcomeRecorder(np.random.default_rng(3))
    rules.initial_state(recorder)
    nodes = chance_nodes(rules.initial_state, recorder.outcomes)
    assert len(nodes) == len(recorder.outcomes)
    for outcomes, chosen in nodes:
        ids = [o for o, _ in outcomes]
        assert ids == sorted(set(ids)) and all(p > 0 for _, p in outcomes)
        assert math.isclose(sum(p for _, p in outcomes), 1.0, rel_tol=1e-12)
        assert chosen in ids


def check_spec_chance(rules) -> None:
    """``GameSpec.chance`` ("the rules draw from the generator after ``initial_state``") is what
    the rules do: over a few random games some step draws exactly when it is True."""
    rng, pick = np.random.default_rng(5), np.random.default_rng(6)
    drew = False
    for _ in range(3):
        state = rules.initial_state(rng)
        while not (rules.is_terminal(state) or rules.is_truncated(state)) and not drew:
            legal = rules.legal_actions(state)
            recorder = OutcomeRecorder(rng)
            state = rules.apply_action(state, legal[int(pick.integers(len(legal)))], recorder)
            drew = bool(recorder.outcomes)
    assert drew == rules.spec.chance


# -- what a seat reads ---------------------------------------------------------------------------


def _after(rules, state, action):
    """The state after ``action``; every call draws the same chance outcomes."""
    return rules.apply_action(state, action, np.random.default_rng(0))


def _same_for(env, a, b, viewer) -> bool:
    """Whether ``viewer`` cannot tell the states ``a`` and ``b`` apart (turn, observation and
    its rendered view)."""
    rules = env.rules
    return (
        rules.current_player(a) == rules.current_player(b)
        and np.array_equal(env.observer.encode(a, viewer), env.observer.encode(b, viewer))
        and env._renderer(a, viewer) == env._renderer(b, viewer)
    )


def check_seat_reads(case: tuple[str, dict]) -> tuple[int, int]:
    """The per-seat move description (:func:`maya_envs.notation.describe_action`), tested by
    resampling what a seat may not see: (a) the actor's other legal actions that leave the seat's
    observation unchanged read the same to that seat; (b) in a state drawn by the game's
    ``determinize`` hook for that seat, the same action reads the same. The actor and a viewer of
    ``None`` read the whole move. Returns ``(descriptions that differ from the full one,
    alternatives checked under (a))``, so a game's own test can ask that hidden moves were met."""
    from maya_envs.bots import RandomBot
    from maya_envs.notation import describe_action

    key, options = case
    env = GAMES[key].make_aec_env(**options).unwrapped
    rules = env.rules
    determinize = GAMES[key].hook("determinize")
    n = rules.spec.num_players
    rng = np.random.default_rng(7)
    hidden_texts = checked_alternatives = 0
    bots = [RandomBot(rules, seed=s) for s in range(n)]
    before = rules.initial_state(np.random.default_rng(0))
    for _ in range(rules.spec.max_game_length):
        actor = rules.current_player(before)
        if actor < 0:
            break
        action = bots[actor].act(before)
        after = _after(rules, before, action)
        full = describe_action(rules, before, action, actor, None)
        assert describe_action(rules, before, action, actor, actor) == full
        legal = rules.legal_actions(before)
        # 12 alternatives a move (the sweep has 13 cases; the three per-game tests it replaced
        # took 25 over 7 cases)
        others = legal if len(legal) <= 12 else list(rng.choice(legal, 12, replace=False))
        for viewer in range(n):
            if viewer == actor:
                continue
            text = describe_action(rules, before, action, actor, viewer)
            hidden_texts += text != full
            # (a) an action that leads elsewhere, in a way the viewer cannot see, reads the same
            # (an action whose effect leaves no trace at all, e.g. a -3 without consequence, is
            # public and may read differently)
            for other in others:
                other_after = _after(rules, before, int(other))
                if other != action and other_after != after and _same_for(env, after, other_after, viewer):
                    checked_alternatives += 1
                    assert describe_action(rules, before, int(other), actor, viewer) == text
            # (b) the same action in a redrawn state that the viewer cannot tell apart
            resampled = determinize(rules, before, viewer, rng)
            if rules.current_player(resampled) == actor and action in rules.legal_actions(resampled):
                assert describe_action(rules, resampled, action, actor, viewer) == text
        before = after
    return hidden_texts, checked_alternatives


# -- entries picked by a property (the cross-cutting tests' selections) -------------------------


def shipped_ppo_baseline(where: Callable[[Any], bool]) -> tuple[str, Any]:
    """``(name, PretrainedInfo)`` of the first shipped PPO baseline (registry kind ``"sb3"``, in
    registry order) whose entry satisfies ``where(info)``; how a test names "a baseline of
    another game" instead of writing one.

    Raises:
        LookupError: no shipped PPO baseline satisfies ``where``.
    """
    return _first_shipped("sb3", where)


def shipped_network(where: Callable[[Any], bool]) -> tuple[str, Any]:
    """``(name, PretrainedInfo)`` of the first shipped policy-value network (registry kind
    ``"network"``, the ``<model>`` of ``policy:``/``az:`` specs) whose entry satisfies
    ``where(info)``, as :func:`shipped_ppo_baseline`.

    Raises:
        LookupError: no shipped network satisfies ``where``.
    """
    return _first_shipped("network", where)


def _first_shipped(kind: str, where: Callable[[Any], bool]) -> tuple[str, Any]:
    from maya_envs.pretrained import list_pretrained, pretrained_info

    for name in list_pretrained():
        info = pretrained_info(name)
        if info.kind == kind and where(info):
            return name, info
    raise LookupError(f"no shipped {kind!r} entry of the registry satisfies the condition")


def hidden_at_fewest() -> Game:
    """The first game of the table whose rules hide information already at its smallest player
    count (``GameSpec.information`` is not ``"perfect"``): where a test needs hidden cards with
    the fewest seats.

    Raises:
        LookupError: every game is of perfect information at its smallest count.
    """
    for game in GAMES.values():
        if game.make_rules({"num_players": game.player_counts[0]}).spec.information != "perfect":
            return game
    raise LookupError("no game hides information at its smallest player count")
