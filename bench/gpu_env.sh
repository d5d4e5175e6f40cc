# Source on the device machine, from the repository root, after bench/gpu_carry.sh here: points the paths
# that the carried build tree's CTestTestfile.cmake names (this machine's source and build directories, its
# python3) at the copy, loads the carried host libraries and NCCL, and turns NVLink multicast off.
#   source bench/gpu_env.sh && (cd build-gpu && ctest -L gpu)
if [ -f .carry/bg/.source_dir ]; then      # a carried build tree (bench/gpu_carry.sh), not only loose binaries
  src=$(cat .carry/bg/.source_dir)         # e.g. /work/main/build-gpu
  root=$(dirname "$src")
  if [ "$root" != "$PWD" ]; then
    mkdir -p "$(dirname "$root")"
    [ -e "$root" ] || ln -sfn "$PWD" "$root"
  fi
  [ -e "$PWD/$(basename "$src")" ] || ln -sfn "$PWD/.carry/bg" "$PWD/$(basename "$src")"
fi
# the tree's python3 paths (this machine's pyenv shim and /usr/bin/python3, which the tests need with numpy):
# wrappers around the device's python3 where they are missing or lack numpy (a symlink would lose its venv)
dev_py=$(command -v python3)
for py in /root/.pyenv/shims/python3 /usr/bin/python3; do
  if ! "$py" -c 'import numpy' 2>/dev/null && [ -n "$dev_py" ] && [ "$dev_py" != "$py" ]; then
    mkdir -p "$(dirname "$py")"
    rm -f "$py"
    printf '#!/bin/sh\nexec %s "$@"\n' "$dev_py" >"$py"
    chmod +x "$py"
  fi
done
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
if ! ldconfig -p | grep -q libnccl.so.2; then
  lib=$(find / -name 'libnccl.so.2' -not -path '/proc/*' 2>/dev/null | head -1)
  [ -n "$lib" ] && export NAV_NCCL_LIBRARY=$lib
fi
