"""Terminal commands that need only the package (and Pillow for pictures): ``maya-play``
(:mod:`maya_envs.cli.play`) and ``maya-replay`` (:mod:`maya_envs.cli.replay`).

Commands that need the training extra (``maya-train``, ``maya-eval``) live in ``training/``.
"""
