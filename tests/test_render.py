"""Pictures (``render_mode="rgb_array"``) of every game: shape, dtype, content, and per-seat
views that do not change when what the seat cannot know is resampled."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("PIL")

from maya_envs.games import DEFAULT_GAME, GAMES  # noqa: E402
from maya_envs.records import make_env  # noqa: E402
from tests.helpers.render import legend_texts, random_states, svg_facts

from .conformance import ALL_CASES, case_id  # noqa: E402


def _cases() -> list[tuple[str, dict]]:
    """Every game at its smallest player count (its default variant) and in its last variant,
    at its largest count (the default game: at its smallest, and its default at every count).
    What a seat's picture hides is each game's own test (``tests/<key>/test_render_views.py``)."""
    out = []
    for key, game in GAMES.items():
        out.append((key, {"num_players": game.player_counts[0]}))
        if game is DEFAULT_GAME:
            out += [(key, {"num_players": n}) for n in game.player_counts[1:]]
        last = list(game.hook("variants"))[-1]
        n = game.player_counts[0 if game is DEFAULT_GAME else -1]
        out.append((key, {"num_players": n, game.variant_option: last}))
    return out


CASES = _cases()


def assert_picture(frame) -> None:
    assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8
    assert frame.ndim == 3 and frame.shape[1] == 800 and frame.shape[2] == 3 and 300 <= frame.shape[0] <= 1200
    sample = frame[::3, ::3].reshape(-1, 3).astype(np.int64)
    colours = np.unique(sample @ np.array([1 << 16, 1 << 8, 1]))
    assert len(colours) > 20, "the picture is almost blank"
    assert sample.std() > 20


@pytest.mark.parametrize(("game", "options"), CASES, ids=[case_id(c) for c in CASES])
def test_rgb_array_shape_dtype_and_content(game, options):
    env = make_env(game, render_mode="rgb_array", **options)
    assert "rgb_array" in env.metadata["render_modes"]
    env.reset(seed=1)
    first = env.render()
    assert_picture(first)
    for state in random_states(env, seed=2, every=25):
        env.game_state = state
        for observer in (None, 0):
            env.render_observer = observer
            frame = env.render()
            assert_picture(frame)
            assert frame.shape == first.shape, "the picture size must not change during a game (GIF frames)"


@pytest.mark.parametrize(("game", "options"), ALL_CASES, ids=[case_id(c) for c in ALL_CASES])
def test_every_frame_of_a_game_has_one_shape(game, options):
    """GIF frames and video recorders need one frame size for a whole game: every state of a
    random game (the first and the last included), from every seat and the spectator, draws a
    picture of the first frame's size, whatever the game or variant has dealt or built by then.
    Every state is measured on its :class:`~maya_envs.drawing.Canvas` (the ``rgb_array`` frame
    is drawn from it, checked on the first and the last frame): Pillow on every state of 19
    games would take minutes."""
    env = make_env(game, render_mode="rgb_array", **options)
    env.reset(seed=3)
    first = env.render()
    observers = [None, *range(env.rules.spec.num_players)]
    states = list(random_states(env, seed=3, every=1))
    for index, state in enumerate(states):
        env.game_state = state
        for observer in observers:
            env.render_observer = observer
            picture = env.picture()
            assert (picture.height, picture.width, 3) == first.shape, (index, observer, state)
    env.render_observer = None
    assert env.render().shape == first.shape  # the last state, drawn


def test_rgb_array_needs_an_image_renderer():
    from maya_envs.aec_base import RulesAECEnv

    env = make_env(DEFAULT_GAME.key)
    with pytest.raises(ValueError, match="needs a picture renderer"):
        RulesAECEnv(env.rules, lambda state, seat: "", render_mode="rgb_array")


def test_importing_the_games_does_not_import_pillow():
    modules = ", ".join(game.env_module for game in GAMES.values())
    code = f"import sys, {modules}; print('PIL' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


@pytest.mark.parametrize("bad", [-1, 3, "player_7", True, 1.5])
def test_a_bad_render_observer_is_refused_at_construction_and_assignment(bad):
    from maya_envs.core.errors import ConfigError

    with pytest.raises(ConfigError, match=r"render_observer=.*; allowed: None, a seat 0..2 or an agent name"):
        DEFAULT_GAME.make_aec_env(num_players=3, render_observer=bad)
    env = DEFAULT_GAME.make_aec_env(num_players=3, render_observer="player_1")
    assert env.render_observer == 1  # an agent name means its seat
    with pytest.raises(ConfigError, match=r"render_observer="):
        env.render_observer = bad


# -- SVG: the same layout as the PNG ------------------------------------------------------------


@pytest.mark.parametrize(("game", "options"), CASES, ids=[case_id(c) for c in CASES])
def test_svg_is_the_same_layout_as_the_png(game, options):
    png = make_env(game, render_mode="rgb_array", **options)
    svg = make_env(game, render_mode="svg", **options)
    assert "svg" in svg.metadata["render_modes"]
    for env in (png, svg):
        env.reset(seed=4)
    for state in random_states(png, seed=5, every=40):
        for observer in (None, 0):
            for env in (png, svg):
                env.game_state, env.render_observer = state, observer
            picture = svg.picture()
            text = svg.render()
            assert text == picture.svg() and text._repr_svg_() == text  # notebooks show it as a picture
            width, height, texts, _keys = svg_facts(text)
            frame = png.render()
            assert (height, width) == frame.shape[:2]
            assert texts == sorted(p["text"] for kind, p in picture.shapes if kind == "text")
            assert np.array_equal(frame, picture.array())


@pytest.mark.parametrize(("game", "options"), CASES, ids=[case_id(c) for c in CASES])
def test_every_legal_move_has_its_targets_in_the_movers_svg(game, options):
    """What a page needs to take a move by clicks: each target key of a legal action is on the
    mover's own picture."""
    from maya_envs.web.games import action_targets

    env = make_env(game, render_mode="svg", **options)
    env.reset(seed=6)
    with_targets = 0
    for state in random_states(env, seed=6, every=7):
        if env.rules.is_terminal(state):
            continue
        seat = env.rules.current_player(state)
        env.game_state, env.render_observer = state, seat
        keys = svg_facts(env.render())[3]
        for action in env.rules.legal_actions(state):
            targets = action_targets(env.rules, state, action)
            assert set(targets) <= keys, (env.rules.action_to_string(action), set(targets) - keys)
            with_targets += bool(targets)
    assert with_targets > 20


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_picture_has_a_legend(game):
    texts = legend_texts(game)
    assert "legend:" in texts and len(texts) > 10
