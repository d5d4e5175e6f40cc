#!/usr/bin/env bash
# Strong and weak scaling of navier: over MPI ranks on the CPU, or over the GPUs of one host.
#
#   bench/scaling.sh [cpu] [NAVIER] [RANKS...]     CPU ranks (default build/navier, ranks 1 2 4)
#   bench/scaling.sh gpu BIN_DIR G1 [G2 ...]        GPUs (e.g. bench/scaling.sh gpu .carry/bg 1 2 4 8)
#
# ---- cpu
# Strong and weak scaling of navier over MPI ranks (one OpenMP thread per rank).
#
#   (usage above)
#
# strong: fixed problems, the 2D lid-driven cavity on 512^2 cells and the 3D cavity on 96^3 cells,
#         STEPS time steps (default 50; env STEPS), pressure multigrid to 1e-8;
# weak:   the 2D cavity with 256^2 cells per rank (256x256, 512x256, 512x512, ...).
# Time per step = (wall of a run of WARM + STEPS steps - wall of a run of WARM steps) / STEPS, so the
# set-up (grid, multigrid levels, first steps) is not counted; WARM = 5. No output files.
# Efficiency: strong t_1 / (p t_p), weak t_1 / t_p. Prints a table, then one JSON object
# (env JSON=FILE also writes it to FILE). Runs with mpiexec --oversubscribe: with fewer cores
# than ranks the figures measure oversubscription, not the code.
# ---- gpu
# Weak and strong scaling of the CUDA backend over the GPUs of one host.
#   weak    256^3 cells per GPU: the 3D lid-driven cavity (navier bench step: a full step, Poisson
#           to 1e-6 warm-started) and the Poisson solver alone (navier bench poisson: all-Neumann,
#           random zero-mean right-hand side, relative residual 1e-6, median of 3 solves);
#   strong  the 3D cavity at 512^3 and 768^3.
# For each GPU count G: decompositions px,py,pz of G ranks, one per GPU: 1D along z (contiguous
# halo planes) and along x (strided planes), 2D (1,a,b) and 3D (a,b,c) where G allows; for the
# cavity each halo transport of TRANSPORTS (and, for weak scaling, each [run] halo_overlap of
# OVERLAPS). A transport
# that is not available on the machine is recorded as such (navier exits 2 and says why).
# Output: $OUT/scaling.jsonl (one JSON object per run), then bench/plot_scaling.py writes
# $OUT/scaling.png (efficiency against GPU count) and $OUT/scaling.md (the table).
# usage: bench/scaling.sh gpu BIN_DIR G1 [G2 ...]
# Environment: STEPS (10), TRANSPORTS ("nccl mpi cuda-aware"), OVERLAPS ("off"), STRONG ("512 768"),
#              STRONG_DECOMPS (all: every decomposition for the strong cases; else only 1D along z).
if [ "${1:-}" = gpu ]; then
  shift
  gpu_scaling() {
    set -u
    BIN=$1
    shift
    OUT=${OUT:-/tmp/gpu_scaling}
    STEPS=${STEPS:-10}
    TRANSPORTS=${TRANSPORTS:-nccl mpi cuda-aware}
    OVERLAPS=${OVERLAPS:-off}
    STRONG=${STRONG:-512 768}
    STRONG_DECOMPS=${STRONG_DECOMPS:-all}
    mkdir -p "$OUT"
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0 OMP_NUM_THREADS=${OMP_NUM_THREADS:-4}
    if ! ldconfig -p | grep -q libnccl.so.2 && [ -z "${NAV_NCCL_LIBRARY:-}" ]; then
      lib=$(find / -name 'libnccl.so.2' -not -path '/proc/*' 2>/dev/null | head -1)
      [ -n "$lib" ] && export NAV_NCCL_LIBRARY=$lib
    fi
    JSONL=$OUT/scaling.jsonl
    LOG=$OUT/scaling.log
    NAV=$BIN/navier
    CASE=cases/cavity3d_re1000.ini

    # decompositions of G ranks: "px,py,pz kind"
    decomps() {
      local G=$1 a b c
      if [ "$G" -eq 1 ]; then echo "1,1,1 none"; return; fi
      echo "1,1,$G 1D-z"
      echo "$G,1,1 1D-x"
      for ((a = 2; a * a <= G; a++)); do ((G % a == 0 && G / a > 1)) && echo "1,$a,$((G / a)) 2D"; done
      for ((a = 2; a * a * a <= G; a++)); do
        for ((b = a; a * b * b <= G; b++)); do
          c=$((G / (a * b)))
          ((a * b * c == G && c >= b)) && echo "$a,$b,$c 3D"
        done
      done
    }

    # record MODE CASE G DECOMP KIND TRANSPORT OVERLAP EXIT JSON-LINE
    record() {
      local json=${9:-null}
      [ -z "$json" ] && json=null
      echo "{\"mode\": \"$1\", \"case\": \"$2\", \"gpus\": $3, \"decomposition\": \"$4\", \"kind\": \"$5\", \"transport\": \"$6\", \"overlap\": \"$7\", \"exit\": $8, \"result\": $json}" >>"$JSONL"
    }

    # run_step MODE LABEL G DECOMP KIND NX NY NZ OVERLAPS
    run_step() {
      local mode=$1 label=$2 G=$3 dec=$4 kind=$5 nx=$6 ny=$7 nz=$8 ovs=$9 t ov out rc ts=$TRANSPORTS
      [ "$G" -eq 1 ] && ts=auto && ovs=off
      for t in $ts; do
        for ov in $ovs; do
          out=$(timeout 240 mpirun -n "$G" --oversubscribe "$NAV" bench step --case $CASE --set grid.nx=$nx \
            --set grid.ny=$ny --set grid.nz=$nz --set run.backend=cuda --set run.decomposition=$dec \
            --set run.halo_transport=$t --set run.halo_overlap=$ov --steps "$STEPS" --json 2>&1 </dev/null)
          rc=$?
          echo "== $mode $label G=$G $dec $t overlap=$ov: exit $rc" >>"$LOG"
          echo "$out" >>"$LOG"
          record "$mode" "$label" "$G" "$dec" "$kind" "$t" "$ov" $rc "$(echo "$out" | grep '^{' | tail -1)"
          echo "$mode $label G=$G $dec $t overlap=$ov: exit $rc $(echo "$out" | grep -o '"ns_per_cell_step": [0-9.]*')"
        done
      done
    }

    for G in "$@"; do
      while read -r dec kind; do
        IFS=, read -r px py pz <<<"$dec"
        run_step weak cavity3d "$G" "$dec" "$kind" $((256 * px)) $((256 * py)) $((256 * pz)) "$OVERLAPS"
        ts=$TRANSPORTS
        [ "$G" -eq 1 ] && ts=auto
        for t in $ts; do
          out=$(timeout 240 mpirun -n "$G" --oversubscribe "$NAV" bench poisson --dim 3 --n 256 \
            --grid $((256 * px)),$((256 * py)),$((256 * pz)) --decomposition "$dec" --backend cuda --tol 1e-6 \
            --transport $t --repeat 3 --json 2>&1 </dev/null)
          rc=$?
          echo "== weak poisson G=$G $dec $t: exit $rc" >>"$LOG"
          echo "$out" >>"$LOG"
          record weak poisson3d "$G" "$dec" "$kind" "$t" off $rc "$(echo "$out" | grep '^{' | tail -1)"
          echo "weak poisson G=$G $dec $t: exit $rc $(echo "$out" | grep -o '"solve_s": [0-9.]*')"
        done
        for n in $STRONG; do
          [ "$STRONG_DECOMPS" != all ] && [ "$kind" != 1D-z ] && [ "$G" -gt 1 ] && continue
          run_step strong cavity3d_$n "$G" "$dec" "$kind" "$n" "$n" "$n" off
        done
      done < <(decomps "$G")
    done
    python3 bench/plot_scaling.py "$JSONL" "$OUT/scaling.png" | tee "$OUT/scaling.md"
  }
  gpu_scaling "$@"
  exit
