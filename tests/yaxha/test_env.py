"""PettingZoo conformance, hidden choices, AEC/Parallel equivalence, rewards, seeding, copies."""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test
from pettingzoo.utils.conversions import parallel_to_aec

from maya_envs.core.errors import IllegalActionError
from maya_envs.yaxha.actions import WAIT
from maya_envs.yaxha.rules import BUILD, PENDING, SELECT
from tests.conformance import env_module, warnings_as_errors

ENV_MODULE = env_module("yaxha")

CONFIGS = [
    {"num_players": 2},
    {"num_players": 3},
    {"num_players": 4},
    {"num_players": 3, "footprint": "fixed", "reward_scheme": "score_diff"},
]


def test_api_tests_with_the_score_difference_reward():
    """``reward_scheme="score_diff"`` (every footprint and player count: tests/test_conformance.py)."""
    config = CONFIGS[-1]
    with warnings_as_errors():
        # a finished agent's last observation has an all-zero mask by definition
        warnings.filterwarnings("ignore", message="Action mask numpy array is all zeros")
        api_test(ENV_MODULE.env(**config), num_cycles=400)
        parallel_api_test(ENV_MODULE.parallel_env(**config), num_cycles=400)


def _random_action(obs, rng):
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


def play_aec(config, seed, action_seed):
    """One AEC game with random legal actions; returns (env, [(agent, action)], rewards)."""
    env = ENV_MODULE.env(**config)
    env.reset(seed=seed)
    rng = np.random.default_rng(action_seed)
    log, total = [], {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        action = _random_action(obs, rng)
        log.append((agent, action))
        env.step(action)
    return env, log, total


@pytest.mark.parametrize("config", CONFIGS)
def test_aec_and_parallel_play_identical_games(config):
    for seed in range(3):
        aec, log, aec_rewards = play_aec(config, seed, 100 + seed)
        par = ENV_MODULE.parallel_env(**config)
        obs, _ = par.reset(seed=seed)
        i, par_rewards = 0, {}
        while par.agents:
            acting = par.acting_agents()
            actions = {}
            for agent in acting:
                logged_agent, action = log[i]
                assert logged_agent == agent  # same order of deciders
                assert obs[agent]["action_mask"][action] == 1
                actions[agent] = action
                i += 1
            for agent in par.agents:  # an idle agent's only legal id is the wait id
                assert agent in acting or np.flatnonzero(obs[agent]["action_mask"]).tolist() == [WAIT]
                actions.setdefault(agent, WAIT)
            obs, rewards, terms, truncs, infos = par.step(actions)
            for agent, r in rewards.items():
                par_rewards[agent] = par_rewards.get(agent, 0.0) + r
        assert i == len(log)
        assert par.game_state == aec.game_state
        assert par_rewards == pytest.approx(aec_rewards)
        assert all(terms.values()) and infos["player_0"] == aec.rules.final_info(aec.game_state)


def _observations(env):
    return {agent: env.observe(agent)["observation"].copy() for agent in env.possible_agents}


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_a_pending_choice_is_never_visible_to_another_agent(num_players):
    views = []
    for tile in range(num_players):
        env = ENV_MODULE.env(num_players=num_players, render_mode="ansi", render_observer=1)
        env.reset(seed=7)
        assert env.agent_selection == "player_0" and env.game_state.phase == SELECT
        env.step(tile)
        views.append((_observations(env), env.render()))
    for agent in views[0][0]:
        same = [np.array_equal(v[0][agent], views[0][0][agent]) for v in views]
        assert all(same) == (agent != "player_0"), agent  # only the chooser sees its choice
    assert len({text for _, text in views}) == 1  # player_1's rendered view is the same too


def test_cubes_placed_this_round_stay_hidden_until_the_round_ends():
    env = ENV_MODULE.env(num_players=3)
    env.reset(seed=3)
    for _ in range(3):  # everyone picks a different tile: straight to building
        env.step(int(env.agent_selection[-1]))
    assert env.game_state.phase == BUILD and env.agent_selection == "player_0"
    legal = np.flatnonzero(env.observe("player_0")["action_mask"])
    seen = []
    for action in (legal[0], legal[-1]):
        branch = copy.deepcopy(env)
        branch.step(int(action))
        seen.append(_observations(branch))
    assert not np.array_equal(seen[0]["player_0"], seen[1]["player_0"])
    for agent in ("player_1", "player_2"):
        assert np.array_equal(seen[0][agent], seen[1][agent])


@pytest.mark.parametrize("config", CONFIGS)
def test_reward_ledger_pays_once_at_the_end_and_sums_to_zero(config):
    env = ENV_MODULE.env(**config)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    paid, steps = {a: [] for a in env.possible_agents}, 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        paid[agent].append(reward)
        if term or trunc:
            env.step(None)
            continue
        steps += 1
        env.step(_random_action(obs, rng))
    assert steps <= env.rules.spec.max_game_length
    returns = env.rules.returns(env.game_state)
    for seat, agent in enumerate(env.possible_agents):
        assert paid[agent][:-1] == [0.0] * (len(paid[agent]) - 1)
        assert paid[agent][-1] == pytest.approx(returns[seat])
    assert sum(returns) == pytest.approx(0.0)
    scores = info["scores"]
    if config.get("reward_scheme") == "score_diff":
        expected = [(s - (sum(scores) - s) / (len(scores) - 1)) / 100 for s in scores]
        assert list(returns) == pytest.approx(expected)
    else:
        best = max(scores)
        assert [r > 0 for r in returns] == [s == best for s in scores]


def test_seeding_reproduces_and_continues_the_stream():
    _, log_a, _ = play_aec({"num_players": 3}, 5, 1)
    _, log_b, _ = play_aec({"num_players": 3}, 5, 1)
    assert log_a == log_b
    env = ENV_MODULE.env(num_players=3)
    env.reset(seed=5)
    first = env.game_state
    env.reset()
    assert env.game_state != first  # the stream continues
    env.reset(seed=5)
    assert env.game_state == first
    env.reset(seed=0)
    assert env.game_state != first  # seed 0 is a seed like any other


def test_copies_are_independent():
    env = ENV_MODULE.env(num_players=2)
    env.reset(seed=1)
    for _ in range(5):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    twin = copy.deepcopy(env)
    before = env.game_state
    twin.step(int(np.flatnonzero(twin.observe(twin.agent_selection)["action_mask"])[-1]))
    assert env.game_state is before and twin.game_state != before
    assert env.rules.state_to_dict(before) == env.rules.state_to_dict(env.game_state)


def test_illegal_actions_under_both_policies():
    env = ENV_MODULE.env(num_players=2, illegal_action="raise")
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match=r"player_0 chose illegal action 5 .*legal ids: \[0, 1\]"):
        env.step(5)
    with pytest.raises(ValueError, match="out of range"):
        env.step(10_000)
    env = ENV_MODULE.env(num_players=2)
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="illegal action 5"):
        env.step(5)
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0} and all(env.terminations.values())
    par = ENV_MODULE.parallel_env(num_players=2)
    par.reset(seed=0)
    with pytest.raises(ValueError, match=r"no action for player_1"):
        par.step({"player_0": 0})
    with pytest.warns(UserWarning, match="player_1 chose illegal action 7"):
        _, rewards, terms, _, infos = par.step({"player_0": 0, "player_1": 7})
    assert rewards == {"player_0": 0.0, "player_1": -1.0} and infos["player_0"]["offenders"] == ["player_1"]
    assert par.agents == []
    par = ENV_MODULE.parallel_env(num_players=2, illegal_action="raise")
    par.reset(seed=0)
    with pytest.raises(IllegalActionError):
        par.step({"player_0": 0, "player_1": 7})
    assert par.game_state.choices == (-1, -1)  # nothing applied


