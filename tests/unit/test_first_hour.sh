#!/usr/bin/env bash
# What a new user meets in the first hour (issue 17), each through the command a user types:
#   plot      `navier plot DIR [KIND]` works when the python3 first on the PATH lacks matplotlib, and
#             tools/navier-plot run by such a Python names the missing module;
#   default   the default case ends with its final fields and figures (Ghia centre lines, velocity,
#             vorticity) and prints where they are (a coarse grid: the case is the default otherwise);
#   config    the terminal shows only the keys that differ from the defaults, DIR/config.ini holds every
#             key, and `navier run DIR/config.ini` reproduces summary.json;
#   litter    a rejected restart leaves no output folder behind (and an existing one as it was);
#   memory    a grid too large for memory: exit 2 before allocating, bytes needed against available;
#   messages  --output naming a file, --set run.backend errors at --set:N, Ghia deviations of a run
#             that is not converged, --version and the GPUs it sees;
#   monitor   monitor.csv rows are in the file while the run goes on, with the change column.
# usage: test_first_hour.sh NAVIER SCRATCH [PART...]   (default: every part); exit 77 when skipped
set -u
navier=$1
scratch=$2
shift 2
parts=${*:-plot default config litter memory messages monitor}
src=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$scratch"
mkdir -p "$scratch"
cd "$scratch" || exit 1
fails=0
check() { # check DESCRIPTION CONDITION...
  local what=$1
  shift
  if "$@"; then echo "ok $what"; else echo "FAIL $what"; fails=$((fails + 1)); fi
}
has() { [[ " $parts " == *" $1 "* ]]; }
hdf5=$("$navier" --version | grep -c 'hdf5')
plotpy=$(/usr/bin/python3 -c 'import numpy, matplotlib, h5py' 2>/dev/null && echo 1 || echo 0)
small=(--set grid.nx=32 --set grid.ny=32)

# the default case, coarse (plots = true comes with it)
if has default || has plot || has config; then
  if [ "$hdf5" -eq 0 ] || [ "$plotpy" -eq 0 ]; then
    echo "skipped: the default-case figures need navier with HDF5 and a Python with numpy, matplotlib, h5py"
    exit 77
  fi
  "$navier" run "${small[@]}" --output def >def.out 2>def.err
  rc=$?
  check "default: exit 0 (got $rc)" test "$rc" -eq 0
  for png in cavity_centerlines velocity vorticity; do
    check "default: def/plots/$png.png" test -s "def/plots/$png.png"
  done
  check "default: final fields written" test -s def/fields.xmf
  check "default: prints where the figures are" grep -q "^figures: def/plots" def.out
  check "default: prints where the fields are" grep -q "^fields: def/fields_[0-9]*.h5" def.out
fi

if has plot; then
  # a python3 first on the PATH without the Debian packages (no site-packages, as a pyenv Python)
  mkdir -p fakebin
  printf '#!/bin/sh\nexec /usr/bin/python3 -S "$@"\n' >fakebin/python3
  chmod +x fakebin/python3
  check "plot: the fake python3 lacks matplotlib" bash -c "! PATH=$PWD/fakebin:\$PATH python3 -c 'import matplotlib' 2>/dev/null"
  rm -rf def/plots
  PATH=$PWD/fakebin:$PATH "$navier" plot def cavity >plot.out 2>plot.err
  rc=$?
  check "plot: navier plot DIR cavity with that PATH: exit 0 (got $rc)" test "$rc" -eq 0
  check "plot: navier plot DIR cavity made the figure" test -s def/plots/cavity_centerlines.png
  PATH=$PWD/fakebin:$PATH "$navier" plot def >plot2.out 2>plot2.err
  check "plot: navier plot DIR (all kinds) made the velocity figure" test -s def/plots/velocity.png
  PATH=$PWD/fakebin:$PATH "$src/tools/navier-plot" def >tool.out 2>tool.err
  rc=$?
  check "plot: the tool under that python3 exits 1 (got $rc)" test "$rc" -eq 1
  check "plot: ... naming the missing module and navier plot" grep -q "no module 'matplotlib'.*navier plot" tool.err
fi

