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
expect_input_error sweeps_explicit \
  "--set:2: key 'time.diffusion': diffusion_sweeps = 1 replaces the implicit diffusion solves: it needs diffusion = implicit, got explicit" \
  "$scratch/good.ini" --set time.diffusion_sweeps=1 --set time.diffusion=explicit
expect_input_error sweeps_crank_nicolson \
  "--set:2: key 'time.diffusion_sweeps': diffusion_sweeps = 2 solves the implicit steps approximately (not time-accurate): it is for pseudo-time marching to a steady state with diffusion_theta = 1, got 0.5" \
  "$scratch/good.ini" --set time.diffusion=implicit --set time.diffusion_sweeps=2
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
  "$scratch/wrong_choice.ini:3: key 'boundary.x_low': must be one of wall, free_slip, periodic, inflow, outflow, got 'slip'" \
  "$scratch/wrong_choice.ini"

rm -f "$scratch/missing.ini"
expect_input_error missing_file "$scratch/missing.ini: cannot open: No such file or directory" "$scratch/missing.ini"

write_case unknown_section <<'EOF'
[gird]
nx = 8
EOF
expect_input_error unknown_section \
  "$scratch/unknown_section.ini:1: section '[gird]': unknown section (known: run, grid, time, physics, boundary, pressure, output, temperature, turbulence, body.N, bodies, forces, statistics)" \
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

write_case ac_cycle <<'EOF'
[run]
method = artificial_compressibility
ac_cycle = x
ac_dissipation = -1
EOF
expect_input_error ac_cycle "$scratch/ac_cycle.ini:3: key 'run.ac_cycle': must be one of v, w, f, got 'x'" "$scratch/ac_cycle.ini"
expect_input_error ac_dissipation "$scratch/ac_cycle.ini:4: key 'run.ac_dissipation': must be >= 0, got -1" \
  "$scratch/ac_cycle.ini"

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
expect_input_error ac_fft \
  "--set:2: key 'pressure.solver': method = artificial_compressibility marches on the multigrid's levels: pressure.solver must be auto (the multigrid then), mg or mgpcg, got fft" \
  "$scratch/ac_end_time.ini" --set time.steady_tol=1e-6 --set pressure.solver=fft

# Several errors in one file: every one is reported (checked here on the last one).
write_case several <<'EOF'
[grid]
nx = 0
ny = x
[physics]
nu = -1
EOF
expect_input_error several "$scratch/several.ini:5: key 'physics.nu': must be > 0, got -1" "$scratch/several.ini"

# Inflow and outflow faces, inflow profiles and forcing (issue 13). Relative profile tables are
# read from the folder of the case file.
printf '0 1 0\n0.5 1 0\n0.4 1 0\n' >"$scratch/nonincr.txt"
printf '0 1\n1 1\n' >"$scratch/cols.txt"
printf '0.2 1 0\n0.8 1 0\n' >"$scratch/short.txt"
rm -f "$scratch/missing.txt"
write_case inflow_periodic <<'EOF'
[boundary]
x_low = inflow
x_high = periodic
EOF
expect_input_error inflow_periodic \
  "$scratch/inflow_periodic.ini:3: key 'boundary.x_high': x_low is inflow but x_high is periodic: inflow and outflow faces need a non-periodic direction" \
  "$scratch/inflow_periodic.ini"
expect_input_error forcing_no_periodic \
  "--set:1: key 'physics.forcing': forcing = flow_rate needs a periodic forcing_direction, but x_low is wall" \
  "$scratch/good.ini" --set physics.forcing=flow_rate
expect_input_error forcing_direction_2d \
  "--set:2: key 'physics.forcing_direction': forcing_direction = z is not a direction of a 2D case" \
  "$scratch/good.ini" --set physics.forcing=pressure_gradient --set physics.forcing_direction=z
for t in missing nonincr cols short; do
  case $t in
  missing) why="cannot open '$scratch/missing.txt': No such file or directory" ;;
  nonincr) why="'$scratch/nonincr.txt' line 3: the first column must increase strictly (0.4 after 0.5)" ;;
  cols) why="'$scratch/cols.txt' line 1: expected 3 real numbers" ;;
  short) why="'$scratch/short.txt' spans y = 0.2 .. 0.8 but the face spans 0 .. 1" ;;
  esac
  expect_input_error "profile_file_$t" "--set:3: key 'boundary.x_low_profile_file': $why" \
    "$scratch/good.ini" --set boundary.x_low=inflow --set boundary.x_low_profile=file \
    --set "boundary.x_low_profile_file=$t.txt"
done
expect_input_error profile_file_absent \
  "--set:2: key 'boundary.x_low_profile': x_low_profile = file needs x_low_profile_file, the table" \
  "$scratch/good.ini" --set boundary.x_low=inflow --set boundary.x_low_profile=file
expect_input_error profile_not_inflow \
  "--set:1: key 'boundary.x_low_profile': x_low_profile applies to inflow faces only, but x_low is wall" \
  "$scratch/good.ini" --set boundary.x_low_profile=parabolic
expect_input_error profile_exact_rest \
  "--set:2: key 'boundary.x_low_profile': x_low_profile = exact needs an analytic physics.initial (taylor_green, abc, uniform, kovasznay, poiseuille), got rest" \
  "$scratch/good.ini" --set boundary.x_low=inflow --set boundary.x_low_profile=exact
expect_input_error outflow_velocity \
  "--set:2: key 'boundary.x_high_velocity': x_high is outflow: x_high_velocity must be 0,0,0, got 1,0,0" \
  "$scratch/good.ini" --set boundary.x_high=outflow --set boundary.x_high_velocity=1,0,0
