"""``python -m maya_envs.stats``: the ``maya-stats`` command (:mod:`maya_envs.stats.cli`)."""

import sys

from maya_envs.stats.cli import main

sys.exit(main())
