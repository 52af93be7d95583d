"""Small Pillow helpers shared by the games' ``render_image`` modules (``render_mode="rgb_array"``).

Pillow is an optional dependency (``pip install maya-envs[render]``): it is imported inside
:func:`new_canvas`, so importing a game never needs it. Pictures are 800 px wide; text uses
Pillow's bundled scalable font (Pillow >= 10.1), so no system font is needed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

WIDTH = 800
BACKGROUND = (245, 240, 228)
INK = (40, 36, 32)
MUTED = (120, 112, 100)
CARD_BACK = (120, 78, 48)
SEAT_COLOURS = ((214, 60, 50), (50, 110, 200), (60, 160, 80), (230, 170, 30), (150, 80, 180))


class Canvas:
    """A white-ish picture with a text helper; :meth:`array` returns the ``(H, W, 3)`` uint8 frame."""

    def __init__(self, height: int, width: int = WIDTH) -> None:
        try:
            from PIL import Image, ImageDraw, ImageFont
        except ImportError as error:  # pragma: no cover - depends on the installation
            raise ImportError("render_mode='rgb_array' needs Pillow: pip install 'maya-envs[render]'") from error
        self.image = Image.new("RGB", (width, height), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)
        self._font_module = ImageFont
        self._fonts: dict[int, Any] = {}

    def font(self, size: int):
        if size not in self._fonts:
            self._fonts[size] = self._font_module.load_default(size=size)
        return self._fonts[size]

    def text(self, xy, text: str, size: int = 14, fill=INK, anchor: str = "la") -> None:
        self.draw.text(xy, text, fill=fill, font=self.font(size), anchor=anchor)

    def wrap(self, text: str, size: int, width: float) -> list[str]:
        """``text`` split at spaces into lines no wider than ``width`` pixels (a long word stays whole)."""
        lines: list[str] = []
        for word in text.split():
            candidate = f"{lines[-1]} {word}" if lines else word
            if lines and self.draw.textlength(candidate, font=self.font(size)) <= width:
                lines[-1] = candidate
            else:
                lines.append(word)
        return lines

    def box(self, box, fill, outline=INK, width: int = 1, radius: int = 0) -> None:
        if radius:
            self.draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)
        else:
            self.draw.rectangle(box, fill=fill, outline=outline, width=width)

    def card(self, box, label: str | None, fill=None) -> None:
        """A card: face up with ``label`` on ``fill``, or face down (``label=None``): a plain back."""
        if label is None:
            self.box(box, CARD_BACK, radius=5)
            x0, y0, x1, y1 = box
            self.draw.rectangle((x0 + 4, y0 + 4, x1 - 4, y1 - 4), outline=(190, 150, 110), width=1)
            return
        self.box(box, fill if fill is not None else (255, 255, 255), radius=5)
        x0, y0, x1, y1 = box
        self.text(((x0 + x1) / 2, (y0 + y1) / 2), label, size=15, fill=text_colour(fill), anchor="mm")

    def array(self) -> np.ndarray:
        return np.asarray(self.image, dtype=np.uint8).copy()


def text_colour(fill) -> tuple[int, int, int]:
    """Black or white, whichever reads better on ``fill``."""
    if fill is None:
        return INK
    r, g, b = fill[:3]
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (255, 255, 255)
