"""Tests that import jax: `scripts/test.sh` runs them in a pytest run of their own, after the
rest (JAX is multithreaded, and a process that imported it must not fork: the rest of the suite
forks worker processes).
"""
