"""Training and evaluation scripts (need the ``train`` extra: sb3-contrib, torch, PyYAML)."""
