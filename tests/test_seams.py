"""The seams between the package's layers (issue 18 item 6): maya_envs never imports training,
opponent specs are resolved by registered prefixes, RLlib's env and trainer import each other
in no circle, gymnasium is imported only by the env modules, and every game has its README."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from maya_envs.games import DEFAULT_GAME, GAMES
from maya_envs.wrappers.opponents import make_opponent, register_resolver, resolver_for

ROOT = Path(__file__).resolve().parents[1]


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, at the top or inside a function."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return out


def test_the_package_never_imports_training():
    offenders = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "maya_envs").rglob("*.py"))
        if any(name == "training" or name.startswith("training.") for name in _imports(path))
    ]
    assert not offenders


def test_an_opponent_prefix_is_resolved_by_its_registered_resolver():
    rules = DEFAULT_GAME.make_rules({})
    seen = []

    def resolve(spec, rules_):
        seen.append((spec, rules_))
        return "heuristic"  # the resolver may answer with any other spec

    register_resolver("unit-test", resolve)
    opponent = make_opponent("unit-test:anything", rules, seed=0)
    assert seen == [("unit-test:anything", rules)] and opponent.spec == "heuristic"
    state = rules.initial_state(np.random.default_rng(0))
    assert opponent._bot.act(state) in rules.legal_actions(state)
    assert resolver_for("random") is None and resolver_for("mcts:20") is None
    assert resolver_for("pretrained") is not None


def test_rllib_specs_are_registered_by_the_training_package():
    import training  # noqa: F401  (registers rllib:)

    assert resolver_for("rllib:/no/such/checkpoint") is not None


def test_rllib_env_and_trainer_import_each_other_in_no_circle():
    env_imports = _imports(ROOT / "training" / "rllib_env.py")
    assert "training.rllib_train" not in env_imports and "maya_envs.games" in env_imports


def test_gymnasium_is_imported_only_by_env_modules():
    """The rules, bots, evaluation and records never need gymnasium; the env modules (AEC and
    Parallel bases, the registration, the single-agent view, a game's vector env, the SB3 model
    reader) do."""
    allowed = {
        "maya_envs/aec_base.py",
        "maya_envs/parallel_base.py",
        "maya_envs/registration.py",
        "maya_envs/wrappers/single_agent.py",
        "maya_envs/sb3_zip.py",  # the SB3 model reader: rebuilds a model's gymnasium spaces
        *(f"maya_envs/{key}/vector_env.py" for key in GAMES),
    }
    users = {
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "maya_envs").rglob("*.py"))
        if any(name == "gymnasium" or name.startswith("gymnasium.") for name in _imports(path))
    }
    assert users <= allowed, sorted(users - allowed)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_game_has_a_readme(key):
    text = (ROOT / "maya_envs" / key / "README.md").read_text(encoding="utf-8")
    game = GAMES[key]
    assert game.gym_id in text and game.name in text
    assert "## Action table" in text
