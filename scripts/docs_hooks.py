"""MkDocs hook of the documentation build (mkdocs.yml ``hooks``): pages that other work adds
to docs/ (the named optional pages, any new tutorial) join the navigation once they exist, so
the nav never names a missing file (a missing nav entry fails ``mkdocs build --strict``) and
never leaves a present page out of it."""

from __future__ import annotations

from pathlib import Path

#: Section title -> ((page title, path below docs/), ...), appended when the file exists and the
#: nav does not name it yet.
OPTIONAL_PAGES = {
    "Guides": (
        ("The JAX engines", "jax.md"),
        ("maya-web: running it, security", "web.md"),
        ("The main job", "main_job.md"),
        ("Interoperability notes", "interop_notes.md"),
    ),
    "Project": (
        ("Security and trust", "security.md"),
        ("Security: the web app", "security_web.md"),
        ("Security: inputs", "security_inputs.md"),
        ("Input limits", "input_limits.md"),
    ),
}


#: Section title -> folder below docs/ whose pages join the section when the nav lacks them (a
#: tutorial added with its page appears without an edit here).
FOLDERS = {"Tutorials": "tutorials"}


def _title(page: Path) -> str:
    """A page's first Markdown heading, else its file name."""
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return page.stem


def _named(nav: list) -> set[str]:
    """Every page path the nav names, at any depth."""
    found = set()
    for entry in nav:
        values = entry.values() if isinstance(entry, dict) else [entry]
        for value in values:
            if isinstance(value, list):
                found |= _named(value)
            elif isinstance(value, str):
                found.add(value)
    return found


def on_config(config, **_):
    """Append each present optional page to its section (created at the end if absent)."""
    docs = Path(config["docs_dir"])
    nav = config["nav"]
    named = _named(nav)
    found = {
        section: tuple((_title(page), str(page.relative_to(docs))) for page in sorted((docs / folder).glob("*.md")))
        for section, folder in FOLDERS.items()
    }
    for section, pages in [*OPTIONAL_PAGES.items(), *found.items()]:
        present = [{title: path} for title, path in pages if (docs / path).is_file() and path not in named]
        if not present:
            continue
        entry = next((e for e in nav if isinstance(e, dict) and section in e), None)
        if entry is None:
            nav.append({section: present})
        else:
            entry[section].extend(present)
    return config
