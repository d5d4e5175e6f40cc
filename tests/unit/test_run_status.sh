#!/usr/bin/env bash
# Exit status and summary.json of runs that must not complete:
#   - a decomposition that does not match the rank count: exit 2 with the key on stderr, nothing computed;
#   - a pressure solve that cannot converge: exit 1, status "failed", a message with step and residual;
#   - a blow-up (a huge fixed dt, the CFL limit off): exit 1, status "failed", a message with the step and time;
# and of one that must: end_time a millionth of a step past the last whole step (as the sum of 200 000 steps of
# 4e-4 falls 1.3e-10 short of 80) ends after that step, without a step of 1e-9.
# usage: test_run_status.sh NAVIER SCRATCH
set -u
navier=$1
scratch=$2
rm -rf "$scratch"
mkdir -p "$scratch"
fails=0
check() { # check DESCRIPTION CONDITION...
  local what=$1
  shift
  if "$@"; then echo "ok $what"; else echo "FAIL $what"; fails=$((fails + 1)); fi
}

out=$scratch/ranks
timeout 60 mpiexec -n 2 --oversubscribe "$navier" run --set time.max_steps=2 --set run.decomposition=3,1,1 \
  --output "$out" >"$scratch/ranks.out" 2>"$scratch/ranks.err"
rc=$?
check "2 ranks, 3 blocks: exit 2 (got $rc)" test "$rc" -eq 2
check "2 ranks, 3 blocks: message names the --set, the key and the rank count" \
  grep -q "^--set:2: key 'run.decomposition': 3 x 1 x 1 = 3 blocks, but the run has 2 MPI rank(s)" "$scratch/ranks.err"
check "2 ranks, 3 blocks: nothing computed" test ! -e "$out/summary.json" -a ! -e "$out/monitor.csv"

out=$scratch/noconv
"$navier" run --set grid.nx=32 --set grid.ny=32 --set time.max_steps=5 --set pressure.solver=mg --set pressure.max_iterations=1 \
  --set pressure.tolerance=1e-12 --output "$out" >"$scratch/noconv.out" 2>"$scratch/noconv.err"
rc=$?
check "no convergence: exit 1 (got $rc)" test "$rc" -eq 1
check "no convergence: message with step and residual" \
  grep -q "pressure solve did not converge at step 1, time 0: relative residual" "$scratch/noconv.err"
check "no convergence: summary status failed" grep -q '"status": "failed"' "$out/summary.json"

out=$scratch/blowup
"$navier" run --set grid.nx=32 --set grid.ny=32 --set time.dt=5 --set time.max_steps=50 --set pressure.max_iterations=50 \
  --set time.max_cfl=0 --output "$out" >"$scratch/blowup.out" 2>"$scratch/blowup.err"
rc=$?
check "blow-up: exit 1 (got $rc)" test "$rc" -eq 1
check "blow-up: message names step and time" grep -Eq "blew up at step [0-9]+, time [0-9.e+-]+ .*NaN or Inf" "$scratch/blowup.err"
check "blow-up: summary status failed" grep -q '"status": "failed"' "$out/summary.json"

out=$scratch/endtime
"$navier" run --set grid.nx=16 --set grid.ny=16 --set time.dt=0.01 --set time.end_time=0.100000001 --set time.steady_tol=0 \
  --set output.plots=false --output "$out" >"$scratch/endtime.out" 2>"$scratch/endtime.err"
rc=$?
check "end_time 1e-9 past step 10: exit 0 (got $rc)" test "$rc" -eq 0
check "end_time 1e-9 past step 10: 10 steps, no step of 1e-9" grep -q "^completed: 10 steps" "$scratch/endtime.out"

echo "test_run_status: $fails failed"
exit $((fails > 0))
