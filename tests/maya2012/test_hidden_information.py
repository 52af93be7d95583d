"""Hidden information in the 3-4 player variants: resample what a seat cannot know (the
other hands and the face-down pair) consistently with what it knows (its own cards, the
face-up centre card, the board); its observation, mask, rendered view and the heuristic
bot's choice for it must not change, and ``info`` stays empty until the end."""

from __future__ import annotations

import numpy as np
import pytest

from maya_envs.bots import RandomBot
from maya_envs.maya2012.bots import HeuristicBot
from maya_envs.maya2012.observation import observe
from maya_envs.maya2012.render import render_text
from maya_envs.maya2012.rules import DECLARE, Maya2012Rules
from tests.conformance import env_module, play_states
from tests.maya2012.hidden import resample_hidden

ENV_MODULE = env_module("maya2012")
GAMES = 200


def views(rules, state, seat, bot_seed):
    to_move = rules.current_player(state) == seat
    mask = rules.legal_mask(state) if to_move else np.zeros(rules.spec.num_actions, np.int8)
    choice = HeuristicBot(rules, bot_seed).act(state) if to_move else None
    return observe(rules, state, seat), mask, render_text(rules, state, seat), choice


@pytest.mark.parametrize("n", [3, 4])
def test_resampled_hands_do_not_change_a_seats_view(n):
    rules = Maya2012Rules({"num_players": n, "max_turns": 150})
    rng = np.random.default_rng(n)
    changed = declare_checked = 0
    for game in range(GAMES):
        bots = [(HeuristicBot if seat % 2 == game % 2 else RandomBot)(rules, 10 * game + seat) for seat in range(n)]
        for index, state in enumerate(play_states(rules, bots, np.random.default_rng(game))):
            if rules.current_player(state) < 0:
                break
            if index % 15 and state.phase != DECLARE:
                continue
            declare_checked += state.phase == DECLARE
            for observer in range(n):
                other = resample_hidden(state, observer, rng)
                changed += other.tasks != state.tasks
                obs, mask, text, choice = views(rules, state, observer, bot_seed=game)
                obs2, mask2, text2, choice2 = views(rules, other, observer, bot_seed=game)
                assert np.array_equal(obs, obs2), f"seat {observer}'s observation depends on hidden cards"
                assert np.array_equal(mask, mask2), f"seat {observer}'s mask depends on hidden cards"
                assert text == text2, f"seat {observer}'s render depends on hidden cards"
                assert choice == choice2, f"the heuristic bot at seat {observer} reads hidden cards"
                for hidden_seat in range(n):
                    if hidden_seat != observer:
                        assert f"player_{hidden_seat} task cards" not in text
    assert changed > GAMES and declare_checked > 20


@pytest.mark.parametrize("n", [3, 4])
def test_info_is_empty_during_play_and_reveals_every_card_at_the_end(n):
    env = ENV_MODULE.env(num_players=n)
    for seed in range(5):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                state = env.game_state
                assert info["tasks"] == [list(hand) for hand in state.tasks]
                assert info["spare"] == list(state.spare) and info["centre_card"] == state.towers[4][0]
                env.step(None)
                continue
            assert info == {} and all(i == {} for i in env.infos.values())
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_seat_render_shows_only_its_own_hand_and_spectator_sees_all():
    env = ENV_MODULE.env(num_players=3, render_mode="ansi")
    env.reset(seed=1)
    state = env.game_state
    env.render_observer = 1
    text = env.render()
    assert f"player_1 task cards: {list(state.tasks[1])}" in text
    assert "player_0 task cards" not in text and "face-down" not in text
    assert f"centre card (face up): {state.towers[4][0]}" in text
    env.render_observer = None
    spectator = env.render()
    assert all(f"player_{s} task cards: {list(state.tasks[s])}" in spectator for s in range(3))
    assert f"face-down cards: {list(state.spare)}" in spectator
