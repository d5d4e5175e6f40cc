#!/usr/bin/env bash
# solver = fft on a grid it cannot serve (a stretched periodic direction) exits 2 with
# "FILE:LINE: key 'pressure.solver': reason" and computes nothing; solver = auto runs that grid with
# the multigrid. Needs the stretched-grid keys ([grid] x_spacing, y_spacing): skipped (exit 77) in a
# build without them, or when the value tried here (tanh) is not one they accept.
# usage: test_fft_cli.sh NAVIER SCRATCH
navier=$1
scratch=$2
rm -rf "$scratch" && mkdir -p "$scratch"
if ! "$navier" doc case-file | grep -q "x_spacing"; then
  echo "skipped: no [grid] x_spacing key in this build"
  exit 77
fi
case_file=$scratch/stretched.ini
printf '[run]\nname = stretched\n[grid]\nnx = 16\nny = 16\nx_spacing = tanh\ny_spacing = tanh\n[time]\nmax_steps = 2\n[boundary]\nx_low = periodic\nx_high = periodic\n[pressure]\nsolver = fft\n' >"$case_file"
"$navier" run "$case_file" --output "$scratch/out" >"$scratch/fft.out" 2>"$scratch/fft.err"
rc=$?
if grep -q "key 'grid.[xy]_spacing'" "$scratch/fft.err"; then
  echo "skipped: x_spacing = tanh is not accepted here: $(head -1 "$scratch/fft.err")"
  exit 77
fi
fails=0
check() { # DESCRIPTION COMMAND...
  local d=$1
  shift
  if "$@"; then echo "ok   $d"; else echo "FAIL $d"; fails=$((fails + 1)); fi
}
check "solver = fft on a stretched periodic direction: exit 2 (got $rc)" test "$rc" -eq 2
check "message: FILE:LINE: key 'pressure.solver': the reason" \
  grep -q "$case_file:14: key 'pressure.solver': .*periodic direction x has non-uniform spacing" "$scratch/fft.err"
check "nothing computed" test ! -e "$scratch/out/summary.json"
"$navier" run "$case_file" --set pressure.solver=auto --output "$scratch/auto" >"$scratch/auto.out" 2>&1
rc=$?
check "solver = auto on the same grid: exit 0 (got $rc)" test "$rc" -eq 0
check "solver = auto took the multigrid" grep -q "^pressure: multigrid" "$scratch/auto.out"
cat "$scratch/fft.err"
echo "test_fft_cli: $fails failed"
[ "$fails" -eq 0 ]
