#!/usr/bin/env bash
# Bad decompositions on 4 ranks: each exits 2 on every rank within a few seconds (no hang), with
# "FILE:LINE: key 'run.decomposition': reason" on stderr, and computes nothing.
# usage: test_bad_decomposition.sh MPIEXEC NAVIER SCRATCH
set -u
mpiexec=$1
navier=$2
scratch=$3
rm -rf "$scratch"
mkdir -p "$scratch"
fails=0
try() { # try NAME DECOMPOSITION EXPECTED_REASON [extra case lines]
  local name=$1 dec=$2 reason=$3 extra=${4:-}
  local case=$scratch/$name.ini out=$scratch/$name
  printf '[run]\nname = %s\ndecomposition = %s\n[grid]\nnx = 6\nny = 8\n%b[time]\nmax_steps = 2\n' "$name" "$dec" \
    "$extra" >"$case"
  local t0=$SECONDS
  timeout 30 "$mpiexec" -n 4 --oversubscribe "$navier" run "$case" --output "$out" >"$out.out" 2>"$out.err"
  local rc=$? secs=$((SECONDS - t0))
  local msg
  msg=$(grep -m1 "key 'run.decomposition'" "$out.err")
  if [ "$rc" -eq 2 ] && grep -q "^$case:3: key 'run.decomposition': .*$reason" "$out.err" && [ ! -e "$out/summary.json" ]; then
    echo "ok   $name ($dec): exit $rc after ${secs}s: $msg"
  else
    echo "FAIL $name ($dec): exit $rc after ${secs}s (want 2, '$reason' at line 3, no summary)"
    cat "$out.err"
    fails=$((fails + 1))
  fi
}
try product 3,1,1 "3 x 1 x 1 = 3 blocks, but the run has 4 MPI rank(s)"
try z_in_2d 2,1,2 "cannot be split in z"
try thin 4,1,1 "leave blocks of 1 cell(s) of the 6; every block needs at least 2 cells"
echo "test_bad_decomposition: $fails failed"
[ "$fails" -eq 0 ]
