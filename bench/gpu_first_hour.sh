#!/usr/bin/env bash
# GPU checks of issue 17 (first hour), on a machine with one or more GPUs:
#   1. navier --version says how many GPUs it sees;
#   2. a grid too large for the GPU's memory is refused before anything is allocated: exit 2, the
#      bytes needed against the free device memory, no output folder;
#   3. --set run.backend=cuda errors name --set:N (CUDA_VISIBLE_DEVICES= hides the GPUs);
#   4. a small default-case run on the GPU ends with its fields and figures.
# usage: bench/gpu_first_hour.sh [BUILD_DIR] (default build); prints ok/FAIL per check, exit 1 on a FAIL
set -u
cd "$(dirname "$0")/.."
navier=${1:-build}/navier
tmp=$(mktemp -d)
fails=0
check() { local what=$1; shift; if "$@"; then echo "ok $what"; else echo "FAIL $what"; fails=$((fails + 1)); fi; }
"$navier" --version | tee "$tmp/version"
check "version: GPUs visible" grep -Eq "^devices: [0-9]+ CUDA GPU\(s\) visible" "$tmp/version"
"$navier" run --set run.backend=cuda --set grid.dim=3 --set grid.nx=4096 --set grid.ny=4096 --set grid.nz=4096 \
  --output "$tmp/huge" >"$tmp/huge.out" 2>"$tmp/huge.err"
rc=$?
cat "$tmp/huge.err"
check "memory: exit 2 (got $rc)" test "$rc" -eq 2
check "memory: device bytes in the message" grep -q "GiB of device memory is available on the GPU" "$tmp/huge.err"
check "memory: no output folder" test ! -e "$tmp/huge"
CUDA_VISIBLE_DEVICES= "$navier" run --set grid.nx=16 --set run.backend=cuda --output "$tmp/nogpu" >/dev/null \
  2>"$tmp/nogpu.err"
check "backend error at --set:2" grep -q "^--set:2: key 'run.backend'" "$tmp/nogpu.err"
"$navier" run --set run.backend=cuda --set grid.nx=64 --set grid.ny=64 --output "$tmp/small" >"$tmp/small.out" 2>&1
rc=$?
tail -8 "$tmp/small.out"
check "small run on the GPU: exit 0 (got $rc), backend cuda" grep -q "backend cuda" "$tmp/small.out"
check "small run: figures" test -s "$tmp/small/plots/cavity_centerlines.png"
rm -rf "$tmp"
echo "gpu_first_hour: $fails failed"
exit $((fails > 0))
