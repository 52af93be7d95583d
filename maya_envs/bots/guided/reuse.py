"""Tree reuse between moves (:class:`TreeKeeper`) and the checks a kept tree needs before a
search starts from it: one root per tree (:func:`one_root_per_tree`) and the nodes whose cheap
prior must be replaced (:func:`cheap_above`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from maya_envs.bots.guided.config import REUSE_DEPTH
from maya_envs.bots.guided.root import RootSearch, SearchResult
from maya_envs.bots.guided.tree import Node


def one_root_per_tree(searches: list[RootSearch]) -> None:
    """Drop the kept tree of each search whose tree shares a node with an earlier search's (the
    same node handed to two roots, or one kept tree inside another): two roots walking one
    tree would each add their visits to the other's statistics and Gumbel schedule."""
    claimed: set[int] = set()
    for search in searches:
        if search.tree is None:
            continue
        ids: list[int] = []
        frontier = [search.tree]
        while frontier:
            ids.extend(id(node) for node in frontier)
            frontier = [child for node in frontier for child in node.children if child is not None]
        if claimed.isdisjoint(ids):
            claimed.update(ids)
        else:
            search.tree = None


def cheap_above(root: Node, prior_depth: int | None) -> list[Node]:
    """The nodes of a kept tree less than ``prior_depth`` plies below ``root`` (any depth with
    ``None``) whose prior is the cheap uniform one: they were ``prior_depth`` or more plies
    below the root of the search that made them."""
    found: list[Node] = []
    frontier, depth = [root], 0
    while frontier and (prior_depth is None or depth < prior_depth):
        found.extend(node for node in frontier if node.cheap)
        frontier = [child for node in frontier for child in node.children if child is not None]
        depth += 1
    return found


class TreeKeeper:
    """Tree reuse between moves (:attr:`GuidedConfig.reuse`): :meth:`keep` the trees of the last
    searches, then :meth:`find` the kept node of each new root, a node at most
    :data:`REUSE_DEPTH` plies below a kept root whose state equals it (the subtree under the
    move played and, for the opponent's move, under the reply). Its visit counts and values
    carry over (:func:`~maya_envs.bots.guided.search.search_many` gives the evaluator's prior
    to its nodes that had the cheap one and are now above ``prior_depth``); the rest of the old
    trees is dropped. States must be hashable (else nothing is found); the tree must have been
    searched with the node cache.
    """

    def __init__(self, depth: int = REUSE_DEPTH) -> None:
        self.depth = depth
        self._index: dict[Any, Node] = {}

    def keep(self, results: Sequence[SearchResult]) -> None:
        """Index the nodes 1..depth plies below each result's root (replacing what was kept)."""
        index: dict[Any, Node] = {}
        try:
            for result in results:
                frontier = [] if result.tree is None or result.tree.state is None else [result.tree]
                for _ in range(self.depth):
                    frontier = [child for node in frontier for child in node.children if child is not None]
                    for child in frontier:
                        index[child.state] = child
        except TypeError:  # an unhashable state: no reuse
            index = {}
        self._index = index

    def find(self, states: Sequence[Any]) -> list[Node | None]:
        """The kept node of each state, or ``None``."""
        try:
            return [self._index.get(state) for state in states]
        except TypeError:
            return [None] * len(states)
