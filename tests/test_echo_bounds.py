"""A 1 MiB name or value given to an entry point comes back in its error message shortened
(:func:`maya_envs.core.errors.shorten`), never whole (issue 44: player specs, bot settings, env
ids, OpenSpiel parameters and training options echoed their input unbounded). A message may
list the names that are allowed, so the bound is a few hundred characters, not the input's
size."""

from __future__ import annotations

import re

import gymnasium as gym
import pytest

import maya_envs  # noqa: F401  (registers the ids)
from maya_envs import players
from maya_envs.bots.guided import GuidedConfig
from maya_envs.bots.mcts import MCTSConfig
from maya_envs.evaluation.arena import seating_plan
from maya_envs.games import DEFAULT_GAME, GAMES
from maya_envs.registration import resolve_env_id
from maya_envs.wrappers.opponents import make_opponent
from training.config import load_config
from training.config_names import split_override

HUGE = "x" * (1 << 20)
MAX_MESSAGE = 800
"""The longest message allowed: a few shortened values and the list of what is allowed."""
RULES = DEFAULT_GAME.make_rules({})
PREFIXES = ["", "random:", "heuristic:", "mcts:", "ismcts:", "az:", "policy:", "pretrained:", "checkpoint:", "./"]
GYM_ID = DEFAULT_GAME.gym_id


def assert_bounded(call) -> None:
    with pytest.raises(Exception) as caught:  # noqa: PT011 - each entry point has its own error type
        call()
    message = str(caught.value)
    assert len(message) < MAX_MESSAGE, message[:300]
    assert not re.search("x{200}", message), message[:300]


@pytest.mark.parametrize("prefix", PREFIXES)
def test_player_specs(prefix):
    spec = prefix + HUGE
    assert_bounded(lambda: players.check_player_spec(spec))
    assert_bounded(lambda: players.resolve_player(spec, RULES))
    assert_bounded(lambda: make_opponent(spec, RULES))


@pytest.mark.parametrize("suffix", ["", ".zip", ".pt"])
def test_checkpoint_files(suffix):
    assert_bounded(lambda: players.load_checkpoint(HUGE + suffix))
    assert_bounded(lambda: players.load_checkpoint("checkpoint:" + HUGE + suffix))


@pytest.mark.parametrize(
    "options",
    [{"opponents": HUGE}, {"opponents": {HUGE: 1.0}}, {"opponents": [HUGE]}, {"learner_seat": HUGE},
     {"reward_shaping": HUGE}, {"illegal_action": HUGE}],  # fmt: skip
    ids=lambda options: next(iter(options)),
)
def test_gym_make_options(options):
    assert_bounded(lambda: gym.make(GYM_ID, **options))


def test_env_ids_and_search_settings():
    assert_bounded(lambda: resolve_env_id(HUGE))
    assert_bounded(lambda: resolve_env_id("maya_envs/" + HUGE))
    assert_bounded(lambda: GuidedConfig(selection=HUGE))
    assert_bounded(lambda: MCTSConfig(rollout=HUGE))
    assert_bounded(lambda: seating_plan(2, 2, design=HUGE))


@pytest.mark.parametrize("key", sorted(GAMES))
def test_openspiel_parameters(key):
    """Each string parameter of each OpenSpiel game given a huge string (and a huge colon
    list): the value reaches our checks. OpenSpiel's own messages (an unknown parameter name, a
    value of another parameter type) are not ours to bound."""
    pyspiel = pytest.importorskip("pyspiel")
    import maya_envs.openspiel  # noqa: F401  (registers the games)

    name = f"maya_envs_{key}"
    parameters = pyspiel.load_game(name).get_parameters()
    for parameter in [p for p, default in parameters.items() if isinstance(default, str)]:
        for value in (HUGE, "1:" + HUGE):
            try:
                pyspiel.load_game(name, {parameter: value})
            except Exception as error:  # noqa: BLE001 - any refusal, as long as it is short
                assert len(str(error)) < MAX_MESSAGE and not re.search("x{200}", str(error)), parameter


@pytest.mark.parametrize(
    "overrides",
    [[HUGE], [f"eval_opponents=[{HUGE}]"], [f"opponents={{{HUGE}: 1}}"], [f"policy={HUGE}"], [f"env_id={HUGE}"],
     ["algo=exit", f"exit.search={{selection: {HUGE}}}"], ["algo=exit", f"exit.gate_opponents=[{HUGE}]"],
     ["algo=exit", f"exit.imitation={HUGE}"], [f"algo={HUGE}"]],  # fmt: skip
    ids=lambda items: items[-1][:24],
)
def test_training_options(overrides):
    assert_bounded(lambda: load_config(None, overrides))


def test_override_syntax():
    assert_bounded(lambda: split_override(HUGE))
