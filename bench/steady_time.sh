#!/usr/bin/env bash
# Time to a steady answer: artificial compressibility with multigrid in pseudo-time against the
# projection (today's default of unsteady runs), same case, same grid, same steady_tol, one after
# the other on the same machine. Prints one JSON line per run and a table with the ratio.
#
# usage: bench/steady_time.sh [NAVIER] [OUTDIR] [CASE:NAME[:SETS] ...]
#   default runs: the 2D cavity Re 1000 and Re 3200 on 256^2 (CPU; OMP_NUM_THREADS as set, 2 by
#   default), steady_tol 1e-6; PROJ_LIMIT_S (default 3600) caps each projection run (a capped run
#   reports converged false: the ratio is then a lower bound).
# GPU (the coordinator): NAV_BACKEND=cuda bench/steady_time.sh build/navier out/steady_gpu \
#   cases/natconv2d_ra1e6.ini:natconv_ra1e6 cases/bdc3d_ra1e5.ini:bdc3d_ra1e5
# PROJ_NAVIER=PATH runs the projection with another binary, e.g. today's projection before issue 19
# (commit 74d732c: explicit diffusion, multigrid pressure): the case file and the --set overrides are
# then given to it without the keys it does not know (its `doc case-file`), in a copy under
# OUT/cases (run.method, time.diffusion, ...: the old binary's defaults are the projection with
# explicit diffusion). Its steady_tol is the same measure, max|u^{n+1} - u^n| / (dt max|u|).
# Each run also reports its CPU seconds (user + sys of /usr/bin/time): on a shared machine they
# compare fairer than wall seconds. METHODS="artificial_compressibility projection" (default) picks
# the methods run. LAUNCH (default none) prefixes every run, e.g. LAUNCH="mpiexec -n 2" for 2 ranks (2 GPUs).
set -u
NAVIER=${1:-build/navier}
OUT=${2:-output/bench_steady}
shift 2 2>/dev/null || shift $#
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
BACKEND=${NAV_BACKEND:-cpu}
LIMIT=${PROJ_LIMIT_S:-3600}
PROJ_NAVIER=${PROJ_NAVIER:-$NAVIER}
METHODS=${METHODS:-artificial_compressibility projection}
RUNS=("$@")
if [ ${#RUNS[@]} -eq 0 ]; then
  RUNS=("cases/cavity2d_re1000.ini:cavity_re1000" "cases/cavity2d_re1000.ini:cavity_re3200:physics.nu=3.125e-4")
fi
mkdir -p "$OUT"
rm -f "$OUT/results.jsonl"
summary() { # dir method binary
  /usr/bin/python3 - "$1" "$2" "$3" <<'PY'
import json, sys
d, m, binary = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    s = json.load(open(d + "/summary.json"))
except Exception:
    print(json.dumps({"method": m, "status": "no summary"})); sys.exit()
if "steady" in s:
    st = s["steady"]
else: # a binary before issue 19: steps, wall_s and the stop line of its log
    try:
        reached = "stopped: steady state reached" in open(d + ".log").read()
    except OSError:
        reached = False
    st = {"iterations": s.get("steps"), "wall_s": s.get("wall_s"), "converged": s.get("status") == "completed" and reached}
v = s.get("validation", {})
c = s.get("convection", {})
r = {"case": s["case"], "method": m, "grid": s["grid"], "backend": s["backend"], "status": s["status"],
     "iterations": st.get("iterations"), "residual": st.get("residual"), "converged": st.get("converged"),
     "wall_s": st.get("wall_s"), "work_units": st.get("work_units"), "binary": binary}
try:
    user, sys_s = open(d + ".time").read().splitlines()[-1].split()[:2] # after "Command exited with ..."
    r["cpu_s"] = round(float(user) + float(sys_s), 2)
except Exception:
    pass
if "ghia_max_dev_u" in v:
    r["ghia_dev_u"], r["ghia_dev_v"] = v["ghia_max_dev_u"], v["ghia_max_dev_v"]
if c:
    r["nusselt"] = c["nusselt"]
    r["u_max"], r["v_max"] = c.get("u_max"), c.get("v_max")
print(json.dumps(r))
PY
}
compare() { # ac_dir projection_dir: the two final states, field by field (bench/final_fields_diff.py)
  local d conv
  d=$(/usr/bin/python3 "$(dirname "$0")/final_fields_diff.py" "$1" "$2") || { echo "compare: $d"; return; }
  if grep -q '"steady"' "$2/summary.json"; then
    conv=$(grep -c '"converged": true' "$2/summary.json")
  else # a binary before issue 19
    conv=$(grep -c 'stopped: steady state reached' "$2.log")
  fi
  echo "$(basename "$2" _projection): max|ac - projection| / max|projection|: $d$([ "$conv" -gt 0 ] || echo " (projection NOT converged)")"
}
# keep_known BINARY CASE COPY SETS...: write CASE without the keys BINARY does not know to COPY and
# print the SETS (section.key=value) it knows, one per line
keep_known() {
  /usr/bin/python3 - "$@" <<'PY'
import re, subprocess, sys
binary, case, copy, sets = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
doc = subprocess.run([binary, "doc", "case-file"], capture_output=True, text=True, check=True).stdout
known, sec = set(), None
for l in doc.splitlines():
    m = re.match(r"## \[(\w+)\]", l)
    if m:
        sec = m.group(1)
    m = re.match(r"\| `(\w+)` \|", l)
    if m and sec:
        known.add((sec, m.group(1)))
out, sec = [], None
for l in open(case):
    m = re.match(r"\s*\[(\w+)\]", l)
    if m:
        sec = m.group(1)
    m = re.match(r"\s*(\w+)\s*=", l)
    if m and not l.lstrip().startswith(("#", ";")) and (sec, m.group(1)) not in known:
        continue
    out.append(l)
open(copy, "w").writelines(out)
for s in sets:
    k = s.split("=", 1)[0].split(".")
    if len(k) == 2 and tuple(k) in known:
        print(s)
PY
}
rm -f "$OUT/compare.txt"
for spec in "${RUNS[@]}"; do
  IFS=: read -r case name sets <<<"$spec"
  for method in $METHODS; do
    dir="$OUT/${name}_${method}"
    lim=$LIMIT mon=50 bin=$NAVIER runcase=$case
    [ "$method" = artificial_compressibility ] && lim=$((LIMIT * 4)) mon=10 # a W-cycle costs about 4 fine iterations
    all=(run.backend="$BACKEND" run.name="$name" time.steady_tol=1e-6 output.fields_dt=0 output.fields_every=0
      output.monitor_every=$mon run.method=$method output.dump_final=true ${sets//,/ })
    if [ "$method" = projection ] && [ "$PROJ_NAVIER" != "$NAVIER" ]; then
      bin=$PROJ_NAVIER runcase="$OUT/cases/${name}.ini"
      mkdir -p "$OUT/cases"
      mapfile -t all < <(keep_known "$bin" "$case" "$runcase" "${all[@]}")
    fi
    extra=()
    for s in "${all[@]}"; do extra+=(--set "$s"); done
    rm -rf "$dir"
    /usr/bin/time -f "%U %S %e" -o "$dir.time" timeout --foreground -s INT "$lim" ${LAUNCH:-} "$bin" run "$runcase" --output "$dir" \
      "${extra[@]}" >"$dir.log" 2>&1
    summary "$dir" "$method" "$bin" | tee -a "$OUT/results.jsonl"
  done
  [ -d "$OUT/${name}_artificial_compressibility" ] && [ -d "$OUT/${name}_projection" ] &&
    compare "$OUT/${name}_artificial_compressibility" "$OUT/${name}_projection" | tee -a "$OUT/compare.txt"
done
/usr/bin/python3 - "$OUT/results.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(f"{'case':18} {'method':27} {'iterations':>10} {'work_units':>10} {'residual':>10} {'conv':>5} {'wall_s':>9} {'cpu_s':>9}  validation")
by = {}
for r in rows:
    val = f"Ghia {r['ghia_dev_u']:.4f}/{r['ghia_dev_v']:.4f}" if "ghia_dev_u" in r else ""
    if r.get("nusselt"):
        val = "Nu " + "/".join(f"{x:.4f}" for x in r["nusselt"].values()) + f" u_max {r['u_max']:.3f} v_max {r['v_max']:.3f}"
    wu = f"{r['work_units']:.0f}" if r.get("work_units") is not None else "-"
    cpu = f"{r['cpu_s']:.1f}" if r.get("cpu_s") is not None else "-"
    print(f"{r.get('case','?'):18} {r['method']:27} {r.get('iterations') or 0:>10} {wu:>10} {r.get('residual') or 0:>10.2e} "
          f"{str(r.get('converged')):>5} {r.get('wall_s') or 0:>9.1f} {cpu:>9}  {val}")
    by.setdefault(r.get("case"), {})[r["method"]] = r
for case, m in by.items():
    a, p = m.get("artificial_compressibility"), m.get("projection")
    if a and p and a.get("wall_s") and p.get("wall_s"):
        bound = "" if p.get("converged") else " (projection not converged: a lower bound)"
        cpu = f", CPU time = {p['cpu_s'] / a['cpu_s']:.1f}x" if p.get("cpu_s") and a.get("cpu_s") else ""
        print(f"{case}: projection / artificial compressibility wall time = {p['wall_s'] / a['wall_s']:.1f}x{cpu}{bound}")
PY
cat "$OUT/compare.txt" 2>/dev/null