fi
[ "${1:-}" = cpu ] && shift
set -eu
navier=${1:-build/navier}
shift || true
ranks=${*:-1 2 4}
steps=${STEPS:-50}
warm=5
cores=$(nproc --all)
scratch=${SCRATCH:-$(mktemp -d)}
mkdir -p "$scratch"
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rows=()

run() { # run MODE NAME RANKS NX NY NZ CASE -> seconds per step, split, cells
  local mode=$1 name=$2 p=$3 nx=$4 ny=$5 nz=$6 case=$7 out=$scratch/$1_$2_$3
  local sets=(--set run.method=projection --set grid.nx="$nx" --set grid.ny="$ny" --set time.steady_tol=0
    --set time.end_time=0 --set output.fields_every=0 --set output.fields_dt=0 --set output.progress_interval=1e9)
  [ "$nz" -gt 1 ] && sets+=(--set grid.nz="$nz")
  for n in "$warm" $((warm + steps)); do
    mpiexec -n "$p" --oversubscribe "$navier" run "$case" "${sets[@]}" --set time.max_steps="$n" --output "$out.$n" \
      >"$out.$n.log" 2>&1 || { cat "$out.$n.log" >&2; exit 1; }
  done
  python3 - "$out.$warm/summary.json" "$out.$((warm + steps))/summary.json" "$steps" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
print("%.6f %s %d" % ((b["wall_s"] - a["wall_s"]) / int(sys.argv[3]), "x".join(map(str, b["decomposition"])), b["cells"]))
PY
}

