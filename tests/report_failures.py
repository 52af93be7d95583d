"""A pytest plugin that names each failing test in the log the moment it fails
(``FAILED <node id>``, or ``ERROR <node id> (at setup)``, on a line of its own), not only in the
closing summary: a long run stopped early (a CI time limit) still says which tests failed, where
the progress line shows only an ``F``. Under pytest-xdist the controller prints it, once, as each
worker's report comes in. Loaded by ``tests/conftest.py`` (or ``-p tests.report_failures``)."""

from __future__ import annotations

import pytest


class NameFailures:
    """Writes a line per failed report to the terminal reporter (the log)."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if not report.failed or reporter is None:
            return
        where = "" if report.when == "call" else f" (at {report.when})"
        reporter.write_line(f"{'FAILED' if report.when == 'call' else 'ERROR'} {report.nodeid}{where}")


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # an xdist worker's output is not the log: its controller says it
        config.pluginmanager.register(NameFailures(config), "name-failures")