expect_input_error outflow_temperature \
  "--set:4: key 'temperature.x_high': x_high is an outflow: its temperature takes a zero normal gradient (flux with value 0), got fixed 0" \
  "$scratch/good.ini" --set temperature.model=boussinesq --set temperature.pr=1 --set boundary.x_high=outflow \
  --set temperature.x_high=fixed
expect_input_error inflow_temperature \
  "--set:3: key 'boundary.x_low': x_low is an inflow: its temperature must be fixed, got flux" \
  "$scratch/good.ini" --set temperature.model=boussinesq --set temperature.pr=1 --set boundary.x_low=inflow
expect_input_error poiseuille_no_walls \
  "--set:1: key 'physics.initial': initial = poiseuille needs a direction other than forcing_direction with walls on both faces" \
  "$scratch/good.ini" --set physics.initial=poiseuille --set boundary.x_low=periodic --set boundary.x_high=periodic \
  --set boundary.y_high=free_slip --set boundary.y_high_velocity=0,0,0

# [turbulence] (physics/nav_turbulence.h)
expect_input_error turbulence_unknown_model \
  "--set:1: key 'turbulence.model': must be one of off, k_omega_sst, smagorinsky, wale, vreman, got 'k_epsilon'" \
  "$scratch/good.ini" --set turbulence.model=k_epsilon
expect_input_error turbulence_negative_intensity "--set:2: key 'turbulence.intensity': must be >= 0, got -0.1" \
  "$scratch/good.ini" --set turbulence.model=k_omega_sst --set turbulence.intensity=-0.1
expect_input_error turbulence_no_walls \
  "--set:1: key 'turbulence.model': turbulence.model = k_omega_sst needs a wall face (the wall distance of its blending) or a driven flow (physics.forcing, an inflow face): this case has neither" \
  "$scratch/good.ini" --set turbulence.model=k_omega_sst --set boundary.x_low=periodic --set boundary.x_high=periodic \
  --set boundary.y_low=periodic --set boundary.y_high=periodic --set boundary.y_high_velocity=0,0,0
expect_input_error turbulence_no_forcing \
  "--set:1: key 'turbulence.model': turbulence.model = k_omega_sst: nothing sets the initial k and omega (the case is at rest with no forcing, inflow or moving wall): set turbulence.k_initial or omega_initial" \
  "$scratch/good.ini" --set turbulence.model=k_omega_sst --set boundary.y_high_velocity=0,0,0
expect_input_error turbulence_method \
  "--set:2: key 'run.method': turbulence.model = k_omega_sst runs with method = projection (large implicit steps reach the steady state: time.diffusion = implicit, diffusion_theta = 1), got artificial_compressibility" \
  "$scratch/good.ini" --set turbulence.model=k_omega_sst --set run.method=artificial_compressibility
expect_input_error turbulence_prescribed_nu_t \
  "--set:2: key 'physics.nu_t': turbulence.model = k_omega_sst computes nu_t: physics.nu_t must be none, got linear" \
  "$scratch/good.ini" --set turbulence.model=k_omega_sst --set physics.nu_t=linear

# the LES closures (physics/turbulence/nav_les.h)
expect_input_error les_cs_range "--set:2: key 'turbulence.smagorinsky_cs': must be <= 0.5, got 0.9" \
  "$scratch/good.ini" --set turbulence.model=smagorinsky --set turbulence.smagorinsky_cs=0.9
expect_input_error les_cw_range "--set:2: key 'turbulence.wale_cw': must be > 0, got 0" \
  "$scratch/good.ini" --set turbulence.model=wale --set turbulence.wale_cw=0
expect_input_error les_vreman_c_range "--set:2: key 'turbulence.vreman_c': must be > 0, got -0.07" \
  "$scratch/good.ini" --set turbulence.model=vreman --set turbulence.vreman_c=-0.07
expect_input_error les_method \
  "--set:2: key 'run.method': turbulence.model = wale (LES) is time-accurate: run.method must be projection, got artificial_compressibility" \
  "$scratch/good.ini" --set turbulence.model=wale --set run.method=artificial_compressibility
expect_input_error les_prescribed_nu_t \
  "--set:2: key 'physics.nu_t': turbulence.model = vreman computes nu_t: physics.nu_t must be none, got linear" \
  "$scratch/good.ini" --set turbulence.model=vreman --set physics.nu_t=linear
expect_input_error les_temperature_implicit \
  "--set:5: key 'time.diffusion': turbulence.model = smagorinsky with temperature.model = boussinesq: the temperature's eddy diffusivity nu_t / Pr_t is explicit only (its implicit solve has a constant kappa): time.diffusion must be explicit, got implicit" \
  "$scratch/good.ini" --set turbulence.model=smagorinsky --set temperature.model=boussinesq --set temperature.ra=1e4 \
  --set temperature.pr=0.71 --set time.diffusion=implicit
expect_input_error les_prandtl_t_zero "--set:5: key 'turbulence.prandtl_t': must be > 0, got 0" \
  "$scratch/good.ini" --set turbulence.model=wale --set temperature.model=boussinesq --set temperature.ra=1e4 \
  --set temperature.pr=0.71 --set turbulence.prandtl_t=0
expect_input_error les_prandtl_t_negative "--set:1: key 'turbulence.prandtl_t': must be > 0, got -0.85" \
  "$scratch/good.ini" --set turbulence.prandtl_t=-0.85

echo "test_cli_errors: $checks checks, $failures failed"
[ "$failures" -eq 0 ]
