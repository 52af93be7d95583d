"""Training and evaluation scripts (need the ``train`` extra: sb3-contrib, torch, PyYAML).

Importing the package registers the ``rllib:`` opponent specs with
:func:`maya_envs.wrappers.opponents.register_resolver` (the installed ``maya_envs.opponents``
entry point does the same where the package metadata is current).
"""

from maya_envs.wrappers.opponents import register_resolver


def _rllib_opponent(spec, rules=None):
    from training.rllib_agent import resolve_opponent  # lazy: torch, only for such a spec (never Ray)

    return resolve_opponent(spec, rules)


register_resolver("rllib", _rllib_opponent)
