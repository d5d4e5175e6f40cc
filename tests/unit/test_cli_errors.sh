#!/usr/bin/env bash
# Input errors through the command line: for each bad case file or override,
#   navier run CASE [--set ...] --output DIR
# must exit with status exactly 2, print the error as a whole "FILE:LINE: key 'section.key': reason"
# line on stderr, and compute nothing (no summary.json, no monitor.csv under DIR).
#
# usage: test_cli_errors.sh NAVIER SCRATCH_DIR
#   NAVIER       path of the navier binary
#   SCRATCH_DIR  folder for the case files and outputs (created if needed; only files this script
#                names are written or removed there)
set -u

if [ $# -ne 2 ]; then
  echo "usage: $0 NAVIER SCRATCH_DIR" >&2
  exit 2
fi
navier=$1
scratch=$2
mkdir -p "$scratch" || exit 1

checks=0
failures=0

# write_case NAME: the case file $scratch/NAME.ini, from stdin.
write_case() {
  cat >"$scratch/$1.ini"
}

# expect_input_error NAME EXPECTED_LINE ARGS...: run `navier run ARGS --output DIR` and check the contract.
expect_input_error() {
  local name=$1 expected=$2
  shift 2
  local out="$scratch/out_$name" err="$scratch/$name.stderr" ok=1
  rm -rf "$out"
  timeout 300 "$navier" run "$@" --output "$out" >"$scratch/$name.stdout" 2>"$err"
  local status=$?
  if [ "$status" -ne 2 ]; then
    echo "FAIL $name: exit status $status, expected 2"
    ok=0
  fi
  if ! grep -qxF -- "$expected" "$err"; then
    echo "FAIL $name: stderr has no line: $expected"
    ok=0
  fi
  if [ -d "$out" ] && [ -n "$(find "$out" \( -name summary.json -o -name monitor.csv \) -print -quit)" ]; then
    echo "FAIL $name: output written under $out"
    ok=0
  fi
  checks=$((checks + 1))
  if [ "$ok" -eq 1 ]; then
    echo "ok   $name"
  else
    failures=$((failures + 1))
    echo "     stderr:"
    sed 's/^/     | /' "$err"
  fi
}

# A small valid case: if an error were missed, the run would be short.
write_case good <<'EOF'
[grid]
nx = 8
ny = 8

[time]
max_steps = 2
EOF

write_case unknown_key <<'EOF'
[grid]
nx = 8
nxx = 8
EOF
expect_input_error unknown_key "$scratch/unknown_key.ini:3: key 'grid.nxx': unknown key" "$scratch/unknown_key.ini"

write_case out_of_range <<'EOF'
; CFL beyond the stability limit
[time]
max_steps = 2
cfl = 5
EOF
expect_input_error out_of_range "$scratch/out_of_range.ini:4: key 'time.cfl': must be <= 1, got 5" \
  "$scratch/out_of_range.ini"

write_case wrong_type <<'EOF'
[grid]
nx = sixteen
EOF
expect_input_error wrong_type "$scratch/wrong_type.ini:2: key 'grid.nx': expected an integer, got 'sixteen'" \
  "$scratch/wrong_type.ini"

write_case wrong_choice <<'EOF'
[boundary]

x_low = slip
EOF
expect_input_error wrong_choice \
  "$scratch/wrong_choice.ini:3: key 'boundary.x_low': must be one of wall, free_slip, periodic, got 'slip'" \
  "$scratch/wrong_choice.ini"

rm -f "$scratch/missing.ini"
expect_input_error missing_file "$scratch/missing.ini: cannot open: No such file or directory" "$scratch/missing.ini"

write_case unknown_section <<'EOF'
[gird]
nx = 8
EOF
expect_input_error unknown_section \
  "$scratch/unknown_section.ini:1: section '[gird]': unknown section (known: run, grid, time, physics, boundary, pressure, output, temperature)" \
  "$scratch/unknown_section.ini"

expect_input_error bad_set "--set:2: key 'grid.nx': must be >= 1, got 0" \
  "$scratch/good.ini" --set grid.ny=16 --set grid.nx=0

expect_input_error malformed_set "--set:1: malformed override 'gridnx=4': expected section.key=value" \
  "$scratch/good.ini" --set gridnx=4

write_case unpaired_periodic <<'EOF'
[boundary]
x_low = periodic
EOF
expect_input_error unpaired_periodic \
  "$scratch/unpaired_periodic.ini:2: key 'boundary.x_low': periodic faces must be paired: x_low is periodic but x_high is wall" \
  "$scratch/unpaired_periodic.ini"

# Artificial compressibility (steady flows only): beta > 0, a known method, a steady target.
write_case ac_beta <<'EOF'
[run]
method = artificial_compressibility
ac_beta = 0
EOF
expect_input_error ac_beta "$scratch/ac_beta.ini:3: key 'run.ac_beta': must be > 0, got 0" "$scratch/ac_beta.ini"

write_case ac_method <<'EOF'
[run]
method = simple
EOF
expect_input_error ac_method \
  "$scratch/ac_method.ini:2: key 'run.method': must be one of projection, artificial_compressibility, got 'simple'" \
  "$scratch/ac_method.ini"

write_case ac_end_time <<'EOF'
[run]
method = artificial_compressibility
[time]
steady_tol = 0
end_time = 2
EOF
expect_input_error ac_end_time \
  "$scratch/ac_end_time.ini:4: key 'time.steady_tol': method = artificial_compressibility computes a steady state: it needs steady_tol > 0" \
  "$scratch/ac_end_time.ini"
expect_input_error ac_end_time_set \
  "--set:1: key 'time.end_time': method = artificial_compressibility marches in pseudo-time (the time stays 0): time.end_time must be 0 (count iterations with max_steps, fields_every, checkpoint_interval), got 3" \
  "$scratch/ac_end_time.ini" --set time.end_time=3 --set time.steady_tol=1e-6

# Several errors in one file: every one is reported (checked here on the last one).
write_case several <<'EOF'
[grid]
nx = 0
ny = x
[physics]
nu = -1
EOF
expect_input_error several "$scratch/several.ini:5: key 'physics.nu': must be > 0, got -1" "$scratch/several.ini"

echo "test_cli_errors: $checks checks, $failures failed"
[ "$failures" -eq 0 ]
