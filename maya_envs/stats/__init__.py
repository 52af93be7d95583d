"""``maya-stats``: each game's shape, balance and cost from many seeded games.

One job per module: :mod:`~maya_envs.stats.collect` plays seeded games (in worker processes)
and records per-decision facts; :mod:`~maya_envs.stats.figures` turns the records into figures;
:mod:`~maya_envs.stats.report` writes the Markdown and JSON report; :mod:`~maya_envs.stats.plots`
draws the PNG plots; :mod:`~maya_envs.stats.readme` keeps the README's "Game statistics"
tables; :mod:`~maya_envs.stats.cli` is the command (``maya-stats``, ``python -m maya_envs.stats``).
The package names no game: games, player counts, variants, phases and move kinds all come from
:data:`maya_envs.games.GAMES` and each game's rules, serializer, notation and determinizer.
"""

from maya_envs.stats.collect import GameRecord, StatsConfig, collect
from maya_envs.stats.figures import figures, timing, world_estimate
from maya_envs.stats.report import markdown, run, to_json

__all__ = ["GameRecord", "StatsConfig", "collect", "figures", "markdown", "run", "timing", "to_json", "world_estimate"]
