#!/bin/sh
# The Python package in a virtual environment: pip install ./python (offline: numpy and setuptools of the
# system through --system-site-packages), then test_simulation.py against the navier command of the build.
# usage: test_simulation.sh PYTHON BUILD_DIR SOURCE_DIR SCRATCH
set -eu
py=$1 build=$2 src=$3 scratch=$4
rm -rf "$scratch" && mkdir -p "$scratch"
"$py" -m venv --system-site-packages "$scratch/venv"
NAVIER_BUILD="$build" "$scratch/venv/bin/pip" install -q --no-build-isolation --no-index "$src/python"
cd "$scratch"  # not the source tree: the installed package is imported
env -u NAVIER_LIBRARY -u NAVIER_PREFIX OMP_NUM_THREADS=1 "$scratch/venv/bin/python" \
  "$src/tests/python/test_simulation.py" "$build/navier" "$scratch"
