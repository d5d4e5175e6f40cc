#!/usr/bin/env bash
# Strong and weak scaling of navier over MPI ranks (one OpenMP thread per rank).
#
#   bench/scaling.sh [NAVIER] [RANKS...]        default: build/navier, ranks 1 2 4
#
# strong: fixed problems, the 2D lid-driven cavity on 512^2 cells and the 3D cavity on 96^3 cells,
#         STEPS time steps (default 50; env STEPS), pressure multigrid to 1e-8;
# weak:   the 2D cavity with 256^2 cells per rank (256x256, 512x256, 512x512, ...).
# Time per step = (wall of a run of WARM + STEPS steps - wall of a run of WARM steps) / STEPS, so the
# set-up (grid, multigrid levels, first steps) is not counted; WARM = 5. No output files.
# Efficiency: strong t_1 / (p t_p), weak t_1 / t_p. Prints a table, then one JSON object
# (env JSON=FILE also writes it to FILE). Runs with mpiexec --oversubscribe: with fewer cores
# than ranks the figures measure oversubscription, not the code.
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
