"""The console scripts and running one only up to its argument parser (:func:`parse_only`)."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import re
import shlex

import pytest

from tests.helpers import ROOT


def console_scripts() -> dict[str, str]:
    """``[project.scripts]`` of pyproject.toml: command -> ``module:function``."""
    table = (ROOT / "pyproject.toml").read_text(encoding="utf-8").split("[project.scripts]", 1)[1].split("\n[", 1)[0]
    return dict(re.findall(r'^([\w-]+)\s*=\s*"([\w.]+:\w+)"', table, flags=re.MULTILINE))


SCRIPTS = console_scripts()


class Parsed(Exception):
    """Raised in place of running a command once its parser accepted the arguments."""

    def __init__(self, namespace: argparse.Namespace):
        super().__init__(namespace)
        self.namespace = namespace


def parse_only(target: str, args: list[str], monkeypatch) -> argparse.Namespace:
    """Run ``target`` (``module:function``) on ``args`` up to its ``parse_args`` and return the
    namespace; an argument its parser refuses fails with the parser's message."""
    module_name, _, function = target.partition(":")
    main = getattr(importlib.import_module(module_name), function)
    original = argparse.ArgumentParser.parse_args

    def parse_then_stop(self, *a, **k):
        raise Parsed(original(self, *a, **k))

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_then_stop)
    try:
        main(args)
    except Parsed as parsed:
        return parsed.namespace
    except SystemExit as stop:
        pytest.fail(f"{target} {shlex.join(args)}: the parser refused it (exit {stop.code})")
    pytest.fail(f"{target} {shlex.join(args)} returned without parsing its arguments")
