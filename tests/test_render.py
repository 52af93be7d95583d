"""Pictures (``render_mode="rgb_array"``) of every game: shape, dtype, content, and per-seat
views that do not change when what the seat cannot know is resampled."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("PIL")

from maya_envs.bots import make_bot  # noqa: E402
from maya_envs.maya2012.render_image import render_image as maya2012_image  # noqa: E402
from maya_envs.maya_quarry.render_image import render_image as quarry_image  # noqa: E402
from maya_envs.records import make_env  # noqa: E402
from maya_envs.yaxha.render import render_text as yaxha_text  # noqa: E402
from maya_envs.yaxha.render_image import render_image as yaxha_image  # noqa: E402
from maya_envs.yaxha.rules import BUILD, SELECT  # noqa: E402

from .conformance import play_states  # noqa: E402
from .maya2012.test_hidden_information import resample_hidden as resample_maya2012  # noqa: E402
from .maya_quarry.test_hidden_information import resample_hidden as resample_quarry  # noqa: E402

CASES = [
    ("maya2012", {"num_players": 2}),
    ("maya2012", {"num_players": 3}),
    ("maya2012", {"num_players": 4}),
    ("maya2012", {"num_players": 2, "setup": "draft"}),
    ("maya_quarry", {"num_players": 3}),
    ("maya_quarry", {"num_players": 5, "variant": "advanced"}),
    ("yaxha", {"num_players": 2}),
    ("yaxha", {"num_players": 4, "footprint": "fixed"}),
]


def random_states(env, seed: int, every: int):
    """Every ``every``-th state of one random game of ``env``'s rules, and the last one."""
    rules = env.rules
    bots = [make_bot("random", rules, seed * 10 + s) for s in range(rules.spec.num_players)]
    states = list(play_states(rules, bots, np.random.default_rng(seed)))
    return states[::every] + [states[-1]]


def assert_picture(frame) -> None:
    assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8
    assert frame.ndim == 3 and frame.shape[1] == 800 and frame.shape[2] == 3 and 300 <= frame.shape[0] <= 1200
    sample = frame[::3, ::3].reshape(-1, 3).astype(np.int64)
    colours = np.unique(sample @ np.array([1 << 16, 1 << 8, 1]))
    assert len(colours) > 20, "the picture is almost blank"
    assert sample.std() > 20


@pytest.mark.parametrize(("game", "options"), CASES)
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


def test_rgb_array_needs_an_image_renderer():
    from maya_envs.aec_base import RulesAECEnv

    env = make_env("maya2012")
    with pytest.raises(ValueError, match="needs a picture renderer"):
        RulesAECEnv(env.rules, lambda state, seat: "", render_mode="rgb_array")