if has config; then
  check "config: terminal lists the non-default keys" grep -q "^  grid.nx = 32" def.out
  check "config: terminal has no full dump" bash -c "! grep -q '^fourier = ' def.out"
  check "config: def/config.ini has every key" grep -q "^fourier = " def/config.ini
  "$navier" run def/config.ini --output rerun >rerun.out 2>rerun.err
  rc=$?
  check "config: navier run def/config.ini: exit 0 (got $rc)" test "$rc" -eq 0
  same=$(/usr/bin/python3 - <<'PY'
import json
a, b = json.load(open("def/summary.json")), json.load(open("rerun/summary.json"))
for s in (a, b):
    for k in ("wall_s", "source"):
        s.pop(k, None)
    s.get("steady", {}).pop("wall_s", None)  # the time to the steady state, like wall_s
print("same" if a == b else f"differ: {a} {b}")
PY
)
  echo "config: summary.json of the re-run: $same"
  check "config: the re-run gives the same summary.json" test "$same" = same
fi

if has litter; then
  "$navier" run "${small[@]}" --set time.max_steps=5 --set output.checkpoint_interval=5 --output ck >ck.out 2>&1
  ckpt=$(ls ck/checkpoint_*.nck | head -1)
  "$navier" run "${small[@]}" --set physics.nu=0.02 --restart "$ckpt" --output new/deeper >litter.out 2>litter.err
  rc=$?
  check "litter: rejected restart: exit 2 (got $rc)" test "$rc" -eq 2
  check "litter: rejected restart: no folder left behind" test ! -e new
  mkdir -p old && echo keep >old/note
  "$navier" run "${small[@]}" --set physics.nu=0.02 --restart "$ckpt" --output old >litter2.out 2>litter2.err
  check "litter: rejected restart into an existing folder leaves it as it was" test "$(ls -A old)" = note
fi

if has memory; then
  "$navier" run --set grid.nx=1000000 --set grid.ny=1000000 --output huge >mem.out 2>mem.err
  rc=$?
  check "memory: exit 2 (got $rc)" test "$rc" -eq 2
  check "memory: bytes needed against available" \
    grep -Eq "key 'grid.nx': the grid of 1000000000000 cells does not fit in memory: it needs at least [0-9.e+]+ GiB .* and [0-9.e+]+ GiB of (host|device) memory is available" mem.err
  check "memory: nothing created" test ! -e huge
fi

if has messages; then
  echo text >afile
  "$navier" run "${small[@]}" --output afile >m1.out 2>m1.err
  check "messages: --output naming a file: not a folder" grep -q "output folder 'afile': 'afile' exists and is not a folder" m1.err
  CUDA_VISIBLE_DEVICES= "$navier" run "${small[@]}" --set run.backend=cuda --output m2 >m2.out 2>m2.err
  rc=$?
  check "messages: --set run.backend=cuda without a GPU: exit 2 (got $rc)" test "$rc" -eq 2
  check "messages: ... reported at --set:3" grep -q "^--set:3: key 'run.backend'" m2.err
  "$navier" run "${small[@]}" --set time.max_steps=50 --output m3 >m3.out 2>m3.err
  check "messages: Ghia deviations of a run stopped early carry a warning" \
    grep -q "validation: warning: the run stopped before steady state" m3.out
  check "messages: ... and not those of a converged run" bash -c "! grep -q 'validation: warning' def.out 2>/dev/null || ! test -e def.out"
  if "$navier" --version | grep -q "backends: .*cuda"; then
    check "messages: --version says whether a GPU is visible" grep -q "^devices: " <("$navier" --version)
  fi
fi

if has monitor; then
  # rows every 200 steps, a progress line every 0.2 s: once step 600 is passed the file must
  # hold the header and rows 0, 200, 400 while the run goes on
  OMP_NUM_THREADS=1 "$navier" run --set grid.nx=48 --set grid.ny=48 --set time.steady_tol=0 --set time.max_steps=1000000 \
    --set output.monitor_every=200 --set output.progress_interval=0.2 --set output.plots=false --output mon \
    >mon.out 2>mon.err &
  pid=$!
  rows=0
  for _ in $(seq 1 600); do
    sleep 0.1
    step=$(grep -o 'step *[0-9]*' mon.out 2>/dev/null | tail -1 | grep -o '[0-9]*$')
    if [ "${step:-0}" -gt 600 ]; then
      rows=$(wc -l <mon/monitor.csv)
      break
    fi
  done
  alive=$(kill -0 "$pid" 2>/dev/null && echo 1 || echo 0)
  kill -TERM "$pid" 2>/dev/null
  wait "$pid"
  echo "monitor: past step ${step:-?}, monitor.csv has $rows lines, run still going: $alive"
  check "monitor: rows visible during the run (>= 4 lines)" test "$rows" -ge 4 -a "$alive" -eq 1
  check "monitor: change column" grep -q "^step,.*,change$" mon/monitor.csv
fi

echo "test_first_hour: $fails failed"
exit $((fails > 0))
