"""The replay's result line of a Maya (2012) game: the winner, the victory points and why it ended
(the captions of every game: tests/test_captions.py)."""

from __future__ import annotations

from maya_envs.bots import make_bot
from maya_envs.captions import result_line
from maya_envs.records import make_env


def test_result_line_names_the_winner_the_scores_and_the_reason():
    env = make_env("maya2012", num_players=2, max_turns=6)
    env.reset(seed=1)
    bots = [make_bot("random", env.rules, s) for s in range(2)]
    while not any(env.terminations.values()) and not any(env.truncations.values()):
        env.step(bots[env.seat_of(env.agent_selection)].act(env.game_state))
    rewards = {a: float(env.rewards[a]) for a in env.agents}
    assert len(rewards) == 2
    line = result_line(env.rules, env.game_state, rewards, env.infos["player_0"])
    assert line.startswith("result: ") and "victory points: player_0" in line and "ended: " in line
    assert "max_turns" in line  # the reason: 6 exchanges played
    assert ("draw" in line) == (len(set(rewards.values())) == 1)
    illegal = result_line(env.rules, env.game_state, rewards, {"illegal_action": "x", "offender": "player_1"})
    assert illegal.endswith("ended: player_1 chose an illegal action")
