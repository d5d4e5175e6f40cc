#!/usr/bin/env bash
# Time to steady state with explicit against implicit diffusion ([time] diffusion), same machine,
# back to back in one run so both see the same load.
#
#   bench/implicit_diffusion.sh [NAVIER] [CASE] [REPEATS] [-- --set ...]
#        default: build/navier cases/cavity2d_re100.ini 1
#
# The projection method (artificial compressibility, the steady cases' default, ignores time.diffusion).
# Each repeat runs the case to its steady state (its own steady_tol) with diffusion = explicit, then
# with diffusion = implicit, and prints per run: steps, simulated time, wall seconds and the
# validation deviations of summary.json (Ghia: max |u - u_ref|, max |v - v_ref|; de Vahl Davis:
# Nusselt number and the velocity maxima); then the wall-time ratio explicit / implicit per repeat.
# Env THREADS (default 2) sets OMP_NUM_THREADS; env BACKEND (default cpu) the backend.
# Example, the coordinator's GPU figure (natural convection, Ra 1e6, 256^2, one GPU):
#   BACKEND=cuda bench/implicit_diffusion.sh build/navier cases/natconv2d_ra1e6.ini 1
set -eu
navier=${1:-build/navier}
case=${2:-cases/cavity2d_re100.ini}
repeats=${3:-1}
shift $(($# < 3 ? $# : 3))
[ "${1:-}" = "--" ] && shift
extra=("$@")
scratch=${SCRATCH:-$(mktemp -d)}
mkdir -p "$scratch"
export OMP_NUM_THREADS=${THREADS:-2}
backend=${BACKEND:-cpu}
for r in $(seq 1 "$repeats"); do
  for mode in explicit implicit; do
    out=$scratch/$mode.$r
    "$navier" run "$case" --set run.method=projection --set time.diffusion=$mode --set run.backend="$backend" \
      --set output.fields_dt=0 \
      --set output.fields_every=0 --set output.progress_interval=1e9 "${extra[@]}" --output "$out" >"$out.log" 2>&1 ||
      { tail -5 "$out.log" >&2; exit 1; }
  done
  /usr/bin/python3 - "$scratch/explicit.$r/summary.json" "$scratch/implicit.$r/summary.json" <<'PY'
import json, sys
rows = [json.load(open(f)) for f in sys.argv[1:3]]
for name, s in zip(("explicit", "implicit"), rows):
    v = s.get("validation", {})
    dev = {k: v[k] for k in sorted(v) if isinstance(v[k], (int, float))}
    conv = s.get("convection", {})
    print("%-8s steps %7d  t %9.5g  wall %8.2f s  validation %s %s" % (name, s["steps"], s["time"], s["wall_s"],
          json.dumps(dev), json.dumps(conv) if conv else ""))
print("ratio explicit/implicit wall time: %.2f" % (rows[0]["wall_s"] / rows[1]["wall_s"]))
PY
done
