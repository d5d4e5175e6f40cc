#!/usr/bin/env bash
# Strong and weak scaling of navier: over MPI ranks on the CPU, or over the GPUs of one host.
#
#   bench/scaling.sh [cpu] [NAVIER] [RANKS...]     CPU ranks (default build/navier, ranks 1 2 4)
#   bench/scaling.sh gpu BIN_DIR G1 [G2 ...]        GPUs (e.g. bench/scaling.sh gpu .carry/bg 1 2 4 8)
#   bench/scaling.sh check BIN_DIR R1 [R2 ...]      the GPU runs at small sizes on CPU ranks (the script's check)
#   DRY=1 bench/scaling.sh ...                      print the commands, run nothing
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
# Weak and strong scaling over the GPUs of one host (issue 45), or the same runs on CPU ranks at small
# sizes to check the script's logic (mode check).
#   weak    256^3 cells per GPU (WEAK_N): the 3D lid-driven cavity, the 3D Taylor-Green vortex
#           (physics.initial = taylor_green_3d, cases/tgv3d_re1600.ini) and the Re_tau 180 channel
#           (cases/channel3d_retau180.ini) with navier bench step (a full step, Poisson to 1e-6
#           warm-started); the Poisson solver alone, navier bench poisson (all-Neumann, random zero-mean
#           right-hand side, relative residual 1e-6, median of 3 solves) on every decomposition and
#           transport, and the Poisson library (bench_poisson_api: Dirichlet, blocks of MPI_Dims_create)
#           where the GPU count is a cube (WEAK_N * G^(1/3) per side);
#   strong  the 3D cavity at 512^3 and 768^3 (STRONG), the Re_tau 550 channel on its own grid
#           (cases/channel3d_retau550.ini, 384x256x320) and the Poisson library at API_STRONG^3.
# For each GPU count G: decompositions px,py,pz of G ranks, one per GPU: slabs (1D-z: contiguous halo
# planes; 1D-x: strided planes), pencils (2D: 1,a,b) and blocks (3D: a,b,c) where G allows; each halo
# transport of TRANSPORTS (and, for weak scaling, each [run] halo_overlap of OVERLAPS).
# A run that navier refuses (exit 2: a transport not available on the machine, a key this build does
# not know, such as physics.initial = taylor_green_3d before issue 40's initial conditions, or a missing
# case file) is recorded with "status": "unavailable" and its reason, and the script goes on; a case
# whose case file or keys are refused is not tried again on more GPUs.
# Output: $OUT/scaling.jsonl (one JSON object per run: mode, case, gpus, decomposition, kind,
# transport, overlap, exit, status, reason, result), $OUT/scaling.log (every command and its output),
# then bench/plot_scaling.py writes $OUT/scaling.png (efficiency against GPU count) and $OUT/scaling.md.
# usage: bench/scaling.sh gpu BIN_DIR G1 [G2 ...]       (BIN_DIR holds navier and bench_poisson_api)
#        bench/scaling.sh check BIN_DIR R1 [R2 ...]     the same runs on R CPU ranks: backend cpu,
#            WEAK_N 16, STRONG 32, the channel 550 at 48x32x40, API_STRONG 32, transport mpi, 2 steps
# Environment: STEPS (10), TRANSPORTS ("nccl cuda-ipc mpi"), OVERLAPS ("off"), WEAK_N (256),
#              STRONG ("512 768"), API_STRONG (512), CHANNEL_STRONG (cases/channel3d_retau550.ini; empty: none),
#              WEAK_CASES ("cavity3d tgv3d channel3d poisson api"), STRONG_DECOMPS (all: every
#              decomposition for the strong cases; else only 1D-z), OUT (/tmp/gpu_scaling),
#              DRY=1: print the commands (one per line, "+ " first), run nothing, write no JSON.
if [ "${1:-}" = gpu ] || [ "${1:-}" = check ]; then
  MODE=$1
  shift
  gpu_scaling() {
    set -u
    BIN=$1
    shift
    DRY=${DRY:-0}
    OUT=${OUT:-/tmp/gpu_scaling}
    if [ "$MODE" = check ]; then
      BACKEND=cpu STEPS=${STEPS:-2} TRANSPORTS=${TRANSPORTS:-mpi} WEAK_N=${WEAK_N:-16} STRONG=${STRONG:-32}
      API_STRONG=${API_STRONG:-32} CHANNEL_SETS=${CHANNEL_SETS:---set grid.nx=48 --set grid.ny=32 --set grid.nz=40}
      export OMP_NUM_THREADS=1
    else
      BACKEND=cuda STEPS=${STEPS:-10} TRANSPORTS=${TRANSPORTS:-nccl cuda-ipc mpi} WEAK_N=${WEAK_N:-256}
      STRONG=${STRONG:-512 768} API_STRONG=${API_STRONG:-512} CHANNEL_SETS=${CHANNEL_SETS:-}
      export OMP_NUM_THREADS=${OMP_NUM_THREADS:-4}
    fi
    OVERLAPS=${OVERLAPS:-off}
    CHANNEL_STRONG=${CHANNEL_STRONG-cases/channel3d_retau550.ini}
    WEAK_CASES=${WEAK_CASES:-cavity3d tgv3d channel3d poisson api}
    STRONG_DECOMPS=${STRONG_DECOMPS:-all}
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
    # a build carried by bench/gpu.sh carry: its host libraries (as bench/gpu.sh loads them)
    [ -d .carry/lib ] && export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    if [ "$BACKEND" = cuda ] && [ "$DRY" != 1 ] && ! ldconfig -p | grep -q libnccl.so.2 && [ -z "${NAV_NCCL_LIBRARY:-}" ]; then
      lib=$(find / -name 'libnccl.so.2' -not -path '/proc/*' 2>/dev/null | head -1)
      [ -n "$lib" ] && export NAV_NCCL_LIBRARY=$lib
    fi
    JSONL=$OUT/scaling.jsonl
    LOG=$OUT/scaling.log
    NAV=$BIN/navier
    API=$BIN/bench_poisson_api
    declare -A UNAVAILABLE=() # case -> reason, once navier refused its case file or keys
    if [ "$DRY" != 1 ]; then
      mkdir -p "$OUT" # appends: parts run in separate calls (1, then 2, ...) share one file; a fresh OUT starts anew
    fi

    # the weak cases run by navier bench step: name -> "case file [--set k=v ...]"
    declare -A STEP_CASE=([cavity3d]="cases/cavity3d_re1000.ini"
      [tgv3d]="cases/tgv3d_re1600.ini --set physics.initial=taylor_green_3d"
      [channel3d]="cases/channel3d_retau180.ini")

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

    # record MODE CASE G DECOMP KIND TRANSPORT OVERLAP EXIT STATUS REASON JSON-LINE
    record() {
      local json=${11:-null} reason
      [ -z "$json" ] && json=null
      reason=$(printf '%s' "${10}" | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read().strip()[:300]))')
      echo "{\"mode\": \"$1\", \"case\": \"$2\", \"gpus\": $3, \"decomposition\": \"$4\", \"kind\": \"$5\", \"transport\": \"$6\", \"overlap\": \"$7\", \"exit\": $8, \"status\": \"$9\", \"reason\": $reason, \"result\": $json}" >>"$JSONL"
    }

    # launch MODE LABEL G DECOMP KIND TRANSPORT OVERLAP UNAVAILABLE-KEY PARSER CMD...: one run (or, with DRY=1,
    # its command); PARSER turns the output into the result JSON (json: the last line that starts with '{';
    # api: the "api:" line of bench_poisson_api)
    launch() {
      local mode=$1 label=$2 G=$3 dec=$4 kind=$5 t=$6 ov=$7 ukey=$8 parser=$9 out rc status reason json
      shift 9
      if [ -n "$ukey" ] && [ -n "${UNAVAILABLE[$ukey]:-}" ]; then
        [ "$DRY" = 1 ] && { echo "# skipped (unavailable): $mode $label G=$G $dec $t"; return; }
        record "$mode" "$label" "$G" "$dec" "$kind" "$t" "$ov" 2 unavailable "${UNAVAILABLE[$ukey]}"
        echo "$mode $label G=$G $dec $t overlap=$ov: unavailable (not run: refused on fewer GPUs)"
        return
      fi
      if [ "$DRY" = 1 ]; then
        echo "+ timeout 300 mpirun -n $G --oversubscribe $*"
        return
      fi
      out=$(timeout 300 mpirun -n "$G" --oversubscribe "$@" 2>&1 </dev/null)
      rc=$?
      { echo "== $mode $label G=$G $dec $t overlap=$ov: exit $rc"; echo "+ mpirun -n $G $*"; echo "$out"; } >>"$LOG"
      json=null reason=
      if [ "$parser" = api ]; then
        json=$(echo "$out" | grep '^api:' | tail -1 | python3 -c 'import json,sys; w=sys.stdin.read().split()[1:]
print(json.dumps({k: float(v) if k not in ("gather", "backend", "memory") else v for k, v in zip(w[::2], w[1::2])}) if w else "")')
        json=$(echo "$json" | sed 's/"wall"/"solve_s"/')
      else
        json=$(echo "$out" | grep '^{' | tail -1)
      fi
      if [ $rc -eq 0 ] && [ -n "$json" ] && [ "$json" != null ]; then
        status=ok
      elif [ $rc -eq 2 ]; then
        status=unavailable
        reason=$(echo "$out" | grep -m1 -iE "error|key '|not available|unknown|cannot|no such" || echo "$out" | tail -1)
        # a case file or key this build refuses: the same on any GPU count and transport
        if [ -n "$ukey" ] && echo "$reason" | grep -qE "key '(physics|grid|boundary|time|output|run\.name)|No such file|cannot open"; then
          UNAVAILABLE[$ukey]=$reason
        fi
      else
        status=failed
        reason=$(echo "$out" | tail -3)
      fi
      record "$mode" "$label" "$G" "$dec" "$kind" "$t" "$ov" $rc "$status" "$reason" "$json"
      echo "$mode $label G=$G $dec $t overlap=$ov: $status (exit $rc) $(echo "$json" | grep -oE '"(ns_per_cell_step|solve_s)": [0-9.e+-]*' | head -1)"
    }

    # run_step MODE LABEL G DECOMP KIND NX NY NZ OVERLAPS CASE [SETS...]: navier bench step
    run_step() {
      local mode=$1 label=$2 G=$3 dec=$4 kind=$5 nx=$6 ny=$7 nz=$8 ovs=$9 case=${10} t ov ts=$TRANSPORTS grid=()
      shift 10
      [ "$G" -eq 1 ] && ts=auto && ovs=off
      [ "$nx" -gt 0 ] && grid=(--set grid.nx="$nx" --set grid.ny="$ny" --set grid.nz="$nz")
      if [ ! -f "$case" ]; then
        UNAVAILABLE[$label]="$case: No such file (issue 40's case files)"
      fi
      for t in $ts; do
        for ov in $ovs; do
          launch "$mode" "$label" "$G" "$dec" "$kind" "$t" "$ov" "$label" json "$NAV" bench step --case "$case" "$@" \
            "${grid[@]}" --set run.backend=$BACKEND --set run.decomposition="$dec" --set run.halo_transport="$t" \
            --set run.halo_overlap="$ov" --steps "$STEPS" --json
        done
      done
    }

    icbrt() { # the integer cube root of $1, or nothing
      local a
      for ((a = 1; a * a * a <= $1; a++)); do ((a * a * a == $1)) && echo $a; done
    }

    for G in "$@"; do
      while read -r dec kind; do
        IFS=, read -r px py pz <<<"$dec"
        for c in $WEAK_CASES; do
          case $c in
            poisson)
              ts=$TRANSPORTS
              [ "$G" -eq 1 ] && ts=auto
              for t in $ts; do
                launch weak poisson3d "$G" "$dec" "$kind" "$t" off "" json "$NAV" bench poisson --dim 3 --n "$WEAK_N" \
                  --grid $((WEAK_N * px)),$((WEAK_N * py)),$((WEAK_N * pz)) --decomposition "$dec" --backend $BACKEND \
                  --tol 1e-6 --transport "$t" --repeat 3 --json
              done
              ;;
            api) # one run per G (MPI_Dims_create chooses the blocks), with the first decomposition only
              c3=$(icbrt "$G")
              if [ -n "$c3" ] && [ "$kind" = none ] || { [ -n "$c3" ] && [ "$kind" = 1D-z ]; }; then
                launch weak poisson_api "$G" dims_create blocks auto off "" api "$API" --n $((WEAK_N * c3)) --dim 3 \
                  --backend $BACKEND --tol 1e-6 --repeat 3
              fi
              ;;
            *)
              # shellcheck disable=SC2086
              run_step weak "$c" "$G" "$dec" "$kind" $((WEAK_N * px)) $((WEAK_N * py)) $((WEAK_N * pz)) "$OVERLAPS" \
                ${STEP_CASE[$c]}
              ;;
          esac
        done
        [ "$STRONG_DECOMPS" != all ] && [ "$kind" != 1D-z ] && [ "$G" -gt 1 ] && continue
        for n in $STRONG; do
          run_step strong cavity3d_$n "$G" "$dec" "$kind" "$n" "$n" "$n" off cases/cavity3d_re1000.ini
        done
        # shellcheck disable=SC2086
        [ -n "$CHANNEL_STRONG" ] && run_step strong channel3d_retau550 "$G" "$dec" "$kind" 0 0 0 off "$CHANNEL_STRONG" $CHANNEL_SETS
        if [ "$kind" = none ] || [ "$kind" = 1D-z ]; then
          launch strong poisson_api_$API_STRONG "$G" dims_create blocks auto off "" api "$API" --n "$API_STRONG" --dim 3 \
            --backend $BACKEND --tol 1e-6 --repeat 3
        fi
      done < <(decomps "$G")
    done
    [ "$DRY" = 1 ] && return 0
    # the first Python with matplotlib: python3 on the PATH, else the system one (as CMakeLists.txt chooses)
    local py
    for py in python3 /usr/bin/python3; do "$py" -c 'import matplotlib' 2>/dev/null && break; done
    "$py" bench/plot_scaling.py "$JSONL" "$OUT/scaling.png" | tee "$OUT/scaling.md"
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
  if [ "${DRY:-0}" = 1 ]; then
    for n in "$warm" $((warm + steps)); do
      echo "+ mpiexec -n $p --oversubscribe $navier run $case ${sets[*]} --set time.max_steps=$n --output $out.$n" >&2
    done
    echo "0 dry 0"
    return
  fi
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
    [ "$split" = dry ] && continue
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
