"""YAML from a user (configs, ``--set key=value`` overrides, ``--option`` values), read as plain data.

PyYAML's safe loader builds no object but plain data, yet an anchor reused through aliases
(``a: &a [x, x]``, ``b: [*a, *a]``, nine levels deep) makes a file of a few hundred bytes stand
for billions of values (the "billion laughs" of XML): whatever walks or prints it (a config
check, an error message echoing the value) runs for minutes or prints millions of characters.
No config of this project needs an alias and the files it writes hold none, so
:func:`load_yaml` refuses anchors and aliases outright, at the first one, before anything is
built from the document.

A key written twice in one mapping (``total_timesteps: 1`` and later ``total_timesteps: 2``) is
refused too, naming the key and both lines: PyYAML keeps the last silently, so an edit that
meant to change a value could be undone by a forgotten line below it (records and the web's JSON
refuse duplicate keys likewise).
"""

from __future__ import annotations

from typing import Any

import yaml

from maya_envs.core.errors import ConfigError, shorten

_MERGE_TAG = "tag:yaml.org,2002:merge"


class _PlainLoader(yaml.SafeLoader):
    """:class:`yaml.SafeLoader` that stops at the first anchor (``&name``) or alias (``*name``)
    and at the first key written twice in one mapping."""

    def compose_node(self, parent, index):  # noqa: ANN001, ANN201 - PyYAML's signature
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            raise _AliasFound(event.start_mark)
        return super().compose_node(parent, index)

    def construct_mapping(self, node, deep=False):  # noqa: ANN001, ANN201 - PyYAML's signature
        if isinstance(node, yaml.MappingNode):
            first_line: dict[Any, int] = {}
            for key_node, _ in node.value:
                if key_node.tag == _MERGE_TAG:
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    if key in first_line:
                        raise _DuplicateKey(key, first_line[key], key_node.start_mark)
                    first_line[key] = key_node.start_mark.line + 1
                except TypeError:  # an unhashable key: the parent refuses it with its own words
                    continue
        return super().construct_mapping(node, deep)


class _AliasFound(Exception):
    def __init__(self, mark) -> None:  # noqa: ANN001 - a yaml Mark
        super().__init__()
        self.line = mark.line + 1


class _DuplicateKey(Exception):
    def __init__(self, key: Any, first: int, mark) -> None:  # noqa: ANN001 - a yaml Mark
        super().__init__()
        self.key, self.first, self.line = key, first, mark.line + 1


def load_yaml(text: str, where: str) -> Any:
    """The plain data of the YAML ``text`` (dicts, lists, strings, numbers, bools, ``None``).

    Args:
        text: the document.
        where: what it is, for the message (``"config 'x.yaml'"``, ``"override 'lr=1e-3'"``).

    Raises:
        ConfigError: not valid YAML (PyYAML's words, which quote at most a line's snippet),
            an anchor or alias (the message names its line), or a key written twice in one
            mapping (the message names the key, shortened, and both lines).
    """
    try:
        return yaml.load(text, Loader=_PlainLoader)  # noqa: S506 - a SafeLoader subclass
    except _AliasFound as found:
        raise ConfigError(
            f"{where}: line {found.line}: YAML anchors and aliases (&name, *name) are not read; write each value out"
        ) from None
    except _DuplicateKey as twice:
        raise ConfigError(
            f"{where}: line {twice.line}: key {shorten(twice.key)} is written twice (first on line {twice.first}); "
            "allowed: each key once in a mapping"
        ) from None
    except yaml.YAMLError as error:
        raise ConfigError(f"{where} is not valid YAML: {error}") from None
