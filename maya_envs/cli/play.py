"""``maya-play``: play a game in the terminal, humans and bots in any seats; saved as a record.

Examples::

    maya-play --game maya2012                          # you (player_0) against the heuristic bot
    maya-play --game maya2012 --players 3 --seats heuristic,human,mcts:200
    maya-play --game yaxha --seats human,runs/.../model.zip --seed 7
    maya-play --game maya2012 --seats human,pretrained         # the shipped 2-player baseline
    maya-play --game maya2012 --option max_turns=6 --record my_game.jsonl

Seats (``--seats``, comma-separated in seat order, missing ones are ``heuristic``):
``human``; a bot name (``random``, ``heuristic``, ``mcts:N``, ``policy:<model>``,
``az:<model>[:N]`` ..., see :func:`maya_envs.bots.make_bot`; the network bots need the ``train``
extra); a model file (``checkpoint:PATH``, or a path with a ``/`` or a ``.zip``/``.pt`` suffix;
a bare word is never a file; needs the ``train`` extra); ``pretrained`` (the game's shipped
baseline) or ``pretrained:<name>`` (one of
:func:`maya_envs.pretrained.list_pretrained`, needs the ``train`` extra).

A human sees a legend of the text board once, then at each turn the board from their own seat
(the per-player text view: other players' hidden cards are not shown) and a numbered list of
their legal moves in the game's notation, and types the number or the notation (``?`` shows
the list again, ``q`` quits with status 0; the record then holds the moves so far). A move that
is well formed but not legal now is refused with the rules' reason (next to the Monolith, the
Raven's level, a full quarry, ...); anything else is refused with a one-line hint; the list is
not printed again. The human's own move is echoed in notation; the bots' moves are shown as the
human may see them (:func:`maya_envs.notation.describe_action`: no face-down card, secret pick
or hidden cube). The end screen gives the reason the game ended, the scores and the winners.
The seed: ``--seed`` is used and printed as given; without it a seed is drawn from
:mod:`secrets` and, where it would rebuild draws a seat may not see (:func:`seed_hides_draws`:
a hidden deal, or chance after the start), printed only when the game ends or is abandoned.
Every game is written as a JSONL record
(:mod:`maya_envs.records`; ``--record``, default ``maya-records/<game>-<time>.jsonl``) that
``maya-replay`` shows again.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from maya_envs.cli import description
from maya_envs.cli.args import output_file, seed_arg
from maya_envs.core.errors import did_you_mean, shorten
from maya_envs.core.paths import claim_new, timestamp
from maya_envs.core.rng import check_seed, draw_seed, offset_seed, seed_hides_draws
from maya_envs.games import DEFAULT_GAME, find_game, game_names, game_of_rules
from maya_envs.notation import describe_action, describe_end, read_move, why_illegal
from maya_envs.players import HUMAN, bot_syntax, names_checkpoint, one_torch_thread
from maya_envs.pretrained import is_pretrained_spec
from maya_envs.records import game_name, record_env
from maya_envs.wrappers.opponents import make_opponent

SEAT_KINDS = f"human, a bot name ({bot_syntax()}), a checkpoint .zip, pretrained or pretrained:<name>"
"""What a seat may be, from the bot-kind table (:data:`maya_envs.bot_kinds.BOT_KINDS`)."""


class QuitGame(Exception):
    """The human typed ``q`` or the input ended."""


def parse_option(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` with VALUE read as JSON when it parses (``6``, ``true``, ``[2,3]``), else a string."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"--option needs KEY=VALUE, got {shorten(text)}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def load_seat(spec: str, rules, seed: int, observation_shape: tuple[int, ...] | None = None):
    """The player for one seat: ``None`` for a human, else an opponent with ``choose(env, agent)``
    (a model must take observations of ``observation_shape``, the env's).

    Raises:
        ValueError: an unknown bot name (with the closest names: ``heuristc`` -> ``heuristic``,
            ``humna`` -> ``human``), an unknown or unfitting ``pretrained`` baseline (or the
            ``train`` extra missing for it), a missing checkpoint or one whose observation size
            does not fit this game.
    """
    if spec == HUMAN:
        return None
    near = "" if is_pretrained_spec(spec) else did_you_mean(spec, (HUMAN, "pretrained"))
    if near and ":" not in spec and not names_checkpoint(spec):
        raise ValueError(f"unknown seat {shorten(spec)}{near}; a seat is {SEAT_KINDS}")
    try:  # the one resolver: a shipped agent, a checkpoint path, a registered prefix or a bot spec
        return make_opponent(spec, rules, seed, observation_shape, files=True)
    except ImportError as error:  # a network or shipped seat without torch
        raise ValueError(f"{shorten(spec)}: {error}" if is_pretrained_spec(spec) else str(error)) from error


def log_viewer(seats: list[str], actor: int) -> int | None:
    """The seat whose view the move log shows for ``actor``'s move: the first human seat other
    than the actor (they share the terminal), or ``None`` (everything) when no other seat is
    human."""
    return next((seat for seat, spec in enumerate(seats) if spec == HUMAN and seat != actor), None)


def legal_menu(rules, state) -> tuple[list[int], str]:
    """The legal ids and their numbered list (1-based) in a player's words
    (:func:`maya_envs.notation.describe_action`), the notation beside where it differs."""
    legal = rules.legal_actions(state)
    seat = rules.current_player(state)
    lines = []
    for i, action in enumerate(legal, start=1):
        words, notation = describe_action(rules, state, action, seat, seat), rules.action_to_string(action)
        lines.append(f"  {i:>3}) {words}" + (f"  [{notation}]" if not words.startswith(notation) else ""))
    return legal, "\n".join(lines)


def _normal(text: str) -> str:
    return " ".join(text.lower().split())


def read_choice(text: str, rules, legal: list[int], state=None) -> int | None:
    """The legal action a human typed: a list number, a notation or (with ``state``) the
    menu's words (spaces and case ignored)."""
    text = text.strip()
    if text.isdigit() and 1 <= int(text) <= len(legal):
        return legal[int(text) - 1]
    wanted = _normal(text)
    seat = None if state is None else rules.current_player(state)
    for action in legal:
        if _normal(rules.action_to_string(action)) == wanted:
            return action
        if state is not None and _normal(describe_action(rules, state, action, seat, seat)) == wanted:
            return action
    typed = read_move(rules, text)
    return typed if typed in legal else None


def ask_human(env, agent: str, stdin, out) -> int:
    """Show ``agent`` its view and legal moves once; read until a legal move is typed (a
    refusal says why in one line, ``?`` shows the list again).

    Raises:
        QuitGame: ``q``/``quit`` or the end of the input.
    """
    raw = env.unwrapped
    raw.render_observer = raw.seat_of(agent)
    print(f"\n=== {agent} to move (your view) ===", file=out)
    print(raw.render(), file=out)
    legal, menu = legal_menu(raw.rules, raw.game_state)
    print(f"legal moves for {agent}:\n{menu}", file=out)
    while True:
        print("your move (number or notation, ? to list, q to quit): ", end="", file=out, flush=True)
        line = stdin.readline()
        if not stdin.isatty():
            print(line.rstrip("\n"), file=out)  # echo scripted input so the transcript reads well
        text = line.strip()
        if not line or text.lower() in ("q", "quit"):
            raise QuitGame
        if text == "?":
            print(f"legal moves for {agent}:\n{menu}", file=out)
            continue
        action = read_choice(text, raw.rules, legal, raw.game_state)
        if action is not None:
            return action
        typed = read_move(raw.rules, text)
        if isinstance(typed, int):
            print(f"not legal now: {why_illegal(raw.rules, raw.game_state, typed)}", file=out)
        elif typed is not None:
            print(f"no such move: {typed}", file=out)
        else:
            print(f"not a move: {shorten(text)}; type 1-{len(legal)}, a move's notation, ? or q", file=out)


def play(args: argparse.Namespace, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    """Play one game as ``args`` say (see :func:`build_parser`); the exit status."""
    # the streams of the call, not of the import (a caller may swap sys.stdout/stdin between them)
    stdin = sys.stdin if stdin is None else stdin
    out = sys.stdout if out is None else out
    game = game_name(args.game)
    options = dict(args.option)
    if args.players is not None:
        options["num_players"] = args.players
    seed = check_seed(args.seed, "--seed") if args.seed is not None else draw_seed()
    stamp = f"{game}-{timestamp()}"
    if args.record:  # before the game: a hidden-information record is written only at its end
        output_file(args.record, "--record")
    path = args.record or f"maya-records/{stamp}.jsonl"
    env = record_env(game, path, render_mode="ansi", **options)
    raw = env.unwrapped
    n = raw.rules.spec.num_players
    seats = [s.strip() for s in args.seats.split(",")] if args.seats else [HUMAN]
    if len(seats) > n:
        entry = find_game(game)
        counts = entry.player_counts
        hint = f"; {entry.title} is played by {' / '.join(map(str, counts))} players"
        if args.players is None and len(seats) in counts:
            hint = f" (did you mean --players {len(seats)}?)"
        raise ValueError(f"{len(seats)} seats given for a {n}-player game{hint}")
    seats += ["heuristic"] * (n - len(seats))
    shape = raw.spec_card.observation_shape
    players = {
        f"player_{s}": load_seat(spec, raw.rules, offset_seed(seed, 1 + s), shape) for s, spec in enumerate(seats)
    }
    if not args.record:  # claimed only now, so a refused command line leaves no file
        env.record_path = str(claim_new("maya-records", stamp, suffix=".jsonl"))
    env.reset(seed=seed)
    who = ", ".join(f"player_{s} {spec}" for s, spec in enumerate(seats))
    secret = args.seed is None and seed_hides_draws(raw.rules.spec)
    shown = "seed drawn in secret (shown at the end)" if secret else f"seed {seed}"
    print(f"{raw.rules.spec.title}, {n} players, {shown}: {who}", file=out)
    if HUMAN in seats:
        legend = game_of_rules(raw.rules).hook("legend")
        print(f"legend: {legend}", file=out)
    try:
        for agent in env.agent_iter():
            _obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            player = players[agent]
            actor, before = raw.seat_of(agent), raw.game_state
            if player is None:
                action = ask_human(env, agent, stdin, out)
                print(f"{agent} (you) plays {describe_action(raw.rules, before, action, actor, actor)}", file=out)
            else:
                action = player.choose(raw, agent)
                text = describe_action(raw.rules, before, action, actor, log_viewer(seats, actor))
                print(f"{agent} ({seats[actor]}) plays {text}", file=out)
            env.step(action)
    except QuitGame:
        env.flush()  # a hidden-information game's record is held until now
        print(f"\ngame abandoned (seed {seed}); the moves so far are in {env.path}", file=out)
        return 0
    raw.render_observer = None
    print("\n=== game over (everything revealed) ===", file=out)
    print(raw.render(), file=out)
    print(describe_end(raw.rules, raw.game_state, raw.infos[raw.agents[0]] if raw.agents else None), file=out)
    end = env.record.end or {}
    print("rewards: " + ", ".join(f"{a} {r:+g}" for a, r in end.get("rewards", {}).items()), file=out)
    saved = f"record saved to {env.path} ({len(env.record.moves)} moves); replay: maya-replay {env.path}"
    print(f"seed {seed}; {saved}", file=out)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="maya-play", description=description(__doc__))
    parser.add_argument("--game", default=DEFAULT_GAME.key, choices=game_names())
    parser.add_argument("--players", type=int, help="number of players (default: the game's default)")
    parser.add_argument(
        "--seats",
        help=f"comma-separated, in seat order: {SEAT_KINDS}; missing seats are heuristic (default: human, then "
        "heuristic)",
    )
    parser.add_argument(
        "--seed", type=seed_arg, help="the game's seed (default: drawn in secret, shown at the end; it is recorded)"
    )
    parser.add_argument(
        "--record", help="record file, replaced if it exists (default: a new maya-records/<game>-<time>.jsonl)"
    )
    parser.add_argument(
        "--option",
        type=parse_option,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, e.g. max_turns=6 (repeatable)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    one_torch_thread()
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return play(args)
    except ValueError as error:
        parser.error(str(error))
    return 2


if __name__ == "__main__":
    sys.exit(main())
