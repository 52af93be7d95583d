"""``maya-web``: play and watch the games in a browser (see :mod:`maya_envs.web.app`)."""