def test_bad_env_arguments_name_the_value():
    with pytest.raises(ValueError, match="num_players=7"):
        ENV_MODULE.env(num_players=7)
    with pytest.raises(ValueError, match="render_mode='rgb'"):
        ENV_MODULE.parallel_env(render_mode="rgb")
    with pytest.raises(ValueError, match=r"unknown Yaxha option\(s\) \['speed'\]"):
        ENV_MODULE.raw_env(speed=3)


def _board_cells(lines: list[str], header: int) -> dict[tuple[int, int, int], str]:
    """Read one seat's pyramid picture back: ``(x, y, z) -> letter`` (``.`` empty, ``+`` marked)
    from the labelled grid (level names, then the x labels, then rows starting with their y label)."""
    names = lines[header + 1]
    starts = [names.index(f"L{z + 1}") for z in range(4)] + [len(names) + 99]
    xs = lines[header + 2]
    cells = {}
    for row in lines[header + 3 :]:
        if not row.startswith("  ") or not row.strip():
            break
        for z in range(4):
            block = row[starts[z] : starts[z + 1]].rstrip()
            if not block.strip():
                continue
            y, letters = int(block.split()[0]), block[2:]
            for k, letter in enumerate(letters):
                if letter != " ":
                    cells[(int(xs[starts[z] + 2 + k]), y, z)] = letter
    return cells


