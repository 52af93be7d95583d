"""Write the README's pictures (docs/images/*.png): the tests never write into the checkout.

* The rendered boards: each picture is the position part-way through a seeded game between
  random bots, drawn for one seat's view (or everything) with the same caption as a
  ``maya-replay`` frame (needs Pillow).
* ``--web``: the maya-web screenshots (``web_<game>.png``), taken by the browser tests
  (``tests/test_web_browser.py``, headless Chromium, the ``browser`` extra) with
  ``MAYA_SCREENSHOTS`` set to the output folder, so the README shows what the tests play.

Usage (from anywhere): ``.venv/bin/python scripts/example_pictures.py [--web] [--out DIR]``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from maya_envs.bots import make_bot
from maya_envs.captions import move_caption
from maya_envs.records import make_env

ROOT = Path(__file__).resolve().parents[1]

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


def board_pictures(out: Path) -> None:
    """The rendered boards of :data:`PICTURES`, as ``out/<name>.png``."""
    from PIL import Image

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


def web_pictures(out: Path) -> int:
    """The browser tests' screenshots written to ``out`` (their exit status)."""
    out.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_web_browser.py",
               "-k", "whole_game", "-o", "addopts="]  # fmt: skip
    environment = {**os.environ, "MAYA_SCREENSHOTS": str(out.resolve()), "MAYA_REQUIRE_BROWSER": "1"}
    status = subprocess.run(command, cwd=ROOT, env=environment).returncode
    for shot in sorted(out.glob("web_*.png")):
        print(shot)
    return status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images", help="folder (default: docs/images)")
    parser.add_argument("--web", action="store_true", help="also the maya-web screenshots (headless Chromium)")
    args = parser.parse_args(argv)
    board_pictures(args.out)
    return web_pictures(args.out) if args.web else 0


if __name__ == "__main__":
    sys.exit(main())
