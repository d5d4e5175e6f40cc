#!/usr/bin/env bash
# Bad [run] keys of several ranks on 4 ranks: bad decompositions, and halo transports that move device
# memory (nccl, cuda-ipc) on the cpu backend. Each exits 2 on every rank within a few seconds (no hang), with
# "FILE:LINE: key 'run.KEY': reason" on stderr, and computes nothing.
# usage: test_bad_decomposition.sh MPIEXEC NAVIER SCRATCH
set -u
mpiexec=$1
navier=$2
scratch=$3
rm -rf "$scratch"
mkdir -p "$scratch"
fails=0
try() { # try NAME KEY VALUE EXPECTED_REASON [extra case lines]
  local name=$1 key=$2 dec=$3 reason=$4 extra=${5:-}
  local case=$scratch/$name.ini out=$scratch/$name
  printf '[run]\nname = %s\n%s = %s\n[grid]\nnx = 6\nny = 8\n%b[time]\nmax_steps = 2\n' "$name" "$key" "$dec" \
    "$extra" >"$case"
  local t0=$SECONDS
  timeout 30 "$mpiexec" -n 4 --oversubscribe "$navier" run "$case" --output "$out" >"$out.out" 2>"$out.err"
  local rc=$? secs=$((SECONDS - t0))
  local msg
  msg=$(grep -m1 "key 'run.$key'" "$out.err")
  if [ "$rc" -eq 2 ] && grep -q "$case:3: key 'run.$key': .*$reason" "$out.err" && [ ! -e "$out/summary.json" ]; then
    echo "ok   $name ($dec): exit $rc after ${secs}s: $msg"
  else
    echo "FAIL $name ($dec): exit $rc after ${secs}s (want 2, '$reason' at line 3, no summary)"
    cat "$out.err"
    fails=$((fails + 1))
  fi
}
try product decomposition 3,1,1 "3 x 1 x 1 = 3 blocks, but the run has 4 MPI rank(s)"
try z_in_2d decomposition 2,1,2 "cannot be split in z"
try thin decomposition 4,1,1 "leave blocks of 1 cell(s) of the 6; every block needs at least 2 cells"
try nccl_on_cpu halo_transport nccl "'nccl' moves device memory, but the backend is cpu" "[run]\nbackend = cpu\n"
try ipc_on_cpu halo_transport cuda-ipc "'cuda-ipc' moves device memory, but the backend is cpu" "[run]\nbackend = cpu\n"
echo "test_bad_decomposition: $fails failed"
[ "$fails" -eq 0 ]
