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

# implicit diffusion and variable viscosity (issue 13): an unknown scheme, a bad tolerance, an unknown
# eddy-viscosity field, a linear eddy viscosity negative in a corner of the domain
expect_input_error bad_diffusion "--set:1: key 'time.diffusion': must be one of explicit, implicit, got 'crank'" \
  "$scratch/good.ini" --set time.diffusion=crank
expect_input_error bad_diffusion_tol "--set:1: key 'time.diffusion_tolerance': must be < 1, got 2" \
  "$scratch/good.ini" --set time.diffusion_tolerance=2
expect_input_error bad_nu_t "--set:1: key 'physics.nu_t': must be one of none, linear, got 'smagorinsky'" \
  "$scratch/good.ini" --set physics.nu_t=smagorinsky
write_case negative_nu_t <<'EOF'
[time]
max_steps = 2
[physics]
nu_t = linear
nu_t_value = 0.1
nu_t_gradient = 0, -0.5, 0
EOF
expect_input_error negative_nu_t "$scratch/negative_nu_t.ini:6: key 'physics.nu_t_gradient': nu_t = linear is negative in a corner of the domain (min -0.4): an eddy viscosity must be >= 0" \
  "$scratch/negative_nu_t.ini"

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
