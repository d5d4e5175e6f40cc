#!/usr/bin/env bash
# A navier built with -DNAV_ENABLE_HDF5=OFF (and without CUDA): configures and builds the navier
# target in a build folder of its own (incremental when it is there already), then runs a small case:
# format = auto writes VTK snapshots and no .h5, format = hdf5 is refused (exit 2, the key named),
# and a checkpoint restart works without HDF5.
# usage: test_build_no_hdf5.sh SOURCE_DIR BUILD_DIR CASE
set -u
SRC=$1 BUILD=$2 CASE=$3
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$BUILD"
cmake -S "$SRC" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DNAV_ENABLE_HDF5=OFF -DNAV_ENABLE_CUDA=OFF >"$BUILD/configure.log" 2>&1 ||
  { tail -20 "$BUILD/configure.log"; fail "configure without HDF5"; }
grep -q "NAV_HAVE_HDF5:INTERNAL=OFF\|NAV_ENABLE_HDF5:BOOL=OFF" "$BUILD/CMakeCache.txt" || fail "the cache does not say HDF5 off"
cmake --build "$BUILD" --target navier -j "${NAV_TEST_JOBS:-2}" >"$BUILD/build.log" 2>&1 ||
  { tail -30 "$BUILD/build.log"; fail "build without HDF5"; }
NAVIER=$BUILD/navier
out=$BUILD/run
rm -rf "$out"
snap=$("$NAVIER" --version | grep '^snapshots:')
case "$snap" in *hdf5*) fail "--version says '$snap' in a build without HDF5" ;; esac
"$NAVIER" run "$CASE" --output "$out" --set grid.nx=16 --set grid.ny=16 --set time.max_steps=4 \
  --set output.fields_every=2 --set output.checkpoint_interval=2 >"$out.log" 2>&1 || { tail -20 "$out.log"; fail "the run"; }
nvtk=$(ls "$out"/fields_*.vtk 2>/dev/null | wc -l)
nh5=$(ls "$out"/*.h5 2>/dev/null | wc -l)
[ "$nvtk" -eq 3 ] && [ "$nh5" -eq 0 ] || fail "format = auto: $nvtk VTK files (expected 3), $nh5 .h5 files (expected 0)"
"$NAVIER" run "$CASE" --output "$out.h5" --set output.format=hdf5 --set time.max_steps=1 >"$out.h5.log" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "key 'output.format'" "$out.h5.log" && [ ! -e "$out.h5/summary.json" ] ||
  { cat "$out.h5.log"; fail "format = hdf5 without HDF5: exit $rc (expected 2, the key named, nothing written)"; }
"$NAVIER" run "$CASE" --output "$out" --restart "$out/checkpoint_00000002.nck" --set grid.nx=16 --set grid.ny=16 \
  --set time.max_steps=6 --set output.fields_every=2 --set output.checkpoint_interval=2 >"$out.restart.log" 2>&1 ||
  { tail -20 "$out.restart.log"; fail "restart without HDF5"; }
grep -q '"steps": 6' "$out/summary.json" || fail "the restart did not reach step 6"
echo "built without HDF5 ($snap): format = auto wrote $nvtk VTK snapshots and no HDF5; format = hdf5 refused (exit 2:" \
  "$(grep -o "key 'output.format'.*" "$out.h5.log" | head -1)); restart from step 2 to 6 ok"
