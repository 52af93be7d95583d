"""The shipped training configs (YAML), importable as the package ``training.configs``.

In the repository this is the top-level ``configs/`` directory; the wheel installs it as
``training/configs/`` (``[tool.setuptools.package-dir]`` in ``pyproject.toml``), so the configs
work from an installed package too. Refer to one by name, its path below this directory without
``.yaml`` (``maya-train --config maya2012/2p_quick``); names are resolved by
:func:`training.config_names.resolve_config` and listed by ``maya-train --list-configs``.
"""
