#!/usr/bin/env bash
# GPU check of the open and driven flows (issue 13), in one call of under 10 minutes on a GPU machine:
#   1. test_kernels (every kernel, fill_ghost_plane, outflow_update, face_integral, face_sum, the
#      Helmholtz line solves among them, CUDA against CPU <= 1e-12);
#   2. test_flow_backends, CUDA against CPU after N steps (fields <= 1e-10, pressure iterations equal
#      at every step): Kovasznay (inflow with the exact profile, convective outflow) and the developing
#      channel (uniform inflow, outflow, walls) with explicit diffusion; the same two with implicit
#      diffusion (the outflow values as Dirichlet data of the Helmholtz solves; Kovasznay on a
#      stretched grid); channel2d_poiseuille as the case is (tanh grid gamma 2.5, implicit diffusion,
#      forcing = flow_rate: the cached Helmholtz response to a unit mean gradient), the same with a
#      linear eddy viscosity (the line smoother with the variable coefficient), and on a uniform grid
#      with explicit diffusion;
#   3. with 2 GPUs (skipped with one): 2 ranks on 2 GPUs (splits 2,1,1 and 1,2,1: across the inflow
#      and outflow faces, across the stretched direction) against 1 rank on 1 GPU <= 1e-10, both with
#      the multigrid (auto picks the FFT on one GPU and the multigrid over GPUs, whose iteration
#      counts the comparison could not match), for the
#      explicit and the implicit developing channel, implicit Kovasznay on the stretched grid and the
#      flow_rate channel with the eddy viscosity.
# Each command has its own time limit and the whole stops starting new ones after 540 s; the last
# lines are a table: one row per check, its exit (0 passed, 77 skipped, 124 timed out) and the
# largest relative difference it printed.
# usage: bench/gpu_open.sh [BIN_DIR]   BIN_DIR holds navier and tests/test_kernels,
#        tests/test_flow_backends (or those two beside navier): a CUDA build; run from the repository
#        root. Logs under $OUT (default /tmp/gpu_open).
set -u
BIN=${1:-build}
OUT=${OUT:-/tmp/gpu_open}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tool() { [ -x "$BIN/tests/$1" ] && echo "$BIN/tests/$1" || echo "$BIN/$1"; }
TK=$(tool test_kernels)
TFB=$(tool test_flow_backends)
TIGHT="time.diffusion_tolerance=1e-12 pressure.tolerance=1e-12"
rows=()
rc=0
row() { # NAME EXIT LOG: the table row, the largest relative difference in the log
  local worst
  worst=$(grep -E 'rel diff|max \|cuda' "$3" 2>/dev/null | sed 's/(max |cpu| [^)]*)//' |
    grep -oE '[0-9.]+e[-+][0-9]+' | sort -g | tail -1)
  rows+=("$(printf '%-34s exit %-3s max rel diff %s' "$1" "$2" "${worst:--}")")
  [ "$2" = 0 ] || [ "$2" = 77 ] || rc=1
}
budget() { [ "$SECONDS" -lt 540 ] || { rows+=("$(printf '%-34s not run (time budget)' "$1")"); rc=1; return 1; }; }

timeout 120 "$TK" >"$OUT/test_kernels.log" 2>&1
row test_kernels $? "$OUT/test_kernels.log"

flow() { # NAME CASE KEY=VALUE...: CUDA against CPU
  local name=$1
  shift
  budget "$name" || return 0
  timeout 150 "$TFB" "$@" >"$OUT/flow_$name.log" 2>&1
  row "$name" $? "$OUT/flow_$name.log"
}
KOV="cases/kovasznay2d.ini grid.nx=192 grid.ny=64 time.max_steps=300"
STRETCH="grid.x_spacing=geometric grid.x_ratio=1.01 grid.y_spacing=tanh grid.y_gamma=1.5"
CHIN="cases/channel2d_inflow.ini grid.nx=384 grid.ny=64 time.max_steps=300"
POIS="cases/channel2d_poiseuille.ini grid.nx=64 grid.ny=64 physics.initial=rest time.max_steps=300"
NUT="physics.nu_t=linear physics.nu_t_value=0.05 physics.nu_t_gradient=0.02,0.1,0"
flow kovasznay2d $KOV
flow channel2d_inflow $CHIN
flow kovasznay2d_implicit_stretched $KOV time.diffusion=implicit $STRETCH $TIGHT
flow channel2d_inflow_implicit $CHIN time.diffusion=implicit $TIGHT
flow channel2d_poiseuille $POIS $TIGHT
flow channel2d_poiseuille_nu_t $POIS $NUT $TIGHT
flow channel2d_poiseuille_explicit $POIS grid.y_spacing=uniform time.diffusion=explicit

two() { # NAME CASE --set K=V...: 2 GPUs against 1
  local name=$1
  shift
  budget "$name" || return 0
  timeout 120 bash tests/gpu/test_gpu_ranks.sh mpirun "$BIN/navier" python3 tests/mpi/mpi_compare.py "$OUT/$name" \
    1e-10 "$1" transport mpi --set pressure.solver=mg "${@:2}" >"$OUT/$name.log" 2>&1
  row "$name" $? "$OUT/$name.log"
}
sets() { for kv in "$@"; do printf -- '--set %s ' "$kv"; done; }
two2() { local name=$1 case=$2; shift 2; two "$name" "$case" $(sets "$@"); }
two2 two_gpus_channel2d_inflow cases/channel2d_inflow.ini grid.nx=256 grid.ny=64 time.max_steps=50 \
  pressure.tolerance=1e-12
two2 two_gpus_channel2d_inflow_implicit cases/channel2d_inflow.ini grid.nx=256 grid.ny=64 time.max_steps=50 \
  time.diffusion=implicit $TIGHT
two2 two_gpus_kovasznay2d_implicit_st cases/kovasznay2d.ini grid.nx=192 grid.ny=64 time.max_steps=50 \
  time.diffusion=implicit $STRETCH $TIGHT
two2 two_gpus_poiseuille_nu_t cases/channel2d_poiseuille.ini grid.nx=64 grid.ny=64 physics.initial=rest \
  time.end_time=0 time.max_steps=50 $NUT $TIGHT

echo "gpu_open: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1); commit" \
  "$(git rev-parse --short HEAD 2>/dev/null); logs in $OUT; ${SECONDS} s"
printf '%s\n' "${rows[@]}"
echo "gpu_open: exit $rc"
exit $rc
