"""The env API's edges in every game of the game table (issue 29, item 4), on every surface
that applies (AEC, Parallel where the game has one, the single-agent Gymnasium view, the rules):

* the observations a Parallel step returns when the episode ends are what ``observe()`` gives
  right after (all-zero masks), and likewise the last AEC/single-agent observation;
* one observation space object per agent: seeding one agent's space never re-seeds another's;
* the misuses PettingZoo's ``OrderEnforcingWrapper`` catches raise the project's errors, naming
  the misuse: ``agent_iter()`` before ``reset()``, a loop over it that never steps, ``step`` /
  ``last`` after every agent is done, attributes before ``reset()``;
* ``rewards`` / ``_cumulative_rewards`` (and Parallel / single-agent rewards) are Python floats
  after every step;
* ``Rules.apply_action`` and the envs take numpy integers as Python ints (states stay JSON-safe)
  and refuse bools, floats and out-of-range ids with ``IllegalActionError`` naming the value and
  the range; a Parallel ``step`` with a non-dict (or an unknown agent) is refused the same way.

The cases come from :data:`maya_envs.games.GAMES` (every variant, every player count), so a new
game or variant is covered without editing this file.
"""

from __future__ import annotations

import importlib
import json

import numpy as np
import pytest

from maya_envs.core.errors import CallOrderError, IllegalActionError, ResetNeededError
from maya_envs.games import GAMES
from maya_envs.wrappers.single_agent import make_single_agent_env
from tests.conformance import ALL_CASES, GAME_CASES, case_id

ALL = ALL_CASES
_case_id = case_id


def _aec(key: str, options: dict, **kwargs):
    return GAMES[key].make_aec_env(**options, **kwargs)


def _parallel_env(key: str, options: dict):
    """The game's Parallel env, or ``None`` where its env module has none."""
    module = importlib.import_module(GAMES[key].env_module)
    return module.parallel_env(**options) if hasattr(module, "parallel_env") else None


PARALLEL_CASES = [
    case for case in GAME_CASES if hasattr(importlib.import_module(GAMES[case[0]].env_module), "parallel_env")
]


