"""``maya-web`` / ``python -m maya_envs.web``: serve the web app (see :mod:`maya_envs.web.app`).

Examples::

    maya-web                                    # http://127.0.0.1:8000/
    maya-web --port 8080 --checkpoint mine=runs/.../model.zip   # seat it as checkpoint:mine

    maya-web --components big=tables/big.json  # a quarry table the page may ask for as components=big

Binds to 127.0.0.1 (this machine only) unless ``--host`` says otherwise; another host prints a
warning, since anyone who can reach the port can then start games. The server answers requests
whose ``Host`` names a loopback address or the bound one at its port, and the names given with
``--allow-host NAME[:PORT]`` (a LAN name, a proxy): a DNS-rebinding page's requests are refused
(:mod:`maya_envs.web.origin`). Files are named only here,
on the command line (checkpoints, component tables): a page names them by ``NAME``, never by
path, and no file is ever read from a path a page sends.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path

from maya_envs.web.origin import LOOPBACK_HOSTS as LOOPBACK
from maya_envs.web.origin import host_entry


def _checkpoint(text: str) -> tuple[str, str]:
    """``--checkpoint [NAME=]PATH``: without a name, the one every table uses
    (:func:`maya_envs.evaluation.checkpoint_name`, the run's ``exp_name``)."""
    name, sep, path = text.partition("=")
    if not sep and text:
        from maya_envs.evaluation.arena import checkpoint_name

        name, path = checkpoint_name(text), text
    if not name or not path:
        raise argparse.ArgumentTypeError(f"--checkpoint needs [NAME=]PATH, got {text!r}")
    if not Path(path).is_file():
        raise argparse.ArgumentTypeError(f"--checkpoint {name}: {path!r} is not a file")
    return name, path


def _components(text: str) -> tuple[str, dict]:
    name, sep, path = text.partition("=")
    if not sep or not name or not path:
        raise argparse.ArgumentTypeError(f"--components needs NAME=FILE, got {text!r}")
    try:
        table = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise argparse.ArgumentTypeError(f"--components {name}: cannot read {path!r} as JSON ({error})") from None
    if not isinstance(table, dict):
        raise argparse.ArgumentTypeError(f"--components {name}: {path!r} holds no JSON object")
    return name, table


def _allowed_host(text: str) -> str:
    try:
        host_entry(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"--allow-host: {error}") from None
    return text


def _bind_host(text: str) -> str:
    """``--host``: an address or name without a port (the port is ``--port``), as the socket
    takes it (an IPv6 address without brackets)."""
    try:
        name, port = host_entry(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"--host: {error}") from None
    if port is not None:
        raise argparse.ArgumentTypeError(f"--host {text!r}: give the port with --port")
    return name


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="maya-web",
        description="Serve the local web app: play any game against any agent mix, watch agents, replay records.",
    )
    parser.add_argument(
        "--host", type=_bind_host, default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)"
    )
    parser.add_argument(
        "--allow-host",
        type=_allowed_host,
        action="append",
        default=[],
        metavar="NAME[:PORT]",
        help="a name requests may give in their Host header besides the loopback names and --host "
        "(repeatable; without PORT, at the port served): the name this machine has on a LAN, or a proxy's",
    )
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    parser.add_argument(
        "--checkpoint",
        type=_checkpoint,
        action="append",
        default=[],
        metavar="[NAME=]PATH",
        help="a MaskablePPO checkpoint the page may seat as checkpoint:NAME (repeatable; NAME defaults to the "
        "run's exp_name, as in maya-eval and maya-arena)",
    )
    parser.add_argument(
        "--components",
        type=_components,
        action="append",
        default=[],
        metavar="NAME=FILE",
        help="a component table (a JSON file) the page may then ask for as the game option components=NAME "
        "(repeatable; checked when a game uses it)",
    )
    parser.add_argument("--max-games", type=int, default=16, help="open games and replays at most (default 16)")
    parser.add_argument("--idle-minutes", type=float, default=30.0, help="close a game unused this long (default 30)")
    return parser


def main(argv: list[str] | None = None) -> int:
    from maya_envs.players import one_torch_thread

    one_torch_thread()
    args = build_parser().parse_args(argv)
    if args.max_games < 1 or args.idle_minutes <= 0:
        print("maya-web: --max-games and --idle-minutes must be positive", file=sys.stderr)
        return 2
    try:
        from werkzeug.serving import make_server

        from maya_envs.web.app import create_app
    except ImportError as error:
        print(f"maya-web needs the web extra: pip install 'maya-envs[web]' ({error})", file=sys.stderr)
        return 2
    if args.host not in LOOPBACK:
        warnings.warn(
            f"maya-web binds to {args.host}: anyone who can reach port {args.port} can start games here",
            stacklevel=1,
        )
    from maya_envs.web.seats import check_checkpoint_file

    for name, path in args.checkpoint:
        try:  # before serving: a file no seat can load is the operator's mistake, not a page's 400
            check_checkpoint_file(path)
        except ValueError as error:
            print(f"maya-web: --checkpoint {name}: {error}", file=sys.stderr)
            return 2
    hosts = (args.host, *args.allow_host)
    app = create_app(dict(args.checkpoint), args.max_games, args.idle_minutes, dict(args.components), hosts)
    server = make_server(args.host, args.port, app, threaded=True)
    print(f"maya-web: open http://{args.host}:{server.server_port}/ (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
