#!/usr/bin/env bash
# GPU check and timing of the multigrid's zebra line relaxation (issue 14: the flying-snake grid), about
# 1-2 minutes on one H100/H200:
#   1. test_kernels: every kernel CUDA against CPU <= 1e-12, the line kernels among them (relax_line,
#      line_solve modes 0-2 with their ends, line_update; 2D and 3D, x, y, z, both colours, odd and even
#      lengths, walls and kept ends, lines of 1703, 2048 and 600 cells and the thread-per-line fallback
#      beyond a block's shared memory); prints the exit status, the number of line checks and the largest;
#   2. navier bench poisson on 1704 x 1704 cells with tanh clustering in y (gamma 2), multigrid to 1e-8,
#      with the smoothers line, auto and point: ms per V-cycle (solve_s / iterations, median of 3 solves),
#      cycles and the convergence factor;
#   3. navier bench step on cases/snake2d_re2000_aoa35.ini (1704 x 1704, PetIBM's grid) with smoother auto
#      (zebra lines) and point: ms per step, pressure iterations per step, and the one-colour kernel times
#      of relax_line x / y and relax_colour on the finest level; the projected time of the 200 000 steps.
# usage: bench/gpu_line.sh [BIN_DIR]   (default build, configured with CUDA; BIN_DIR/tests/test_kernels or
#        BIN_DIR/test_kernels). Logs in $OUT (default /tmp/gpu_line); a short table last. BACKEND=cpu runs
#        parts 2 and 3 on the CPU instead (slow: a dry run of the script).
set -u
BIN=${1:-build}
OUT=${OUT:-/tmp/gpu_line}
mkdir -p "$OUT"
export OMP_NUM_THREADS=${NT:-8} OMP_WAIT_POLICY=passive OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
NAVIER=$BIN/navier
PY=${PY:-/usr/bin/python3}
T0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | sed 's/^/device: /'
git log -1 --format='commit: %h %s' 2>/dev/null | cut -c1-100
# 1
TK=$BIN/tests/test_kernels
[ -x "$TK" ] || TK=$BIN/test_kernels
"$TK" >"$OUT/test_kernels.log" 2>&1
k_rc=$?
k_line=$(grep -E '^(relax_line|line_solve|line_update)' "$OUT/test_kernels.log" |
  awk '{for (i = 1; i < NF; i++) if ($i == "diff") d = $(i + 1); n++; if (d + 0 > m) m = d + 0; if ($NF != "ok") f++}
       END {printf "%d checks, %d failed, largest rel diff %.3e", n, f, m}')
echo "test_kernels: exit $k_rc ($(tail -1 "$OUT/test_kernels.log")); line kernels: $k_line"
# 2
vcycle() { # smoother -> "ms/cycle cycles factor"
  "$NAVIER" bench poisson --dim 2 --grid 1704,1704,1 --stretch y:2 --solver mg --tol 1e-8 --backend ${BACKEND:-cuda} \
    --smoother "$1" --repeat 3 --json >"$OUT/poisson_$1.json" 2>"$OUT/poisson_$1.err"
  "$PY" -c 'import json, sys
r = json.load(open(sys.argv[1]))
print("%.3f ms/V-cycle, %d cycles, factor %.3f, solve %.1f ms" % (1e3 * r["solve_s"] / max(r["iterations"], 1),
      r["iterations"], r["factor"], 1e3 * r["solve_s"]))' \
    "$OUT/poisson_$1.json" 2>/dev/null || echo "failed (see $OUT/poisson_$1.err)"
}
declare -A P
for sm in line auto point; do
  P[$sm]=$(vcycle $sm)
  echo "bench poisson 1704^2 tanh y:2, smoother $sm: ${P[$sm]}"
done
# 3
declare -A S K
for sm in auto point; do
  "$NAVIER" bench step --case cases/snake2d_re2000_aoa35.ini --set run.backend=${BACKEND:-cuda} --set pressure.smoother=$sm \
    --steps 100 >"$OUT/step_$sm.log" 2>&1
  S[$sm]=$(grep -o 'step: [0-9.]* ms.*' "$OUT/step_$sm.log" | sed 's/, [0-9.]* ns per cell per step ([^)]*)//')
  K[$sm]=$(grep -E '^  (relax_line x|relax_line y|relax_colour) ' "$OUT/step_$sm.log" |
    awk '{n = $1 ($2 ~ /^[xy]$/ ? " " $2 : ""); u = ($2 ~ /^[xy]$/) ? $4 : $3; printf "%s %s us; ", n, u}')
  echo "snake step, smoother $sm: ${S[$sm]:-failed (see $OUT/step_$sm.log)}"
  echo "  finest-level kernels (1 colour): ${K[$sm]}"
done
echo
echo "== gpu_line summary ($(($(date +%s) - T0)) s) =="
printf "%-40s %s\n" "line kernels CUDA vs CPU (<= 1e-12)" "exit $k_rc, $k_line"
for sm in line auto point; do printf "%-40s %s\n" "poisson 1704^2 y:2 mg, $sm" "${P[$sm]}"; done
for sm in auto point; do
  ms=$(echo "${S[$sm]:-}" | awk '{print $2}')
  printf "%-40s %s\n" "snake step, $sm" "${S[$sm]:-failed}"
  printf "%-40s %s\n" "snake 200000 steps, $sm (min)" "$(awk -v m="$ms" 'BEGIN{if (m > 0) printf "%.1f", m*200000/6e4; else print "-"}')"
done
