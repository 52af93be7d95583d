"""Publish a finished training run as a pretrained baseline inside the package.

Usage (one line per shipped agent)::

    python -m training.publish runs/<run> --name maya2012_2p --config maya2012/2p_long
    python -m training.publish runs/<exit run> --name maya2012_2p_exit --config maya2012/2p_exit
    python -m training.publish runs/<exit run> --name yaxha_2p_exit --config yaxha/2p_exit \
        --model runs/<exit run>/refits/seed_2.pt --matches match.json --default-spec policy:yaxha_2p_exit

A MaskablePPO run (``model.zip``): copies it to ``maya_envs/pretrained/<name>.zip`` with the
optimizer state reset (it is only needed to continue training, and Adam's moments double the
file). An expert-iteration run (``model.pt``, :func:`maya_envs.nn.model.save_network`): copies
the network to ``maya_envs/pretrained/<name>.pt`` (a ``"kind": "network"`` entry; it then plays
as ``pretrained:<name>``, ``policy:<name>`` and ``az:<name>``). Either way the registry entry
(game, spec, config name, steps, seed, seconds, evaluation) goes into
``maya_envs/pretrained/registry.json``, replacing an entry of the same name, with its manifest
fields (:mod:`maya_envs.pretrained.manifest`: the file's SHA-256, checked at every load, and the
training command), after checking that it fits the game table now; ``pyproject.toml`` ships
every ``.zip``/``.pt`` there in the wheel. ``python -m training.publish --refresh NAME`` rewrites
the manifest fields of a shipped entry for its file as it is (a deliberate replacement, or a
game version bump that left the observations as they were), after loading it as data.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import gymnasium as gym

import maya_envs  # noqa: F401  (registers the ids)
from maya_envs import pretrained
from maya_envs.cli import description
from maya_envs.core.errors import shorten
from maya_envs.pretrained.manifest import differences, file_sha256
from training.config import load_config

PACKAGE_DIR = Path(pretrained.__file__).parent
MAX_BYTES = 5 * 1024 * 1024  # issue 7: small files, at most 5 MB each


def publish(run_dir: Path, name: str, config_name: str, package_dir: Path = PACKAGE_DIR) -> dict:
    """Write ``<name>.zip`` and its registry entry into ``package_dir``; return the entry.

    Raises:
        ValueError: a run directory without ``model.zip``/``config.yaml``/``evaluation.json``,
            a name that is not a plain identifier, or a file over 5 MB.
    """
    if not name.isidentifier():
        raise ValueError(f"name {shorten(name)} must be a plain identifier (letters, digits, _)")
    if (run_dir / "model.pt").is_file() and not (run_dir / "model.zip").is_file():
        return publish_network(run_dir, name, config_name, package_dir)
    from maya_envs.sb3_zip import load_maskable_ppo

    for needed in ("model.zip", "config.yaml", "evaluation.json"):
        if not (run_dir / needed).is_file():
            raise ValueError(f"{str(run_dir)!r} has no {needed}; is it a finished maya-train run?")
    config = load_config(run_dir / "config.yaml")
    evaluation = json.loads((run_dir / "evaluation.json").read_text())
    model = load_maskable_ppo(run_dir / "model.zip", device="cpu")
    optimizer = model.policy.optimizer
    model.policy.optimizer = type(optimizer)(model.policy.parameters(), **optimizer.defaults)
    target = package_dir / f"{name}.zip"
    model.save(target)
    size = target.stat().st_size
    if size > MAX_BYTES:
        target.unlink()
        raise ValueError(f"{name}.zip would be {size} bytes; the limit is {MAX_BYTES}")

    spec = gym.make(config.env_id, **config.game_options).unwrapped.aec_env.spec_card
    entry = {
        "file": target.name,
        "game": spec.name,
        "num_players": spec.num_players,
        "num_actions": spec.num_actions,
        "observation_shape": list(spec.observation_shape),
        "env_id": config.env_id,
        "game_options": config.game_options,
        "config": config_name,
        "total_timesteps": int(evaluation["total_timesteps"]),
        "seed": config.seed,
        "train_seconds": round(float(evaluation["train_seconds"]), 1),
        "results": _results(evaluation),
    }
    return _write_entry(package_dir, name, entry)  # adds the manifest fields (sha256, training_command)


RESULT_KEYS = (
    "candidate", "opponent", "games", "wins", "draws", "losses", "win_rate", "win_rate_ci95", "win_rate_convention",
)  # fmt: skip


def _results(evaluation: dict) -> list[dict]:
    return [{key: r[key] for key in RESULT_KEYS if key in r} for r in evaluation["results"]]


def _write_entry(package_dir: Path, name: str, entry: dict) -> dict:
    """Write ``entry`` with its manifest fields (:mod:`maya_envs.pretrained.manifest`: the file's
    SHA-256, the training command) as registry entry ``name``, after checking that it fits the
    game table now; return it.

    Raises:
        ValueError: the entry's game, actions or observations are not the game's now.
    """
    entry = {**entry, "sha256": file_sha256(package_dir / entry["file"])}
    entry.setdefault("training_command", f"maya-train --config {entry['config']} --set seed={entry['seed']}")
    found = differences(entry, package_dir / entry["file"])
    if found:
        raise ValueError(f"entry {shorten(name)} does not fit the game now: {'; '.join(found)}")
    registry_path = package_dir / "registry.json"
    registry = json.loads(registry_path.read_text()) if registry_path.is_file() else {}
    registry[name] = entry
    registry_path.write_text(json.dumps(registry, indent=2) + "\n")
    return entry


def refresh(name: str, package_dir: Path = PACKAGE_DIR) -> dict:
    """Rewrite the manifest fields of the shipped entry ``name`` for its file as it is now (its
    SHA-256, and its game as the game table names it now), after checking that the file loads as
    data and fits the game: what a deliberate replacement or a version bump that left the
    observations as they were needs. Return the entry.

    Raises:
        ValueError: no such entry; a file that does not load or does not fit the game now.
    """
    from maya_envs.pretrained.manifest import current_game

    registry = json.loads((package_dir / "registry.json").read_text())
    if name not in registry:
        raise ValueError(f"no registry entry {shorten(name)}; known: {list(registry)}")
    entry = dict(registry[name])
    path = package_dir / entry["file"]
    if entry.get("kind") == "network":
        from maya_envs.nn.model import load_network

        _, meta = load_network(path)
        shape, actions = [int(meta["board_dim"])], int(meta["num_actions"])
    else:
        from maya_envs.sb3_zip import load_maskable_ppo

        model = load_maskable_ppo(path)
        shape, actions = list(model.observation_space.shape), int(model.action_space.n)
    now = current_game(entry["env_id"], entry.get("game_options", {}))
    if (shape, actions) != (now["observation_shape"], now["num_actions"]):
        raise ValueError(
            f"{entry['file']} takes observations {shape} and {actions} actions; {now['game']} gives "
            f"{now['observation_shape']} and {now['num_actions']}: retrain and publish it instead"
        )
    return _write_entry(package_dir, name, {**entry, "game": now["game"]})


def match_results(name: str, rows: list[dict]) -> list[dict]:
    """Registry result rows from :mod:`training.exit.match` rows (its ``--out`` file): the
    candidate named ``<name> (raw)`` or ``<name> (+N sims, leaf=L[, options])``, ``(pair)``
    added for a team, with the row's own draw convention.

    Raises:
        ValueError: a row without the match fields (``simulations``, ``opponent``, ``games``,
            ``wins``, ``draws``, ``win_rate``, ``win_rate_ci95``, ``win_rate_convention``).
    """
    needed = ("simulations", "opponent", "games", "wins", "draws", "win_rate", "win_rate_ci95", "win_rate_convention")
    out = []
    for row in rows:
        missing = [key for key in needed if key not in row] if isinstance(row, dict) else list(needed)
        if missing:
            raise ValueError(f"a match row without {missing}: {row!r}; expected rows of training.exit.match --out")
        search = "raw"
        if row["simulations"]:
            search = f"+{row['simulations']} sims, leaf={row.get('leaf') or 'net'}"
            search += f", {row['search']}" if row.get("search") else ""
        candidate = f"{name} ({search})" + (" (pair)" if row.get("pair") else "")
        losses = int(row["games"]) - int(row["wins"]) - int(row["draws"])
        out.append({"candidate": candidate, **{k: row[k] for k in RESULT_KEYS[1:] if k in row}, "losses": losses})
    return [{key: r[key] for key in RESULT_KEYS if key in r} for r in out]


def publish_network(
    run_dir: Path,
    name: str,
    config_name: str,
    package_dir: Path = PACKAGE_DIR,
    model: Path | None = None,
    matches: list[dict] | None = None,
    default_spec: str | None = None,
) -> dict:
    """Write ``<name>.pt`` (the run's ``model.pt``, or ``model``: another network of the run,
    e.g. ``networks/iter_0007.pt`` or a :mod:`training.exit.refit` seed) and its ``network``
    registry entry into ``package_dir``; return the entry. The run directory needs
    ``config.yaml`` (its ``env_id``, ``game_options``, ``seed``; a refit's meta ``seed``
    replaces it) and ``evaluation.json`` (``results``, ``train_seconds`` and ``total_timesteps``
    or ``positions``). ``matches``: :mod:`training.exit.match` rows of this network, the entry's
    results instead of the run's evaluation; ``default_spec``: what ``pretrained`` plays for
    the entry's game, player count and variant (:mod:`maya_envs.pretrained`).

    Raises:
        ValueError: a missing file, a name that is not a plain identifier, a file that is no
            network checkpoint, one over 5 MB, a bad match row, a ``default_spec`` that is not
            a non-empty string.
    """
    import shutil

    from maya_envs.games import find_game
    from maya_envs.nn.model import load_network
    from maya_envs.plain_yaml import load_yaml

    if not name.isidentifier():
        raise ValueError(f"name {shorten(name)} must be a plain identifier (letters, digits, _)")
    if default_spec is not None and (not isinstance(default_spec, str) or not default_spec.strip()):
        raise ValueError(f"default_spec={shorten(default_spec)}; allowed: an agent spec such as 'policy:{name}'")
    model = run_dir / "model.pt" if model is None else Path(model)
    for needed in (model, run_dir / "config.yaml", run_dir / "evaluation.json"):
        if not needed.is_file():
            raise ValueError(f"{str(needed)!r} not found; is {str(run_dir)!r} a finished maya-train exit run?")
    _, meta = load_network(model)  # refuses anything but a network checkpoint
    size = model.stat().st_size
    if size > MAX_BYTES:
        raise ValueError(f"{name}.pt would be {size} bytes; the limit is {MAX_BYTES}")
    config = load_yaml((run_dir / "config.yaml").read_text(), f"{str(run_dir)!r}/config.yaml") or {}
    evaluation = json.loads((run_dir / "evaluation.json").read_text())
    results = _results(evaluation) if matches is None else match_results(name, matches)
    target = package_dir / f"{name}.pt"
    shutil.copyfile(model, target)
    entry = {
        "kind": "network",
        "file": target.name,
        "game": find_game(meta["game"]).name,
        "num_players": int(meta["num_players"]),
        "num_actions": int(meta["num_actions"]),
        "observation_shape": [int(meta["board_dim"])],
        "env_id": config.get("env_id", find_game(meta["game"]).gym_id),
        "game_options": config.get("game_options", meta.get("game_options", {})),
        "config": config_name,
        "total_timesteps": int(evaluation.get("total_timesteps", evaluation.get("positions", 0))),
        "seed": int(meta.get("seed", config.get("seed", 0))),
        "train_seconds": round(float(evaluation.get("train_seconds", 0.0)), 1),
        "results": results,
    }
    if meta.get("leaf_value"):  # the leaf its az: search was trained and measured with
        entry["leaf_value"] = meta["leaf_value"]
    if default_spec is not None:
        entry["default_spec"] = default_spec
    return _write_entry(package_dir, name, entry)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.publish", description=description(__doc__))
    parser.add_argument("run_dir", type=Path, nargs="?", help="a finished maya-train run directory")
    parser.add_argument("--name", help="registry name (pretrained:<name>)")
    parser.add_argument("--config", help="the config the run was trained from, by name")
    parser.add_argument(
        "--refresh",
        metavar="NAME",
        help="rewrite the manifest fields (sha256, game version) of the shipped entry NAME for its file as it is, "
        "after checking that it loads and fits the game (no run directory)",
    )
    parser.add_argument("--model", type=Path, help="a network run: another .pt than the run's model.pt")
    parser.add_argument(
        "--matches", type=Path, nargs="+", help="a network run: training.exit.match --out files, the entry's results"
    )
    parser.add_argument("--default-spec", help="a network run: what `pretrained` plays for its config")
    args = parser.parse_args(argv)
    if args.refresh is not None:
        try:
            print(json.dumps({args.refresh: refresh(args.refresh)}, indent=2))
        except (ValueError, OSError) as error:
            parser.error(str(error))
        return 0
    if args.run_dir is None or args.name is None or args.config is None:
        parser.error("a run directory, --name and --config are needed (or --refresh NAME)")
    network_only = {"model": args.model, "matches": args.matches, "default_spec": args.default_spec}
    try:
        if any(v is not None for v in network_only.values()):
            matches = None
            if args.matches:
                matches = [row for path in args.matches for row in json.loads(path.read_text())]
            entry = publish_network(
                args.run_dir, args.name, args.config, model=args.model, matches=matches, default_spec=args.default_spec
            )
        else:
            entry = publish(args.run_dir, args.name, args.config)
    except (ValueError, OSError) as error:  # OSError: a --matches file that cannot be read
        parser.error(str(error))
    print(json.dumps({args.name: entry}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
