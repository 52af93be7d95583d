"""Maya (2012), Yaxha and the quarry game in JAX with Pgx's API (optional: the ``jax`` extra,
``pip install 'maya-envs[jax]'``).

Nothing else in :mod:`maya_envs` imports this package; importing it needs ``jax`` and ``pgx``.
See :mod:`maya_envs.jax.maya2012`, :mod:`maya_envs.jax.yaxha` and :mod:`maya_envs.jax.maya_quarry`
for the spec cards; the Yaxha and quarry-game converters are in their modules.
"""

from maya_envs.jax.maya2012 import (
    ENV_ID,
    Maya2012,
    State,
    relabel_board,
    sample_board,
    state_from_rules,
    state_to_rules,
    unpack_towers,
)
from maya_envs.jax.maya_quarry import MayaQuarry
from maya_envs.jax.yaxha import Yaxha

__all__ = ["ENV_ID", "Maya2012", "MayaQuarry", "State", "relabel_board", "sample_board", "state_from_rules",
           "state_to_rules", "unpack_towers", "Yaxha"]  # fmt: skip