@pytest.mark.parametrize("footprint", ["fixed", "floating"])
def test_ansi_render_labels_rows_and_columns_in_the_notations_coordinates(footprint):
    env = ENV_MODULE.env(num_players=2, render_mode="ansi", footprint=footprint)
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    placed = 0
    while not all(env.terminations.values()):
        action = _random_action(env.observe(env.agent_selection), rng)
        move = env.rules.table.decode(action)
        env.step(action)
        if move[0] != "pick" and env.game_state.phase != BUILD:  # a round's building just ended
            text = env.render()
            lines = text.splitlines()
            for seat in range(2):
                header = next(i for i, line in enumerate(lines) if line.startswith(f"player_{seat}  initiative"))
                cells = _board_cells(lines, header)
                pyramid = env.game_state.pyramids[seat]
                for cell, colour in enumerate(pyramid):
                    if colour >= 0:  # every cube shows at its notation coordinates
                        assert cells[env.rules.geometry.coords[cell]] == "OBGYW"[colour]
                        placed += 1
    assert placed > 100 and "board: row y, column x" in text and "scores: player_0" in env.render()


@pytest.mark.parametrize("footprint", ["fixed", "floating"])
def test_the_text_board_shows_and_marks_every_legal_cell(footprint):
    """In the building, every cell where the seat's cubes in hand may go (also a base cell
    that widens the footprint beyond the last window) is on its board, drawn ``+``, and no
    other cell is."""
    env = ENV_MODULE.env(num_players=2, render_mode="ansi", footprint=footprint, render_observer=0)
    env.reset(seed=4)
    rng = np.random.default_rng(1)
    checked = wide = 0
    while not all(env.terminations.values()):
        state = env.game_state
        if state.phase == BUILD and env.agent_selection == "player_0":
            lines = env.render().splitlines()
            header = next(i for i, line in enumerate(lines) if line.startswith("player_0  initiative"))
            cells = _board_cells(lines, header)
            coords = env.rules.geometry.coords
            hand, pyramid = state.hands[0], state.pyramids[0]
            legal = {coords[c] for colour in range(5) if hand[colour] for c in env.rules.legal_cells(pyramid, colour)}
            assert {xyz for xyz, letter in cells.items() if letter == "+"} == legal
            wide += len({x for x, _, z in cells if z == 0}) > 4
            checked += 1
        env.step(_random_action(env.observe(env.agent_selection), rng))
    assert checked == 30 and (wide > 0 or footprint == "fixed")  # 10 rounds x 3 cubes


def _pick(mask, rng):
    legal = np.flatnonzero(mask)
    assert legal.size, "an agent asked to act has an all-zero action mask"
    return int(rng.choice(legal))


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_the_ordinary_random_loop_never_meets_an_all_zero_mask(num_players):
    """Parallel, our AEC env and PettingZoo's AEC view of the Parallel env (which asks every
    agent in turn): every agent asked to act has a legal action; waiting agents only WAIT."""
    rng = np.random.default_rng(num_players)
    waits = 0
    for seed in range(12 if num_players == 4 else 4):
        par = ENV_MODULE.parallel_env(num_players=num_players)
        obs, _ = par.reset(seed=seed)
        while par.agents:
            acting = par.acting_agents()
            for agent in par.agents:
                if agent not in acting:
                    waits += 1
                    assert np.flatnonzero(obs[agent]["action_mask"]).tolist() == [WAIT]
            obs, *_ = par.step({agent: _pick(obs[agent]["action_mask"], rng) for agent in par.agents})
        for env in (
            ENV_MODULE.env(num_players=num_players),
            parallel_to_aec(ENV_MODULE.parallel_env(num_players=num_players)),
        ):
            env.reset(seed=seed)
            for _agent in env.agent_iter():
                observation, _, terminated, truncated, _ = env.last()
                env.step(None if terminated or truncated else _pick(observation["action_mask"], rng))
    if num_players == 4:
        assert waits > 0  # the test met clashes with waiting agents


def test_a_waiting_agent_sends_the_wait_id_or_nothing():
    par = ENV_MODULE.parallel_env(num_players=4, illegal_action="raise")
    par.reset(seed=1)
    par.step(dict.fromkeys(par.agents, 0))  # everyone picks tile 0: a four-way clash
    assert par.game_state.phase == PENDING
    acting = par.acting_agents()
    idle = [agent for agent in par.agents if agent not in acting]
    assert len(acting) == 1 and len(idle) == 3
    legal = int(np.flatnonzero(par.observe(acting[0])["action_mask"])[0])
    with pytest.raises(
        IllegalActionError, match=rf"{idle[0]} waits in this step and chose 2; its only legal id is {WAIT}"
    ):
        par.step({acting[0]: legal, idle[0]: 2})
    before = par.game_state
    par.step({acting[0]: legal, idle[0]: WAIT, idle[1]: None})  # idle[2] left out: also a wait
    assert par.game_state != before and par.game_state.phase == PENDING
