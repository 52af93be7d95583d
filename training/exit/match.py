"""Measure a network: seat-rotated matches of one network, raw and with guided search, against
bots, played in lock step by actor processes (the games and scoring of gating and of the
trainer's evaluation, :mod:`training.exit.gating`), with Wilson intervals.

    python -m training.exit.match maya2012_2p_exit --opponents heuristic mcts:200:depth=2 \\
        --games 400 --simulations 0 32 --actors 2 --out runs/match.json

``NETWORK`` is a ``.pt`` file written by ``algo: exit`` (``model.pt``, ``networks/iter_*.pt``)
or a shipped network's name; its game and game options come from the file. ``--simulations 0``
is the raw network (``policy:``), ``N > 0`` the network with ``N`` guided simulations per move
and no root noise (what ``az:<network>:N`` plays), with the leaf value ``--leaf`` (default: the
one the network records) and the other ``az:`` options given by ``--search KEY=VALUE ...``
(``m=8 memo=20000 reuse=1 c_scale=0.2``: :data:`maya_envs.bots.guided.AZ_SYNTAX`), so a match
plays what ``az:<network>:N:leaf=L:KEY=VALUE...`` plays. Game ``g`` seats the network at seat
``g % n`` and the opponent bot in every other seat; with ``--pair`` (team games: Maya (2012)
four players) the network plays every seat of the team of seat ``g % n`` instead. A win is a
positive final value for the network's seat; ``win_rate`` counts a draw (value 0) as half a win
(the gate's convention), ``wins_only_rate`` counts wins alone (the convention of
:class:`maya_envs.evaluation.MatchResult`, the PPO tables and the search ladder).

This is how the README's expert-iteration rows are measured. Output: a Markdown table on
stdout and, with ``--out``, the same rows as JSON (``win_rate``, ``ci95``, ``fair_share``,
``seconds`` of wall time, ``cpu_seconds`` of the actors).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from maya_envs.bot_kinds import bot_syntax
from maya_envs.bots.guided import LEAVES
from maya_envs.cli.args import capped_workers, output_file, seed_arg
from training.exit.gating import fair_share, match_lineups, score_match


def pair_lineups(candidate: str, opponent: str, games: int, teams: Sequence[Sequence[int]]) -> list[list[str]]:
    """Lineups for team games: ``candidate`` in every seat of the team holding seat
    ``g % n`` of game ``g``, ``opponent`` in the other seats (so :func:`score_match` reads the
    team's result at seat ``g % n``).

    Raises:
        ValueError: ``teams`` is empty (the game has no teams).
    """
    _require_teams(teams)
    n = sum(len(team) for team in teams)
    lineups = []
    for game in range(games):
        team = next(t for t in teams if game % n in t)
        lineups.append([candidate if seat in team else opponent for seat in range(n)])
    return lineups


def _require_teams(teams: Sequence[Sequence[int]]) -> None:
    if not teams:
        raise ValueError("--pair needs a team game (Maya (2012) with 4 players); this game has no teams")


def measure(
    network: str,
    opponents: Sequence[str],
    games: int,
    simulations: Sequence[int] = (0,),
    actors: int = 1,
    pair: bool = False,
    seed: int = 0,
    leaf: str | None = None,
    backend: str = "process",
    address: str | None = None,
    search_options: Sequence[str] = (),
) -> list[dict[str, Any]]:
    """Play the matches (module docstring) and return one row per (simulations, opponent);
    the search's leaf value is ``leaf`` (:data:`maya_envs.bots.guided.LEAVES`; ``None``: the one the
    network records, :func:`maya_envs.nn.agent.recorded_leaf`); the actors run on ``backend``
    (``process``, ``ray`` at ``address``: :class:`training.exit.actors.Actors`); ``search_options`` are the
    search's other ``az:`` options as ``KEY=VALUE`` texts (:func:`match_search`).

    Raises:
        ValueError: a bad network, opponent spec, count, search option or ``--pair`` on a game
            without teams (the message names the value and what is allowed).
    """
    from maya_envs.bot_kinds import make_bot
    from maya_envs.evaluation.stats import wilson_interval
    from maya_envs.games import find_game
    from maya_envs.nn.agent import recorded_leaf
    from maya_envs.nn.model import load_network
    from maya_envs.nn.specs import model_path
    from training.exit.actors import Actors, ActorSettings

    if games < 1:
        raise ValueError(f"games={games}; allowed: an int >= 1")
    if actors < 1:
        raise ValueError(f"actors={actors}; allowed: an int >= 1")
    bad = [s for s in simulations if s < 0]
    if bad or not simulations:
        raise ValueError(f"simulations={list(simulations)}; allowed: ints >= 0 (0 = the raw network)")
    net, meta = load_network(model_path(network))
    leaf = leaf or recorded_leaf(network)
    game = find_game(meta["game"])
    options = {**meta["game_options"], "num_players": meta["num_players"]}
    rules = game.make_rules(options)
    for spec in opponents:
        make_bot(spec, rules, 0)  # a bad spec fails here, before any process starts
    teams = game.teams(meta["num_players"])
    if pair:
        _require_teams(teams)  # before any process starts
    match_search(1, leaf, search_options)  # a bad option fails here, before any process starts
    fair = fair_share(meta["num_players"], teams)
    weights = {"net": net.state_dict()}
    rng = np.random.default_rng(seed)
    rows = []
    for sims in simulations:
        search = match_search(max(sims, 1), leaf, search_options)
        settings = ActorSettings(
            game=game.key, game_options=options, net_kwargs=dict(net.config), search=search, eval_search=search
        )
        candidate = "az:net" if sims else "policy:net"
        with Actors(settings, actors, backend, address) as pool:
            for opponent in opponents:
                spec = f"bot:{opponent}"
                if pair:
                    lineups = pair_lineups(candidate, spec, games, teams)
                else:
                    lineups = match_lineups(candidate, spec, games, meta["num_players"])
                seeds = [int(x) for x in rng.integers(0, 2**31 - 1, size=games)]
                started = time.perf_counter()
                played = pool.play(lineups, seeds, weights, int(rng.integers(0, 2**31 - 1)))
                match = score_match(opponent, played.values, fair)
                rows.append({
                    "network": network, "simulations": sims, "leaf": leaf if sims else None,
                    "search": ":".join(search_options) if sims and search_options else None, "pair": pair,
                    **match.to_dict(),
                    "wins_only_rate": match.wins / games, "wins_only_ci95": list(wilson_interval(match.wins, games)),
                    "seconds": time.perf_counter() - started, "cpu_seconds": played.cpu_seconds,
                })  # fmt: skip
    return rows


def match_search(simulations: int, leaf: str | None, options: Sequence[str] = ()) -> Any:
    """The :class:`maya_envs.bots.guided.GuidedConfig` that ``az:<network>:SIMULATIONS:leaf=LEAF``
    followed by ``options`` (``KEY=VALUE`` texts, e.g. ``("m=8", "memo=20000")``) plays: no
    root noise unless ``noise=`` says otherwise.

    Raises:
        ValueError: a bad option (the ``az:`` grammar's message), or ``leaf=`` among ``options``
            (the leaf is ``--leaf``'s).
    """
    from dataclasses import replace

    from maya_envs.bots.guided import parse_az_spec

    if any(option.partition("=")[0] == "leaf" for option in options):
        raise ValueError(f"--search {' '.join(options)}: give the leaf value with --leaf, not leaf=")
    _, config = parse_az_spec(":".join(("az", "net", str(simulations), *options)))
    return replace(config, leaf=leaf)


def markdown(rows: Sequence[dict[str, Any]]) -> str:
    """The rows as a Markdown table (win rate and 95% Wilson interval in percent)."""
    lines = [
        "| network | search | opponent | games | wins | draws | win rate (draws half) | 95% CI (Wilson) | wins only "
        "| fair share | seconds |",
        "|---|---|---|---:|---:|---:|---:|---|---:|---:|---:|",
    ]
    for r in rows:
        low, high = r["win_rate_ci95"]
        search = f"+{r['simulations']} sims, leaf={r.get('leaf') or 'net'}" if r["simulations"] else "raw"
        if r["simulations"] and r.get("search"):
            search += f", {r['search']}"
        who = f"{r['network']} (pair)" if r["pair"] else r["network"]
        lines.append(
            f"| {who} | {search} | {r['opponent']} | {r['games']} | {r['wins']} | {r['draws']} | "
            f"{100 * r['win_rate']:.1f}% | [{100 * low:.1f}%, {100 * high:.1f}%] | {100 * r['wins_only_rate']:.1f}% | "
            f"{100 * r['fair_share']:.1f}% | "
            f"{r['seconds']:.0f} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    from training.exit.actors import BACKENDS

    parser = argparse.ArgumentParser(
        prog="python -m training.exit.match",
        description="Seat-rotated matches of a network (raw and with guided search) against bots.",
    )
    parser.add_argument("network", help="a .pt network file (algo: exit) or a shipped network name")
    parser.add_argument(
        "--opponents", nargs="+", default=["heuristic"], help=f"bot specs (default: heuristic): {bot_syntax()}"
    )
    parser.add_argument("--games", type=int, default=400, help="games per match (default 400)")
    parser.add_argument(
        "--simulations", type=int, nargs="+", default=[0], help="0 = raw network; N = N guided simulations per move"
    )
    parser.add_argument(
        "--actors", type=int, default=1, help="actors (default 1; process actors: at most the games and the cores)"
    )
    parser.add_argument(
        "--actor-backend", choices=tuple(BACKENDS), default="process", help="where the actors run (default process)"
    )
    parser.add_argument("--ray-address", help="with --actor-backend ray: the cluster (auto, ray://HOST:10001)")
    parser.add_argument(
        "--leaf", choices=LEAVES, help="the search's leaf value (default: the one the network records)"
    )
    parser.add_argument(
        "--search",
        nargs="+",
        default=[],
        metavar="KEY=VALUE",
        help="the search's other az: options (m=8 memo=20000 reuse=1 c_scale=0.2 ...; see the az: syntax)",
    )
    parser.add_argument("--pair", action="store_true", help="team games: the network plays a whole team")
    parser.add_argument("--seed", type=seed_arg, default=0)
    parser.add_argument("--out", type=Path, help="write the rows as JSON here (replaced if it exists)")
    args = parser.parse_args(argv)
    try:  # before the games: a result that cannot be written wastes them
        if args.out:
            output_file(args.out)
        if args.games < 1:
            raise ValueError(f"games={args.games}; allowed: an int >= 1")
    except ValueError as error:
        parser.error(str(error))
    if args.actor_backend == "process":  # a cluster's actors (ray) are not this machine's cores
        args.actors, note = capped_workers(args.actors, args.games, "--actors")
        if note:
            print(f"{parser.prog}: {note}", file=sys.stderr)
    import signal

    from training.exit.loop import exit_on_signal

    # SIGTERM unwinds like Ctrl-C, so the actor processes end with the match (not orphaned)
    signal.signal(signal.SIGTERM, exit_on_signal)
    try:
        rows = measure(
            args.network, args.opponents, args.games, args.simulations, args.actors, args.pair, args.seed, args.leaf,
            args.actor_backend, args.ray_address, args.search,
        )  # fmt: skip
    except (ValueError, ImportError) as error:  # ImportError: --actor-backend ray without Ray
        parser.exit(2, f"{parser.prog}: error: {error}\n")
    print(markdown(rows))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
