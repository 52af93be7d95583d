"""One drawing for two formats: the games' pictures as a list of shapes, drawn by Pillow or as SVG.

Each game's ``render_image`` module lays its picture out once, on a :class:`Canvas` that only
records shapes (rectangles, text, polygons, ellipses, lines, in painting order). The same
list is then drawn by one of two backends:

* :meth:`Canvas.array` with Pillow: the ``(H, W, 3)`` uint8 frame of ``render_mode="rgb_array"``
  (Pillow is an optional dependency, ``pip install maya-envs[render]``, imported only here);
* :meth:`Canvas.svg` as SVG text (``render_mode="svg"``), with the standard library only.

So a PNG and an SVG of one state cannot drift apart: they are one layout. Text placement does
not depend on a backend's font metrics (:func:`text_width` is a fixed estimate), so the SVG
never needs Pillow. Pictures are 800 px wide. A shape may carry a ``key`` naming the board
element it draws (``"tower:3"``, ``"quarry:2"``, ``"cell:0:17"``): the SVG writes it as
``data-key`` so a page can map a click to the moves that concern that element (each game's
``action_targets``); the PNG ignores it.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import numpy as np

#: The label of the all-seeing view (``observer=None``), the same word in every game.
SPECTATOR_VIEW = "spectator (everything)"
WIDTH = 800
BACKGROUND = (245, 240, 228)
INK = (40, 36, 32)
MUTED = (120, 112, 100)
CARD_BACK = (120, 78, 48)
CARD_BACK_LINE = (190, 150, 110)
SEAT_COLOURS = ((214, 60, 50), (50, 110, 200), (60, 160, 80), (230, 170, 30), (150, 80, 180))
CAPTION_SIZE = 15
_LINE_H = 21

Colour = tuple[int, int, int]
# Pillow's anchors (https://pillow.readthedocs.io/en/stable/handbook/text-anchors.html) as SVG
# text-anchor / dominant-baseline.
_H_ANCHOR = {"l": "start", "m": "middle", "r": "end"}
_V_ANCHOR = {"a": "hanging", "t": "hanging", "m": "central", "s": "alphabetic", "b": "text-after-edge"}


def text_width(text: str, size: int) -> float:
    """Estimated width in px of ``text`` at font ``size`` (the same for both backends)."""
    return 0.56 * size * len(text)


class SvgPicture(str):
    """SVG text (a ``str``) that a notebook displays as a picture (``_repr_svg_``)."""

    def _repr_svg_(self) -> str:
        return str(self)


class Canvas:
    """A picture under construction: ``height`` x ``width`` px and the shapes drawn so far.

    Shapes are tuples ``(kind, params)``; the methods below are the only way to add them.
    :meth:`array` and :meth:`svg` draw the same list.
    """

    def __init__(self, height: int, width: int = WIDTH) -> None:
        self.height = int(height)
        self.width = int(width)
        self.shapes: list[tuple[str, dict[str, Any]]] = []

    # -- shapes -------------------------------------------------------------------------

    def text(self, xy, text: str, size: int = 14, fill=INK, anchor: str = "la") -> None:
        self.shapes.append(("text", {"xy": _xy(xy), "text": str(text), "size": size, "fill": fill, "anchor": anchor}))

    def box(self, box, fill, outline=INK, width: int = 1, radius: int = 0, key: str | None = None) -> None:
        """A rectangle ``(x0, y0, x1, y1)``; ``fill=None`` leaves it empty; ``key`` names what it draws."""
        self.shapes.append(
            (
                "rect",
                {"box": _box(box), "fill": fill, "outline": outline, "width": width, "radius": radius, "key": key},
            )
        )

    def polygon(self, points, fill, outline=None) -> None:
        self.shapes.append(("polygon", {"points": [_xy(p) for p in points], "fill": fill, "outline": outline}))

    def ellipse(self, box, fill, outline=INK, key: str | None = None) -> None:
        self.shapes.append(("ellipse", {"box": _box(box), "fill": fill, "outline": outline, "key": key}))

    def line(self, xy, fill=INK, width: int = 1) -> None:
        self.shapes.append(("line", {"xy": _box(xy), "fill": fill, "width": width}))

    def wrap(self, text: str, size: int, width: float) -> list[str]:
        """``text`` split at spaces into lines no wider than ``width`` px (a long word stays whole)."""
        lines: list[str] = []
        for word in text.split():
            candidate = f"{lines[-1]} {word}" if lines else word
            if lines and text_width(candidate, size) <= width:
                lines[-1] = candidate
            else:
                lines.append(word)
        return lines

    def card(self, box, label: str | None, fill=None, key: str | None = None) -> None:
        """A card: face up with ``label`` on ``fill``, or face down (``label=None``): a plain back."""
        x0, y0, x1, y1 = box
        if label is None:
            self.box(box, CARD_BACK, radius=5, key=key)
            self.box((x0 + 4, y0 + 4, x1 - 4, y1 - 4), None, outline=CARD_BACK_LINE)
            return
        self.box(box, fill if fill is not None else (255, 255, 255), radius=5, key=key)
        self.text(((x0 + x1) / 2, (y0 + y1) / 2), label, size=15, fill=text_colour(fill), anchor="mm")

    # -- bands below the picture ----------------------------------------------------------

    def legend(self, items: Sequence[tuple[Any, str]], title: str = "legend") -> None:
        """A band of ``(swatch, meaning)`` or ``(swatch, meaning, swatch_width)`` items below the
        picture, wrapped to the width.

        ``swatch`` draws a small sign at ``(x, y)`` (``swatch(canvas, x, y)``, about 18 px tall and
        ``swatch_width - 6`` px wide, default 24), or is ``None`` for plain text.
        """
        top = self.height + 4
        self.text((12, top + 4), title + ":", size=12, fill=MUTED)
        x, y = 70.0, top
        for swatch, meaning, *size in items:
            room = (size[0] if size else 24) if swatch else 0
            needed = room + text_width(meaning, 12) + 18
            if x + needed > self.width - 8 and x > 70:
                x, y = 70.0, y + 24
            if swatch is not None:
                swatch(self, x, y + 1)
                x += room
            self.text((x, y + 4), meaning, size=12, fill=INK)
            x += text_width(meaning, 12) + 18
        self.height = int(y + 28)

    def caption(self, lines: Sequence[str]) -> None:
        """Lines of text in a band below the picture (a replay frame's move and result)."""
        lines = [wrapped for line in lines for wrapped in self.wrap(line, CAPTION_SIZE, self.width - 24) or [""]]
        if not lines:
            return
        top = self.height
        self.height += len(lines) * _LINE_H + 12
        self.box((0, top, self.width - 1, self.height - 1), fill=(255, 252, 240), outline=(200, 190, 170))
        for i, line in enumerate(lines):
            self.text((12, top + 8 + i * _LINE_H), line, size=CAPTION_SIZE)

    # -- backends -----------------------------------------------------------------------

    def array(self) -> np.ndarray:
        """The picture as an ``(height, width, 3)`` uint8 array, drawn with Pillow.

        Raises:
            ImportError: Pillow is not installed (the message names the extra).
        """
        try:
            from PIL import Image, ImageDraw, ImageFont
        except ImportError as error:  # pragma: no cover - depends on the installation
            raise ImportError("render_mode='rgb_array' needs Pillow: pip install 'maya-envs[render]'") from error
        image = Image.new("RGB", (self.width, self.height), BACKGROUND)
        draw = ImageDraw.Draw(image)
        fonts: dict[int, Any] = {}
        for kind, p in self.shapes:
            if kind == "text":
                if p["size"] not in fonts:
                    fonts[p["size"]] = ImageFont.load_default(size=p["size"])
                draw.text(p["xy"], p["text"], fill=p["fill"], font=fonts[p["size"]], anchor=p["anchor"])
            elif kind == "rect":
                if p["radius"]:
                    draw.rounded_rectangle(
                        p["box"], radius=p["radius"], fill=p["fill"], outline=p["outline"], width=p["width"]
                    )
                else:
                    draw.rectangle(p["box"], fill=p["fill"], outline=p["outline"], width=p["width"])
            elif kind == "polygon":
                draw.polygon(p["points"], fill=p["fill"], outline=p["outline"])
            elif kind == "ellipse":
                draw.ellipse(p["box"], fill=p["fill"], outline=p["outline"])
            else:
                draw.line(p["xy"], fill=p["fill"], width=p["width"])
        return np.asarray(image, dtype=np.uint8).copy()

    def svg(self) -> SvgPicture:
        """The picture as SVG text (standard library only); shapes with a ``key`` carry
        ``data-key`` (and ``class="key"``) for a page to find them."""
        out = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
            f'viewBox="0 0 {self.width} {self.height}" font-family="DejaVu Sans, Arial, sans-serif" '
            'xml:space="preserve" style="white-space: pre">',
            f'<rect width="100%" height="100%" fill="{_rgb(BACKGROUND)}"/>',
        ]
        for kind, p in self.shapes:
            if kind == "text":
                x, y = p["xy"]
                h, v = p["anchor"][0], p["anchor"][1]
                out.append(
                    f'<text x="{_n(x)}" y="{_n(y)}" font-size="{p["size"]}" fill="{_rgb(p["fill"])}" '
                    f'text-anchor="{_H_ANCHOR[h]}" dominant-baseline="{_V_ANCHOR[v]}">{html.escape(p["text"])}</text>'
                )
            elif kind == "rect":
                x0, y0, x1, y1 = p["box"]
                radius = f' rx="{p["radius"]}"' if p["radius"] else ""
                out.append(
                    f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(x1 - x0)}" height="{_n(y1 - y0)}"{radius}'
                    f"{_paint(p['fill'], p['outline'], p['width'])}{_key(p['key'])}/>"
                )
            elif kind == "polygon":
                points = " ".join(f"{_n(x)},{_n(y)}" for x, y in p["points"])
                out.append(f'<polygon points="{points}"{_paint(p["fill"], p["outline"], 1)}/>')
            elif kind == "ellipse":
                x0, y0, x1, y1 = p["box"]
                out.append(
                    f'<ellipse cx="{_n((x0 + x1) / 2)}" cy="{_n((y0 + y1) / 2)}" rx="{_n((x1 - x0) / 2)}" '
                    f'ry="{_n((y1 - y0) / 2)}"{_paint(p["fill"], p["outline"], 1)}{_key(p["key"])}/>'
                )
            else:
                x0, y0, x1, y1 = p["xy"]
                out.append(
                    f'<line x1="{_n(x0)}" y1="{_n(y0)}" x2="{_n(x1)}" y2="{_n(y1)}" '
                    f'stroke="{_rgb(p["fill"])}" stroke-width="{p["width"]}"/>'
                )
        out.append("</svg>")
        return SvgPicture("\n".join(out))


def text_colour(fill) -> tuple[int, int, int]:
    """Black or white, whichever reads better on ``fill``."""
    if fill is None:
        return INK
    r, g, b = fill[:3]
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (255, 255, 255)


def card_back_swatch(canvas: Canvas, x: float, y: float) -> None:
    """Legend sign of a face-down card."""
    canvas.card((x, y, x + 16, y + 18), None)


def _xy(xy) -> tuple[float, float]:
    return float(xy[0]), float(xy[1])


def _box(box) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = (float(v) for v in box)
    return x0, y0, x1, y1


def _n(value: float) -> str:
    """A coordinate as short SVG text (``12`` or ``12.5``)."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _rgb(colour) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour[:3])


def _paint(fill, outline, width) -> str:
    fill_text = "none" if fill is None else _rgb(fill)
    stroke = "" if outline is None else f' stroke="{_rgb(outline)}" stroke-width="{width}"'
    return f' fill="{fill_text}"{stroke}'


def _key(key: str | None) -> str:
    return "" if key is None else f' class="key" data-key="{html.escape(key)}"'
