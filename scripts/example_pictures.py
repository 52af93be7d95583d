"""Write the README's example pictures (docs/images/*.png) from seeded random games.

Each picture is the position part-way through a game between random bots, drawn for one
seat's view (or everything) with the same caption as a ``maya-replay`` frame. Run from the
repository root: ``.venv/bin/python scripts/example_pictures.py`` (needs Pillow).
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from maya_envs.bots import make_bot
from maya_envs.captions import move_caption
from maya_envs.records import make_env

PICTURES = (
    # file, game, options, observer, seed, fraction of the game played
    ("maya2012_2p", "maya2012", {"num_players": 2}, None, 3, 0.4),
    ("maya2012_3p_player1", "maya2012", {"num_players": 3}, 1, 5, 0.5),
    ("maya_quarry_4p_player0", "maya_quarry", {"num_players": 4}, 0, 1, 0.45),
    ("yaxha_3p_player0", "yaxha", {"num_players": 3}, 0, 2, 0.5),
)


def play(env, seed: int) -> list[tuple]:
    """``(state, action)`` of every move of one random game."""
    env.reset(seed=seed)
    bots = [make_bot("random", env.rules, seed * 10 + s) for s in range(env.rules.spec.num_players)]
    moves = []
    for agent in env.agent_iter():
        _obs, _r, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = bots[env.seat_of(agent)].act(env.game_state)
        moves.append((env.game_state, action))
        env.step(action)
    return moves


def main() -> None:
    out = Path("docs/images")
    out.mkdir(parents=True, exist_ok=True)
    for name, game, options, observer, seed, fraction in PICTURES:
        env = make_env(game, render_mode="rgb_array", render_observer=observer, **options)
        moves = play(env, seed)
        index = int(len(moves) * fraction)
        env.reset(seed=seed)
        for _state, action in moves[:index]:
            env.step(action)
        before, action = moves[index - 1]
        caption = move_caption(env.rules, before, action, observer, index, len(moves))
        Image.fromarray(env.picture(caption=[caption]).array()).save(out / f"{name}.png", optimize=True)
        print(out / f"{name}.png")


if __name__ == "__main__":
    main()
