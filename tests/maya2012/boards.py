"""Hand-built Maya (2012) boards for scenario tests."""

from __future__ import annotations

from maya_envs.maya2012.rules import Maya2012State


def complete_board(fixed: dict[int, tuple[int | None, ...]]) -> tuple[tuple[int, ...], ...]:
    """A valid board (each level a permutation of 0-8) where ``fixed[t][i]`` (when not None)
    is the colour of tower ``t`` at level ``i + 1``. Towers need not be repeat-free, since
    play creates joins. Found by depth-first search, deterministic."""
    grid = [[None] * 5 for _ in range(9)]
    for tower, colours in fixed.items():
        for level, colour in enumerate(colours):
            grid[tower][level] = colour
    for level in range(5):
        used = {grid[t][level] for t in range(9) if grid[t][level] is not None}
        free_towers = [t for t in range(9) if grid[t][level] is None]
        free_colours = [c for c in range(9) if c not in used]
        if not _assign(grid, level, free_towers, free_colours):
            raise ValueError(f"cannot complete level {level + 1}")
    return tuple(tuple(tower) for tower in grid)


def _assign(grid, level, towers, colours) -> bool:
    if not towers:
        return True
    tower = towers[0]
    for colour in colours:
        # prefer fillers that do not repeat a colour in the tower, so no accidental joins
        if colour in (grid[tower][level - 1] if level else None, grid[tower][level + 1] if level < 4 else None):
            continue
        grid[tower][level] = colour
        if _assign(grid, level, towers[1:], [c for c in colours if c != colour]):
            return True
        grid[tower][level] = None
    return False


def state_with(towers, **fields) -> Maya2012State:
    """An exchange-phase state on ``towers`` with defaults for everything not given."""
    fields.setdefault("monolith", -1)
    fields.setdefault("raven", 0)
    return Maya2012State(towers=towers, **fields)


def multi_state(towers, tasks, spare=(), **fields) -> Maya2012State:
    """A 3- or 4-player exchange-phase state (``len(tasks)`` seats) on ``towers``."""
    n = len(tasks)
    fields.setdefault("monolith", -1)
    return Maya2012State(
        towers=towers,
        ladders=((0,) * 9,) * n,
        ladders_left=(0,) * n,
        priests_left=(0,) * n,
        tasks=tuple(tuple(t) for t in tasks),
        spare=tuple(spare),
        **fields,
    )
