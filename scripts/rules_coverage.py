"""Branch coverage of the three rules engines over the rules tests (issue 17 item 5).

Runs the rules tests (:data:`TESTS`: the targeted positions and rulebook scenarios, not the
slow random-play oracles, to keep CI short) under coverage.py with branch measurement, then
prints one figure per engine and every uncovered branch
(``file:line->line``; ``->exit`` leaves the function). CI runs it from ``scripts/test.sh``;
run it alone with ``.venv/bin/python scripts/rules_coverage.py``. Exit status: pytest's.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import coverage
import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINES = {
    "maya2012": ["maya_envs/maya2012/rules.py", "maya_envs/maya2012/setup.py"],
    "maya_quarry": sorted(str(p.relative_to(ROOT)) for p in (ROOT / "maya_envs/maya_quarry/rules").glob("*.py")),
    "yaxha": ["maya_envs/yaxha/rules.py", "maya_envs/yaxha/scoring.py"],
}
TESTS = [  # the targeted and scenario rules tests; the random-play oracles stay in the main run only
    "tests/maya2012/test_legal_branches.py",
    "tests/maya_quarry/test_legal_branches.py",
    "tests/yaxha/test_legal_branches.py",
    "tests/maya2012/test_multiplayer_rules.py",
    "tests/maya2012/test_rulebook_examples.py",
    "tests/maya_quarry/test_rulebook_examples.py",
    "tests/maya_quarry/test_advanced.py",
    "tests/yaxha/test_rules.py",
    "tests/yaxha/test_placement.py",
    "tests/yaxha/test_market.py",
    "tests/yaxha/test_scoring.py",
]


def main(argv: list[str]) -> int:
    files = [str(ROOT / f) for files in ENGINES.values() for f in files]
    cov = coverage.Coverage(branch=True, data_file=None, include=files)
    cov.start()
    status = pytest.main(["-q", "-n", "0", "-p", "no:cacheprovider", "-m", "not slow and not extended", *TESTS, *argv])
    cov.stop()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "coverage.json"
        cov.json_report(outfile=str(out), include=files)
        report = json.loads(out.read_text())["files"]
    print("\nrules-engine branch coverage (scripts/rules_coverage.py):")
    missing_lines = []
    for engine, names in ENGINES.items():
        covered = total = 0
        for name in names:
            entry = report.get(name) or report.get(str(ROOT / name))
            if entry is None:  # never imported: every branch uncovered
                continue
            covered += entry["summary"]["covered_branches"]
            total += entry["summary"]["num_branches"]
            missing_lines += [f"  {name}:{a}->{'exit' if b < 0 else b}" for a, b in entry["missing_branches"]]
        share = 100.0 * covered / total if total else 100.0
        print(f"  {engine:12s} {share:5.1f}% of branches ({covered}/{total})")
    print(f"uncovered branches ({len(missing_lines)}):")
    print("\n".join(missing_lines))
    return int(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
