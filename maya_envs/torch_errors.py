"""Why ``torch.load(weights_only=True)`` refused a file, in one line of our words.

PyTorch's refusal is about ten lines that advise re-running ``torch.load`` with
``weights_only=False`` ("will likely succeed") or allow-listing the global it met: advice that
runs the code inside an untrusted file, which this project must never pass on. What a message
keeps is the fact (the ``WeightsUnpickler error``: which global the file asked for), else the
first sentence of torch's first line, without terminal escapes, shortened.
"""

from __future__ import annotations

import re

MAX_REASON_CHARS = 160
"""Longest reason kept from torch's message (cut with ``...``)."""

_ESCAPES = re.compile(r"\x1b\[[0-9;]*m")
_UNPICKLER = "WeightsUnpickler error:"


def torch_load_reason(error: BaseException) -> str:
    """One line, at most :data:`MAX_REASON_CHARS` characters, saying why torch refused a file
    (``"Unsupported global: GLOBAL io.open was not an allowed global by default"``); never
    torch's advice to load it unsafely."""
    text = _ESCAPES.sub("", str(error))
    if _UNPICKLER in text:
        text = text.split(_UNPICKLER, 1)[1]
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    first = lines[0] if lines else type(error).__name__
    sentence = re.split(r"(?<=[^.])\. ", first, maxsplit=1)[0].rstrip(".")
    if len(sentence) > MAX_REASON_CHARS:
        sentence = sentence[: MAX_REASON_CHARS - 3] + "..."
    return sentence