def _random_action(mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def _play_aec(env, seed: int):
    """One random game of the AEC ``env`` from ``reset(seed)``: yields ``(agent, env.last())``
    before each step (``None`` stepped for a finished agent)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter():
        last = env.last()
        yield agent, last
        done = last[2] or last[3]
        env.step(None if done else _random_action(last[0]["action_mask"], rng))


def _play_parallel(env, seed: int):
    """One random game of the Parallel ``env`` from ``reset(seed)``: yields each step's result."""
    observations, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while env.agents:
        result = env.step({a: _random_action(observations[a]["action_mask"], rng) for a in env.agents})
        observations = result[0]
        yield result


def _play_single(env, seed: int):
    """One random game of the single-agent ``env`` from ``reset(seed)``: yields each step's result."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    done = False
    while not done:
        result = env.step(_random_action(env.action_masks(), rng))
        done = result[2] or result[3]
        yield result


# -- end-of-game observations ------------------------------------------------------------------


def _assert_same_observation(returned: dict, observed: dict, where: str) -> None:
    assert set(returned) == set(observed), where
    for part in returned:
        np.testing.assert_array_equal(returned[part], observed[part], err_msg=f"{where}: {part}")


@pytest.mark.parametrize("case", PARALLEL_CASES, ids=_case_id)
def test_parallel_end_observations_equal_observe_after(case):
    """Both ends of a Parallel episode, by the rules and by an illegal action: what ``step``
    returns is what ``observe`` gives after it, with an all-zero mask."""
    key, options = case
    assert PARALLEL_CASES, "no game with a Parallel env in the game table"
    env = _parallel_env(key, options)
    *_, (observations, _, terminations, truncations, _) = _play_parallel(env, 1)
    assert all(terminations.values()) or all(truncations.values())
    for agent in env.possible_agents:
        _assert_same_observation(observations[agent], env.observe(agent), f"{agent} at the end")
        assert not observations[agent]["action_mask"].any(), agent

    env.reset(seed=2)
    rng = np.random.default_rng(2)
    actor = env.acting_agents()[0]
    illegal = int(np.flatnonzero(env.observe(actor)["action_mask"] == 0)[0])
    actions = {agent: _random_action(env.observe(agent)["action_mask"], rng) for agent in env.agents}
    with pytest.warns(UserWarning, match="illegal action"):
        observations, *_ = env.step({**actions, actor: illegal})
    for agent in env.possible_agents:
        _assert_same_observation(observations[agent], env.observe(agent), f"{agent} after an illegal action")
        assert not observations[agent]["action_mask"].any(), agent


@pytest.mark.parametrize("case", GAME_CASES, ids=_case_id)
def test_aec_and_single_agent_final_observations_equal_observe_after(case):
    key, options = case
    env = _aec(key, options)
    ended = 0
    for agent, (observation, _, terminated, truncated, _) in _play_aec(env, 3):
        if terminated or truncated:
            _assert_same_observation(observation, env.observe(agent), f"{agent} at the end")
            assert not observation["action_mask"].any()
            ended += 1
    assert ended == len(env.possible_agents)

    single = make_single_agent_env(key, **options)
    *_, (observation, *_) = _play_single(single, 4)
    np.testing.assert_array_equal(observation, single.aec_env.observe(single.learner)["observation"])


# -- one observation space per agent ---------------------------------------------------------------


def _spaces_apis(key: str, options: dict):
    yield "AEC", _aec(key, options)
    parallel = _parallel_env(key, options)
    if parallel is not None:
        yield "Parallel", parallel


@pytest.mark.parametrize("case", ALL, ids=_case_id)
def test_every_agent_has_its_own_observation_and_action_space(case):
    key, options = case
    for api, env in _spaces_apis(key, options):
        agents = env.possible_agents
        for getter in (env.observation_space, env.action_space):
            spaces = [getter(agent) for agent in agents]
            assert len({id(space) for space in spaces}) == len(agents), f"{api}: {getter.__name__} shared"
            first, second = spaces[0], spaces[1]
            second.seed(3)
            first.seed(11)
            before = _draws(second)
            first.seed(11)  # re-seeding the first agent's space must not rewind the second's
            assert not np.array_equal(_draws(second), before), f"{api}: {getter.__name__}"


def _draws(space, count: int = 20) -> np.ndarray:
    """``count`` samples of ``space``, flattened into one array."""
    parts = []
    for _ in range(count):
        sample = space.sample()
        parts += [np.ravel(v) for v in sample.values()] if isinstance(sample, dict) else [np.ravel(sample)]
    return np.concatenate(parts)


# -- misuse errors (OrderEnforcingWrapper's checks) ------------------------------------------------


@pytest.mark.parametrize("case", GAME_CASES, ids=_case_id)
def test_aec_misuse_raises_errors_that_name_it(case):
    key, options = case
    env = _aec(key, options)
    with pytest.raises(ResetNeededError, match=r"agent_iter\(\) before reset\(\): call reset\(\) first"):
        env.agent_iter()
    for name in ("rewards", "terminations", "truncations", "infos", "agent_selection", "_cumulative_rewards"):
        with pytest.raises(AttributeError, match=rf"^{name} before reset\(\): call reset\(\) first$"):
            getattr(env, name)
    with pytest.raises(AttributeError, match="has no attribute 'no_such_thing'"):
        env.no_such_thing  # noqa: B018  (other attributes: the usual error)

    env.reset(seed=5)
    passes = 0
    with pytest.raises(CallOrderError, match=r"the loop body did not call step\(\) for player_"):
        for _ in env.agent_iter(1_000):  # a bound, so the old endless loop fails instead of hanging
            passes += 1
    assert passes == 1

    for _ in _play_aec(env, 5):
        pass
    assert env.agents == []
    for call in (lambda: env.step(None), lambda: env.step(0), env.last):
        with pytest.raises(ResetNeededError, match=r"after the episode ended .*call reset\(\)"):
            call()
    env.reset(seed=5)  # and the env plays again
    assert env.agents == env.possible_agents and list(env.agent_iter(1)) == [env.agent_selection]


@pytest.mark.parametrize("case", GAME_CASES, ids=_case_id)
def test_parallel_and_single_agent_step_after_the_end_say_to_reset(case):
    key, options = case
    single = make_single_agent_env(key, **options)
    for _ in _play_single(single, 6):
        pass
    with pytest.raises(ResetNeededError, match=r"step\(\) after the episode ended: call reset\(\)"):
        single.step(0)
    parallel = _parallel_env(key, options)
    if parallel is not None:
        for _ in _play_parallel(parallel, 6):
            pass
        with pytest.raises(ResetNeededError, match=r"step\(\) after the episode ended"):
            parallel.step({})


# -- rewards are floats --------------------------------------------------------------------------


def _assert_floats(rewards: dict, where: str) -> None:
    bad = {agent: value for agent, value in rewards.items() if type(value) is not float}
    assert not bad, f"{where}: not Python floats: {bad!r}"


@pytest.mark.parametrize("case", GAME_CASES, ids=_case_id)
def test_rewards_are_python_floats_after_every_step(case):
    key, options = case
    env = _aec(key, options)
    for steps, (_, (_, reward, *_)) in enumerate(_play_aec(env, 7)):
        _assert_floats(env.rewards, f"rewards after {steps} steps")
        _assert_floats(env._cumulative_rewards, f"_cumulative_rewards after {steps} steps")
        assert type(reward) is float
    parallel = _parallel_env(key, options)
    if parallel is not None:
        for _, rewards, *_ in _play_parallel(parallel, 7):
            _assert_floats(rewards, "Parallel rewards")
    for _, reward, *_ in _play_single(make_single_agent_env(key, **options), 7):
        assert type(reward) is float


# -- numpy integers as action ids ------------------------------------------------------------------

NUMPY_KINDS = (np.int32, np.int64, np.int16, np.uint16, lambda a: np.array(a, np.int64))


@pytest.mark.parametrize("case", GAME_CASES, ids=_case_id)
def test_rules_take_numpy_integers_as_ints_and_states_stay_json_safe(case):
    key, options = case
    rules = GAMES[key].make_rules(options)
    state = plain = rules.initial_state(np.random.default_rng(8))
    chooser, draw_a, draw_b = np.random.default_rng(8), np.random.default_rng(9), np.random.default_rng(9)
    steps = 0
    while not (rules.is_terminal(state) or rules.is_truncated(state)):
        action = int(chooser.choice(rules.legal_actions(state)))
        state = rules.apply_action(state, NUMPY_KINDS[steps % len(NUMPY_KINDS)](action), draw_a)
        plain = rules.apply_action(plain, action, draw_b)
        steps += 1
        if steps % 25 == 0:
            _assert_json_safe(rules, state, plain, steps)
    _assert_json_safe(rules, state, plain, steps)


def _assert_json_safe(rules, state, plain, steps: int) -> None:
    saved = rules.state_to_dict(state)
    text = json.dumps(saved)  # raised TypeError on a numpy scalar
    assert saved == rules.state_to_dict(plain), f"numpy ids and Python ids part after {steps} steps"
    assert rules.state_to_dict(rules.state_from_dict(json.loads(text))) == saved


@pytest.mark.parametrize("case", GAME_CASES, ids=_case_id)
def test_non_integer_and_out_of_range_actions_are_refused_by_name(case):
    key, options = case
    rules = GAMES[key].make_rules(options)
    state = rules.initial_state(np.random.default_rng(10))
    n = rules.spec.num_actions
    legal = rules.legal_actions(state)[0]
    refused = [
        (True, r"got True of type bool"),
        (np.bool_(legal == 1), r"got (np\.)?(True|False)_? of type bool_?"),
        (float(legal), rf"got {float(legal)!r} of type float"),
        (np.float64(legal), rf"got (np\.float64\()?{float(legal)!r}\)? of type float64"),
        (str(legal), rf"got '{legal}' of type str"),
        (None, r"got None of type NoneType"),
        (np.array([legal]), rf"got array\(\[{legal}\]\) of type ndarray"),
    ]
    for action, message in refused:
        with pytest.raises(IllegalActionError, match=rf"action must be an int in \[0, {n - 1}\], {message}"):
            rules.apply_action(state, action, np.random.default_rng(0))
    for action in (-1, n, np.int32(n), np.int64(-1)):
        out_of_range = rf"action {int(action)} is out of range: allowed ids are 0\.\.{n - 1}"
        with pytest.raises(IllegalActionError, match=out_of_range):
            rules.apply_action(state, action, np.random.default_rng(0))
    env = _aec(key, options, illegal_action="raise")
    env.reset(seed=10)
    with pytest.raises(IllegalActionError, match=r"got True of type bool"):
        env.step(True)
    env.step(np.int32(env.rules.legal_actions(env.game_state)[0]))
    json.dumps(env.rules.state_to_dict(env.game_state))


@pytest.mark.parametrize("case", PARALLEL_CASES, ids=_case_id)
def test_parallel_step_refuses_what_is_not_a_dict_of_live_agents(case):
    key, options = case
    env = _parallel_env(key, options)
    observations, _ = env.reset(seed=12)
    actions = [int(np.flatnonzero(observations[a]["action_mask"])[0]) for a in env.agents]
    for bad, message in ((actions, "got list"), (tuple(actions), "got tuple"), (None, "got NoneType None")):
        with pytest.raises(IllegalActionError, match=rf"step\(\) takes a dict {{agent: action}} .*{message}"):
            env.step(bad)
    stranger = {**dict(zip(env.agents, actions, strict=True)), "player_9": 0}
    with pytest.raises(IllegalActionError, match=r"actions for \['player_9'\], which are not live agents"):
        env.step(stranger)
    state = env.game_state
    _, rewards, *_ = env.step({a: np.int32(x) for a, x in zip(env.agents, actions, strict=True)})
    assert env.game_state is not state
    json.dumps(env.rules.state_to_dict(env.game_state))
