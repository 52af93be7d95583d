"""YAML from a user (configs, ``--set key=value`` overrides, ``--option`` values), read as plain data.

PyYAML's safe loader builds no object but plain data, yet an anchor reused through aliases
(``a: &a [x, x]``, ``b: [*a, *a]``, nine levels deep) makes a file of a few hundred bytes stand
for billions of values (the "billion laughs" of XML): whatever walks or prints it (a config
check, an error message echoing the value) runs for minutes or prints millions of characters.
No config of this project needs an alias and the files it writes hold none, so
:func:`load_yaml` refuses anchors and aliases outright, at the first one, before anything is
built from the document.
"""

from __future__ import annotations

from typing import Any

import yaml

from maya_envs.core.errors import ConfigError


class _PlainLoader(yaml.SafeLoader):
    """:class:`yaml.SafeLoader` that stops at the first anchor (``&name``) or alias (``*name``)."""

    def compose_node(self, parent, index):  # noqa: ANN001, ANN201 - PyYAML's signature
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            raise _AliasFound(event.start_mark)
        return super().compose_node(parent, index)


class _AliasFound(Exception):
    def __init__(self, mark) -> None:  # noqa: ANN001 - a yaml Mark
        super().__init__()
        self.line = mark.line + 1


def load_yaml(text: str, where: str) -> Any:
    """The plain data of the YAML ``text`` (dicts, lists, strings, numbers, bools, ``None``).

    Args:
        text: the document.
        where: what it is, for the message (``"config 'x.yaml'"``, ``"override 'lr=1e-3'"``).

    Raises:
        ConfigError: not valid YAML (PyYAML's words, which quote at most a line's snippet), or
            an anchor or alias (the message names its line).
    """
    try:
        return yaml.load(text, Loader=_PlainLoader)  # noqa: S506 - a SafeLoader subclass
    except _AliasFound as found:
        raise ConfigError(
            f"{where}: line {found.line}: YAML anchors and aliases (&name, *name) are not read; write each value out"
        ) from None
    except yaml.YAMLError as error:
        raise ConfigError(f"{where} is not valid YAML: {error}") from None
