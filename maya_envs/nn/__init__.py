"""The policy-value network of expert iteration (issue 16): its inputs, the model, and the
bots and search evaluator built on it.

* :mod:`maya_envs.nn.inputs` (numpy only): :class:`~maya_envs.nn.inputs.NetworkInputs`, what the
  network sees of a state (the acting seat's observation and per-action features), and
  :func:`~maya_envs.nn.inputs.collate`.
* :mod:`maya_envs.nn.model` (torch): :class:`~maya_envs.nn.model.PolicyValueNet`,
  :func:`~maya_envs.nn.model.save_network`, :func:`~maya_envs.nn.model.load_network`.
* :mod:`maya_envs.nn.frozen` (numpy only): :class:`~maya_envs.nn.frozen.FrozenNet`, a network's
  forward pass on a numpy copy of its weights (what the play bots compute with: about 3x
  faster than torch for one position).
* :mod:`maya_envs.nn.agent` (torch): :class:`~maya_envs.nn.agent.NetworkEvaluator` (the guided
  search's evaluator hook), :class:`~maya_envs.nn.agent.NetworkBot` (the ``policy:`` bot) and the
  ``policy:`` / ``az:`` bot specs.

torch is an optional dependency (the ``train`` extra): importing this package (or
``maya_envs``) imports no torch; the model and agent modules do.
"""

from maya_envs.nn.inputs import NetworkInputs, collate

TRAIN_EXTRA_HINT = "pip install 'maya-envs[train]'"
"""How to install torch for the network (the ``train`` extra)."""

__all__ = ["NetworkInputs", "TRAIN_EXTRA_HINT", "collate"]