def test_importing_the_games_does_not_import_pillow():
    code = (
        "import sys, maya_envs.maya2012_v1, maya_envs.maya_quarry_v1, maya_envs.yaxha_v1; print('PIL' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


@pytest.mark.parametrize("n", [3, 4])
def test_maya2012_task_cards_of_others_do_not_change_a_seats_picture(n):
    env = make_env("maya2012", num_players=n)
    rng = np.random.default_rng(n)
    changed = 0
    for state in random_states(env, seed=n, every=20):
        for observer in range(n):
            other = resample_maya2012(state, observer, rng)
            if other.tasks == state.tasks:
                continue
            changed += 1
            mine = maya2012_image(env.rules, state, observer)
            assert np.array_equal(mine, maya2012_image(env.rules, other, observer))
            everything = maya2012_image(env.rules, state, None)
            assert not np.array_equal(everything, maya2012_image(env.rules, other, None))
    assert changed > 5


@pytest.mark.parametrize("variant", ["basic", "advanced"])
def test_quarry_face_down_values_do_not_change_a_seats_picture(variant):
    env = make_env("maya_quarry", num_players=4, variant=variant)
    rules = env.rules
    rng = np.random.default_rng(7)
    changed = 0
    for seed in range(2):
        for state in random_states(env, seed=seed, every=9):
            for observer in (0, 3):
                other = resample_quarry(state, observer, rng)
                if other == state:
                    continue
                changed += 1
                assert np.array_equal(quarry_image(rules, state, observer), quarry_image(rules, other, observer))
                if other.columns != state.columns:  # a face-down card changed: the referee sees it
                    assert not np.array_equal(quarry_image(rules, state, None), quarry_image(rules, other, None))
    assert changed > 15


def resample_yaxha(state, observer: int, rng: np.random.Generator):
    """Other seats' hidden data replaced: choices while choosing; while building, their hands,
    discards and the colours of the cubes they placed this round (any values: the picture must
    not read them). Outside the building, hands are empty and the discards public (every cube
    placed is revealed when the building ends), as everyone knows."""
    n = len(state.choices)
    choices, hands, discarded, pyramids = list(state.choices), list(state.hands), list(state.discarded), []
    for seat in range(n):
        pyramid = list(state.pyramids[seat])
        if seat != observer:
            if state.phase == SELECT and choices[seat] >= 0:
                choices[seat] = int(rng.integers(len(state.market)))
            if state.phase == BUILD:
                hands[seat] = tuple(int(k) for k in rng.integers(0, 3, 5))
                discarded[seat] = int(rng.integers(0, 10))
            for cell in state.fresh[seat]:
                pyramid[cell] = int(rng.integers(5))
        pyramids.append(tuple(pyramid))
    return dataclasses.replace(
        state, choices=tuple(choices), hands=tuple(hands), discarded=tuple(discarded), pyramids=tuple(pyramids)
    )


def test_yaxha_hidden_choices_and_fresh_cubes_do_not_change_a_seats_picture():
    env = make_env("yaxha", num_players=3)
    rules = env.rules
    rng = np.random.default_rng(3)
    for state in random_states(env, seed=3, every=5):
        for observer in range(3):
            other = resample_yaxha(state, observer, rng)
            assert np.array_equal(yaxha_image(rules, state, observer), yaxha_image(rules, other, observer))
            assert yaxha_text(rules, state, observer) == yaxha_text(rules, other, observer)


@pytest.mark.parametrize("bad", [-1, 3, "player_7", True, 1.5])
def test_a_bad_render_observer_is_refused_at_construction_and_assignment(bad):
    from maya_envs import maya2012_v1
    from maya_envs.core.errors import ConfigError

    with pytest.raises(ConfigError, match=r"render_observer=.*; allowed: None, a seat 0..2 or an agent name"):
        maya2012_v1.env(num_players=3, render_observer=bad)
    env = maya2012_v1.env(num_players=3, render_observer="player_1")
    assert env.render_observer == 1  # an agent name means its seat
    with pytest.raises(ConfigError, match=r"render_observer="):
        env.render_observer = bad


# -- SVG: the same layout as the PNG ------------------------------------------------------------


def svg_facts(svg: str):
    """``(width, height, texts, keys)`` of an SVG picture; it must parse as XML."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    texts = sorted(t.text or "" for t in root.iter(f"{ns}text"))
    keys = {e.get("data-key") for e in root.iter() if e.get("data-key") is not None}
    return int(root.get("width")), int(root.get("height")), texts, keys


@pytest.mark.parametrize(("game", "options"), CASES)
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


@pytest.mark.parametrize(("game", "options"), CASES)
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


def svg_unchanged_by_resampling(env, states, observers, resample, rng) -> int:
    """Assert a seat's SVG is the same after ``resample(state, observer, rng)``; the number of
    states where the resampling changed something."""
    changed = 0
    for state in states:
        for observer in observers:
            other = resample(state, observer, rng)
            changed += other != state
            env.render_observer = observer
            env.game_state = state
            mine = env.render()
            env.game_state = other
            assert env.render() == mine
    return changed


@pytest.mark.parametrize("n", [3, 4])
def test_maya2012_svg_of_a_seat_does_not_change_with_others_cards(n):
    env = make_env("maya2012", num_players=n, render_mode="svg")
    states = random_states(env, seed=n, every=20)
    assert svg_unchanged_by_resampling(env, states, range(n), resample_maya2012, np.random.default_rng(n)) > 5


def test_quarry_svg_of_a_seat_does_not_change_with_face_down_values():
    env = make_env("maya_quarry", num_players=4, variant="advanced", render_mode="svg")
    states = random_states(env, seed=1, every=9)
    assert svg_unchanged_by_resampling(env, states, (0, 3), resample_quarry, np.random.default_rng(8)) > 15


def test_yaxha_svg_of_a_seat_does_not_change_with_hidden_choices_and_fresh_cubes():
    env = make_env("yaxha", num_players=4, render_mode="svg")
    states = random_states(env, seed=9, every=6)
    assert svg_unchanged_by_resampling(env, states, range(4), resample_yaxha, np.random.default_rng(9)) > 15


@pytest.mark.parametrize("game", ["maya2012", "maya_quarry", "yaxha"])
def test_every_picture_has_a_legend(game):
    env = make_env(game, render_mode="svg")
    env.reset(seed=0)
    texts = svg_facts(env.render())[2]
    assert "legend:" in texts and len(texts) > 10
    expected = {"maya2012": "Raven", "maya_quarry": "face down", "yaxha": "empty cell"}[game]
    assert any(expected in t for t in texts), texts