printf '%-7s %-10s %5s %-7s %10s %10s %10s\n' mode case ranks split cells s/step efficiency
for spec in "strong cavity2d_512 512 512 1 cases/cavity2d_re100.ini" "strong cavity3d_96 96 96 96 cases/cavity3d_re1000.ini" \
  "weak cavity2d_256pr 256 256 1 cases/cavity2d_re100.ini"; do
  read -r mode name nx ny nz case <<<"$spec"
  t1=
  for p in $ranks; do
    gx=$nx gy=$ny
    if [ "$mode" = weak ]; then # double x, then y, ... : 256^2 cells per rank
      q=$p gx=$nx gy=$ny
      while [ "$q" -gt 1 ]; do if [ "$gx" -le "$gy" ]; then gx=$((gx * 2)); else gy=$((gy * 2)); fi; q=$((q / 2)); done
    fi
    read -r tp split cells <<<"$(run "$mode" "$name" "$p" "$gx" "$gy" "$nz" "$case")"
    [ -z "$t1" ] && t1=$tp
    eff=$(python3 -c "t1=$t1; tp=$tp; p=$p; print('%.3f' % ((t1/(p*tp)) if '$mode'=='strong' else (t1/tp)))")
    printf '%-7s %-10s %5d %-7s %10d %10.4f %10s\n' "$mode" "$name" "$p" "$split" "$cells" "$tp" "$eff"
    rows+=("{\"mode\": \"$mode\", \"case\": \"$name\", \"ranks\": $p, \"decomposition\": \"$split\", \"cells\": $cells, \"steps\": $steps, \"s_per_step\": $tp, \"efficiency\": $eff}")
  done
done
json="{\"bench\": \"scaling\", \"commit\": \"$(git rev-parse --short HEAD 2>/dev/null || echo unknown)\", \"cores\": $cores, \"threads_per_rank\": 1, \"runs\": [$(IFS=,; echo "${rows[*]}")]}"
echo "$json"
[ -n "${JSON:-}" ] && echo "$json" >"$JSON"
exit 0
