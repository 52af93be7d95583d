"""PettingZoo conformance, reward ledger, determinism and rendering of the Maya (Abacusspiele 2003)
PettingZoo module (``GAMES["maya_quarry"].env_module``)."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import seed_test

from maya_envs.core.errors import ConfigError, IllegalActionError

from ..conformance import env_module, warnings_as_errors

ENV_MODULE = env_module("maya_quarry")
PLAYER_COUNTS = (3, 4, 5)


VARIANTS = ("basic", "advanced")


@pytest.mark.parametrize("n", PLAYER_COUNTS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_seed_test_with_a_random_first_start_player(n, variant):
    """The drawn first start player (the default start: tests/test_conformance.py)."""
    with warnings_as_errors():
        seed_test(
            lambda: ENV_MODULE.env(num_players=n, first_start_player="random", variant=variant), num_cycles=300
        )


def _play_env(env, seed):
    """Random masked play; returns (steps, per-agent reward totals, steps that paid a reward
    before the end, the final info of each agent)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    nonzero_steps = 0
    steps = 0
    final_infos = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            final_infos[agent] = info
            env.step(None)
            continue
        if any(env.rewards.values()):
            nonzero_steps += 1
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps, totals, nonzero_steps, final_infos


@pytest.mark.parametrize("n", PLAYER_COUNTS)
@pytest.mark.parametrize("scheme", ["win_loss", "gold_diff"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_reward_ledger_zero_sum_paid_once(n, scheme, variant):
    env = ENV_MODULE.env(num_players=n, reward_scheme=scheme, variant=variant)
    for seed in range(5):
        steps, totals, nonzero_before_end, infos = _play_env(env, seed)
        assert nonzero_before_end == 0
        assert abs(sum(totals.values())) < 1e-9
        assert any(totals.values()) or scheme == "win_loss"
        expected = env.rules.returns(env.game_state)
        assert [totals[a] for a in env.possible_agents] == pytest.approx(expected.tolist())
        info = infos[env.possible_agents[0]]
        assert all(i == info for i in infos.values())
        assert set(info) >= {"gold", "pool", "winners"}
        assert steps <= env.spec_card.max_game_length
        low, high = env.spec_card.reward_range
        assert all(low <= r <= high for r in totals.values())
        if scheme == "win_loss":
            winners = info["winners"]
            for seat, agent in enumerate(env.possible_agents):
                if len(winners) < n:
                    assert (totals[agent] > 0) == (seat in winners)


def test_win_loss_values_and_tie_break_by_pool():
    env = ENV_MODULE.env(num_players=4)
    rules = env.rules
    s = rules.initial_state().clone()
    s.phase, s.actor = 10, -1  # OVER
    s.gold = [30, 30, 10, 5]
    s.pool = [12, 9, 1, 1]
    assert rules.returns(s).tolist() == [-1 / 3, 1.0, -1 / 3, -1 / 3]
    s.pool = [9, 9, 1, 1]
    assert rules.returns(s).tolist() == [0.5, 0.5, -0.5, -0.5]


@pytest.mark.parametrize(("n", "variant"), [(5, "basic"), (3, "advanced"), (4, "advanced")])
def test_determinism_by_seed(n, variant):
    env_a = ENV_MODULE.env(num_players=n, first_start_player="random", variant=variant)
    env_b = ENV_MODULE.env(num_players=n, first_start_player="random", variant=variant)
    a = _play_env(env_a, 7)
    b = _play_env(env_b, 7)
    assert a == b and env_a.game_state == env_b.game_state


def test_illegal_action_policies():
    env = ENV_MODULE.env(num_players=3, illegal_action="raise")
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match=f"action {illegal}"):
        env.step(illegal)
    with pytest.raises(ValueError, match="out of range"):
        env.step(114)
    env = ENV_MODULE.env(num_players=3)
    env.reset(seed=0)
    offender = env.agent_selection
    with pytest.warns(UserWarning, match="illegal action"):
        env.step(illegal)
    assert env.rewards[offender] == -1.0 and all(env.terminations.values())


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"num_players": 2}, "num_players=2"),
        ({"num_players": 6}, "num_players=6"),
        ({"colour": "red"}, "unknown Maya \\(Abacusspiele 2003\\) option\\(s\\) \\['colour'\\]"),
        ({"reward_scheme": "elo"}, "reward_scheme='elo'"),
        ({"variant": "expert"}, "variant='expert'"),
        ({"first_start_player": 3}, "first_start_player=3"),
        ({"bonus_block_recipient": "all"}, "bonus_block_recipient='all'"),
        ({"gold_diff_scale": 0}, "gold_diff_scale=0"),
    ],
)
def test_bad_options_rejected(options, match):
    with pytest.raises(ConfigError, match=match):
        ENV_MODULE.env(**options)


def test_render_ansi_marks_table_non_canonical_and_hides_values():
    env = ENV_MODULE.env(num_players=3, render_mode="ansi", render_observer=0)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    while env.rules.current_player(env.game_state) >= 0 and env.game_state.phase != 2 and env.game_state.round == 0:
        if env.game_state.phase == 1 and sum(len(c) for c in env.game_state.columns) >= 6:
            break
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    text = env.render()
    assert "NON-CANONICAL" in text
    state = env.game_state
    hidden = [(o, c) for col in state.columns for o, c in col if o != 0]
    assert hidden and ("?L" in text or "?H" in text)
