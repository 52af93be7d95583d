"""The documentation's code, read from the Markdown at test time (never copied here).

* Every ```` ```python ```` block of README.md, the game READMEs (``maya_envs/*/README.md``),
  ``training/*.md`` and the documentation site's hand-written pages (``docs/``, not the generated
  ``docs/games/``, which repeat the game READMEs) runs as written, in a fresh namespace with a
  temporary working directory. A block that imports a module of an optional extra that is not
  installed (``pyspiel``, ``ray``) skips and names it; a block that names a file a command makes
  (``runs/<run>``) skips and says so.
* Every shell command of those files' fenced ```` ```bash ```` blocks that calls one of the
  project's commands (``maya-*``, ``python -m training...``/``maya_envs...``) has its arguments
  parsed by that command's own parser (its ``main``, stopped right after ``parse_args``), and
  those of ``maya-train`` that name no placeholder are checked as a whole with ``--dry-run``;
  a ``scripts/*.sh`` it runs exists and passes ``bash -n``.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from maya_envs.games import DEFAULT_GAME
from tests.helpers import ROOT
from tests.helpers.commands import SCRIPTS, parse_only

DOCS = [
    ROOT / "README.md",
    *sorted(ROOT.glob("maya_envs/*/README.md")),
    *sorted(ROOT.glob("training/*.md")),
    *sorted(p for p in ROOT.glob("docs/**/*.md") if "games" not in p.relative_to(ROOT / "docs").parts),
]
PLACEHOLDER = re.compile(r"<[A-Za-z_][\w.-]*>")
EXTRAS = {"pyspiel": "openspiel", "open_spiel": "openspiel", "ray": "rllib", "flask": "web", "PIL": "render"}


def fenced_blocks(path: Path, language: str) -> list[tuple[int, str]]:
    """``(line, code)`` of every fenced block of ``language`` in a Markdown file (line: the
    fence's, 1-based)."""
    blocks, current, start = [], None, 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        fence = line.strip()
        if current is None and fence == f"```{language}":
            current, start = [], number
        elif current is not None and fence == "```":
            blocks.append((start, "\n".join(current) + "\n"))
            current = None
        elif current is not None:
            current.append(line)
    return blocks


def _label(path: Path, line: int) -> str:
    return f"{path.relative_to(ROOT)}:{line}"


SNIPPET = re.compile(r'^--8<-- "[^"]+"\s*$')  # a whole script included by the site (tests/test_tutorials.py runs it)
PYTHON_BLOCKS = [
    (_label(path, line), code)
    for path in DOCS
    for line, code in fenced_blocks(path, "python")
    if not SNIPPET.match(code)
]


def test_the_docs_have_python_blocks_to_run():
    """The extraction itself: README.md's Quick start block is among them (a changed fence
    style would otherwise leave nothing to run)."""
    labels = [label for label, _ in PYTHON_BLOCKS]
    assert any(label.startswith("README.md:") for label in labels), labels
    assert any(f"{DEFAULT_GAME.name}.env(" in code for _, code in PYTHON_BLOCKS)


def _missing_imports(code: str) -> list[str]:
    tops = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            tops.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            tops.add(node.module.split(".")[0])
    return sorted(top for top in tops if importlib.util.find_spec(top) is None)


@pytest.mark.parametrize(("label", "code"), PYTHON_BLOCKS, ids=[label for label, _ in PYTHON_BLOCKS])
def test_python_block_runs_as_written(label, code, tmp_path, monkeypatch):
    missing = _missing_imports(code)
    if missing:
        extras = sorted({EXTRAS.get(name, name) for name in missing})
        pytest.skip(f"{label} needs {', '.join(missing)} (extra: {', '.join(extras)})")
    placeholders = sorted(set(PLACEHOLDER.findall(code)))
    if placeholders:
        pytest.skip(f"{label} names files a command makes first ({', '.join(placeholders)})")
    monkeypatch.chdir(tmp_path)  # whatever a block writes lands here, not in the checkout
    monkeypatch.setenv("MPLBACKEND", "Agg")
    exec(compile(code, label, "exec"), {"__name__": "__readme__"})


# -- shell commands ---------------------------------------------------------------------------


def shell_commands(path: Path) -> list[tuple[str, list[str]]]:
    """``(label, argv)`` of every command in the file's ```` ```bash ```` blocks: continuation
    lines joined, comments dropped, ``&&`` chains split, optional ``[...]`` parts kept as given
    (``[--pair]`` -> ``--pair``), leading ``VAR=value`` assignments dropped."""
    commands = []
    for line, code in fenced_blocks(path, "bash"):
        for text in code.replace("\\\n", " ").splitlines():
            words = shlex.split(text, comments=True)
            while words and re.fullmatch(r"[A-Z_]+=\S*", words[0]):
                words = words[1:]
            chain: list[str] = []
            for word in [*words, "&&"]:
                if word != "&&":
                    chain.append(word[1:-1] if re.fullmatch(r"\[--[\w-]+\]", word) else word)
                elif chain:
                    commands.append((_label(path, line), chain))
                    chain = []
    return commands


def entry_point(argv: list[str]) -> tuple[str, list[str]] | None:
    """The ``module:function`` a project command runs and its arguments; ``None`` for other
    commands (pip, python -m build, a plain script)."""
    name = Path(argv[0]).name
    if name in SCRIPTS:
        return SCRIPTS[name], argv[1:]
    if name.startswith("python") and len(argv) > 2 and argv[1] == "-m":
        module = argv[2]
        if module.split(".")[0] in ("training", "maya_envs"):
            package_main = ROOT.joinpath(*module.split("."), "__main__.py").is_file()
            main_module = f"{module}.__main__" if package_main else module
            return f"{main_module}:main", argv[3:]
    return None


COMMANDS = [command for path in DOCS for command in shell_commands(path)]
PROJECT_COMMANDS = [(label, argv) for label, argv in COMMANDS if entry_point(argv)]
SHELL_SCRIPTS = sorted({word for _, argv in COMMANDS for word in argv if re.fullmatch(r"scripts/[\w-]+\.sh", word)})


def test_the_readme_has_project_commands():
    names = {Path(argv[0]).name for _, argv in PROJECT_COMMANDS}
    assert {"maya-train", "maya-eval", "maya-arena"} <= names, names


@pytest.mark.parametrize(
    ("label", "argv"), PROJECT_COMMANDS, ids=[f"{label} {shlex.join(argv)[:60]}" for label, argv in PROJECT_COMMANDS]
)
def test_readme_command_parses(label, argv, monkeypatch, tmp_path, capsys):
    target, args = entry_point(argv)
    module = target.partition(":")[0]
    monkeypatch.chdir(tmp_path)
    namespace = parse_only(target, args, monkeypatch)
    monkeypatch.undo()
    if PLACEHOLDER.search(" ".join(args)) or "--config" not in args:
        return
    monkeypatch.chdir(tmp_path)
    if module == "training.train":  # the whole config checked, the env built once
        from training.train import main

        assert main([*args, "--dry-run"]) == 0
        assert capsys.readouterr().out.startswith("config ok: ")
        assert not any(tmp_path.iterdir()), "--dry-run wrote files"
    elif module == "training.rllib_train":  # the config's keys and values (no Ray needed)
        from training.rllib_train import load_rllib_config

        load_rllib_config(namespace.config, namespace.set)


@pytest.mark.parametrize("script", SHELL_SCRIPTS)
def test_readme_script_exists_and_parses(script):
    assert (ROOT / script).is_file(), script
    subprocess.run(["bash", "-n", str(ROOT / script)], check=True)


def test_the_dry_run_refuses_a_bad_config(capsys):
    from training.train import main

    with pytest.raises(SystemExit):
        main(["--config", f"{DEFAULT_GAME.key}/2p_quick", "--set", "total_timesteps=-1", "--dry-run"])
    assert "total_timesteps=-1" in capsys.readouterr().err


def test_parse_only_reports_a_refused_argument(monkeypatch):
    with pytest.raises(pytest.fail.Exception, match="refused"):
        parse_only(SCRIPTS["maya-arena"], ["--agents", "random", "--games", "many"], monkeypatch)


# -- inline code ------------------------------------------------------------------------------

INLINE_MAKE = re.compile(r"`((?:pettingzoo|gym|gymnasium)\.make\([^`]*\))`")


def inline_make_calls(path: Path) -> list[tuple[str, str]]:
    """``(label, call)`` of every inline ``pettingzoo.make(...)`` / ``gym.make(...)`` in the text,
    outside the "Versions" section and page (which name retired ids on purpose)."""
    if path.name == "versions.md":
        return []
    text = path.read_text(encoding="utf-8")
    calls = []
    for section in re.split(r"^(?=## )", text, flags=re.MULTILINE):
        if section.startswith("## Versions"):
            continue
        offset = text.index(section)
        for match in INLINE_MAKE.finditer(section):
            line = text.count("\n", 0, offset + match.start()) + 1
            calls.append((_label(path, line), " ".join(match.group(1).split())))
    return calls


INLINE_CALLS = [call for path in DOCS for call in inline_make_calls(path)]


@pytest.mark.parametrize(("label", "call"), INLINE_CALLS, ids=[f"{label} {call[:50]}" for label, call in INLINE_CALLS])
def test_inline_make_call_works(label, call):
    import gymnasium
    import pettingzoo

    import maya_envs  # noqa: F401  (registers the ids)

    env = eval(call, {"pettingzoo": pettingzoo, "gym": gymnasium, "gymnasium": gymnasium})
    env.reset(seed=0)
    env.close()
