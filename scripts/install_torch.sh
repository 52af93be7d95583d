#!/usr/bin/env bash
# Install the CPU build of torch into the Python given as $1 (a venv's python), unless torch is
# already there. Extra arguments go to pip (e.g. --no-compile).
#
# * An ordinary machine with internet: PyTorch's CPU wheel index, as PyTorch's install page
#   documents (https://pytorch.org/get-started/locally/: pip install torch --index-url
#   https://download.pytorch.org/whl/cpu). A plain `pip install torch` from PyPI takes the CUDA
#   build on Linux (several GB of nvidia-* wheels) that a CPU-only project does not need.
# * A machine where that index cannot be reached (an offline mirror, this project's build
#   machine): plain pip with the release the mirror holds, MAYA_TORCH_FALLBACK (default
#   torch==2.13.0, the CPU wheel on the project's build machine).
# MAYA_TORCH_INDEX overrides the index (e.g. .../whl/cu124 for a GPU build).
set -euo pipefail
py="$1"
shift
if "$py" -c "import torch" 2>/dev/null; then
  exit 0
fi
index="${MAYA_TORCH_INDEX:-https://download.pytorch.org/whl/cpu}"
if "$py" - "$index" <<'PY' 2>/dev/null; then
import sys, urllib.request
urllib.request.urlopen(sys.argv[1].rstrip("/") + "/torch/", timeout=10)
PY
  echo "install_torch.sh: torch from $index" >&2
  "$py" -m pip install -q "$@" "torch>=2.3" --index-url "$index"
else
  fallback="${MAYA_TORCH_FALLBACK:-torch==2.13.0}"
  echo "install_torch.sh: $index cannot be reached; installing $fallback with plain pip (local mirror)" >&2
  "$py" -m pip install -q "$@" "$fallback"
fi
