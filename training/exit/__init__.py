"""Expert iteration (``algo: exit``): search-distilled policy-value networks.

One module per job: :mod:`~training.exit.play` (games in lock step), :mod:`~training.exit.actors`
(the actor processes), :mod:`~training.exit.replay` (the replay buffer),
:mod:`~training.exit.learner` (the loss and the optimiser), :mod:`~training.exit.gating`
(seat-rotated matches and the keep decision) and :mod:`~training.exit.loop` (the iterations,
logs, checkpoints and the evaluation). ``maya-train --config maya2012/2p_exit`` runs it.
"""
