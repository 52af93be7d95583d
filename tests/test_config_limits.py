"""Training config fields that size processes, memory or work have documented upper bounds
(:data:`training.config.LIMITS`, :data:`training.exit.config.EXIT_LIMITS`): a value past one is a
ConfigError naming the key, refused by ``--dry-run`` before anything starts."""

from __future__ import annotations

import pytest

from maya_envs.core.errors import ConfigError
from training.config import LIMITS, MAX_NET_DEPTH, MAX_NET_WIDTH, load_config
from training.exit.config import EXIT_LIMITS

PPO_KEYS = sorted(LIMITS)
EXIT_KEYS = sorted(f"exit.{key}" for key in EXIT_LIMITS)


def _limit(key: str) -> int:
    return EXIT_LIMITS[key.removeprefix("exit.")] if key.startswith("exit.") else LIMITS[key]


def _config(key: str, value, tmp_path):
    algo = "exit" if key.startswith("exit.") else "ppo"
    path = tmp_path / "c.yaml"
    path.write_text(f"algo: {algo}\n")
    return load_config(path, [f"{key}={value}"])


@pytest.mark.parametrize("key", PPO_KEYS + EXIT_KEYS)
def test_one_past_the_limit_is_refused_naming_the_key(key, tmp_path):
    with pytest.raises(ConfigError, match=rf"^{key}={_limit(key) + 1}; allowed: .*int.*, at most {_limit(key):_}$"):
        _config(key, _limit(key) + 1, tmp_path)


@pytest.mark.parametrize("key", PPO_KEYS + EXIT_KEYS)
def test_the_limit_itself_is_accepted(key, tmp_path):
    config = _config(key, _limit(key), tmp_path)
    section, _, name = key.rpartition(".")
    assert getattr(getattr(config, section) if section else config, name) == _limit(key)


def test_the_testers_n_envs_is_refused_by_dry_run(tmp_path, capsys):
    from training.train import main

    path = tmp_path / "c.yaml"
    path.write_text("n_envs: 100000\n")
    with pytest.raises(SystemExit) as caught:
        main(["--config", str(path), "--dry-run"])
    assert caught.value.code == 2 and "n_envs=100000; allowed: a positive int, at most 1_024" in capsys.readouterr().err


@pytest.mark.parametrize("arch", [[MAX_NET_WIDTH + 1], [8] * (MAX_NET_DEPTH + 1), [], [0]])
def test_net_arch_is_bounded_in_width_and_depth(arch, tmp_path):
    with pytest.raises(
        ConfigError, match=rf"^net_arch=.*\(at most {MAX_NET_DEPTH} of them, each at most {MAX_NET_WIDTH}\)$"
    ):
        _config("net_arch", arch, tmp_path)


def test_a_refit_seed_is_bounded_as_the_config_seed_before_any_run_is_read(tmp_path):
    from training.exit.refit import refit

    with pytest.raises(ConfigError, match=rf"^seed={LIMITS['seed'] + 1}; allowed: an int >= 0, at most 4_294_967_295$"):
        refit(tmp_path / "no_run", [1, LIMITS["seed"] + 1])
