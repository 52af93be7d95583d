"""``maya-replay RECORD``: show a game record again, in the terminal or as pictures.

Examples::

    maya-replay game.jsonl                      # step through it: Enter = next move, b = back, q = quit
    maya-replay game.jsonl --no-pause           # print every position
    maya-replay game.jsonl --observer 1         # what player_1 saw (hidden cards stay hidden)
    maya-replay game.jsonl --frames frames/     # one PNG per position (needs Pillow)
    maya-replay game.jsonl --gif game.gif --fps 2

Each picture has a caption: the move that led to it (who played what, as the ``--observer``
seat may know it: hidden parts of other seats' moves are left out) and, on the last frame,
the result (rewards, scores) and why the game ended; every picture has a legend of its signs.

The record is validated first (:func:`maya_envs.records.load_record`): a wrong game, version,
or an illegal move stops with a message naming the line. Positions are the exact states of
the game, rebuilt from the recorded seed and moves. Without ``--observer`` everything is shown.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from maya_envs.captions import move_caption, result_line
from maya_envs.cli import description
from maya_envs.cli.args import output_file, output_folder
from maya_envs.cli.progress import iterate
from maya_envs.records import RecordError, iter_replay, load_record


def text_pages(record, observer: int | None) -> list[str]:
    """One text per position: a heading (the start, or the move that led to it as ``observer``
    may know it: :func:`maya_envs.captions.move_caption`) and the board; the last page of a
    finished game ends with the result and why it ended (:func:`maya_envs.captions.result_line`,
    the GIF's wording)."""
    moves, pages, before = record.moves, [], None
    for index, env in enumerate(iter_replay(record, render_mode="ansi", render_observer=observer)):
        raw = env.unwrapped
        if index == 0:
            heading = f"=== {record.header['title']}, seed {record.header['seed']}: start ==="
        else:
            caption = move_caption(raw.rules, before, moves[index - 1]["action"], observer, index, len(moves))
            heading = f"\n=== {caption} ==="
        pages.append(f"{heading}\n{env.render()}")
        before = raw.game_state
    if raw.agents and all(raw.terminations[a] or raw.truncations[a] for a in raw.agents):
        rewards = {a: float(raw.rewards[a]) for a in raw.agents}
        pages[-1] += "\n\n" + result_line(raw.rules, raw.game_state, rewards, raw.infos[raw.agents[0]])
    return pages


PROMPT = "[Enter: next move, b: back, q: quit] "


def show_text(record, observer: int | None, pause: bool, stdin, out) -> None:
    """Print the start position and each move with the position after it; with ``observer``
    a move reads as that seat saw it (:func:`maya_envs.notation.describe_action`). With
    ``pause``, wait after each position: Enter shows the next, ``b`` the one before, ``q`` (or
    the end of the input) stops."""
    pages = text_pages(record, observer)
    if not pause:
        print("\n".join(pages), file=out)
        return
    index = 0
    while True:
        print(pages[index], file=out)
        if index == len(pages) - 1:
            return
        print(PROMPT, end="", file=out, flush=True)
        line = stdin.readline()
        answer = line.strip().lower()
        if not line or answer == "q":
            return
        if answer == "b":
            if index == 0:
                print("(this is the start: nothing before it)", file=out)
            index = max(index - 1, 0)
        else:
            index += 1


def _positive_fps(text: str) -> float:
    """``--fps``: a number of frames per second in (0, 1000]."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value <= 1000:
        raise argparse.ArgumentTypeError(f"--fps {text!r}; allowed: a number in (0, 1000]")
    return value


def captioned_pictures(record, observer: int | None) -> list:
    """One :class:`~maya_envs.drawing.Canvas` per position, each with its caption (the start,
    then ``move i/N: player_k plays ...`` as ``observer`` may know it, the result on the last),
    all of the same height (GIF frames)."""
    moves, pictures, before = record.moves, [], None
    for index, env in enumerate(iter_replay(record, render_mode="rgb_array", render_observer=observer)):
        raw = env.unwrapped
        if index == 0:
            lines = [f"{record.header['title']}, seed {record.header['seed']}: start position"]
        else:
            lines = [move_caption(raw.rules, before, moves[index - 1]["action"], observer, index, len(moves))]
        if index == len(moves) and raw.agents and all(raw.terminations[a] or raw.truncations[a] for a in raw.agents):
            info = raw.infos[raw.agents[0]]
            lines.append(result_line(raw.rules, raw.game_state, {a: float(raw.rewards[a]) for a in raw.agents}, info))
        pictures.append(raw.picture(caption=lines))
        before = raw.game_state
    height = max(p.height for p in pictures)
    for picture in pictures:
        picture.height = height
    return pictures


def export_images(record, observer: int | None, frames: Path | None, gif: Path | None, fps: float) -> int:
    """Write one PNG per position under ``frames`` and/or an animated GIF; the number of frames."""
    from PIL import Image

    # a bar on a terminal (tqdm, the render extra), plain lines in a log (maya_envs.cli.progress)
    pictures = iterate(captioned_pictures(record, observer), len(record.moves) + 1, "frames", "frame")
    images = [Image.fromarray(picture.array()) for picture in pictures]
    if frames is not None:
        frames.mkdir(parents=True, exist_ok=True)
        for index, image in enumerate(images):
            image.save(frames / f"frame_{index:04d}.png", optimize=True)
    if gif is not None:
        gif.parent.mkdir(parents=True, exist_ok=True)
        palette = [image.convert("P", palette=Image.Palette.ADAPTIVE, colors=64) for image in images]
        duration = int(1000 / fps)
        palette[0].save(gif, save_all=True, append_images=palette[1:], duration=duration, loop=0, optimize=True)
    return len(images)


def _seat(text: str) -> int:
    """``--observer``: a seat number (``1``) or an agent name (``player_1``)."""
    number = text.removeprefix("player_")
    if not number.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a seat; allowed: a seat number or player_N")
    return int(number)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="maya-replay", description=description(__doc__))
    parser.add_argument("record", type=Path, help="a JSONL game record (maya-play, RecordingWrapper)")
    parser.add_argument(
        "--observer",
        type=_seat,
        help=(
            "show the game as this seat saw it: a seat number or an agent name, e.g. 1 or player_1"
            " (default: everything)"
        ),
    )
    parser.add_argument("--no-pause", action="store_true", help="print every position without waiting")
    parser.add_argument("--frames", type=Path, help="write one PNG per position into this folder")
    parser.add_argument("--gif", type=Path, help="write an animated GIF of the game")
    parser.add_argument("--fps", type=_positive_fps, default=1.0, help="GIF frames per second, > 0 (default 1)")
    return parser


def main(argv: list[str] | None = None, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    # the streams of the call, not of the import (a caller may swap sys.stdout/stdin between them)
    stdin = sys.stdin if stdin is None else stdin
    out = sys.stdout if out is None else out
    parser = build_parser()
    args = parser.parse_args(argv)
    try:  # before the pictures are drawn: outputs that cannot be written waste them
        if args.frames is not None:
            output_folder(args.frames, "--frames")
        if args.gif is not None:
            output_file(args.gif, "--gif")
    except ValueError as error:
        parser.error(str(error))
    try:
        record = load_record(args.record)
        n = record.header["num_players"]
        if args.observer is not None and not 0 <= args.observer < n:
            parser.error(f"--observer must be a seat 0..{n - 1}")
        if args.frames is None and args.gif is None:
            show_text(record, args.observer, pause=not args.no_pause and stdin.isatty(), stdin=stdin, out=out)
            return 0
        count = export_images(record, args.observer, args.frames, args.gif, args.fps)
    except (RecordError, OSError) as error:
        print(f"maya-replay: {args.record}: {error}", file=sys.stderr)
        return 1
    where = " and ".join(str(p) for p in (args.frames, args.gif) if p is not None)
    print(f"{count} frames written to {where}", file=out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
